/* Rows of sines and cosines (pescope/wave.h), on every instruction set this
 * CPU has: against libm's sin and cos of the same double angle (the float64
 * reference), the layouts, and rows that never depend on how they were
 * asked for. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "kernel/trig.h"
#include "kernel/wave_impl.h"
#include "pescope/sinusoidal.h"

static const char *const isas[] = {"generic", "avx2", "avx512"};
static int isa_ids[] = {0, 1, 2};

ParameterizedTestParameters(wave, exact_rows_are_libm_to_an_ulp)
{
	return cr_make_param_array(int, isa_ids, 3);
}

/* Frequencies of a sinusoidal table d wide and its largest angles. */
static double *
wave_freqs(size_t d)
{
	double *w = malloc(d / 2 * sizeof *w);
	cr_assert_not_null(w);
	for (size_t i = 0; i < d / 2; i++)
		w[i] = pe_sinusoidal_freq(i, d, 10000.0, PE_LAYOUT_INTERLEAVED);
	return w;
}

/* |a - b| in units of the last place of b (0 when equal). */
static double
ulps(double a, double b)
{
	if (a == b)
		return 0.0;
	double u = nextafter(fabs(b), INFINITY) - fabs(b);
	return fabs(a - b) / u;
}

ParameterizedTest(int *isa, wave, exact_rows_are_libm_to_an_ulp)
{
	if (!pe_wave_force_isa(isas[*isa]))
		cr_skip_test("no %s on this CPU", isas[*isa]);
	size_t d = 70, nw = d / 2; /* a tail past every vector width */
	double *w = wave_freqs(d), *row = malloc(d * sizeof *row);
	struct pe_wave wv;
	struct pe_wave_out out = {true, false, true, 1.0};
	cr_assert_eq(pe_wave_init(&wv, w, nw, PE_WAVE_EXACT), PE_OK);
	cr_expect_eq(wv.block, 1);
	double worst = 0.0, worst_rel = 0.0;
	size_t ps[] = {0, 1, 2, 3, 1000, 32767, 65537, 1u << 20, 123456789,
		(size_t)1 << 30};
	for (size_t q = 0; q < sizeof ps / sizeof ps[0]; q++) {
		cr_assert_eq(pe_wave_rows(&wv, ps[q], 1, &out, row, d), PE_OK);
		for (size_t j = 0; j < nw; j++) {
			double t = (double)ps[q] * w[j];
			worst = fmax(worst, fmax(ulps(row[2 * j], sin(t)),
			                         ulps(row[2 * j + 1], cos(t))));
			if (sin(t) != 0.0)
				worst_rel = fmax(worst_rel,
				    fabs(row[2 * j] - sin(t)) / fabs(sin(t)));
		}
	}
	/* SLEEF's u10 and glibc are each within an ulp of the truth */
	cr_expect_leq(worst, 2.0, "%s: %g ulps", isas[*isa], worst);
	cr_expect_leq(worst_rel, 1e-12, "%s: relative %g", isas[*isa],
	              worst_rel);
	pe_wave_free(&wv);
	free(w);
	free(row);
}

ParameterizedTestParameters(wave, f32_rows_are_within_a_few_ulps)
{
	return cr_make_param_array(int, isa_ids, 3);
}

/* The angle-addition rows are within a few ulps of double of libm's value
 * at the same angle, so float32 rounds them the same but for 1 in 10^8. */
ParameterizedTest(int *isa, wave, f32_rows_are_within_a_few_ulps)
{
	if (!pe_wave_force_isa(isas[*isa]))
		cr_skip_test("no %s on this CPU", isas[*isa]);
	size_t d = 70, nw = d / 2, n = 300;
	double *w = wave_freqs(d), *rows = malloc(n * d * sizeof *rows);
	struct pe_wave wv;
	struct pe_wave_out out = {true, false, true, 1.0};
	cr_assert_eq(pe_wave_init(&wv, w, nw, PE_WAVE_F32), PE_OK);
	cr_expect_gt(wv.block, 1);
	double worst = 0.0, worst32 = 0.0;
	size_t starts[] = {0, 5000, 1u << 20, (size_t)1 << 30};
	for (size_t q = 0; q < 4; q++) {
		cr_assert_eq(pe_wave_rows(&wv, starts[q], n, &out, rows, d), PE_OK);
		for (size_t k = 0; k < n; k++)
			for (size_t j = 0; j < nw; j++) {
				double t = (double)(starts[q] + k) * w[j];
				double s = rows[k * d + 2 * j], c = rows[k * d + 2 * j + 1];
				worst = fmax(worst, fmax(fabs(s - sin(t)), fabs(c - cos(t))));
				worst32 = fmax(worst32,
				    fmax(fabs((double)(float)s - sin(t)),
				         fabs((double)(float)c - cos(t))));
			}
	}
	/* r <= 2 ulps of 2^30: the first-order correction leaves r^2 / 2 */
	cr_expect_leq(worst, 1e-13, "%s: %g", isas[*isa], worst);
	cr_expect_leq(worst32, 1e-6, "%s: float32 %g", isas[*isa], worst32);
	pe_wave_free(&wv);
	free(w);
	free(rows);
}

ParameterizedTestParameters(wave, f32_rows_are_the_floats_of_the_rows)
{
	return cr_make_param_array(int, isa_ids, 3);
}

/* float32 rows are the floats of the double rows, bit for bit, in every
 * layout, with a scale, from rows inside a block and across blocks. */
ParameterizedTest(int *isa, wave, f32_rows_are_the_floats_of_the_rows)
{
	if (!pe_wave_force_isa(isas[*isa]))
		cr_skip_test("no %s on this CPU", isas[*isa]);
	size_t d = 270, nw = d / 2, n = 150; /* tiles and a tail */
	double *w = wave_freqs(d), *rows = malloc(n * d * sizeof *rows);
	float *rows32 = malloc(n * d * sizeof *rows32);
	const struct pe_wave_out outs[] = {{true, false, true, 1.0},
		{false, true, true, 1.0}, {false, false, false, 0.75},
		{true, true, false, 1.25}};
	size_t starts[] = {0, 37, 64 * 1000 + 13, ((size_t)1 << 30) - 77};
	struct pe_wave wv;
	cr_assert_eq(pe_wave_init(&wv, w, nw, PE_WAVE_F32), PE_OK);
	for (size_t o = 0; o < sizeof outs / sizeof outs[0]; o++)
		for (size_t q = 0; q < 4; q++) {
			cr_assert_eq(pe_wave_rows(&wv, starts[q], n, &outs[o], rows, d),
			    PE_OK);
			cr_assert_eq(pe_wave_rows_f32(&wv, starts[q], n, &outs[o],
			    rows32, d), PE_OK);
			size_t bad = 0;
			for (size_t k = 0; k < n * d; k++)
				bad += memcmp(&(float){(float)rows[k]}, &rows32[k], 4) != 0;
			cr_expect_eq(bad, 0, "%s: layout %zu from %zu: %zu differ",
			    isas[*isa], o, starts[q], bad);
		}
	pe_wave_free(&wv);
	free(w);
	free(rows);
	free(rows32);
}

/* The float of x in units of the last place of float y (0 when equal). */
static double
ulps32(float x, float y)
{
	if (x == y)
		return 0.0;
	float u = nextafterf(fabsf(y), INFINITY) - fabsf(y);
	return fabs((double)x - (double)y) / (double)u;
}

ParameterizedTestParameters(wave, f32_rows_are_correctly_rounded_to_an_ulp)
{
	return cr_make_param_array(int, isa_ids, 3);
}

/* Every float32 value is within one ulp of the correctly rounded float of
 * sin or cos of the angle fl(p w), that float taken from long double's
 * sinl and cosl (64 bits: a tie of float32's 24 could round either way,
 * which the ulp allows). */
ParameterizedTest(int *isa, wave, f32_rows_are_correctly_rounded_to_an_ulp)
{
	if (!pe_wave_force_isa(isas[*isa]))
		cr_skip_test("no %s on this CPU", isas[*isa]);
	size_t d = 128, nw = d / 2, n = 200;
	double *w = wave_freqs(d);
	float *rows = malloc(n * d * sizeof *rows);
	struct pe_wave wv;
	struct pe_wave_out out = {true, false, true, 1.0};
	size_t starts[] = {0, 4093, (size_t)1 << 24, ((size_t)1 << 30) - n};
	cr_assert_eq(pe_wave_init(&wv, w, nw, PE_WAVE_F32), PE_OK);
	double worst = 0.0;
	size_t off = 0;
	for (size_t q = 0; q < 4; q++) {
		cr_assert_eq(pe_wave_rows_f32(&wv, starts[q], n, &out, rows, d),
		    PE_OK);
		for (size_t k = 0; k < n; k++)
			for (size_t j = 0; j < nw; j++) {
				long double t = (double)(starts[q] + k) * w[j];
				double e = fmax(ulps32(rows[k * d + 2 * j], (float)sinl(t)),
				    ulps32(rows[k * d + 2 * j + 1], (float)cosl(t)));
				if (e > 0.0)
					off++;
				worst = fmax(worst, e);
			}
	}
	cr_expect_leq(worst, 1.0, "%s: %g float ulps", isas[*isa], worst);
	/* and nearly all are the correctly rounded float itself */
	cr_expect_lt(off, n * nw * 4 / 1000, "%s: %zu of %zu off by an ulp",
	    isas[*isa], off, n * nw * 8);
	pe_wave_free(&wv);
	free(w);
	free(rows);
}

ParameterizedTestParameters(wave, f32_layouts_are_correctly_rounded_to_an_ulp)
{
	return cr_make_param_array(int, isa_ids, 3);
}

/* The float of scale f(t) for t = fl(p w), f = sin or cos, from long
 * double's sinl and cosl. */
static float
ref32(long double t, bool cosine, double scale)
{
	return (float)((long double)scale * (cosine ? cosl(t) : sinl(t)));
}

/* Every layout (pairs and halves), every pair of functions, scaled or
 * not, and frequencies that leave a tail in every vector width (11, 35
 * and 150 of them: one tile and a part), in calls long enough for whole
 * blocks and steps (the loops that take two steps at once) and from
 * positions up to 2^30: each float within one ulp of the correctly
 * rounded float of long double's value at the angle fl(p w). */
ParameterizedTest(int *isa, wave, f32_layouts_are_correctly_rounded_to_an_ulp)
{
	if (!pe_wave_force_isa(isas[*isa]))
		cr_skip_test("no %s on this CPU", isas[*isa]);
	const size_t ds[] = {22, 70, 300}, n = 160;
	const struct pe_wave_out outs[] = {{true, false, true, 1.0},
		{false, false, true, 1.0}, {false, true, true, 1.0},
		{true, true, true, 0.75}, {false, false, false, 1.0},
		{true, true, false, 1.25}};
	const size_t starts[] = {0, 16, 64 * 1000 + 32, (size_t)1 << 24,
		((size_t)1 << 30) - n};
	for (size_t di = 0; di < sizeof ds / sizeof ds[0]; di++) {
		size_t d = ds[di], nw = d / 2;
		double *w = wave_freqs(d);
		float *rows = malloc(n * d * sizeof *rows);
		struct pe_wave wv;
		cr_assert_eq(pe_wave_init(&wv, w, nw, PE_WAVE_F32), PE_OK);
		for (size_t o = 0; o < sizeof outs / sizeof outs[0]; o++)
			for (size_t q = 0; q < sizeof starts / sizeof starts[0]; q++) {
				const struct pe_wave_out *ou = &outs[o];
				cr_assert_eq(pe_wave_rows_f32(&wv, starts[q], n, ou, rows,
				    d), PE_OK);
				double worst = 0.0;
				for (size_t k = 0; k < n; k++)
					for (size_t j = 0; j < nw; j++) {
						long double t = (double)(starts[q] + k) * w[j];
						size_t a = ou->pairs ? 2 * j : j;
						size_t b = ou->pairs ? 2 * j + 1 : nw + j;
						float *row = rows + k * d;
						worst = fmax(worst, fmax(ulps32(row[a],
						    ref32(t, ou->cos1, ou->scale)), ulps32(row[b],
						    ref32(t, ou->cos2, ou->scale))));
					}
				cr_expect_leq(worst, 1.0, "%s: d %zu, layout %zu, from %zu: "
				    "%g float ulps", isas[*isa], d, o, starts[q], worst);
			}
		pe_wave_free(&wv);
		free(w);
		free(rows);
	}
}

ParameterizedTestParameters(wave, f32_rows_do_not_depend_on_the_calls)
{
	return cr_make_param_array(int, isa_ids, 3);
}

/* Rows asked in one call (whole steps two at a time), 7 at a time (the
 * anchors a thread kept from the call before), one at a time and
 * backwards, with another wave's calls in between (what a thread keeps is
 * the wave's it filled last), and a wave made again with other
 * frequencies (its anchors are not the first's): the same bits. */
ParameterizedTest(int *isa, wave, f32_rows_do_not_depend_on_the_calls)
{
	if (!pe_wave_force_isa(isas[*isa]))
		cr_skip_test("no %s on this CPU", isas[*isa]);
	size_t d = 300, nw = d / 2, n = 200, p0 = 64 * 77 + 5;
	double *w = wave_freqs(d), *w2 = wave_freqs(d + 2);
	float *a = malloc(n * d * sizeof *a), *b = malloc(n * d * sizeof *b);
	float *other = malloc(7 * d * sizeof *other);
	const struct pe_wave_out outs[] = {{true, false, true, 1.0},
		{false, true, true, 0.5}};
	struct pe_wave wv, wv2;
	cr_assert_eq(pe_wave_init(&wv, w, nw, PE_WAVE_F32), PE_OK);
	cr_assert_eq(pe_wave_init(&wv2, w2 + 1, nw, PE_WAVE_F32), PE_OK);
	for (size_t o = 0; o < 2; o++) {
		const struct pe_wave_out *ou = &outs[o];
		cr_assert_eq(pe_wave_rows_f32(&wv, p0, n, ou, a, d), PE_OK);
		memset(b, 0, n * d * sizeof *b);
		for (size_t k = 0; k < n; k += 7) {
			size_t m = k + 7 <= n ? 7 : n - k;
			cr_assert_eq(pe_wave_rows_f32(&wv, p0 + k, m, ou, b + k * d, d),
			    PE_OK);
			if (k % 21 == 14)
				cr_assert_eq(pe_wave_rows_f32(&wv2, p0 + k, 7, ou, other,
				    d), PE_OK);
		}
		cr_expect(memcmp(a, b, n * d * sizeof *a) == 0, "%s: 7 at a time",
		    isas[*isa]);
		memset(b, 0, n * d * sizeof *b);
		for (size_t k = n; k-- > 0;)
			cr_assert_eq(pe_wave_rows_f32(&wv, p0 + k, 1, ou, b + k * d, d),
			    PE_OK);
		cr_expect(memcmp(a, b, n * d * sizeof *a) == 0, "%s: backwards",
		    isas[*isa]);
	}
	/* the same struct made again: other frequencies, other anchors */
	pe_wave_free(&wv);
	cr_assert_eq(pe_wave_init(&wv, w2 + 1, nw, PE_WAVE_F32), PE_OK);
	cr_assert_eq(pe_wave_rows_f32(&wv, p0, 7, &outs[0], b, d), PE_OK);
	cr_assert_eq(pe_wave_rows_f32(&wv2, p0, 7, &outs[0], other, d), PE_OK);
	cr_expect(memcmp(b, other, 7 * d * sizeof *b) == 0, "%s: made again",
	    isas[*isa]);
	pe_wave_free(&wv);
	pe_wave_free(&wv2);
	free(w);
	free(w2);
	free(a);
	free(b);
	free(other);
}

/* A row's bits depend on p alone: one call for 200 rows equals rows asked
 * one at a time, and from the middle of a block. */
Test(wave, rows_do_not_depend_on_the_call)
{
	size_t d = 64, nw = d / 2, n = 200;
	double *w = wave_freqs(d);
	double *a = malloc(n * d * sizeof *a), *b = malloc(n * d * sizeof *b);
	struct pe_wave wv;
	struct pe_wave_out out = {false, false, true, 1.0};
	cr_assert_eq(pe_wave_init(&wv, w, nw, PE_WAVE_F32), PE_OK);
	cr_assert_eq(pe_wave_rows(&wv, 1000, n, &out, a, d), PE_OK);
	for (size_t k = 0; k < n; k += 7)
		cr_assert_eq(pe_wave_rows(&wv, 1000 + k, k + 7 <= n ? 7 : n - k,
		                          &out, b + k * d, d), PE_OK);
	cr_expect(memcmp(a, b, n * d * sizeof *a) == 0);
	pe_wave_free(&wv);
	free(w);
	free(a);
	free(b);
}

/* Layouts: pairs or halves, cos or sin first, a scale, a stride. */
Test(wave, layouts)
{
	double w[3] = {1.0, 0.5, 0.25}, row[8];
	struct pe_wave wv;
	cr_assert_eq(pe_wave_init(&wv, w, 3, PE_WAVE_EXACT), PE_OK);
	struct pe_wave_out cc = {false, true, true, 2.0};
	cr_assert_eq(pe_wave_rows(&wv, 3, 1, &cc, row, 8), PE_OK);
	for (size_t j = 0; j < 3; j++) {
		cr_expect(th_close(row[j], 2.0 * cos(3.0 * w[j]), 0, 1e-15));
		cr_expect(th_close(row[3 + j], 2.0 * cos(3.0 * w[j]), 0, 1e-15));
	}
	struct pe_wave_out sp = {true, false, false, 1.0};
	cr_assert_eq(pe_wave_rows(&wv, 3, 1, &sp, row, 8), PE_OK);
	for (size_t j = 0; j < 3; j++) {
		cr_expect(th_close(row[2 * j], sin(3.0 * w[j]), 0, 1e-15));
		cr_expect(th_close(row[2 * j + 1], sin(3.0 * w[j]), 0, 1e-15));
	}
	double sums[2];
	cr_assert_eq(pe_wave_cos_sums(&wv, 3, 2, sums), PE_OK);
	cr_expect(th_close(sums[1], cos(4.0) + cos(2.0) + cos(1.0), 1e-15, 0));
	cr_expect_eq(pe_wave_rows(&wv, 0, 1, &sp, row, 5), PE_EINVAL);
	pe_wave_free(&wv);
	cr_expect_eq(pe_wave_init(&wv, w, 0, PE_WAVE_EXACT), PE_EINVAL);
	w[1] = NAN;
	cr_expect_eq(pe_wave_init(&wv, w, 3, PE_WAVE_EXACT), PE_EINVAL);
}

ParameterizedTestParameters(wave, runs_are_their_sums)
{
	return cr_make_param_array(int, isa_ids, 3);
}

/* pe_trig_runs against the sums it stands for, added term by term in long
 * double: runs without an anchor, from anchor 0 and before anchor 1, of
 * one position and of many, on 21 frequencies (a tail past every vector
 * width) with one whose sine is 0 (w = 2 pi: every term 1); then added to
 * what is there. */
ParameterizedTest(int *isa, wave, runs_are_their_sums)
{
	if (!pe_wave_force_isa(isas[*isa]))
		cr_skip_test("no %s on this CPU", isas[*isa]);
	enum { NF = 21 };
	double h[NF], sh[NF], ch[NF], ish[NF], a0c[NF], a0s[NF], a1c[NF],
	    a1s[NF], re[NF], im[NF];
	const uint64_t A0 = 40, A1 = 1000;
	for (size_t k = 0; k < NF; k++) {
		double w = k == 7 ? 2.0 * M_PI : pow(500.0, -(double)k / NF) * 2.9;
		h[k] = 0.5 * pe_trig_reduce(w);
		sincos(h[k], &sh[k], &ch[k]);
		ish[k] = sh[k] == 0.0 ? 0.0 : 1.0 / sh[k];
		sincos((2.0 * A0 - 1.0) * h[k], &a0s[k], &a0c[k]);
		sincos((2.0 * A1 - 1.0) * h[k], &a1s[k], &a1c[k]);
	}
	struct pe_trig_freqs fr = {h, sh, ch, ish, {a0c, a1c}, {a0s, a1s}};
	struct {
		uint64_t p0, len;
		double mult;
		int anchor;
	} runs[] = {
		{3, 1, 1.0, -1}, {17, 5, 2.0, -1}, {A0, 1, 3.0, 0}, {A0, 300, 1.0, 0},
		{A1 - 1, 1, 7.0, 1}, {A1 - 250, 250, 2.0, 1}, {123456789, 1000, 4.0,
		-1},
	};
	size_t nr = sizeof runs / sizeof runs[0];
	struct pe_trig_run tr[sizeof runs / sizeof runs[0]];
	for (size_t r = 0; r < nr; r++)
		tr[r] = (struct pe_trig_run){(double)(2 * runs[r].p0 +
		    runs[r].len) - 1.0, (double)runs[r].len, runs[r].mult,
		    runs[r].anchor};
	for (int add = 0; add < 2; add++) {
		for (size_t k = 0; k < NF; k++) {
			re[k] = add ? 0.25 : 99.0;
			im[k] = add ? -0.5 : 99.0;
		}
		pe_trig_runs(&fr, NF, tr, nr, add, re, im);
		for (size_t k = 0; k < NF; k++) {
			long double wr = 2.0L * h[k], sr = add ? 0.25L : 0, si = add
			    ? -0.5L : 0, mag = 0;
			for (size_t r = 0; r < nr; r++)
				for (uint64_t p = runs[r].p0; p < runs[r].p0 +
				     runs[r].len; p++) {
					sr += runs[r].mult * cosl((long double)p * wr);
					si += runs[r].mult * sinl((long double)p * wr);
					mag += runs[r].mult;
				}
			/* the angles' own rounding: p w to 2^-53 relative */
			double tol = 1e-15 * (double)mag * 1.3e8;
			cr_expect(fabs(re[k] - (double)sr) <= tol &&
			    fabs(im[k] - (double)si) <= tol, "%s add %d freq %zu: "
			    "%.17g %.17g vs %.17Lg %.17Lg", isas[*isa], add, k, re[k],
			    im[k], sr, si);
		}
	}
	/* without the far run, every position below 1000: much tighter */
	pe_trig_runs(&fr, NF, tr, nr - 1, false, re, im);
	for (size_t k = 0; k < NF; k++) {
		long double wr = 2.0L * h[k], sr = 0, si = 0;
		for (size_t r = 0; r + 1 < nr; r++)
			for (uint64_t p = runs[r].p0; p < runs[r].p0 + runs[r].len;
			     p++) {
				sr += runs[r].mult * cosl((long double)p * wr);
				si += runs[r].mult * sinl((long double)p * wr);
			}
		cr_expect(fabs(re[k] - (double)sr) <= 1e-11 &&
		    fabs(im[k] - (double)si) <= 1e-11, "%s freq %zu: %.17g %.17g "
		    "vs %.17Lg %.17Lg", isas[*isa], k, re[k], im[k], sr, si);
	}
}

ParameterizedTestParameters(wave, sincos_many_is_libm_to_an_ulp)
{
	return cr_make_param_array(int, isa_ids, 3);
}

/* pe_trig_sincos_many (the phasor tilings' anchors): cosines, then sines
 * stride after, of fl(x h_i), within an ulp (and 1e-16 absolute near 0)
 * of libm's, at small and large x and a tail past every vector width. */
ParameterizedTest(int *isa, wave, sincos_many_is_libm_to_an_ulp)
{
	if (!pe_wave_force_isa(isas[*isa]))
		cr_skip_test("no %s on this CPU", isas[*isa]);
	enum { NF = 19, STRIDE = 23 };
	double h[NF], out[STRIDE + NF];
	const double xs[] = {0.0, 1.0, -3.0, 12345.0, 1e9 + 7.0};
	for (size_t i = 0; i < NF; i++)
		h[i] = 1.5 * pow(1e-4, (double)i / NF);
	for (size_t q = 0; q < sizeof xs / sizeof xs[0]; q++) {
		for (size_t i = 0; i < STRIDE + NF; i++)
			out[i] = NAN;
		pe_trig_sincos_many(h, NF, STRIDE, xs[q], out);
		for (size_t i = 0; i < NF; i++) {
			double s, c;
			sincos(xs[q] * h[i], &s, &c);
			cr_expect(ulps(out[i], c) <= 1.0 || fabs(out[i] - c) < 1e-16,
			    "%s x %g freq %zu: cos %.17g vs %.17g", isas[*isa], xs[q],
			    i, out[i], c);
			cr_expect(ulps(out[STRIDE + i], s) <= 1.0 ||
			    fabs(out[STRIDE + i] - s) < 1e-16, "%s x %g freq %zu: sin "
			    "%.17g vs %.17g", isas[*isa], xs[q], i, out[STRIDE + i], s);
		}
		for (size_t i = NF; i < STRIDE; i++) /* the gap stays untouched */
			cr_expect(isnan(out[i]));
	}
}

ParameterizedTestParameters(wave, polar_many_is_long_double_to_its_bound)
{
	return cr_make_param_array(int, isa_ids, 3);
}

/* The unit in the last place of x. */
static double
ulp_of(double x)
{
	return nextafter(fabs(x), INFINITY) - fabs(x);
}

/* pe_trig_polar_many on each instruction set against long double: the
 * angle within its atan2's bound of atan2l's (libm: 1 ulp; SLEEF's u35 on
 * AVX2 and AVX-512F: 3.5) and the rounding of the wrap into [0, 2 pi),
 * the length within 2 ulp of hypotl's over the count, at most
 * 1 (a NaN too): the quadrants, both zeros' signs, tiny and huge ratios,
 * lengths past 1 and a tail past every vector width; the same bits
 * whether the vectors come all at once or one at a time. */
ParameterizedTest(int *isa, wave, polar_many_is_long_double_to_its_bound)
{
	if (!pe_wave_force_isa(isas[*isa]))
		cr_skip_test("no %s on this CPU", isas[*isa]);
	enum { N = 1003 };
	double *y = malloc(6 * N * sizeof *y), *x = y + N, *n = x + N;
	double *a = n + N, *r = a + N, *one = r + N;
	cr_assert_not_null(y);
	static const double edge[][3] = {{0.0, 1.0, 1}, {-0.0, 1.0, 1},
	    {0.0, -1.0, 1}, {-0.0, -1.0, 2}, {1.0, 0.0, 1}, {-1.0, 0.0, 1},
	    {1e-300, 1.0, 3}, {1.0, 1e-300, 1}, {-3.0, -4.0, 5}, {-3.0, 4.0, 4},
	    {4096.0, -1e-9, 8192}, {1e150, 1e-300, 1e150}, {-2.5, 2.5, 7},
	    {NAN, 1.0, 1}, {0.0, 0.0, 1}};
	size_t ne = sizeof edge / sizeof edge[0];
	uint64_t seed = 12345;
	for (size_t i = 0; i < N; i++) {
		if (i < ne) {
			y[i] = edge[i][0];
			x[i] = edge[i][1];
			n[i] = edge[i][2];
			continue;
		}
		double v[3];
		for (int k = 0; k < 3; k++) {
			seed = seed * 6364136223846793005u + 1442695040888963407u;
			v[k] = (double)(seed >> 11) / 9007199254740992.0;
		}
		y[i] = ldexp(v[0] - 0.5, (int)(seed % 40) - 20);
		x[i] = ldexp(v[1] - 0.5, (int)(seed / 40 % 40) - 20);
		n[i] = floor(ldexp(v[2], (int)(seed / 1600 % 30))) + 1.0;
	}
	pe_trig_polar_many(y, x, n, N, a, r);
	double worst = 0.0;
	for (size_t i = 0; i < N; i++) {
		long double raw = atan2l(y[i], x[i]);
		long double want = raw < 0 ? raw + PE_TWO_PI : raw;
		long double len = hypotl(y[i], x[i]) / n[i];
		double wr = isnan((double)len) || len >= 1 ? 1.0 : (double)len;
		if (isnan(y[i])) {
			cr_expect(isnan(a[i]) && r[i] == 1.0, "NaN: %a %a", a[i],
			    r[i]);
		} else {
			double tol = (*isa == 0 ? 1.0 : 3.5) * ulp_of((double)raw) +
			    0.5 * ulp_of(a[i]);
			double d = (double)fabsl(a[i] - want);
			worst = d / tol > worst ? d / tol : worst;
			cr_expect(d <= tol, "atan2(%a, %a): %a, atan2l %La",
			    y[i], x[i], a[i], want);
			cr_expect(a[i] >= 0.0 && a[i] <= PE_TWO_PI, "%a", a[i]);
			cr_expect(ulps(r[i], wr) <= 2.0,
			    "|(%a, %a)| / %g: %a, hypotl %a", y[i], x[i], n[i],
			    r[i], wr);
		}
		pe_trig_polar_many(&y[i], &x[i], &n[i], 1, &one[0], &one[1]);
		cr_expect(memcmp(&one[0], &a[i], sizeof *a) == 0 &&
		    memcmp(&one[1], &r[i], sizeof *r) == 0, "(%a, %a) alone",
		    y[i], x[i]);
	}
	cr_log_info("%s: angles within %.2f of the bound", isas[*isa], worst);
	free(y);
}
