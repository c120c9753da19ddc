/* The option table: one typed row per option (in the spirit of tmux's
 * options-table.c). A row says how its value is read (its type, range or
 * choices), where it goes (an offset into struct pe_options), what it
 * applies to and its help. One generic reader (options_apply.c) reads
 * every row; a .parse hook only where an option is genuinely special
 * (options_hooks.c). --help, the man page, the completions (docs.c), the
 * "has no effect here" refusal and the range messages come from the rows.
 * Private to src/app. */
#ifndef PESCOPE_APP_OPTIONS_TABLE_H
#define PESCOPE_APP_OPTIONS_TABLE_H

#include <stdbool.h>
#include <stddef.h>

#include "app/options.h"
#include "view/state.h"

/* Which commands an option applies to. */
#define C_TUI (1u << PE_CMD_TUI)
#define C_SNAP (1u << PE_CMD_SNAPSHOT)
#define C_DUMP (1u << PE_CMD_DUMP)
#define C_BENCH (1u << PE_CMD_BENCH)
#define C_LESSON (1u << PE_CMD_LESSON)
#define C_CONF (C_TUI | C_SNAP | C_DUMP) /* the commands that take a config */
#define C_ANY (C_CONF | C_BENCH | C_LESSON)
#define C_EVERY ((1u << PE_CMD_COUNT) - 1) /* --help: every command's */

/* Which rope scaling types a rope option needs (0: any). */
#define R(x) (1u << PE_ROPE_##x)
/* Which panels of snapshot (0: any). */
#define PAN(x) (1u << PE_PANEL_##x)
/* Which relative kinds (0: any). */
#define K_T5 (1u << PE_REL_T5)
#define K_SHAW (1u << PE_REL_SHAW)

/* The rows of the table; an option's id is its index. */
enum opt_id {
	O_ENCODING, O_D_MODEL, O_SEQ_LEN, O_BASE, O_LAYOUT, O_PAIRING, O_HEADS,
	O_ALIBI_MODE, O_RELATIVE, O_BUCKETS, O_MAX_DISTANCE, O_BIDIRECTIONAL,
	O_UNIDIRECTIONAL, O_MAX_RELATIVE, O_GRID, O_TEXT_BEFORE, O_FRAMES,
	O_TEXT_AFTER, O_MROPE_SECTION, O_MROPE_LAYOUT, O_TOKENS_PER_SECOND,
	O_SECONDS_PER_FRAME, O_XPOS_SCALE_BASE, O_XPOS_OFFSET,
	O_ROPE2D, O_FREQS_FILE, O_LAYER, O_TABLE_FILE, O_MAX_LEN,
	O_ROPE_SCALING, O_FACTOR, O_ORIGINAL_MAX_POS, O_MAX_POS, O_BETA_FAST,
	O_BETA_SLOW, O_MSCALE, O_MSCALE_ALL_DIM, O_ATTENTION_FACTOR,
	O_TRUNCATE, O_NO_TRUNCATE, O_LOW_FREQ, O_HIGH_FREQ, O_SHORT_FACTOR,
	O_LONG_FACTOR, O_PARTIAL_ROTARY, O_ROPE_DIM, O_NOPE_DIM, O_WINDOW,
	O_CHUNK, O_SINKS, O_TEMPERATURE_TUNING, O_FLOOR_SCALE, O_ATTN_SCALE,
	O_TRAIN_LEN, O_TOKENS, O_PERMUTE,
	O_MASK, O_BIAS_FILE, O_EMBEDDING, O_SHIFT, O_TRAIN, O_TRAIN_STEPS,
	O_SEED, O_LR, O_VOCAB, O_PRESET, O_CONFIG,
	O_MODEL_VIEW, O_CURSOR,
	O_PANEL, O_VALUES, O_PRESENT, O_NO_CHROME, O_RECORD, O_COMPARE, O_HEAD,
	O_HEAD_SCALE,
	O_LESSON, O_LESSON_FILE, O_SCENE, O_ALL, O_LIST, O_PLACEHOLDERS,
	O_SPEAKER, O_LINK, O_DURATION, O_PAPER, O_NO_NOTES, O_SIZE, O_COLOR,
	O_THEME, O_GRAPHICS, O_SCALE, O_FORMAT, O_OUTPUT, O_TABLE,
	O_DTYPE, O_THREADS, O_QUICK, O_TABLES, O_LIST_PRESETS, O_HELP, O_VERSION,
	O_COUNT
};

/* Sections of --help, in order. */
enum opt_group {
	G_ENC, G_ROPE, /* config options: they mark a preset modified */
	G_TEACH, G_TRAIN, G_VIEW, G_LESSON, G_OUT, G_DUMP, G_BENCH, G_MISC,
	G_COUNT
};

/* How a row's value is read. */
enum opt_type {
	OPT_FLAG,   /* no value: stores .set into dest */
	OPT_SIZE,   /* an integer in min..max into a size_t */
	OPT_FLOAT,  /* a finite decimal number (within lo, hi) into a double */
	OPT_ENUM,   /* a name of .choices, aliases too, into an enum or int */
	OPT_LIST,   /* numbers "a,b,c" or "@FILE" into an owned double array */
	OPT_FILE,   /* a file's name: an owned string, or read by .parse */
	OPT_STRING, /* an owned string */
};

/* A bound of an OPT_FLOAT range. */
enum opt_bound { B_NONE, B_OPEN, B_CLOSED };

/* A name of a value that only the command line spells (the kernel has no
 * name for it). */
struct opt_name {
	const char *name;
	int value;
};

/* The names an OPT_ENUM row takes: the owning module's one name table
 * (values 0..count-1 by name(), read back by parse(), which takes its
 * aliases too; without parse, the names only), or a table of the app's
 * own (names, NULL-terminated).
 * next: a second set the option also takes (-f: dump's formats). */
struct opt_choices {
	int count;
	const char *(*name)(int value);
	int (*parse)(const char *s); /* a value, or -1 */
	const struct opt_name *names;
	const struct opt_choices *next;
};

/* Completions a row offers beyond its type's (its choices, files). */
enum opt_complete {
	COMPLETE_NONE,
	COMPLETE_PRESETS, /* the compiled-in presets */
	COMPLETE_TABLES,  /* dump's tables */
	COMPLETE_LESSONS, /* the built-in lessons */
};

struct opt_row;
/* A special option's reader: arg into o, or 2 with the message. */
typedef int opt_parse_fn(struct pe_options *o, const struct opt_row *r,
    const char *arg, char *err, size_t cap);

/* A config option applies to the encodings whose kernel rows
 * (pescope/encoding.h) read one of its params or have all of its caps
 * (opt_encs). An option is refused by snapshot and dump where it changes
 * nothing: with an encoding it does not apply to, a rope scaling type
 * outside scalings, a relative kind outside kinds; in snapshot also with a
 * panel outside panels (an option of the attention panel in the
 * overview), unless the panel is in also_panels and the encoding in
 * opt_also_encs (the toy's width -d with every encoding). A dump table may
 * also name options in its row (src/app/dump.c): its own, which every
 * other table refuses, and options of other encodings that it takes too. */
struct opt_row {
	const char *name;     /* long name, without "--" */
	char letter;	      /* short name, or 0 */
	unsigned cmds;	      /* C_* bits */
	enum opt_group group;
	const char *metavar;  /* the value's name in --help */
	const char *help;     /* one or more lines, '\n' between */

	/* how the value is read and where it goes (the type macros below) */
	enum opt_type type;
	bool arg;	      /* takes a value: every type but OPT_FLAG */
	bool file;	      /* the value names a file (or @FILE) */
	size_t dest;	      /* offsetof(struct pe_options, ...) */
	unsigned char width;  /* sizeof the destination (flag, size, enum) */
	size_t given;	      /* offset of a bool set when applied; 0: none */
	size_t alias;	      /* offset of the config's copy of the value (a
				 size, or the pointer to an owned value); 0:
				 none */
	size_t count;	      /* OPT_LIST: offset of its size_t count */
	int set;	      /* OPT_FLAG: the value stored */
	size_t min, max;      /* OPT_SIZE */
	double lo, hi;	      /* OPT_FLOAT, with the kinds of bound: */
	enum opt_bound lo_bound, hi_bound;
	const struct opt_choices *choices; /* OPT_ENUM */
	bool nonempty;	      /* OPT_STRING, OPT_FILE: refuse "" */
	opt_parse_fn *parse;  /* NULL, or the special reader */
	enum opt_complete complete;

	/* what it applies to; a config option is one with params, caps or
	   every_enc (presets and --compare set only those) */
	bool every_enc;	      /* every encoding (-e itself) */
	unsigned params;      /* enum pe_param bits: the encodings that read
				 one of them */
	unsigned caps;	      /* enum pe_enc_cap bits: the encodings that
				 have them all */
	unsigned scalings;    /* R() bits it needs with rope scaling; 0 = any */
	unsigned kinds;	      /* K_* bits it needs with relative; 0 = any */
	unsigned panels;      /* PAN() bits: snapshot's panels it changes;
				 0 = any */
	unsigned also_panels; /* PAN() bits: in these panels it changes */
	unsigned also_params, also_caps; /* the encodings it also changes
				 there (as params and caps) */
};

/* The type of a row and its destination, field f of struct pe_options
 * (cfg.d, cfg.rope.factor, ...). */
#define OPT_AT(f) .dest = offsetof(struct pe_options, f), \
    .width = sizeof(((struct pe_options *)0)->f)
#define OFF(f) offsetof(struct pe_options, f)
#define FLAG(f, v) .type = OPT_FLAG, OPT_AT(f), .set = (v)
#define SIZE(f, a, b) .type = OPT_SIZE, .arg = true, OPT_AT(f), .min = (a), \
    .max = (b)
#define FLOAT(f) .type = OPT_FLOAT, .arg = true, OPT_AT(f)
#define ENUM(f, ch) .type = OPT_ENUM, .arg = true, OPT_AT(f), .choices = &(ch)
#define LIST(f, n, cfgp) .type = OPT_LIST, .arg = true, .file = true, \
    OPT_AT(f), .count = OFF(n), .alias = OFF(cfgp)
#define STRING(f) .type = OPT_STRING, .arg = true, OPT_AT(f)
#define PATH(f) .type = OPT_FILE, .arg = true, .file = true, OPT_AT(f)
/* A value read by a hook (the type says what completions offer). */
#define HOOK(t, fn) .type = (t), .arg = true, .file = (t) == OPT_FILE, \
    .parse = (fn)

/* The table, indexed by enum opt_id. */
extern const struct opt_row pe_opts[O_COUNT];

/* The row called name (a whole long name), or -1. */
int opt_find(const char *name);
/* The encodings (bits 1u << enum pe_encoding) row r applies to, and those
 * it also applies to in its also_panels; whether it is a config option
 * (it applies to some encoding). */
unsigned opt_encs(const struct opt_row *r);
unsigned opt_also_encs(const struct opt_row *r);
bool opt_is_config(int id);
/* Whether row id names a model: --preset NAME or --config FILE (one
 * mechanism: the last one named is the model). */
bool opt_is_model(int id);
/* The i-th name of a set of choices (NULL past the end) and its value. */
const char *opt_choice(const struct opt_choices *ch, int i, int *value);
/* The value of name in ch (a name or an alias), or -1. */
int opt_choice_parse(const struct opt_choices *ch, const char *name);
/* The values a row's completions offer, space-separated into buf (its
 * choices, presets, tables or lessons; docs.c), or NULL for none. */
const char *opt_values(const struct opt_row *r, char *buf, size_t cap);

#endif
