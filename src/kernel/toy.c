/* Toy attention over a sentence. The definition, with every
 * constant, is in include/pescope/toy.h; tests/ref/toy_ref.py transcribes
 * it independently. Scores are scaled dot-product attention (Vaswani et
 * al. 2017, eq. 1) with W_q = W_k = I; the biases are those of alibi.h and
 * relative.h; the rotation is rope.h's pe_rope_apply (HF). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pescope/attn.h"
#include "pescope/encoding.h"
#include "pescope/example.h"
#include "pescope/rope.h"
#include "pescope/toy.h"

#define TWO_PI 6.283185307179586476925286766559

/* printf into why[cap] (when there is one) and return PE_EINVAL. */
static int
toy_refuse(char *why, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int
toy_refuse(char *why, size_t cap, const char *fmt, ...)
{
	va_list ap;

	if (why != NULL && cap > 0) {
		va_start(ap, fmt);
		vsnprintf(why, cap, fmt, ap);
		va_end(ap);
	}
	return PE_EINVAL;
}

/* White space as Python's bytes.split() has it. */
static bool
toy_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' ||
	    c == '\r';
}

/* Number of words in text (any number, not capped). */
static size_t
toy_count_words(const char *p)
{
	size_t n = 0;

	while (*p != '\0') {
		while (*p != '\0' && toy_space(*p))
			p++;
		if (*p == '\0')
			break;
		n++;
		while (*p != '\0' && !toy_space(*p))
			p++;
	}
	return n;
}

/* Split text on white space into at most PE_TOY_MAX_TOKENS tokens. */
int
pe_toy_split(const char *text, struct pe_toy_sentence *dest)
{
	const char *p = text != NULL ? text : PE_TOY_SENTENCE;

	dest->count = 0;
	while (*p != '\0') {
		while (*p != '\0' && toy_space(*p))
			p++;
		if (*p == '\0')
			break;
		const char *w = p;
		while (*p != '\0' && !toy_space(*p))
			p++;
		if (dest->count == PE_TOY_MAX_TOKENS)
			return PE_ERANGE;
		dest->word[dest->count] = w;
		dest->len[dest->count] = (size_t)(p - w);
		dest->count++;
	}
	return dest->count == 0 ? PE_EINVAL : PE_OK;
}

/* Whether perm[t] holds each of 0..t-1 once. */
static bool
toy_is_permutation(const size_t *perm, size_t t)
{
	bool seen[PE_TOY_MAX_TOKENS] = {false};

	if (perm == NULL || t == 0 || t > PE_TOY_MAX_TOKENS)
		return false;
	for (size_t i = 0; i < t; i++) {
		if (perm[i] >= t || seen[perm[i]])
			return false;
		seen[perm[i]] = true;
	}
	return true;
}

/* Token i of dest is token perm[i] of s. */
int
pe_toy_permute(const struct pe_toy_sentence *s, const size_t *perm,
    struct pe_toy_sentence *dest)
{
	if (!toy_is_permutation(perm, s->count))
		return PE_EINVAL;
	dest->count = s->count;
	for (size_t i = 0; i < s->count; i++) {
		dest->word[i] = s->word[perm[i]];
		dest->len[i] = s->len[perm[i]];
	}
	return PE_OK;
}

/* Whether s has PE_TOY_SENTENCE's tokens. */
static bool
toy_is_default(const struct pe_toy_sentence *s)
{
	struct pe_toy_sentence def;

	pe_toy_split(NULL, &def);
	if (s->count != def.count)
		return false;
	for (size_t i = 0; i < s->count; i++)
		if (s->len[i] != def.len[i] ||
		    memcmp(s->word[i], def.word[i], s->len[i]) != 0)
			return false;
	return true;
}

/* permute, else "the man bit the dog", else the reversal. */
int
pe_toy_permutation(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t *dest)
{
	static const size_t swap[5] = {0, 4, 2, 3, 1};
	const struct pe_teach *t = &cfg->teach;
	size_t n = s->count;

	if (t->permute != NULL) {
		if (t->n_permute != n || !toy_is_permutation(t->permute, n))
			return PE_EINVAL;
		memcpy(dest, t->permute, n * sizeof *dest);
	} else if (toy_is_default(s)) {
		memcpy(dest, swap, sizeof swap);
	} else {
		for (size_t i = 0; i < n; i++)
			dest[i] = n - 1 - i;
	}
	return PE_OK;
}

/* FNV-1a 64 of len bytes (Fowler, Noll, Vo: offset basis
 * 0xcbf29ce484222325, prime 0x100000001b3). */
static uint64_t
toy_fnv1a64(const char *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t k = 0; k < len; k++) {
		h ^= (unsigned char)p[k];
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* splitmix64 (Steele, Lea & Flood 2014; Vigna's reference code). */
static uint64_t
toy_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform double in (0, 1]: the top 53 bits, shifted off zero. */
static double
toy_uniform(uint64_t *x)
{
	return (double)((toy_splitmix64(x) >> 11) + 1) * 0x1.0p-53;
}

/* One word's N(0, 1) vector: Box-Muller on splitmix64 seeded by FNV-1a. */
void
pe_toy_embedding(const char *word, size_t len, size_t d, double *dest)
{
	uint64_t state = toy_fnv1a64(word, len);

	for (size_t k = 0; k < d; k += 2) {
		double u1 = toy_uniform(&state);
		double u2 = toy_uniform(&state);
		double rad = sqrt(-2.0 * log(u1));
		dest[k] = rad * cos(TWO_PI * u2);
		if (k + 1 < d)
			dest[k + 1] = rad * sin(TWO_PI * u2);
	}
}

/* Each token's vector, row by row. */
int
pe_toy_embeddings(const struct pe_toy_sentence *s, size_t d, double *dest)
{
	if (d == 0 || dest == NULL)
		return PE_EINVAL;
	for (size_t i = 0; i < s->count; i++)
		pe_toy_embedding(s->word[i], s->len[i], d, dest + i * d);
	return PE_OK;
}

/* The layer's shape (pe_config_attn), --mask overriding its causality. */
void
pe_toy_attn(const struct pe_config *cfg, struct pe_attn *dest)
{
	pe_config_attn(cfg, dest);
	if (cfg->teach.mask == PE_TOY_MASK_CAUSAL)
		dest->causal = true;
	else if (cfg->teach.mask == PE_TOY_MASK_NONE)
		dest->causal = false;
}

/* Causal: mask causal, or the layer's and encoding's default. */
bool
pe_toy_causal(const struct pe_config *cfg)
{
	struct pe_attn t;

	pe_toy_attn(cfg, &t);
	return t.causal;
}

/* The encodings with a toy attention, "a, b or c", into buf. */
static const char *
toy_encodings(char *buf, size_t cap)
{
	unsigned mask = pe_encodings_with(PE_CAP_TOY);
	size_t total = 0, seen = 0, o = 0;

	buf[0] = '\0';
	for (int e = 0; e < PE_ENC_COUNT; e++)
		total += (mask >> e) & 1u;
	for (int e = 0; e < PE_ENC_COUNT && o < cap; e++) {
		if (!((mask >> e) & 1u))
			continue;
		o += (size_t)snprintf(buf + o, cap - o, "%s%s",
		    seen == 0 ? "" : seen == total - 1 ? " or " : ", ",
		    pe_encoding_name((enum pe_encoding)e));
		seen++;
	}
	return buf;
}

/* Whether the toy attention is defined for cfg, head and s. */
int
pe_toy_check(const struct pe_config *cfg, const struct pe_toy_sentence *s,
    size_t head, char *why, size_t cap)
{
	const struct pe_encoding_def *e = pe_config_def(cfg);
	char names[128];

	if (s == NULL || s->count == 0 || s->count > PE_TOY_MAX_TOKENS)
		return toy_refuse(why, cap, "tokens: the toy sentence needs "
		    "1..%d words", PE_TOY_MAX_TOKENS);
	if (e->toy == NULL)
		return toy_refuse(why, cap, "-e %s: the toy attention is over a "
		    "sentence, and %s has no rule for one; use %s", e->name,
		    e->name, toy_encodings(names, sizeof names));
	struct pe_attn at;
	pe_toy_attn(cfg, &at);
	if (at.sinks != NULL && head >= at.n_sinks)
		return toy_refuse(why, cap, "head %zu: the sinks are one logit "
		    "a head for %zu heads (0..%zu)", head, at.n_sinks,
		    at.n_sinks - 1);
	if (e->toy->check != NULL)
		return e->toy->check(cfg, s, head, why, cap);
	return PE_OK;
}

/* Give the embeddings q[T, d] their positions in place: x_i + PE(i)
 * (the row's vector) or R_i x_i (its rotation); the rest keep x_i. */
static int
toy_positions(const struct pe_config *cfg, size_t t, double *q)
{
	const struct pe_encoding_def *e = pe_config_def(cfg);
	size_t d = cfg->d;
	double *tmp;
	int rc = PE_OK;

	if (e->vector == NULL && e->rotate == NULL)
		return PE_OK;
	if ((tmp = malloc(t * d * sizeof *tmp)) == NULL)
		return PE_ENOMEM;
	if (e->vector != NULL) {
		rc = e->vector(cfg, 0, t, tmp);
		for (size_t k = 0; rc == PE_OK && k < t * d; k++)
			q[k] += tmp[k];
	} else if ((rc = e->rotate(cfg, 0, t, q, d, tmp)) == PE_OK) {
		memcpy(q, tmp, t * d * sizeof *q);
	}
	free(tmp);
	return rc;
}

/* Whether the toy scales its queries by Llama 4's temperature: a layer
 * that does not rotate (modeling_llama4.py: attn_temperature_tuning and
 * not use_rope). */
static bool
toy_temperature(const struct pe_attn *t, const struct pe_config *cfg)
{
	return t->temperature &&
	    pe_config_def(cfg)->attention != PE_ATTN_ROTATE;
}

/* The dimensions [*r0, *r1) that rotate (none: an empty range). */
static void
toy_rotated(const struct pe_config *cfg, size_t *r0, size_t *r1)
{
	*r0 = *r1 = 0;
	/* rope's rotation: the rows that read its rotary dims */
	if (pe_config_def(cfg)->attention != PE_ATTN_ROTATE ||
	    !(pe_config_def(cfg)->params & PE_PARAM_ROPE_SCALING))
		return;
	*r0 = pe_rope_rotary_offset(cfg);
	*r1 = *r0 + pe_rope_rotary_dim(cfg);
}

/* The scores with positions, and with parts (content: the dims that do
 * not rotate, position: those that do) when content is not NULL: each
 * q_i . q_j over its dims, / sqrt(d), times mscale^2 for a decoupled
 * head, times the query's temperature, plus b(i, j), -inf where masked. */
static int
toy_scores(const struct pe_config *cfg, const struct pe_toy_sentence *s,
    size_t head, double *dest, double *content, double *position)
{
	const struct pe_toy_rule *rule;
	struct pe_attn mask;
	size_t t, d = cfg->d, k0, k1;
	double *q = NULL, m2;
	int rc;

	if (dest == NULL || (rc = pe_toy_check(cfg, s, head, NULL, 0)) != PE_OK)
		return PE_EINVAL;
	rule = pe_config_def(cfg)->toy;
	t = s->count;
	if (d == 0 || d > SIZE_MAX / sizeof *q / t)
		return PE_EINVAL;
	if ((q = malloc(t * d * sizeof *q)) == NULL)
		return PE_ENOMEM;
	rc = pe_toy_embeddings(s, d, q);
	if (rc == PE_OK)
		rc = toy_positions(cfg, t, q);
	pe_attn_scale(cfg, &m2);
	m2 *= m2;
	toy_rotated(cfg, &k0, &k1);
	pe_toy_attn(cfg, &mask);
	if (rc == PE_OK) {
		double scale = sqrt((double)d);
		for (size_t i = 0; i < t; i++) {
			double temp = toy_temperature(&mask, cfg)
			    ? pe_attn_temperature(&mask, i) : 1.0;
			for (size_t j = 0; j < t; j++) {
				double dot = 0.0, in = 0.0;
				for (size_t k = 0; k < d; k++) {
					double v = q[i * d + k] * q[j * d + k];
					dot += v;
					if (k >= k0 && k < k1)
						in += v;
				}
				double x = dot / scale;
				if (m2 != 1.0)
					x *= m2;
				if (temp != 1.0)
					x *= temp;
				dest[i * t + j] = x;
				if (content != NULL) {
					double p = in / scale * m2 * temp;
					position[i * t + j] = p;
					content[i * t + j] = (dot - in) / scale *
					    m2 * temp;
				}
			}
		}
	}
	if (rc == PE_OK && rule->bias != NULL)
		rc = rule->bias(cfg, head, t, dest);
	for (size_t i = 0; rc == PE_OK && i < t; i++)
		for (size_t j = 0; j < t; j++)
			if (!pe_attn_sees(&mask, i, j)) {
				dest[i * t + j] = -INFINITY;
				if (content != NULL)
					content[i * t + j] =
					    position[i * t + j] = -INFINITY;
			}
	free(q);
	return rc;
}

/* q_i . q_j / sqrt(d) + b(i, j), -inf where masked. */
int
pe_toy_scores(const struct pe_config *cfg, const struct pe_toy_sentence *s,
    size_t head, double *dest)
{
	return toy_scores(cfg, s, head, dest, NULL, NULL);
}

/* The scores' content and position parts. */
int
pe_toy_score_parts(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t head, double *content,
    double *position)
{
	double *scores;
	int rc;

	if (content == NULL || position == NULL || s == NULL ||
	    s->count == 0 || s->count > PE_TOY_MAX_TOKENS)
		return PE_EINVAL;
	if ((scores = malloc(s->count * s->count * sizeof *scores)) == NULL)
		return PE_ENOMEM;
	rc = toy_scores(cfg, s, head, scores, content, position);
	free(scores);
	return rc;
}

/* Softmax of each row, max-subtracted. */
int
pe_toy_softmax(size_t t, const double *scores, double *dest)
{
	if (t == 0 || scores == NULL || dest == NULL)
		return PE_EINVAL;
	for (size_t i = 0; i < t; i++) {
		const double *row = scores + i * t;
		double top = -INFINITY;
		for (size_t j = 0; j < t; j++) {
			if (isnan(row[j]) || row[j] == INFINITY)
				return PE_EINVAL;
			if (row[j] > top)
				top = row[j];
		}
		if (!isfinite(top))
			return PE_EINVAL;
		double sum = 0.0;
		for (size_t j = 0; j < t; j++) {
			double e = exp(row[j] - top);
			dest[i * t + j] = e;
			sum += e;
		}
		for (size_t j = 0; j < t; j++)
			dest[i * t + j] /= sum;
	}
	return PE_OK;
}

/* Scores, then the softmax over keys (and the head's sink, when the
 * layer has sinks). */
int
pe_toy_attention(const struct pe_config *cfg, const struct pe_toy_sentence *s,
    size_t head, double *dest)
{
	int rc = pe_toy_scores(cfg, s, head, dest);
	struct pe_attn t;

	if (rc != PE_OK)
		return rc;
	pe_toy_attn(cfg, &t);
	if (t.sinks != NULL)
		return pe_attn_softmax_sink(s->count, dest, t.sinks[head], dest,
		    NULL);
	return pe_toy_softmax(s->count, dest, dest);
}

/* The sink's share of each query's attention. */
int
pe_toy_sink_share(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t head, double *dest)
{
	struct pe_attn t;
	double *a;
	int rc;

	pe_toy_attn(cfg, &t);
	if (dest == NULL || t.sinks == NULL || s == NULL ||
	    s->count == 0 || s->count > PE_TOY_MAX_TOKENS)
		return PE_EINVAL;
	if ((a = malloc(s->count * s->count * sizeof *a)) == NULL)
		return PE_ENOMEM;
	rc = pe_toy_scores(cfg, s, head, a);
	if (rc == PE_OK)
		rc = pe_attn_softmax_sink(s->count, a, t.sinks[head], a, dest);
	free(a);
	return rc;
}

/* max |A - P A' P^T| for the permutation perm. */
int
pe_toy_permutation_gap(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, const size_t *perm, size_t head,
    double *dest)
{
	struct pe_toy_sentence sp;
	size_t t = s->count, inv[PE_TOY_MAX_TOKENS];
	double *a, *b;
	int rc;

	if (dest == NULL || pe_toy_permute(s, perm, &sp) != PE_OK)
		return PE_EINVAL;
	for (size_t i = 0; i < t; i++)
		inv[perm[i]] = i;
	a = malloc(t * t * sizeof *a);
	b = malloc(t * t * sizeof *b);
	if (a == NULL || b == NULL) {
		rc = PE_ENOMEM;
	} else if ((rc = pe_toy_attention(cfg, s, head, a)) == PE_OK &&
	    (rc = pe_toy_attention(cfg, &sp, head, b)) == PE_OK) {
		/* b mapped back: P A' P^T, in place of a's copy */
		double *back = malloc(t * t * sizeof *back);
		if (back == NULL) {
			rc = PE_ENOMEM;
		} else {
			for (size_t i = 0; i < t; i++)
				for (size_t j = 0; j < t; j++)
					back[i * t + j] = b[inv[i] * t + inv[j]];
			*dest = pe_toy_gap(t, a, back);
			free(back);
		}
	}
	free(a);
	free(b);
	return rc;
}

/* The largest |A - B| of two attentions. */
double
pe_toy_gap(size_t t, const double *a, const double *b)
{
	double gap = 0.0;
	for (size_t i = 0; i < t * t; i++)
		gap = fmax(gap, fabs(a[i] - b[i]));
	return gap;
}

/* Check the teaching inputs against cfg (declared in pescope.h: they are
 * mostly the toy's). */
int
pe_teach_check(const struct pe_config *cfg, char *why, size_t cap)
{
	const struct pe_teach *t = &cfg->teach;
	struct pe_toy_sentence s;
	int rc = pe_toy_split(t->tokens, &s);

	if (rc == PE_EINVAL)
		return toy_refuse(why, cap, "tokens: no word (the text is empty "
		    "or white space); the toy sentence takes 1..%d words",
		    PE_TOY_MAX_TOKENS);
	if (rc == PE_ERANGE)
		return toy_refuse(why, cap, "tokens: %zu words; the toy sentence "
		    "takes 1..%d", toy_count_words(t->tokens), PE_TOY_MAX_TOKENS);
	if (t->permute != NULL && t->n_permute != s.count)
		return toy_refuse(why, cap, "permute: %zu indices for %zu tokens; "
		    "it must be a permutation of 0..%zu (each token index once)",
		    t->n_permute, s.count, s.count - 1);
	if (t->permute != NULL && !toy_is_permutation(t->permute, s.count))
		return toy_refuse(why, cap, "permute: not a permutation of 0..%zu "
		    "(each token index exactly once)", s.count - 1);
	if (t->embedding != NULL && t->n_embedding != cfg->d)
		return toy_refuse(why, cap, "embedding: %zu numbers given, and "
		    "d_model is %zu; give exactly %zu (one per dimension)",
		    t->n_embedding, cfg->d, cfg->d);
	/* x + PE(p), R_p x, their norms and x's dot products stay finite */
	double xn = t->embedding != NULL ? pe_example_norm(t->embedding,
	    t->n_embedding) : 0.0;
	if (!(xn <= PE_MAX_NORM))
		return toy_refuse(why, cap, "embedding: |x| = %.3g; the vector "
		    "may have a norm of at most %g (its sums, rotations and dot "
		    "products must stay finite)", xn, PE_MAX_NORM);
	const struct pe_toy_rule *rule = pe_config_def(cfg)->toy;
	if (rule != NULL && rule->check_bias != NULL)
		return rule->check_bias(cfg, why, cap);
	return PE_OK;
}
