/* Closed-form sums of sines and cosines over arithmetic progressions. */
#include <math.h>
#include <string.h>

#include "kernel/trig.h"
#include "pescope/pescope.h"
#include "pescope/wave.h"

/* w reduced into [-pi, pi]; exact (remainder is exact in IEEE arithmetic),
 * and p * w differs from p * wr by a multiple of the double 2 pi only. */
double
pe_trig_reduce(double w)
{
	if (w >= -M_PI && w <= M_PI)
		return w;
	return remainder(w, PE_TWO_PI);
}

/* Dirichlet factor sin(n wr/2) / sin(wr/2) (Lagrange's identity). With wr in
 * [-pi, pi] the denominator vanishes only at wr = 0, where numerator and
 * denominator are both accurate to relative precision, so the quotient is
 * too; at exactly zero the limit n is returned. */
double
pe_trig_dirichlet(double wr, uint64_t n)
{
	double h = 0.5 * wr;
	double sh = sin(h);

	if (sh == 0.0)
		return (double)n;
	return sin((double)n * h) / sh;
}

/* Sum of sin and cos of a + p w over p = p0 .. p0+n-1 in closed form:
 *   sum = {sin, cos}(a + (2 p0 + n - 1) w/2) sin(n w/2) / sin(w/2)
 * (Lagrange's trigonometric identity). */
void
pe_trig_sum(double a, double w, uint64_t p0, uint64_t n, double *s, double *c)
{
	if (n == 0) {
		*s = 0.0;
		*c = 0.0;
		return;
	}
	double wr = pe_trig_reduce(w);
	double dn = pe_trig_dirichlet(wr, n);
	double mid = (double)(2 * p0 + n - 1); /* exact below 2^53 */
	double phase = a + mid * (0.5 * wr);
	*s = sin(phase) * dn;
	*c = cos(phase) * dn;
}

/* sum_p sum_q cos((p - q) w) = D(np, w) D(nq, w) cos((mid_p - mid_q) w/2)
 * with mid = 2 start + count - 1: the product of two geometric sums
 * sum e^{i p w} = e^{i mid w/2} D(n, w) (Lagrange's identity). */
double
pe_trig_cross(double w, uint64_t p0, uint64_t np, uint64_t q0, uint64_t nq)
{
	if (np == 0 || nq == 0)
		return 0.0;
	double wr = pe_trig_reduce(w);
	int64_t dm = (int64_t)(2 * p0 + np) - (int64_t)(2 * q0 + nq);
	return pe_trig_dirichlet(wr, np) * pe_trig_dirichlet(wr, nq) *
	       cos((double)dm * (0.5 * wr));
}

/* Angles and lengths of n sums of unit vectors with the instruction set
 * of the wave loops in use (trig.h). */
void
pe_trig_polar_many(const double *y, const double *x, const double *cnt,
                   size_t n, double *angle, double *len)
{
#if defined(PE_WAVE_X86)
	const char *isa = pe_wave_isa();

	if (strcmp(isa, "avx512") == 0) {
		pe_trig_polar_avx512(y, x, cnt, n, angle, len);
		return;
	}
	if (strcmp(isa, "avx2") == 0) {
		pe_trig_polar_avx2(y, x, cnt, n, angle, len);
		return;
	}
#endif
	for (size_t i = 0; i < n; i++) {
		double a = atan2(y[i], x[i]);
		angle[i] = a < 0.0 ? a + PE_TWO_PI : a;
		double r = sqrt(y[i] * y[i] + x[i] * x[i]) / cnt[i];
		len[i] = r < 1.0 ? r : 1.0;
	}
}
