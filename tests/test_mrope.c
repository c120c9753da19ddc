/* mrope: Qwen2-VL's multimodal rope against tests/ref/mrope_ref.py (a numpy
 * transcription of HF's get_rope_index and apply_multimodal_rotary_pos_emb),
 * its runs against counting, and its fields against brute force. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "kernel/field_impl.h"
#include "kernel/wave_impl.h"
#include "pescope/field.h"
#include "pescope/mrope.h"

/* /usr/bin/python3 tests/ref/mrope_ref.py */
static const int64_t ref_pos_3_2x3_2[33] = {
	0, 0, 0, 1,
	1, 1, 2, 2,
	2, 3, 3, 3,
	3, 3, 4, 3,
	3, 5, 3, 4,
	3, 3, 4, 4,
	3, 4, 5, 6,
	6, 6, 7, 7,
	7,
};
static const int64_t ref_pos_video[45] = {
	0, 0, 0, 1,
	1, 1, 2, 2,
	2, 2, 2, 3,
	2, 3, 2, 2,
	3, 3, 3, 2,
	2, 3, 2, 3,
	3, 3, 2, 3,
	3, 3, 4, 2,
	2, 4, 2, 3,
	4, 3, 2, 4,
	3, 3, 5, 5,
	5,
};
static const int64_t ref_pos_image_only[18] = {
	0, 0, 0, 0,
	0, 1, 0, 1,
	0, 0, 1, 1,
	0, 2, 0, 0,
	2, 1,
};
static const double ref_score_d16[121] = {
	8, 7.3137223058947072, 5.730429675674241, 4.2730562661943257,
	4.2574622821456645, 4.2374791481629153, 3.8536301451987987, 3.8380361611501383,
	3.8180530271673891, 3.894371925591579, 3.4305158492493635, 7.3137223058947072,
	8, 7.313722305894709, 5.730429675674241, 5.7192634444646018,
	5.7036694604159424, 5.4054971283265001, 5.3943308971168609, 5.3787369130682015,
	3.7792105006186731, 3.894371925591579, 5.730429675674241, 7.313722305894709,
	8.0000000000000018, 7.3137223058947063, 7.3070114823988073, 7.2958452511891689,
	7.1081359225078353, 7.1014250990119363, 7.090258867802298, 3.6626715246343649,
	3.7792105006186736, 4.2730562661943257, 5.730429675674241, 7.3137223058947063,
	7.9999999999999991, 7.9977612097415571, 7.9910503862456563, 7.9296496800033021,
	7.9274108897448601, 7.9207000662489593, 4.2730562661943257, 3.6626715246343653,
	4.2574622821456645, 5.7192634444646018, 7.3070114823988073, 7.9977612097415571,
	8, 7.9977612097415571, 7.9274108897448601, 7.9296496800033047,
	7.9274108897448601, 4.284222497403964, 3.6782655086830252, 4.2374791481629153,
	5.7036694604159424, 7.2958452511891689, 7.9910503862456563, 7.9977612097415571,
	7.9999999999999991, 7.9207000662489593, 7.9274108897448601, 7.9296496800033038,
	4.2909333208998621, 3.6894317398926644, 3.8536301451987987, 5.4054971283265001,
	7.1081359225078353, 7.9296496800033021, 7.9274108897448601, 7.9207000662489593,
	8, 7.9977612097415562, 7.9910503862456572, 4.5979888135420666,
	4.0820976456298901, 3.8380361611501383, 5.3943308971168609, 7.1014250990119363,
	7.9274108897448601, 7.9296496800033047, 7.9274108897448601, 7.9977612097415562,
	8, 7.9977612097415562, 4.6091550447517049, 4.0976916296785522,
	3.8180530271673891, 5.3787369130682015, 7.090258867802298, 7.9207000662489593,
	7.9274108897448601, 7.9296496800033038, 7.9910503862456572, 7.9977612097415562,
	8, 4.6158658682476039, 4.1088578608881914, 3.894371925591579,
	3.7792105006186731, 3.6626715246343649, 4.2730562661943257, 4.284222497403964,
	4.2909333208998621, 4.5979888135420666, 4.6091550447517049, 4.6158658682476039,
	7.9999999999999991, 7.313722305894709, 3.4305158492493635, 3.894371925591579,
	3.7792105006186736, 3.6626715246343653, 3.6782655086830252, 3.6894317398926644,
	4.0820976456298901, 4.0976916296785522, 4.1088578608881914, 7.313722305894709,
	8,
};
static const double ref_cos_d16_row5[16] = {
	-0.98999249660044542, -0.11596614150993841, 0.58275361070222487, 0.86104064944085956,
	0.95533648912560609, 0.96073126062435077, 0.98752601997496314, 0.99604975640529481,
	-0.98999249660044542, -0.11596614150993841, 0.58275361070222487, 0.86104064944085956,
	0.95533648912560609, 0.96073126062435077, 0.98752601997496314, 0.99604975640529481,
};
static const double ref_sin_d16_row9[16] = {
	-0.27941549819892592, -0.23036747467029581, 0.94714815750265224, 0.87574056688964919,
	0.56464247339503537, 0.33103933034123112, 0.1886002870528245, 0.10649443692654352,
	-0.27941549819892592, -0.23036747467029581, 0.94714815750265224, 0.87574056688964919,
	0.56464247339503537, 0.33103933034123112, 0.1886002870528245, 0.10649443692654352,
};

/* A config: text_before n, frames f of h x w, text_after m. */
static void
mrope_config(struct pe_config *c, size_t n, size_t h, size_t w, size_t f,
    size_t m)
{
	pe_config_default(c);
	c->enc = PE_ENC_MROPE;
	c->mrope.text_before = n;
	c->grid_h = h;
	c->grid_w = w;
	c->mrope.frames = f;
	c->mrope.text_after = m;
}

/* Every token's triple against the reference's [L, 3]. */
static void
expect_positions(const struct pe_config *c, const int64_t *want, size_t L,
    const char *what)
{
	cr_assert_eq(pe_mrope_length(c), L, "%s", what);
	int64_t *got = malloc(3 * L * sizeof *got);
	cr_assert_eq(pe_mrope_fill_positions(c, got), PE_OK, "%s", what);
	for (size_t k = 0; k < 3 * L; k++)
		cr_expect_eq(got[k], want[k], "%s: token %zu axis %zu: %lld vs %lld",
		    what, k / 3, k % 3, (long long)got[k], (long long)want[k]);
	free(got);
}

Test(mrope, positions_are_get_rope_index)
{
	struct pe_config c;
	mrope_config(&c, 3, 2, 3, 1, 2);
	expect_positions(&c, ref_pos_3_2x3_2, 11, "text, image 2x3, text");
	mrope_config(&c, 2, 2, 2, 3, 1);
	expect_positions(&c, ref_pos_video, 15, "video of 3 frames");
	mrope_config(&c, 0, 3, 2, 1, 0);
	expect_positions(&c, ref_pos_image_only, 6, "no text");
}

/* The runs of every axis over every token range hold exactly the
 * positions of its tokens (a histogram). */
static void
expect_runs(const struct pe_config *c, const char *what)
{
	size_t L = pe_mrope_length(c);
	int64_t *pos = malloc(3 * L * sizeof *pos);
	cr_assert_eq(pe_mrope_fill_positions(c, pos), PE_OK);
	size_t top = 0;
	for (size_t k = 0; k < 3 * L; k++)
		top = (size_t)pos[k] + 1 > top ? (size_t)pos[k] + 1 : top;
	uint64_t *hist = calloc(top, sizeof *hist);
	for (size_t i0 = 0; i0 < L; i0++)
		for (size_t i1 = i0 + 1; i1 <= L; i1++)
			for (int a = 0; a < 3; a++) {
				struct pe_mrope_run run[PE_MROPE_MAX_RUNS];
				size_t n = pe_mrope_runs(c, (enum pe_mrope_axis)a, i0,
				    i1, run);
				cr_assert_leq(n, PE_MROPE_MAX_RUNS);
				memset(hist, 0, top * sizeof *hist);
				for (size_t i = i0; i < i1; i++)
					hist[pos[3 * i + a]]++;
				for (size_t k = 0; k < n; k++)
					for (uint64_t p = run[k].p0;
					     p < run[k].p0 + run[k].len; p++) {
						cr_assert_lt(p, top);
						cr_assert_geq(hist[p], run[k].mult,
						    "%s [%zu,%zu) axis %d", what, i0, i1, a);
						hist[p] -= run[k].mult;
					}
				for (size_t p = 0; p < top; p++)
					cr_assert_eq(hist[p], 0, "%s [%zu,%zu) axis %d: "
					    "position %zu left %llu", what, i0, i1, a, p,
					    (unsigned long long)hist[p]);
			}
	free(hist);
	free(pos);
}

Test(mrope, runs_hold_every_token_once)
{
	struct pe_config c;
	mrope_config(&c, 3, 2, 3, 1, 2);
	expect_runs(&c, "image");
	mrope_config(&c, 2, 3, 2, 4, 3);
	expect_runs(&c, "video 4 x 3x2");
	mrope_config(&c, 0, 5, 3, 1, 0);
	expect_runs(&c, "no text, odd grid");
	mrope_config(&c, 4, 1, 7, 2, 0);
	expect_runs(&c, "one-row frames, image at the end");
	mrope_config(&c, 0, 3, 3, 3, 5);
	expect_runs(&c, "video at the start");
}

Test(mrope, scores_and_cos_sin_are_hf)
{
	struct pe_config c;
	mrope_config(&c, 3, 2, 3, 1, 2);
	c.d = 16;
	c.base = 100.0;
	c.mrope.mrope_section[0] = 2;
	c.mrope.mrope_section[1] = 3;
	c.mrope.mrope_section[2] = 3;
	cr_assert_eq(pe_config_check(&c, NULL, 0), PE_OK);
	double inv[8];
	size_t sec[3];
	pe_mrope_inv_freq(&c, inv);
	pe_mrope_sections(&c, sec);
	for (size_t a = 0; a < 11; a++)
		for (size_t b = 0; b < 11; b++)
			cr_expect(th_close(pe_mrope_score(&c, inv, sec, a, b),
			    ref_score_d16[a * 11 + b], 1e-12, 1e-12), "score %zu,%zu",
			    a, b);
	double cs[11 * 16], sn[11 * 16];
	cr_assert_eq(pe_mrope_fill_cos_sin(&c, cs, sn), PE_OK);
	for (size_t k = 0; k < 16; k++) {
		cr_expect(th_close(cs[5 * 16 + k], ref_cos_d16_row5[k], 1e-14, 0),
		    "cos[5, %zu]", k);
		cr_expect(th_close(sn[9 * 16 + k], ref_sin_d16_row9[k], 1e-14, 0),
		    "sin[9, %zu]", k);
	}
	/* the field's values are the scores */
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_SIMILARITY, &c), PE_OK);
	cr_expect_eq(f.rows, 11);
	for (size_t a = 0; a < 11; a++)
		for (size_t b = 0; b < 11; b++)
			cr_expect(th_close(pe_field_value(&f, a, b),
			    ref_score_d16[a * 11 + b], 1e-12, 1e-12));
	pe_field_free(&f);
}

Test(mrope, sections_default_to_qwen2vl_and_must_cover_the_pairs)
{
	struct pe_config c;
	char why[256];
	size_t sec[3];
	mrope_config(&c, 8, 14, 14, 1, 8);
	pe_config_encoding_defaults(&c, false, false);
	cr_expect_eq(c.d, 128);
	cr_expect_eq(c.base, 1000000.0);
	pe_mrope_sections(&c, sec);
	cr_expect(sec[0] == 16 && sec[1] == 24 && sec[2] == 24);
	c.d = 64; /* Qwen2-VL's split scaled: 8, 12, 12 */
	pe_mrope_sections(&c, sec);
	cr_expect(sec[0] == 8 && sec[1] == 12 && sec[2] == 12);
	cr_expect_eq(pe_mrope_axis_of(sec, 7), PE_MROPE_T);
	cr_expect_eq(pe_mrope_axis_of(sec, 8), PE_MROPE_H);
	cr_expect_eq(pe_mrope_axis_of(sec, 19), PE_MROPE_H);
	cr_expect_eq(pe_mrope_axis_of(sec, 20), PE_MROPE_W);
	c.d = 40;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "d_model 40") == why, "%s", why);
	c.mrope.mrope_section[0] = 4;
	c.mrope.mrope_section[1] = 8;
	c.mrope.mrope_section[2] = 8;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_OK, "%s", why);
	c.mrope.mrope_section[2] = 7; /* 19 of 20 pairs */
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "mrope_section 4,8,7") == why, "%s", why);
	cr_expect(strstr(why, "19 pairs") != NULL, "%s", why);
	c.mrope.mrope_section[2] = 9;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	c.mrope.mrope_section[2] = 8;
	c.mrope.frames = 0;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "frames 0") == why, "%s", why);
	c.mrope.frames = PE_MAX_N;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "tokens is more than") != NULL, "%s", why);
	/* the given sections stay as they are at another d */
	c.mrope.frames = 1;
	c.d = 128;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	/* the defaults keep what was given */
	mrope_config(&c, 8, 14, 14, 1, 8);
	c.d = 32;
	c.base = 500.0;
	pe_config_encoding_defaults(&c, true, true);
	cr_expect(c.d == 32 && c.base == 500.0);
}

/* The fields' blocks and grids against brute force: an image with text
 * on both sides, a video, no text, odd grids, several sections, Qwen3-VL's
 * interleaved pairs, Qwen2.5-VL's frames at their times. */
static void
fields_equal_brute_force(void)
{
	struct {
		size_t n, h, w, f, m, d;
		size_t sec[3];
		bool interleaved;
		double tps;
		const char *what;
	} cases[] = {
		{3, 2, 3, 1, 2, 16, {0, 0, 0}, false, 0, "image between text"},
		{2, 3, 2, 4, 3, 16, {2, 3, 3}, false, 0, "video 4 x 3x2"},
		{0, 5, 3, 1, 0, 32, {0, 0, 0}, false, 0, "no text, odd grid"},
		{5, 3, 5, 2, 0, 12, {1, 0, 5}, false, 0, "video at the end, h empty"},
		{0, 1, 1, 7, 6, 16, {8, 0, 0}, false, 0, "1x1 frames, t only"},
		{4, 3, 5, 2, 3, 36, {8, 5, 5}, true, 0, "interleaved, odd grid"},
		{1, 2, 3, 5, 2, 16, {2, 3, 3}, false, 1.5, "frames at their times"},
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct pe_config c;
		mrope_config(&c, cases[k].n, cases[k].h, cases[k].w, cases[k].f,
		    cases[k].m);
		c.d = cases[k].d;
		c.base = 50.0;
		memcpy(c.mrope.mrope_section, cases[k].sec, sizeof cases[k].sec);
		if (cases[k].interleaved)
			c.mrope.layout = PE_MROPE_INTERLEAVED;
		c.mrope.tokens_per_second = cases[k].tps;
		char what[128];
		snprintf(what, sizeof what, "%s angle", cases[k].what);
		th_field_check_kind(&c, PE_FIELD_ROPE_ANGLE, what);
		th_field_check_grids(&c, PE_FIELD_ROPE_ANGLE, what);
		snprintf(what, sizeof what, "%s score", cases[k].what);
		th_field_check_kind(&c, PE_FIELD_SIMILARITY, what);
		th_field_check_grids(&c, PE_FIELD_SIMILARITY, what);
		/* column blocks across both section boundaries, ragged rows */
		size_t sec[3], L = pe_mrope_length(&c);
		pe_mrope_sections(&c, sec);
		struct pe_field af;
		cr_assert_eq(pe_field_init(&af, PE_FIELD_ROPE_ANGLE, &c), PE_OK);
		size_t cut[2] = {sec[0], sec[0] + sec[1]};
		for (int b = 0; b < 2; b++) {
			size_t q0 = cut[b] > 0 ? cut[b] - 1 : 0;
			size_t q1 = cut[b] + 2 < c.d / 2 ? cut[b] + 2 : c.d / 2;
			snprintf(what, sizeof what, "%s angle, section boundary %d",
			    cases[k].what, b);
			th_field_check_grid(&af, 1, L, 3, q0, q1, q1 - q0, what);
			th_field_check_grid(&af, 0, L - 1, 2 * L - 1, q0, q1, 1, what);
		}
		pe_field_free(&af);
		snprintf(what, sizeof what, "%s patch", cases[k].what);
		struct pe_field f;
		cr_assert_eq(pe_field_init(&f, PE_FIELD_PATCH_COSINE, &c), PE_OK);
		cr_expect_eq(f.rows, cases[k].f * cases[k].h);
		cr_expect_eq(f.cols, cases[k].w);
		for (size_t a = 0; a < L; a += 1 + L / 5) {
			f.anchor = a;
			th_field_check(&f, what);
			/* a patch's cosine is its score / (d/2) */
			size_t g = f.rows - 1, col = f.cols / 2;
			struct pe_field sim;
			cr_assert_eq(pe_field_init(&sim, PE_FIELD_SIMILARITY, &c),
			    PE_OK);
			cr_expect(th_close(pe_field_value(&f, g, col),
			    pe_field_value(&sim, a, c.mrope.text_before +
				g * c.grid_w + col) / (double)(c.d / 2), 1e-14, 1e-14));
			pe_field_free(&sim);
		}
		th_field_check_grids(&c, PE_FIELD_PATCH_COSINE, what);
		pe_field_free(&f);
	}
}

/* The patch map from its axis tables (the anchor's frames, rows and
 * columns)... */
Test(mrope, fields_equal_brute_force)
{
	fields_equal_brute_force();
}

/* ... and from the closed forms, past their budget. */
Test(mrope, fields_without_axis_tables_equal_brute_force)
{
	uint64_t keep = pe_field_mrope_table_max;
	pe_field_mrope_table_max = 0;
	fields_equal_brute_force();
	pe_field_mrope_table_max = keep;
}

/* The same with libm's loops (the runs' sums, kernel/trig.h, are SLEEF's
 * where the CPU has AVX-512F). */
Test(mrope, fields_with_libm_equal_brute_force)
{
	char keep[16];
	snprintf(keep, sizeof keep, "%s", pe_wave_isa());
	cr_assert(pe_wave_force_isa("generic"));
	fields_equal_brute_force();
	uint64_t tables = pe_field_mrope_table_max;
	pe_field_mrope_table_max = 0;
	fields_equal_brute_force();
	pe_field_mrope_table_max = tables;
	cr_assert(pe_wave_force_isa(keep));
}

/* Angles at the largest positions (a long video) stay exact: a block's
 * circular mean against long double. */
Test(mrope, long_video_angle_blocks)
{
	struct pe_config c;
	mrope_config(&c, 1000, 64, 48, 60, 500);
	c.d = 128;
	c.base = 1000000.0;
	cr_assert_eq(pe_config_check(&c, NULL, 0), PE_OK);
	struct pe_field f;
	cr_assert_eq(pe_field_init(&f, PE_FIELD_ROPE_ANGLE, &c), PE_OK);
	size_t L = pe_mrope_length(&c), r0 = 12345, r1 = L - 7;
	for (size_t j = 0; j < 64; j += 9) {
		long double ss = 0, sc = 0;
		for (size_t i = r0; i < r1; i++) {
			int64_t p[3];
			size_t sec[3];
			pe_mrope_sections(&c, sec);
			pe_mrope_position(&c, i, p);
			long double t = (long double)p[pe_mrope_axis_of(sec, j)] *
			    (long double)f.omega[j];
			ss += sinl(t);
			sc += cosl(t);
		}
		struct pe_stats s;
		cr_assert_eq(pe_field_block(&f, r0, r1, j, j + 1, false, &s), PE_OK);
		cr_expect(th_close(s.resultant,
		    (double)(hypotl(ss, sc) / (long double)(r1 - r0)), 1e-9, 0),
		    "pair %zu: R %.12g", j, s.resultant);
	}
	pe_field_free(&f);
}
