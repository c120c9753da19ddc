/* The one command-line parser, shared by the TUI, snapshot, dump and bench,
 * so that any frame is reproducible from flags. A preset is a shipped
 * config.json, read as --config reads one. Every option is one typed row
 * of a table (options_table.c) that drives parsing, range messages, the
 * "has no effect here" refusal, --help and the completions; every command
 * one row of pe_commands (commands.c). */
#ifndef PESCOPE_APP_OPTIONS_H
#define PESCOPE_APP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "io/io.h"
#include "render/palette.h"
#include "pescope/model.h"
#include "pescope/pescope.h"
#include "pescope/train.h"
#include "render/writer.h"

/* The commands, in the order --help lists them (rows of pe_commands,
 * app.h). */
enum pe_cmd {
	PE_CMD_TUI,
	PE_CMD_SNAPSHOT,
	PE_CMD_DUMP,
	PE_CMD_LESSON,	   /* pescope lesson: the TUI through a lesson */
	PE_CMD_BENCH,
	PE_CMD_COMPLETION, /* pescope completion bash|zsh */
	PE_CMD_MANPAGE,	   /* pescope manpage: troff for pescope.1 */
	PE_CMD_MODEL,	   /* pescope model FILE: a model's layers as text */
	PE_CMD_HELP,	   /* --help (of o->named) */
	PE_CMD_VERSION,
	PE_CMD_LIST_PRESETS,
	PE_CMD_COUNT
};

enum pe_dump_format { PE_DUMP_CSV, PE_DUMP_NPY };

/* Everything parsed. Strings and buffers are owned (pe_options_free). */
struct pe_options {
	enum pe_cmd cmd;	/* what runs (--help: PE_CMD_HELP) */
	enum pe_cmd named;	/* the command the command line named */
	struct pe_config cfg;

	/* dump */
	char *table;		/* table name */
	enum pe_dump_format dump_format;
	bool format_given;
	enum pe_dtype dtype;	/* PE_F32 or PE_F64 */
	bool head_given;	/* --head on the command line or in a preset */
	bool head_in_config;	/* --head is a parameter of the encoding
				   (rope2d mixed's head), not a slice */
	size_t head;		/* CSV slice of a 3-D table; alibi's big head */
	char *output;		/* -o; NULL = standard output */
	size_t threads;		/* --threads; 0 = the online CPUs */

	/* snapshot and TUI */
	int width, height;	/* --size; default 120 x 40 */
	int depth;		/* --color; -1 = decide from the environment */
	enum pe_format snap_format;
	enum pe_theme theme;	/* --theme (TUI and snapshot) */
	bool theme_given;	/* (a handout's default is light) */
	bool cursor_given;
	size_t cursor_p, cursor_j;
	int panel;		/* --panel: enum pe_panel (view/state.h) */
	bool values;		/* --values */
	bool present;		/* --present: the presenter view */
	bool no_chrome;		/* --no-chrome (snapshot) */
	char *record;		/* --record FILE.cast (the TUI), or NULL */
	int graphics;		/* --graphics: enum pe_gfx (tui/tui.h) */
	size_t scale;		/* --scale: pixels a cell is wide (png,
				   svg, pdf); 0: the format's default */
	bool scale_given;

	/* lessons (pescope lesson; snapshot --lesson) */
	char *lesson;		/* --lesson NAME */
	char *lesson_file;	/* --lesson-file FILE */
	bool scene_given;
	size_t scene, scene_step; /* --scene K[.S], from 1 */
	bool lesson_all;	/* snapshot --all: every scene's steps */
	bool lesson_list;	/* lesson --list */
	bool lesson_placeholders; /* lesson --placeholders */
	bool speaker;		/* lesson --speaker */
	char *link;		/* lesson --link PATH */
	bool duration_given;
	double duration;	/* lesson --duration MIN: the lesson's
				   planned minutes, over its own */
	int paper;		/* snapshot -f pdf --paper: enum pe_paper */
	bool paper_given;	/* (the handout's default is a4) */
	bool no_notes;		/* snapshot --all -f pdf --no-notes: the
				   handout without the speaker's notes */
	bool head_own_scale;	/* --head-scale own: alibi's large head on
				   its own colors */
	char *compare;		/* --compare's words, as given */
	struct pe_options *cmp;	/* --compare: pane B's options (this one's
				   with the words applied on top), owned */
	bool pane_b;		/* these are pane B's options */

	/* bench */
	bool bench_quick;	/* --quick: fewer frames */
	bool bench_tables;	/* --tables: table fill throughput */

	/* completion */
	int shell;		/* 0 bash, 1 zsh */

	/* --config FILE or --preset NAME: a model (its layers), and the one
	 * shown */
	char *config;		/* --config's file, or NULL */
	struct pe_arch *arch;	/* its layers (owned), or NULL */
	size_t layer;		/* --layer: the layer cfg is */
	bool model_view;	/* --model-view: start in the model view */

	/* where the config's buffers live */
	char *preset;		/* --preset's name (the tab line's), or NULL */
	bool preset_modified;	/* a config option overrode the preset */
	double *table_data;
	double *freqs_data;	/* --freqs-file, [2, rows, cols] */
	double *short_factor, *long_factor;
	bool d_given, max_len_given, base_given;
	size_t table_rows, table_cols; /* --table-file's shape */
	char *tokens;		/* --tokens */
	size_t *permute;	/* --permute */
	double *bias_data;	/* --bias-file, [heads, buckets] */
	double *embedding;	/* --embedding */
	double *sinks;		/* --sinks, one logit a head */
	/* the attention shape's options given (options_check.c: a window
	 * and chunks at once, a part of a decoupled head from the other, a
	 * temperature's constants) */
	bool window_given, chunk_given, rope_dim_given, nope_dim_given;
	bool floor_scale_given, attn_scale_given, seconds_per_frame_given;

	/* --train: the run, made and trained --train-steps steps by the
	   parse; the config's learned table is its position table */
	bool train_given;
	struct pe_train_config train; /* task, K, seed, lr, vocab; d, n and
				   heads from the config */
	size_t train_steps;	/* --train-steps */
	struct pe_trainer *trainer;
};

/* Parse argv into *o. Returns 0, or 2 with a one-line message in err[cap]
 * naming the option and what is allowed. Nothing is written anywhere.
 * *o is always initialised: call pe_options_free either way. */
int pe_options_parse(struct pe_options *o, int argc, char **argv, char *err,
    size_t cap);
void pe_options_free(struct pe_options *o);

/* Generated from the option table and the command table cmds (docs.c:
 * pe_commands, app.h): the usage text (--help: every command's; after a
 * command, that command's options), the man page (troff) and a completion
 * script (shell 0 bash, 1 zsh). And the list of presets with their
 * sources. */
struct pe_command;
void pe_options_usage(FILE *fp, const struct pe_command *cmds);
void pe_options_help(FILE *fp, const struct pe_command *cmds,
    enum pe_cmd cmd);
void pe_options_man(FILE *fp, const struct pe_command *cmds);
void pe_options_completion(FILE *fp, const struct pe_command *cmds,
    int shell);
void pe_options_list_presets(FILE *fp);
/* The i-th preset --preset accepts (from 0): its name, and its one-line
 * description into about[cap]; NULL past the last. The one list the TUI's
 * preset picker shows. */
const char *pe_options_preset_at(size_t i, char *about, size_t cap);

/* Trim spaces and tabs at both ends of s (and a CR at its end), in
 * place: option = value lines of presets and lessons. */
char *pe_options_trim(char *s);
/* One "option = value" line of a preset or a lesson, in place: '#' starts
 * a comment; *key and *val (NULL without '=') trimmed. False for a blank
 * line. */
bool pe_options_line(char *line, char **key, char **val);

/* The presets: the shipped configs (assets/models/NAME.json) compiled
 * in. Preset i's name (0 ..; NULL past the last): what --preset accepts,
 * in the order --list-presets shows them. */
const char *pe_preset_name(size_t i);
/* The config.json text of preset name, or NULL. */
const char *pe_preset_text(const char *name);
/* Read preset name into *dest as --preset does (pe_hf_read_buf; an
 * unknown name: PE_EINVAL, "--preset 'x': unknown preset; ..."). */
int pe_preset_read(const char *name, struct pe_arch *dest, char *err,
    size_t cap);
/* What the config came from, for messages: --config's file, else
 * --preset's name, else NULL. */
const char *pe_options_model_name(const struct pe_options *o);

/* A kernel message (parameters named as in struct pe_config: "d_model
 * 63: ...") with the flags of the command line instead ("--d-model 63:
 * ..."), into err[cap]. Returns 2. */
int pe_options_flags(const char *why, char *err, size_t cap);


#endif
