/* Shared test helpers: run the real binary, read files, compare numbers. */
#ifndef PESCOPE_TEST_HELPERS_H
#define PESCOPE_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

/* |a - b| <= atol + rtol * |b| */
bool th_close(double a, double b, double atol, double rtol);

#endif
