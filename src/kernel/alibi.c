/* ALiBi (Press et al. 2022, "Train Short, Test Long"): a linear bias by
 * distance, one slope per head. Distance is query - key. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "pescope/alibi.h"
#include "kernel/check.h"
#include "kernel/encoding_impl.h"
#include "kernel/testing.h"

/* Slopes of a power-of-two head count h, as get_slopes_power_of_2 in
 * ofirpress/attention_with_linear_biases (fairseq/models/transformer.py):
 *   start = 2^(-2^-(log2(h) - 3)), ratio = start, slope_i = start * ratio^i.
 * Written with the same double operations so the values match bit for bit. */
static void
alibi_slopes_pow2(size_t h, double *dest)
{
	double start = pow(2.0, -pow(2.0, -(log2((double)h) - 3.0)));
	double ratio = start;

	for (size_t i = 0; i < h; i++)
		dest[i] = start * pow(ratio, (double)i);
}

/* Fill dest[heads] with the head slopes (the authors' get_slopes): for a
 * power of two, alibi_slopes_pow2; otherwise the slopes of the closest lower
 * power of two c, followed by get_slopes(2c)[0::2][:h - c]. */
int
pe_alibi_slopes(size_t heads, double *dest)
{
	size_t c = 1;

	if (heads == 0 || dest == NULL || heads > PE_MAX_HEADS)
		return PE_EINVAL;
	while (c * 2 <= heads)
		c *= 2;
	alibi_slopes_pow2(c, dest);
	if (c == heads)
		return PE_OK;

	/* get_slopes(2c) is a power of two: its even-indexed slopes. */
	double start = pow(2.0, -pow(2.0, -(log2((double)(2 * c)) - 3.0)));
	for (size_t k = 0; k < heads - c; k++)
		dest[c + k] = start * pow(start, (double)(2 * k));
	return PE_OK;
}

/* Bias of query i for key j with slope m (Press et al. 2022, sec. 3):
 * causal -m (i - j) for j <= i and -INFINITY for j > i; symmetric
 * -m |i - j|. Written 0 - m d so the diagonal is +0, not -0 (a CSV that
 * says "-0" is right, but reads as a mistake). */
double
pe_alibi_bias(double m, size_t i, size_t j, enum pe_alibi_mode mode)
{
	if (j > i)
		return mode == PE_ALIBI_CAUSAL ? -INFINITY
		                               : 0.0 - m * (double)(j - i);
	return 0.0 - m * (double)(i - j);
}

/* Rows r0 .. r1-1 of the bias [heads, n, n] seen as [heads * n, n] (row r
 * is head r / n, query r % n), with pe_alibi_bias's arithmetic in loops the
 * compiler vectorises. */
int
pe_alibi_bias_rows(const struct pe_config *cfg, const double *slopes,
                   size_t r0, size_t r1, double *dest)
{
	size_t n = cfg->n;
	bool causal = cfg->alibi_mode == PE_ALIBI_CAUSAL;

	if (dest == NULL || slopes == NULL || n == 0 || r1 < r0 ||
	    r1 > n * cfg->heads)
		return PE_EINVAL;
	for (size_t r = r0; r < r1; r++) {
		double m = slopes[r / n], *row = dest + (r - r0) * n;
		size_t i = r % n;
		for (size_t j = 0; j <= i; j++)
			row[j] = 0.0 - m * (double)(i - j); /* +0 on the diagonal */
		for (size_t j = i + 1; j < n; j++)
			row[j] = causal ? -INFINITY : 0.0 - m * (double)(j - i);
	}
	return PE_OK;
}

/* One head's bias by query - key, t = 0 .. 2n-2 standing for query - key
 * = n - 1 - t: the value pe_alibi_bias gives query n - 1 and key t, the
 * same double operations on the same distance as any (i, j) of that
 * distance, so row i's window of it is row i bit for bit. */
int
pe_alibi_bias_line(double m, size_t n, enum pe_alibi_mode mode, double *dest)
{
	if (dest == NULL || n == 0 || n > SIZE_MAX / 2)
		return PE_EINVAL;
	for (size_t t = 0; t < 2 * n - 1; t++)
		dest[t] = pe_alibi_bias(m, n - 1, t, mode);
	return PE_OK;
}

/* Fill dest[h*n*n + i*n + j] for every head. Returns PE_EINVAL for a bad
 * head count or a size that overflows. */
int
pe_alibi_fill(const struct pe_config *cfg, double *dest)
{
	size_t n = cfg->n, h = cfg->heads;
	double slopes[PE_MAX_HEADS];
	int rc;

	if (dest == NULL || n == 0 || n > SIZE_MAX / n ||
	    h > SIZE_MAX / (n * n) / sizeof *dest)
		return PE_EINVAL;
	if ((rc = pe_alibi_slopes(h, slopes)) != PE_OK)
		return rc;
	return pe_alibi_bias_rows(cfg, slopes, 0, h * n, dest);
}

/* alibi: the heads. */
int
pe_alibi_check(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->heads < 1 || cfg->heads > PE_MAX_HEADS)
		FAIL("heads %zu: must be in 1..%zu", cfg->heads, PE_MAX_HEADS);
	return PE_OK;
}

/* The toy attention's default mask: causal in ALiBi's causal mode (the
 * bias is -inf above the diagonal). */
bool
pe_alibi_causal(const struct pe_config *cfg)
{
	return cfg->alibi_mode == PE_ALIBI_CAUSAL;
}

/* The toy attention of a head: ALiBi's causal mode has no bias above the
 * diagonal, so it takes the causal mask (--mask none refused). */
int
pe_alibi_toy_check(const struct pe_config *cfg,
    const struct pe_toy_sentence *s, size_t head, char *why, size_t cap)
{
	(void)s;
	if (cfg->alibi_mode == PE_ALIBI_CAUSAL &&
	    cfg->teach.mask == PE_TOY_MASK_NONE)
		FAIL("mask none: ALiBi's causal mode has no bias above the "
		     "diagonal (it is -inf there); use mask causal, or alibi_mode "
		     "symmetric");
	if (head >= cfg->heads)
		FAIL("head %zu: must be in 0..%zu (there are %zu heads)", head,
		    cfg->heads - 1, cfg->heads);
	return PE_OK;
}

/* scores[i, j] += the bias of head (its slope) for query i, key j. */
int
pe_alibi_toy_bias(const struct pe_config *cfg, size_t head, size_t t,
    double *scores)
{
	double *m = malloc(cfg->heads * sizeof *m);
	int rc;

	if (m == NULL)
		return PE_ENOMEM;
	if ((rc = pe_alibi_slopes(cfg->heads, m)) == PE_OK)
		for (size_t i = 0; i < t; i++)
			for (size_t j = 0; j < t; j++)
				scores[i * t + j] += pe_alibi_bias(m[head], i, j,
				    cfg->alibi_mode);
	free(m);
	return rc;
}

/* The heads: "ALiBi 8 heads". */
int
pe_alibi_describe(const struct pe_config *cfg, char *dest, size_t cap)
{
	return snprintf(dest, cap, "ALiBi %zu heads", cfg->heads);
}
