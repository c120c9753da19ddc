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

#include <stdbool.h>
#include <stddef.h>
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

/* c[i] = cos(x h[i]), c[stride + i] = sin(x h[i]) for i < n, the angle
 * fl(x h[i]) as (double)x * h[i] is: the exact loops of wave.h (SLEEF's
 * u10 sincos, within 1 ulp, where the CPU has AVX2 + FMA or AVX-512F; libm
 * elsewhere). stride >= n. */
void pe_trig_sincos_many(const double *h, size_t n, size_t stride, double x,
                         double *c);

/* The polar forms of n sums of unit vectors, x[i] of cosines and y[i] of
 * sines over cnt[i] items (a block's circular statistics): angle[i] =
 * atan2(y[i], x[i]), wrapped into [0, 2 pi) (below 0: plus PE_TWO_PI),
 * and len[i] = sqrt(y^2 + x^2) / cnt[i] where below 1, else 1 (a NaN
 * too). atan2 is SLEEF's u35, within 3.5 ulp, where the wave loops in
 * use are AVX-512F's or AVX2's (pe_wave_isa: a test that forces the
 * generic loops gets libm's); the rest is IEEE arithmetic, the same bits
 * everywhere. A circular mean a pixel made glibc's atan2 and hypot a
 * third of an angle picture's block means; SLEEF's u10 was still a tenth
 * of rope's frame, u35 half of that. A block's sums of sines and cosines
 * carry rounding errors of many ulps already (a sum over its elements),
 * which the mean's angle carries whatever atan2's last ulps. */
void pe_trig_polar_many(const double *y, const double *x, const double *cnt,
                        size_t n, double *angle, double *len);

/* The loops of pe_trig_polar_many for each instruction set
 * (trig_avx512.c, trig_avx2.c: x86-64 only). */
void pe_trig_polar_avx512(const double *y, const double *x,
                          const double *cnt, size_t n, double *angle,
                          double *len);
void pe_trig_polar_avx2(const double *y, const double *x, const double *cnt,
                        size_t n, double *angle, double *len);

/* Runs of positions summed for many frequencies at once (the mrope
 * fields' blocks). A frequency k has h = pe_trig_reduce(w) / 2 and its sine
 * and cosine; a run of len positions p0 .. p0 + len - 1, each held mult
 * times, sums (Lagrange's identity, above)
 *   mult sum_p e^{i p w} = mult D e^{i mid h},  mid = 2 p0 + len - 1,
 *   D = sin(len h) / sin(h) (len where sin(h) is 0, 1 when len is 1).
 * A run may start at an anchor A (mid h = (2 A - 1) h + len h) or end
 * before one (p0 + len = A: (2 A - 1) h - len h): its phase is then the
 * anchor's, prepared once, turned by len h, so the one sincos of len h
 * gives both D and the turn (none when len is 1). */
struct pe_trig_freqs {
	const double *h;	/* pe_trig_reduce(w) / 2 */
	const double *sh, *ch;	/* sin(h), cos(h) */
	const double *ish;	/* 1 / sin(h), 0 where sin(h) is 0 */
	const double *ac[2], *as[2]; /* cos, sin of (2 A - 1) h, anchor A */
};

struct pe_trig_run {
	double mid;	/* 2 p0 + len - 1 (without an anchor) */
	double len, mult;
	int anchor;	/* -1: none; 0: starts at anchor 0; 1: ends before
			   anchor 1 */
};

/* re[k] = sum over the nrun runs of mult D cos(phase), im[k] the sines,
 * for the n frequencies of fr (struct pe_trig_freqs); added to re and im
 * with add. Vectorised with SLEEF's u35 sincos and sine (within 3.5 ulp;
 * the angle mid h is itself rounded to an ulp of mid times h's) where the
 * CPU has AVX-512F, libm elsewhere (wave.c); every run's terms are added
 * in run order. */
void pe_trig_runs(const struct pe_trig_freqs *fr, size_t n,
                  const struct pe_trig_run *run, size_t nrun, bool add,
                  double *re, double *im);

#endif
