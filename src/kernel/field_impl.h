/* Private to the field modules (field.c and field_*.c): what they share.
 *
 * field.c is the public API (include/pescope/field.h): it prepares a field
 * and sends each call to the module of its kind:
 *   field_wave.c     sinusoidal PE, rope cos/sin/angle: blocks and grids;
 *   field_scan.c     exact min/max of wave blocks;
 *   field_sim.c      similarities of waves (sinusoidal, rope);
 *   field_learned.c  learned tables: column prefix sums, PE and similarity;
 *   field_patch.c    vit2d: PE over patch indices, the patch cosine;
 *   field_tiling.c   geometric sums of the blocks of a tiling (phasors);
 * Alibi bias, the causal mask and relative buckets are diagonal fields,
 * handled by diag.c (kernel/diag.h). */
#ifndef PESCOPE_KERNEL_FIELD_IMPL_H
#define PESCOPE_KERNEL_FIELD_IMPL_H

#include <math.h>
#include <stdlib.h>

#include "pescope/field.h"

/* 2 pi to double precision. */

/* Frequencies per pass of a wave grid (its scratch stays small, so it
 * comes from the heap, not from fresh pages). */
#define FIELD_WAVE_CHUNK 256

/* Work limit of an exact min/max scan (entries times the cost of one). */
#define FIELD_SCAN_BUDGET ((uint64_t)1 << 25)

/* Doubles of a learned similarity grid's per-pass sums: small enough to
 * stay in cache and to come from the heap rather than fresh pages. */
#define FIELD_SIM_SCRATCH 16384

/* Bytes of a dot-product grid's factors per chunk of pairs (field_dots.c)
 * and the most pairs a chunk takes. */
#define FIELD_DOTS_BYTES ((size_t)4 << 20)
#define FIELD_DOTS_MAX_PAIRS 8192

/* What a module does for one kind of field of one encoding: field.c's
 * field_modules has a row per (encoding, kind) pointing at one, instead of
 * a switch in every entry point. A module may define its own (extern
 * below, under its file). */
struct field_ops {
	int (*init)(struct pe_field *f); /* NULL: nothing to derive */
	double (*value)(const struct pe_field *f, size_t r, size_t c);
	/* Mean of a block; a module whose min/max are closed forms
	 * (minmax_in_block) fills them when minmax is set. */
	int (*block)(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
	    size_t c1, bool minmax, struct pe_stats *dest);
	/* Grid of means sharing work; NULL: block by block. */
	int (*grid)(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
	    size_t c0, size_t c1, size_t nc, struct pe_stats *dest);
	/* Exact min and max folded into *lo, *hi: PE_OK, or PE_ERANGE when
	 * the work would pass FIELD_SCAN_BUDGET (nothing folded). NULL: scan
	 * every entry when nr x nc x cost fits the budget. */
	int (*minmax)(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
	    size_t c1, double *lo, double *hi);
	bool minmax_in_block;
	/* Rows and columns, when not the kind's usual ones (pe_field_shape);
	 * NULL: usual. */
	void (*shape)(const struct pe_config *cfg, size_t *rows, size_t *cols);
	/* pe_field_grid_rows where the module finishes rows in order, in
	 * the first few rows of scratch; NULL: its grid, then the rows. */
	int (*rows)(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
	    size_t c0, size_t c1, size_t nc, struct pe_stats *scratch,
	    pe_field_row_fn *row, void *arg);
};

/* Shared by every module: statistics, the cuts of a tiling and a walk over
 * a grid's cells. Inline, as loops call them once per cell or entry. */

/* Empty statistics of a rectangle of count entries. */
static inline void
field_stats_init(struct pe_stats *s, uint64_t count)
{
	s->mean = NAN;
	s->min = NAN;
	s->max = NAN;
	s->resultant = 1.0;
	s->count = count;
	s->masked = 0;
	s->undefined = 0;
	s->minmax_exact = false;
}

/* Fold value v into running min/max (finite values only). */
static inline void
field_fold(double v, double *lo, double *hi)
{
	if (!isfinite(v))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

/* Block k of nblocks tiling [lo, hi): [lo + k n / nb, lo + (k+1) n / nb),
 * widened to one item when there are more blocks than items (the body of
 * pe_field_span). */
static inline void
field_span(size_t lo, size_t hi, size_t nblocks, size_t k, size_t *b0,
    size_t *b1)
{
	if (hi <= lo || nblocks == 0) {
		*b0 = *b1 = lo;
		return;
	}
	size_t n = hi - lo, a, b;
	if (n <= UINT32_MAX && k < UINT32_MAX) {
		/* n (k + 1) < 2^64: the same quotients in 64 bits (a
		 * 128-bit division is a call) */
		a = lo + (size_t)((uint64_t)n * k / nblocks);
		b = lo + (size_t)((uint64_t)n * (k + 1) / nblocks);
	} else {
		a = lo + (size_t)((unsigned __int128)n * k / nblocks);
		b = lo + (size_t)((unsigned __int128)n * (k + 1) / nblocks);
	}
	if (a >= hi)
		a = hi - 1;
	if (b <= a)
		b = a + 1;
	if (b > hi)
		b = hi;
	*b0 = a;
	*b1 = b;
}

/* A walk over the cells of an nr x nc grid of blocks tiling rows [r0, r1) x
 * cols [c0, c1) as field_span cuts them, row by row:
 *   field_cells_start(&it, r0, r1, nr, c0, c1, nc);
 *   while (field_cells_next(&it))
 *           dest[it.k] = ... block rows [it.p0, it.p1) x [it.q0, it.q1) */
struct field_cells {
	size_t r0, r1, nr, c0, c1, nc;
	size_t next;	 /* the cell after this one */
	size_t k;	 /* this cell, bi * nc + bj */
	size_t bi, bj;	 /* its row block and column block */
	size_t p0, p1;	 /* its rows */
	size_t q0, q1;	 /* its columns */
	uint64_t count;	 /* its entries, (p1 - p0) (q1 - q0) */
};

/* Start a walk before the first cell. */
static inline void
field_cells_start(struct field_cells *it, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc)
{
	*it = (struct field_cells){
	    .r0 = r0, .r1 = r1, .nr = nr, .c0 = c0, .c1 = c1, .nc = nc};
}

/* Move to the next cell; false after the last one. */
static inline bool
field_cells_next(struct field_cells *it)
{
	if (it->next >= it->nr * it->nc)
		return false;
	if (it->next == 0) {
		it->bi = it->bj = 0;
	} else if (++it->bj == it->nc) {
		it->bi++;
		it->bj = 0;
	}
	it->k = it->next++;
	if (it->bj == 0)
		field_span(it->r0, it->r1, it->nr, it->bi, &it->p0, &it->p1);
	field_span(it->c0, it->c1, it->nc, it->bj, &it->q0, &it->q1);
	it->count = (uint64_t)(it->p1 - it->p0) * (it->q1 - it->q0);
	return true;
}

/* Whether the interrupt check (pe_field_set_interrupt) asks a grid in
 * progress to stop. */
bool pe_field_interrupted(void);

/* A part of a separable field's block: the mean over rows (axis 0) or
 * columns (axis 1) [lo, hi) of that side's share of the entries. */
typedef double (*field_part_fn)(const struct pe_field *f, int axis,
    size_t lo, size_t hi, const void *arg);

/* Grid of a field whose entries are a row part plus a column part (the
 * patch maps of vit2d, axial rope2d and mrope): a cell's mean is (its row
 * block's part + its column block's) / div, O(nr + nc) parts and the
 * cells; PE_ENOMEM, or PE_EINTR when stop (pe_field_interrupted, or NULL
 * for parts that cost little) says so, polled every 8 row blocks. */
static inline int
field_separable_grid(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc, field_part_fn part,
    const void *arg, double div, bool (*stop)(void), struct pe_stats *dest)
{
	struct field_cells it;
	double *mh = malloc((nr + nc ? nr + nc : 1) * sizeof *mh);

	if (mh == NULL)
		return PE_ENOMEM;
	double *mw = mh + nr;
	for (size_t bi = 0; bi < nr; bi++) {
		size_t p0, p1;
		if (stop != NULL && bi % 8 == 7 && stop()) {
			free(mh);
			return PE_EINTR;
		}
		field_span(r0, r1, nr, bi, &p0, &p1);
		mh[bi] = part(f, 0, p0, p1, arg);
	}
	for (size_t bj = 0; bj < nc; bj++) {
		size_t q0, q1;
		field_span(c0, c1, nc, bj, &q0, &q1);
		mw[bj] = part(f, 1, q0, q1, arg);
	}
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		field_stats_init(&dest[it.k], it.count);
		dest[it.k].mean = (mh[it.bi] + mw[it.bj]) / div;
	}
	free(mh);
	return PE_OK;
}

/* field_wave.c: struct pe_field's prefix holds a wave's (or its
 * similarity's) reduced frequencies wr and cos, sin of wr/2
 * (pe_field_wave_pre). */

/* What a wave column shows of its frequency. */
enum field_fn { FIELD_FN_SIN, FIELD_FN_COS, FIELD_FN_ANGLE };

/* Frequencies and prepared tables of a sinusoidal (wave_init) or rope
 * (wave_init_rope) field, any kind, similarity included; the rope's sets
 * the columns of rope kinds. */
int pe_field_wave_init(struct pe_field *f);
int pe_field_wave_init_rope(struct pe_field *f);

/* The prepared arrays of a wave field whose frequencies are set (rope's
 * at f->rope, or omega), at f->prefix; PE_ENOMEM. */
int pe_field_wave_prepare(struct pe_field *f);

/* Frequencies of a wave field, and how many. */
const double *pe_field_wave_freqs(const struct pe_field *f, size_t *nfreq);

/* The prepared arrays: reduced frequencies wr, cos(wr/2), sin(wr/2). */
void pe_field_wave_pre(const struct pe_field *f, const double **wr,
    const double **hc, const double **hs);

/* Frequency index and function of column c of a wave field. */
void pe_field_wave_column(const struct pe_field *f, size_t c, size_t *freq,
    enum field_fn *fn);

/* Amplitude of a wave (rope: attention_scaling; else 1). */
double pe_field_wave_scale(const struct pe_field *f);

/* Value at position p of function fn of frequency w. */
double pe_field_wave_exact(const struct pe_field *f, size_t p, double w,
    enum field_fn fn);

/* Value of column c at position p. */
double pe_field_wave_value(const struct pe_field *f, size_t p, size_t c);

/* Mean (and for angles the circular statistics) of a block. */
void pe_field_wave_block(const struct pe_field *f, size_t r0, size_t r1,
    size_t c0, size_t c1, struct pe_stats *dest);

/* Circular statistics of n blocks (dest[i].count set) from their sums of
 * sines ts[i] and cosines tc[i]: mean and resultant, all at once
 * (pe_trig_polar_many); w: 3 n doubles of scratch. */
void pe_field_circular(const double *ts, const double *tc, size_t n,
    double *w, struct pe_stats *dest);

/* Write n cells' statistics whole: mean[i], resultant res[i] (NULL: 1),
 * count[i] entries, the rest as field_stats_init leaves it. */
void pe_field_stats_put(const double *mean, const double *res,
    const uint64_t *count, size_t n, struct pe_stats *dest);

/* Circular statistics of n cells of count[i] entries (cnt[i]: the same,
 * (double)count[i]), as pe_field_circular, written whole
 * (pe_field_stats_put); w: 2 n doubles of scratch. */
void pe_field_circular_put(const double *ts, const double *tc,
    const double *cnt, const uint64_t *count, size_t n, double *w,
    struct pe_stats *dest);

/* Grid of means as pe_field_grid; PE_ENOMEM when out of memory. */
int pe_field_wave_grid(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc, struct pe_stats *dest);
/* The same grid's rows handed on as pe_field_grid_rows does, as means
 * and resultants (scratch unused but where the grid has no terms). */
int pe_field_wave_rows(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc, struct pe_stats *scratch,
    pe_field_row_fn *row, void *arg);

/* field_scan.c */

/* Exact min and max of a wave block [r0, r1) x [c0, c1), folded into *lo
 * and *hi; PE_ERANGE when its positions times frequencies exceed
 * FIELD_SCAN_BUDGET, PE_ENOMEM when out of memory (they are left alone). */
int pe_field_scan_minmax(const struct pe_field *f, size_t r0, size_t r1,
    size_t c0, size_t c1, double *lo, double *hi);

/* field_sim.c: a wave similarity keeps what field_wave.c prepares. */

/* Similarity of positions i and j. */
double pe_field_sim_value(const struct pe_field *f, size_t i, size_t j);

/* Mean of rows [r0, r1) x cols [c0, c1) (closed form). */
void pe_field_sim_block(const struct pe_field *f, size_t r0, size_t r1,
    size_t c0, size_t c1, struct pe_stats *dest);

/* Grid of means as pe_field_grid; PE_ENOMEM when out of memory. */
int pe_field_sim_grid(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc, struct pe_stats *dest);

/* Exact min and max of a block folded into *lo, *hi; false (and nothing
 * folded) when the scan would exceed FIELD_SCAN_BUDGET. */
bool pe_field_sim_minmax(const struct pe_field *f, size_t r0, size_t r1,
    size_t c0, size_t c1, double *lo, double *hi);

/* A block's factor for pairs [k0, k0 + kn) over items [i0, i1): re[k],
 * im[k] for pair k0 + k (pe_field_dots). */
typedef void (*pe_field_factor_fn)(const struct pe_field *f, size_t i0,
    size_t i1, size_t k0, size_t kn, double *re, double *im);

/* field_dots.c */

/* acc[a nc + b] += sum_{k < kl} x[a ks + k] y[b ks + k] for a < nr, b < nc:
 * kl a multiple of 8, each cell's sum in a fixed order (field_dots.c). */
void pe_field_gemm(const double *x, size_t nr, const double *y, size_t nc,
    size_t kl, size_t ks, double *acc);

/* The dot product of x and y over kl doubles (a multiple of 8), the sum
 * pe_field_gemm gives that cell. */
double pe_field_dot8(const double *x, const double *y, size_t kl);

/* Pairs a chunk of a grid over nblocks row and column blocks takes
 * (kpad: a multiple of 4), memory on a cache line for nblocks rows of
 * [re kpad | im kpad] (not zeroed; NULL when out of memory; free()), and
 * the zeros past a chunk's kn pairs in each row. */
size_t pe_field_dots_chunk(size_t nblocks, size_t npairs);
double *pe_field_dots_alloc(size_t nblocks, size_t kpad);
void pe_field_dots_tails(double *rows, size_t nblocks, size_t kpad,
    size_t kn);

/* dest[cell].mean = scale sum_j Re(X_j(rows) conj(Y_j(cols))) / count for
 * every cell of an nr x nc grid of blocks over npairs pairs, X from xf
 * per row block and Y from yf per column block: the scores whose block
 * sums factor per pair (mrope, rope2d). O((nr + nc) npairs factor calls +
 * nr nc npairs); PE_ENOMEM, PE_EINTR. */
int pe_field_dots(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, size_t npairs, pe_field_factor_fn xf,
    pe_field_factor_fn yf, double scale, struct pe_stats *dest);

/* field_learned.c: struct pe_field's prefix holds the table's column
 * prefix sums, its row norms (similarity) and, when cfg->table is NULL, the
 * field's own table. */

/* Build a learned field's parts (PE_FIELD_PE or PE_FIELD_SIMILARITY). */
int pe_field_learned_init(struct pe_field *f);

/* Value at (r, c): the table's entry, or the dot product of rows r and c;
 * NAN past max_len. */
double pe_field_learned_value(const struct pe_field *f, size_t r, size_t c);

/* Mean of rows [r0, r1) x cols [c0, c1) over its defined entries, and how
 * many are undefined. */
void pe_field_learned_block(const struct pe_field *f, size_t r0, size_t r1,
    size_t c0, size_t c1, struct pe_stats *dest);

/* Exact min and max of the defined entries of a block (a scan). */
void pe_field_learned_minmax(const struct pe_field *f, size_t r0, size_t r1,
    size_t c0, size_t c1, double *lo, double *hi);

/* Grid of means as pe_field_grid; PE_ENOMEM when out of memory. */
int pe_field_learned_grid(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc, struct pe_stats *dest);

/* field_patch.c: struct pe_field's prefix holds, for a patch-cosine field,
 * the table C(k) = sum_i cos(k omega_i), k < max(H, W). */

/* Frequencies of a vit2d field (f->omega) and its table of C. */
int pe_field_patch_init(struct pe_field *f);

/* Value at (r, c) of a vit2d PE or patch-cosine field. */
double pe_field_patch_value(const struct pe_field *f, size_t r, size_t c);

/* Mean of rows [r0, r1) x cols [c0, c1); PE_EINVAL when the anchor is off
 * the grid. */
int pe_field_patch_block(const struct pe_field *f, size_t r0, size_t r1,
    size_t c0, size_t c1, struct pe_stats *dest);

/* Grid of a patch-cosine field as pe_field_grid. */
int pe_field_patch_grid(const struct pe_field *f, size_t r0, size_t r1,
    size_t nr, size_t c0, size_t c1, size_t nc, struct pe_stats *dest);

/* Exact min and max of a patch-cosine block (anchor on the grid). */
void pe_field_patch_minmax(const struct pe_field *f, size_t r0, size_t r1,
    size_t c0, size_t c1, double *lo, double *hi);

/* field_mrope.c: mrope's angle map [L, d/2], scores [L, L] and the score
 * of token `anchor` with each patch, [frames grid_h, grid_w]; f->omega
 * holds inv_freq. */
extern const struct field_ops pe_field_mrope_angle_ops,
    pe_field_mrope_sim_ops, pe_field_mrope_patch_ops;
/* The most cosines and entries the patch map's per-anchor axis tables
 * take (2^22): past it the closed forms (a test sets 0 to check them). */
extern uint64_t pe_field_mrope_table_max;

/* field_xpos.c: xPos's angle map [n, d/2] and scores [n, n]; f->omega
 * holds inv_freq, f->prefix ln(zeta_j) / gamma. */
extern const struct field_ops pe_field_xpos_angle_ops,
    pe_field_xpos_sim_ops;

/* field_rope2d.c: rope2d's cosine of patch `anchor` with each patch
 * [H, W] and scores [H W, H W]; f->omega holds fx, f->prefix fy. */
extern const struct field_ops pe_field_rope2d_patch_ops,
    pe_field_rope2d_sim_ops;
/* The largest offset table a patch map keeps (entries; 2^21): past it the
 * closed forms (a test sets 0 to check them). */
extern uint64_t pe_field_rope2d_table_max;

/* field_tiling.c */

/* Geometric sums of the blocks that tile [lo, hi) (pe_field_span), block
 * after block, for nf reduced frequencies wr (Lagrange's identity):
 *   sum_{p in block} e^{i p wr} = D(len, wr) e^{i mid h},  h = wr / 2,
 * with mid = 2 start + len - 1 and D(len, wr) = sin(len h) / sin(h).
 * Blocks have one of two lengths n and n + 1, and consecutive midpoints
 * differ by 2n + j with |j| <= 2, so per frequency only e^{i h} and
 * e^{i n h} need a sincos; the Dirichlet factors and the step from block
 * to block are products of those, and a direct sincos every
 * FIELD_PHASOR_ANCHOR blocks re-anchors the phasor. A rotation is as
 * accurate as a direct evaluation here: both are off by the rounding of
 * the angle, about 2^-53 mid h. */

/* Rotations e^{i delta h} a tiling keeps (the last few deltas). */
#define FIELD_PHASOR_NROT 4

struct field_tiling {
	size_t nf, lo, hi, nb, b; /* b: the next block */
	uint64_t n;               /* the shorter block length (>= 1) */
	const double *wr;         /* reduced frequencies */
	double *c, *s;            /* e^{i mid h} of the current block */
	const double *D;          /* its Dirichlet factors */
	const double *hc, *hs;    /* e^{i h} (the field's) */
	double *nc, *ns;          /* e^{i n h} */
	double *Dn, *Dn1, *Dx;    /* D(n), D(n + 1), D(other) */
	double *h;                /* wr / 2, the sincos' frequencies */
	uint64_t mid;             /* the current block's 2 start + len - 1 */
	int64_t off;              /* phasors are e^{i (mid - off) h} */
	int steps;                /* rotations since the last direct sincos */
	int next;                 /* the rot slot to fill next */
	struct {
		uint64_t delta; /* 0: unused */
		double *c, *s;
	} rot[FIELD_PHASOR_NROT];
};

/* Start a tiling of [lo, hi) in nb blocks for nf reduced frequencies wr,
 * with hc, hs the cos and sin of wr/2 (pe_field_wave_pre). PE_ENOMEM on
 * failure. */
int pe_field_tiling_init(struct field_tiling *t, const double *wr,
    const double *hc, const double *hs, size_t nf, size_t lo, size_t hi,
    size_t nb);

/* Move to the next block: its phasors t->c, t->s and factors t->D. */
void pe_field_tiling_next(struct field_tiling *t);

/* The current block's sums D e^{i mid h} into re[nf] and im[nf]. */
void pe_field_tiling_sums(const struct field_tiling *t, double *re,
    double *im);

/* The same sums into re[i stride] and im[i stride]; and the two at once:
 * the next block and its sums so. */
void pe_field_tiling_next_at(struct field_tiling *t, double *re,
    double *im, size_t stride);
void pe_field_tiling_sums_at(const struct field_tiling *t, double *re,
    double *im, size_t stride);

/* The next four blocks and their sums, block l's into re[4 i + l] and
 * im[4 i + l] (a wave grid's lanes): four pe_field_tiling_next_at calls of
 * stride 4, in one pass where the blocks turn by cached steps. */
void pe_field_tiling_next4(struct field_tiling *t, double *re, double *im);

/* Release a tiling. */
void pe_field_tiling_free(struct field_tiling *t);

#endif
