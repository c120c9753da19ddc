/* Private to the kernel: closed-form sums of sines and cosines over an
 * arithmetic progression of angles, the engine of every exact block mean.
 *
 * Lagrange's trigonometric identity (e.g. Gradshteyn & Ryzhik 1.341.1-2):
 *   sum_{p=p0}^{p0+n-1} sin(a + p w) = sin(a + (2 p0 + n - 1) w/2) D(n, w)
 *   sum_{p=p0}^{p0+n-1} cos(a + p w) = cos(a + (2 p0 + n - 1) w/2) D(n, w)
 * with the Dirichlet factor D(n, w) = sin(n w/2) / sin(w/2), and D = n when
 * w is a multiple of 2 pi. */
#ifndef PESCOPE_KERNEL_TRIG_H
#define PESCOPE_KERNEL_TRIG_H

#include <stdint.h>

/* w reduced into [-pi, pi]: the same sines at every integer multiple. */
double pe_trig_reduce(double w);

/* Dirichlet factor D(n, wr) = sin(n wr/2) / sin(wr/2) for a reduced wr
 * (pe_trig_reduce); exactly n when sin(wr/2) vanishes. */
double pe_trig_dirichlet(double wr, uint64_t n);

/* *s = sum sin(a + p w), *c = sum cos(a + p w) over p = p0 .. p0+n-1. */
void pe_trig_sum(double a, double w, uint64_t p0, uint64_t n, double *s,
                 double *c);

/* Real part of (sum_p e^{i p w}) * conj(sum_q e^{i q w}) over p = p0 ..
 * p0+np-1 and q = q0 .. q0+nq-1, i.e. sum_p sum_q cos((p - q) w). The phase
 * difference is formed from integers first, so no large angles cancel. */
double pe_trig_cross(double w, uint64_t p0, uint64_t np, uint64_t q0,
                     uint64_t nq);

#endif
