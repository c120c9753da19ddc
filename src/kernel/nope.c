/* NoPE: no positional encoding; order only through the causal mask
 * (Kazemnejad et al. 2023; Haviv et al. 2022). */
#include <math.h>

#include "pescope/nope.h"

/* The causal mask of a decoder (Vaswani et al. 2017, sec. 3.2.3): 0 for
 * key j <= query i, -INFINITY above the diagonal. */
double
pe_nope_mask(size_t i, size_t j)
{
	return j > i ? -INFINITY : 0.0;
}

/* Fill dest[i*n + j] with the causal mask. Returns PE_EINVAL for an empty
 * or overflowing size. */
int
pe_nope_fill(size_t n, double *dest)
{
	if (dest == NULL || n == 0 || n > SIZE_MAX / n / sizeof *dest)
		return PE_EINVAL;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++)
			dest[i * n + j] = pe_nope_mask(i, j);
	return PE_OK;
}

/* The start token's share of a uniform causal average at query i
 * (Kazemnejad et al. 2023, Theorem 1's first layer). */
double
pe_nope_start_share(size_t i)
{
	return 1.0 / ((double)i + 1.0);
}
