/* Learned absolute position embeddings (GPT-2, BERT): a trained table
 * [max_len, d]. Untrained tables start as GPT-2's initialisation, normal with
 * standard deviation 0.02 (openai/gpt-2 model.py: wpe initializer stddev
 * 0.01; HF GPT2PreTrainedModel._init_weights: initializer_range 0.02). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pescope/learned.h"
#include "kernel/check.h"
#include "kernel/encoding_impl.h"
#include "kernel/testing.h"


/* splitmix64 (Steele, Lea & Flood 2014; Vigna's reference code): the next
 * 64-bit output of the state *x. */
static uint64_t
learned_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* A uniform double in (0, 1]: the top 53 bits, shifted off zero. */
static double
learned_uniform(uint64_t *x)
{
	return (double)((learned_splitmix64(x) >> 11) + 1) * 0x1.0p-53;
}

/* Fill dest[max_len * d] with N(0, 0.02^2) draws: Box-Muller (Box & Muller
 * 1958), z0 = sqrt(-2 ln u1) cos(2 pi u2), z1 = sqrt(-2 ln u1) sin(2 pi u2),
 * in double from splitmix64 uniforms, in row-major order, each rounded to
 * float32 (the embedding's dtype in GPT-2 and BERT). */
void
pe_learned_init(size_t max_len, size_t d, uint64_t seed, double *dest)
{
	uint64_t state = seed;
	size_t total = max_len * d;

	for (size_t k = 0; k < total; k += 2) {
		double u1 = learned_uniform(&state);
		double u2 = learned_uniform(&state);
		double rad = sqrt(-2.0 * log(u1));
		dest[k] = (float)(0.02 * rad * cos(PE_TWO_PI * u2));
		if (k + 1 < total)
			dest[k + 1] = (float)(0.02 * rad * sin(PE_TWO_PI * u2));
	}
}

/* table[p, c], or PE_ERANGE past the table's max_len rows. */
int
pe_learned_value(const struct pe_config *cfg, size_t p, size_t c, double *dest)
{
	if (cfg == NULL || cfg->table == NULL || c >= cfg->d)
		return PE_EINVAL;
	if (p >= cfg->max_len)
		return PE_ERANGE;
	*dest = cfg->table[p * cfg->d + c];
	return PE_OK;
}

/* Allocate and fill the untrained table. */
int
pe_learned_untrained(size_t max_len, size_t d, double **dest)
{
	*dest = NULL;
	if (d == 0 || max_len > PE_LEARNED_MAX_ENTRIES / d)
		return PE_ERANGE;
	double *t = malloc(max_len * d * sizeof *t);
	if (t == NULL)
		return PE_ENOMEM;
	pe_learned_init(max_len, d, PE_LEARNED_SEED, t);
	*dest = t;
	return PE_OK;
}

/* A table's rows, bounded so that nothing computed from them overflows:
 * every entry finite, every row's Euclidean norm (scaled by the row's
 * largest entry, so that no square overflows) at most PE_MAX_NORM.
 * A block of the similarity field is the dot product of two sums of up to
 * PE_MAX_N rows (Cauchy-Schwarz: at most (PE_MAX_N * norm)^2, 1.2e146),
 * and every partial sum of a dot product is bounded by the same. */
int
pe_learned_table_check(const double *t, size_t rows, size_t cols, char *why,
    size_t cap)
{
	for (size_t r = 0; r < rows; r++) {
		const double *row = t + r * cols;
		double big = 0.0, s = 0.0;
		for (size_t c = 0; c < cols; c++) {
			if (!isfinite(row[c]))
				FAIL("entry [%zu, %zu] is %g; a learned table must be "
				    "finite", r, c, row[c]);
			big = fmax(big, fabs(row[c]));
		}
		if (big == 0.0)
			continue;
		for (size_t c = 0; c < cols; c++)
			s += (row[c] / big) * (row[c] / big);
		double norm = big * sqrt(s);
		if (!(norm <= PE_MAX_NORM))
			FAIL("row %zu has norm %.3g; a learned table's rows may have "
			    "norms of at most %g (the dot products of sums of its "
			    "rows must stay finite)", r, norm, PE_MAX_NORM);
	}
	return PE_OK;
}

/* learned: the table's rows. */
int
pe_learned_check(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->max_len < 1 || cfg->max_len > PE_MAX_N)
		FAIL("max_len %zu: must be in 1..%zu", cfg->max_len, PE_MAX_N);
	return PE_OK;
}

/* The table's rows p0 .. p0+npos-1; NaN rows (and PE_ERANGE) past its
 * max_len rows: there is no embedding there. */
int
pe_learned_vector(const struct pe_config *cfg, size_t p0, size_t npos,
    double *dest)
{
	size_t d = cfg->d;
	int rc = PE_OK;

	if (cfg->table == NULL)
		return PE_EINVAL;
	for (size_t k = 0; k < npos; k++) {
		size_t p = p0 + k;
		if (p >= cfg->max_len)
			rc = PE_ERANGE;
		for (size_t c = 0; c < d; c++)
			dest[k * d + c] = p < cfg->max_len ? cfg->table[p * d + c]
							   : NAN;
	}
	return rc;
}

/* The toy attention needs a table with a row for every token. */
int
pe_learned_toy_check(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t head, char *why, size_t cap)
{
	(void)head;
	if (cfg->table == NULL)
		FAIL("learned: there is no table");
	if (s->count > cfg->max_len)
		FAIL("tokens: %zu tokens, but the learned table has max_len %zu "
		     "rows: token %zu's position has no embedding (use at most %zu "
		     "tokens, or a longer table)", s->count, cfg->max_len,
		    cfg->max_len, cfg->max_len);
	return PE_OK;
}

/* The untrained table, when cfg has none: refused past
 * PE_LEARNED_MAX_ENTRIES; made into *owned when owned is given. */
int
pe_learned_prepare(struct pe_config *cfg, double **owned, char *why,
    size_t cap)
{
	double *t;
	int rc;

	if (cfg->table != NULL)
		return PE_OK;
	if (cfg->d == 0 || cfg->max_len > PE_LEARNED_MAX_ENTRIES / cfg->d) {
		if (why != NULL && cap > 0)
			snprintf(why, cap, "max_len %zu: an untrained table of %zu x "
			    "%zu is too large; max_len x d_model must be at most %zu",
			    cfg->max_len, cfg->max_len, cfg->d,
			    PE_LEARNED_MAX_ENTRIES);
		return PE_ERANGE;
	}
	if (owned == NULL)
		return PE_OK;
	if ((rc = pe_learned_untrained(cfg->max_len, cfg->d, &t)) != PE_OK) {
		if (why != NULL && cap > 0)
			snprintf(why, cap, "max_len %zu: no memory for the untrained "
			    "table", cfg->max_len);
		return rc;
	}
	*owned = t;
	cfg->table = t;
	cfg->table_untrained = true;
	return PE_OK;
}

/* The table's size: "learned 2048 × 768". */
int
pe_learned_describe(const struct pe_config *cfg, char *dest, size_t cap)
{
	return snprintf(dest, cap, "learned %zu × %zu", cfg->max_len, cfg->d);
}
