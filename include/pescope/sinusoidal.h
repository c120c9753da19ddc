/* Sinusoidal positional encoding (Vaswani et al. 2017, "Attention Is All You
 * Need", section 3.5). */
#ifndef PESCOPE_SINUSOIDAL_H
#define PESCOPE_SINUSOIDAL_H

#include "pescope.h"

/* Angular frequency of frequency index i: omega_i = base^(-2i/d). */
double pe_sinusoidal_omega(size_t i, size_t d, double base);

/* Frequency index and phase (0 = sin, 1 = cos) of column c in a layout. */
void pe_sinusoidal_column(size_t c, size_t d, enum pe_layout layout,
    size_t *freq, int *is_cos);

/* Value PE[p, c] in double precision.
 *   interleaved: PE[p,2i] = sin(p omega_i), PE[p,2i+1] = cos(p omega_i)
 *   split:       PE[p,i]  = sin(p omega_i), PE[p,d/2+i] = cos(p omega_i) */
double pe_sinusoidal_value(size_t p, size_t c, size_t d, double base,
    enum pe_layout layout);

/* Fill dest[(p - p0)*d + c] for positions p0 .. p0+npos-1.
 * Returns PE_OK, or PE_EINVAL when d is odd or zero, or base <= 1. */
int pe_sinusoidal_fill(size_t p0, size_t npos, size_t d, double base,
    enum pe_layout layout, double *dest);

#endif
