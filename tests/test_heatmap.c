/* Heatmap colors: pe_scale_pixels' loops (the vector units' arithmetic,
 * the colormap's buckets and sub-buckets read many at a time) against
 * pe_scale_color, one sample at a time, bit for bit, over millions of
 * samples made to sit on every edge the loops decide at. Each fails when
 * the fast path is broken on purpose: the fade's half rounded down, the
 * vector floor's step down left out, a block of no entries taken as a
 * value, a mixed bucket's t left unsummed (tried); pe_scale_means's
 * AVX-512F loop's fade rounding up at more than a half, and its wrap
 * leaving t 1 (tried). */
#include <criterion/criterion.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/wave_impl.h"
#include "pescope/wave.h"
#include "render/draw.h"
#include "render/palette.h"

/* Samples a row of a test: not a multiple of the loops' runs or lanes. */
#define ROW 1031

/* splitmix64 (Steele, Lea, Flood 2014): the same samples every run. */
static uint64_t
rng_next(uint64_t *st)
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static double
rng_unit(uint64_t *st)
{
	return (double)(rng_next(st) >> 11) * 0x1p-53;
}

/* Any double at all, by its bits (NaNs, infinities, subnormals too). */
static double
rng_bits(uint64_t *st)
{
	uint64_t b = rng_next(st);
	double v;
	memcpy(&v, &b, sizeof v);
	return v;
}

/* A t the loops decide at: a bucket's (k / 2^16) or sub-bucket's
 * (k / 2^20) edge, a table entry's (k / (n - 1) for the tables' n: 11,
 * 256, 510), or the ends, give or take a double or two; or any t. */
static double
edge_t(uint64_t *st)
{
	static const double ns[] = {10, 255, 509};
	uint64_t r = rng_next(st);
	double t;

	switch (r % 5) {
	case 0:
		t = (double)(r >> 8 & 0xffff) * 0x1p-16;
		break;
	case 1:
		t = (double)(r >> 8 & 0xfffff) * 0x1p-20;
		break;
	case 2:
		t = (double)((r >> 8) % 510) / ns[(r >> 40) % 3];
		break;
	case 3:
		t = (r >> 8) & 1 ? 1.0 : 0.0;
		break;
	default:
		return rng_unit(st);
	}
	for (int k = (int)(r >> 50 & 3); k > 0; k--)
		t = nextafter(t, r >> 52 & 1 ? 2.0 : -1.0);
	return t;
}

/* A mean on scale sc: mostly one whose t is at an edge, or any t within
 * and beyond the scale, a whole turn or an exact multiple of the span
 * away; or a special double. */
static double
rand_mean(uint64_t *st, const struct pe_scale *sc)
{
	static const double odd[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0,
	    DBL_MAX, -DBL_MAX, DBL_MIN, -DBL_MIN, 4.9e-324, 1e300, -1e300};
	double span = sc->hi - sc->lo, u;
	uint64_t r = rng_next(st);

	switch (r % 8) {
	case 0:
	case 1:
	case 2:
		return sc->lo + edge_t(st) * span;
	case 3:
		return sc->lo + (3.0 * rng_unit(st) - 1.0) * span;
	case 4:
		/* whole turns away: t - floor(t) at 0 and 1 */
		u = (double)((int64_t)(r >> 8 & 0xff) - 128);
		return sc->lo + (u + ((r >> 20) & 1 ? 0.0 : edge_t(st))) * span;
	case 5:
		return odd[(r >> 8) % (sizeof odd / sizeof odd[0])];
	case 6:
		return rng_bits(st);
	default:
		return (rng_unit(st) - 0.5) * 1e6;
	}
}

/* A resultant: 0, 1 and beyond, NaN, or where the fade toward grey
 * (x = c + (1 - R)(128 - c)) sits on a rounding half: 1 - R = (j + 1/2)
 * / d for a channel d from grey, give or take a double. */
static double
rand_resultant(uint64_t *st)
{
	static const double odd[] = {0.0, -0.0, 1.0, NAN, 1.5, -0.5, INFINITY,
	    -INFINITY, 0.5, DBL_MIN, 1.0 - DBL_EPSILON / 2, 1.0 + DBL_EPSILON};
	uint64_t r = rng_next(st);
	double d, res;

	switch (r % 6) {
	case 0:
		return odd[(r >> 8) % (sizeof odd / sizeof odd[0])];
	case 1:
	case 2:
		d = (double)((r >> 8) % 128 + 1);
		res = 1.0 - ((double)((r >> 16) % (uint64_t)d) + 0.5) / d;
		for (int k = (int)(r >> 50 & 3); k > 0; k--)
			res = nextafter(res, r >> 52 & 1 ? 2.0 : -1.0);
		return res;
	case 3:
		return rng_bits(st);
	default:
		return rng_unit(st);
	}
}

/* A sample: a value's mostly; else masked or undefined by count, a
 * block with no entries, or a NaN mean's, with counts that tie. */
static struct pe_stats
rand_sample(uint64_t *st, const struct pe_scale *sc)
{
	struct pe_stats s = {.mean = rand_mean(st, sc),
	    .resultant = rand_resultant(st), .count = 1};
	uint64_t r = rng_next(st);

	switch (r % 12) {
	case 0:
		s.count = (r >> 8) % 9;
		s.masked = (r >> 16) % (s.count + 2);
		s.undefined = (r >> 24) % (s.count + 2);
		break;
	case 1:
		s.count = 0;
		break;
	case 2:
		s.mean = NAN;
		s.count = (r >> 8) % 5;
		s.masked = s.undefined = (r >> 16) % 3;
		break;
	case 3:
		s.count = UINT64_MAX;
		s.masked = UINT64_MAX / 2 + ((r >> 8) & 1);
		break;
	case 4:
		s.count = 1 + (r >> 8) % 1000;
		s.masked = (r >> 20) % (s.count / 2 + 1);
		break;
	default:
		break;
	}
	return s;
}

/* Scales: each colormap (and one out of range), cyclic or not, the
 * pictures' spans, lo == hi, a negative, a tiny, an overflowing, an
 * infinite and a NaN span. */
static const double spans[][2] = {
    {0.0, 1.0}, {0.0, 6.283185307179586}, {-1.0, 1.0}, {-524288.0, 0.0},
    {-1.0, 0.0}, {3.0, 3.0}, {1.0, -1.0}, {1.0, 1.0000000000000002},
    {-1e308, 1e308}, {0.0, INFINITY}, {-INFINITY, INFINITY}, {NAN, 1.0},
    {-4096.0, 4096.0},
};

/* Compare pe_scale_means over the samples of s that are blocks of finite
 * entries alone, given as their means and resultants (res: or none, every
 * one 1), with pe_scale_color each, and its count of undefined (NaN)
 * means, with the loops of the instruction set in use (AVX-512F's:
 * heatmap_avx512.c) and with the generic ones; return how many differ. */
static long means_differ_isa(const struct pe_scale *sc,
    const struct pe_stats *s, size_t n, bool res);
static long
means_differ(const struct pe_scale *sc, const struct pe_stats *s, size_t n,
    bool res)
{
	char isa[16];
	snprintf(isa, sizeof isa, "%s", pe_wave_isa());
	long bad = means_differ_isa(sc, s, n, res);
	if (strcmp(isa, "generic") != 0) {
		cr_assert(pe_wave_force_isa("generic"));
		bad += means_differ_isa(sc, s, n, res);
		cr_assert(pe_wave_force_isa(isa));
	}
	return bad;
}

/* means_differ with the loops in use. */
static long
means_differ_isa(const struct pe_scale *sc, const struct pe_stats *s,
    size_t n, bool res)
{
	double mean[ROW], rl[ROW];
	uint32_t px[ROW];
	size_t m = 0, nan = 0;
	long bad = 0;

	cr_assert(n <= ROW);
	for (size_t i = 0; i < n; i++)
		if (s[i].masked == 0 && s[i].undefined == 0 && s[i].count > 0) {
			mean[m] = s[i].mean;
			rl[m] = res ? s[i].resultant : 1.0;
			nan += isnan(mean[m]);
			m++;
		}
	cr_expect_eq(pe_scale_means(sc, mean, res ? rl : NULL, m, px), nan,
	    "undefined means counted");
	for (size_t i = 0; i < m; i++) {
		struct pe_stats one = {.mean = mean[i], .resultant = rl[i],
		    .count = 1};
		uint32_t want = 0xff000000u | (uint32_t)pe_scale_color(sc, &one);
		if (px[i] != want && bad++ == 0)
			cr_log_error("means (%s): cmap %d cyclic %d lo %a hi %a: "
			    "mean %a R %a: %08x, want %08x", pe_wave_isa(),
			    (int)sc->cmap, sc->cyclic, sc->lo, sc->hi, mean[i],
			    rl[i], px[i], want);
	}
	return bad;
}

/* Compare pe_scale_pixels over n samples with pe_scale_color each, and
 * its count of masked and undefined samples, and pe_scale_means over
 * those that are blocks of finite entries alone (means_differ); return
 * how many differ (reporting the first). */
static long
row_differs(const struct pe_scale *sc, const struct pe_stats *s, size_t n,
    uint32_t *px)
{
	long bad = means_differ(sc, s, n, true) + means_differ(sc, s, n,
	    false);
	size_t special = 0;

	for (size_t i = 0; i < n; i++)
		special += pe_sample_class(&s[i]) != PE_SAMPLE_VALUE;
	cr_expect_eq(pe_scale_pixels(sc, s, n, px), special,
	    "masked and undefined samples counted");
	for (size_t i = 0; i < n; i++) {
		uint32_t want = 0xff000000u | (uint32_t)pe_scale_color(sc, &s[i]);
		if (px[i] == want)
			continue;
		if (bad++ == 0)
			cr_log_error("cmap %d cyclic %d lo %a hi %a: mean %a "
			    "R %a count %llu masked %llu undef %llu: %08x, "
			    "want %08x", (int)sc->cmap, sc->cyclic, sc->lo,
			    sc->hi, s[i].mean, s[i].resultant,
			    (unsigned long long)s[i].count,
			    (unsigned long long)s[i].masked,
			    (unsigned long long)s[i].undefined, px[i], want);
	}
	return bad;
}

/* Every scale, 40 rows of random samples: over 4 million. */
Test(heatmap, pixels_are_each_samples_color)
{
	struct pe_stats s[ROW];
	uint32_t px[ROW];
	uint64_t st = 26;
	long bad = 0, total = 0;

	for (int cm = 0; cm <= PE_CMAP_COUNT; cm++)
		for (int cyc = 0; cyc < 2; cyc++)
			for (size_t k = 0; k < sizeof spans / sizeof spans[0];
			    k++) {
				struct pe_scale sc = {(enum pe_cmap)(cm ==
				    PE_CMAP_COUNT ? 7 : cm), spans[k][0],
				    spans[k][1], cyc == 1};
				for (int row = 0; row < 40; row++) {
					for (size_t i = 0; i < ROW; i++)
						s[i] = rand_sample(&st, &sc);
					bad += row_differs(&sc, s, ROW, px);
					total += ROW;
				}
			}
	cr_expect_eq(bad, 0, "%ld of %ld pixels differ", bad, total);
}

/* Every bucket of every colormap, at its edges and within, and every
 * sub-bucket's edge: t from 0 to 1 on the scale [0, 1], cyclic (whose
 * fade rounds the color) and not. */
Test(heatmap, every_bucket_edge)
{
	struct pe_stats s[ROW];
	uint32_t px[ROW];
	uint64_t st = 2026;
	long bad = 0;
	size_t n = 0;

	for (int cm = 0; cm < PE_CMAP_COUNT; cm++)
		for (int cyc = 0; cyc < 2; cyc++) {
			struct pe_scale sc = {(enum pe_cmap)cm, 0.0, 1.0,
			    cyc == 1};
			for (uint32_t k = 0; k <= 1u << 20; k++) {
				double t = (double)k * 0x1p-20;
				double ts[3] = {nextafter(t, -1.0), t,
				    (k & 15) == 0 ? t + rng_unit(&st) * 0x1p-16
				    : nextafter(t, 2.0)};
				for (int j = 0; j < 3; j++) {
					s[n++] = (struct pe_stats){.mean = ts[j],
					    .resultant = rand_resultant(&st),
					    .count = 1};
					if (n == ROW) {
						bad += row_differs(&sc, s, n, px);
						n = 0;
					}
				}
			}
			bad += row_differs(&sc, s, n, px);
			n = 0;
		}
	cr_expect_eq(bad, 0, "%ld pixels differ", bad);
}

/* Rows of every length up to two of the loops' runs, and runs of one
 * class: all masked, all undefined, values among them. */
Test(heatmap, rows_of_any_length)
{
	static struct pe_stats s[600];
	uint32_t px[600];
	uint64_t st = 7;
	long bad = 0;

	for (int cyc = 0; cyc < 2; cyc++) {
		struct pe_scale sc = {PE_CMAP_CYCLIC, 0.0, 6.283185307179586,
		    cyc == 1};
		for (size_t n = 0; n <= 600; n += n < 20 ? 1 : 17) {
			for (size_t i = 0; i < n; i++)
				s[i] = rand_sample(&st, &sc);
			bad += row_differs(&sc, s, n, px);
			for (size_t i = 0; i < n; i++)
				s[i] = (struct pe_stats){.mean = NAN, .count = 4,
				    .masked = 4};
			if (n > 0)
				s[n / 2] = (struct pe_stats){.mean = 1.0,
				    .resultant = 0.25, .count = 1};
			bad += row_differs(&sc, s, n, px);
			for (size_t i = 0; i < n; i++)
				s[i].undefined = 4, s[i].masked = 0;
			bad += row_differs(&sc, s, n, px);
		}
	}
	cr_expect_eq(bad, 0, "%ld pixels differ", bad);
}

/* A bucket that is not marked mixed holds the color pe_cmap_color gives
 * every t in it. */
Test(heatmap, buckets_hold_cmap_color)
{
	uint64_t st = 11;
	long bad = 0, mixed = 0;

	for (int cm = 0; cm <= PE_CMAP_COUNT; cm++) {
		const uint32_t *lut = pe_cmap_buckets((enum pe_cmap)cm);
		for (long k = 0; k < 4000000; k++) {
			double t = k % 2 ? edge_t(&st) : rng_unit(&st);
			if (t < 0.0 || t > 1.0)
				continue;
			uint32_t c = lut[(size_t)(t * (double)PE_CMAP_BUCKETS)];
			if (c & PE_CMAP_MIXED)
				mixed++;
			else
				bad += c != (uint32_t)pe_cmap_color((enum pe_cmap)cm,
				    t);
		}
	}
	cr_expect_eq(bad, 0, "%ld buckets' colors differ", bad);
	cr_expect_lt(mixed, 16 * 4000000 / 20, "%ld mixed", mixed);
}
