/* Sinusoidal positional encoding (Vaswani et al. 2017, "Attention Is All You
 * Need", section 3.5): PE(p, 2i) = sin(p / base^(2i/d)),
 * PE(p, 2i+1) = cos(p / base^(2i/d)); the same frequencies in halves (GPT-J),
 * and tensor2tensor's timing signal. */
#include <math.h>

#include "pescope/sinusoidal.h"
#include "kernel/check.h"
#include "kernel/encoding_impl.h"

/* omega_i = base^(-2i/d) (Vaswani et al. 2017, section 3.5). */
double
pe_sinusoidal_omega(size_t i, size_t d, double base)
{
	return pow(base, -(double)(2 * i) / (double)d);
}

/* Frequency i of a layout. interleaved and split: omega_i. t2t:
 * tensor2tensor's get_timing_signal_1d (tensor2tensor/layers/
 * common_attention.py), with min_timescale 1 and max_timescale = base:
 *   num_timescales = channels // 2
 *   log_timescale_increment = log(max_timescale / min_timescale) /
 *                             (num_timescales - 1)
 *   inv_timescales = min_timescale * exp(range(num_timescales) *
 *                                        -log_timescale_increment)
 * (fairseq's SinusoidalPositionalEmbedding.get_embedding: the same). d < 4
 * (one timescale) divides by zero there; pe_config_check refuses it. */
double
pe_sinusoidal_freq(size_t i, size_t d, double base, enum pe_layout layout)
{
	if (layout != PE_LAYOUT_T2T)
		return pe_sinusoidal_omega(i, d, base);
	double num_timescales = (double)(d / 2);
	double inc = log(base / 1.0) / (num_timescales - 1.0);
	return 1.0 * exp((double)i * -inc);
}

/* Frequency index and phase of column c: interleaved puts sin(p w_i) in
 * column 2i and cos in 2i+1 (the paper, PyTorch tutorials); split and t2t put
 * the d/2 sines first, then the d/2 cosines (GPT-J's
 * create_sinusoidal_positions, tensor2tensor's get_timing_signal_1d). */
void
pe_sinusoidal_column(size_t c, size_t d, enum pe_layout layout, size_t *freq,
                     int *is_cos)
{
	if (layout == PE_LAYOUT_SPLIT || layout == PE_LAYOUT_T2T) {
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
	double t = (double)p * pe_sinusoidal_freq(i, d, base, layout);
	return is_cos ? cos(t) : sin(t);
}

/* Fill dest[(p - p0) * d + c] for p = p0 .. p0+npos-1, one sincos per
 * (position, frequency). */
int
pe_sinusoidal_fill(size_t p0, size_t npos, size_t d, double base,
                   enum pe_layout layout, double *dest)
{
	bool halves = layout == PE_LAYOUT_SPLIT || layout == PE_LAYOUT_T2T;

	if (d == 0 || d % 2 != 0 || (layout == PE_LAYOUT_T2T && d < 4) ||
	    !isfinite(base) || base <= 1.0 || (npos > 0 && dest == NULL))
		return PE_EINVAL;
	for (size_t i = 0; i < d / 2; i++) {
		double w = pe_sinusoidal_freq(i, d, base, layout);
		size_t cs = halves ? i : 2 * i;
		size_t cc = halves ? d / 2 + i : 2 * i + 1;
		for (size_t k = 0; k < npos; k++) {
			double t = (double)(p0 + k) * w;
			dest[k * d + cs] = sin(t);
			dest[k * d + cc] = cos(t);
		}
	}
	return PE_OK;
}

/* Whether d, base and layout make a sinusoidal table (as
 * pe_sinusoidal_fill demands). */
static bool
sinusoidal_ok(size_t d, double base, enum pe_layout layout)
{
	return d > 0 && d % 2 == 0 && (layout != PE_LAYOUT_T2T || d >= 4) &&
	    isfinite(base) && base > 1.0;
}

/* Columns of frequency i: its sine's and its cosine's. */
static void
sinusoidal_pair_cols(size_t i, size_t d, enum pe_layout layout, size_t *cs,
                     size_t *cc)
{
	bool halves = layout == PE_LAYOUT_SPLIT || layout == PE_LAYOUT_T2T;

	*cs = halves ? i : 2 * i;
	*cc = halves ? d / 2 + i : 2 * i + 1;
}

/* M_K: per frequency w, the rotation by K w on its (sin, cos) columns:
 * sin((p+K)w) = cos(Kw) sin(pw) + sin(Kw) cos(pw),
 * cos((p+K)w) = -sin(Kw) sin(pw) + cos(Kw) cos(pw). */
int
pe_sinusoidal_shift(size_t d, double base, enum pe_layout layout, int64_t k,
                    double *dest)
{
	if (d > SIZE_MAX / d)
		return PE_EINVAL;
	return pe_sinusoidal_shift_rows(d, base, layout, k, 0, d, dest);
}

/* Rows r0 .. r1-1 of M_K: row r holds its frequency's rotation in the
 * columns of that frequency's sine and cosine, zeros elsewhere. */
int
pe_sinusoidal_shift_rows(size_t d, double base, enum pe_layout layout,
                         int64_t k, size_t r0, size_t r1, double *dest)
{
	if (!sinusoidal_ok(d, base, layout) || dest == NULL || r1 < r0 ||
	    r1 > d)
		return PE_EINVAL;
	for (size_t r = r0; r < r1; r++) {
		double *row = dest + (r - r0) * d;
		size_t i, cs, cc;
		int is_cos;
		pe_sinusoidal_column(r, d, layout, &i, &is_cos);
		double t = (double)k * pe_sinusoidal_freq(i, d, base, layout);
		double co = cos(t), si = sin(t);
		sinusoidal_pair_cols(i, d, layout, &cs, &cc);
		for (size_t c = 0; c < d; c++)
			row[c] = 0.0;
		if (!is_cos) {
			row[cs] = co;
			row[cc] = si;
		} else {
			row[cs] = 0.0 - si; /* +0, not -0, for K = 0 */
			row[cc] = co;
		}
	}
	return PE_OK;
}

/* max |PE(p + K) - M_K PE(p)| over the valid p of [p0, p1): the blocks of
 * pe_sinusoidal_shift applied to pe_sinusoidal_value's sin and cos. */
int
pe_sinusoidal_shift_residual(size_t n, size_t d, double base,
                             enum pe_layout layout, int64_t k, size_t p0,
                             size_t p1, double *dest)
{
	size_t lo = p0, hi = p1 < n ? p1 : n;
	double worst = 0.0;

	if (!sinusoidal_ok(d, base, layout) || dest == NULL)
		return PE_EINVAL;
	if (k < 0) {
		uint64_t back = (uint64_t)0 - (uint64_t)k;
		if (back >= n)
			return PE_EINVAL;
		if (lo < back)
			lo = (size_t)back;
	} else {
		if ((uint64_t)k >= n)
			return PE_EINVAL;
		if (hi > n - (size_t)k)
			hi = n - (size_t)k;
	}
	if (lo >= hi)
		return PE_EINVAL;
	for (size_t i = 0; i < d / 2; i++) {
		double w = pe_sinusoidal_freq(i, d, base, layout);
		double t = (double)k * w, co = cos(t), si = sin(t);
		for (size_t p = lo; p < hi; p++) {
			double a = (double)p * w;
			double b = (double)(int64_t)((int64_t)p + k) * w;
			double ys = co * sin(a) + si * cos(a);
			double yc = (0.0 - si) * sin(a) + co * cos(a);
			worst = fmax(worst, fmax(fabs(sin(b) - ys),
			                         fabs(cos(b) - yc)));
		}
	}
	*dest = worst;
	return PE_OK;
}

/* sinusoidal: a sin and a cos column per frequency. */
int
pe_sinusoidal_check(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->d % 2 != 0)
		FAIL("d_model %zu: sinusoidal needs an even d_model (each "
		     "frequency fills a sin and a cos column)", cfg->d);
	/* tensor2tensor's get_timing_signal_1d divides by
	 * num_timescales - 1 */
	if (cfg->layout == PE_LAYOUT_T2T && cfg->d < 4)
		FAIL("layout t2t: d_model %zu has one timescale, and "
		     "tensor2tensor divides by num_timescales - 1 = 0; use "
		     "d_model 4 or more", cfg->d);
	return PE_OK;
}

/* PE rows p0 .. p0+npos-1 of cfg (the added vector of the worked example
 * and the toy attention). */
int
pe_sinusoidal_vector(const struct pe_config *cfg, size_t p0, size_t npos,
    double *dest)
{
	return pe_sinusoidal_fill(p0, npos, cfg->d, cfg->base, cfg->layout,
	    dest);
}

/* The layout's d/2 frequencies. */
size_t
pe_sinusoidal_freqs(const struct pe_config *cfg, double *dest)
{
	for (size_t j = 0; dest != NULL && j < cfg->d / 2; j++)
		dest[j] = pe_sinusoidal_freq(j, cfg->d, cfg->base, cfg->layout);
	return cfg->d / 2;
}
