/* Rows of sines and cosines (pescope/wave.h): the blocks of the fast
 * accuracy, the choice of instruction set, and the generic loops (libm,
 * as pe_sinusoidal_value computes one value). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/wave_impl.h"

/* Bytes the angle-addition table may take (rows read it a tile at a time). */
#define WAVE_TABLE_BYTES ((size_t)4 << 20)
/* Most rows in a block: the exact sines are then 1/64 of the work. */
#define WAVE_MAX_BLOCK 64
/* Frequencies a tile of pe_wave_rows covers. */
#define WAVE_TILE 256

/* Place pair j's values (a = first, b = second) as out says. */
static void
wave_put(const struct pe_wave_out *out, size_t half, size_t j, double s,
         double c, double *dest)
{
	double a = (out->cos1 ? c : s) * out->scale;
	double b = (out->cos2 ? c : s) * out->scale;
	if (out->pairs) {
		dest[2 * j] = a;
		dest[2 * j + 1] = b;
	} else {
		dest[j] = a;
		dest[half + j] = b;
	}
}

/* Generic exact loop: libm's sin and cos of fl(p w_j). */
static void
wave_exact_generic(const double *w, size_t nw, size_t half, double p,
                   const struct pe_wave_out *out, double *dest)
{
	for (size_t j = 0; j < nw; j++) {
		double t = p * w[j];
		wave_put(out, half, j, sin(t), cos(t), dest);
	}
}

/* Generic angle addition, corrected to fl(p w_j):
 * sin(a0 + ak) = s0 ck + c0 sk, cos(a0 + ak) = c0 ck - s0 sk, and with
 * r = fl(p w) - a0 - ak (exact: Sterbenz, since b >= k or b = 0),
 * sin(a0 + ak + r) = S + C r, cos = C - S r to first order. */
static void
wave_add_generic(const double *w, size_t nw, size_t half, double p, double b,
                 double k,
                 const double *s0, const double *c0, const double *sk,
                 const double *ck, const struct pe_wave_out *out,
                 double *dest)
{
	for (size_t j = 0; j < nw; j++) {
		double a0 = b * w[j], ak = k * w[j], t = p * w[j];
		double r = (t - a0) - ak;
		double S = s0[j] * ck[j] + c0[j] * sk[j];
		double C = c0[j] * ck[j] - s0[j] * sk[j];
		wave_put(out, half, j, S + C * r, C - S * r, dest);
	}
}

static const struct wave_isa wave_generic = {"generic", wave_exact_generic,
	wave_add_generic};

/* The loops in use, chosen at the first wave (no thread fills before its
 * wave is made). */
static const struct wave_isa *wave_isa_in_use;

/* The best loops this CPU runs. */
static const struct wave_isa *
wave_pick(void)
{
#if defined(PE_WAVE_X86)
	__builtin_cpu_init();
	if (__builtin_cpu_supports("avx512f"))
		return &pe_wave_avx512;
	if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
		return &pe_wave_avx2;
#endif
	return &wave_generic;
}

/* The loops in use. */
static const struct wave_isa *
wave_isa(void)
{
	if (wave_isa_in_use == NULL)
		wave_isa_in_use = wave_pick();
	return wave_isa_in_use;
}

/* Name of the loops in use. */
const char *
pe_wave_isa(void)
{
	return wave_isa()->name;
}

/* Force the loops named name (tests). */
bool
pe_wave_force_isa(const char *name)
{
	const struct wave_isa *isa = NULL;

	if (strcmp(name, "generic") == 0)
		isa = &wave_generic;
#if defined(PE_WAVE_X86)
	__builtin_cpu_init();
	if (strcmp(name, "avx512") == 0 && __builtin_cpu_supports("avx512f"))
		isa = &pe_wave_avx512;
	if (strcmp(name, "avx2") == 0 && __builtin_cpu_supports("avx2") &&
	    __builtin_cpu_supports("fma"))
		isa = &pe_wave_avx2;
#endif
	if (isa != NULL)
		wave_isa_in_use = isa;
	return isa != NULL;
}

/* Prepare the frequencies and, for PE_WAVE_F32, the table of sin and cos
 * of fl(k w_j) for k < block. */
int
pe_wave_init(struct pe_wave *wv, const double *w, size_t nw,
             enum pe_wave_accuracy acc)
{
	static const struct pe_wave_out halves = {false, false, true, 1.0};
	const struct wave_isa *isa = wave_isa();

	memset(wv, 0, sizeof *wv);
	if (nw == 0 || w == NULL || nw > SIZE_MAX / 2 / WAVE_MAX_BLOCK /
	    sizeof(double))
		return PE_EINVAL;
	for (size_t j = 0; j < nw; j++)
		if (!isfinite(w[j]))
			return PE_EINVAL;
	if ((wv->w = malloc(nw * sizeof *wv->w)) == NULL)
		return PE_ENOMEM;
	memcpy(wv->w, w, nw * sizeof *wv->w);
	wv->nw = nw;
	wv->block = 1;
	if (acc == PE_WAVE_F32)
		while (wv->block < WAVE_MAX_BLOCK &&
		    2 * wv->block * 2 * nw * sizeof(double) <= WAVE_TABLE_BYTES)
			wv->block *= 2;
	if (wv->block == 1)
		return PE_OK;
	if ((wv->tab = malloc(wv->block * 2 * nw * sizeof *wv->tab)) == NULL) {
		pe_wave_free(wv);
		return PE_ENOMEM;
	}
	for (size_t k = 0; k < wv->block; k++)
		isa->exact(wv->w, nw, nw, (double)k, &halves,
		           wv->tab + k * 2 * nw);
	return PE_OK;
}

/* Release a wave. */
void
pe_wave_free(struct pe_wave *wv)
{
	free(wv->w);
	free(wv->tab);
	memset(wv, 0, sizeof *wv);
}

/* Frequencies j0 .. j0+nj-1 of row p into dest (the row's start); base
 * holds sin, cos of fl(*b w_j) for the block *b (SIZE_MAX: none yet) in
 * those columns of [2 nw], updated when p leaves the block. */
static void
wave_tile(const struct wave_isa *isa, const struct pe_wave *wv, size_t j0,
          size_t nj, size_t p, const struct pe_wave_out *out, double *base,
          size_t *b, double *dest)
{
	static const struct pe_wave_out halves = {false, false, true, 1.0};
	size_t nw = wv->nw;
	double *at = dest + (out->pairs ? 2 * j0 : j0);

	if (wv->block == 1) {
		isa->exact(wv->w + j0, nj, nw, (double)p, out, at);
		return;
	}
	size_t first = p - p % wv->block, k = p - first;
	if (first != *b) {
		isa->exact(wv->w + j0, nj, nw, (double)first, &halves, base + j0);
		*b = first;
	}
	const double *t = wv->tab + k * 2 * nw;
	isa->add(wv->w + j0, nj, nw, (double)p, (double)first, (double)k,
	         base + j0, base + nw + j0, t + j0, t + nw + j0, out, at);
}

/* Rows p0 .. p0+npos-1 as out says, a tile of WAVE_TILE frequencies at a
 * time over all the rows, so that the tile's part of the table, of the
 * block's sines and of the rows stays in cache. */
int
pe_wave_rows(const struct pe_wave *wv, size_t p0, size_t npos,
             const struct pe_wave_out *out, double *dest, size_t stride)
{
	const struct wave_isa *isa = wave_isa();
	double *base = NULL;

	if (wv == NULL || wv->w == NULL || out == NULL ||
	    (npos > 0 && dest == NULL) || stride < 2 * wv->nw)
		return PE_EINVAL;
	if (wv->block > 1 &&
	    (base = malloc(2 * wv->nw * sizeof *base)) == NULL)
		return PE_ENOMEM;
	for (size_t j0 = 0; j0 < wv->nw; j0 += WAVE_TILE) {
		size_t nj = wv->nw - j0 < WAVE_TILE ? wv->nw - j0 : WAVE_TILE;
		size_t b = SIZE_MAX;
		for (size_t k = 0; k < npos; k++)
			wave_tile(isa, wv, j0, nj, p0 + k, out, base, &b,
			          dest + k * stride);
	}
	free(base);
	return PE_OK;
}

/* Sums of the cosines of rows p0 .. p0+npos-1, in frequency order. */
int
pe_wave_cos_sums(const struct pe_wave *wv, size_t p0, size_t npos,
                 double *dest)
{
	static const struct pe_wave_out halves = {false, false, true, 1.0};
	const struct wave_isa *isa = wave_isa();
	size_t nw, b = SIZE_MAX;

	if (wv == NULL || wv->w == NULL || (npos > 0 && dest == NULL))
		return PE_EINVAL;
	nw = wv->nw;
	double *row = malloc((wv->block > 1 ? 4 : 2) * nw * sizeof *row);
	if (row == NULL)
		return PE_ENOMEM;
	for (size_t k = 0; k < npos; k++) {
		double sum = 0.0;
		wave_tile(isa, wv, 0, nw, p0 + k, &halves, row + 2 * nw, &b, row);
		for (size_t j = 0; j < nw; j++)
			sum += row[nw + j];
		dest[k] = sum;
	}
	free(row);
	return PE_OK;
}
