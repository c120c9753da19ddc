/* rope2d: RoPE-ViT's axial and mixed 2-D rope against tests/ref/rope2d_ref.py
 * (a numpy transcription of naver-ai/rope-vit models/vit_rope.py), torch's
 * generator for the mixed initialisation, and the fields against brute
 * force. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "kernel/field_impl.h"
#include "kernel/testing.h"
#include "pescope/field.h"
#include "pescope/rope2d.h"

/* /usr/bin/python3 tests/ref/rope2d_ref.py */
static const double ref_axial_3x2_d8[24] = {
	0, 0, 0, 0,
	1, 0.10000000000000001, 0, 0,
	2, 0.20000000000000001, 0, 0,
	0, 0, 1, 0.10000000000000001,
	1, 0.10000000000000001, 1, 0.10000000000000001,
	2, 0.20000000000000001, 1, 0.10000000000000001,
};
static const double ref_axial_score_3x2_d8[36] = {
	4, 3.5353064711461655, 2.5639197412940993, 3.5353064711461655,
	3.0706129422923309, 2.0992262124402647, 3.5353064711461655, 4,
	3.5353064711461655, 3.0706129422923309, 3.5353064711461655, 3.0706129422923309,
	2.5639197412940993, 3.5353064711461655, 4, 2.0992262124402647,
	3.0706129422923309, 3.5353064711461655, 3.5353064711461655, 3.0706129422923309,
	2.0992262124402647, 4, 3.5353064711461655, 2.5639197412940997,
	3.0706129422923309, 3.5353064711461655, 3.0706129422923309, 3.5353064711461655,
	4, 3.5353064711461655, 2.0992262124402647, 3.0706129422923309,
	3.5353064711461655, 2.5639197412940997, 3.5353064711461655, 4,
};
static const double ref_mixed_init_d8_h3[24] = {
	-0.99972340486480404, -0.31614029895514378, -0.023518370809293757, -0.0074371618613785781,
	0.11424095426825573, 0.036126161755882256, 0.99345307104456515, 0.31415744529898981,
	0.84941523723766299, 0.26860868289232859, -0.52772507496658183, -0.16688132152775051,
	0.023518370809293251, 0.0074371618613784177, -0.99972340486480404, -0.31614029895514378,
	-0.99345307104456515, -0.31415744529898981, 0.11424095426825566, 0.036126161755882236,
	0.52772507496658194, 0.16688132152775054, 0.84941523723766321, 0.26860868289232864,
};
static const double ref_mixed_angles_h2[24] = {
	0, 0, 0, 0,
	0.84941523723766299, 0.26860868289232859, -0.52772507496658183, -0.16688132152775051,
	1.698830474475326, 0.53721736578465717, -1.0554501499331637, -0.33376264305550102,
	0.52772507496658194, 0.16688132152775054, 0.84941523723766321, 0.26860868289232864,
	1.3771403122042449, 0.43549000442007912, 0.32169016227108138, 0.10172736136457813,
	2.2265555494419078, 0.70409868731240777, -0.20603491269550045, -0.065153960163172375,
};
static const double ref_mixed_score_h2[36] = {
	4, 3.4746259110402011, 2.1691038682382215, 3.4746259110402007,
	3.0426439136116152, 2.1291621732786061, 3.4746259110402011, 4,
	3.4746259110402016, 3.0426439136116148, 3.4746259110402007, 3.0426439136116152,
	2.1691038682382215, 3.4746259110402016, 4, 1.8174439288201447,
	3.0426439136116152, 3.4746259110402011, 3.4746259110402007, 3.0426439136116148,
	1.8174439288201447, 4, 3.4746259110402011, 2.169103868238222,
	3.0426439136116152, 3.4746259110402007, 3.0426439136116152, 3.4746259110402011,
	4, 3.4746259110402011, 2.1291621732786061, 3.0426439136116152,
	3.4746259110402011, 2.169103868238222, 3.4746259110402011, 4,
};

/* A rope2d config: grid h x w, d, kind; base as the reference's. */
static void
rope2d_config(struct pe_config *c, size_t h, size_t w, size_t d,
    enum pe_rope2d_kind kind)
{
	pe_config_default(c);
	c->enc = PE_ENC_ROPE2D;
	c->grid_h = h;
	c->grid_w = w;
	c->d = d;
	c->rope2d.kind = kind;
	pe_config_encoding_defaults(c, true, false);
}

/* torch.manual_seed(0); torch.rand(4): [0.4963, 0.7682, 0.0885, 0.1320]
 * (mt19937's first outputs 2357136044, 2546248239, ...). */
Test(rope2d, torch_rand_is_mt19937)
{
	cr_expect_eq(pe_rope2d_torch_rand(0), (2357136044u & 0xffffffu) * 0x1p-24);
	cr_expect_eq(pe_rope2d_torch_rand(1), (2546248239u & 0xffffffu) * 0x1p-24);
	cr_expect(fabs(pe_rope2d_torch_rand(2) - 0.0885) < 5e-5);
	cr_expect(fabs(pe_rope2d_torch_rand(3) - 0.1320) < 5e-5);
	/* past the first 624 (a second twist) */
	cr_expect(pe_rope2d_torch_rand(700) >= 0 && pe_rope2d_torch_rand(700) < 1);
}

Test(rope2d, axial_is_compute_axial_cis)
{
	struct pe_config c;
	double a[6 * 4], cs[6 * 4], sn[6 * 4], fx[4], fy[4];

	rope2d_config(&c, 2, 3, 8, PE_ROPE2D_AXIAL);
	cr_expect_eq(c.base, 100.0, "RoPE-Axial's theta");
	cr_assert_eq(pe_rope2d_fill_angles(&c, a), PE_OK);
	cr_assert_eq(pe_rope2d_fill_cos_sin(&c, cs, sn), PE_OK);
	for (size_t k = 0; k < 24; k++) {
		cr_expect(th_close(a[k], ref_axial_3x2_d8[k], 1e-15, 1e-15),
		    "angle %zu", k);
		cr_expect(th_close(cs[k], cos(ref_axial_3x2_d8[k]), 1e-15, 0));
		cr_expect(th_close(sn[k], sin(ref_axial_3x2_d8[k]), 1e-15, 0));
	}
	cr_assert_eq(pe_rope2d_freqs(&c, fx, fy), PE_OK);
	for (size_t i = 0; i < 6; i++)
		for (size_t j = 0; j < 6; j++)
			cr_expect(th_close(pe_rope2d_score(&c, fx, fy, i, j),
			    ref_axial_score_3x2_d8[i * 6 + j], 1e-14, 1e-14),
			    "score %zu,%zu", i, j);
}

Test(rope2d, mixed_is_init_random_2d_freqs)
{
	struct pe_config c;
	double fx[4], fy[4], a[6 * 4];

	rope2d_config(&c, 2, 3, 8, PE_ROPE2D_MIXED);
	cr_expect_eq(c.base, 10.0, "RoPE-Mixed's theta");
	for (size_t h = 0; h < 3; h++) {
		c.rope2d.head = h;
		cr_assert_eq(pe_rope2d_freqs(&c, fx, fy), PE_OK);
		for (size_t j = 0; j < 4; j++) {
			cr_expect(th_close(fx[j], ref_mixed_init_d8_h3[h * 4 + j], 1e-15,
			    1e-14), "head %zu fx %zu", h, j);
			cr_expect(th_close(fy[j], ref_mixed_init_d8_h3[12 + h * 4 + j],
			    1e-15, 1e-14), "head %zu fy %zu", h, j);
		}
	}
	c.rope2d.head = 2;
	cr_assert_eq(pe_rope2d_fill_angles(&c, a), PE_OK);
	for (size_t k = 0; k < 24; k++)
		cr_expect(th_close(a[k], ref_mixed_angles_h2[k], 1e-15, 1e-14),
		    "angle %zu", k);
	pe_rope2d_freqs(&c, fx, fy);
	for (size_t i = 0; i < 6; i++)
		for (size_t j = 0; j < 6; j++)
			cr_expect(th_close(pe_rope2d_score(&c, fx, fy, i, j),
			    ref_mixed_score_h2[i * 6 + j], 1e-14, 1e-14));
}

/* A file's frequencies: [2, heads, d/2] by head, the reference's [2,
 * depth, heads d/2] by block and head; other shapes refused. */
Test(rope2d, freqs_from_a_file)
{
	struct pe_config c;
	char why[256];
	double fx[4], fy[4];
	/* [2, 3, 4]: value 100 axis + 10 head + pair */
	static double heads[2 * 3 * 4], model[2 * 2 * 12];
	for (size_t a = 0; a < 2; a++)
		for (size_t h = 0; h < 3; h++)
			for (size_t j = 0; j < 4; j++)
				heads[(a * 3 + h) * 4 + j] = 100.0 * a + 10.0 * h + j;
	/* [2, 2 blocks, 3 heads x 4]: 1000 block on top */
	for (size_t a = 0; a < 2; a++)
		for (size_t b = 0; b < 2; b++)
			for (size_t k = 0; k < 12; k++)
				model[(a * 2 + b) * 12 + k] = 100.0 * a + 1000.0 * b +
				    10.0 * (double)(k / 4) + (double)(k % 4);
	rope2d_config(&c, 2, 3, 8, PE_ROPE2D_MIXED);
	c.rope2d.freqs = heads;
	c.rope2d.freqs_rows = 3;
	c.rope2d.freqs_cols = 4;
	c.rope2d.head = 1;
	cr_assert_eq(pe_config_check(&c, why, sizeof why), PE_OK, "%s", why);
	cr_expect_eq(pe_rope2d_file_heads(&c), 3);
	pe_rope2d_freqs(&c, fx, fy);
	cr_expect(fx[2] == 12.0 && fy[3] == 113.0);
	c.rope2d.head = 3;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "head 3: the freqs_file has 3 heads") == why, "%s",
	    why);
	c.rope2d.head = 2;
	c.rope2d.layer = 1;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "layer 1") == why, "%s", why);
	c.rope2d.freqs = model;
	c.rope2d.freqs_rows = 2;
	c.rope2d.freqs_cols = 12;
	cr_assert_eq(pe_config_check(&c, why, sizeof why), PE_OK, "%s", why);
	cr_expect(pe_rope2d_file_heads(&c) == 3 && pe_rope2d_file_depth(&c) == 2);
	pe_rope2d_freqs(&c, fx, fy);
	cr_expect(fx[1] == 1021.0 && fy[0] == 1120.0, "%g %g", fx[1], fy[0]);
	c.d = 12; /* 6 per head: 12 is two heads, but [2, 2, 12] was for d 8 */
	c.rope2d.head = 0;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_OK, "%s", why);
	c.d = 20; /* 10 per head does not divide 12 */
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "d_model 20: the freqs_file holds [2, 2, 12]") ==
	    why, "%s", why);
	/* no file: one block, any head */
	c.d = 8;
	c.rope2d.freqs = NULL;
	c.rope2d.layer = 1;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "layer 1: the reference initialisation") == why,
	    "%s", why);
	c.rope2d.layer = 0;
	c.d = 10;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "d_model 10: rope2d needs d_model divisible by 4")
	    == why, "%s", why);
}

/* Blocks and grids against brute force, and every patch map's value
 * against the score pair by pair (pe_rope2d_score): odd grids, one row,
 * one column, both kinds, several heads. */
static void
fields_equal_brute_force(void)
{
	struct {
		size_t h, w, d;
		enum pe_rope2d_kind kind;
		size_t head;
	} cases[] = {
		{5, 7, 16, PE_ROPE2D_AXIAL, 0},
		{3, 9, 8, PE_ROPE2D_MIXED, 5},
		{1, 13, 12, PE_ROPE2D_AXIAL, 0},
		{11, 1, 8, PE_ROPE2D_MIXED, 0},
		{6, 6, 32, PE_ROPE2D_MIXED, 11},
		{4, 41, 8, PE_ROPE2D_MIXED, 2}, /* blocks past 32 columns */
	};
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct pe_config c;
		char what[96];
		rope2d_config(&c, cases[k].h, cases[k].w, cases[k].d, cases[k].kind);
		c.rope2d.head = cases[k].head;
		snprintf(what, sizeof what, "rope2d %s %zux%zu d %zu head %zu",
		    cases[k].kind == PE_ROPE2D_AXIAL ? "axial" : "mixed", cases[k].h,
		    cases[k].w, cases[k].d, cases[k].head);
		th_field_check_kind(&c, PE_FIELD_SIMILARITY, what);
		th_field_check_grids(&c, PE_FIELD_SIMILARITY, what);
		struct pe_field f;
		cr_assert_eq(pe_field_init(&f, PE_FIELD_PATCH_COSINE, &c), PE_OK);
		size_t N = c.grid_h * c.grid_w;
		for (size_t a = 0; a < N; a += 1 + N / 4) {
			f.anchor = a;
			th_field_check(&f, what);
			/* every value against the score summed pair by pair */
			for (size_t h = 0; h < c.grid_h; h++)
				for (size_t w = 0; w < c.grid_w; w++)
					cr_expect(th_close(pe_field_value(&f, h, w),
					    pe_rope2d_score(&c, f.omega, f.prefix, a,
						h * c.grid_w + w) / (double)(c.d / 2), 1e-14,
					    1e-14), "%s anchor %zu at (%zu, %zu)", what, a,
					    h, w);
		}
		pe_field_free(&f);
		th_field_check_grids(&c, PE_FIELD_PATCH_COSINE, what);
	}
}

/* The patch map from its table of offsets (grids up to 2^21 of them)... */
Test(rope2d, fields_equal_brute_force)
{
	fields_equal_brute_force();
}

/* ... and from the closed forms, past it. */
Test(rope2d, fields_without_the_table_equal_brute_force)
{
	uint64_t keep = pe_field_rope2d_table_max;
	pe_field_rope2d_table_max = 0;
	fields_equal_brute_force();
	pe_field_rope2d_table_max = keep;
}

/* The mixed map's cosine at offset (dx, dy), pair by pair in long double
 * from the head's frequencies: (1/(d/2)) sum_j cos(dx fx_j + dy fy_j). */
static long double
mixed_brute(const double *fx, const double *fy, size_t P, long dx, long dy)
{
	long double sum = 0;

	for (size_t j = 0; j < P; j++)
		sum += cosl((long double)dx * fx[j] + (long double)dy * fy[j]);
	return sum / (long double)P;
}

/* The reference initialisation's table built from L (the sums along the
 * head's two directions, interpolated between the integers) against the
 * definition summed pair by pair in long double: values at every offset
 * of the grid from two anchors, and blocks narrow and wide (past 32
 * columns a block sums the rows' prefix sums), small and medium grids and
 * widths, several heads and bases; then the field's own consistency
 * (blocks, grids, min and max) on that table. */
Test(rope2d, mixed_lines_equal_the_pairs)
{
	struct {
		size_t h, w, d, head;
		double base;
	} cases[] = {
		{9, 9, 64, 3, 0},
		{33, 29, 2048, 0, 0},
		{17, 45, 256, 7, 0},
		{1, 70, 16, 1, 0},
		{40, 1, 8, 2, 0},
		{21, 38, 8192, 5, 0},
		{25, 25, 512, 4, 10000.0},
	};
	uint64_t keep = pe_field_rope2d_build_max;
	pe_field_rope2d_build_max = 0;
	double worst = 0;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct pe_config c;
		struct pe_field f;
		char what[96];
		rope2d_config(&c, cases[k].h, cases[k].w, cases[k].d,
		    PE_ROPE2D_MIXED);
		c.rope2d.head = cases[k].head;
		if (cases[k].base > 0)
			c.base = cases[k].base;
		snprintf(what, sizeof what, "mixed %zux%zu d %zu head %zu base %g",
		    c.grid_h, c.grid_w, c.d, c.rope2d.head, c.base);
		cr_assert_eq(pe_field_init(&f, PE_FIELD_PATCH_COSINE, &c), PE_OK);
		size_t P = c.d / 2, H = c.grid_h, W = c.grid_w, N = H * W;
		size_t anchors[2] = {0, N / 2 + W / 3};
		for (size_t i = 0; i < 2; i++) {
			size_t a = anchors[i] % N;
			long xa = (long)(a % W), ya = (long)(a / W);
			f.anchor = a;
			for (size_t y = 0; y < H; y++)
				for (size_t x = 0; x < W; x++) {
					double got = pe_field_value(&f, y, x);
					long double want = mixed_brute(f.omega, f.prefix, P,
					    (long)x - xa, (long)y - ya);
					double e = fabs(got - (double)want);
					worst = e > worst ? e : worst;
					cr_expect(e <= 5e-11, "%s anchor %zu (%zu, %zu): %.17g, "
					    "pair by pair %.17Lg", what, a, y, x, got, want);
				}
			/* blocks: the whole grid, a wide band, a narrow one */
			size_t r[3][4] = {{0, H, 0, W}, {H / 3, H, W / 5, W},
				{0, (H + 1) / 2, W / 2, W / 2 + 1}};
			for (size_t b = 0; b < 3; b++) {
				struct pe_stats st;
				long double sum = 0;
				size_t n = (r[b][1] - r[b][0]) * (r[b][3] - r[b][2]);
				field_stats_init(&st, n);
				cr_assert_eq(pe_field_block(&f, r[b][0], r[b][1], r[b][2],
				    r[b][3], false, &st), PE_OK);
				for (size_t y = r[b][0]; y < r[b][1]; y++)
					for (size_t x = r[b][2]; x < r[b][3]; x++)
						sum += mixed_brute(f.omega, f.prefix, P,
						    (long)x - xa, (long)y - ya);
				double e = fabs(st.mean - (double)(sum / (long double)n));
				cr_expect(e <= 5e-11, "%s anchor %zu block %zu: %.17g, "
				    "pair by pair %.17Lg", what, a, b, st.mean,
				    sum / (long double)n);
			}
			th_field_check(&f, what);
		}
		pe_field_free(&f);
		th_field_check_grids(&c, PE_FIELD_PATCH_COSINE, what);
	}
	cr_log_info("mixed from L: worst |value - pair by pair| %.3g", worst);
	pe_field_rope2d_build_max = keep;
}
