/* ALiBi: slopes against a transcription of the authors' get_slopes, the
 * bias by definition, and exact block statistics of the bias field. */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernel/diag.h"
#include "pescope/alibi.h"
#include "kernel/testing.h"

/* Printed by: /usr/bin/python3 tests/ref/alibi_slopes.py (repr of each
 * slope, the authors' get_slopes transcribed). */
static const double slopes12[12] = {0.5,
                                    0.25,
                                    0.125,
                                    0.0625,
                                    0.03125,
                                    0.015625,
                                    0.0078125,
                                    0.00390625,
                                    0.7071067811865476,
                                    0.35355339059327384,
                                    0.17677669529663692,
                                    0.08838834764831849};
static const double slopes6[6] = {0.25,       0.0625, 0.015625,
                                  0.00390625, 0.5,    0.125};
static const double slopes3[3] = {0.0625, 0.00390625, 0.25};

Test(alibi, slopes_power_of_two)
{
	double s[8];
	cr_assert_eq(pe_alibi_slopes(8, s), PE_OK);
	/* 8 heads: 1/2, 1/4, ..., 1/256 (Press et al. 2022, sec. 3). */
	for (int i = 0; i < 8; i++)
		cr_expect_eq(s[i], ldexp(1.0, -(i + 1)), "head %d: %.17g", i,
		             s[i]);
	double one;
	cr_assert_eq(pe_alibi_slopes(1, &one), PE_OK);
	cr_expect_eq(one, 1.0 / 256);
	/* 16 heads: 2^(-k/2), k = 1..16, up to the rounding of start =
	 * 2^-0.5 raised to the k-th power in the authors' start * ratio^i. */
	double s16[16];
	cr_assert_eq(pe_alibi_slopes(16, s16), PE_OK);
	for (int k = 1; k <= 16; k++)
		cr_expect(th_close(s16[k - 1], pow(2.0, -k / 2.0), 0, 1e-14));
}

Test(alibi, slopes_not_power_of_two)
{
	double s[12];
	cr_assert_eq(pe_alibi_slopes(12, s), PE_OK);
	for (int i = 0; i < 12; i++)
		cr_expect(th_close(s[i], slopes12[i], 0, 1e-15),
		          "head %d: %.17g", i, s[i]);
	cr_assert_eq(pe_alibi_slopes(6, s), PE_OK);
	for (int i = 0; i < 6; i++)
		cr_expect(th_close(s[i], slopes6[i], 0, 1e-15));
	cr_assert_eq(pe_alibi_slopes(3, s), PE_OK);
	for (int i = 0; i < 3; i++)
		cr_expect(th_close(s[i], slopes3[i], 0, 1e-15));
}

Test(alibi, slopes_112)
{
	/* From tests/ref/alibi_slopes.py: first 0.9170040432046712, last
	 * 0.016316777850428427, s[64] 0.9576032806985737 (the first of the
	 * interleaved 128-head slopes). */
	double s[112];
	cr_assert_eq(pe_alibi_slopes(112, s), PE_OK);
	cr_expect(th_close(s[0], 0.9170040432046712, 0, 1e-15));
	cr_expect(th_close(s[111], 0.016316777850428427, 0, 1e-15));
	cr_expect(th_close(s[64], 0.9576032806985737, 0, 1e-15));
	for (int i = 0; i < 112; i++)
		cr_expect(s[i] > 0 && s[i] < 1);
	cr_expect_eq(pe_alibi_slopes(0, s), PE_EINVAL);
}

Test(alibi, bias)
{
	cr_expect_eq(pe_alibi_bias(0.5, 5, 2, PE_ALIBI_CAUSAL), -1.5);
	cr_expect_eq(pe_alibi_bias(0.5, 5, 5, PE_ALIBI_CAUSAL), 0.0);
	cr_expect_eq(pe_alibi_bias(0.5, 2, 5, PE_ALIBI_CAUSAL), -INFINITY);
	cr_expect_eq(pe_alibi_bias(0.5, 2, 5, PE_ALIBI_SYMMETRIC), -1.5);
	cr_expect_eq(pe_alibi_bias(0.25, 7, 0, PE_ALIBI_SYMMETRIC), -1.75);
}

Test(alibi, fill)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI;
	cfg.n = 5;
	cfg.heads = 2;
	double b[2 * 25];
	cr_assert_eq(pe_alibi_fill(&cfg, b), PE_OK);
	/* Two heads: slopes 2^-4 and 2^-8. */
	cr_expect_eq(b[0 * 25 + 4 * 5 + 0], -4.0 / 16);
	cr_expect_eq(b[1 * 25 + 4 * 5 + 1], -3.0 / 256);
	cr_expect_eq(b[1 * 25 + 1 * 5 + 3], -INFINITY);
}

/* A bias field over cfg for head h, built by hand. */
static struct pe_field
make_field(const struct pe_config *cfg, double *slopes, size_t h)
{
	struct pe_field f;
	memset(&f, 0, sizeof f);
	f.kind = PE_FIELD_BIAS;
	f.cfg = cfg;
	f.rows = f.cols = cfg->n;
	f.slopes = slopes;
	f.head = h;
	return f;
}

/* Compare pe_diag_block with brute force on one rectangle. */
static void
check_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
            size_t c1)
{
	struct pe_stats got, want;
	cr_assert_eq(pe_diag_block(f, r0, r1, c0, c1, true, &got), PE_OK);
	th_diag_brute(f, r0, r1, c0, c1, &want);
	cr_expect_eq(got.count, want.count);
	cr_expect_eq(got.masked, want.masked, "[%zu,%zu)x[%zu,%zu) masked", r0,
	             r1, c0, c1);
	cr_expect(th_close(got.mean, want.mean, 1e-15, 1e-13),
	          "[%zu,%zu)x[%zu,%zu): mean %.17g want %.17g", r0, r1, c0, c1,
	          got.mean, want.mean);
	if (isnan(want.min)) {
		cr_expect(isnan(got.min) && isnan(got.max));
	} else {
		cr_expect_eq(got.min, want.min, "min %.17g want %.17g", got.min,
		             want.min);
		cr_expect_eq(got.max, want.max, "max %.17g want %.17g", got.max,
		             want.max);
	}
}

Test(alibi_block, random_vs_brute)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI;
	cfg.n = 150;
	cfg.heads = 12;
	double slopes[12];
	cr_assert_eq(pe_alibi_slopes(12, slopes), PE_OK);
	uint64_t seed = 777;
	for (int mode = 0; mode < 2; mode++) {
		cfg.alibi_mode = mode ? PE_ALIBI_SYMMETRIC : PE_ALIBI_CAUSAL;
		for (int t = 0; t < 400; t++) {
			struct pe_field f = make_field(&cfg, slopes, t % 12);
			size_t n = cfg.n;
			size_t r0 = th_lcg(&seed) % n, c0 = th_lcg(&seed) % n;
			size_t r1 = r0 + 1 + th_lcg(&seed) % (n - r0);
			size_t c1 = c0 + 1 + th_lcg(&seed) % (n - c0);
			check_block(&f, r0, r1, c0, c1);
		}
		struct pe_field f = make_field(&cfg, slopes, 3);
		check_block(&f, 0, 5, 10, 20);     /* all above the diagonal */
		check_block(&f, 10, 20, 0, 5);     /* all below */
		check_block(&f, 0, 150, 0, 150);   /* everything */
		check_block(&f, 7, 8, 7, 8);       /* one diagonal cell */
		check_block(&f, 7, 8, 8, 9);       /* one masked cell */
		check_block(&f, 0, 150, 149, 150); /* one column */
	}
}

Test(alibi_block, fully_masked)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI;
	cfg.n = 100;
	double slopes[8];
	pe_alibi_slopes(8, slopes);
	struct pe_field f = make_field(&cfg, slopes, 0);
	struct pe_stats s;
	cr_assert_eq(pe_diag_block(&f, 0, 10, 10, 100, true, &s), PE_OK);
	cr_expect_eq(s.count, 900);
	cr_expect_eq(s.masked, 900);
	cr_expect(isnan(s.mean) && isnan(s.min) && isnan(s.max));
}

Test(alibi_block, huge_exact)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI;
	cfg.n = PE_MAX_N;
	double slopes[8];
	pe_alibi_slopes(8, slopes);
	struct pe_field f = make_field(&cfg, slopes, 0);
	struct pe_stats s;
	long double n = (long double)cfg.n, m = slopes[0];

	/* Causal, the whole n x n: the n(n+1)/2 cells with j <= i have mean
	 * distance sum_i i(i+1)/2 / (n(n+1)/2) = (n - 1)/3. */
	cr_assert_eq(pe_diag_block(&f, 0, cfg.n, 0, cfg.n, true, &s), PE_OK);
	cr_expect_eq(s.count, (uint64_t)cfg.n * cfg.n);
	cr_expect_eq(s.masked, (uint64_t)cfg.n * (cfg.n - 1) / 2);
	cr_expect(th_close(s.mean, (double)(-m * (n - 1) / 3), 0, 1e-15),
	          "mean %.17g", s.mean);
	cr_expect_eq(s.min, -0.5 * (double)(cfg.n - 1));
	cr_expect_eq(s.max, 0.0);

	/* Symmetric: mean |i - j| over n x n is (n^2 - 1) / (3n). */
	cfg.alibi_mode = PE_ALIBI_SYMMETRIC;
	cr_assert_eq(pe_diag_block(&f, 0, cfg.n, 0, cfg.n, true, &s), PE_OK);
	cr_expect_eq(s.masked, 0);
	cr_expect(
	    th_close(s.mean, (double)(-m * (n * n - 1) / (3 * n)), 0, 1e-15),
	    "mean %.17g", s.mean);

	/* Row-wise: rows [r0, r0 + 64) x all columns, each row the sum of an
	 * arithmetic series, summed exactly in __int128. */
	cfg.alibi_mode = PE_ALIBI_CAUSAL;
	size_t r0 = cfg.n / 2 + 12345;
	__int128 sum = 0;
	uint64_t cnt = 0;
	for (size_t i = r0; i < r0 + 64; i++) {
		/* j = 0..i: distances 0..i */
		sum += (__int128)i * (i + 1) / 2;
		cnt += i + 1;
	}
	cr_assert_eq(pe_diag_block(&f, r0, r0 + 64, 0, cfg.n, true, &s), PE_OK);
	long double want = -(long double)m * ((long double)sum / cnt);
	cr_expect(th_close(s.mean, (double)want, 0, 1e-15),
	          "mean %.17g want %.17Lg", s.mean, want);
	cr_expect_eq(s.masked, (uint64_t)64 * cfg.n - cnt);
}

Test(alibi_block, errors)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI;
	cfg.n = 10;
	struct pe_field f = make_field(&cfg, NULL, 0);
	struct pe_stats s;
	cr_expect_eq(pe_diag_block(&f, 0, 5, 0, 5, false, &s), PE_EINVAL);
}

/* Softmax of the biases alone (src/kernel/attention.c): block means equal
 * the means of a softmax computed here term by term. */
Test(alibi, attention_block_means_match_softmax)
{
	const double slopes[] = {0.5, 1.0 / 256, 2.0};
	const size_t n = 9;
	for (size_t s = 0; s < 3; s++)
		for (int mode = 0; mode < 2; mode++)
			for (size_t i = 0; i < n; i++) {
				double m = slopes[s], w[9], z = 0;
				for (size_t j = 0; j < n; j++) {
					double d = i > j ? (double)(i - j) : (double)(j - i);
					w[j] = mode == PE_ALIBI_CAUSAL && j > i ? 0 : exp(-m * d);
					z += w[j];
				}
				for (size_t j0 = 0; j0 < n; j0++)
					for (size_t j1 = j0 + 1; j1 <= n; j1++) {
						double want = 0;
						for (size_t j = j0; j < j1; j++)
							want += w[j] / z;
						want /= (double)(j1 - j0);
						double got = pe_alibi_attention(m, i, n, j0, j1,
						    (enum pe_alibi_mode)mode);
						cr_assert(fabs(got - want) <= 1e-15 + 1e-12 * want,
						    "m %g mode %d i %zu [%zu,%zu): %.17g vs %.17g", m,
						    mode, i, j0, j1, got, want);
					}
			}
}

/* At a million keys the block weights still sum to one. */
Test(alibi, attention_sums_to_one_at_scale)
{
	const size_t n = (size_t)1 << 20, i = 600000, nb = 97;
	for (int mode = 0; mode < 2; mode++) {
		double total = 0;
		for (size_t b = 0; b < nb; b++) {
			size_t j0 = b * n / nb, j1 = (b + 1) * n / nb;
			total += pe_alibi_attention(1.0 / 4096, i, n, j0, j1,
			    (enum pe_alibi_mode)mode) * (double)(j1 - j0);
		}
		cr_assert(fabs(total - 1.0) < 1e-12, "mode %d: %.17g", mode, total);
	}
	cr_assert(isnan(pe_alibi_attention(0.5, 3, 8, 5, 5, PE_ALIBI_CAUSAL)));
}

/* The grid (pe_diag_grid) against its blocks and the direct sums on
 * awkward tilings, causal and symmetric, steep and shallow heads. */
Test(alibi_grid, tilings_vs_brute)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ALIBI;
	cfg.n = 150;
	cfg.heads = 12;
	double slopes[12];
	cr_assert_eq(pe_alibi_slopes(12, slopes), PE_OK);
	for (int mode = 0; mode < 2; mode++) {
		cfg.alibi_mode = mode ? PE_ALIBI_SYMMETRIC : PE_ALIBI_CAUSAL;
		for (size_t h = 0; h < 12; h += 11) {
			struct pe_field f = make_field(&cfg, slopes, h);
			th_diag_check_grids(&f);
		}
	}
}
