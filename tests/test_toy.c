/* Issue 11's kernel: the toy attention over a sentence, against the
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
#include "pescope/learned.h"
#include "pescope/relative.h"
#include "pescope/rope.h"
#include "pescope/sinusoidal.h"
#include "pescope/toy.h"

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
	cr_expect(strstr(why, "--tokens") && strstr(why, "max_len"), "%s", why);
	double sc[25];
	cr_expect_eq(pe_toy_scores(&c, &s, 0, sc), PE_EINVAL);

	c = config(PE_ENC_ALIBI, 4);
	c.teach.mask = PE_TOY_MASK_NONE;
	cr_expect_eq(pe_toy_check(&c, &s, 0, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "--mask none") && strstr(why, "causal"), "%s", why);
	c.teach.mask = PE_TOY_MASK_AUTO;
	cr_expect_eq(pe_toy_check(&c, &s, 8, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "--head 8") != NULL, "%s", why);

	c = config(PE_ENC_RELATIVE, 4);
	cr_expect_eq(pe_toy_check(&c, &s, 0, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "learned") && strstr(why, "--bias-file"), "%s",
	    why);
	double bias[31] = {0};
	c.teach.bias = bias;
	c.teach.bias_heads = 1;
	c.teach.bias_len = 31;
	cr_expect_eq(pe_toy_check(&c, &s, 0, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "--bias-file") && strstr(why, "32"), "%s", why);

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
	cr_expect(strstr(why, "--tokens") && strstr(why, "1..64"), "%s", why);
	c.teach.tokens = "a b";
	size_t p[3] = {0, 1, 2};
	c.teach.permute = p;
	c.teach.n_permute = 3;
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "--permute") && strstr(why, "0..1"), "%s", why);
	c.teach.n_permute = 2;
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_OK, "%s", why);
	double x[3] = {1, 2, 3};
	c.teach.embedding = x;
	c.teach.n_embedding = 3;
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "--embedding") && strstr(why, "4"), "%s", why);
	/* a shaw bias needs 2K+1 numbers per head */
	c = config(PE_ENC_RELATIVE, 4);
	c.relative = PE_REL_SHAW;
	c.max_relative = 2;
	double b[6] = {0};
	c.teach.bias = b;
	c.teach.bias_heads = 1;
	c.teach.bias_len = 6;
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "--bias-file") && strstr(why, "5"), "%s", why);
	c.teach.bias_len = 5;
	cr_expect_eq(pe_teach_check(&c, why, sizeof why), PE_OK, "%s", why);
}
