/* Shared test helpers: run the real binary, read files, compare numbers. */
#ifndef PESCOPE_TEST_HELPERS_H
#define PESCOPE_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pescope/field.h"

/* Path of the pescope binary under test ($PESCOPE_BIN). */
const char *th_bin(void);
/* Path of a file under tests/fixtures/ (static buffer). */
const char *th_fixture(const char *name);
/* Path of a file under the source tree (static buffer). */
const char *th_src(const char *rel);

/* Run pescope with argv (NULL-terminated, argv[0] ignored), stdin from
 * /dev/null, capturing stdout and stderr (malloc'd, NUL-terminated; either
 * pointer may be NULL). extra_env: "NAME=value" strings or NULL. Returns
 * the exit status, or -1 when it did not exit normally. */
int th_run(const char *const *argv, const char *const *extra_env,
    char **out, size_t *out_len, char **err);

/* In a child about to exec pescope: every signal's action back to its
 * default and none blocked, whatever the test runner was started with (a
 * background job of a non-interactive shell inherits SIGINT and SIGQUIT
 * ignored, nohup SIGHUP), so a test sees what a program started from a
 * terminal's shell sees. */
void th_child_signals(void);

/* Read a whole file (malloc'd, NUL-terminated); NULL when missing. */
char *th_slurp(const char *path, size_t *len);

/* A fresh empty directory under /tmp (static buffer per call site is the
 * caller's job: the result is malloc'd). */
char *th_tmpdir(void);
/* Number of entries in a directory (excluding . and ..). */
int th_dir_count(const char *dir);

struct pe_field;
struct pe_stats;

/* Deterministic pseudo-random numbers (64-bit LCG, Knuth's MMIX). */
uint64_t th_lcg(uint64_t *s);

/* Statistics of a rectangle of a diagonal field (bias, mask, relative),
 * cell by cell through pe_diag_value: the brute force the closed forms are
 * checked against. */
void th_diag_brute(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, struct pe_stats *s);

/* A diagonal field's grid (pe_diag_grid) cell by cell: against
 * pe_diag_block bit for bit, and against th_diag_brute's long double
 * sums (mean within 1e-13, min and max equal). */
void th_diag_check_grid(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc);

/* th_diag_check_grid on the awkward tilings of an n x n diagonal field:
 * blocks that do not divide n, 1-row and 1-column blocks, blocks larger
 * than n / 2, one block, rectangles off the origin. */
void th_diag_check_grids(const struct pe_field *f);

/* Fields against brute force (pe_field_value, in long double): the
 * statistics of a rectangle; a comparison (angles: circular mean and
 * resultant); 25 random blocks (every other with min/max) and 4 grids of
 * f; the same for a field of kind for cfg (checked first); a grid against
 * its blocks cell by cell; grids of a whole field at several tilings (a
 * patch-cosine field anchored a third of the way in). th_field_rnd: a
 * deterministic integer in [0, n). */
void th_field_brute(const struct pe_field *f, size_t r0, size_t r1,
    size_t c0, size_t c1, struct pe_stats *s);
void th_field_expect(const struct pe_field *f, const struct pe_stats *got,
    const struct pe_stats *want, bool minmax, const char *what);
size_t th_field_rnd(size_t n);
void th_field_check(const struct pe_field *f, const char *what);
void th_field_check_kind(const struct pe_config *cfg,
    enum pe_field_kind kind, const char *what);
void th_field_check_grid(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc, const char *what);
void th_field_check_grids(const struct pe_config *cfg,
    enum pe_field_kind kind, const char *what);

/* |a - b| <= atol + rtol * |b| */
bool th_close(double a, double b, double atol, double rtol);

#endif
