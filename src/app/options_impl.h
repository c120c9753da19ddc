/* What the files of the option parser share (private to options*.c):
 *   options_value.c    reading numbers, sizes, pairs, lists and names
 *   options_hooks.c    the special options' readers (the rows' .parse)
 *   options_apply.c    the generic reader of a row; the getopt pass
 *   options_preset.c   models (--preset, --config), applied first
 *   options_check.c    the checks that need every option (finish)
 *   options_compare.c  --compare: pane B's options
 *   options.c          pe_options_parse: the command, then the above
 * Each calls only the ones above it. */
#ifndef PESCOPE_APP_OPTIONS_IMPL_H
#define PESCOPE_APP_OPTIONS_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "app/options.h"
#include "app/options_table.h"

/* options_value.c */
/* Write a one-line message into err[cap] and return 2. */
int opt_fail(char *err, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Read the number s[0..len): a plain decimal in the C locale. */
bool opt_read_number(const char *s, size_t len, double *dest);
/* A whole-string integer in lo..hi; "--opt 's': must be an integer in
 * lo..hi". */
int opt_size(const char *opt, const char *s, size_t lo, size_t hi,
    size_t *dest, char *err, size_t cap);
/* A whole-string finite decimal number. */
int opt_double(const char *opt, const char *s, double *dest, char *err,
    size_t cap);
/* "A<sep>B", both integers in lo..hi; form names it in the message. */
int opt_pair(const char *opt, const char *s, char sep, size_t lo, size_t hi,
    size_t *a, size_t *b, const char *form, char *err, size_t cap);
/* Exactly n comma-separated integers in 0..hi. */
int opt_sizes(const char *opt, const char *s, size_t n, size_t hi,
    size_t *dest, const char *form, char *err, size_t cap);
/* A list "a,b,c" or "@FILE" of numbers into a malloc'd array (replacing
 * *dest), its length into *n. */
int opt_list(const char *opt, const char *s, double **dest, size_t *n,
    char *err, size_t cap);
/* Replace the owned string *dest with a copy of s. */
int opt_own(char **dest, const char *s, char *err, size_t cap);
/* Why a file could not be read, from a pe_file_read status. */
const char *opt_file_why(int st);
/* Append item i of n to a list "a, b or c" (sep_last " or " or " and "). */
void opt_list_item(char *buf, size_t cap, int i, int n, const char *item,
    const char *sep_last);
/* The value of s in ch, or -1 after "--opt 's': must be a, b or c". */
int opt_pick(const char *opt, const struct opt_choices *ch, const char *s,
    char *err, size_t cap);

/* options_hooks.c: the rows' .parse functions */
opt_parse_fn opt_grid, opt_mrope_section, opt_window, opt_chunk, opt_freqs_file, opt_table_file,
    opt_bias_file, opt_permute, opt_shift, opt_scene, opt_cursor,
    opt_frame_size, opt_format, opt_output, opt_train;
/* -f's formats: the writer's (snapshot), then dump's. */
extern const struct opt_choices opt_formats;

/* options_apply.c */
/* One option as getopt_long found it, applied after the model. */
struct opt_hit {
	enum opt_id id;
	const char *arg;
};
/* The defaults every parse starts from. */
void opt_init(struct pe_options *o, enum pe_cmd cmd);
/* Apply row id's value arg (NULL for a flag) to *o by its row. */
int opt_apply(struct pe_options *o, enum opt_id id, const char *arg,
    char *err, size_t cap);
/* One getopt_long pass over av[1 .. ac) (abbreviations included): the
 * options into hits (room for one per character of av), refusing what does
 * not apply to cmd; the first word that is not an option's (or -1) into
 * *word. */
int opt_collect(int ac, char **av, enum pe_cmd cmd, struct opt_hit *hits,
    int *nhits, int *word, char *err, size_t cap);

/* options_preset.c */
/* The model of the last --preset or --config among ha[0..na) then
 * hb[0..nb) (hb: --compare's words, or NULL), at the last --layer among
 * them (else 0), into *o: its layer's config becomes o->cfg. 0 when none
 * is named. */
int opt_apply_model(struct pe_options *o, const struct opt_hit *ha, int na,
    const struct opt_hit *hb, int nb, char *err, size_t cap);
/* Apply hits' options but the models (opt_apply_model's) to *o; given
 * marks them. */
int opt_apply_hits(struct pe_options *o, const struct opt_hit *hits, int n,
    bool *given, char *err, size_t cap);
/* Whether cfg changed a number of the preset's config as. */
bool opt_preset_modified(const struct pe_config *cfg,
    const struct pe_config *as);

/* options_check.c */
/* The checks that need every option; given: the options of the command
 * line. */
int opt_finish(struct pe_options *o, const bool *given, char *err,
    size_t cap);

/* options_compare.c */
/* --compare: pane B's options into o->cmp, from A's hits ha[0..na). */
int opt_compare(struct pe_options *o, const struct opt_hit *ha, int na,
    char *err, size_t cap);

#endif
