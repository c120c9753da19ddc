/* Sinusoidal positional encoding (Vaswani et al. 2017, "Attention Is All You
 * Need", section 3.5): PE(p, 2i) = sin(p / base^(2i/d)),
 * PE(p, 2i+1) = cos(p / base^(2i/d)). */
#include <math.h>

#include "pescope/sinusoidal.h"

/* omega_i = base^(-2i/d) (Vaswani et al. 2017, section 3.5). */
double
pe_sinusoidal_omega(size_t i, size_t d, double base)
{
	return pow(base, -(double)(2 * i) / (double)d);
}

/* Frequency index and phase of column c: interleaved puts sin(p omega_i) in
 * column 2i and cos in 2i+1 (the paper, PyTorch tutorials); split puts the d/2
 * sines first, then the d/2 cosines (tensor2tensor's get_timing_signal_1d). */
void
pe_sinusoidal_column(size_t c, size_t d, enum pe_layout layout, size_t *freq,
                     int *is_cos)
{
	if (layout == PE_LAYOUT_SPLIT) {
		*freq = c < d / 2 ? c : c - d / 2;
		*is_cos = c >= d / 2;
	} else {
		*freq = c / 2;
		*is_cos = (int)(c % 2);
	}
}

/* PE[p, c] in double: the angle p omega_i is formed in double. */
double
pe_sinusoidal_value(size_t p, size_t c, size_t d, double base,
                    enum pe_layout layout)
{
	size_t i;
	int is_cos;

	pe_sinusoidal_column(c, d, layout, &i, &is_cos);
	double t = (double)p * pe_sinusoidal_omega(i, d, base);
	return is_cos ? cos(t) : sin(t);
}

/* Fill dest[(p - p0) * d + c] for p = p0 .. p0+npos-1, one sincos per
 * (position, frequency). */
int
pe_sinusoidal_fill(size_t p0, size_t npos, size_t d, double base,
                   enum pe_layout layout, double *dest)
{
	if (d == 0 || d % 2 != 0 || !isfinite(base) || base <= 1.0 ||
	    (npos > 0 && dest == NULL))
		return PE_EINVAL;
	for (size_t i = 0; i < d / 2; i++) {
		double w = pe_sinusoidal_omega(i, d, base);
		size_t cs = layout == PE_LAYOUT_SPLIT ? i : 2 * i;
		size_t cc = layout == PE_LAYOUT_SPLIT ? d / 2 + i : 2 * i + 1;
		for (size_t k = 0; k < npos; k++) {
			double t = (double)(p0 + k) * w;
			dest[k * d + cs] = sin(t);
			dest[k * d + cc] = cos(t);
		}
	}
	return PE_OK;
}
