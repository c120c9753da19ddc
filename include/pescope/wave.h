/* Rows of sines and cosines at memory speed: sin and cos of p w_j for many
 * rows p and fixed frequencies w_j, the engine of the tables dump writes
 * (sinusoidal and vit2d pe, rope cos and sin, the wave similarities).
 * Vectorised with SLEEF (Shibata & Fukushima 2020, "SLEEF: A Portable
 * Vectorized Library of C Standard Mathematical Functions", IEEE TPDS 31(6);
 * its u10 functions are within 1.0 ulp) where the CPU has AVX2 + FMA or
 * AVX-512F, libm elsewhere; the choice is made once per process, so every
 * row has the same bits however the rows are split between calls or
 * threads. Angles are formed and reduced in double. */
#ifndef PESCOPE_WAVE_H
#define PESCOPE_WAVE_H

#include "pescope.h"

/* How exact the values are. */
enum pe_wave_accuracy {
	/* each value is sin or cos of its own angle fl(p w_j), as
	 * sin((double)p * w) is: within 1 ulp of libm's */
	PE_WAVE_EXACT,
	/* for float32 output: rows in blocks of wv->block = 64, each row
	 * p = b + 16u + v reached from sin and cos of the block's first row
	 * b (within 3.5 ulps) in two angle additions with tabulated sin and
	 * cos of fl(16u w_j) and fl(v w_j), each corrected to the angle
	 * fl(x w_j) it stands for (in r = fl(p w) - fl(q w) - fl(v w), which
	 * is exact and below 2 ulps of p w; second order at q = b + 16u,
	 * first at p): within 1e-13 of sin(fl(p w)) in double, so its float
	 * is within an ulp of float32's correctly rounded value (wave.c) */
	PE_WAVE_F32,
};

/* Frequencies and what is derived from them once; read-only afterwards,
 * so threads may share one. */
struct pe_wave {
	size_t nw;	 /* frequencies */
	double *w;	 /* [nw] */
	double wmax;	 /* max |w_j| */
	size_t block;	 /* rows of an angle-addition block (an exact
			    anchor); 1: every row exact */
	double *tab;	 /* per tile of frequencies, sin and cos of
			    fl(16 m w_j), m < 4, then of fl(m w_j),
			    m < 16 (wave.c) */
	unsigned long serial; /* PE_WAVE_F32: which wave (a thread keeps
			    the anchors of the last blocks it filled, by
			    it); 0 otherwise */
};

/* Where a row's values go: pair j is (first, second), each sin or cos of
 * p w_j, times scale. */
struct pe_wave_out {
	bool pairs;	/* columns 2j, 2j+1 (else j and nw + j) */
	bool cos1;	/* the first of a pair is the cosine (else the sine) */
	bool cos2;	/* the second of a pair is the cosine */
	double scale;	/* every value times it (1: unchanged) */
};

/* Prepare a wave of the nw frequencies w (copied) at accuracy acc.
 * Returns PE_OK, PE_EINVAL for nw == 0, a NULL or non-finite w, PE_ENOMEM. */
int pe_wave_init(struct pe_wave *wv, const double *w, size_t nw,
    enum pe_wave_accuracy acc);
void pe_wave_free(struct pe_wave *wv);

/* Rows p0 .. p0+npos-1, row p at dest + (p - p0) * stride:
 * formula: dest[a_j] = scale f1(p w_j), dest[b_j] = scale f2(p w_j),
 *          (a_j, b_j) = (2j, 2j+1) for pairs, else (j, nw + j);
 *          f = sin or cos (out->cos1, out->cos2)
 * Each value depends on p and j only, never on p0 or npos.
 * Returns PE_OK, PE_EINVAL for a bad argument, PE_ENOMEM. */
int pe_wave_rows(const struct pe_wave *wv, size_t p0, size_t npos,
    const struct pe_wave_out *out, double *dest, size_t stride);

/* The same rows as float32: each value the float of pe_wave_rows's double
 * (so the same bytes as converting those rows), written with no double in
 * between; stride in floats. */
int pe_wave_rows_f32(const struct pe_wave *wv, size_t p0, size_t npos,
    const struct pe_wave_out *out, float *dest, size_t stride);

/* Sums of the cosines of rows p0 .. p0+npos-1, in frequency order:
 * formula: dest[k] = sum_{j=0}^{nw-1} cos((p0 + k) w_j)
 * (the similarity of sinusoidal PE at distance p0 + k).
 * Returns PE_OK, PE_EINVAL, PE_ENOMEM. */
int pe_wave_cos_sums(const struct pe_wave *wv, size_t p0, size_t npos,
    double *dest);

/* Name of the instruction set the waves use: "avx512", "avx2" or
 * "generic". */
const char *pe_wave_isa(void);

#endif
