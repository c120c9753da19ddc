/* The worked example: a token's vector x plus PE(p) (Vaswani
 * et al. 2017, sec. 3.5), or rotated to p (Su et al. 2021; HF). */
#include <math.h>
#include <stdlib.h>

#include "pescope/encoding.h"
#include "pescope/example.h"
#include "pescope/rope.h"

/* x + PE(p) for npos positions (the row's vector); NaN rows past a
 * learned table. */
int
pe_example_sum(const struct pe_config *cfg, const double *x, size_t p0,
    size_t npos, double *dest)
{
	const struct pe_encoding_def *e = pe_encoding_def(cfg->enc);
	size_t d = cfg->d;

	if (x == NULL || (npos > 0 && dest == NULL) || e == NULL ||
	    e->vector == NULL)
		return PE_EINVAL;
	int rc = e->vector(cfg, p0, npos, dest);
	if (rc != PE_OK && rc != PE_ERANGE)
		return rc;
	for (size_t k = 0; k < npos; k++)
		for (size_t c = 0; c < d; c++)
			dest[k * d + c] += x[c];
	return PE_OK;
}

/* R_p x for npos positions. */
int
pe_example_rotated(const struct pe_rope *r, const double *x, size_t p0,
    size_t npos, double *dest)
{
	if (r == NULL || r->inv_freq == NULL || x == NULL ||
	    (npos > 0 && dest == NULL))
		return PE_EINVAL;
	for (size_t k = 0; k < npos; k++)
		pe_rope_apply(r, x, (double)(p0 + k), dest + k * r->d);
	return PE_OK;
}

/* |x|, scaled so that no square overflows or underflows. */
double
pe_example_norm(const double *x, size_t d)
{
	double big = 0.0, s = 0.0;

	for (size_t c = 0; c < d; c++)
		big = fmax(big, fabs(x[c]));
	if (big == 0.0 || !isfinite(big))
		return big;
	for (size_t c = 0; c < d; c++)
		s += (x[c] / big) * (x[c] / big);
	return big * sqrt(s);
}

/* y = x + PE(p) into y[d]: PE_ERANGE where the encoding has no vector
 * (past a learned table). */
static int
example_sum_one(const struct pe_config *cfg, const double *x, size_t p,
    double *y)
{
	const struct pe_encoding_def *e = pe_encoding_def(cfg->enc);
	int rc;

	if (x == NULL || e == NULL || e->vector == NULL)
		return PE_EINVAL;
	if ((rc = e->vector(cfg, p, 1, y)) != PE_OK)
		return rc;
	for (size_t c = 0; c < cfg->d; c++)
		y[c] += x[c];
	return PE_OK;
}

/* |x + PE(p)|. */
int
pe_example_sum_norm(const struct pe_config *cfg, const double *x, size_t p,
    double *dest)
{
	double *y;
	int rc;

	*dest = NAN;
	if ((y = malloc(cfg->d * sizeof *y)) == NULL)
		return PE_ENOMEM;
	if ((rc = example_sum_one(cfg, x, p, y)) == PE_OK)
		*dest = pe_example_norm(y, cfg->d);
	free(y);
	return rc;
}

/* The angle between x and y[d] by Kahan's formula: 2 atan2(|u - v|,
 * |u + v|) for the unit vectors u, v; NaN when either is zero. */
static double
example_angle(const double *x, const double *y, size_t d)
{
	double nx = pe_example_norm(x, d), ny = pe_example_norm(y, d);
	double diff = 0.0, sum = 0.0;

	if (!(nx > 0.0) || !(ny > 0.0))
		return NAN;
	for (size_t c = 0; c < d; c++) {
		double u = x[c] / nx, v = y[c] / ny;
		diff += (u - v) * (u - v);
		sum += (u + v) * (u + v);
	}
	return 2.0 * atan2(sqrt(diff), sqrt(sum));
}

/* The angle between x and x + PE(p). */
int
pe_example_sum_angle(const struct pe_config *cfg, const double *x, size_t p,
    double *dest)
{
	double *y;
	int rc;

	*dest = NAN;
	if ((y = malloc(cfg->d * sizeof *y)) == NULL)
		return PE_ENOMEM;
	if ((rc = example_sum_one(cfg, x, p, y)) == PE_OK)
		*dest = example_angle(x, y, cfg->d);
	free(y);
	return rc;
}

/* |R_p x|, from the rotated vector. */
int
pe_example_rotated_norm(const struct pe_rope *r, const double *x, size_t p,
    double *dest)
{
	double *y;
	int rc;

	if (r == NULL || x == NULL || dest == NULL)
		return PE_EINVAL;
	*dest = NAN;
	if ((y = malloc(r->d * sizeof *y)) == NULL)
		return PE_ENOMEM;
	if ((rc = pe_example_rotated(r, x, p, 1, y)) == PE_OK)
		*dest = pe_example_norm(y, r->d);
	free(y);
	return rc;
}
