/* NoPE: no positional encoding; order only through the causal mask
 * (Kazemnejad et al. 2023; Haviv et al. 2022). */
#ifndef PESCOPE_NOPE_H
#define PESCOPE_NOPE_H

#include "pescope.h"

/* 0 for key j <= query i, -INFINITY above the diagonal. */
double pe_nope_mask(size_t i, size_t j);

/* Rows [r0, r1) of that mask: dest[(i - r0) n + j] = pe_nope_mask(i, j).
 * Returns PE_OK, or PE_EINVAL for a NULL buffer or rows past n. */
int pe_nope_rows(size_t n, size_t r0, size_t r1, double *dest);

/* The mask by query - key as a line the rows are windows of: row i of the
 * [n, n] mask is dest[n - 1 - i .. 2n - 1 - i).
 * formula: dest[t] = pe_nope_mask(n - 1, t), t < 2n - 1 (0 for t < n,
 *          -INFINITY after)
 * Returns PE_OK, or PE_EINVAL for n == 0 or a NULL buffer. */
int pe_nope_line(size_t n, double *dest);

/* The order signal a causal mask leaks: under uniform causal attention,
 * query i averages i + 1 values, so the first token's share is 1/(i+1)
 * and falls with position; a model without positional encoding can read
 * its position from that.
 * formula: dest = 1 / (i + 1)
 * source: Kazemnejad et al. 2023, "The Impact of Positional Encoding on
 *         Length Generalization in Transformers", sec. 5, Theorem 1 (NoPE
 *         recovers absolute position: a first layer attending uniformly
 *         under the causal mask gives the start token weight 1/(i+1)). */
double pe_nope_start_share(size_t i);

#endif
