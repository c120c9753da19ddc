/* Attention weights that ALiBi's biases alone produce: the softmax of
 * -m (i - j) over the keys a query sees (Press et al. 2022, section 3: the
 * bias is added to q.k before the softmax). With equal content scores the
 * weights are a geometric sequence, so any block of keys sums in closed
 * form. */
#include <math.h>
#include <stdlib.h>

#include "pescope/alibi.h"
#include "kernel/testing.h"

/* sum_{t=a}^{b} exp(-m t) for 0 <= a <= b, without cancellation. */
static double
geom(double m, double a, double b)
{
	if (m == 0.0)
		return b - a + 1.0;
	/* exp(-m a) (1 - exp(-m (b - a + 1))) / (1 - exp(-m)) */
	return exp(-m * a) * (-expm1(-m * (b - a + 1.0))) / (-expm1(-m));
}

/* Sum of exp(-m |i - j|) over keys j in [j0, j1) that the query sees. */
static double
block_sum(double m, size_t i, size_t n, size_t j0, size_t j1,
    enum pe_alibi_mode mode)
{
	double s = 0.0;
	if (j1 > n)
		j1 = n;
	/* keys at or before the query: t = i - j in [i - min(j1-1, i), i - j0] */
	if (j0 <= i && j0 < j1) {
		size_t hi = j1 - 1 < i ? j1 - 1 : i;
		s += geom(m, (double)(i - hi), (double)(i - j0));
	}
	/* keys after the query (symmetric only): t = j - i in [.., ..] */
	if (mode == PE_ALIBI_SYMMETRIC && j1 > i + 1) {
		size_t lo = j0 > i + 1 ? j0 : i + 1;
		if (lo < j1)
			s += geom(m, (double)(lo - i), (double)(j1 - 1 - i));
	}
	return s;
}

/* Mean softmax weight of keys [j0, j1) for query i. */
double
pe_alibi_attention(double m, size_t i, size_t n, size_t j0, size_t j1,
    enum pe_alibi_mode mode)
{
	if (j1 > n)
		j1 = n;
	if (j0 >= j1 || i >= n)
		return NAN;
	double z = block_sum(m, i, n, 0, n, mode);
	return block_sum(m, i, n, j0, j1, mode) / z / (double)(j1 - j0);
}

/* ALiBi's recency: pe_alibi_attention averaged over the heads. */
double
pe_alibi_recency(const double *slopes, size_t heads, enum pe_alibi_mode mode,
                 size_t i, size_t n, size_t j0, size_t j1)
{
	double s = 0.0;

	if (slopes == NULL || heads == 0)
		return NAN;
	for (size_t h = 0; h < heads; h++)
		s += pe_alibi_attention(slopes[h], i, n, j0, j1, mode);
	return s / (double)heads;
}

/* Recency of each key for query i, with cfg's heads, mode and n. */
int
pe_alibi_recency_fill(const struct pe_config *cfg, size_t i, double *dest)
{
	double *m;
	int rc;

	if (dest == NULL || i >= cfg->n)
		return PE_EINVAL;
	if (cfg->heads == 0 || cfg->heads > PE_MAX_HEADS)
		return PE_EINVAL;
	if ((m = malloc(cfg->heads * sizeof *m)) == NULL)
		return PE_ENOMEM;
	if ((rc = pe_alibi_slopes(cfg->heads, m)) == PE_OK)
		for (size_t j = 0; j < cfg->n; j++)
			dest[j] = pe_alibi_recency(m, cfg->heads, cfg->alibi_mode, i,
			    cfg->n, j, j + 1);
	free(m);
	return rc;
}
