/* Shared test helpers: run the real binary, read files, compare numbers. */
#include "helpers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "kernel/diag.h"
#include "pescope/field.h"

extern char **environ;

const char *
th_bin(void)
{
	const char *b = getenv("PESCOPE_BIN");
	return b != NULL ? b : "./pescope";
}

/* Default signal actions and an empty mask for a child; see helpers.h. */
void
th_child_signals(void)
{
	struct sigaction dfl;
	sigset_t none;

	memset(&dfl, 0, sizeof dfl);
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL); /* EINVAL for glibc's own */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

const char *
th_fixture(const char *name)
{
	static char buf[4096];
	const char *d = getenv("PESCOPE_FIXTURES");
	snprintf(buf, sizeof buf, "%s/%s", d != NULL ? d : "tests/fixtures",
	    name);
	return buf;
}

const char *
th_src(const char *rel)
{
	static char buf[4096];
	const char *d = getenv("PESCOPE_SRCDIR");
	snprintf(buf, sizeof buf, "%s/%s", d != NULL ? d : ".", rel);
	return buf;
}

/* Append what fd has to a growing buffer; returns 0 at end of file. */
static int
drain(int fd, char **buf, size_t *len, size_t *cap)
{
	char tmp[65536];
	ssize_t n = read(fd, tmp, sizeof tmp);
	if (n <= 0)
		return n < 0 && errno == EINTR ? 1 : 0;
	if (*len + (size_t)n + 1 > *cap) {
		while (*len + (size_t)n + 1 > *cap)
			*cap = *cap ? *cap * 2 : 65536;
		*buf = realloc(*buf, *cap);
	}
	memcpy(*buf + *len, tmp, (size_t)n);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
	return 1;
}

int
th_run(const char *const *argv, const char *const *extra_env, char **out,
    size_t *out_len, char **err)
{
	int po[2], pe[2];
	if (pipe(po) != 0 || pipe(pe) != 0)
		return -1;
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);
		dup2(null, 0);
		dup2(po[1], 1);
		dup2(pe[1], 2);
		close(po[0]);
		close(pe[0]);
		th_child_signals();
		for (size_t i = 0; extra_env != NULL && extra_env[i]; i++)
			putenv((char *)extra_env[i]);
		size_t n = 0;
		while (argv[n] != NULL)
			n++;
		char **av = calloc(n + 1, sizeof *av);
		av[0] = (char *)th_bin();
		for (size_t i = 1; i < n; i++)
			av[i] = (char *)argv[i];
		execv(av[0], av);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	char *ob = NULL, *eb = NULL;
	size_t ol = 0, oc = 0, el = 0, ec = 0;
	struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
	int open_fds = 2;
	while (open_fds > 0) {
		if (poll(fds, 2, -1) < 0 && errno != EINTR)
			break;
		for (int k = 0; k < 2; k++) {
			if (fds[k].fd < 0 || fds[k].revents == 0)
				continue;
			int more = k == 0 ? drain(fds[k].fd, &ob, &ol, &oc)
					  : drain(fds[k].fd, &eb, &el, &ec);
			if (!more) {
				close(fds[k].fd);
				fds[k].fd = -1;
				open_fds--;
			}
		}
	}
	int st = 0;
	waitpid(pid, &st, 0);
	if (ob == NULL)
		ob = calloc(1, 1);
	if (eb == NULL)
		eb = calloc(1, 1);
	if (out != NULL)
		*out = ob;
	else
		free(ob);
	if (out_len != NULL)
		*out_len = ol;
	if (err != NULL)
		*err = eb;
	else
		free(eb);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

char *
th_slurp(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (fp == NULL)
		return NULL;
	char *buf = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		if (n + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 131072;
			buf = realloc(buf, cap);
		}
		size_t r = fread(buf + n, 1, 65536, fp);
		n += r;
		if (r == 0)
			break;
	}
	fclose(fp);
	buf[n] = '\0';
	if (len != NULL)
		*len = n;
	return buf;
}

char *
th_tmpdir(void)
{
	char *t = strdup("/tmp/pescope-test-XXXXXX");
	if (mkdtemp(t) == NULL) {
		free(t);
		return NULL;
	}
	return t;
}

int
th_dir_count(const char *dir)
{
	DIR *d = opendir(dir);
	if (d == NULL)
		return -1;
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			n++;
	closedir(d);
	return n;
}

bool
th_close(double a, double b, double atol, double rtol)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (isinf(a) || isinf(b))
		return a == b;
	return fabs(a - b) <= atol + rtol * fabs(b);
}

/* Deterministic pseudo-random numbers (64-bit LCG, Knuth's MMIX). */
uint64_t
th_lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s >> 33;
}

/* Brute-force statistics of a rectangle of a diagonal field. */
void
th_diag_brute(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, struct pe_stats *s)
{
	long double sum = 0;
	uint64_t cnt = 0;
	memset(s, 0, sizeof *s);
	s->min = INFINITY;
	s->max = -INFINITY;
	for (size_t i = r0; i < r1; i++)
		for (size_t j = c0; j < c1; j++) {
			double v = pe_diag_value(f, i, j);
			s->count++;
			if (v == -INFINITY) {
				s->masked++;
				continue;
			}
			sum += v;
			cnt++;
			s->min = fmin(s->min, v);
			s->max = fmax(s->max, v);
		}
	s->mean = cnt ? (double)(sum / cnt) : NAN;
	if (!cnt)
		s->min = s->max = NAN;
}

/* Whether two doubles are the same bits (NaN as NaN). */
static bool
th_same(double a, double b)
{
	return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

/* A diagonal field's grid against its blocks and the direct sums. */
void
th_diag_check_grid(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc)
{
	struct pe_stats *g = calloc(nr * nc, sizeof *g);
	cr_assert_not_null(g);
	cr_assert_eq(pe_diag_grid(f, r0, r1, nr, c0, c1, nc, g, NULL), PE_OK,
	    "[%zu,%zu)/%zu x [%zu,%zu)/%zu", r0, r1, nr, c0, c1, nc);
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < nc; j++) {
			size_t p0, p1, q0, q1;
			struct pe_stats b, w;
			const struct pe_stats *x = &g[i * nc + j];
			pe_field_span(r0, r1, nr, i, &p0, &p1);
			pe_field_span(c0, c1, nc, j, &q0, &q1);
			cr_assert_eq(pe_diag_block(f, p0, p1, q0, q1, false, &b),
			    PE_OK);
			th_diag_brute(f, p0, p1, q0, q1, &w);
			cr_expect(x->count == b.count && x->count == w.count &&
			    x->masked == b.masked && x->masked == w.masked &&
			    x->undefined == 0 && x->resultant == 1.0 &&
			    !x->minmax_exact,
			    "[%zu,%zu)x[%zu,%zu): count %llu masked %llu",
			    p0, p1, q0, q1, (unsigned long long)x->count,
			    (unsigned long long)x->masked);
			cr_expect(th_same(x->mean, b.mean) &&
			    th_same(x->min, b.min) && th_same(x->max, b.max),
			    "[%zu,%zu)x[%zu,%zu): mean %.17g min %.17g max "
			    "%.17g, the block's %.17g %.17g %.17g", p0, p1, q0,
			    q1, x->mean, x->min, x->max, b.mean, b.min, b.max);
			cr_expect(isnan(w.mean) ? isnan(x->mean) :
			    th_close(x->mean, w.mean, 1e-15, 1e-13),
			    "[%zu,%zu)x[%zu,%zu): mean %.17g, sums %.17g", p0,
			    p1, q0, q1, x->mean, w.mean);
			cr_expect(isnan(w.min) ? isnan(x->min) && isnan(x->max) :
			    x->min == w.min && x->max == w.max,
			    "[%zu,%zu)x[%zu,%zu): min %.17g max %.17g, sums "
			    "%.17g %.17g", p0, p1, q0, q1, x->min, x->max, w.min,
			    w.max);
		}
	free(g);
}

/* Awkward tilings of a diagonal field. */
void
th_diag_check_grids(const struct pe_field *f)
{
	size_t n = f->rows;
	th_diag_check_grid(f, 0, n, 7, 0, n, 11);	  /* uneven blocks */
	th_diag_check_grid(f, 0, n, n, 0, n, n / 3 + 1); /* 1-row blocks */
	th_diag_check_grid(f, 0, n, n / 4 + 1, 0, n, n); /* 1-column */
	th_diag_check_grid(f, 0, n, 2, 0, n, 3);	  /* over n / 2 */
	th_diag_check_grid(f, 0, n, 1, 0, n, 1);	  /* one block */
	th_diag_check_grid(f, n / 5, n - 3, 9, 2, n / 2 + 7, 13);
	th_diag_check_grid(f, 3, n / 2, 5, n / 3, n, 17); /* off the origin */
	th_diag_check_grid(f, n / 2, n, 6, 0, n / 2, 4);
}

/* ---- fields: blocks and grids against brute force ---------------- */

/* Brute-force statistics of a rectangle from pe_field_value, in long
 * double. */
void
th_field_brute(const struct pe_field *f, size_t r0, size_t r1, size_t c0, size_t c1,
      struct pe_stats *s)
{
	long double sum = 0, ss = 0, sc = 0;
	uint64_t n = 0;
	memset(s, 0, sizeof *s);
	s->min = INFINITY;
	s->max = -INFINITY;
	for (size_t r = r0; r < r1; r++)
		for (size_t c = c0; c < c1; c++) {
			double v = pe_field_value(f, r, c);
			s->count++;
			if (isnan(v)) {
				s->undefined++;
				continue;
			}
			if (isinf(v) && v < 0) {
				s->masked++;
				continue;
			}
			sum += v;
			ss += sinl(v);
			sc += cosl(v);
			n++;
			s->min = fmin(s->min, v);
			s->max = fmax(s->max, v);
		}
	s->mean = n ? (double)(sum / n) : NAN;
	s->resultant = 1.0;
	if (f->kind == PE_FIELD_ROPE_ANGLE && n) {
		double m = atan2((double)ss, (double)sc);
		s->mean = m < 0 ? m + PE_TWO_PI : m;
		s->resultant = (double)(hypotl(ss, sc) / n);
	}
	if (n == 0)
		s->min = s->max = NAN;
}

/* Compare a block's statistics with brute force. */
void
th_field_expect(const struct pe_field *f, const struct pe_stats *got,
             const struct pe_stats *want, bool minmax, const char *what)
{
	cr_expect_eq(got->count, want->count, "%s: count", what);
	cr_expect_eq(got->masked, want->masked, "%s: masked %llu vs %llu", what,
	             (unsigned long long)got->masked,
	             (unsigned long long)want->masked);
	cr_expect_eq(got->undefined, want->undefined, "%s: undefined", what);
	if (f->kind == PE_FIELD_ROPE_ANGLE) {
		cr_expect(th_close(got->resultant, want->resultant, 1e-9, 1e-9),
		          "%s: R %.15g vs %.15g", what, got->resultant,
		          want->resultant);
		if (want->resultant > 1e-6) {
			double d = remainder(got->mean - want->mean, PE_TWO_PI);
			cr_expect_lt(fabs(d), 1e-8 / want->resultant,
			             "%s: circular mean %.15g vs %.15g", what,
			             got->mean, want->mean);
		}
	} else {
		cr_expect(th_close(got->mean, want->mean, 1e-10, 1e-9),
		          "%s: mean %.15g vs %.15g", what, got->mean,
		          want->mean);
	}
	if (minmax) {
		cr_expect(got->minmax_exact, "%s: minmax not exact", what);
		cr_expect(th_close(got->min, want->min, 1e-12, 1e-12),
		          "%s: min %.15g vs %.15g", what, got->min, want->min);
		cr_expect(th_close(got->max, want->max, 1e-12, 1e-12),
		          "%s: max %.15g vs %.15g", what, got->max, want->max);
	}
}

static uint64_t rng_state = 12345;

/* A deterministic pseudo-random integer in [0, n) (splitmix-style LCG). */
size_t
th_field_rnd(size_t n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (size_t)((rng_state >> 33) % n);
}

/* Random rectangles of f: block == brute force, with and without minmax;
 * then a grid of a random sub-rectangle against its blocks. */
void
th_field_check(const struct pe_field *f, const char *what)
{
	char msg[128];
	for (int t = 0; t < 25; t++) {
		size_t r0 = th_field_rnd(f->rows), r1 = r0 + 1 + th_field_rnd(f->rows - r0);
		size_t c0 = th_field_rnd(f->cols), c1 = c0 + 1 + th_field_rnd(f->cols - c0);
		if (t == 0) {
			r0 = c0 = 0;
			r1 = f->rows;
			c1 = f->cols;
		}
		struct pe_stats got, want;
		bool mm = t % 2 == 0;
		cr_assert_eq(pe_field_block(f, r0, r1, c0, c1, mm, &got),
		             PE_OK);
		th_field_brute(f, r0, r1, c0, c1, &want);
		snprintf(msg, sizeof msg, "%s [%zu,%zu)x[%zu,%zu)", what, r0,
		         r1, c0, c1);
		th_field_expect(f, &got, &want, mm, msg);
	}
	for (int t = 0; t < 4; t++) {
		size_t r0 = th_field_rnd(f->rows), r1 = r0 + 1 + th_field_rnd(f->rows - r0);
		size_t c0 = th_field_rnd(f->cols), c1 = c0 + 1 + th_field_rnd(f->cols - c0);
		size_t nr = 1 + th_field_rnd(9), nc = 1 + th_field_rnd(9);
		if (t == 3) { /* more blocks than items */
			nr = (r1 - r0) + 3;
			nc = (c1 - c0) + 2;
		}
		struct pe_stats *g = calloc(nr * nc, sizeof *g);
		cr_assert_eq(pe_field_grid(f, r0, r1, nr, c0, c1, nc, g),
		             PE_OK);
		for (size_t i = 0; i < nr; i++)
			for (size_t j = 0; j < nc; j++) {
				size_t p0, p1, q0, q1;
				pe_field_span(r0, r1, nr, i, &p0, &p1);
				pe_field_span(c0, c1, nc, j, &q0, &q1);
				struct pe_stats b;
				pe_field_block(f, p0, p1, q0, q1, false, &b);
				snprintf(msg, sizeof msg,
				         "%s grid cell %zu,%zu", what, i, j);
				th_field_expect(f, &g[i * nc + j], &b, false, msg);
			}
		free(g);
	}
}

/* Init a field of kind for cfg and run check_field on it. */
void
th_field_check_kind(const struct pe_config *cfg, enum pe_field_kind kind,
           const char *what)
{
	struct pe_field f;
	char why[256] = "";
	cr_assert_eq(pe_config_check(cfg, why, sizeof why), PE_OK, "%s: %s",
	             what, why);
	cr_assert(pe_field_supported(cfg->enc, kind), "%s", what);
	cr_assert_eq(pe_field_init(&f, kind, cfg), PE_OK, "%s", what);
	th_field_check(&f, what);
	pe_field_free(&f);
}

/* What th_rows_take gathers: the grid the rows make, the next row
 * expected, and a row past which to stop (SIZE_MAX: none). */
struct th_rows {
	struct pe_stats *got;
	size_t nc, next, stop_at;
};

/* A row of pe_field_grid_rows: in order, each once, copied whole; a row
 * of means alone as the cells it stands for (blocks of finite entries
 * alone: count 1 here, which th_field_check_rows lets be the grid's). */
static int
th_rows_take(void *arg, size_t k, const struct pe_field_row *row)
{
	struct th_rows *t = arg;
	cr_assert_eq(k, t->next, "row %zu handed on where %zu was next", k,
	    t->next);
	struct pe_stats *got = t->got + k * t->nc;
	if (row->cells != NULL)
		memcpy(got, row->cells, t->nc * sizeof *got);
	for (size_t j = 0; row->cells == NULL && j < t->nc; j++)
		got[j] = (struct pe_stats){.mean = row->mean[j], .min = NAN,
		    .max = NAN, .resultant = row->resultant != NULL ?
		    row->resultant[j] : 1.0, .count = 0};
	t->next++;
	return k == t->stop_at ? PE_EINTR : PE_OK;
}

/* pe_field_grid_rows against pe_field_grid: every row in order, once,
 * the same bits; a row's status stops it (after the first row and after
 * the last), returned, with no row after it. */
static void
th_field_check_rows(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc, const struct pe_stats *g,
    const char *what)
{
	struct pe_stats *scratch = calloc(nr * nc, sizeof *scratch);
	struct pe_stats *got = calloc(nr * nc, sizeof *got);
	cr_assert(scratch != NULL && got != NULL);
	struct th_rows t = {got, nc, 0, SIZE_MAX};
	cr_assert_eq(pe_field_grid_rows(f, r0, r1, nr, c0, c1, nc, scratch,
	    th_rows_take, &t), PE_OK, "%s: rows", what);
	cr_assert_eq(t.next, nr, "%s: %zu rows of %zu", what, t.next, nr);
	for (size_t i = 0; i < nr * nc; i++) {
		const struct pe_stats *a = &got[i], *b = &g[i];
		/* count 0: a row of means alone, whose blocks must be of
		 * finite entries alone */
		cr_assert(memcmp(&a->mean, &b->mean, sizeof a->mean) == 0 &&
		    memcmp(&a->resultant, &b->resultant, sizeof a->resultant)
		    == 0 && (a->count == b->count || (a->count == 0 &&
		    b->count > 0)) && a->masked == b->masked &&
		    a->undefined == b->undefined, "%s %zux%zu: row %zu cell %zu "
		    "is not the grid's (mean %.17g, %.17g)", what, nr, nc,
		    i / nc, i % nc, a->mean, b->mean);
	}
	size_t stops[2] = {0, nr - 1};
	for (int s = 0; s < 2; s++) {
		t = (struct th_rows){got, nc, 0, stops[s]};
		cr_assert_eq(pe_field_grid_rows(f, r0, r1, nr, c0, c1, nc,
		    scratch, th_rows_take, &t), PE_EINTR, "%s: a row's status",
		    what);
		cr_assert_eq(t.next, stops[s] + 1, "%s: rows after a stop",
		    what);
	}
	free(scratch);
	free(got);
}

/* A grid against pe_field_block cell by cell (struct pe_stats as
 * expect_stats compares them), and its rows handed on
 * (th_field_check_rows). */
void
th_field_check_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr, size_t c0,
           size_t c1, size_t nc, const char *what)
{
	char msg[160];
	struct pe_stats *g = calloc(nr * nc, sizeof *g);
	cr_assert_eq(pe_field_grid(f, r0, r1, nr, c0, c1, nc, g), PE_OK, "%s",
	             what);
	th_field_check_rows(f, r0, r1, nr, c0, c1, nc, g, what);
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < nc; j++) {
			size_t p0, p1, q0, q1;
			struct pe_stats b;
			pe_field_span(r0, r1, nr, i, &p0, &p1);
			pe_field_span(c0, c1, nc, j, &q0, &q1);
			cr_assert_eq(
			    pe_field_block(f, p0, p1, q0, q1, false, &b),
			    PE_OK);
			snprintf(msg, sizeof msg,
			         "%s %zux%zu grid cell %zu,%zu", what, nr, nc,
			         i, j);
			th_field_expect(f, &g[i * nc + j], &b, false, msg);
		}
	free(g);
}

/* Init a field of kind for cfg and check grids of the whole field: fewer
 * blocks than items, equal blocks (a uniform tiling, whose similarity
 * blocks repeat), and more blocks than items (each item spans several). */
void
th_field_check_grids(const struct pe_config *cfg, enum pe_field_kind kind,
            const char *what)
{
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, kind, cfg), PE_OK, "%s", what);
	if (kind == PE_FIELD_PATCH_COSINE)
		f.anchor = f.rows * f.cols / 3;
	size_t R = f.rows, C = f.cols;
	th_field_check_grid(&f, 0, R, R / 3 + 1, 0, C, C / 2 + 1, what);
	if (R >= 4 && C >= 4) /* (a smaller field has no such tiling) */
		th_field_check_grid(&f, 0, R - R % 4, 4, 0, C - C % 4, 4, what);
	if (R >= 2 && C >= 2)
		th_field_check_grid(&f, 1, R, 2 * R + 1, 0, C - 1, 3 * C - 1,
		    what);
	/* one row block (the views' curves): one row, and several */
	th_field_check_grid(&f, R / 2, R / 2 + 1, 1, 0, C, C / 3 + 1, what);
	if (R / 4 + 3 <= R && C >= 2)
		th_field_check_grid(&f, R / 4, R / 4 + 3, 1, 1, C, C + 5, what);
	pe_field_free(&f);
}
