/* The product under grids of scores whose block sums factor per pair
 * (pe_field_dots and the wave similarities, field_sim.c): a cell's sum is
 * Re sum_j X_j(rows) conj(Y_j(cols)) = sum_k x[k] y[k] over the real and
 * imaginary parts laid side by side, one dot product per cell: a matrix
 * product of the row blocks' factors by the column blocks'. Leaf code: it
 * calls nothing else of the kernel.
 *
 * pe_field_gemm is that product, a chunk of pairs at a time: tiles of 4
 * row blocks by 3 column blocks whose 12 sums live in vector registers
 * while the pairs stream past (8 doubles a step, the tile's loads shared
 * by its cells), so it runs at the machine's multiply-add rate instead of
 * a dot product's load rate. Each cell's sum is the same additions in the
 * same order whatever the tile or the instruction set (the vector clones
 * do each lane's scalar arithmetic; no multiply-add is fused): lane l
 * sums the terms k = l mod 8, then the lanes add in a fixed tree. */
#include <stdlib.h>
#include <string.h>

#include "kernel/clones.h"
#include "kernel/field_impl.h"

/* Eight doubles: GCC's vector extension, one register on AVX-512, two on
 * AVX2, four on SSE2. */
typedef double field_v8 __attribute__((vector_size(64)));

/* Load eight doubles from p (any alignment) into v (a macro: a function
 * passing the vector by value would have an ABI of its own per clone). */
#define FIELD_V8_LOAD(v, p) memcpy(&(v), (p), sizeof(field_v8))

/* The lanes of *v added in a fixed tree. */
static inline double
field_v8_sum(const field_v8 *v)
{
	return (((*v)[0] + (*v)[1]) + ((*v)[2] + (*v)[3])) +
	    (((*v)[4] + (*v)[5]) + ((*v)[6] + (*v)[7]));
}

/* Rows X of tile a0 .. a0+ra-1 by columns b0 .. b0+rb-1 (ra <= 4, rb <=
 * 3): acc[a * nc + b] += the dot product of x row a and y row b over kl
 * doubles (a multiple of 8). */
static inline __attribute__((always_inline)) void
field_gemm_tile(const double *x, const double *y, size_t kl, size_t ks,
                size_t a0, size_t b0, int ra, int rb, double *acc,
                size_t nc)
{
	field_v8 s[4][3] = {{{0}}};

	for (size_t k = 0; k < kl; k += 8) {
		field_v8 xv[4], yv[3];
		for (int a = 0; a < ra; a++)
			FIELD_V8_LOAD(xv[a], x + (a0 + (size_t)a) * ks + k);
		for (int b = 0; b < rb; b++)
			FIELD_V8_LOAD(yv[b], y + (b0 + (size_t)b) * ks + k);
		for (int a = 0; a < ra; a++)
			for (int b = 0; b < rb; b++)
				s[a][b] += xv[a] * yv[b];
	}
	for (int a = 0; a < ra; a++)
		for (int b = 0; b < rb; b++)
			acc[(a0 + (size_t)a) * nc + b0 + (size_t)b] +=
			    field_v8_sum(&s[a][b]);
}

/* acc[a nc + b] += sum_{k < kl} x[a ks + k] y[b ks + k] for a < nr, b < nc
 * (kl a multiple of 8, the rows ks apart). */
PE_CLONES void
pe_field_gemm(const double *x, size_t nr, const double *y, size_t nc,
              size_t kl, size_t ks, double *acc)
{
	size_t a = 0;

	for (; a + 4 <= nr; a += 4) {
		size_t b = 0;
		for (; b + 3 <= nc; b += 3)
			field_gemm_tile(x, y, kl, ks, a, b, 4, 3, acc, nc);
		for (; b < nc; b++)
			field_gemm_tile(x, y, kl, ks, a, b, 4, 1, acc, nc);
	}
	for (; a < nr; a++) {
		size_t b = 0;
		for (; b + 3 <= nc; b += 3)
			field_gemm_tile(x, y, kl, ks, a, b, 1, 3, acc, nc);
		for (; b < nc; b++)
			field_gemm_tile(x, y, kl, ks, a, b, 1, 1, acc, nc);
	}
}

/* The dot product of x and y over kl doubles (a multiple of 8), with the
 * lanes of pe_field_gemm: the same sum it gives that cell. */
PE_CLONES double
pe_field_dot8(const double *x, const double *y, size_t kl)
{
	field_v8 s = {0}, a, b;

	for (size_t k = 0; k < kl; k += 8) {
		FIELD_V8_LOAD(a, x + k);
		FIELD_V8_LOAD(b, y + k);
		s += a * b;
	}
	return field_v8_sum(&s);
}

/* Pairs a chunk of a dot-product grid takes: the row and column blocks'
 * factors (2 doubles a pair each) within FIELD_DOTS_BYTES, at most
 * FIELD_DOTS_MAX_PAIRS, a multiple of 4 (whole vectors of 8 doubles), and
 * the pairs shared evenly by as few chunks as that allows (the last chunk
 * is padded with zeros that the product multiplies: rope's score map at d
 * 8192 on 34 x 72 blocks had 2472 pairs, then 1624 and 848 zeros). */
size_t
pe_field_dots_chunk(size_t nblocks, size_t npairs)
{
	size_t k = FIELD_DOTS_BYTES / (2 * sizeof(double) * (nblocks ? nblocks
	    : 1));
	if (k > FIELD_DOTS_MAX_PAIRS)
		k = FIELD_DOTS_MAX_PAIRS;
	k -= k % 4;
	if (k < 4)
		k = 4;
	size_t n = (npairs + k - 1) / k; /* chunks */
	size_t even = (npairs + (n ? n : 1) - 1) / (n ? n : 1);
	return (even + 3) / 4 * 4;
}

/* Memory for nblocks rows of a chunk of kpad pairs (re, then im: 2 kpad
 * doubles a row), on a cache line's start, not zeroed (each chunk writes
 * its pairs and pe_field_dots_tails zeroes the rest: a pass over
 * megabytes saved); NULL when out of memory. */
double *
pe_field_dots_alloc(size_t nblocks, size_t kpad)
{
	void *p = NULL;
	size_t bytes = (nblocks ? nblocks : 1) * 2 * kpad * sizeof(double);

	if (posix_memalign(&p, 64, bytes) != 0)
		return NULL;
	return p;
}

/* Zero the pairs [kn, kpad) of each of nblocks rows' re and im: what a
 * chunk of kn pairs leaves (the product reads whole vectors). */
void
pe_field_dots_tails(double *rows, size_t nblocks, size_t kpad, size_t kn)
{
	if (kn >= kpad)
		return;
	for (size_t b = 0; b < nblocks; b++) {
		double *row = rows + b * 2 * kpad;
		memset(row + kn, 0, (kpad - kn) * sizeof *row);
		memset(row + kpad + kn, 0, (kpad - kn) * sizeof *row);
	}
}
