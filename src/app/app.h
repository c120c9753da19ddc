/* The program's commands; each returns the process exit status. */
#ifndef PESCOPE_APP_APP_H
#define PESCOPE_APP_APP_H

#include "app/options.h"

/* Exit statuses. */
#define PE_EXIT_OK 0
#define PE_EXIT_FAIL 1	/* the work failed (a write error) */
#define PE_EXIT_USAGE 2 /* bad input: nothing was written */

int pe_dump_run(const struct pe_options *o);
/* Every dump table's name, space-separated (completions check it); the
 * tables cfg's encoding has, as "a, b, c". */
const char *pe_dump_table_names(char *buf, size_t cap);
const char *pe_dump_tables_of(const struct pe_config *c, char *buf,
    size_t cap);
int pe_snapshot_run(const struct pe_options *o);
int pe_bench_run(const struct pe_options *o);
int pe_tui_run(const struct pe_options *o);

struct pe_state;
/* Start state from options (config, cursor, preset): the TUI and snapshot
 * begin from the same frame. */
void pe_app_state_from_options(const struct pe_options *o,
    struct pe_state *st);

/* Print "pescope: <message>" to standard error. */
void pe_app_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
