/* The teaching kernel: the toy attention over a sentence, against the
 * transcription in tests/ref/toy_ref.py and against the properties every
 * lecture states (self-attention alone is permutation invariant; softmax
 * rows sum to 1; masked scores are -inf). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"
#include "pescope/alibi.h"
#include "pescope/example.h"
#include "pescope/learned.h"
#include "pescope/nope.h"
#include "pescope/relative.h"
#include "pescope/rope.h"
#include "pescope/sinusoidal.h"
#include "pescope/toy.h"
#include "kernel/testing.h"

/* A config of encoding enc with width d, checked. */
static struct pe_config
config(enum pe_encoding enc, size_t d)
{
	struct pe_config c;
	char why[256];
	pe_config_default(&c);
	c.enc = enc;
	c.d = d;
	cr_assert_eq(pe_config_check(&c, why, sizeof why), PE_OK, "%s", why);
	return c;
}

/* The default sentence, split. */
static struct pe_toy_sentence
sentence(const char *text)
{
	struct pe_toy_sentence s;
	cr_assert_eq(pe_toy_split(text, &s), PE_OK);
	return s;
}

Test(toy_split, white_space_and_limits)
{
	struct pe_toy_sentence s;
	cr_assert_eq(pe_toy_split(NULL, &s), PE_OK);
	cr_assert_eq(s.count, 5);
	cr_expect_eq(s.len[2], 3);
	cr_expect_eq(strncmp(s.word[2], "bit", 3), 0);
	cr_assert_eq(pe_toy_split("  a\tbb\n\vccc\f\rd  ", &s), PE_OK);
	cr_assert_eq(s.count, 4);
	cr_expect(s.len[0] == 1 && s.len[1] == 2 && s.len[2] == 3 &&
	    s.len[3] == 1);
	cr_expect_eq(pe_toy_split("", &s), PE_EINVAL);
	cr_expect_eq(pe_toy_split(" \t\n", &s), PE_EINVAL);
	char many[3 * 66];
	many[0] = '\0';
	for (int i = 0; i < 64; i++)
		strcat(many, "w ");
	cr_expect_eq(pe_toy_split(many, &s), PE_OK);
	cr_expect_eq(s.count, 64);
	strcat(many, "w");
	cr_expect_eq(pe_toy_split(many, &s), PE_ERANGE);
}

/* FNV-1a 64, splitmix64 and Box-Muller as toy.h defines them; the numbers
 * are tests/ref/toy_ref.py's (FNV-1a of "a" is the published test vector
 * 0xaf63dc4c8601ec8c; the seed shows through the first draw). */
Test(toy_embedding, matches_the_transcription)
{
	static const double the[5] = {0.043240963069249003, 0.045426207918859603,
	    0.2976842424736254, 0.53527388724434333, -2.0814608954866602};
	static const double dog[5] = {-0.34797477987914827,
	    -0.13030328360451421, -0.2356709117553987, 0.4837410348110372,
	    0.88910088706944224};
	double x[5], y[9];
	pe_toy_embedding("the", 3, 5, x);
	for (int k = 0; k < 5; k++)
		cr_expect(th_close(x[k], the[k], 0, 1e-14), "the[%d] %.17g", k, x[k]);
	pe_toy_embedding("dog", 3, 5, x);
	for (int k = 0; k < 5; k++)
		cr_expect(th_close(x[k], dog[k], 0, 1e-14), "dog[%d] %.17g", k, x[k]);
	/* a wider vector starts with the narrower one */
	pe_toy_embedding("dog", 3, 9, y);
	for (int k = 0; k < 5; k++)
		cr_expect_eq(x[k], y[k]);

	/* same word, same vector, wherever it stands */
	struct pe_toy_sentence s = sentence(NULL);
	double e[5 * 6];
	cr_assert_eq(pe_toy_embeddings(&s, 6, e), PE_OK);
	cr_expect_eq(memcmp(e, e + 3 * 6, 6 * sizeof *e), 0);
	cr_expect_neq(memcmp(e, e + 1 * 6, 6 * sizeof *e), 0);
}

/* The default permutation is "the man bit the dog"; another sentence's is
 * its reversal; --permute wins and is checked. */
Test(toy_permute, defaults_and_checks)
{
	struct pe_config c = config(PE_ENC_NOPE, 8);
	struct pe_toy_sentence s = sentence(NULL), p;
	size_t perm[PE_TOY_MAX_TOKENS];
	cr_assert_eq(pe_toy_permutation(&c, &s, perm), PE_OK);
	size_t want[5] = {0, 4, 2, 3, 1};
	cr_expect_eq(memcmp(perm, want, sizeof want), 0);
	cr_assert_eq(pe_toy_permute(&s, perm, &p), PE_OK);
	cr_expect_eq(strncmp(p.word[1], "man", 3), 0);
	cr_expect_eq(strncmp(p.word[4], "dog", 3), 0);

	struct pe_toy_sentence t = sentence("the  dog bit\tthe man");
	cr_assert_eq(pe_toy_permutation(&c, &t, perm), PE_OK);
	cr_expect_eq(memcmp(perm, want, sizeof want), 0);

	struct pe_toy_sentence u = sentence("a b c");
	cr_assert_eq(pe_toy_permutation(&c, &u, perm), PE_OK);
	cr_expect(perm[0] == 2 && perm[1] == 1 && perm[2] == 0);

	size_t given[5] = {1, 0, 2, 3, 4};
	c.teach.permute = given;
	c.teach.n_permute = 5;
	cr_assert_eq(pe_toy_permutation(&c, &s, perm), PE_OK);
	cr_expect_eq(memcmp(perm, given, sizeof given), 0);
	c.teach.n_permute = 4;
	cr_expect_eq(pe_toy_permutation(&c, &s, perm), PE_EINVAL);

	size_t bad[5] = {0, 1, 1, 3, 4}, out[5] = {0, 1, 2, 3, 5};
	cr_expect_eq(pe_toy_permute(&s, bad, &p), PE_EINVAL);
	cr_expect_eq(pe_toy_permute(&s, out, &p), PE_EINVAL);
}

/* NoPE, d = 4, no mask: the numbers of tests/ref/toy_ref.py. */
Test(toy_scores, nope_matches_the_transcription)
{
	static const double row1[5] = {0.083906239312308756, 0.2138057802788671,
	    0.14235880888635563, 0.083906239312308756, -0.18896708370520809};
	static const double att1[5] = {0.20160892432890967, 0.22957490132614278,
	    0.21374471284780366, 0.20160892432890967, 0.1534625371682343};
	struct pe_config c = config(PE_ENC_NOPE, 4);
	c.teach.mask = PE_TOY_MASK_NONE;
	struct pe_toy_sentence s = sentence(NULL);
	double sc[25], a[25];
	cr_assert_eq(pe_toy_scores(&c, &s, 0, sc), PE_OK);
	cr_assert_eq(pe_toy_attention(&c, &s, 0, a), PE_OK);
	for (int j = 0; j < 5; j++) {
		cr_expect(th_close(sc[5 + j], row1[j], 1e-15, 1e-14), "%d", j);
		cr_expect(th_close(a[5 + j], att1[j], 1e-15, 1e-14), "%d", j);
	}
}

/* Every encoding with a toy attention: rows sum to 1, masked scores are
 * -inf and weigh exactly 0, the rest is finite. */
struct enc_case {
	enum pe_encoding enc;
	enum pe_toy_mask mask;
	bool causal;
};

ParameterizedTestParameters(toy_attention, rows_and_mask)
{
	static struct enc_case cases[] = {
		{PE_ENC_SINUSOIDAL, PE_TOY_MASK_AUTO, false},
		{PE_ENC_SINUSOIDAL, PE_TOY_MASK_CAUSAL, true},
		{PE_ENC_LEARNED, PE_TOY_MASK_AUTO, false},
		{PE_ENC_ROPE, PE_TOY_MASK_AUTO, false},
		{PE_ENC_ROPE, PE_TOY_MASK_CAUSAL, true},
		{PE_ENC_ALIBI, PE_TOY_MASK_AUTO, true},
		{PE_ENC_ALIBI, PE_TOY_MASK_CAUSAL, true},
		{PE_ENC_NOPE, PE_TOY_MASK_AUTO, true},
		{PE_ENC_NOPE, PE_TOY_MASK_NONE, false},
		{PE_ENC_RELATIVE, PE_TOY_MASK_AUTO, false},
		{PE_ENC_RELATIVE, PE_TOY_MASK_CAUSAL, true},
	};
	return cr_make_param_array(struct enc_case, cases,
	    sizeof cases / sizeof cases[0]);
}

ParameterizedTest(struct enc_case *k, toy_attention, rows_and_mask)
{
	struct pe_config c = config(k->enc, 8);
	double table[64 * 8], bias[32];
	if (k->enc == PE_ENC_LEARNED) {
		pe_learned_init(64, 8, 7, table);
		c.table = table;
		c.max_len = 64;
	}
	if (k->enc == PE_ENC_RELATIVE) {
		for (int b = 0; b < 32; b++)
			bias[b] = 0.1 * b - 1.0;
		c.teach.bias = bias;
		c.teach.bias_heads = 1;
		c.teach.bias_len = 32;
	}
	c.teach.mask = k->mask;
	cr_expect_eq(pe_toy_causal(&c), k->causal);
	struct pe_toy_sentence s = sentence("a rose is a rose is a rose");
	size_t t = s.count;
	double sc[64], a[64];
	char why[256] = "";
	cr_assert_eq(pe_toy_check(&c, &s, 0, why, sizeof why), PE_OK, "%s", why);
	cr_assert_eq(pe_toy_scores(&c, &s, 0, sc), PE_OK);
	cr_assert_eq(pe_toy_attention(&c, &s, 0, a), PE_OK);
	for (size_t i = 0; i < t; i++) {
		double sum = 0;
		for (size_t j = 0; j < t; j++) {
			double v = sc[i * t + j], w = a[i * t + j];
			if (k->causal && j > i) {
				cr_expect(isinf(v) && v < 0, "%zu,%zu: %g", i, j, v);
				cr_expect_eq(w, 0.0);
			} else {
				cr_expect(isfinite(v));
				cr_expect(w > 0);
			}
			sum += w;
		}
		cr_expect(th_close(sum, 1.0, 1e-15, 0), "row %zu sums to %.17g", i,
		    sum);
	}
}

/* The toy's own formula, by hand, for each kind of q and bias. */
Test(toy_scores, each_encoding_by_hand)
{
	struct pe_toy_sentence s = sentence("x y z w");
	double x[4 * 6], q[4 * 6], sc[16];
	cr_assert_eq(pe_toy_embeddings(&s, 6, x), PE_OK);

	/* sinusoidal (split layout): q_i = x_i + PE(i) */
	struct pe_config c = config(PE_ENC_SINUSOIDAL, 6);
	c.layout = PE_LAYOUT_SPLIT;
	for (size_t i = 0; i < 4; i++)
		for (size_t k = 0; k < 6; k++)
			q[i * 6 + k] = x[i * 6 + k] +
			    pe_sinusoidal_value(i, k, 6, c.base, c.layout);
	cr_assert_eq(pe_toy_scores(&c, &s, 0, sc), PE_OK);
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < 4; j++) {
			double dot = 0;
			for (size_t k = 0; k < 6; k++)
				dot += q[i * 6 + k] * q[j * 6 + k];
			cr_expect(th_close(sc[i * 4 + j], dot / sqrt(6.0), 1e-14, 1e-14));
		}

	/* alibi head 2 of 4, causal: x_i.x_j / sqrt(d) - m (i - j) */
	c = config(PE_ENC_ALIBI, 6);
	c.heads = 4;
	double m[4];
	pe_alibi_slopes(4, m);
	cr_assert_eq(pe_toy_scores(&c, &s, 2, sc), PE_OK);
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j <= i; j++) {
			double dot = 0;
			for (size_t k = 0; k < 6; k++)
				dot += x[i * 6 + k] * x[j * 6 + k];
			cr_expect(th_close(sc[i * 4 + j], dot / sqrt(6.0) -
			    m[2] * (double)(i - j), 1e-14, 1e-14));
		}
	/* symmetric mode: no mask by default, -m |i - j| above too */
	c.alibi_mode = PE_ALIBI_SYMMETRIC;
	cr_assert_eq(pe_toy_scores(&c, &s, 2, sc), PE_OK);
	cr_expect(isfinite(sc[0 * 4 + 3]));

	/* shaw K = 1, two heads: bias[head, clip(j - i, -1, 1) + 1] */
	c = config(PE_ENC_RELATIVE, 6);
	c.relative = PE_REL_SHAW;
	c.max_relative = 1;
	double bias[2 * 3] = {0, 0, 0, -1.5, 0.25, 2.0};
	c.teach.bias = bias;
	c.teach.bias_heads = 2;
	c.teach.bias_len = 3;
	cr_assert_eq(pe_toy_scores(&c, &s, 1, sc), PE_OK);
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < 4; j++) {
			double dot = 0;
			for (size_t k = 0; k < 6; k++)
				dot += x[i * 6 + k] * x[j * 6 + k];
			int64_t idx = pe_shaw_index((int64_t)j - (int64_t)i, 1);
			cr_expect(th_close(sc[i * 4 + j], dot / sqrt(6.0) +
			    bias[3 + idx], 1e-14, 1e-14));
		}
}

/* RoPE in the toy: q_i = R_i x_i with HF's rotation, attention scaling
 * included, partial rotary passing the rest through. */
Test(toy_scores, rope_rotates_by_position)
{
	struct pe_toy_sentence s = sentence("x y z");
	double x[3 * 8], q[3 * 8], sc[9];
	cr_assert_eq(pe_toy_embeddings(&s, 8, x), PE_OK);
	struct pe_config c = config(PE_ENC_ROPE, 8);
	c.rope.type = PE_ROPE_YARN;
	c.rope.factor = 4;
	c.rope.original_max_pos = 16;
	c.rope.partial_rotary = 0.5;
	c.pairing = PE_PAIR_INTERLEAVED;
	struct pe_rope r;
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	cr_assert(r.attention_scaling > 1.0);
	for (size_t i = 0; i < 3; i++) {
		for (size_t k = 0; k < 8; k++)
			q[i * 8 + k] = x[i * 8 + k];
		for (size_t j = 0; j < r.npairs; j++) {
			double t = (double)i * r.inv_freq[j];
			double a = x[i * 8 + 2 * j], b = x[i * 8 + 2 * j + 1];
			q[i * 8 + 2 * j] = r.attention_scaling * (a * cos(t) - b * sin(t));
			q[i * 8 + 2 * j + 1] =
			    r.attention_scaling * (b * cos(t) + a * sin(t));
		}
	}
	pe_rope_free(&r);
	cr_assert_eq(pe_toy_scores(&c, &s, 0, sc), PE_OK);
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 3; j++) {
			double dot = 0;
			for (size_t k = 0; k < 8; k++)
				dot += q[i * 8 + k] * q[j * 8 + k];
			cr_expect(th_close(sc[i * 3 + j], dot / sqrt(8.0), 1e-14, 1e-14),
			    "%zu,%zu: %.17g vs %.17g", i, j, sc[i * 3 + j],
			    dot / sqrt(8.0));
		}
}

/* Self-attention alone is permutation invariant: for NoPE without a mask,
 * P A' P^T equals A up to rounding, for any sentence and permutation; a
 * positional encoding (or the causal mask) breaks it clearly. */
Test(toy_permutation, nope_is_invariant)
{
	const char *texts[] = {NULL, "a b c d e f g h", "one two three two one"};
	for (size_t k = 0; k < 3; k++) {
		struct pe_toy_sentence s = sentence(texts[k]);
		struct pe_config c = config(PE_ENC_NOPE, 16);
		c.teach.mask = PE_TOY_MASK_NONE;
		size_t perm[PE_TOY_MAX_TOKENS];
		cr_assert_eq(pe_toy_permutation(&c, &s, perm), PE_OK);
		double gap = -1;
		cr_assert_eq(pe_toy_permutation_gap(&c, &s, perm, 0, &gap), PE_OK);
		cr_expect(gap >= 0 && gap < 1e-15, "%s: %g", texts[k], gap);

		c.teach.mask = PE_TOY_MASK_AUTO; /* causal */
		cr_assert_eq(pe_toy_permutation_gap(&c, &s, perm, 0, &gap), PE_OK);
		cr_expect(gap > 1e-3, "nope causal: %g", gap);
		c = config(PE_ENC_SINUSOIDAL, 16);
		cr_assert_eq(pe_toy_permutation_gap(&c, &s, perm, 0, &gap), PE_OK);
		cr_expect(gap > 1e-3, "sinusoidal: %g", gap);
		c = config(PE_ENC_ROPE, 16);
		cr_assert_eq(pe_toy_permutation_gap(&c, &s, perm, 0, &gap), PE_OK);
		cr_expect(gap > 1e-3, "rope: %g", gap);
	}
	/* the identity maps back to itself exactly */
	struct pe_config c = config(PE_ENC_SINUSOIDAL, 16);
	struct pe_toy_sentence s = sentence(NULL);
	size_t id[5] = {0, 1, 2, 3, 4}, bad[5] = {0, 0, 2, 3, 4};
	double gap = -1;
	cr_assert_eq(pe_toy_permutation_gap(&c, &s, id, 0, &gap), PE_OK);
	cr_expect_eq(gap, 0.0);
	cr_expect_eq(pe_toy_permutation_gap(&c, &s, bad, 0, &gap), PE_EINVAL);
}

/* The refusals, each a sentence naming the option. */
Test(toy_check, refusals_name_the_option)
{
	char why[256];
	struct pe_toy_sentence s = sentence(NULL);

	struct pe_config c = config(PE_ENC_LEARNED, 4);
	double table[3 * 4] = {0};
	c.table = table;
	c.max_len = 3;
	cr_expect_eq(pe_toy_check(&c, &s, 0, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "tokens") && strstr(why, "max_len"), "%s", why);
	double sc[25];
	cr_expect_eq(pe_toy_scores(&c, &s, 0, sc), PE_EINVAL);

	c = config(PE_ENC_ALIBI, 4);
	c.teach.mask = PE_TOY_MASK_NONE;
	cr_expect_eq(pe_toy_check(&c, &s, 0, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "mask none") && strstr(why, "causal"), "%s", why);
	c.teach.mask = PE_TOY_MASK_AUTO;
	cr_expect_eq(pe_toy_check(&c, &s, 8, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "head 8") != NULL, "%s", why);

	c = config(PE_ENC_RELATIVE, 4);
	cr_expect_eq(pe_toy_check(&c, &s, 0, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "learned") && strstr(why, "bias_file"), "%s",
	    why);
	double bias[31] = {0};
	c.teach.bias = bias;
	c.teach.bias_heads = 1;
	c.teach.bias_len = 31;
	cr_expect_eq(pe_toy_check(&c, &s, 0, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "bias_file") && strstr(why, "32"), "%s", why);

	c = config(PE_ENC_VIT2D, 8);
	cr_expect_eq(pe_toy_check(&c, &s, 0, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "vit2d") != NULL, "%s", why);

	cr_expect_eq(pe_toy_softmax(0, sc, sc), PE_EINVAL);
	double inf[4] = {-INFINITY, -INFINITY, 0, 1};
	cr_expect_eq(pe_toy_softmax(2, inf, inf), PE_EINVAL);
}

/* pe_teach_check: the inputs against the config. */
Test(teach_check, inputs_against_the_config)
{
	char why[256];
	struct pe_config c = config(PE_ENC_SINUSOIDAL, 4);
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_OK);
	c.teach.tokens = " ";
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "tokens") && strstr(why, "1..64"), "%s", why);
	c.teach.tokens = "a b";
	size_t p[3] = {0, 1, 2};
	c.teach.permute = p;
	c.teach.n_permute = 3;
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "permute") && strstr(why, "0..1"), "%s", why);
	c.teach.n_permute = 2;
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_OK, "%s", why);
	double x[3] = {1, 2, 3};
	c.teach.embedding = x;
	c.teach.n_embedding = 3;
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "embedding") && strstr(why, "4"), "%s", why);
	/* a shaw bias needs 2K+1 numbers per head */
	c = config(PE_ENC_RELATIVE, 4);
	c.relative = PE_REL_SHAW;
	c.max_relative = 2;
	double b[6] = {0};
	c.teach.bias = b;
	c.teach.bias_heads = 1;
	c.teach.bias_len = 6;
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "bias_file") && strstr(why, "5"), "%s", why);
	c.teach.bias_len = 5;
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_OK, "%s", why);
}

/* The worked example: x = [0.51, -0.22, 0.88, 0.14] plus PE(0) = [0, 1, 0,
 * 1] is [0.51, 0.78, 0.88, 1.14]; at position 5 it is something else. */
Test(example, sum_at_0_and_5)
{
	static const double x[4] = {0.51, -0.22, 0.88, 0.14};
	static const double want0[4] = {0.51, 0.78, 0.88, 1.14};
	struct pe_config c = config(PE_ENC_SINUSOIDAL, 4);
	double v[6 * 4];
	cr_assert_eq(pe_example_sum(&c, x, 0, 6, v), PE_OK);
	for (int k = 0; k < 4; k++) {
		cr_expect(th_close(v[k], want0[k], 1e-15, 0), "%d: %.17g", k, v[k]);
		double pe5 = pe_sinusoidal_value(5, (size_t)k, 4, 10000, c.layout);
		cr_expect_eq(v[5 * 4 + k], x[k] + pe5);
	}
	cr_expect(fabs(v[5 * 4 + 0] - want0[0]) > 0.5);

	/* |x + PE(p)| and the angle, against a direct computation */
	for (size_t p = 0; p < 6; p++) {
		double y[4], n, ang, dot = 0, nx = 0, ny = 0;
		for (int k = 0; k < 4; k++) {
			y[k] = v[p * 4 + k];
			dot += x[k] * y[k], nx += x[k] * x[k], ny += y[k] * y[k];
		}
		cr_assert_eq(pe_example_sum_norm(&c, x, p, &n), PE_OK);
		cr_expect(th_close(n, sqrt(ny), 1e-15, 1e-15));
		cr_assert_eq(pe_example_sum_angle(&c, x, p, &ang), PE_OK);
		cr_expect(th_close(ang, acos(dot / sqrt(nx * ny)), 1e-12, 0),
		    "p %zu: %.17g", p, ang);
	}
	cr_expect(th_close(pe_example_norm(x, 4), sqrt(0.51 * 0.51 + 0.22 * 0.22
	    + 0.88 * 0.88 + 0.14 * 0.14), 1e-15, 1e-15));
	/* the zero vector has no direction */
	double z[4] = {0}, ang;
	cr_assert_eq(pe_example_sum_angle(&c, z, 1, &ang), PE_OK);
	cr_expect(isnan(ang));

	/* learned: NaN past max_len, and the norm refuses there */
	struct pe_config l = config(PE_ENC_LEARNED, 4);
	double table[2 * 4] = {1, 2, 3, 4, 5, 6, 7, 8}, n;
	l.table = table;
	l.max_len = 2;
	cr_assert_eq(pe_example_sum(&l, x, 1, 2, v), PE_OK);
	cr_expect_eq(v[0], 0.51 + 5);
	cr_expect(isnan(v[4]));
	cr_expect_eq(pe_example_sum_norm(&l, x, 2, &n), PE_ERANGE);
	cr_expect(isnan(n));
	struct pe_config r = config(PE_ENC_ROPE, 4);
	cr_expect_eq(pe_example_sum(&r, x, 0, 1, v), PE_EINVAL);
}

/* Rotation keeps the magnitude: |R_p x| = |x| when the attention scaling
 * is 1, att |x| with every dim rotating, sqrt(att^2 |x_rot|^2 +
 * |x_pass|^2) under partial rotary. */
Test(example, rotation_keeps_the_norm)
{
	double x[16], v[16];
	struct pe_toy_sentence s = sentence("token");
	cr_assert_eq(pe_toy_embeddings(&s, 16, x), PE_OK);
	double nx = pe_example_norm(x, 16);

	struct pe_config c = config(PE_ENC_ROPE, 16);
	struct pe_rope r;
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	cr_assert_eq(pe_example_rotated(&r, x, 0, 1, v), PE_OK);
	for (int k = 0; k < 16; k++)
		cr_expect_eq(v[k], x[k]); /* R_0 = I */
	for (size_t p = 0; p < 5000; p += 37) {
		double n;
		cr_assert_eq(pe_example_rotated_norm(&r, x, p, &n), PE_OK);
		cr_expect(th_close(n, nx, 0, 1e-15), "p %zu: %.17g vs %.17g", p, n,
		    nx);
	}
	pe_rope_free(&r);

	c.rope.type = PE_ROPE_YARN;
	c.rope.factor = 8;
	c.rope.original_max_pos = 64;
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	double att = r.attention_scaling, n;
	cr_assert(att > 1.1);
	cr_assert_eq(pe_example_rotated_norm(&r, x, 123, &n), PE_OK);
	cr_expect(th_close(n, att * nx, 0, 1e-15));
	pe_rope_free(&r);

	c.rope.partial_rotary = 0.25; /* dims 0..3 rotate, 4..15 pass */
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	cr_assert_eq(pe_example_rotated(&r, x, 9, 1, v), PE_OK);
	for (int k = 4; k < 16; k++)
		cr_expect_eq(v[k], x[k]);
	double rot2 = 0, pass2 = 0;
	for (int k = 0; k < 16; k++)
		*(k < 4 ? &rot2 : &pass2) += x[k] * x[k];
	cr_assert_eq(pe_example_rotated_norm(&r, x, 9, &n), PE_OK);
	cr_expect(th_close(n, sqrt(att * att * rot2 + pass2), 0, 1e-15));
	pe_rope_free(&r);
}

/* PE(p + K) = M_K PE(p) at rounding level, for every layout and shift, with
 * the dense matrix as dump writes it; M_K M_-K = I; M_0 = I. */
ParameterizedTestParameters(shift, residual_every_layout)
{
	static enum pe_layout layouts[] = {PE_LAYOUT_INTERLEAVED,
		PE_LAYOUT_SPLIT, PE_LAYOUT_T2T};
	return cr_make_param_array(enum pe_layout, layouts, 3);
}

ParameterizedTest(enum pe_layout *lay, shift, residual_every_layout)
{
	enum { N = 60, D = 16 };
	static const int64_t ks[] = {-59, -7, -1, 0, 1, 5, 59};
	double pe[N * D], m[D * D], mi[D * D];
	cr_assert_eq(pe_sinusoidal_fill(0, N, D, 10000, *lay, pe), PE_OK);
	for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
		int64_t k = ks[t];
		cr_assert_eq(pe_sinusoidal_shift(D, 10000, *lay, k, m), PE_OK);
		double worst = 0;
		for (int64_t p = 0; p < N; p++) {
			if (p + k < 0 || p + k >= N)
				continue;
			for (int r = 0; r < D; r++) {
				double y = 0;
				int nonzero = 0;
				for (int c = 0; c < D; c++) {
					y += m[r * D + c] * pe[p * D + c];
					nonzero += m[r * D + c] != 0;
				}
				cr_expect(nonzero <= 2);
				worst = fmax(worst, fabs(pe[(p + k) * D + r] - y));
			}
		}
		cr_expect(worst < 1e-13, "K %lld: dense residual %g", (long long)k,
		    worst);
		double res = -1;
		cr_assert_eq(pe_sinusoidal_shift_residual(N, D, 10000, *lay, k, 0, N,
		    &res), PE_OK);
		cr_expect(res >= 0 && res < 1e-13, "K %lld: residual %g",
		    (long long)k, res);
		/* M_K M_-K = I */
		cr_assert_eq(pe_sinusoidal_shift(D, 10000, *lay, -k, mi), PE_OK);
		for (int r = 0; r < D; r++)
			for (int c = 0; c < D; c++) {
				double e = 0;
				for (int j = 0; j < D; j++)
					e += m[r * D + j] * mi[j * D + c];
				cr_expect(th_close(e, r == c, 1e-15, 0));
			}
	}
	cr_assert_eq(pe_sinusoidal_shift(D, 10000, *lay, 0, m), PE_OK);
	for (int r = 0; r < D; r++)
		for (int c = 0; c < D; c++)
			cr_expect_eq(m[r * D + c], r == c ? 1.0 : 0.0);
	double res;
	cr_expect_eq(pe_sinusoidal_shift_residual(N, D, 10000, *lay, N, 0, N,
	    &res), PE_EINVAL);
	cr_expect_eq(pe_sinusoidal_shift_residual(N, D, 10000, *lay, -5, 0, 5,
	    &res), PE_EINVAL);
	/* at a million positions the angles alone round at ~1e-10 */
	cr_assert_eq(pe_sinusoidal_shift_residual(1u << 20, D, 10000, *lay, 3,
	    (1u << 20) - 1000, 1u << 20, &res), PE_OK);
	cr_expect(res < 1e-9, "%g", res);
}

/* RoFormer's bound, by hand for d = 4 (w_0 = 1, w_1 = 1/100): |S_1| = 1,
 * |S_2| = |e^{i r w_0} + e^{i r w_1}| = 2 |cos(r (w_0 - w_1) / 2)|; at
 * r = 0 every |S_j| = j: the mean is (P + 1) / 2. */
Test(rope_decay, by_hand)
{
	struct pe_config c = config(PE_ENC_ROPE, 4);
	struct pe_rope r;
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	for (size_t d = 0; d < 300; d += 7) {
		double want = (1 + 2 * fabs(cos((double)d * (1 - 0.01) / 2))) / 2;
		cr_expect(th_close(pe_rope_decay(&r, (double)d), want, 1e-13, 0),
		    "r %zu", d);
	}
	pe_rope_free(&r);

	c = config(PE_ENC_ROPE, 128);
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	double v[256];
	cr_assert_eq(pe_rope_decay_fill(&r, 0, 256, v), PE_OK);
	cr_expect(th_close(v[0], 32.5, 1e-12, 0));
	/* it decays: the mean over 200..255 is far below the start */
	double tail = 0;
	for (int k = 200; k < 256; k++)
		tail += v[k] / 56;
	cr_expect(tail < 0.5 * v[0], "%g", tail);
	pe_rope_free(&r);

	/* scaled frequencies: linear x2 halves every angle */
	c.rope.type = PE_ROPE_LINEAR;
	c.rope.factor = 2;
	struct pe_rope r2;
	cr_assert_eq(pe_rope_init(&r2, &c), PE_OK);
	c.rope.type = PE_ROPE_DEFAULT;
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	cr_expect(th_close(pe_rope_decay(&r2, 84), pe_rope_decay(&r, 42), 1e-12,
	    1e-12));
	pe_rope_free(&r);
	pe_rope_free(&r2);
	/* partial rotary: only the rotary pairs count */
	c.rope.partial_rotary = 0.25;
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	cr_expect(th_close(pe_rope_decay(&r, 0), (16 + 1) / 2.0, 1e-12, 0));
	pe_rope_free(&r);
}

/* The pairs whose wavelength exceeds L, by brute force; Llama 2 (d 128,
 * base 1e4, L 4096) has 18 of them, pairs 46..63. */
Test(rope_beyond, llama2_and_edges)
{
	struct pe_config c = config(PE_ENC_ROPE, 128);
	struct pe_rope r;
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	size_t idx[64];
	size_t n = pe_rope_beyond(&r, 4096, false, idx);
	cr_expect_eq(n, 18);
	cr_expect_eq(pe_rope_beyond(&r, 4096, false, NULL), n);
	for (size_t k = 0; k < n; k++)
		cr_expect_eq(idx[k], 46 + k);
	for (size_t j = 0; j < 64; j++) {
		bool over = 2 * M_PI / r.inv_freq[j] > 4096;
		cr_expect_eq(over, j >= 46, "pair %zu", j);
	}
	cr_expect_eq(pe_rope_beyond(&r, 1, false, NULL), 64);
	cr_expect_eq(pe_rope_beyond(&r, 1e12, false, NULL), 0);
	pe_rope_free(&r);

	/* scaled frequencies have longer wavelengths; orig keeps the old */
	c.rope.type = PE_ROPE_LINEAR;
	c.rope.factor = 4;
	cr_assert_eq(pe_rope_init(&r, &c), PE_OK);
	cr_expect_eq(pe_rope_beyond(&r, 4096, true, NULL), 18);
	cr_expect_gt(pe_rope_beyond(&r, 4096, false, NULL), 18);
	pe_rope_free(&r);
}

/* ALiBi's recency: each head's softmax over its biases, averaged; keys
 * after a causal query get nothing; a row sums to 1. */
Test(alibi_recency, average_of_heads)
{
	struct pe_config c = config(PE_ENC_ALIBI, 8);
	c.heads = 12;
	c.n = 40;
	double m[12], v[40];
	pe_alibi_slopes(12, m);
	for (int mode = 0; mode < 2; mode++) {
		c.alibi_mode = (enum pe_alibi_mode)mode;
		for (size_t i = 0; i < 40; i += 13) {
			cr_assert_eq(pe_alibi_recency_fill(&c, i, v), PE_OK);
			double sum = 0;
			for (size_t j = 0; j < 40; j++) {
				double want = 0;
				for (int h = 0; h < 12; h++) {
					double z = 0;
					for (size_t k = 0; k < 40; k++)
						if (mode == 1 || k <= i)
							z += exp(-m[h] * fabs((double)i - (double)k));
					if (mode == 1 || j <= i)
						want += exp(-m[h] * fabs((double)i - (double)j)) / z /
						    12;
				}
				cr_expect(th_close(v[j], want, 1e-15, 1e-13), "%zu,%zu", i, j);
				sum += v[j];
			}
			cr_expect(th_close(sum, 1, 1e-14, 0));
			/* a block is the mean of its keys */
			double blk = pe_alibi_recency(m, 12, c.alibi_mode, i, 40, 3, 11);
			double mean = 0;
			for (size_t j = 3; j < 11; j++)
				mean += v[j] / 8;
			cr_expect(th_close(blk, mean, 1e-15, 1e-13));
		}
	}
	cr_expect(isnan(pe_alibi_recency(m, 12, c.alibi_mode, 40, 40, 0, 1)));
	cr_expect_eq(pe_alibi_recency_fill(&c, 40, v), PE_EINVAL);
}

Test(nope, start_share)
{
	for (size_t i = 0; i < 100; i++)
		cr_expect_eq(pe_nope_start_share(i), 1.0 / (double)(i + 1));
}
