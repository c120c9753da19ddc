/* Sinusoidal positional encoding (Vaswani et al. 2017, "Attention Is All You
 * Need", section 3.5). */
#ifndef PESCOPE_SINUSOIDAL_H
#define PESCOPE_SINUSOIDAL_H

#include "pescope.h"

/* Angular frequency of frequency index i: omega_i = base^(-2i/d). */
double pe_sinusoidal_omega(size_t i, size_t d, double base);

/* Frequency i of a layout: omega_i for interleaved and split; for t2t,
 * tensor2tensor's inv_timescales[i] = exp(-i ln(base) / (d/2 - 1)) (d >= 4). */
double pe_sinusoidal_freq(size_t i, size_t d, double base,
    enum pe_layout layout);

/* Frequency index and phase (0 = sin, 1 = cos) of column c in a layout. */
void pe_sinusoidal_column(size_t c, size_t d, enum pe_layout layout,
    size_t *freq, int *is_cos);

/* Value PE[p, c] in double precision, w_i = pe_sinusoidal_freq(i, ...):
 *   interleaved:  PE[p,2i] = sin(p w_i), PE[p,2i+1] = cos(p w_i)
 *   split, t2t:   PE[p,i]  = sin(p w_i), PE[p,d/2+i] = cos(p w_i) */
double pe_sinusoidal_value(size_t p, size_t c, size_t d, double base,
    enum pe_layout layout);

/* Fill dest[(p - p0)*d + c] for positions p0 .. p0+npos-1.
 * Returns PE_OK, or PE_EINVAL when d is odd or zero (t2t: below 4), or
 * base <= 1. */
int pe_sinusoidal_fill(size_t p0, size_t npos, size_t d, double base,
    enum pe_layout layout, double *dest);

#endif
