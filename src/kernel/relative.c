/* Relative positions: Shaw et al. 2018 clipped distances and T5 buckets.
 * Relative position is key - query throughout. */
#include <math.h>
#include <stdio.h>

#include "pescope/relative.h"
#include "kernel/check.h"
#include "kernel/encoding_impl.h"
#include "kernel/testing.h"

/* Shaw et al. 2018, eq. (3): clip(rel, -K, K) + K, in [0, 2K]. */
int64_t
pe_shaw_index(int64_t rel, size_t k)
{
	int64_t kk = (int64_t)k;

	if (rel < -kk)
		rel = -kk;
	if (rel > kk)
		rel = kk;
	return rel + kk;
}

/* Exact buckets of one direction: num_buckets/2 of the buckets it has. */
size_t
pe_t5_max_exact(bool bidirectional, size_t num_buckets)
{
	return bidirectional ? (num_buckets / 2) / 2 : num_buckets / 2;
}

/* Bucket of distance n >= 0 within one direction of nb buckets whose first
 * max_exact are exact, as HF modeling_t5.py _relative_position_bucket
 * computes it: the log branch is float32 arithmetic (torch.log on a float
 * tensor, divided by the Python float math.log(max_distance / max_exact),
 * times the int num_buckets - max_exact), then .to(torch.long) truncates,
 * then min with nb - 1. */
static int64_t
t5_half(uint64_t n, int64_t nb, int64_t max_exact, size_t max_distance)
{
	if ((int64_t)n < max_exact)
		return (int64_t)n;
	if (max_exact <= 0)
		return nb - 1;

	/* volatile keeps each step a float32 rounding, as torch does. */
	volatile float ratio = (float)n / (float)max_exact;
	volatile float num = logf(ratio);
	volatile float den =
	    (float)log((double)max_distance / (double)max_exact);
	volatile float q = num / den;
	volatile float r = q * (float)(nb - max_exact);
	int64_t b;

	if (!(fabsf(r) < 0x1p62f))
		b = nb - 1; /* inf or nan: torch's cast is undefined; clamp */
	else
		b = max_exact + (int64_t)r;
	return b < nb - 1 ? b : nb - 1;
}

/* T5's _relative_position_bucket (Raffel et al. 2020; HF modeling_t5.py)
 * for rel = key - query. */
int64_t
pe_t5_bucket(int64_t rel, bool bidirectional, size_t num_buckets,
             size_t max_distance)
{
	int64_t nb = (int64_t)num_buckets;
	int64_t off = 0;
	uint64_t n;

	if (bidirectional) {
		nb /= 2;
		if (rel > 0)
			off = nb;
		n = rel < 0 ? (uint64_t)0 - (uint64_t)rel : (uint64_t)rel;
	} else
		n = rel < 0 ? (uint64_t)0 - (uint64_t)rel : 0;
	return off + t5_half(n, nb, nb / 2, max_distance);
}

/* Fill dest[i*n + j] with the bucket (t5) or index (shaw) of query i,
 * key j. Returns PE_EINVAL for an empty or overflowing size. */
int
pe_relative_by_distance(const struct pe_config *cfg, int64_t *dest)
{
	size_t n = cfg->n;

	if (n == 0 || dest == NULL || n > SIZE_MAX / 2 / sizeof *dest)
		return PE_EINVAL;
	for (size_t k = 0; k < 2 * n - 1; k++) {
		int64_t rel = (int64_t)k - (int64_t)(n - 1);
		dest[k] = cfg->relative == PE_REL_SHAW
		              ? pe_shaw_index(rel, cfg->max_relative)
		              : pe_t5_bucket(rel, cfg->bidirectional, cfg->buckets,
		                             cfg->max_distance);
	}
	return PE_OK;
}

int
pe_relative_fill(const struct pe_config *cfg, int64_t *dest)
{
	size_t n = cfg->n;

	if (n == 0 || dest == NULL || n > SIZE_MAX / n / sizeof *dest)
		return PE_EINVAL;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int64_t rel = (int64_t)j - (int64_t)i;
			dest[i * n + j] =
			    cfg->relative == PE_REL_SHAW
			        ? pe_shaw_index(rel, cfg->max_relative)
			        : pe_t5_bucket(rel, cfg->bidirectional,
			                       cfg->buckets, cfg->max_distance);
		}
	return PE_OK;
}

/* relative: shaw's K, or t5's buckets and max_distance. */
int
pe_relative_check(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->relative == PE_REL_SHAW) {
		if (cfg->max_relative < 1 || cfg->max_relative > PE_MAX_N)
			FAIL("max_relative %zu: must be in 1..%zu",
			    cfg->max_relative, PE_MAX_N);
		return PE_OK;
	}
	if (cfg->buckets < (cfg->bidirectional ? 4u : 2u) || cfg->buckets > 4096)
		FAIL("buckets %zu: must be in %u..4096 (%s: half of %s are "
		     "exact)", cfg->buckets, cfg->bidirectional ? 4u : 2u,
		    cfg->bidirectional ? "bidirectional" : "unidirectional",
		    cfg->bidirectional ? "each direction's buckets"
				       : "the buckets");
	size_t exact = cfg->bidirectional ? cfg->buckets / 4 : cfg->buckets / 2;
	if (cfg->max_distance <= exact || cfg->max_distance > PE_MAX_N)
		FAIL("max_distance %zu: must be in %zu..%zu (more than the %zu "
		     "exact buckets)", cfg->max_distance, exact + 1, PE_MAX_N,
		    exact);
	return PE_OK;
}

/* The relative kind's name, beside the encoding's in messages. */
const char *
pe_relative_variant(const struct pe_config *cfg)
{
	return cfg->relative == PE_REL_SHAW ? "shaw" : "t5";
}

/* The heads --head picks from: the learned bias's rows when there is one
 * (the toy attention reads one), else cfg->heads. */
size_t
pe_relative_heads(const struct pe_config *cfg)
{
	return cfg->teach.bias != NULL ? cfg->teach.bias_heads : cfg->heads;
}

/* Numbers per head the learned bias needs: t5's buckets or shaw's 2K+1. */
static size_t
relative_bias_need(const struct pe_config *cfg)
{
	return cfg->relative == PE_REL_SHAW ? 2 * cfg->max_relative + 1
					    : cfg->buckets;
}

/* What one number of the bias is per, for messages. */
static const char *
relative_bias_unit(const struct pe_config *cfg)
{
	return cfg->relative == PE_REL_SHAW ? "clipped distance" : "bucket";
}

/* A learned bias (teach.bias) of the width the kind needs. */
int
pe_relative_bias_check(const struct pe_config *cfg, char *why, size_t cap)
{
	bool shaw = cfg->relative == PE_REL_SHAW;
	size_t need = relative_bias_need(cfg);

	if (cfg->teach.bias == NULL || cfg->teach.bias_len == need)
		return PE_OK;
	FAIL("bias_file: the bias has %zu numbers per head; %s needs %zu, one "
	     "per %s (%s), as [%zu] or [heads, %zu]", cfg->teach.bias_len,
	    shaw ? "shaw" : "t5", need, relative_bias_unit(cfg),
	    shaw ? "2 max_relative + 1" : "buckets", need, need);
}

/* The toy attention needs the learned bias, and head one of its rows. */
int
pe_relative_toy_check(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t head, char *why, size_t cap)
{
	const struct pe_teach *t = &cfg->teach;
	size_t need = relative_bias_need(cfg);

	(void)s;
	if (t->bias == NULL)
		FAIL("relative: the bias is learned, one number per head and %s "
		     "(a checkpoint's relative_attention_bias), so the toy "
		     "attention needs it: bias_file F.npy, [%zu] or [heads, %zu]",
		    relative_bias_unit(cfg), need, need);
	if (pe_relative_bias_check(cfg, why, cap) != PE_OK)
		return PE_EINVAL;
	if (head >= t->bias_heads)
		FAIL("head %zu: the bias file has %zu head%s (0..%zu)", head,
		    t->bias_heads, t->bias_heads == 1 ? "" : "s",
		    t->bias_heads - 1);
	return PE_OK;
}

/* scores[i, j] += bias[head, t5 bucket or shaw index of j - i]. */
int
pe_relative_toy_bias(const struct pe_config *cfg, size_t head, size_t t,
    double *scores)
{
	const struct pe_teach *b = &cfg->teach;

	for (size_t i = 0; i < t; i++)
		for (size_t j = 0; j < t; j++) {
			int64_t rel = (int64_t)j - (int64_t)i;
			int64_t k = cfg->relative == PE_REL_SHAW
			    ? pe_shaw_index(rel, cfg->max_relative)
			    : pe_t5_bucket(rel, cfg->bidirectional, cfg->buckets,
				  cfg->max_distance);
			scores[i * t + j] += b->bias[head * b->bias_len + (size_t)k];
		}
	return PE_OK;
}

/* T5's buckets: "T5 buckets 32, max 128". */
int
pe_relative_describe(const struct pe_config *cfg, char *dest, size_t cap)
{
	return snprintf(dest, cap, "T5 buckets %zu, max %zu", cfg->buckets,
	    cfg->max_distance);
}
