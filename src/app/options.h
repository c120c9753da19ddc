/* The one command-line parser, shared by the TUI, snapshot, dump and bench,
 * so that any frame is reproducible from flags. Presets are option files:
 * each line is a long option and its value. */
#ifndef PESCOPE_APP_OPTIONS_H
#define PESCOPE_APP_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "pescope/io.h"
#include "pescope/palette.h"
#include "pescope/pescope.h"
#include "pescope/writer.h"

enum pe_cmd {
	PE_CMD_TUI,
	PE_CMD_SNAPSHOT,
	PE_CMD_DUMP,
	PE_CMD_BENCH,
	PE_CMD_HELP,
	PE_CMD_VERSION,
	PE_CMD_LIST_PRESETS,
};

enum pe_dump_format { PE_DUMP_CSV, PE_DUMP_NPY };

struct pe_options {
	enum pe_cmd cmd;
	struct pe_config cfg;

	/* dump */
	const char *table;	/* table name */
	enum pe_dump_format dump_format;
	enum pe_dtype dtype;	/* PE_F32 or PE_F64 */
	bool head_given;
	size_t head;		/* CSV slice of a 3-D table */
	const char *output;	/* -o; NULL = standard output */

	/* snapshot and TUI */
	int width, height;	/* --size; default 120 x 40 */
	int depth;		/* --color; -1 = decide from the environment */
	enum pe_format snap_format;
	bool cursor_given;
	size_t cursor_p, cursor_j;

	/* bench */
	bool bench_quick;	/* --quick: fewer frames */

	/* where the config's buffers live (owned) */
	const char *preset;	/* name or file the config started from */
	char *preset_source;	/* the preset's "source" line, if any */
	double *table_data;
	double *short_factor, *long_factor;
	bool d_given, max_len_given;
	size_t table_rows, table_cols; /* --table-file's shape */
};

/* Parse argv into *o. Returns 0, or 2 with a one-line message in err[cap]
 * naming the option and what is allowed. Nothing is written anywhere. */
int pe_options_parse(struct pe_options *o, int argc, char **argv, char *err,
    size_t cap);
void pe_options_free(struct pe_options *o);

/* The usage text (for --help) and the list of presets. */
void pe_options_usage(FILE *fp);
void pe_options_list_presets(FILE *fp);

/* Apply a preset's text (lines "option = value", '#' comments) to *o.
 * Returns 0 or 2 with a message. */
int pe_options_apply_preset(struct pe_options *o, const char *name,
    const char *text, char *err, size_t cap);

/* Text of a compiled-in preset, or NULL. */
const char *pe_preset_text(const char *name);

#endif
