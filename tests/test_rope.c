/* RoPE: HF's rope_type family against a numpy transcription, and the
 * defining properties of rotations. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "pescope/rope.h"
#include "kernel/testing.h"

/* Printed by /usr/bin/python3 tests/ref/rope_ref.py (numpy float64
 * transcription of HF modeling_rope_utils.py). */
static const double ref_default_16[] = {1,
                                        0.31622776601683794,
                                        0.10000000000000001,
                                        0.031622776601683791,
                                        0.01,
                                        0.0031622776601683798,
                                        0.001,
                                        0.00031622776601683794};
static const double att_default_16 = 1;
static const double ref_default_32_b5e5[] = {1,
                                             0.44036660267178046,
                                             0.19392274474868576,
                                             0.085397100285765609,
                                             0.037606030930863933,
                                             0.016560440080994446,
                                             0.0072926647372171102,
                                             0.0032114459947525913,
                                             0.0014142135623730952,
                                             0.00062277242191459609,
                                             0.0002742481756762073,
                                             0.00012076973741146504,
                                             5.318295896944989e-05,
                                             2.3419998961409342e-05,
                                             1.031338537721246e-05,
                                             4.5416704806078695e-06};
static const double att_default_32_b5e5 = 1;
static const double ref_linear_16_f4[] = {0.25,
                                          0.079056941504209485,
                                          0.025000000000000001,
                                          0.0079056941504209478,
                                          0.0025000000000000001,
                                          0.00079056941504209496,
                                          0.00025000000000000001,
                                          7.9056941504209485e-05};
static const double att_linear_16_f4 = 1;
static const double ref_linear_32_f2_5[] = {
    0.40000000000000002,    0.1761466410687122,     0.077569097899474304,
    0.034158840114306241,   0.015042412372345573,   0.0066241760323977788,
    0.0029170658948868443,  0.0012845783979010365,  0.00056568542494923814,
    0.00024910896876583844, 0.00010969927027048292, 4.8307894964586018e-05,
    2.1273183587779955e-05, 9.367999584563737e-06,  4.1253541508849837e-06,
    1.8166681922431477e-06};
static const double att_linear_32_f2_5 = 1;
static const double ref_dynamic_16_below[] = {1,
                                              0.31622776601683794,
                                              0.10000000000000001,
                                              0.031622776601683791,
                                              0.01,
                                              0.0031622776601683798,
                                              0.001,
                                              0.00031622776601683794};
static const double att_dynamic_16_below = 1;
static const double ref_dynamic_16_above[] = {1,
                                              0.2495284675940164,
                                              0.06226445613981809,
                                              0.01553675432614365,
                                              0.0038768624983873293,
                                              0.00096738755829530018,
                                              0.00024139073499094342,
                                              6.0233860193683424e-05};
static const double att_dynamic_16_above = 1;
static const double ref_dynamic_32_above[] = {1,
                                              0.36457295353361141,
                                              0.13291343844822076,
                                              0.048456644819375699,
                                              0.017665982120128966,
                                              0.0064405392786073866,
                                              0.0023480464271511299,
                                              0.00085603422098053106,
                                              0.00031208692426871635,
                                              0.00011377845173986641,
                                              4.1480546199284561e-05,
                                              1.5122685242060592e-05,
                                              5.5133220240571854e-06,
                                              2.0100080940924369e-06,
                                              7.3279458748974466e-07,
                                              2.6715708709458058e-07};
static const double att_dynamic_32_above = 1;
static const double ref_yarn_16_trunc[] = {1,
                                           0.22399466759526021,
                                           0.041666666666666671,
                                           0.0039528470752104739,
                                           0.00125,
                                           0.00039528470752104748,
                                           0.000125,
                                           3.9528470752104742e-05};
static const double att_yarn_16_trunc = 1.2079441541679836;
static const double ref_yarn_16_notrunc[] = {1,
                                             0.17897614584316904,
                                             0.013194453540578242,
                                             0.0039528470752104739,
                                             0.00125,
                                             0.00039528470752104748,
                                             0.000125,
                                             3.9528470752104742e-05};
static const double att_yarn_16_notrunc = 1.2079441541679836;
static const double ref_yarn_32_mscale[] = {1,
                                            0.44036660267178046,
                                            0.19392274474868576,
                                            0.085397100285765609,
                                            0.037606030930863933,
                                            0.012679086937011374,
                                            0.0038742281416465898,
                                            0.00095339802969217553,
                                            8.8388347648318453e-05,
                                            3.8923276369662256e-05,
                                            1.7140510979762956e-05,
                                            7.5481085882165652e-06,
                                            3.3239349355906181e-06,
                                            1.4637499350880838e-06,
                                            6.4458658607577872e-07,
                                            2.8385440503799184e-07};
static const double att_yarn_32_mscale = 1.1217511437130581;
static const double ref_yarn_32_att[] = {1,
                                         0.44036660267178046,
                                         0.19392274474868576,
                                         0.085397100285765609,
                                         0.034895658948570447,
                                         0.011692877619821211,
                                         0.0035312436226743022,
                                         0.00084256859260073696,
                                         8.8388347648318453e-05,
                                         3.8923276369662256e-05,
                                         1.7140510979762956e-05,
                                         7.5481085882165652e-06,
                                         3.3239349355906181e-06,
                                         1.4637499350880838e-06,
                                         6.4458658607577872e-07,
                                         2.8385440503799184e-07};
static const double att_yarn_32_att = 1.25;
static const double ref_longrope_8_short[] = {
    1, 0.083333333333333329, 0.0066666666666666671, 0.00050000000000000001};
static const double att_longrope_8_short = 1.1180339887498949;
static const double ref_longrope_8_long[] = {
    0.66666666666666663, 0.033333333333333333, 0.00125, 5.0000000000000002e-05};
static const double att_longrope_8_long = 1.1180339887498949;
static const double ref_longrope_8_factor8[] = {
    0.66666666666666663, 0.033333333333333333, 0.00125, 5.0000000000000002e-05};
static const double att_longrope_8_factor8 = 1.1726039399558574;
static const double ref_yarn_16_mscale0[] = {1,
                                             0.22399466759526021,
                                             0.041666666666666671,
                                             0.0039528470752104739,
                                             0.00125,
                                             0.00039528470752104748,
                                             0.000125,
                                             3.9528470752104742e-05};
static const double att_yarn_16_mscale0 = 1.2079441541679836;
static const double ref_llama3_16[] = {1,
                                       0.0794030091792082,
                                       0.0047007538663579916,
                                       0.00091158309215213877,
                                       0.00017677669529663691,
                                       3.4281021959525912e-05,
                                       6.6478698711812362e-06,
                                       1.2891731721515574e-06};
static const double att_llama3_16 = 1;
static const double ref_llama3_32[] = {1,
                                       0.44036660267178046,
                                       0.19392274474868576,
                                       0.085397100285765609,
                                       0.026244648712991731,
                                       0.0023863331714533646,
                                       0.00022789577303803469,
                                       0.00010035768733601848,
                                       4.4194173824159226e-05,
                                       1.9461638184831128e-05,
                                       8.5702554898814781e-06,
                                       3.7740542941082826e-06,
                                       1.6619674677953091e-06,
                                       7.3187496754404192e-07,
                                       3.2229329303788936e-07,
                                       1.4192720251899592e-07};
static const double att_llama3_32 = 1;
static const double ref_partial_16_half[] = {1, 0.10000000000000001, 0.01,
                                             0.001};
static const double att_partial_16_half = 1;
static const double cos_yarn_7[] = {
    0.91067182094805932,   0.0034228907542294372, 1.1569277897826316,
    1.2074817675488254,    1.2078979128508622,    1.2079395300097189,
    1.2079436917518915,    1.2079441079263717,    0.91067182094805932,
    0.0034228907542294372, 1.1569277897826316,    1.2074817675488254,
    1.2078979128508622,    1.2079395300097189,    1.2079436917518915,
    1.2079441079263717};
static const double sin_yarn_7[] = {
    0.79360312128906807,   1.2079393045213365,     0.34734301319773347,
    0.033419464773845595,  0.010569376478117384,   0.0033423686967688215,
    0.0010569510000256221, 0.00033423729191242813, 0.79360312128906807,
    1.2079393045213365,    0.34734301319773347,    0.033419464773845595,
    0.010569376478117384,  0.0033423686967688215,  0.0010569510000256221,
    0.00033423729191242813};
static const double cos_yarn_1000[] = {
    0.679322517631745,    -0.71087986653565205, -0.81880481420263451,
    -0.83177745484254406, 0.38089180433380326,  1.114795919367656,
    1.1985193719087781,   1.2070005706695739,   0.679322517631745,
    -0.71087986653565205, -0.81880481420263451, -0.83177745484254406,
    0.38089180433380326,  1.114795919367656,    1.1985193719087781,
    1.2070005706695739};
static const double sin_yarn_1000[] = {
    0.99882430718674087,  -0.97661604274292924, -0.88808093990761616,
    -0.8759425467485098,  1.1463204233459097,   0.46514421177719478,
    0.15060011536513773,  0.047735751716387324, 0.99882430718674087,
    -0.97661604274292924, -0.88808093990761616, -0.8759425467485098,
    1.1463204233459097,   0.46514421177719478,  0.15060011536513773,
    0.047735751716387324};

/* A rope config with HF's defaults. */
static struct pe_config
rope_cfg(size_t d, double base, enum pe_rope_type t)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_ROPE;
	cfg.d = d;
	cfg.base = base;
	cfg.rope.type = t;
	return cfg;
}

/* Init cfg and compare inv_freq and attention_scaling with a reference. */
static void
expect_rope(const struct pe_config *cfg, const double *ref, size_t n,
            double att, const char *name)
{
	char why[256] = "";
	cr_assert_eq(pe_config_check(cfg, why, sizeof why), PE_OK, "%s: %s",
	             name, why);
	struct pe_rope r;
	cr_assert_eq(pe_rope_init(&r, cfg), PE_OK, "%s", name);
	cr_expect_eq(r.npairs, n, "%s: npairs %zu", name, r.npairs);
	for (size_t j = 0; j < n && j < r.npairs; j++)
		cr_expect(th_close(r.inv_freq[j], ref[j], 0, 1e-13),
		          "%s: inv_freq[%zu] = %.17g, want %.17g", name, j,
		          r.inv_freq[j], ref[j]);
	cr_expect(th_close(r.attention_scaling, att, 0, 1e-14),
	          "%s: attention %.17g, want %.17g", name, r.attention_scaling,
	          att);
	pe_rope_free(&r);
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

Test(rope, default_and_linear)
{
	struct pe_config c = rope_cfg(16, 10000.0, PE_ROPE_DEFAULT);
	expect_rope(&c, ref_default_16, N(ref_default_16), att_default_16,
	            "default 16");
	c = rope_cfg(32, 500000.0, PE_ROPE_DEFAULT);
	expect_rope(&c, ref_default_32_b5e5, N(ref_default_32_b5e5),
	            att_default_32_b5e5, "default 32");
	c = rope_cfg(16, 10000.0, PE_ROPE_LINEAR);
	c.rope.factor = 4.0;
	expect_rope(&c, ref_linear_16_f4, N(ref_linear_16_f4), att_linear_16_f4,
	            "linear 16");
	c = rope_cfg(32, 500000.0, PE_ROPE_LINEAR);
	c.rope.factor = 2.5;
	expect_rope(&c, ref_linear_32_f2_5, N(ref_linear_32_f2_5),
	            att_linear_32_f2_5, "linear 32");
}

Test(rope, never_turned_in_training_under_linear_scaling)
{
	/* Gemma 3's global layer: head_dim 256, rope_theta 1e6, linear x8,
	 * max_position_embeddings 131072. modeling_rope_utils.py's
	 * _compute_linear_scaling_rope_parameters: inv_freq / factor, so the
	 * model trained at 131072 with the scaled angles: a pair never turned
	 * when 2 pi factor / inv_freq > 131072 (unscaled 2 pi / inv_freq >
	 * 16384). numpy: sum(2*pi*8/(1e6**(-2j/256)) > 131072) = 55 (j 73..127);
	 * the unscaled wavelength against 131072 would give 35. */
	struct pe_config c = rope_cfg(256, 1e6, PE_ROPE_LINEAR);
	struct pe_rope r;
	size_t js[128];
	c.rope.factor = 8.0;
	c.teach.train_scaled = true; /* the config's own scaling */
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	cr_expect(pe_rope_trained_scaled(&c));
	cr_expect_eq(pe_rope_never_turned(&c, &r, 131072, js), 55);
	cr_expect_eq(js[0], 73);
	/* PI put on a model trained unscaled (Llama 2 at 4096): the unscaled
	 * angles were trained, 2 pi / inv_freq > 131072: 35 */
	c.teach.train_scaled = false;
	cr_expect_eq(pe_rope_never_turned(&c, &r, 131072, NULL), 35);
	pe_rope_free(&r);
	/* YaRN's train_len is original_max_position_embeddings, trained with
	 * the unscaled angles */
	c = rope_cfg(64, 150000.0, PE_ROPE_YARN);
	c.rope.factor = 32.0;
	c.rope.original_max_pos = 4096;
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	cr_expect(!pe_rope_trained_scaled(&c));
	cr_expect_eq(pe_rope_never_turned(&c, &r, 4096, NULL),
	    pe_rope_beyond(&r, 4096, true, NULL));
	pe_rope_free(&r);
}

Test(rope, dynamic_below_and_above_max_pos)
{
	struct pe_config c = rope_cfg(16, 10000.0, PE_ROPE_DYNAMIC);
	c.rope.factor = 2.0;
	c.rope.max_pos = 64;
	c.n = 32;
	expect_rope(&c, ref_dynamic_16_below, N(ref_dynamic_16_below),
	            att_dynamic_16_below, "dynamic below");
	c.n = 64; /* at max_pos: still unchanged */
	expect_rope(&c, ref_default_16, N(ref_default_16), 1.0, "dynamic at");
	c.n = 200;
	expect_rope(&c, ref_dynamic_16_above, N(ref_dynamic_16_above),
	            att_dynamic_16_above, "dynamic above");
	c = rope_cfg(32, 500000.0, PE_ROPE_DYNAMIC);
	c.rope.factor = 4.0;
	c.rope.max_pos = 1000;
	c.n = 5000;
	expect_rope(&c, ref_dynamic_32_above, N(ref_dynamic_32_above),
	            att_dynamic_32_above, "dynamic 32");
}

Test(rope, yarn_truncate_mscale_attention_factor)
{
	struct pe_config c = rope_cfg(16, 10000.0, PE_ROPE_YARN);
	c.rope.factor = 8.0;
	c.rope.original_max_pos = 64;
	expect_rope(&c, ref_yarn_16_trunc, N(ref_yarn_16_trunc),
	            att_yarn_16_trunc, "yarn truncate");
	c.rope.truncate = false;
	expect_rope(&c, ref_yarn_16_notrunc, N(ref_yarn_16_notrunc),
	            att_yarn_16_notrunc, "yarn no truncate");
	/* The two differ: truncate matters for this set. */
	cr_expect_neq(ref_yarn_16_trunc[1], ref_yarn_16_notrunc[1]);

	c = rope_cfg(32, 500000.0, PE_ROPE_YARN);
	c.rope.factor = 16.0;
	c.rope.original_max_pos = 4096;
	c.rope.beta_fast = 16.0;
	c.rope.beta_slow = 2.0;
	c.rope.mscale = 1.0;
	c.rope.mscale_all_dim = 0.5;
	expect_rope(&c, ref_yarn_32_mscale, N(ref_yarn_32_mscale),
	            att_yarn_32_mscale, "yarn mscale");
	/* Only one of mscale / mscale_all_dim: the plain 0.1 ln(s) + 1. */
	c.rope.mscale_all_dim = NAN;
	struct pe_rope r;
	pe_rope_init(&r, &c);
	cr_expect(
	    th_close(r.attention_scaling, 0.1 * log(16.0) + 1.0, 0, 1e-15));
	pe_rope_free(&r);

	c = rope_cfg(32, 500000.0, PE_ROPE_YARN);
	c.rope.factor = 16.0;
	c.rope.original_max_pos = 4096;
	c.rope.attention_factor = 1.25;
	c.rope.truncate = false;
	expect_rope(&c, ref_yarn_32_att, N(ref_yarn_32_att), att_yarn_32_att,
	            "yarn attention_factor");
}

Test(rope, yarn_cos_sin_tables)
{
	struct pe_config c = rope_cfg(16, 10000.0, PE_ROPE_YARN);
	c.rope.factor = 8.0;
	c.rope.original_max_pos = 64;
	struct pe_rope r;
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	double co[2 * 16], si[2 * 16];
	cr_assert_eq(pe_rope_fill_cos_sin(&r, 7, 1, co, si), PE_OK);
	cr_assert_eq(pe_rope_fill_cos_sin(&r, 1000, 1, co + 16, si + 16),
	             PE_OK);
	for (size_t k = 0; k < 16; k++) {
		cr_expect(th_close(co[k], cos_yarn_7[k], 1e-13, 0), "cos7 %zu",
		          k);
		cr_expect(th_close(si[k], sin_yarn_7[k], 1e-13, 0), "sin7 %zu",
		          k);
		cr_expect(th_close(co[16 + k], cos_yarn_1000[k], 1e-12, 0),
		          "c %zu", k);
		cr_expect(th_close(si[16 + k], sin_yarn_1000[k], 1e-12, 0),
		          "s %zu", k);
	}
	pe_rope_free(&r);
}

Test(rope, longrope_switches_at_original_length)
{
	static const double sf[4] = {1.0, 1.2, 1.5, 2.0};
	static const double lf[4] = {1.5, 3.0, 8.0, 20.0};
	struct pe_config c = rope_cfg(8, 10000.0, PE_ROPE_LONGROPE);
	c.rope.short_factor = sf;
	c.rope.long_factor = lf;
	c.rope.n_short = c.rope.n_long = 4;
	c.rope.original_max_pos = 256;
	c.rope.max_pos = 1024;
	c.n = 256;
	expect_rope(&c, ref_longrope_8_short, N(ref_longrope_8_short),
	            att_longrope_8_short, "longrope short");
	c.n = 257;
	expect_rope(&c, ref_longrope_8_long, N(ref_longrope_8_long),
	            att_longrope_8_long, "longrope long");
	/* An explicit attention_factor wins. */
	c.rope.attention_factor = 0.75;
	struct pe_rope r;
	pe_rope_init(&r, &c);
	cr_expect_eq(r.attention_scaling, 0.75);
	pe_rope_free(&r);
}

Test(rope, llama3_three_bands)
{
	struct pe_config c = rope_cfg(16, 500000.0, PE_ROPE_LLAMA3);
	c.rope.factor = 8.0;
	c.rope.original_max_pos = 64;
	expect_rope(&c, ref_llama3_16, N(ref_llama3_16), att_llama3_16,
	            "llama3 16");
	c = rope_cfg(32, 500000.0, PE_ROPE_LLAMA3);
	c.rope.factor = 32.0;
	c.rope.original_max_pos = 512;
	expect_rope(&c, ref_llama3_32, N(ref_llama3_32), att_llama3_32,
	            "llama3 32");

	/* Bands: wavelength < 512/4 kept, > 512/1 divided by 32, between
	 * strictly between the two; each band is present. */
	struct pe_rope r;
	pe_rope_init(&r, &c);
	int seen[3] = {0, 0, 0};
	for (size_t j = 0; j < r.npairs; j++) {
		double wl = pe_rope_wavelength(&r, j, true);
		if (wl < 128.0) {
			cr_expect_eq(r.inv_freq[j], r.inv_freq0[j]);
			seen[0]++;
		} else if (wl > 512.0) {
			cr_expect(th_close(r.inv_freq[j], r.inv_freq0[j] / 32.0,
			                   0, 1e-15));
			seen[2]++;
		} else {
			cr_expect_lt(r.inv_freq[j], r.inv_freq0[j]);
			cr_expect_gt(r.inv_freq[j], r.inv_freq0[j] / 32.0);
			seen[1]++;
		}
	}
	cr_expect(seen[0] && seen[1] && seen[2], "bands %d %d %d", seen[0],
	          seen[1], seen[2]);
	pe_rope_free(&r);
}

Test(rope, linear_is_default_at_scaled_positions)
{
	struct pe_config c = rope_cfg(64, 10000.0, PE_ROPE_LINEAR);
	c.rope.factor = 4.0;
	struct pe_config c0 = rope_cfg(64, 10000.0, PE_ROPE_DEFAULT);
	struct pe_rope r, r0;
	pe_rope_init(&r, &c);
	pe_rope_init(&r0, &c0);
	for (size_t j = 0; j < r.npairs; j++) {
		cr_expect_eq(r.inv_freq0[j], r0.inv_freq[j]);
		for (double m = 0; m < 5000; m += 123)
			cr_expect(th_close(pe_rope_angle(&r, m, j),
			                   pe_rope_angle(&r0, m / 4.0, j),
			                   1e-12, 1e-14));
	}
	pe_rope_free(&r);
	pe_rope_free(&r0);
}

Test(rope, partial_rotary_passes_dims_through)
{
	struct pe_config c = rope_cfg(16, 10000.0, PE_ROPE_DEFAULT);
	c.rope.partial_rotary = 0.5;
	expect_rope(&c, ref_partial_16_half, N(ref_partial_16_half),
	            att_partial_16_half, "partial");
	struct pe_rope r;
	pe_rope_init(&r, &c);
	cr_expect_eq(r.rot, 8);
	double x[16], y[16];
	for (int i = 0; i < 16; i++)
		x[i] = (double)(i + 1) * 0.25;
	pe_rope_apply(&r, x, 37.0, y);
	for (int i = 8; i < 16; i++)
		cr_expect_eq(y[i], x[i]);
	int moved = 0;
	for (int i = 0; i < 8; i++)
		moved += y[i] != x[i];
	cr_expect_gt(moved, 4);
	pe_rope_free(&r);
}

Test(rope, pair_dims)
{
	size_t a, b;
	pe_rope_pair_dims(3, 16, PE_PAIR_HALF, &a, &b);
	cr_expect(a == 3 && b == 11);
	pe_rope_pair_dims(3, 16, PE_PAIR_INTERLEAVED, &a, &b);
	cr_expect(a == 6 && b == 7);
}

/* A deterministic pseudo-random number in [-1, 1) (a float's worth of
 * bits). */
static double
frand(unsigned *s)
{
	*s = *s * 1103515245u + 12345u;
	return (double)((*s >> 8) & 0xffff) / 32768.0 - 1.0;
}

/* Dot product of two vectors. */
static double
dotf(const double *a, const double *b, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += a[i] * b[i];
	return s;
}

Test(rope, rotation_preserves_norm_and_relative_dot)
{
	for (int pairing = 0; pairing < 2; pairing++) {
		struct pe_config c = rope_cfg(64, 10000.0, PE_ROPE_DEFAULT);
		c.pairing = (enum pe_pairing)pairing;
		struct pe_rope r;
		pe_rope_init(&r, &c);
		unsigned s = 7;
		double q[64], k[64], a[64], b[64];
		for (int i = 0; i < 64; i++) {
			q[i] = frand(&s);
			k[i] = frand(&s);
		}
		for (double m = 0; m < 1e6; m = m * 3 + 1) {
			pe_rope_apply(&r, q, m, a);
			cr_expect(
			    th_close(dotf(a, a, 64), dotf(q, q, 64), 0, 1e-5),
			    "norm at %g", m);
		}
		/* (R_m q) . (R_n k) depends on m - n only. */
		pe_rope_apply(&r, q, 5, a);
		pe_rope_apply(&r, k, 2, b);
		double ref = dotf(a, b, 64);
		for (double base = 100; base < 1e5; base *= 7) {
			pe_rope_apply(&r, q, base + 5, a);
			pe_rope_apply(&r, k, base + 2, b);
			cr_expect(th_close(dotf(a, b, 64), ref, 1e-4, 1e-5),
			          "pairing %d offset %g: %g vs %g", pairing,
			          base, dotf(a, b, 64), ref);
		}
		pe_rope_free(&r);
	}
}

Test(rope, pairings_agree_after_permuting_dims)
{
	struct pe_config ch = rope_cfg(32, 10000.0, PE_ROPE_DEFAULT);
	struct pe_config ci = ch;
	ci.pairing = PE_PAIR_INTERLEAVED;
	struct pe_rope rh, ri;
	pe_rope_init(&rh, &ch);
	pe_rope_init(&ri, &ci);
	unsigned s = 3;
	double x[32], xi[32], yh[32], yi[32];
	for (int i = 0; i < 32; i++)
		x[i] = frand(&s);
	/* half pair (j, j+16) <-> interleaved pair (2j, 2j+1) */
	for (int j = 0; j < 16; j++) {
		xi[2 * j] = x[j];
		xi[2 * j + 1] = x[j + 16];
	}
	pe_rope_apply(&rh, x, 777.0, yh);
	pe_rope_apply(&ri, xi, 777.0, yi);
	for (int j = 0; j < 16; j++) {
		cr_expect_eq(yh[j], yi[2 * j]);
		cr_expect_eq(yh[j + 16], yi[2 * j + 1]);
	}
	/* cos tables are the same permutation. */
	double coh[32], coi[32];
	pe_rope_fill_cos_sin(&rh, 41, 1, coh, NULL);
	pe_rope_fill_cos_sin(&ri, 41, 1, coi, NULL);
	for (int j = 0; j < 16; j++) {
		cr_expect_eq(coh[j], coi[2 * j]);
		cr_expect_eq(coh[j + 16], coi[2 * j + 1]);
	}
	pe_rope_free(&rh);
	pe_rope_free(&ri);
}

Test(rope, rotate_matches_hf_apply_rotary)
{
	/* HF: q_embed = q cos + rotate_half(q) sin, with cos/sin scaled. */
	struct pe_config c = rope_cfg(16, 10000.0, PE_ROPE_YARN);
	c.rope.factor = 8.0;
	c.rope.original_max_pos = 64;
	struct pe_rope r;
	pe_rope_init(&r, &c);
	double q[16], y[16];
	for (int i = 0; i < 16; i++)
		q[i] = 0.1 * (double)(i - 5);
	pe_rope_apply(&r, q, 1000.0, y);
	for (int i = 0; i < 16; i++) {
		double rh = i < 8 ? -q[i + 8] : q[i - 8];
		double want = q[i] * cos_yarn_1000[i] + rh * sin_yarn_1000[i];
		cr_expect(th_close(y[i], want, 2e-6, 1e-5), "%d: %g vs %g", i,
		          y[i], want);
	}
	pe_rope_free(&r);
}

Test(rope, wavelength_and_rejects)
{
	struct pe_config c = rope_cfg(16, 10000.0, PE_ROPE_LINEAR);
	c.rope.factor = 2.0;
	struct pe_rope r;
	pe_rope_init(&r, &c);
	cr_expect(
	    th_close(pe_rope_wavelength(&r, 0, true), 2 * M_PI, 0, 1e-15));
	cr_expect(
	    th_close(pe_rope_wavelength(&r, 0, false), 4 * M_PI, 0, 1e-15));
	pe_rope_free(&r);
	c.d = 15;
	cr_expect_eq(pe_rope_init(&r, &c), PE_EINVAL);
	c.d = 16;
	c.rope.type = PE_ROPE_LONGROPE; /* no factor lists */
	cr_expect_eq(pe_rope_init(&r, &c), PE_EINVAL);
}

/* An explicit --factor is longrope's factor (HF: rope_scaling["factor"]
 * when the config has no top-level original_max_position_embeddings); else
 * max_pos / original_max_pos (Phi-3). tests/ref/rope_ref.py
 * longrope_8_factor8. */
Test(rope, longrope_honours_an_explicit_factor)
{
	static const double sf[4] = {1.0, 1.2, 1.5, 2.0};
	static const double lf[4] = {1.5, 3.0, 8.0, 20.0};
	struct pe_config c = rope_cfg(8, 10000.0, PE_ROPE_LONGROPE);
	c.rope.short_factor = sf;
	c.rope.long_factor = lf;
	c.rope.n_short = c.rope.n_long = 4;
	c.rope.original_max_pos = 256;
	c.rope.max_pos = 1024;
	c.n = 257;
	c.rope.factor = 8.0;
	c.rope.factor_given = true;
	expect_rope(&c, ref_longrope_8_factor8, N(ref_longrope_8_factor8),
	            att_longrope_8_factor8, "longrope --factor 8");
	cr_expect_eq(pe_rope_longrope_factor(&c.rope), 8.0);
	c.rope.factor_given = false; /* the ratio 1024 / 256 */
	expect_rope(&c, ref_longrope_8_long, N(ref_longrope_8_long),
	            att_longrope_8_long, "longrope ratio");
	cr_expect_eq(pe_rope_longrope_factor(&c.rope), 4.0);
}

/* HF reads beta_fast 0 and beta_slow 0 as unset (`or 32`, `or 1`) and
 * mscale 0 as unset (`if mscale and mscale_all_dim`): accepted, with
 * those meanings (tests/ref/rope_ref.py yarn_16_mscale0 = yarn_16_trunc). */
Test(rope, yarn_zero_means_unset_as_in_hf)
{
	struct pe_config c = rope_cfg(16, 10000.0, PE_ROPE_YARN);
	c.rope.factor = 8.0;
	c.rope.original_max_pos = 64;
	c.rope.beta_fast = 0.0;
	c.rope.beta_slow = 0.0;
	c.rope.mscale = 0.0;
	c.rope.mscale_all_dim = 1.0;
	expect_rope(&c, ref_yarn_16_mscale0, N(ref_yarn_16_mscale0),
	            att_yarn_16_mscale0, "yarn zeros");
	c.rope.mscale = 1.0;
	c.rope.mscale_all_dim = 0.0;
	expect_rope(&c, ref_yarn_16_trunc, N(ref_yarn_16_trunc),
	            att_yarn_16_trunc, "yarn mscale_all_dim 0");
	double bf, bs;
	pe_rope_yarn_betas(&c.rope, &bf, &bs);
	cr_expect(bf == 32.0 && bs == 1.0);
	/* only one given as 0: beta_fast 0 is 32, so beta_slow 40 is refused */
	char why[256];
	c.rope.beta_slow = 40.0;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "beta_fast") != NULL, "%s", why);
	c.rope.beta_slow = 0.0;
	c.rope.mscale = -1.0;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_EINVAL);
}

/* A configuration whose tables are not finite is refused, with a sentence
 * naming the option: HF raises for longrope's ln 1, the others
 * would write inf or NaN. */
Test(rope, non_finite_tables_are_refused)
{
	static const double ones[4] = {1, 1, 1, 1};
	static const double tiny[4] = {1e-320, 1, 1, 1};
	struct {
		struct pe_config c;
		const char *needle;
	} cases[6];
	char why[512];
	size_t nc = 0;

	/* longrope, --original-max-pos 1: sqrt(1 + ln(factor) / ln 1) */
	struct pe_config c = rope_cfg(8, 10000.0, PE_ROPE_LONGROPE);
	c.rope.short_factor = c.rope.long_factor = ones;
	c.rope.n_short = c.rope.n_long = 4;
	c.rope.original_max_pos = 1;
	c.rope.max_pos = 4096;
	cases[nc].c = c, cases[nc++].needle = "original_max_pos 1";
	/* longrope, a short factor of 1e-320: inv_freq 1 / 1e-320 = inf */
	c.rope.short_factor = tiny;
	c.rope.original_max_pos = 4096;
	cases[nc].c = c, cases[nc++].needle = "short_factor";
	/* the same through the long list past the original length */
	c.rope.short_factor = ones;
	c.rope.long_factor = tiny;
	c.n = 5000;
	cases[nc].c = c, cases[nc++].needle = "long_factor";
	/* yarn: get_mscale(1e308, 1e308) / get_mscale(1e308, 1e308) = inf/inf */
	c = rope_cfg(8, 10000.0, PE_ROPE_YARN);
	c.rope.factor = 1e308;
	c.rope.mscale = 1e308;
	c.rope.mscale_all_dim = 1e308;
	cases[nc].c = c, cases[nc++].needle = "mscale";
	/* linear: inv_freq / 1e308 underflows; wavelength 2 pi / it = inf */
	c = rope_cfg(8, 10000.0, PE_ROPE_LINEAR);
	c.rope.factor = 1e308;
	cases[nc].c = c, cases[nc++].needle = "factor";
	/* yarn: an attention factor whose square times d overflows */
	c = rope_cfg(8, 10000.0, PE_ROPE_YARN);
	c.rope.attention_factor = 1e160;
	cases[nc].c = c, cases[nc++].needle = "attention_factor";

	for (size_t k = 0; k < nc; k++) {
		why[0] = '\0';
		cr_expect_eq(pe_config_check(&cases[k].c, why, sizeof why),
		             PE_EINVAL, "case %zu accepted", k);
		cr_expect(strstr(why, cases[k].needle) != NULL,
		          "case %zu: '%s' lacks '%s'", k, why, cases[k].needle);
	}
	/* HF's division by ln 1 only happens when factor > 1 */
	c = cases[0].c;
	c.rope.max_pos = 1;
	cr_expect_eq(pe_config_check(&c, why, sizeof why), PE_OK, "%s", why);
}
