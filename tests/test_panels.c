/* The right column's panels, read off the rendered canvas and
 * compared with values computed here from the papers' formulas: the worked
 * example, the toy attention's permutation gap, the values table, M_K, the
 * decay bound, ALiBi's recency, NoPE's start share and --train-len's
 * marks; and at the sizes users have, every panel draws whole words. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "render/canvas.h"
#include "render/draw.h"
#include "pescope/learned.h"
#include "pescope/relative.h"
#include "pescope/rope.h"
#include "pescope/toy.h"
#include "pescope/train.h"
#include "render/pool.h"
#include "view/encoding.h"
#include "view/view.h"

/* The text of canvas line y from column x0 on, as UTF-8 (static). */
static const char *
text_from(const struct pe_canvas *cv, int y, int x0)
{
	static char buf[4096];
	size_t n = 0;
	for (int x = x0; x < cv->w && n + 4 < sizeof buf; x++)
		n += (size_t)pe_utf8_encode(cv->cells[y * cv->w + x].cp, buf + n);
	buf[n] = '\0';
	return buf;
}

/* The lines of the body from column x0 on, joined by single blanks (a
 * caption however it wraps; static). */
static const char *
column(const struct pe_canvas *cv, int x0)
{
	static char all[65536];
	size_t n = 0;
	all[0] = '\0';
	for (int y = 2; y < cv->h - 3; y++) {
		const char *l = text_from(cv, y, x0);
		while (*l == ' ')
			l++;
		size_t k = strlen(l);
		while (k > 0 && l[k - 1] == ' ')
			k--;
		if (k == 0 || n + k + 2 >= sizeof all)
			continue;
		if (n > 0)
			all[n++] = ' ';
		memcpy(all + n, l, k);
		n += k;
		all[n] = '\0';
	}
	return all;
}

/* column() of the right column (the frame's rw: 2/5 of the width, 30 to
 * 80 cells). */
static const char *
right(const struct pe_canvas *cv)
{
	int rw = cv->w * 2 / 5;
	rw = rw < 30 ? 30 : rw > 80 ? 80 : rw;
	return column(cv, cv->w - rw);
}

/* The first line at or after column x0 whose text contains s, or -1. */
static int
find(const struct pe_canvas *cv, int x0, const char *s)
{
	for (int y = 0; y < cv->h; y++)
		if (strstr(text_from(cv, y, x0), s) != NULL)
			return y;
	return -1;
}

/* Render st at w x h into cv (freed by the caller) and where the frame's
 * parts landed into hit (may be NULL); the frame's status. */
static int
render_hit(const struct pe_state *st, int w, int h, struct pe_canvas *cv,
    struct pe_hit *hit)
{
	struct pe_model m;
	cr_assert_eq(pe_model_init(&m, &st->pane[st->focus].cfg), PE_OK);
	cr_assert_eq(pe_canvas_init(cv, w, h), PE_OK);
	int rc = pe_view_render(st, &m, cv, hit);
	pe_model_free(&m);
	return rc;
}
/* The same without the hit. */
static int
render(const struct pe_state *st, int w, int h, struct pe_canvas *cv)
{
	return render_hit(st, w, h, cv, NULL);
}


/* A state of encoding enc on the defaults, showing panel p. */
static void
state(struct pe_state *st, struct pe_config *cfg, enum pe_panel p)
{
	pe_state_init(st, cfg);
	st->pane[st->focus].panel = p;
}

/* The numbers after `label` on the line holding it, right of x0: up to max
 * into v; returns how many. */
static int
numbers_after(const struct pe_canvas *cv, int x0, const char *label,
    double *v, int max)
{
	int y = find(cv, x0, label);
	if (y < 0)
		return 0;
	const char *l = text_from(cv, y, x0);
	const char *p = strstr(l, label) + strlen(label);
	int n = 0;
	while (n < max && *p != '\0') {
		char *end;
		double x = strtod(p, &end);
		if (end == p) {
			p++;
			continue;
		}
		v[n++] = x;
		p = end;
	}
	return n;
}

/* The number after `key` in the right column's text however it wraps,
 * else on an inspector line (NAN if none). */
static double
number_after(const struct pe_canvas *cv, const char *key)
{
	const char *all = right(cv), *at = strstr(all, key);
	if (at != NULL)
		return strtod(at + strlen(key), NULL);
	for (int y = cv->h - 3; y < cv->h - 1; y++) {
		const char *l = text_from(cv, y, 0);
		if ((at = strstr(l, key)) != NULL)
			return strtod(at + strlen(key), NULL);
	}
	return NAN;
}

/* ---- the worked example ----------------------------------------------- */

static const double ex_x[4] = {0.51, -0.22, 0.88, 0.14};

/* The example: -e sinusoidal -d 4 --embedding 0.51,-0.22,0.88,0.14
 * at position 0 reads 0.51 0.78 0.88 1.14; at 5 it is x + (sin 5, cos 5,
 * sin 0.05, cos 0.05); the norms and the angle are those of the vectors. */
Test(panels, worked_example_adds_the_position)
{
	static const size_t ps[] = {0, 5};
	for (size_t t = 0; t < 2; t++) {
		struct pe_config cfg;
		struct pe_state st;
		struct pe_canvas cv;
		pe_config_default(&cfg);
		cfg.d = 4;
		cfg.n = 16;
		cfg.teach.embedding = ex_x;
		cfg.teach.n_embedding = 4;
		state(&st, &cfg, PE_PANEL_EXAMPLE);
		st.cur_r = ps[t];
		cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
		double p = (double)ps[t], w1 = 1.0 / 100.0; /* 10000^(-2/4) */
		double pe[4] = {sin(p), cos(p), sin(p * w1), cos(p * w1)};
		double want[4], got[8], sx = 0, sy = 0, dot = 0;
		for (int j = 0; j < 4; j++) {
			want[j] = ex_x[j] + pe[j];
			sx += ex_x[j] * ex_x[j];
			sy += want[j] * want[j];
			dot += ex_x[j] * want[j];
		}
		char label[32];
		snprintf(label, sizeof label, "x+PE(%zu)", ps[t]);
		int rx = cv.w - cv.w * 2 / 5;
		cr_assert_eq(numbers_after(&cv, rx, label, got, 8), 4, "%s",
		    text_from(&cv, find(&cv, rx, label), rx));
		for (int j = 0; j < 4; j++)
			cr_expect(fabs(got[j] - want[j]) <= 0.006, "p %zu dim %d: %g, "
			    "want %g", ps[t], j, got[j], want[j]);
		if (ps[t] == 0) { /* the numbers, as printed */
			int y = find(&cv, rx, label);
			const char *l = text_from(&cv, y, rx);
			const char *nums[] = {"0.51", "0.78", "0.88", "1.14"};
			const char *at = l;
			for (int j = 0; j < 4; j++) {
				at = strstr(at, nums[j]);
				cr_assert_not_null(at, "%s lacks %s", l, nums[j]);
			}
		}
		/* |x|, |x + PE(p)| and the angle between them */
		snprintf(label, sizeof label, "|x + PE(%zu)| = ", ps[t]);
		double n1 = number_after(&cv, "|x| = "), n2 = number_after(&cv, label);
		cr_expect(fabs(n1 - sqrt(sx)) <= 1e-3, "|x| %g vs %g", n1, sqrt(sx));
		cr_expect(fabs(n2 - sqrt(sy)) <= 1e-3 * sqrt(sy), "%g vs %g", n2,
		    sqrt(sy));
		snprintf(label, sizeof label, "angle(x, x + PE(%zu)) = ", ps[t]);
		double ang = number_after(&cv, label);
		double want_ang = acos(dot / sqrt(sx * sy));
		cr_expect(fabs(ang - want_ang) <= 1e-3, "angle %g vs %g", ang,
		    want_ang);
		pe_canvas_free(&cv);
	}
}

/* RoPE: x and R_m x; HF's half pairing rotates dims (0, 2) by m and
 * (1, 3) by m/100 at d = 4; the length stays |x|. */
Test(panels, worked_example_rotates_and_keeps_the_length)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.d = 4;
	cfg.n = 16;
	cfg.teach.embedding = ex_x;
	cfg.teach.n_embedding = 4;
	state(&st, &cfg, PE_PANEL_EXAMPLE);
	st.cur_r = 3;
	cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
	double want[4], t0 = 3.0, t1 = 0.03;
	want[0] = ex_x[0] * cos(t0) - ex_x[2] * sin(t0);
	want[2] = ex_x[2] * cos(t0) + ex_x[0] * sin(t0);
	want[1] = ex_x[1] * cos(t1) - ex_x[3] * sin(t1);
	want[3] = ex_x[3] * cos(t1) + ex_x[1] * sin(t1);
	double got[8];
	int rx = cv.w - cv.w * 2 / 5;
	cr_assert_eq(numbers_after(&cv, rx, "R_3 x", got, 8), 4);
	for (int j = 0; j < 4; j++)
		cr_expect(fabs(got[j] - want[j]) <= 0.006 * (1 + fabs(want[j])),
		    "dim %d: %g, want %g", j, got[j], want[j]);
	double nx = sqrt(0.51 * 0.51 + 0.22 * 0.22 + 0.88 * 0.88 + 0.14 * 0.14);
	cr_expect(fabs(number_after(&cv, "|x| = ") - nx) <= 1e-5);
	cr_expect(fabs(number_after(&cv, "|R_3 x| = ") - nx) <= 1e-5);
	cr_expect(find(&cv, rx, "= |x|") >= 0, "says the length is kept");
	pe_canvas_free(&cv);
}

/* ---- the toy attention ------------------------------------------------ */

/* The toy attention of sinusoidal over words[t] at width d, computed here:
 * the embeddings from the generator (tests/test_toy.c checks it against
 * numpy), the rest from the formula in toy.h. */
static void
toy_here(const char *const *words, size_t t, size_t d, double *a)
{
	double *q = malloc(t * d * sizeof *q), top, sum;
	for (size_t i = 0; i < t; i++) {
		pe_toy_embedding(words[i], strlen(words[i]), d, q + i * d);
		for (size_t c = 0; c < d; c += 2) {
			double w = pow(10000.0, -(double)c / (double)d);
			q[i * d + c] += sin((double)i * w);
			q[i * d + c + 1] += cos((double)i * w);
		}
	}
	for (size_t i = 0; i < t; i++) {
		top = -INFINITY;
		for (size_t j = 0; j < t; j++) {
			double s = 0;
			for (size_t c = 0; c < d; c++)
				s += q[i * d + c] * q[j * d + c];
			a[i * t + j] = s / sqrt((double)d);
			top = fmax(top, a[i * t + j]);
		}
		sum = 0;
		for (size_t j = 0; j < t; j++)
			sum += a[i * t + j] = exp(a[i * t + j] - top);
		for (size_t j = 0; j < t; j++)
			a[i * t + j] /= sum;
	}
	free(q);
}

/* NoPE with --mask none: the permuted sentence's attention mapped back is
 * the same matrix, and the panel prints the gap as 0; sinusoidal's gap is
 * the one computed here (clearly not 0). */
Test(panels, permutation_gap_is_zero_without_positions)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_NOPE;
	cfg.teach.mask = PE_TOY_MASK_NONE;
	state(&st, &cfg, PE_PANEL_ATTENTION);
	cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
	int y = find(&cv, 0, "max |A − P·A′·Pᵀ| = ");
	cr_assert_geq(y, 0);
	const char *l = strstr(text_from(&cv, y, 0), "= ") + 2;
	cr_expect(l[0] == '0' && (l[1] == ' ' || l[1] == ':'), "gap: %s", l);
	cr_expect(strstr(right(&cv), "sees a bag of words") != NULL);
	pe_canvas_free(&cv);

	/* the causal mask (NoPE's default) sees order */
	cfg.teach.mask = PE_TOY_MASK_AUTO;
	state(&st, &cfg, PE_PANEL_ATTENTION);
	cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
	cr_expect_gt(number_after(&cv, "max |A − P·A′·Pᵀ| = "), 0.01);
	pe_canvas_free(&cv);

	/* sinusoidal: "the man bit the dog" mapped back against the sentence */
	static const char *const s[] = {"the", "dog", "bit", "the", "man"};
	static const size_t perm[] = {0, 4, 2, 3, 1};
	const char *p[5];
	double a[25], b[25], gap = 0;
	for (int i = 0; i < 5; i++)
		p[i] = s[perm[i]];
	toy_here(s, 5, 64, a);
	toy_here(p, 5, 64, b);
	for (int i = 0; i < 5; i++)
		for (int j = 0; j < 5; j++) /* token perm[i] of s is token i of p */
			gap = fmax(gap, fabs(a[perm[i] * 5 + perm[j]] - b[i * 5 + j]));
	pe_config_default(&cfg);
	state(&st, &cfg, PE_PANEL_ATTENTION);
	cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
	double got = number_after(&cv, "max |A − P·A′·Pᵀ| = ");
	cr_expect(gap > 1e-3 && fabs(got - gap) <= 5e-3 * gap,
	    "gap %g, computed %g", got, gap);
	cr_expect(strstr(right(&cv), "\"the man bit the dog\"") != NULL);
	pe_canvas_free(&cv);
}

/* relative without --bias-file: the bias is learned; the panel says so and
 * shows the buckets (here with values: T5's bucket of key − query). */
Test(panels, relative_without_a_bias_shows_buckets)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_RELATIVE;
	state(&st, &cfg, PE_PANEL_ATTENTION);
	st.values = true;
	cr_assert_eq(render(&st, 200, 60, &cv), PE_OK);
	cr_expect(strstr(right(&cv), "bias is learned") != NULL);
	cr_expect(strstr(right(&cv), "--bias-file") != NULL);
	/* bidirectional, 32 buckets: rel 0 -> 0, rel -1 -> 1, rel +1 -> 17 */
	int rx = cv.w - 80;
	int y = find(&cv, rx, "dog");
	cr_assert_geq(y, 0);
	double v[8];
	int n = numbers_after(&cv, rx, "dog", v, 8);
	cr_assert_eq(n, 5, "%s", text_from(&cv, y, rx));
	cr_expect(v[0] == 1 && v[1] == 0 && v[2] == 17 && v[3] == 18 &&
	    v[4] == 19, "%g %g %g %g %g", v[0], v[1], v[2], v[3], v[4]);
	pe_canvas_free(&cv);
}

/* ---- values over the colors ------------------------------------------- */

/* pescope snapshot -e sinusoidal -n 5 -d 4 --values: the t = 5, d = 4
 * table, sin(t·ω) and cos(t·ω) with ω = 1 and 1/100, three decimals; --base
 * changes θ. */
Test(panels, values_table_t5_d4)
{
	static const double bases[] = {10000, 100};
	for (int k = 0; k < 2; k++) {
		struct pe_config cfg;
		struct pe_state st;
		struct pe_canvas cv;
		pe_config_default(&cfg);
		cfg.n = 5;
		cfg.d = 4;
		cfg.base = bases[k];
		pe_state_init(&st, &cfg);
		st.values = true;
		cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
		int lw = cv.w - cv.w * 2 / 5 - 2, rows = 0;
		for (int y = 2; y < cv.h - 3 && rows < 5; y++) {
			char l[1024];
			cr_assert_lt(snprintf(l, sizeof l, "%s",
			    text_from(&cv, y, 0)), (int)sizeof l);
			l[lw * 3 < (int)sizeof l ? lw * 3 : 0] = '\0';
			double v[8];
			int n = 0;
			for (char *p = l + 2, *end; *p != '\0' && n < 8;) {
				double x = strtod(p, &end);
				if (end == p || strchr(p, '.') == NULL)
					p++;
				else if (memchr(p, '.', (size_t)(end - p)) != NULL)
					v[n++] = x, p = end;
				else
					p = end;
			}
			if (n != 4)
				continue;
			double w1 = 1.0 / sqrt(bases[k]), t = rows; /* base^(-2/4) */
			double want[4] = {sin(t), cos(t), sin(t * w1), cos(t * w1)};
			for (int j = 0; j < 4; j++)
				cr_expect(fabs(v[j] - want[j]) <= 0.0005 + 1e-12,
				    "base %g t %d dim %d: %g, want %.3f", bases[k], rows, j,
				    v[j], want[j]);
			rows++;
		}
		cr_expect_eq(rows, 5, "base %g: %d rows of 4 values", bases[k],
		    rows);
		cr_expect(find(&cv, 0, "0.841") >= 0);
		pe_canvas_free(&cv);
	}
}

/* Without room (64 x 64 in 120 x 40: a sample is one element, half a cell
 * high), no numbers are drawn over the map. */
Test(panels, values_only_where_they_fit)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	pe_state_init(&st, &cfg);
	st.values = true;
	cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
	for (int y = 3; y < 30; y++)
		cr_expect(strchr(text_from(&cv, y, 3), '.') == NULL ||
		    strstr(text_from(&cv, y, 3), "0.") == NULL, "line %d: %s", y,
		    text_from(&cv, y, 0));
	pe_canvas_free(&cv);
}

/* ---- M_K ---------------------------------------------------------------- */

/* d = 4, K = 1: M_K holds cos 1, sin 1, cos 0.01, sin 0.01 in its 2x2
 * blocks (values on), and the residual is at rounding level. */
Test(panels, shift_matrix_and_residual)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	cfg.d = 4;
	cfg.n = 32;
	state(&st, &cfg, PE_PANEL_SHIFT);
	st.values = true;
	cr_assert_eq(render(&st, 200, 60, &cv), PE_OK);
	int rx = cv.w - 80;
	char want[4][16];
	snprintf(want[0], 16, "%.3f", cos(1.0));
	snprintf(want[1], 16, "%.3f", sin(1.0));
	snprintf(want[2], 16, "%.3f", cos(0.01));
	snprintf(want[3], 16, "%.3f", sin(0.01));
	for (int i = 0; i < 4; i++)
		cr_expect(find(&cv, rx, want[i]) >= 0, "M_K lacks %s", want[i]);
	snprintf(want[0], 16, "-%.3f", sin(1.0));
	cr_expect(find(&cv, rx, want[0]) >= 0, "M_K lacks %s", want[0]);
	/* the residual, however the caption wraps */
	const char *all = column(&cv, rx);
	const char *r = strstr(all, "M_K·PE(p)| = ");
	cr_assert_not_null(r, "%s", all);
	double res = strtod(r + strlen("M_K·PE(p)| = "), NULL);
	cr_expect(res >= 0 && res < 1e-12, "residual %g", res);
	cr_expect(strstr(all, "over p = 0..30") != NULL, "%s", all);
	pe_canvas_free(&cv);
}

/* ---- RoPE's decay, ALiBi's recency, NoPE's share ---------------------- */

/* The bound (1/P) Σ_{j=1..P} |Σ_{k<j} e^{i r θ_k}| at r = the cursor's m,
 * θ_k = base^(-2k/d), as the inspector prints it. */
Test(panels, decay_bound_in_the_inspector)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.d = 16;
	cfg.n = 256;
	state(&st, &cfg, PE_PANEL_DECAY);
	st.cur_r = 40;
	cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
	double re = 0, im = 0, tot = 0;
	for (int k = 0; k < 8; k++) {
		double th = 40.0 * pow(10000.0, -2.0 * k / 16.0);
		re += cos(th), im += sin(th);
		tot += sqrt(re * re + im * im);
	}
	double got = number_after(&cv, "= (1/8)·");
	int y = find(&cv, 0, "bound(r = 40)");
	cr_assert_geq(y, 0);
	const char *l = text_from(&cv, y, 0);
	const char *eq = strstr(strstr(l, "(1/8)·"), " = ");
	cr_assert_not_null(eq, "%s", l);
	double v = strtod(eq + 3, NULL);
	cr_expect(fabs(v - tot / 8) <= 1e-7, "bound %g, want %g (%g)", v,
	    tot / 8, got);
	cr_expect(find(&cv, 0, "(P + 1)/2 = 4.5") >= 0);
	pe_canvas_free(&cv);
}

/* The last query's attention to key j from the biases alone, averaged over
 * 8 heads with slopes 2^-k (k = 1..8): the inspector's number. */
Test(panels, alibi_recency_in_the_inspector)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI;
	cfg.n = 64;
	state(&st, &cfg, PE_PANEL_RECENCY);
	st.cur_c = 60;
	cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
	double want = 0;
	for (int h = 1; h <= 8; h++) {
		double m = pow(2.0, -h), sum = 0;
		for (int k = 0; k < 64; k++)
			sum += exp(-m * (63 - k));
		want += exp(-m * (63 - 60)) / sum / 8;
	}
	int y = find(&cv, 0, "recency[q=63, k=60]");
	cr_assert_geq(y, 0);
	const char *l = text_from(&cv, y, 0);
	const char *eq = strrchr(l, '=');
	cr_expect(fabs(strtod(eq + 1, NULL) - want) <= 1e-8, "%s vs %.9g", l,
	    want);
	cr_expect(strstr(right(&cv), "lost in the middle") != NULL);
	pe_canvas_free(&cv);
}

Test(panels, nope_start_share)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_NOPE;
	state(&st, &cfg, PE_PANEL_SHARE);
	st.cur_r = 5;
	cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
	cr_expect(fabs(number_after(&cv, "= 1/6 = ") - 1.0 / 6) <= 1e-9);
	pe_canvas_free(&cv);
}

/* ---- --train-len -------------------------------------------------------- */

/* rope, d 64, n 64, --train-len 32: the map marks rows 32.. beside its
 * axis, the legend says so, and the pairs whose wavelength 2π·10000^(2j/64)
 * exceeds 32 are counted and named. */
Test(panels, train_len_marks_and_names)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.teach.train_len = 32;
	pe_state_init(&st, &cfg);
	cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
	size_t first = 32;
	for (size_t j = 0; j < 32; j++)
		if (6.283185307179586 * pow(10000.0, 2.0 * j / 64) > 32) {
			first = j;
			break;
		}
	char want[96];
	snprintf(want, sizeof want, "%zu of 32 pairs (j %zu–31)", 32 - first,
	    first);
	cr_expect(strstr(right(&cv), want) != NULL, "no '%s'", want);
	cr_expect(find(&cv, 0, "┊ ≥ 32: past train_len") >= 0);
	/* the marker column: none above the rows of position 32, some below */
	int marks = 0, first_y = -1;
	for (int y = 2; y < cv.h - 3; y++)
		for (int x = 0; x < 4; x++)
			if (cv.cells[y * cv.w + x].cp == 0x250a) {
				marks++;
				if (first_y < 0)
					first_y = y;
			}
	cr_expect_gt(marks, 5);
	/* 64 rows in the map's lines: row 32 starts halfway down */
	cr_expect(first_y > 10, "first mark on line %d", first_y);
	pe_canvas_free(&cv);

	/* vit2d has no positions to mark */
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_VIT2D;
	cfg.teach.train_len = 3;
	pe_state_init(&st, &cfg);
	cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
	cr_expect(find(&cv, 0, "train_len") < 0);
	pe_canvas_free(&cv);
}

/* ---- every panel at every size ---------------------------------------- */

/* A word without the ',', ';' or ':' that ends an item (pe_text_fit
 * drops it before " …"), in place. */
static char *
bare(char *t)
{
	size_t n = strlen(t);
	if (n > 1 && strchr(",;:", t[n - 1]) != NULL)
		t[n - 1] = '\0';
	return t;
}

/* Whether word tok is among the words of canvas cv from column x0 on (any
 * line). */
static bool
has_token(const struct pe_canvas *cv, int x0, const char *tok)
{
	for (int y = 0; y < cv->h; y++) {
		char l[4096];
		snprintf(l, sizeof l, "%s", text_from(cv, y, x0));
		for (char *save, *t = strtok_r(l, " ", &save); t != NULL;
		     t = strtok_r(NULL, " ", &save))
			if (strcmp(bare(t), tok) == 0)
				return true;
	}
	return false;
}

/* Every encoding's every panel draws at 80x24, 120x40 and 200x60 without
 * a failure, and each word of a new panel's column at 80x24 and 120x40 is
 * a whole word of the same panel at 200x60 (or of the other size): none
 * is cut. The same in the presenter view. */
Test(panels, every_panel_at_every_size_keeps_whole_words)
{
	static double table[1024 * 64];
	pe_learned_init(1024, 64, 1, table);
	int sizes[][2] = {{80, 24}, {120, 40}, {200, 60}};
	for (int present = 0; present < 2; present++)
	for (int e = 0; e < PE_ENC_COUNT; e++)
		for (int p = 0; p < PE_PANEL_COUNT; p++) {
			struct pe_config cfg;
			struct pe_state st;
			struct pe_canvas cv[3];
			struct pe_hit hit[3];
			pe_config_default(&cfg);
			cfg.enc = (enum pe_encoding)e;
			cfg.table = table;
			cfg.teach.train_len = 40;
			if (!pe_enc_has_panel(pe_enc_view_of(&cfg), (enum pe_panel)p))
				continue;
			bool check_words = p != PE_PANEL_OVERVIEW; /* test_view's */
			state(&st, &cfg, (enum pe_panel)p);
			st.session.present = present;
			for (int s = 0; s < 3; s++)
				cr_assert_eq(render_hit(&st, sizes[s][0], sizes[s][1],
				    &cv[s], &hit[s]), PE_OK, "%s %s at %dx%d (presenter view %d)",
				    pe_encoding_name(cfg.enc),
				    pe_panel_name((enum pe_panel)p), sizes[s][0],
				    sizes[s][1], present);
			for (int s = 0; s < 2 && check_words; s++) {
				int rx = hit[s].panel_x;
				for (int y = present ? 1 : 2; y < cv[s].h - 3; y++) {
					char l[4096];
					snprintf(l, sizeof l, "%s", text_from(&cv[s], y, rx));
					for (char *save, *t = strtok_r(l, " ", &save);
					     t != NULL; t = strtok_r(NULL, " ", &save)) {
						bool letter = false;
						for (const char *q = t; *q; q++)
							letter |= (*q | 0x20) >= 'a' &&
							    (*q | 0x20) <= 'z';
						if (!letter)
							continue;
						bare(t);
						cr_expect(has_token(&cv[2], 0, t) ||
						    has_token(&cv[1 - s], 0, t),
						    "%s %s %dx%d line %d: '%s' is no whole word of "
						    "the larger frames (presenter view %d)",
						    pe_encoding_name(cfg.enc),
						    pe_panel_name((enum pe_panel)p), sizes[s][0],
						    sizes[s][1], y, t, present);
					}
				}
			}
			for (int s = 0; s < 3; s++)
				pe_canvas_free(&cv[s]);
		}
}

/* relative with a bias [2 heads, 32 buckets]: the scores add the bias of
 * the pair's bucket, row --head; the gap is the one computed here. */
Test(panels, relative_with_a_bias_attends)
{
	static double bias[2 * 32];
	for (int i = 0; i < 64; i++)
		bias[i] = 0.25 * (double)((i * 7) % 11) - (i >= 32 ? 1.0 : 0.0);
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_RELATIVE;
	cfg.teach.bias = bias;
	cfg.teach.bias_heads = 2;
	cfg.teach.bias_len = 32;
	static const char *const s[] = {"the", "dog", "bit", "the", "man"};
	static const size_t perm[] = {0, 4, 2, 3, 1};
	for (size_t head = 0; head < 2; head++) {
		double x[5 * 64], a[25], b[25], gap = 0;
		for (int i = 0; i < 5; i++)
			pe_toy_embedding(s[i], strlen(s[i]), 64, x + i * 64);
		/* A over the sentence, and over the permuted one (token i of it
		 * is token perm[i], at position i) */
		for (int pass = 0; pass < 2; pass++) {
			double *out = pass == 0 ? a : b;
			for (int i = 0; i < 5; i++) {
				double top = -INFINITY, sum = 0;
				for (int j = 0; j < 5; j++) {
					const double *qi = x + (pass ? perm[i] : (size_t)i) * 64;
					const double *qj = x + (pass ? perm[j] : (size_t)j) * 64;
					double d = 0;
					for (int c = 0; c < 64; c++)
						d += qi[c] * qj[c];
					out[i * 5 + j] = d / 8 + bias[head * 32 +
					    (size_t)pe_t5_bucket(j - i, true, 32, 128)];
					top = fmax(top, out[i * 5 + j]);
				}
				for (int j = 0; j < 5; j++)
					sum += out[i * 5 + j] = exp(out[i * 5 + j] - top);
				for (int j = 0; j < 5; j++)
					out[i * 5 + j] /= sum;
			}
		}
		for (int i = 0; i < 5; i++)
			for (int j = 0; j < 5; j++)
				gap = fmax(gap, fabs(a[perm[i] * 5 + perm[j]] - b[i * 5 + j]));
		state(&st, &cfg, PE_PANEL_ATTENTION);
		st.pane[st.focus].head = head;
		pe_state_clamp(&st);
		cr_assert_eq(st.pane[st.focus].head, head, "the bias's rows, not "
		    "alibi's heads");
		cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
		double got = number_after(&cv, "max |A − P·A′·Pᵀ| = ");
		cr_expect(gap > 1e-3 && fabs(got - gap) <= 5e-3 * gap,
		    "head %zu: gap %g, computed %g", head, got, gap);
		pe_canvas_free(&cv);
	}
}

/* The help lists c / C and v, the lesson's keys, and still fits 80x24
 * whole. */
Test(panels, help_names_the_panel_keys_at_80x24)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	pe_state_init(&st, &cfg);
	st.help = true;
	cr_assert_eq(render(&st, 80, 24, &cv), PE_OK);
	cr_expect(find(&cv, 0, "c/C v P") >= 0);
	cr_expect(find(&cv, 0, "presenter; toy mask; a preset") >= 0);
	cr_expect(find(&cv, 0, "x / X") >= 0);
	cr_expect(find(&cv, 0, "lesson: step on, back; first, last scene") >= 0);
	cr_expect(find(&cv, 0, "blank screen") >= 0);
	cr_expect(find(&cv, 0, "any key closes this help") >= 0);
	cr_expect(find(&cv, 0, "sinusoidal l layout · o/O offset K") >= 0);
	/* the attention shape's keys, which the footer may drop */
	cr_expect(find(&cv, 0, "u/U rope_dim · </> sink head") >= 0);
	cr_expect(find(&cv, 0, "nope       o span · k/K span size · t "
	    "temperature") >= 0);
	pe_canvas_free(&cv);
}

/* A cyclic map's values are what its colors show: rope's θ mod 2π (m = 7,
 * pair 0: 7 − 2π = 0.717). */
Test(panels, values_of_angles_are_mod_two_pi)
{
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.n = 8;
	cfg.d = 4;
	pe_state_init(&st, &cfg);
	st.values = true;
	cr_assert_eq(render(&st, 120, 40, &cv), PE_OK);
	char want[16];
	snprintf(want, sizeof want, "%.3f", 7.0 - 6.283185307179586);
	cr_expect(find(&cv, 0, want) >= 0, "no %s", want);
	cr_expect(find(&cv, 0, "7.000") < 0);
	pe_canvas_free(&cv);
}

/* --train: the learned view of a run shows its similarity, both curves
 * and what it is and is not; the footer and the help name its keys, and
 * the help still fits 80x24. */
Test(panels, training_view)
{
	struct pe_train_config tc;
	struct pe_trainer *tr;
	struct pe_config cfg;
	struct pe_state st;
	struct pe_canvas cv;

	pe_train_default(&tc);
	cr_assert_eq(pe_train_new(&tc, &tr), PE_OK);
	cr_assert_eq(pe_train_run(tr, 20, 0, NULL), PE_OK);
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_LEARNED;
	cfg.d = tc.d;
	cfg.n = cfg.max_len = tc.n;
	cfg.table = pe_train_table(tr);
	cfg.table_untrained = false;
	cfg.trainer = tr;
	pe_state_init(&st, &cfg);
	cr_assert_eq(render(&st, 200, 60, &cv), PE_OK);
	cr_expect(find(&cv, 0, "(trained 20 steps on offset:3)") >= 0);
	cr_expect(find(&cv, 0, "similarity P·Pᵀ") >= 0);
	cr_expect(find(&cv, 0, "training loss") >= 0);
	cr_expect(find(&cv, 0, "held-out accuracy (") >= 0);
	cr_expect(find(&cv, 0, "trained for 20 steps on offset:3") >= 0);
	cr_expect(find(&cv, 0, "GPT-2's table") >= 0);
	cr_expect(find(&cv, 0, "s step") >= 0, "the footer's keys");
	pe_canvas_free(&cv);
	st.help = true;
	cr_assert_eq(render(&st, 80, 24, &cv), PE_OK);
	cr_expect(find(&cv, 0, "training: pause; one step; restart") >= 0);
	cr_expect(find(&cv, 0, "any key closes this help") >= 0);
	pe_canvas_free(&cv);
	pe_train_free(tr);
}

/* ---- two cores: the same bits as one --------------------------------- */

/* A run2 hook that runs the second half first: halves that wrote into
 * each other's memory, or read what the other wrote, would show. */
static int backwards_calls;
static void
run2_backwards(void (*fn)(void *arg, int part), void *arg)
{
	backwards_calls++;
	fn(arg, 1);
	fn(arg, 0);
}

/* pe_field_grid of f over the tilings of `grids` with run2 as the hook;
 * means and counts into dest (each grid after the previous). */
static void
grids_with(const struct pe_field *f, pe_field_run2_fn *run2,
    const size_t (*grids)[6], int ng, struct pe_stats *dest)
{
	pe_field_set_run2(run2);
	for (int i = 0; i < ng; i++) {
		const size_t *g = grids[i];
		cr_assert_eq(pe_field_grid(f, g[0], g[1], g[2], g[3], g[4], g[5],
		    dest), PE_OK, "grid %d", i);
		dest += g[2] * g[5];
	}
	pe_field_set_run2(NULL);
}

/* The similarity and score grids that cut their work in halves (the wave
 * similarities' products and rows, mrope's and rope2d's products of
 * sums) give the bits of one pass, with the halves on the pool's two
 * cores or run in either order; the sizes pass the halves' threshold. */
Test(panels, grids_on_two_cores_are_the_bits_of_one)
{
	struct {
		enum pe_encoding enc;
		enum pe_field_kind kind;
		size_t n, d;
		enum pe_rope_type scaling;
	} cases[] = {
		{PE_ENC_SINUSOIDAL, PE_FIELD_SIMILARITY, 1u << 16, 2048, 0},
		{PE_ENC_ROPE, PE_FIELD_SIMILARITY, 1u << 20, 4096, 0},
		{PE_ENC_ROPE, PE_FIELD_SIMILARITY, 100003, 2048, PE_ROPE_YARN},
		{PE_ENC_MROPE, PE_FIELD_SIMILARITY, 0, 2048, 0},
		{PE_ENC_ROPE2D, PE_FIELD_SIMILARITY, 0, 1024, 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pe_config cfg;
		struct pe_field f;
		pe_config_default(&cfg);
		cfg.enc = cases[i].enc;
		cfg.d = cases[i].d;
		if (cases[i].n > 0)
			cfg.n = cases[i].n;
		cfg.grid_h = cfg.grid_w = 96;
		pe_config_encoding_defaults(&cfg, true, false);
		cfg.d = cases[i].d;
		if (cases[i].scaling != 0) {
			cfg.rope.type = cases[i].scaling;
			cfg.rope.factor = 4;
			cfg.rope.original_max_pos = 4096;
		}
		cr_assert_eq(pe_config_check(&cfg, NULL, 0), PE_OK, "case %zu", i);
		cr_assert_eq(pe_field_init(&f, cases[i].kind, &cfg), PE_OK,
		    "case %zu", i);
		size_t R = f.rows, C = f.cols, a = R / 3;
		/* a cursor's row, a small map, a panel's map, an offset
		 * viewport, a single row block of many rows */
		const size_t grids[][6] = {
			{a, a + 1, 1, 0, C, C < 190 ? C : 190},
			{0, R, R < 37 ? R : 37, 0, C, C < 53 ? C : 53},
			{0, R, R < 90 ? R : 90, 0, C, C < 101 ? C : 101},
			{R / 7, R - R / 5, R < 61 ? R / 2 : 61, C / 9, C - C / 11,
			    C < 77 ? C / 2 : 77},
			{R / 4, R / 2, 1, 0, C, C < 150 ? C : 150},
		};
		int ng = (int)(sizeof grids / sizeof grids[0]);
		size_t cells = 0;
		for (int g = 0; g < ng; g++)
			cells += grids[g][2] * grids[g][5];
		struct pe_stats *one = calloc(cells, sizeof *one);
		struct pe_stats *two = calloc(cells, sizeof *two);
		struct pe_stats *back = calloc(cells, sizeof *back);
		cr_assert(one != NULL && two != NULL && back != NULL);
		grids_with(&f, NULL, grids, ng, one);
		grids_with(&f, pe_pool_run2, grids, ng, two);
		backwards_calls = 0;
		grids_with(&f, run2_backwards, grids, ng, back);
		cr_assert_gt(backwards_calls, ng, "case %zu: the halves were "
		    "not cut", i);
		for (size_t k = 0; k < cells; k++) {
			cr_assert(memcmp(&one[k].mean, &two[k].mean,
			    sizeof one[k].mean) == 0 && one[k].count ==
			    two[k].count, "%s kind %d case %zu cell %zu: %.17g on "
			    "one core, %.17g on two", pe_encoding_name(cfg.enc),
			    (int)cases[i].kind, i, k, one[k].mean, two[k].mean);
			cr_assert(memcmp(&one[k].mean, &back[k].mean,
			    sizeof one[k].mean) == 0, "case %zu cell %zu: %.17g, "
			    "halves backwards %.17g", i, k, one[k].mean,
			    back[k].mean);
		}
		free(one);
		free(two);
		free(back);
		pe_field_free(&f);
	}
}

/* ---- what a model keeps ----------------------------------------------- */

/* Whether canvases a and b show the same frame: every cell's glyph,
 * colors, kind and levels and every picture's place and pixels; says
 * where they differ. */
static bool
same_frame(const struct pe_canvas *a, const struct pe_canvas *b,
    const char *what)
{
	for (int i = 0; i < a->w * a->h; i++) {
		const struct pe_cell *x = &a->cells[i], *y = &b->cells[i];
		/* a level counts where it is one (lvok), a shade in a
		 * shade cell: a canvas drawn on again keeps the others */
		if (x->cp != y->cp || x->fg != y->fg || x->bg != y->bg ||
		    x->attr != y->attr || x->kind != y->kind ||
		    x->lvok != y->lvok || ((x->lvok & 1) && x->lv[0] !=
		    y->lv[0]) || ((x->lvok & 2) && x->lv[1] != y->lv[1]) ||
		    (x->kind == PE_CELL_SHADE && (x->shade != y->shade ||
		    x->ramp != y->ramp))) {
			cr_log_error("%s: cell (%d, %d) differs: U+%04x %06x %06x "
			    "%d %d, anew U+%04x %06x %06x %d %d", what, i % a->w,
			    i / a->w, x->cp, x->fg, x->bg, x->attr, x->kind, y->cp,
			    y->fg, y->bg, y->attr, y->kind);
			return false;
		}
	}
	if (a->npix != b->npix) {
		cr_log_error("%s: %d pictures, %d anew", what, a->npix, b->npix);
		return false;
	}
	for (int k = 0; k < a->npix; k++) {
		const struct pe_pixmap *p = &a->pix[k], *q = &b->pix[k];
		if (p->x != q->x || p->y != q->y || p->pw != q->pw ||
		    p->ph != q->ph || p->cur_x != q->cur_x ||
		    p->cur_y != q->cur_y || memcmp(p->rgb, q->rgb,
		    (size_t)p->pw * (size_t)p->ph * sizeof *p->rgb) != 0) {
			cr_log_error("%s: picture %d differs", what, k);
			return false;
		}
	}
	return true;
}

/* Every panel of every encoding, with pictures and without: a frame
 * after the cursor moved, drawn from what the model kept of the frames
 * before (the similarity map's cells, xpos's envelope and plain RoPE,
 * rope's decay, the pictures), is the frame a new model draws. */
Test(panels, a_moved_cursor_draws_what_a_new_model_does)
{
	static double table[4096 * 256];
	pe_learned_init(4096, 256, 1, table);
	for (int px = 0; px < 2; px++)
	for (int e = 0; e < PE_ENC_COUNT; e++)
		for (int p = 0; p < PE_PANEL_COUNT; p++) {
			struct pe_config cfg;
			struct pe_state st;
			struct pe_model m, fresh;
			struct pe_canvas kept, anew;
			char what[96];
			pe_config_default(&cfg);
			cfg.enc = (enum pe_encoding)e;
			cfg.n = 4096;
			cfg.d = 256;
			cfg.grid_h = cfg.grid_w = 24;
			pe_config_encoding_defaults(&cfg, true, false);
			cfg.table = table;
			cfg.max_len = 4096;
			if (pe_config_check(&cfg, NULL, 0) != PE_OK ||
			    !pe_enc_has_panel(pe_enc_view_of(&cfg), (enum pe_panel)p))
				continue;
			snprintf(what, sizeof what, "%s %s, pictures %d",
			    pe_encoding_name(cfg.enc), pe_panel_name((enum pe_panel)p),
			    px);
			state(&st, &cfg, (enum pe_panel)p);
			size_t n = pe_config_positions(&cfg);
			st.cur_r = n / 3;
			pe_state_clamp(&st);
			cr_assert_eq(pe_model_init(&m, &cfg), PE_OK, "%s", what);
			cr_assert_eq(pe_canvas_init(&kept, 200, 60), PE_OK);
			cr_assert_eq(pe_canvas_init(&anew, 200, 60), PE_OK);
			if (px) {
				pe_canvas_want_pixels(&kept, 10, 20, "kitty");
				pe_canvas_want_pixels(&anew, 10, 20, "kitty");
			}
			for (int step = 0; step < 3; step++) {
				cr_assert_eq(pe_view_render(&st, &m, &kept, NULL), PE_OK,
				    "%s", what);
				st.cur_r = (st.cur_r + 7 * (size_t)(step + 1)) % n;
				pe_state_clamp(&st);
			}
			cr_assert_eq(pe_view_render(&st, &m, &kept, NULL), PE_OK, "%s",
			    what);
			cr_assert_eq(pe_model_init(&fresh, &cfg), PE_OK, "%s", what);
			cr_assert_eq(pe_view_render(&st, &fresh, &anew, NULL), PE_OK,
			    "%s", what);
			cr_expect(same_frame(&kept, &anew, what), "%s", what);
			pe_model_free(&fresh);
			pe_model_free(&m);
			pe_canvas_free(&kept);
			pe_canvas_free(&anew);
		}
}

/* The main map's cells under a picture, made on two cores past
 * CELLS_HALVES_ITEMS elements (a band's cut the whole grid's), are the
 * cells of the frame without pictures. The second band starts from direct
 * sincos (rope's tiling, mrope's runs not turned from kept ones), so a
 * color may differ where a mean's last bits move a bucket (none of 5,763
 * and 5,712 when this test was made); the glyphs never. */
Test(panels, cells_under_a_picture_are_the_cells_without_one)
{
	struct {
		enum pe_encoding enc;
		size_t n, d, grid;
		int most_off; /* cells of the map whose colors may differ */
	} cases[] = {
		{PE_ENC_MROPE, 0, 8192, 32, 11},
		{PE_ENC_ROPE, 1u << 16, 256, 0, 11},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pe_config cfg;
		struct pe_state st;
		struct pe_model m;
		struct pe_canvas cv[2];
		pe_config_default(&cfg);
		cfg.enc = cases[i].enc;
		if (cases[i].n > 0)
			cfg.n = cases[i].n;
		if (cases[i].grid > 0)
			cfg.grid_h = cfg.grid_w = cases[i].grid;
		pe_config_encoding_defaults(&cfg, true, false);
		cfg.d = cases[i].d;
		cr_assert_eq(pe_config_check(&cfg, NULL, 0), PE_OK, "case %zu", i);
		/* past the threshold of the halves */
		cr_assert_geq((uint64_t)pe_config_positions(&cfg) * (cfg.d / 2),
		    (uint64_t)1 << 22);
		state(&st, &cfg, PE_PANEL_OVERVIEW);
		cr_assert_eq(pe_model_init(&m, &cfg), PE_OK);
		for (int px = 0; px < 2; px++) {
			cr_assert_eq(pe_canvas_init(&cv[px], 200, 60), PE_OK);
			if (px)
				pe_canvas_want_pixels(&cv[px], 10, 20, "kitty");
			/* a model of its own each: nothing kept between */
			struct pe_model own;
			cr_assert_eq(pe_model_init(&own, &cfg), PE_OK);
			cr_assert_eq(pe_view_render(&st, &own, &cv[px], NULL), PE_OK);
			pe_model_free(&own);
		}
		cr_assert_eq(cv[1].npix, 1, "case %zu: %d pictures", i, cv[1].npix);
		const struct pe_pixmap *pm = &cv[1].pix[0];
		int off = 0;
		for (int y = pm->y; y < pm->y + pm->h; y++)
			for (int x = pm->x; x < pm->x + pm->w; x++) {
				const struct pe_cell *a = pe_canvas_at(&cv[0], x, y);
				const struct pe_cell *b = pe_canvas_at(&cv[1], x, y);
				cr_assert(a->cp == b->cp, "case %zu (%d, %d): U+%04x, "
				    "U+%04x under the picture", i, x, y, a->cp, b->cp);
				off += a->fg != b->fg || a->bg != b->bg;
			}
		cr_expect_leq(off, cases[i].most_off, "case %zu: %d cells' colors "
		    "differ", i, off);
		cr_log_info("case %zu: %d of %d cells' colors differ", i, off,
		    pm->w * pm->h);
		pe_model_free(&m);
		pe_canvas_free(&cv[0]);
		pe_canvas_free(&cv[1]);
	}
}

/* ---- the decay panel's bound on the vector units ---------------------- */

/* pe_rope_decay_many (SLEEF's sincos, |S_j| by sqrt) against the bound
 * summed in long double with cosl, sinl and hypotl from the same angles,
 * and against pe_rope_decay (libm): within 1e-12 of the
 * bound (it is a mean of |S_j|, between 0 and (P + 1)/2) at d 128 to
 * 8192, scaled, partial rotary, at distances from 0 to a million. */
Test(panels, decay_bound_on_the_vector_units_is_the_long_double_one)
{
	struct {
		size_t d;
		double base;
		enum pe_rope_type type;
		double partial;
	} cases[] = {
		{128, 10000, PE_ROPE_DEFAULT, 1},
		{8192, 500000, PE_ROPE_DEFAULT, 1},
		{4096, 10000, PE_ROPE_YARN, 1},
		{256, 1000000, PE_ROPE_LLAMA3, 0.25},
	};
	const double dist[] = {0, 1, 2, 7, 100, 1000, 12345, 65536, 349525,
	    1048575, 1000003};
	size_t nd = sizeof dist / sizeof dist[0];
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct pe_config c;
		struct pe_rope r;
		double got[16];
		pe_config_default(&c);
		c.enc = PE_ENC_ROPE;
		c.d = cases[i].d;
		c.n = 1u << 20;
		c.base = cases[i].base;
		c.rope.type = cases[i].type;
		c.rope.factor = 8;
		c.rope.original_max_pos = 8192;
		c.rope.partial_rotary = cases[i].partial;
		cr_assert_eq(pe_config_check(&c, NULL, 0), PE_OK, "case %zu", i);
		cr_assert_eq(pe_rope_init(&r, &c), PE_OK, "case %zu", i);
		cr_assert_eq(pe_rope_decay_many(&r, dist, nd, got), PE_OK);
		for (size_t k = 0; k < nd; k++) {
			long double re = 0, im = 0, total = 0;
			for (size_t j = 0; j < r.npairs; j++) {
				/* the angle as the kernel forms it, in double (at
				 * r 1e6 its rounding alone moves the bound by
				 * 1e-11) */
				long double t = (long double)(dist[k] *
				    r.inv_freq[j]);
				re += cosl(t);
				im += sinl(t);
				total += hypotl(re, im);
			}
			double want = (double)(total / (long double)r.npairs);
			cr_expect(fabs(got[k] - want) <= 1e-12 * (want > 1 ? want : 1),
			    "case %zu (d %zu) r %g: %.17g, long double %.17g", i,
			    cases[i].d, dist[k], got[k], want);
			double libm = pe_rope_decay(&r, dist[k]);
			cr_expect(fabs(got[k] - libm) <= 1e-12 * (libm > 1 ? libm : 1),
			    "case %zu r %g: %.17g, libm's %.17g", i, dist[k], got[k],
			    libm);
		}
		pe_rope_free(&r);
	}
}
