/* The option table, shared by the parser (options.c) and what is
 * generated from it (docs.c: --help, the man page, shell completions).
 * Private to src/app. */
#ifndef PESCOPE_APP_OPTIONS_TABLE_H
#define PESCOPE_APP_OPTIONS_TABLE_H

#include <stdbool.h>

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

/* Which encodings a config option changes the numbers of. */
#define E(x) (1u << PE_ENC_##x)
#define E_ALL ((1u << PE_ENC_COUNT) - 1)
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
	O_TEXT_AFTER, O_MROPE_SECTION, O_XPOS_SCALE_BASE, O_XPOS_OFFSET,
	O_ROPE2D, O_FREQS_FILE, O_LAYER, O_TABLE_FILE, O_MAX_LEN,
	O_ROPE_SCALING, O_FACTOR, O_ORIGINAL_MAX_POS, O_MAX_POS, O_BETA_FAST,
	O_BETA_SLOW, O_MSCALE, O_MSCALE_ALL_DIM, O_ATTENTION_FACTOR,
	O_TRUNCATE, O_NO_TRUNCATE, O_LOW_FREQ, O_HIGH_FREQ, O_SHORT_FACTOR,
	O_LONG_FACTOR, O_PARTIAL_ROTARY, O_TRAIN_LEN, O_TOKENS, O_PERMUTE,
	O_MASK, O_BIAS_FILE, O_EMBEDDING, O_SHIFT, O_PRESET, O_PRESET_FILE, O_CURSOR,
	O_PANEL, O_VALUES, O_PRESENT, O_NO_CHROME, O_RECORD, O_COMPARE, O_HEAD,
	O_LESSON, O_LESSON_FILE, O_SCENE, O_ALL, O_LIST, O_PLACEHOLDERS,
	O_SPEAKER, O_LINK, O_SIZE, O_COLOR, O_THEME, O_FORMAT, O_OUTPUT, O_TABLE,
	O_DTYPE, O_THREADS, O_QUICK, O_TABLES, O_LIST_PRESETS, O_HELP, O_VERSION,
	O_COUNT
};

/* Sections of --help, in order. */
enum opt_group {
	G_ENC, G_ROPE, /* config options: they mark a preset modified */
	G_TEACH, G_VIEW, G_LESSON, G_OUT, G_DUMP, G_BENCH, G_MISC, G_COUNT
};


/* An option is refused by snapshot and dump where it changes nothing: with
 * an encoding outside encs, a rope scaling type outside scalings, a
 * relative kind outside kinds; in snapshot also with a panel outside
 * panels (an option of the attention panel in the overview), unless the
 * panel is in also_panels and the encoding in also_encs (the toy's width
 * -d with every encoding). A dump table may also name options in its
 * row (src/app/dump.c): its own, which every other table refuses, and
 * options of other encodings that it takes too. */
struct opt_row {
	const char *name;     /* long name, without "--" */
	char letter;	      /* short name, or 0 */
	bool arg;	      /* takes a value */
	unsigned cmds;	      /* C_* bits */
	unsigned encs;	      /* E() bits: encodings it changes; 0 = none */
	unsigned scalings;    /* R() bits it needs with rope; 0 = any */
	unsigned kinds;	      /* K_* bits it needs with relative; 0 = any */
	enum opt_group group;
	const char *metavar;  /* the value's name in --help */
	const char *help;     /* one or more lines, '\n' between */
	const char *values;   /* the values it takes, space-separated, for
				 completions; NULL: free-form */
	bool file;	      /* the value is a file name */
	unsigned panels;      /* PAN() bits: snapshot's panels it changes;
				 0 = any */
	unsigned also_panels; /* PAN() bits: in these panels it changes */
	unsigned also_encs;   /* E() bits: these encodings too */
};

/* The table, indexed by enum opt_id. */
extern const struct opt_row pe_opts[O_COUNT];

#endif
