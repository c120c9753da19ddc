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

/* The matrix M_K with PE(p + K) = M_K PE(p) for every p: one 2x2
 * rotation per frequency, on that frequency's sin and cos columns (so
 * block-diagonal for interleaved; for split and t2t the blocks pair column
 * i with d/2 + i). K may be negative (M_-K = M_K^-1 = M_K^T).
 * formula: with w = w_i and columns s (sin) and c (cos) of frequency i:
 *          M[s,s] = cos(K w)  M[s,c] = sin(K w)
 *          M[c,s] = -sin(K w) M[c,c] = cos(K w), 0 elsewhere
 *          (sin(a + b) = sin a cos b + cos a sin b, cos(a + b) = ...)
 * source: Vaswani et al. 2017, sec. 3.5 ("for any fixed offset k, PE_pos+k
 *         can be represented as a linear function of PE_pos").
 * @param[in]  d, base, layout  as pe_sinusoidal_fill
 * @param[in]  k                the shift K
 * @param[out] dest             [d, d], row-major: (M PE)[r] = sum_c
 *                              M[r*d + c] PE[c]
 * Returns PE_OK, or PE_EINVAL as pe_sinusoidal_fill. */
int pe_sinusoidal_shift(size_t d, double base, enum pe_layout layout,
    int64_t k, double *dest);

/* Rows [r0, r1) of M_K (the same values): dest[(r - r0) d + c] = M[r, c].
 * Returns PE_OK, or PE_EINVAL as pe_sinusoidal_shift or for rows past d. */
int pe_sinusoidal_shift_rows(size_t d, double base, enum pe_layout layout,
    int64_t k, size_t r0, size_t r1, double *dest);

/* The largest |PE(p + K) - M_K PE(p)| over the positions p in [p0, p1)
 * with p < n and 0 <= p + K < n (cost (p1 - p0) d). Rounding level: the
 * angles (p + K) w and p w, K w are formed in double.
 * formula: dest = max_{p, c} |PE(p + K, c) - (M_K PE(p))[c]|
 * source: as pe_sinusoidal_shift.
 * Returns PE_OK, or PE_EINVAL when no p is valid (|K| >= n, or the range
 * misses) or as pe_sinusoidal_fill. */
int pe_sinusoidal_shift_residual(size_t n, size_t d, double base,
    enum pe_layout layout, int64_t k, size_t p0, size_t p1, double *dest);

#endif
