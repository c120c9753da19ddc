/* Fields: exact block means against brute force for every kind, grids
 * against blocks, huge fields against long-double sums. */
#include <criterion/criterion.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "pescope/field.h"
#include "pescope/learned.h"
#include "pescope/rope.h"
#include "pescope/sinusoidal.h"
#include "kernel/field_impl.h"
#include "kernel/testing.h"
#include "kernel/wave_impl.h"

#define TWO_PI 6.283185307179586476925286766559


Test(field, span_tiles_without_gaps)
{
	size_t cases[][3] = {
	    {0, 100, 7},
	    {5, 6, 4},
	    {3, 10, 7},
	    {0, 1u << 30, 120},
	    {10, 13, 10},
	    /* around 2^32 items, where the quotients
	       leave 64 bits for 128 */
	    {0, UINT32_MAX, 1000},
	    {0, (size_t)UINT32_MAX + 1, 999},
	    {(size_t)UINT32_MAX - 3, (size_t)UINT32_MAX + 5, 3},
	    {7, ((size_t)1 << 40) + 7, 1000}};
	for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
		size_t lo = cases[t][0], hi = cases[t][1], nb = cases[t][2];
		size_t prev = lo;
		for (size_t k = 0; k < nb; k++) {
			size_t b0, b1;
			pe_field_span(lo, hi, nb, k, &b0, &b1);
			cr_expect_lt(b0, b1, "empty block");
			cr_expect_geq(b0, lo);
			cr_expect_leq(b1, hi);
			if (nb <= hi - lo) {
				cr_expect_eq(b0, prev, "gap at block %zu", k);
				size_t len = b1 - b0;
				cr_expect(len == (hi - lo) / nb ||
				          len == (hi - lo) / nb + 1);
			} else {
				cr_expect_eq(b1, b0 + 1);
				cr_expect(b0 == prev || b0 == prev - 1 ||
				          k == 0);
			}
			prev = b1;
		}
		cr_expect_eq(prev, hi);
	}
}

/* Blocks of a uniform tiling are exactly [lo + k n / nb, lo + (k+1) n / nb)
 * at any k, on both sides of k = 2^32 and of n = 2^32 (the limits of the
 * 64-bit quotients). */
Test(field, span_of_a_uniform_tiling_at_large_k)
{
	size_t nb = (size_t)1 << 33, lo = 5, hi = lo + 2 * nb;
	size_t ks[] = {0,
	               1,
	               (size_t)UINT32_MAX - 1,
	               UINT32_MAX,
	               (size_t)UINT32_MAX + 1,
	               nb - 1};
	for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
		size_t b0, b1, k = ks[t];
		pe_field_span(lo, hi, nb, k, &b0, &b1);
		cr_expect_eq(b0, lo + 2 * k, "k %zu: start %zu", k, b0);
		cr_expect_eq(b1, lo + 2 * k + 2, "k %zu: end %zu", k, b1);
	}
	/* 2^31 items in 2^33 blocks: block k starts at item k / 4 and
	 * spans one item */
	nb = (size_t)1 << 33;
	hi = lo + ((size_t)1 << 31);
	for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
		size_t b0, b1, k = ks[t];
		pe_field_span(lo, hi, nb, k, &b0, &b1);
		cr_expect_eq(b0, lo + k / 4, "k %zu: start %zu", k, b0);
		cr_expect_eq(b1, b0 + 1, "k %zu: end %zu", k, b1);
	}
}

Test(field, sinusoidal_blocks_equal_brute_force)
{
	struct pe_config c;
	pe_config_default(&c);
	c.d = 16;
	c.n = 300;
	th_field_check_kind(&c, PE_FIELD_PE, "sinusoidal interleaved");
	th_field_check_kind(&c, PE_FIELD_SIMILARITY, "sinusoidal similarity");
	c.layout = PE_LAYOUT_SPLIT;
	c.base = 50.0;
	th_field_check_kind(&c, PE_FIELD_PE, "sinusoidal split");
	c.layout = PE_LAYOUT_T2T;
	th_field_check_kind(&c, PE_FIELD_PE, "sinusoidal t2t");
	th_field_check_kind(&c, PE_FIELD_SIMILARITY, "sinusoidal t2t similarity");
}

/* A t2t field is tensor2tensor's table (pe_sinusoidal_value, checked
 * against a transcription in test_sinusoidal.c), entry for entry, and its
 * similarity is the dot product of those rows. */
Test(field, t2t_field_is_the_t2t_table)
{
	struct pe_config c;
	struct pe_field f, s;
	pe_config_default(&c);
	c.layout = PE_LAYOUT_T2T;
	c.d = 12;
	c.n = 90;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_PE, &c), PE_OK);
	cr_assert_eq(pe_field_init(&s, PE_FIELD_SIMILARITY, &c), PE_OK);
	double pe[90 * 12];
	cr_assert_eq(pe_sinusoidal_fill(0, 90, 12, c.base, c.layout, pe), PE_OK);
	for (size_t p = 0; p < 90; p++)
		for (size_t j = 0; j < 12; j++)
			cr_expect_eq(pe_field_value(&f, p, j), pe[p * 12 + j]);
	for (size_t i = 0; i < 90; i += 7)
		for (size_t j = 0; j < 90; j += 5) {
			double dot = 0;
			for (size_t k = 0; k < 12; k++)
				dot += pe[i * 12 + k] * pe[j * 12 + k];
			cr_expect(th_close(pe_field_value(&s, i, j), dot, 1e-12,
			                   1e-12), "S(%zu,%zu)", i, j);
		}
	pe_field_free(&f);
	pe_field_free(&s);
}

Test(field, rope_blocks_equal_brute_force)
{
	struct pe_config c;
	pe_config_default(&c);
	c.enc = PE_ENC_ROPE;
	c.d = 16;
	c.n = 400;
	c.rope.type = PE_ROPE_YARN;
	c.rope.factor = 8.0;
	c.rope.original_max_pos = 64;
	for (int p = 0; p < 2; p++) {
		c.pairing = (enum pe_pairing)p;
		th_field_check_kind(&c, PE_FIELD_ROPE_ANGLE, "rope angle");
		th_field_check_kind(&c, PE_FIELD_ROPE_COS, "rope cos");
		th_field_check_kind(&c, PE_FIELD_ROPE_SIN, "rope sin");
		th_field_check_kind(&c, PE_FIELD_SIMILARITY, "rope similarity");
	}
	c.rope.partial_rotary = 0.5;
	c.rope.type = PE_ROPE_DEFAULT;
	th_field_check_kind(&c, PE_FIELD_SIMILARITY, "rope partial similarity");
	th_field_check_kind(&c, PE_FIELD_ROPE_COS, "rope partial cos");
}

Test(field, learned_blocks_equal_brute_force)
{
	struct pe_config c;
	pe_config_default(&c);
	c.enc = PE_ENC_LEARNED;
	c.d = 12;
	c.n = 90;
	c.max_len = 60;
	double *tab = malloc(60 * 12 * sizeof *tab);
	pe_learned_init(60, 12, 99, tab);
	c.table = tab;
	th_field_check_kind(&c, PE_FIELD_PE, "learned pe");
	th_field_check_kind(&c, PE_FIELD_SIMILARITY, "learned similarity");
	c.table = NULL; /* the field makes the init table itself */
	th_field_check_kind(&c, PE_FIELD_PE, "learned pe (no table)");
	th_field_check_kind(&c, PE_FIELD_SIMILARITY, "learned similarity (no table)");
	free(tab);
}

Test(field, diagonal_kinds_equal_brute_force)
{
	struct pe_config c;
	pe_config_default(&c);
	c.n = 120;
	c.enc = PE_ENC_ALIBI;
	c.heads = 12;
	struct pe_field f;
	for (int mode = 0; mode < 2; mode++) {
		c.alibi_mode = (enum pe_alibi_mode)mode;
		cr_assert_eq(pe_field_init(&f, PE_FIELD_BIAS, &c), PE_OK);
		f.head = 5;
		th_field_check(&f, "alibi bias");
		pe_field_free(&f);
	}
	c.enc = PE_ENC_NOPE;
	th_field_check_kind(&c, PE_FIELD_MASK, "nope mask");
	th_field_check_kind(&c, PE_FIELD_SIMILARITY, "nope similarity");
	c.enc = PE_ENC_RELATIVE;
	c.relative = PE_REL_T5;
	c.buckets = 16;
	c.max_distance = 40;
	th_field_check_kind(&c, PE_FIELD_RELATIVE, "t5 bidirectional");
	c.bidirectional = false;
	th_field_check_kind(&c, PE_FIELD_RELATIVE, "t5 unidirectional");
	c.relative = PE_REL_SHAW;
	c.max_relative = 9;
	th_field_check_kind(&c, PE_FIELD_RELATIVE, "shaw");
}

/* MAE cosine similarity of patch (1, 2) with every patch of a 3 x 5 grid,
 * d 16: printed by /usr/bin/python3 tests/ref/vit2d_ref.py. */
static const double ref_cos_12[15] = {
    0.762371717, 0.883813995, 0.941906991, 0.883813989, 0.762371713,
    0.820464726, 0.941907004, 1,           0.941906997, 0.820464723,
    0.762371728, 0.883814007, 0.941907003, 0.883814,    0.762371724};

Test(field, vit2d_blocks_equal_brute_force)
{
	struct pe_config c;
	pe_config_default(&c);
	c.enc = PE_ENC_VIT2D;
	c.d = 16;
	c.grid_h = 7;
	c.grid_w = 9;
	th_field_check_kind(&c, PE_FIELD_PE, "vit2d pe");
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_PATCH_COSINE, &c), PE_OK);
	cr_expect(f.rows == 7 && f.cols == 9);
	f.anchor = 31;
	th_field_check(&f, "vit2d patch cosine");
	pe_field_free(&f);

	c.grid_h = 3;
	c.grid_w = 5;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_PATCH_COSINE, &c), PE_OK);
	f.anchor = 1 * 5 + 2;
	for (size_t r = 0; r < 15; r++)
		cr_expect(th_close(pe_field_value(&f, r / 5, r % 5),
		                   ref_cos_12[r], 2e-6, 0),
		          "patch %zu", r);
	pe_field_free(&f);
}

Test(field, learned_rows_past_max_len_are_undefined)
{
	struct pe_config c;
	pe_config_default(&c);
	c.enc = PE_ENC_LEARNED;
	c.d = 4;
	c.n = 20;
	c.max_len = 10;
	double tab[40];
	for (int i = 0; i < 40; i++)
		tab[i] = (float)i;
	c.table = tab;
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_PE, &c), PE_OK);
	cr_expect(isnan(pe_field_value(&f, 10, 0)));
	cr_expect_eq(pe_field_value(&f, 9, 3), 39.0);
	struct pe_stats s;
	pe_field_block(&f, 8, 14, 0, 4, true, &s);
	/* rows 8, 9 defined: values 32..39, mean 35.5 */
	cr_expect_eq(s.count, 24);
	cr_expect_eq(s.undefined, 16);
	cr_expect(th_close(s.mean, 35.5, 1e-12, 0), "mean %g", s.mean);
	cr_expect(s.min == 32.0 && s.max == 39.0);
	pe_field_block(&f, 12, 20, 1, 3, true, &s);
	cr_expect(isnan(s.mean));
	cr_expect_eq(s.undefined, s.count);
	pe_field_free(&f);

	cr_assert_eq(pe_field_init(&f, PE_FIELD_SIMILARITY, &c), PE_OK);
	cr_expect(isnan(pe_field_value(&f, 3, 15)));
	pe_field_block(&f, 5, 15, 0, 10, false, &s);
	cr_expect_eq(s.undefined, 50);
	double prof[8];
	pe_field_profile(&f, 6, 8, prof);
	for (int k = 0; k < 8; k++) {
		if (6 + k >= 10)
			cr_expect(isnan(prof[k]));
		else
			cr_expect_eq(prof[k], pe_field_value(&f, 6, 6 + k));
	}
	pe_field_free(&f);
}

Test(field, similarity_is_a_dot_product_of_position_vectors)
{
	struct pe_config c;
	pe_config_default(&c);
	c.d = 32;
	c.n = 200;
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_SIMILARITY, &c), PE_OK);
	double *pe = malloc(200 * 32 * sizeof *pe);
	pe_sinusoidal_fill(0, 200, 32, c.base, c.layout, pe);
	for (size_t i = 0; i < 200; i += 13)
		for (size_t j = 0; j < 200; j += 7) {
			double dot = 0;
			for (size_t k = 0; k < 32; k++)
				dot += pe[i * 32 + k] * pe[j * 32 + k];
			cr_expect(th_close(pe_field_value(&f, i, j), dot, 1e-12,
			                   1e-12));
		}
	double prof[30];
	cr_assert_eq(pe_field_profile(&f, 180, 30, prof), PE_OK);
	for (size_t k = 0; k < 30; k++) {
		if (180 + k >= 200)
			cr_expect(isnan(prof[k]));
		else
			cr_expect_eq(prof[k], pe_field_value(&f, 180, 180 + k));
	}
	free(pe);
	pe_field_free(&f);

	/* rope: S(i, j) = (R_i q) . (R_j q), q = (1, 0) in every pair, with
	 * attention scaling (yarn) and pass-through dims (partial rotary). */
	c.enc = PE_ENC_ROPE;
	c.d = 16;
	c.rope.type = PE_ROPE_YARN;
	c.rope.factor = 8.0;
	c.rope.original_max_pos = 64;
	c.rope.partial_rotary = 0.5;
	for (int p = 0; p < 2; p++) {
		c.pairing = (enum pe_pairing)p;
		cr_assert_eq(pe_field_init(&f, PE_FIELD_SIMILARITY, &c), PE_OK);
		cr_expect_neq(f.rope.attention_scaling, 1.0);
		double q[16] = {0}, a[16], b[16];
		for (size_t j = 0; j < 8; j++) { /* first dim of each pair */
			size_t da, db;
			if (j < 4)
				pe_rope_pair_dims(j, 8, c.pairing, &da, &db);
			else
				da = 8 + 2 * (j - 4);
			q[da] = 1.0;
		}
		for (size_t i = 0; i < 200; i += 17)
			for (size_t j = 0; j < 200; j += 23) {
				pe_rope_apply(&f.rope, q, (double)i, a);
				pe_rope_apply(&f.rope, q, (double)j, b);
				double dot = 0;
				for (int k = 0; k < 16; k++)
					dot += (double)a[k] * b[k];
				cr_expect(th_close(pe_field_value(&f, i, j),
				                   dot, 1e-5, 1e-5),
				          "rope S(%zu,%zu) %g vs %g", i, j,
				          pe_field_value(&f, i, j), dot);
			}
		pe_field_free(&f);
	}
}

Test(field, nope_similarity_is_zero)
{
	struct pe_config c;
	pe_config_default(&c);
	c.enc = PE_ENC_NOPE;
	c.n = 50;
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_SIMILARITY, &c), PE_OK);
	struct pe_stats s;
	pe_field_block(&f, 0, 50, 0, 50, true, &s);
	cr_expect(s.mean == 0 && s.min == 0 && s.max == 0 && s.minmax_exact);
	pe_field_free(&f);
}

Test(field, unsupported_and_bad_rectangles)
{
	struct pe_config c;
	pe_config_default(&c);
	struct pe_field f;
	cr_expect_eq(pe_field_init(&f, PE_FIELD_BIAS, &c), PE_EINVAL);
	pe_field_free(&f);
	cr_expect_not(pe_field_supported(PE_ENC_ALIBI, PE_FIELD_PE));
	cr_assert_eq(pe_field_init(&f, PE_FIELD_PE, &c), PE_OK);
	struct pe_stats s;
	cr_expect_eq(pe_field_block(&f, 5, 5, 0, 1, false, &s), PE_EINVAL);
	cr_expect_eq(pe_field_block(&f, 0, 65, 0, 1, false, &s), PE_EINVAL);
	cr_expect_eq(pe_field_grid(&f, 0, 64, 0, 0, 64, 3, &s), PE_EINVAL);
	double p;
	cr_expect_eq(pe_field_profile(&f, 0, 1, &p), PE_EINVAL);
	pe_field_free(&f);
}

/* Huge sinusoid, n = 2^20, d = 8192: a grid stays finite and thin
 * rectangles match long-double brute force. */
Test(field, huge_sinusoid_matches_long_double)
{
	struct pe_config c;
	pe_config_default(&c);
	c.n = 1u << 20;
	c.d = 8192;
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_PE, &c), PE_OK);
	struct pe_stats *g = calloc(120 * 200, sizeof *g);
	cr_assert_eq(pe_field_grid(&f, 0, c.n, 120, 0, c.d, 200, g), PE_OK);
	for (size_t i = 0; i < 120 * 200; i++)
		cr_assert(isfinite(g[i].mean) && fabs(g[i].mean) <= 1.0);
	free(g);

	size_t rects[][4] = {{1000000, 1u << 20, 8186, 8192},
	                     {0, 1u << 20, 0, 2},
	                     {123457, 987654, 4093, 4099}};
	for (size_t t = 0; t < 3; t++) {
		size_t r0 = rects[t][0], r1 = rects[t][1], c0 = rects[t][2],
		       c1 = rects[t][3];
		long double sum = 0;
		for (size_t col = c0; col < c1; col++) {
			size_t fi;
			int is_cos;
			pe_sinusoidal_column(col, c.d, c.layout, &fi, &is_cos);
			long double w = pe_sinusoidal_omega(fi, c.d, c.base);
			for (size_t p = r0; p < r1; p++)
				sum += is_cos ? cosl(p * w) : sinl(p * w);
		}
		double want =
		    (double)(sum / ((long double)(r1 - r0) * (c1 - c0)));
		struct pe_stats s;
		cr_assert_eq(pe_field_block(&f, r0, r1, c0, c1, false, &s),
		             PE_OK);
		cr_expect(th_close(s.mean, want, 1e-12, 1e-9),
		          "rect %zu: %.17g vs %.17g", t, s.mean, want);
	}
	pe_field_free(&f);

	cr_assert_eq(pe_field_init(&f, PE_FIELD_SIMILARITY, &c), PE_OK);
	g = calloc(30 * 40, sizeof *g);
	cr_assert_eq(pe_field_grid(&f, 0, c.n, 30, 0, c.n, 40, g), PE_OK);
	for (size_t i = 0; i < 30 * 40; i++)
		cr_assert(isfinite(g[i].mean) &&
		          fabs(g[i].mean) <= 4096.0 + 1e-9);
	free(g);
	/* a one-row grid (the dot-product curve) against its blocks, which
	 * pe_trig_cross computes independently */
	g = calloc(40, sizeof *g);
	cr_assert_eq(pe_field_grid(&f, 777777, 777778, 1, 0, c.n, 40, g),
	             PE_OK);
	for (size_t j = 0; j < 40; j++) {
		size_t q0, q1;
		struct pe_stats b;
		pe_field_span(0, c.n, 40, j, &q0, &q1);
		pe_field_block(&f, 777777, 777778, q0, q1, false, &b);
		cr_expect(th_close(g[j].mean, b.mean, 1e-10, 1e-10),
		          "row block %zu: %.17g vs %.17g", j, g[j].mean,
		          b.mean);
	}
	free(g);
	long double sum = 0;
	size_t r0 = (1u << 20) - 60, r1 = 1u << 20, c0 = 3, c1 = 6;
	for (size_t i = r0; i < r1; i++)
		for (size_t j = c0; j < c1; j++)
			for (size_t k = 0; k < 4096; k++)
				sum += cosl(((long double)i - j) *
				            (long double)pe_sinusoidal_omega(
				                k, c.d, c.base));
	double want = (double)(sum / ((r1 - r0) * (c1 - c0)));
	struct pe_stats s;
	pe_field_block(&f, r0, r1, c0, c1, false, &s);
	cr_expect(th_close(s.mean, want, 1e-9, 1e-9),
	          "similarity %.17g vs %.17g", s.mean, want);
	pe_field_free(&f);
}

Test(field, huge_rope_matches_long_double)
{
	struct pe_config c;
	pe_config_default(&c);
	c.enc = PE_ENC_ROPE;
	c.n = 1u << 20;
	c.d = 128;
	c.rope.type = PE_ROPE_YARN;
	c.rope.factor = 16.0;
	c.rope.original_max_pos = 4096;
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_ROPE_COS, &c), PE_OK);
	long double sum = 0;
	for (size_t col = 62; col < 66; col++)
		for (size_t p = 0; p < c.n; p++)
			sum += cosl(p * (long double)f.rope.inv_freq[col % 64]);
	double want = (double)(sum * f.rope.attention_scaling / (4.0L * c.n));
	struct pe_stats s;
	pe_field_block(&f, 0, c.n, 62, 66, false, &s);
	cr_expect(th_close(s.mean, want, 1e-12, 1e-9), "%.17g vs %.17g", s.mean,
	          want);
	pe_field_free(&f);

	cr_assert_eq(pe_field_init(&f, PE_FIELD_ROPE_ANGLE, &c), PE_OK);
	long double ss = 0, sc = 0;
	for (size_t p = 1000000; p < c.n; p++) {
		long double t = p * (long double)f.rope.inv_freq[40];
		ss += sinl(t);
		sc += cosl(t);
	}
	double m = atan2((double)ss, (double)sc);
	if (m < 0)
		m += TWO_PI;
	pe_field_block(&f, 1000000, c.n, 40, 41, false, &s);
	cr_expect(th_close(
	    s.resultant, (double)(hypotl(ss, sc) / (c.n - 1000000)), 1e-9, 0));
	cr_expect_lt(fabs(remainder(s.mean - m, TWO_PI)), 1e-7,
	             "%.17g vs %.17g", s.mean, m);
	struct pe_stats *g = calloc(50 * 64, sizeof *g);
	cr_assert_eq(pe_field_grid(&f, 0, c.n, 50, 0, 64, 64, g), PE_OK);
	for (size_t i = 0; i < 50 * 64; i++)
		cr_assert(g[i].mean >= 0 && g[i].mean < TWO_PI &&
		          g[i].resultant >= 0 && g[i].resultant <= 1);
	free(g);
	pe_field_free(&f);
}


Test(field, grids_equal_blocks_at_every_tiling)
{
	struct pe_config c;
	pe_config_default(&c);
	c.d = 12;
	c.n = 40;
	th_field_check_grids(&c, PE_FIELD_PE, "sinusoidal");
	th_field_check_grids(&c, PE_FIELD_SIMILARITY, "sinusoidal similarity");
	c.layout = PE_LAYOUT_SPLIT;
	th_field_check_grids(&c, PE_FIELD_PE, "sinusoidal split");
	c.enc = PE_ENC_ROPE;
	c.rope.type = PE_ROPE_YARN;
	c.rope.factor = 8.0;
	c.rope.original_max_pos = 16;
	for (int p = 0; p < 2; p++) {
		c.pairing = (enum pe_pairing)p;
		th_field_check_grids(&c, PE_FIELD_ROPE_ANGLE, "rope angle");
		th_field_check_grids(&c, PE_FIELD_ROPE_COS, "rope cos");
		th_field_check_grids(&c, PE_FIELD_ROPE_SIN, "rope sin");
		th_field_check_grids(&c, PE_FIELD_SIMILARITY, "rope similarity");
	}
	c.enc = PE_ENC_LEARNED;
	c.max_len = 30;
	th_field_check_grids(&c, PE_FIELD_PE, "learned");
	th_field_check_grids(&c, PE_FIELD_SIMILARITY, "learned similarity");
	c.enc = PE_ENC_VIT2D;
	c.grid_h = 5;
	c.grid_w = 7;
	th_field_check_grids(&c, PE_FIELD_PATCH_COSINE, "vit2d patch cosine");
	th_field_check_grids(&c, PE_FIELD_PE, "vit2d pe");
	/* the diagonal fields: by pieces, and block by block where there
	 * are more blocks than rows */
	pe_config_default(&c);
	c.n = 40;
	c.enc = PE_ENC_RELATIVE;
	th_field_check_grids(&c, PE_FIELD_RELATIVE, "relative");
	c.enc = PE_ENC_ALIBI;
	c.heads = 4;
	th_field_check_grids(&c, PE_FIELD_BIAS, "alibi");
	c.enc = PE_ENC_NOPE;
	th_field_check_grids(&c, PE_FIELD_MASK, "nope");
}

/* A wave grid of more frequencies than one group of chunks (its rows are
 * finished in the last group, after the others added to every row):
 * its rows handed on are its cells (th_field_check_grid). */
Test(field, wave_rows_past_one_group_of_chunks)
{
	struct pe_config c;
	pe_config_default(&c);
	c.d = 16384; /* 8192 frequencies: two groups */
	c.n = 1000;
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_PE, &c), PE_OK);
	th_field_check_grid(&f, 3, 997, 37, 5, 16384, 50, "sinusoidal d 16384");
	pe_field_free(&f);
}

/* Similarity grids of many cells: a square grid over one tiling of rows
 * and columns (few distinct blocks: each summed once) and one whose row
 * and column tilings differ (every cell its own product), both against
 * pe_field_block cell by cell, for sinusoidal and rope. */
Test(field, similarity_grids_of_many_cells_equal_blocks)
{
	struct pe_config c;
	pe_config_default(&c);
	c.d = 160; /* 80 frequencies: past the grid's threshold for sharing */
	c.n = 20000;
	for (int e = 0; e < 2; e++) {
		c.enc = e ? PE_ENC_ROPE : PE_ENC_SINUSOIDAL;
		struct pe_field f;
		cr_assert_eq(pe_field_init(&f, PE_FIELD_SIMILARITY, &c), PE_OK);
		th_field_check_grid(&f, 0, 9001, 80, 0, 9001, 80,
		    e ? "rope, square" : "sinusoidal, square");
		th_field_check_grid(&f, 7, 19000, 90, 100, 12345, 61,
		    e ? "rope, two tilings" : "sinusoidal, two tilings");
		pe_field_free(&f);
	}
}

/* Wave min/max come from approximations and exact evaluations near the
 * extremes: they must equal a scan of pe_field_value bit for bit, at
 * large positions (rounded angles) and for angles that wrap at 2 pi. */
Test(field, wave_minmax_equals_a_scan_exactly)
{
	struct pe_config c;
	pe_config_default(&c);
	c.n = 1u << 20;
	c.d = 8192;
	struct {
		enum pe_encoding enc;
		enum pe_field_kind kind;
		size_t r0, r1, c0, c1;
	} cases[] = {
	    {PE_ENC_SINUSOIDAL, PE_FIELD_PE, 349525, 359607, 0, 12},
	    {PE_ENC_SINUSOIDAL, PE_FIELD_PE, 1000001, 1048576, 8180, 8192},
	    {PE_ENC_SINUSOIDAL, PE_FIELD_PE, 5, 70, 3, 200},
	    {PE_ENC_ROPE, PE_FIELD_ROPE_ANGLE, 349525, 359805, 0, 10},
	    {PE_ENC_ROPE, PE_FIELD_ROPE_ANGLE, 777, 50000, 4090, 4096},
	    {PE_ENC_ROPE, PE_FIELD_ROPE_COS, 600000, 610000, 4093, 4099},
	    {PE_ENC_ROPE, PE_FIELD_ROPE_SIN, 3, 9000, 0, 5},
	};
	c.rope.type = PE_ROPE_YARN;
	c.rope.factor = 16.0;
	c.rope.original_max_pos = 4096;
	for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
		struct pe_field f;
		c.enc = cases[t].enc;
		cr_assert_eq(pe_field_init(&f, cases[t].kind, &c), PE_OK);
		double lo = INFINITY, hi = -INFINITY;
		for (size_t r = cases[t].r0; r < cases[t].r1; r++)
			for (size_t col = cases[t].c0; col < cases[t].c1;
			     col++) {
				double v = pe_field_value(&f, r, col);
				lo = fmin(lo, v);
				hi = fmax(hi, v);
			}
		struct pe_stats s;
		cr_assert_eq(pe_field_block(&f, cases[t].r0, cases[t].r1,
		                            cases[t].c0, cases[t].c1, true, &s),
		             PE_OK);
		cr_expect(s.minmax_exact, "case %zu", t);
		cr_expect(s.min == lo && s.max == hi,
		          "case %zu: min %.17g vs %.17g, max %.17g vs %.17g", t,
		          s.min, lo, s.max, hi);
		pe_field_free(&f);
	}
}

/* The patch-cosine table at a width past its direct build (cos(k w) by
 * rotation): blocks of one patch against MAE's formula
 * (pe_vit2d_cosine, computed independently), and a min/max. */
Test(field, patch_cosine_table_at_large_d)
{
	struct pe_config c;
	pe_config_default(&c);
	c.enc = PE_ENC_VIT2D;
	c.grid_h = 64;
	c.grid_w = 40;
	c.d = 4 * 65600; /* 64 x 65600 terms: past the direct build */
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_PATCH_COSINE, &c), PE_OK);
	f.anchor = 21 * 40 + 17;
	size_t cells[][2] = {{21, 17}, {0, 0}, {63, 39}, {40, 2}, {22, 18}};
	for (size_t t = 0; t < 5; t++) {
		struct pe_stats s;
		size_t h = cells[t][0], w = cells[t][1];
		pe_field_block(&f, h, h + 1, w, w + 1, false, &s);
		double want = pe_field_value(&f, h, w);
		cr_expect(th_close(s.mean, want, 1e-12, 1e-12),
		          "patch %zu,%zu: %.17g vs %.17g", h, w, s.mean, want);
	}
	struct pe_stats s;
	pe_field_block(&f, 21, 22, 10, 25, true, &s);
	cr_expect(s.minmax_exact);
	cr_expect(th_close(s.max, 1.0, 1e-12, 0), "max %.17g", s.max);
	pe_field_free(&f);
}

/* Learned fields keep prefix sums every few rows: blocks that start, end
 * and span anywhere against brute force, for a table given and made. */
Test(field, learned_blocks_across_stored_prefix_rows)
{
	struct pe_config c;
	pe_config_default(&c);
	c.enc = PE_ENC_LEARNED;
	c.d = 7;
	c.n = 400;
	c.max_len = 333;
	double *tab = malloc(333 * 7 * sizeof *tab);
	pe_learned_init(333, 7, 5, tab);
	c.table = tab;
	th_field_check_kind(&c, PE_FIELD_PE, "learned pe, long table");
	th_field_check_kind(&c, PE_FIELD_SIMILARITY, "learned similarity, long table");
	c.table = NULL;
	th_field_check_kind(&c, PE_FIELD_PE, "learned pe, own long table");
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_PE, &c), PE_OK);
	double *own = malloc(333 * 7 * sizeof *own);
	pe_learned_init(333, 7, PE_LEARNED_SEED, own); /* the field's seed */
	for (size_t p = 0; p < 333; p += 31)
		for (size_t j = 0; j < 7; j++)
			cr_expect_eq(pe_field_value(&f, p, j), own[p * 7 + j]);
	pe_field_free(&f);
	free(own);
	free(tab);
}

/* A wave scan's work is positions times frequencies (a sin and a cos
 * column of one frequency are one pass): the cursor block of
 * `snapshot -e sinusoidal -d 32768 -n 4194304` (65536 x 528 entries, 264
 * frequencies) is scanned, and its min and max equal a brute-force scan. */
Test(field, wave_minmax_counts_frequencies_not_columns)
{
	struct pe_config c;
	struct pe_field f;
	struct pe_stats s;
	pe_config_default(&c);
	c.d = 32768;
	c.n = 4194304;
	size_t r1 = 65536, c1 = 528;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_PE, &c), PE_OK);
	cr_assert_eq(pe_field_block(&f, 0, r1, 0, c1, true, &s), PE_OK);
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < c1 / 2; i++) {
		double w = pe_sinusoidal_omega(i, c.d, c.base);
		for (size_t p = 0; p < r1; p++) {
			double sn, cs;
			sincos((double)p * w, &sn, &cs);
			lo = fmin(lo, fmin(sn, cs));
			hi = fmax(hi, fmax(sn, cs));
		}
	}
	cr_expect(s.minmax_exact);
	cr_expect(s.min == lo && s.max == hi, "min %.17g vs %.17g, max %.17g vs "
	    "%.17g", s.min, lo, s.max, hi);
	pe_field_free(&f);
}

/* The sum pe_field_gemm documents for one cell, transcribed: lane l adds
 * the terms k = l mod 8 in order, then the lanes add in the tree
 * ((0 + 1) + (2 + 3)) + ((4 + 5) + (6 + 7)). */
static double
dots_lanes(const double *x, const double *y, size_t kl)
{
	double lane[8] = {0};
	for (size_t k = 0; k < kl; k++)
		lane[k % 8] += x[k] * y[k];
	return ((lane[0] + lane[1]) + (lane[2] + lane[3])) +
	    ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}

/* A dot-product grid's cells (pe_field_gemm), in whole tiles of 4 x 3 and
 * the tails of both, rows a stride apart: each cell adds to what acc held
 * the lanes' sum of its row and column, bit for bit; pe_field_dot8 is that
 * sum; both within rounding of a long-double sum. */
Test(field, gemm_cells_are_the_lanes_sums)
{
	size_t shapes[][2] = {{11, 7}, {4, 3}, {1, 1}, {8, 2}, {3, 13}};
	size_t kl = 40, ks = 48;
	unsigned seed = 12345;
	for (size_t q = 0; q < sizeof shapes / sizeof shapes[0]; q++) {
		size_t nr = shapes[q][0], nc = shapes[q][1];
		double *x = malloc(nr * ks * sizeof *x);
		double *y = malloc(nc * ks * sizeof *y);
		double *acc = malloc(nr * nc * sizeof *acc);
		cr_assert(x != NULL && y != NULL && acc != NULL);
		for (size_t k = 0; k < nr * ks; k++) {
			seed = seed * 1103515245u + 12345u;
			x[k] = (double)(seed >> 8) / (1 << 24) - 0.5;
		}
		for (size_t k = 0; k < nc * ks; k++) {
			seed = seed * 1103515245u + 12345u;
			y[k] = ((double)(seed >> 8) / (1 << 24) - 0.5) * 1e3;
		}
		for (size_t c = 0; c < nr * nc; c++)
			acc[c] = (double)c * 0.25;
		pe_field_gemm(x, nr, y, nc, kl, ks, acc);
		size_t bad = 0;
		double worst = 0.0;
		for (size_t a = 0; a < nr; a++)
			for (size_t b = 0; b < nc; b++) {
				const double *xr = x + a * ks, *yr = y + b * ks;
				double want = (double)(a * nc + b) * 0.25 +
				    dots_lanes(xr, yr, kl);
				bad += acc[a * nc + b] != want;
				bad += pe_field_dot8(xr, yr, kl) !=
				    dots_lanes(xr, yr, kl);
				long double s = 0, mag = 0;
				for (size_t k = 0; k < kl; k++) {
					s += (long double)xr[k] * yr[k];
					mag += fabsl((long double)xr[k] * yr[k]);
				}
				worst = fmax(worst, (double)(fabsl(
				    dots_lanes(xr, yr, kl) - s) / mag));
			}
		cr_expect_eq(bad, 0, "%zu x %zu: %zu cells off", nr, nc, bad);
		cr_expect_leq(worst, 1e-14, "%zu x %zu: %g", nr, nc, worst);
		free(x);
		free(y);
		free(acc);
	}
}

/* A chunk of a dot-product grid: a multiple of 4 pairs, all the pairs when
 * they fit (rounded up to 4), within the bytes and the cap, at least 4,
 * and the chunks even: the last one not mostly padding (rope's score map
 * at d 8192 on a 34 x 72 grid took 2472 pairs, then 1624 and 848 of
 * zeros multiplied). */
Test(field, dots_chunk_is_whole_vectors_within_its_bytes)
{
	cr_expect_eq(pe_field_dots_chunk(10, 5), 8);
	cr_expect_eq(pe_field_dots_chunk(10, 64), 64);
	cr_expect_eq(pe_field_dots_chunk(1, (size_t)1 << 20),
	    FIELD_DOTS_MAX_PAIRS);
	size_t k = pe_field_dots_chunk(2000, (size_t)1 << 19);
	cr_expect(k % 4 == 0 && k >= 4 &&
	    2000 * 2 * k * sizeof(double) <= FIELD_DOTS_BYTES, "%zu", k);
	cr_expect_eq(pe_field_dots_chunk((size_t)1 << 20, 1000), 4);
	cr_expect_eq(pe_field_dots_chunk(34 + 72, 4096), 2048);
	size_t blocks[] = {1, 7, 106, 122, 999, 2000, 40000};
	size_t pairs[] = {1, 5, 64, 4095, 4096, 4097, 100003, (size_t)1 << 19};
	for (size_t b = 0; b < sizeof blocks / sizeof *blocks; b++)
		for (size_t q = 0; q < sizeof pairs / sizeof *pairs; q++) {
			size_t nb = blocks[b], np = pairs[q];
			size_t c = pe_field_dots_chunk(nb, np), n = (np + c - 1) / c;
			bool fits = c <= FIELD_DOTS_MAX_PAIRS &&
			    nb * 2 * c * sizeof(double) <= FIELD_DOTS_BYTES;
			cr_expect(c % 4 == 0 && (fits || c == 4),
			    "%zu blocks %zu pairs: %zu", nb, np, c);
			/* n chunks of c pad at most a vector's 4 pairs each */
			cr_expect(n * c < np + 4 * n, "%zu blocks, %zu pairs: "
			    "%zu chunks of %zu", nb, np, n, c);
		}
}

/* The interrupt check's calls: on another thread. */
static atomic_int check_calls;
static atomic_bool check_says;

static bool
count_check(void *arg)
{
	(void)arg;
	atomic_fetch_add(&check_calls, 1);
	return atomic_load(&check_says);
}

/* pe_field_interrupted on a thread of its own. */
static void *
interrupted_there(void *arg)
{
	*(bool *)arg = pe_field_interrupted();
	return NULL;
}

/* What another thread's grid sees. */
static bool
ask_elsewhere(void)
{
	pthread_t t;
	bool said = false;
	cr_assert_eq(pthread_create(&t, NULL, interrupted_there, &said), 0);
	pthread_join(t, NULL);
	return said;
}

/* Only the thread that set the check calls it (the TUI's looks at the
 * terminal); the others stop once it has said so, until it is set again. */
Test(field, interrupt_check_on_its_own_thread)
{
	pe_field_set_interrupt(count_check, NULL);
	cr_expect(!ask_elsewhere());
	cr_expect_eq(atomic_load(&check_calls), 0, "called elsewhere");
	cr_expect(!pe_field_interrupted());
	cr_expect_eq(atomic_load(&check_calls), 1);
	atomic_store(&check_says, true);
	cr_expect(!ask_elsewhere(), "not yet said by its thread");
	cr_expect(pe_field_interrupted());
	cr_expect(ask_elsewhere(), "said stop: the others stop");
	cr_expect_eq(atomic_load(&check_calls), 2);
	pe_field_set_interrupt(count_check, NULL);
	cr_expect(!ask_elsewhere(), "set again: nothing said yet");
	pe_field_set_interrupt(NULL, NULL);
	cr_expect(!pe_field_interrupted() && !ask_elsewhere());
}


/* A cell's circular statistics against the long double sums ss (sines)
 * and sc (cosines) of its cnt angles: the resultant within tol, the mean
 * in [0, 2 pi) and, where the resultant says it has a direction, within
 * 1e-9 / R of atan2's. */
static void
expect_circular(const struct pe_stats *s, long double ss, long double sc,
    long double cnt, double tol, const char *what, size_t bi, size_t bj)
{
	double r = (double)(hypotl(ss, sc) / cnt);
	double m = (double)atan2l(ss, sc);
	cr_expect(th_close(s->resultant, r, tol, 0), "%s cell %zu,%zu: R "
	    "%.17g vs %.17g", what, bi, bj, s->resultant, r);
	cr_expect(s->mean >= 0 && s->mean < TWO_PI, "%s: %.17g", what,
	    s->mean);
	if (r > 1e-6)
		cr_expect_lt(fabs(remainder(s->mean - m, TWO_PI)), 1e-9 / r,
		    "%s cell %zu,%zu: %.17g vs %.17g", what, bi, bj, s->mean,
		    m);
}

/* Every cell of an angle grid of f over [r0, r1) x [c0, c1) in nr x nc
 * against the long double sums of sin and cos of its elements (each
 * pe_field_value, the angle formed directly): the circular mean to 1e-9
 * over the resultant, the resultant to 1e-12. */
static void
angle_grid_is_long_double(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc, const char *what)
{
	struct pe_stats *g = calloc(nr * nc, sizeof *g);
	cr_assert_not_null(g);
	cr_assert_eq(pe_field_grid(f, r0, r1, nr, c0, c1, nc, g), PE_OK);
	for (size_t bi = 0; bi < nr; bi++)
		for (size_t bj = 0; bj < nc; bj++) {
			size_t p0, p1, q0, q1;
			pe_field_span(r0, r1, nr, bi, &p0, &p1);
			pe_field_span(c0, c1, nc, bj, &q0, &q1);
			long double ss = 0, sc = 0;
			for (size_t p = p0; p < p1; p++)
				for (size_t q = q0; q < q1; q++) {
					long double v = pe_field_value(f, p, q);
					ss += sinl(v);
					sc += cosl(v);
				}
			long double cnt = (long double)((p1 - p0) * (q1 - q0));
			const struct pe_stats *s = &g[bi * nc + bj];
			cr_expect_eq(s->count, (uint64_t)cnt, "%s: count", what);
			expect_circular(s, ss, sc, cnt, 1e-12, what, bi, bj);
		}
	free(g);
}

/* Angle grids (rope's, through the wave grid and its row-wise circular
 * means; xpos's, the same grid shifted; mrope's own) on awkward tilings,
 * with each instruction set's atan2, against long double sums of the
 * elements. */
Test(field, angle_grids_match_long_double)
{
	static const char *const isa[] = {"generic", "avx2", "avx512"};
	struct pe_config c;
	struct pe_field f;
	for (int k = 0; k < 3; k++) {
		if (!pe_wave_force_isa(isa[k]))
			continue;
		pe_config_default(&c);
		c.enc = PE_ENC_ROPE;
		c.n = 3001;
		c.d = 64;
		cr_assert_eq(pe_field_init(&f, PE_FIELD_ROPE_ANGLE, &c), PE_OK);
		angle_grid_is_long_double(&f, 13, 2990, 7, 1, 31, 5, "rope");
		angle_grid_is_long_double(&f, 0, 3001, 3, 0, 32, 32, "rope cols");
		angle_grid_is_long_double(&f, 5, 9, 11, 0, 32, 13, "rope wide");
		pe_field_free(&f);
		pe_config_default(&c);
		c.enc = PE_ENC_XPOS;
		c.n = 900;
		c.d = 32;
		pe_config_encoding_defaults(&c, true, false);
		cr_assert_eq(pe_field_init(&f, PE_FIELD_ROPE_ANGLE, &c), PE_OK);
		angle_grid_is_long_double(&f, 3, 899, 9, 0, 16, 6, "xpos");
		pe_field_free(&f);
		pe_config_default(&c);
		c.enc = PE_ENC_MROPE;
		c.d = 32;
		c.grid_h = 3;
		c.grid_w = 4;
		pe_config_encoding_defaults(&c, true, false);
		cr_assert_eq(pe_config_check(&c, NULL, 0), PE_OK);
		cr_assert_eq(pe_field_init(&f, PE_FIELD_ROPE_ANGLE, &c), PE_OK);
		angle_grid_is_long_double(&f, 0, f.rows, 5, 1, 16, 4, "mrope");
		pe_field_free(&f);
	}
}

/* Row blocks of a picture-sized wave grid the test below checks: the
 * first group of four lanes, the groups around the re-anchoring sincos
 * (block 65: inside a group, whose four steps then go one at a time),
 * and the last, partial group. */
static const size_t wave_rows_checked[] = {0, 1, 2, 3, 4, 63, 64, 65, 66, 67,
    68, 129, 130, 131, 199, 200, 201, 202};

/* Cells of the nr x nc wave grid g of f over [r0, r1) x [c0, c1) against
 * long double sums of its elements (pe_field_value, each as the kernel
 * defines it): a sin/cos mean and an angle's resultant to 1e-9, its
 * circular mean to 1e-9 over the resultant. Float's precision is 6e-8;
 * near position 2^20 an element's own angle fl(p w) is rounded by up to
 * 2^-53 2^20 = 1.2e-10 rad, and the closed form's phase as much, so the
 * two agree to a few 1e-12 here, not to small n's 1e-14. */
static void
wave_grid_is_long_double(const struct pe_field *f, const struct pe_stats *g,
    size_t r0, size_t r1, size_t nr, size_t c0, size_t c1, size_t nc,
    const char *what)
{
	bool angle = f->kind == PE_FIELD_ROPE_ANGLE;
	size_t nrow = sizeof wave_rows_checked / sizeof *wave_rows_checked;

	for (size_t t = 0; t < nrow; t++)
		for (size_t bj = 0; bj < nc; bj++) {
			size_t bi = wave_rows_checked[t], p0, p1, q0, q1;
			cr_assert_lt(bi, nr);
			pe_field_span(r0, r1, nr, bi, &p0, &p1);
			pe_field_span(c0, c1, nc, bj, &q0, &q1);
			long double ss = 0, sc = 0;
			for (size_t p = p0; p < p1; p++)
				for (size_t q = q0; q < q1; q++) {
					long double v = pe_field_value(f, p, q);
					if (!angle) {
						ss += v;
						continue;
					}
					ss += sinl(v);
					sc += cosl(v);
				}
			long double cnt = (long double)((p1 - p0) * (q1 - q0));
			const struct pe_stats *s = &g[bi * nc + bj];
			cr_expect_eq(s->count, (uint64_t)cnt, "%s: count", what);
			cr_expect(s->masked == 0 && s->undefined == 0 &&
			    isnan(s->min) && isnan(s->max) && !s->minmax_exact,
			    "%s cell %zu,%zu: the rest of its statistics", what,
			    bi, bj);
			if (!angle) {
				double m = (double)(ss / cnt);
				cr_expect(th_close(s->mean, m, 1e-9, 0) &&
				    s->resultant == 1.0,
				    "%s cell %zu,%zu: %.17g vs %.17g", what, bi,
				    bj, s->mean, m);
				continue;
			}
			expect_circular(s, ss, sc, cnt, 1e-9, what, bi, bj);
		}
}

/* Wave grids the way a picture takes them, near position 2^20 (xpos:
 * the end of its longest length, 2^18) with
 * 515 frequencies (chunks of 256 and a partial one): 203 row blocks of
 * 40 or 41 positions (groups of four lanes, a re-anchoring inside a
 * group, a partial last group) by 71 column blocks of 7 or 8 columns, or
 * 14 or 15 (padded terms of two widths), for every kind and layout of a
 * wave (rope's angles, cos and sin in both pairings, the sinusoid
 * interleaved and split, xpos's angles) against long double sums of the
 * elements, with each instruction set's sincos (the tilings' anchors)
 * and atan2. */
Test(field, wave_grids_at_picture_size_match_long_double)
{
	static const char *const isa[] = {"generic", "avx2", "avx512"};
	const size_t nr = 203, nc = 71;
	struct pe_stats *g = calloc(nr * nc, sizeof *g);
	struct pe_config c;
	struct pe_field f;
	char what[64];

	cr_assert_not_null(g);
	for (int k = 0; k < 3; k++) {
		if (!pe_wave_force_isa(isa[k]))
			continue;
		for (int e = 0; e < 5; e++) {
			pe_config_default(&c);
			c.n = (size_t)1 << 20;
			c.d = 1030;
			c.enc = e < 2 ? PE_ENC_ROPE : e < 4 ? PE_ENC_SINUSOIDAL
			    : PE_ENC_XPOS;
			c.pairing = e == 1 ? PE_PAIR_INTERLEAVED : PE_PAIR_HALF;
			c.layout = e == 3 ? PE_LAYOUT_SPLIT : c.layout;
			/* xpos: the longest its scale's range holds */
			while (pe_config_check(&c, NULL, 0) != PE_OK && c.n > 1)
				c.n /= 2;
			cr_assert_eq(pe_config_check(&c, NULL, 0), PE_OK,
			    "config %d", e);
			size_t r1 = c.n - 17, r0 = r1 - 8161;
			for (int kind = 0; kind < PE_FIELD_KIND_COUNT; kind++) {
				bool want = e < 2 ? kind == PE_FIELD_ROPE_ANGLE ||
				    kind == PE_FIELD_ROPE_COS ||
				    kind == PE_FIELD_ROPE_SIN : e < 4 ? kind ==
				    PE_FIELD_PE : kind == PE_FIELD_ROPE_ANGLE;
				if (!want)
					continue;
				cr_assert_eq(pe_field_init(&f,
				    (enum pe_field_kind)kind, &c), PE_OK);
				size_t c0 = 3, c1 = f.cols - 2;
				cr_assert_eq(pe_field_grid(&f, r0, r1, nr, c0, c1,
				    nc, g), PE_OK);
				snprintf(what, sizeof what, "%s config %d kind %d",
				    isa[k], e, kind);
				wave_grid_is_long_double(&f, g, r0, r1, nr, c0,
				    c1, nc, what);
				pe_field_free(&f);
			}
		}
	}
	free(g);
}

/* mrope's angle grid the size of a picture: 16,400 tokens (an image of
 * 128 x 128 between text) in 203 row blocks by pairs [3, 1030) of 1032,
 * past the first chunk of 1024 pairs, in 71 column blocks (14 or 15
 * pairs: each summed as it comes) and in 300 (3 or 4: a fixed number of
 * terms, zeros past the block's; blocks across the chunks' boundary),
 * with each instruction set, against long double sums of the
 * elements. */
Test(field, mrope_angle_grids_at_picture_size_match_long_double)
{
	static const char *const isa[] = {"generic", "avx2", "avx512"};
	static const size_t ncs[] = {71, 300};
	struct pe_config c;
	struct pe_field f;
	char what[64];

	for (int k = 0; k < 3; k++) {
		if (!pe_wave_force_isa(isa[k]))
			continue;
		pe_config_default(&c);
		c.enc = PE_ENC_MROPE;
		pe_config_encoding_defaults(&c, true, false);
		c.d = 2064;
		c.grid_h = c.grid_w = 128;
		cr_assert_eq(pe_config_check(&c, NULL, 0), PE_OK);
		cr_assert_eq(pe_field_init(&f, PE_FIELD_ROPE_ANGLE, &c), PE_OK);
		cr_assert_eq(f.rows, 16400);
		for (size_t t = 0; t < 2; t++) {
			size_t nr = 203, nc = ncs[t];
			struct pe_stats *g = calloc(nr * nc, sizeof *g);
			cr_assert_not_null(g);
			cr_assert_eq(pe_field_grid(&f, 0, f.rows, nr, 3, 1030,
			    nc, g), PE_OK);
			snprintf(what, sizeof what, "mrope %s, %zu columns",
			    isa[k], nc);
			wave_grid_is_long_double(&f, g, 0, f.rows, nr, 3, 1030,
			    nc, what);
			free(g);
		}
		pe_field_free(&f);
	}
}
