/* The program's commands; each returns the process exit status. */
#ifndef PESCOPE_APP_APP_H
#define PESCOPE_APP_APP_H

#include "app/options.h"

/* Exit statuses. */
#define PE_EXIT_OK 0
#define PE_EXIT_FAIL 1	/* the work failed (a write error) */
#define PE_EXIT_USAGE 2 /* bad input: nothing was written */

/* A command: one row of pe_commands (commands.c, as git's builtin table),
 * indexed by enum pe_cmd. The options it takes are the option rows whose
 * cmds name it (options_table.c). */
struct pe_command {
	const char *name;  /* the word after "pescope"; "" the TUI; NULL: one
			      an option asks for (--help, --version) */
	const char *usage; /* its arguments, for --help and the man page */
	const char *what;  /* what it does, one line */
	bool strict;	   /* refuses an option that changes nothing in what
			      it writes (-e X's "has no effect") */
	/* NULL, or what it makes of the n words after it (getopt puts them
	 * last): lesson's NAME, completion's shell; 0 or 2 with a message */
	int (*words)(struct pe_options *o, int n, char **word, char *err,
	    size_t cap);
	int (*run)(const struct pe_options *o); /* the exit status */
};
extern const struct pe_command pe_commands[PE_CMD_COUNT];
/* The commit it was built from, as --version says it ("commit 1a2b3c4d5e6f",
 * "... (from a release tarball)", or that it is unknown): src/app/commit.c.in,
 * written at build time by tools/version.sh. */
extern const char pe_build_commit[];
/* How messages name a command ("the TUI", "snapshot"). */
const char *pe_command_label(enum pe_cmd cmd);

int pe_dump_run(const struct pe_options *o);
/* Every dump table's name, space-separated (completions check it); the
 * tables cfg's encoding has, as "a, b, c". */
const char *pe_dump_table_names(char *buf, size_t cap);
const char *pe_dump_tables_of(const struct pe_config *c, char *buf,
    size_t cap);
/* How a dump table takes an option (its row in dump.c names its own
 * options and those of other encodings it takes too). */
enum pe_dump_scope {
	PE_DUMP_OPT_USUAL,	 /* as the option's row says (its encodings) */
	PE_DUMP_OPT_ALSO,	 /* with every encoding that has the table */
	PE_DUMP_OPT_OTHER_TABLE, /* not at all: it is other tables' own */
};
/* How dump table `table` takes option `opt` (a long name); for
 * PE_DUMP_OPT_OTHER_TABLE the tables it applies to, "a, b and c", into
 * buf. An unknown table takes everything as usual. */
enum pe_dump_scope pe_dump_option_scope(const char *table, const char *opt,
    char *buf, size_t cap);
/* 0 when config c has dump table `name`; else 2 with the message (unknown,
 * or not available for the encoding, with the tables it has). */
int pe_dump_check_table(const struct pe_config *c, const char *name,
    char *err, size_t cap);
/* Fill o's dump table as dump does (prepared, encoded as NPY, written
 * nowhere) with threads threads, or memset as many bytes (memset_only);
 * the wall time, the process's CPU time and the bytes into *seconds,
 * *cpu and *bytes. An exit status. */
int pe_dump_bench(const struct pe_options *o, size_t threads,
    bool memset_only, double *seconds, double *cpu, double *bytes);
/* pescope snapshot without a lesson (snapshot.c). */
int pe_snapshot_run(const struct pe_options *o);
/* pescope lesson (app/lesson_live.c); snapshot --lesson
 * (app/lesson_export.c). */
int pe_lesson_run(const struct pe_options *o);
int pe_snapshot_lesson(const struct pe_options *o);

/* The TUI's preset picker (picker.c): give st the presets --preset takes
 * (its list), and the hook between frames (struct pe_tui_hooks' poll;
 * arg unused) that applies the one chosen to the focused pane. */
struct pe_state;
void pe_app_picker_init(struct pe_state *st);
int pe_app_picker_poll(void *arg, struct pe_state *st);
struct pe_state;
/* The pixel layer a snapshot's format draws on cv: png always (--scale,
 * else PE_SCALE_DEFAULT), svg and pdf with --scale; the cell formats
 * never. */
struct pe_canvas;
void pe_snapshot_pixels(const struct pe_options *o, struct pe_canvas *cv);
/* Write the frame of st at o's size and format to path ("-": standard
 * output), atomically; an exit status. */
int pe_snapshot_write(const struct pe_options *o, const struct pe_state *st,
    const char *path);
int pe_bench_run(const struct pe_options *o);

struct pe_state;
/* Start state from options (config, cursor, preset; app/start.c): the TUI,
 * snapshot and a lesson's steps begin from the same frame. */
void pe_app_state_from_options(const struct pe_options *o,
    struct pe_state *st);

/* Print "pescope: <message>" to standard error. */
void pe_app_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
