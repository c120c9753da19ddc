/* Private to the kernel: the inner loops of pescope/wave.h, one set per
 * instruction set (wave.c: generic C and libm; wave_avx2.c; wave_avx512.c),
 * and the choice between them. */
#ifndef PESCOPE_KERNEL_WAVE_IMPL_H
#define PESCOPE_KERNEL_WAVE_IMPL_H

#include "pescope/wave.h"

/* One instruction set's loops over nw frequencies of one row (a tile of
 * the row: in halves, a pair's second value is half columns after its
 * first):
 * exact:  dest as out says, from sin and cos of fl(p w_j);
 * add:    the same from the angle-addition block: s0, c0 = sin, cos of
 *         fl(b w_j), sk, ck = sin, cos of fl(k w_j), p = b + k, corrected
 *         to fl(p w_j) (pe_wave_accuracy, PE_WAVE_F32). */
struct wave_isa {
	const char *name;
	void (*exact)(const double *w, size_t nw, size_t half, double p,
	    const struct pe_wave_out *out, double *dest);
	void (*add)(const double *w, size_t nw, size_t half, double p,
	    double b, double k,
	    const double *s0, const double *c0, const double *sk,
	    const double *ck, const struct pe_wave_out *out, double *dest);
};

extern const struct wave_isa pe_wave_avx2;
extern const struct wave_isa pe_wave_avx512;

/* Use the loops named name ("generic", "avx2", "avx512") from now on, for
 * the tests; false when this CPU or build has none by that name. */
bool pe_wave_force_isa(const char *name);

#endif
