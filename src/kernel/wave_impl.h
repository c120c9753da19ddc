/* Private to the kernel: the inner loops of pescope/wave.h, one set per
 * instruction set (wave.c: generic C and libm; wave_avx2.c; wave_avx512.c),
 * and the choice between them. */
#ifndef PESCOPE_KERNEL_WAVE_IMPL_H
#define PESCOPE_KERNEL_WAVE_IMPL_H

#include "pescope/wave.h"

/* One instruction set's loops over nw frequencies of one row or a few (a
 * tile of the rows: in halves, a pair's second value is half columns
 * after its first):
 * exact:   dest as out says, from sin and cos of fl(p w_j);
 * exact32: the same values as floats;
 * anchor:  sin and cos of fl(p w_j) into s[j] and s[half + j] within 3.5
 *          ulps (SLEEF's u35: for |p w_j| up to 1e14, which the caller
 *          checks), the angle addition's anchors;
 * step:    the anchor of q = b + m from b's (s0, c0: sin, cos of fl(b
 *          w_j)) and a table's entry m (sm, cm: of fl(m w_j)) by angle
 *          addition, corrected to fl(q w_j) to second order: into s, c;
 * rows:    rows q + v, v = v0 .. v0 + nrows - 1, as out says (doubles, or
 *          f32 floats of the same doubles), from q's anchor and the
 *          level-1 table (entry v: sines at t1 + v tstride, cosines nw1
 *          after), corrected to first order; row i at dest + i stride
 *          values;
 * rows2:   NULL, or two whole steps at once: rows q + v and q + 16 + v,
 *          v = 0 .. 15, from the anchors of q (s0, c0) and of q + 16 (s1,
 *          c1), row i of them at dest + i stride: the values two calls of
 *          rows make, each table entry read once for the two rows.
 * Every angle fl(x w_j) is the product (double)x * w_j, computed where it
 * is needed. The formulas are wave.c's. */
struct wave_isa {
	const char *name;
	void (*exact)(const double *w, size_t nw, size_t half, double p,
	    const struct pe_wave_out *out, double *dest);
	void (*exact32)(const double *w, size_t nw, size_t half, double p,
	    const struct pe_wave_out *out, float *dest);
	void (*anchor)(const double *w, size_t nw, size_t half, double p,
	    double *s);
	void (*step)(const double *w, size_t nw, double q, double m,
	    const double *s0, const double *c0, const double *sm,
	    const double *cm, double *s, double *c);
	void (*rows)(const double *w, size_t nw, size_t half, double q,
	    size_t v0, size_t nrows, const double *s0, const double *c0,
	    const double *t1, size_t nw1, size_t tstride,
	    const struct pe_wave_out *out, void *dest, size_t stride, bool f32);
	void (*rows2)(const double *w, size_t nw, size_t half, double q,
	    const double *s0, const double *c0, const double *s1,
	    const double *c1, const double *t1, size_t nw1, size_t tstride,
	    const struct pe_wave_out *out, void *dest, size_t stride, bool f32);
};

extern const struct wave_isa pe_wave_avx2;

/* pe_trig_runs (kernel/trig.h) in AVX-512F with SLEEF's u35 sincos; the
 * other instruction sets use wave.c's libm loop. */
struct pe_trig_freqs;
struct pe_trig_run;
void pe_wave_avx512_runs(const struct pe_trig_freqs *fr, size_t n,
    const struct pe_trig_run *run, size_t nrun, bool add, double *re,
    double *im);
extern const struct wave_isa pe_wave_avx512;

/* Use the loops named name ("generic", "avx2", "avx512") from now on, for
 * the tests; false when this CPU or build has none by that name. */
bool pe_wave_force_isa(const char *name);

#endif
