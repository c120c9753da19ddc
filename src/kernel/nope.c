/* NoPE: no positional encoding; order only through the causal mask
 * (Kazemnejad et al. 2023; Haviv et al. 2022). */
#include <math.h>

#include "pescope/nope.h"
#include "kernel/encoding_impl.h"
#include "kernel/testing.h"

/* The causal mask of a decoder (Vaswani et al. 2017, sec. 3.2.3): 0 for
 * key j <= query i, -INFINITY above the diagonal. */
double
pe_nope_mask(size_t i, size_t j)
{
	return j > i ? -INFINITY : 0.0;
}

/* Rows r0 .. r1-1 of the causal mask [n, n]: 0 up to the diagonal, then
 * -INFINITY (pe_nope_mask, in two plain loops). */
int
pe_nope_rows(size_t n, size_t r0, size_t r1, double *dest)
{
	if (dest == NULL || n == 0 || r1 < r0 || r1 > n)
		return PE_EINVAL;
	for (size_t i = r0; i < r1; i++) {
		double *row = dest + (i - r0) * n;
		for (size_t j = 0; j <= i; j++)
			row[j] = 0.0;
		for (size_t j = i + 1; j < n; j++)
			row[j] = -INFINITY;
	}
	return PE_OK;
}

/* The mask by query - key: t stands for query - key = n - 1 - t. */
int
pe_nope_line(size_t n, double *dest)
{
	if (dest == NULL || n == 0 || n > SIZE_MAX / 2)
		return PE_EINVAL;
	for (size_t t = 0; t < 2 * n - 1; t++)
		dest[t] = pe_nope_mask(n - 1, t);
	return PE_OK;
}

/* Fill dest[i*n + j] with the causal mask. Returns PE_EINVAL for an empty
 * or overflowing size. */
int
pe_nope_fill(size_t n, double *dest)
{
	if (dest == NULL || n == 0 || n > SIZE_MAX / n / sizeof *dest)
		return PE_EINVAL;
	return pe_nope_rows(n, 0, n, dest);
}

/* The start token's share of a uniform causal average at query i
 * (Kazemnejad et al. 2023, Theorem 1's first layer). */
double
pe_nope_start_share(size_t i)
{
	return 1.0 / ((double)i + 1.0);
}

/* The toy attention's default mask: a decoder's, the only thing that sees
 * order without positions. */
bool
pe_nope_causal(const struct pe_config *cfg)
{
	(void)cfg;
	return true;
}
