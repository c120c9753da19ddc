/* xpos: torchscale's XPOS against tests/ref/xpos_ref.py (a numpy
 * transcription of xpos_relative_position.py, used as multihead_attention.py
 * does), and its fields against brute force. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "pescope/field.h"
#include "pescope/xpos.h"
#include "kernel/testing.h"

/* /usr/bin/python3 tests/ref/xpos_ref.py */
static const double ref_scale_7x8[28] = {
	1.009835262072988, 1.0060121819320029, 1.0034577827629187, 1.001537980654803,
	1.0073674148534213, 1.0045057561908162, 1.0025922177844546, 1.0011532638782892,
	1.004905598587742, 1.003001586206125, 1.001727399427069, 1.0007686948814911,
	1.0024497985374339, 1.0014996686001074, 1.0008633270467397, 1.0003842736076427,
	1, 1, 1, 1,
	0.99755618830887283, 0.99850257703808964, 0.99913741764393837, 0.99961587400184038,
	0.99511834883332717, 0.99700739635170621, 0.9982755793361977, 0.99923189555646308,
};
static const double ref_cos_7x8_row6[8] = {
	0.95548307025033474, 0.95548307025033474, 0.82286571253743279, 0.82286571253743279,
	0.99647922229752128, 0.99647922229752128, 0.99921390943630162, 0.99921390943630162,
};
static const double ref_score_7x8[49] = {
	4, 3.5393193371614577, 2.5671138002516187, 1.9656446642160259,
	2.2707112950202974, 3.1763158434006584, 3.8128324121669217, 3.5311989673533648,
	3.9999999999999996, 3.5393193371614564, 2.5671138002516187, 1.9656446642160252,
	2.270711295020297, 3.1763158434006589, 2.5603241021365686, 3.5311989673533661,
	4.0000000000000009, 3.5393193371614577, 2.5671138002516187, 1.9656446642160259,
	2.2707112950202974, 1.9641083815028841, 2.5603241021365686, 3.5311989673533657,
	4, 3.5393193371614577, 2.5671138002516187, 1.9656446642160259,
	2.2624924131839439, 1.9641083815028839, 2.560324102136569, 3.5311989673533657,
	4, 3.5393193371614573, 2.5671138002516187, 3.1437631814688745,
	2.2624924131839435, 1.9641083815028841, 2.5603241021365686, 3.5311989673533652,
	4, 3.5393193371614577, 3.7548502142074467, 3.1437631814688749,
	2.2624924131839443, 1.9641083815028844, 2.5603241021365695, 3.5311989673533657,
	4.0000000000000009,
};
static const double ref_scale_6x4_g8_off3[12] = {
	1.3677823998673804, 1.116789652944836, 1.1695222955837055, 1.0567826895558214,
	1, 1, 0.85504996679084466, 0.94626833868778826,
	0.73111044570902473, 0.89542376880294683, 0.62513596232394131, 0.84731116212672275,
};
static const double ref_score_6x4_g8_off3[36] = {
	0.099349498529581193, 0.58365317011943574, 1.6886254439297452, 2.4845720528122168,
	2.0444406341525263, 0.46843025093893459, 0.41682184631022329, 0.099349498529580638,
	0.58365317011943552, 1.6886254439297448, 2.4845720528122173, 2.0444406341525263,
	1.0235796770940921, 0.41682184631022312, 0.099349498529580998, 0.58365317011943563,
	1.6886254439297452, 2.4845720528122168, 1.3135735544573766, 1.0235796770940921,
	0.41682184631022345, 0.099349498529581068, 0.58365317011943563, 1.688625443929745,
	1.1014105655277071, 1.3135735544573766, 1.0235796770940924, 0.41682184631022334,
	0.099349498529580638, 0.58365317011943563, 0.65877935307389879, 1.1014105655277069,
	1.3135735544573768, 1.0235796770940921, 0.41682184631022323, 0.099349498529580832,
};

/* An xpos config. */
static void
xpos_config(struct pe_config *c, size_t n, size_t d, double gamma,
    size_t offset)
{
	pe_config_default(c);
	c->enc = PE_ENC_XPOS;
	c->n = n;
	c->d = d;
	c->xpos.xpos_scale_base = gamma;
	c->xpos.xpos_offset = offset;
}

Test(xpos, min_pos_floors_as_python)
{
	cr_expect_eq(pe_xpos_min_pos(7, 0), -4);
	cr_expect_eq(pe_xpos_min_pos(6, 0), -3);
	cr_expect_eq(pe_xpos_min_pos(6, 3), -5);
	cr_expect_eq(pe_xpos_min_pos(1, 0), -1);
	cr_expect_eq(pe_xpos_min_pos(0, 0), 0);
	cr_expect(th_close(pe_xpos_zeta(0, 8), 3.2 / 11.2, 0, 1e-15));
	cr_expect(th_close(pe_xpos_zeta(3, 8), 9.2 / 11.2, 0, 1e-15));
}

Test(xpos, tables_and_scores_are_torchscale)
{
	struct pe_config c;
	double scale[7 * 4], cs[7 * 8], sn[7 * 8], inv[4];

	xpos_config(&c, 7, 8, 512, 0);
	cr_assert_eq(pe_config_check(&c, NULL, 0), PE_OK);
	cr_assert_eq(pe_xpos_fill_scale(&c, scale), PE_OK);
	for (size_t k = 0; k < 28; k++)
		cr_expect(th_close(scale[k], ref_scale_7x8[k], 1e-15, 1e-14),
		    "scale %zu: %.17g vs %.17g", k, scale[k], ref_scale_7x8[k]);
	cr_assert_eq(pe_xpos_fill_cos_sin(&c, cs, sn), PE_OK);
	for (size_t k = 0; k < 8; k++)
		cr_expect(th_close(cs[6 * 8 + k], ref_cos_7x8_row6[k], 1e-15, 1e-14),
		    "cos[6, %zu]", k);
	pe_xpos_inv_freq(&c, inv);
	for (size_t r = 0; r < 7; r++)
		for (size_t k = 0; k < 7; k++)
			cr_expect(th_close(pe_xpos_score(&c, inv, r, k),
			    ref_score_7x8[r * 7 + k], 1e-13, 1e-13), "score %zu,%zu", r,
			    k);
	/* an offset and a small scale base */
	double s2[6 * 2];
	xpos_config(&c, 6, 4, 8, 3);
	cr_assert_eq(pe_config_check(&c, NULL, 0), PE_OK);
	cr_assert_eq(pe_xpos_fill_scale(&c, s2), PE_OK);
	for (size_t k = 0; k < 12; k++)
		cr_expect(th_close(s2[k], ref_scale_6x4_g8_off3[k], 1e-15, 1e-14),
		    "scale (offset 3) %zu", k);
	pe_xpos_inv_freq(&c, inv);
	for (size_t r = 0; r < 6; r++)
		for (size_t k = 0; k < 6; k++)
			cr_expect(th_close(pe_xpos_score(&c, inv, r, k),
			    ref_score_6x4_g8_off3[r * 6 + k], 1e-13, 1e-13),
			    "score (offset 3) %zu,%zu", r, k);
}

/* The envelope is the score with every cosine 1, and its block means are
 * the means of its values. */
Test(xpos, envelope)
{
	struct pe_config c;
	xpos_config(&c, 64, 16, 64, 0);
	double sum = 0;
	for (size_t j = 0; j < 8; j++)
		sum += pow(pe_xpos_zeta(j, 16), 10.0 / 64);
	cr_expect(th_close(pe_xpos_envelope(&c, 10), sum, 1e-14, 1e-14));
	cr_expect(th_close(pe_xpos_envelope(&c, 0), 8, 0, 1e-15));
	long double m = 0;
	for (int k = 3; k < 40; k++)
		m += pe_xpos_envelope(&c, k);
	cr_expect(th_close(pe_xpos_envelope_mean(&c, 3, 40), (double)(m / 37),
	    1e-13, 1e-13));
	cr_expect(th_close(pe_xpos_envelope_mean(&c, -5, -4),
	    pe_xpos_envelope(&c, -5), 1e-14, 1e-14));
	/* the fill over tilings: fewer, equal and more blocks than items */
	size_t tilings[][2] = {{64, 7}, {64, 64}, {40, 128}, {1000, 33}};
	for (size_t t = 0; t < 4; t++) {
		size_t n = tilings[t][0], ns = tilings[t][1];
		double *ys = malloc(ns * sizeof *ys);
		cr_assert_eq(pe_xpos_envelope_fill(&c, n, ns, ys), PE_OK);
		for (size_t b = 0; b < ns; b++) {
			size_t k0, k1;
			pe_field_span(0, n, ns, b, &k0, &k1);
			double want = pe_xpos_envelope_mean(&c, (int64_t)k0, (int64_t)k1);
			cr_expect(th_close(ys[b], want, 1e-13, 1e-13), "n %zu ns %zu "
			    "block %zu: %.17g vs %.17g", n, ns, b, ys[b], want);
		}
		free(ys);
	}
}

Test(xpos, refuses_what_double_cannot_hold)
{
	struct pe_config c;
	char why[256];
	xpos_config(&c, 64, 15, 512, 0);
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "d_model 15") == why, "%s", why);
	xpos_config(&c, 64, 16, 0, 0);
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "xpos_scale_base 0") == why, "%s", why);
	/* 2/7^(-n/512) passes 1e304 near n = 286,000 */
	xpos_config(&c, 250000, 64, 512, 0);
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_OK, "%s", why);
	xpos_config(&c, 300000, 64, 512, 0);
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "seq_len 300000") == why, "%s", why);
	c.xpos.xpos_scale_base = 4096; /* a larger base holds it */
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_OK, "%s", why);
}

/* Blocks and grids against brute force; a far block against long
 * double. */
Test(xpos, fields_equal_brute_force)
{
	struct {
		size_t n, d;
		double gamma, base;
		size_t offset;
	} cases[] = {
		{40, 12, 512, 10000, 0},
		{37, 8, 16, 100, 0},   /* fast decay: a small scale base */
		{29, 16, 2, 50, 5},    /* an offset */
		{64, 6, 0.5, 10000, 0}, /* growth to 2/7^(-63/0.5) */
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct pe_config c;
		char what[96];
		xpos_config(&c, cases[k].n, cases[k].d, cases[k].gamma,
		    cases[k].offset);
		c.base = cases[k].base;
		snprintf(what, sizeof what, "xpos n %zu d %zu gamma %g offset %zu "
		    "angle", cases[k].n, cases[k].d, cases[k].gamma, cases[k].offset);
		th_field_check_kind(&c, PE_FIELD_ROPE_ANGLE, what);
		th_field_check_grids(&c, PE_FIELD_ROPE_ANGLE, what);
		snprintf(what, sizeof what, "xpos n %zu d %zu gamma %g offset %zu "
		    "score", cases[k].n, cases[k].d, cases[k].gamma, cases[k].offset);
		th_field_check_kind(&c, PE_FIELD_SIMILARITY, what);
		th_field_check_grids(&c, PE_FIELD_SIMILARITY, what);
	}
	/* a block far down a long sequence, the mean of its scores */
	struct pe_config c;
	xpos_config(&c, 200000, 64, 512, 0);
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_SIMILARITY, &c), PE_OK);
	size_t r0 = 150000, r1 = 150300, c0 = 149000, c1 = 149400;
	long double sum = 0;
	for (size_t r = r0; r < r1; r++)
		for (size_t q = c0; q < c1; q += 1)
			sum += pe_field_value(&f, r, q);
	struct pe_stats s;
	cr_assert_eq(pe_field_block(&f, r0, r1, c0, c1, false, &s), PE_OK);
	double want = (double)(sum / ((r1 - r0) * (c1 - c0)));
	cr_expect(th_close(s.mean, want, 1e-9, 1e-9), "%.15g vs %.15g", s.mean,
	    want);
	pe_field_free(&f);
}
