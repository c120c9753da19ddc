/* NoPE: no positional encoding; order only through the causal mask
 * (Kazemnejad et al. 2023; Haviv et al. 2022). */
#ifndef PESCOPE_NOPE_H
#define PESCOPE_NOPE_H

#include "pescope.h"

/* 0 for key j <= query i, -INFINITY above the diagonal. */
double pe_nope_mask(size_t i, size_t j);

/* Fill dest[i*n + j] with the causal mask. */
int pe_nope_fill(size_t n, double *dest);

#endif
