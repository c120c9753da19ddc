/* Fields that depend on (query i, key j) only through k = j - i: the alibi
 * bias, the causal mask, T5 buckets and Shaw indices. A rectangle's block
 * statistics are sums along its diagonals, done in closed form. */
#include <math.h>
#include <stdlib.h>

#include "kernel/diag.h"
#include "kernel/field_impl.h"
#include "pescope/alibi.h"
#include "pescope/attn.h"
#include "pescope/nope.h"
#include "pescope/relative.h"

typedef __int128 i128;

/* Largest row or column index a block may reach: keeps every sum below in
 * range of __int128 (k^3 < 2^96). */
#define DIAG_MAX_INDEX ((size_t)1 << 31)

/* A value far past any k of a rectangle, for unbounded segments. */
#define DIAG_FAR ((int64_t)1 << 40)

/* A piece of a field along its diagonals: k in [a, b] where the field is
 * p + q k, or masked (what diag_segment is given, clipped). */
struct diag_piece {
	int64_t a, b, p, q;
	bool masked;
};

/* Pieces recorded instead of summed (a grid's: pe_diag_grid). */
struct diag_rec {
	struct diag_piece *v;
	size_t n, cap;
	bool failed; /* out of memory */
};

/* A rectangle's diagonals and what has been summed over them so far.
 *
 * The number of cells (i, j) of rows [r0, r1) x cols [c0, c1) with
 * j - i = k is the trapezoid (the convolution of two boxes)
 *   w(k) = min(k - kmin + 1, kmax - k + 1, min(R, C)),  kmin <= k <= kmax,
 * with kmin = c0 - (r1 - 1), kmax = (c1 - 1) - r0. On each segment of k
 * where the field is p + q k (or masked), sum w and w (p + q k) by the
 * closed forms of sum 1, sum k and sum k^2. */
struct diag_acc {
	int64_t kmin, kmax; /* diagonals that meet the rectangle */
	int64_t m;          /* min(R, C): the trapezoid's plateau height */
	i128 sum;           /* sum of w (p + q k) over unmasked cells */
	uint64_t cnt;       /* unmasked cells */
	uint64_t masked;    /* masked cells */
	bool any;           /* vlo, vhi set */
	int64_t vlo, vhi;   /* least and greatest p + q k seen */
	struct diag_rec *rec; /* non-NULL: record the pieces, sum nothing */
};

/* Sum of k^e for k = a .. b (a <= b), e = 0, 1, 2:
 *   sum k = (a + b)(b - a + 1) / 2,  sum k^2 = P(b) - P(a - 1) with
 *   P(x) = x (x + 1)(2x + 1) / 6, an integer for every integer x. */
static void
diag_power_sums(int64_t a, int64_t b, i128 *s0, i128 *s1, i128 *s2)
{
	i128 A = a, B = b;
	i128 pb = B * (B + 1) * (2 * B + 1) / 6;
	i128 pa = (A - 1) * A * (2 * A - 1) / 6;

	*s0 = B - A + 1;
	*s1 = (A + B) * (B - A + 1) / 2;
	*s2 = pb - pa;
}

/* Add the cells of diagonals [a, b] where the field is p + q k, or masked. */
static void
diag_segment(struct diag_acc *acc, int64_t a, int64_t b, int64_t p, int64_t q,
             bool masked)
{
	/* The trapezoid's three linear pieces: w = alpha + beta k. */
	const int64_t lo[3] = {acc->kmin, acc->kmin + acc->m - 1,
	                       acc->kmax - acc->m + 2};
	const int64_t hi[3] = {acc->kmin + acc->m - 2, acc->kmax - acc->m + 1,
	                       acc->kmax};
	const int64_t alpha[3] = {1 - acc->kmin, acc->m, acc->kmax + 1};
	const int64_t beta[3] = {1, 0, -1};
	i128 w = 0, wv = 0;

	if (a < acc->kmin)
		a = acc->kmin;
	if (b > acc->kmax)
		b = acc->kmax;
	if (a > b)
		return;
	if (acc->rec != NULL) {
		struct diag_rec *r = acc->rec;
		if (r->n == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 16;
			struct diag_piece *v = realloc(r->v, cap * sizeof *v);
			if (v == NULL) {
				r->failed = true;
				return;
			}
			r->v = v;
			r->cap = cap;
		}
		r->v[r->n++] = (struct diag_piece){a, b, p, q, masked};
		return;
	}
	for (int s = 0; s < 3; s++) {
		int64_t x = a > lo[s] ? a : lo[s];
		int64_t y = b < hi[s] ? b : hi[s];
		i128 s0, s1, s2;

		if (x > y)
			continue;
		diag_power_sums(x, y, &s0, &s1, &s2);
		w += alpha[s] * s0 + beta[s] * s1;
		if (!masked)
			wv += (i128)alpha[s] * p * s0 +
			      ((i128)alpha[s] * q + (i128)beta[s] * p) * s1 +
			      (i128)(beta[s] * q) * s2;
	}
	if (masked) {
		acc->masked += (uint64_t)w;
		return;
	}
	acc->cnt += (uint64_t)w;
	acc->sum += wv;

	/* A linear function is extreme at the ends of the segment (w > 0 on
	 * every diagonal of [kmin, kmax]). */
	int64_t va = p + q * a, vb = p + q * b;
	int64_t l = va < vb ? va : vb, h = va < vb ? vb : va;
	if (!acc->any || l < acc->vlo)
		acc->vlo = l;
	if (!acc->any || h > acc->vhi)
		acc->vhi = h;
	acc->any = true;
}

/* Parameters of the T5 bucket function g(n) of one direction. */
struct diag_t5 {
	const struct pe_config *cfg;
	int64_t nb;        /* buckets of one direction */
	int64_t max_exact; /* buckets that are exact distances */
};

/* g(n): the bucket of distance n >= 0 within one direction; nondecreasing
 * in n. Equal to pe_t5_bucket(-n) in both modes. */
static int64_t
diag_t5_g(const struct diag_t5 *t, int64_t n)
{
	return pe_t5_bucket(-n, t->cfg->bidirectional, t->cfg->buckets,
	                    t->cfg->max_distance);
}

/* Smallest n >= from with g(n) >= b. Starts at the real-valued inverse of
 * T5's log formula, n = max_exact (max_distance / max_exact)^((b -
 * max_exact) / (nb - max_exact)), then gallops and bisects with the exact
 * g, which is monotone, so the float32 rounding of the bucket formula is
 * honoured. g(cap) = nb - 1: every n >= max_distance is in the last bucket. */
static int64_t
diag_t5_first(const struct diag_t5 *t, int64_t b, int64_t from)
{
	int64_t cap = 2 * (int64_t)t->cfg->max_distance + 2;
	int64_t lo = from, hi, step;
	double x = (double)(b - t->max_exact) / (double)(t->nb - t->max_exact);
	double est = ceil(
	    (double)t->max_exact *
	    exp(x * log((double)t->cfg->max_distance / (double)t->max_exact)));
	int64_t e = isfinite(est) && est < (double)cap ? (int64_t)est : cap;

	if (diag_t5_g(t, from) >= b || from >= cap)
		return from;
	/* Invariant: g(lo) < b <= g(hi). */
	if (e <= lo)
		e = lo + 1;
	if (diag_t5_g(t, e) >= b) {
		hi = e;
		for (step = 1; hi - step > lo && diag_t5_g(t, hi - step) >= b;
		     step *= 2)
			hi -= step;
		if (hi - step > lo)
			lo = hi - step;
	} else {
		lo = e;
		for (step = 1; lo + step < cap && diag_t5_g(t, lo + step) < b;
		     step *= 2)
			lo += step;
		hi = lo + step < cap ? lo + step : cap;
	}
	while (hi - lo > 1) {
		int64_t mid = lo + (hi - lo) / 2;
		if (diag_t5_g(t, mid) >= b)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

/* Add the distances n in [nlo, nhi] of one T5 run, the exact run (bucket
 * n) or a constant bucket b, on one side: keys before the query (k = -n)
 * or, bidirectional, after it (k = n >= 1, the upper half of buckets). */
static void
diag_t5_run(struct diag_acc *acc, const struct diag_t5 *t, int64_t nlo,
            int64_t nhi, bool exact, int64_t b, bool after)
{
	if (!after)
		diag_segment(acc, -nhi, -nlo, exact ? 0 : b, exact ? -1 : 0,
		             false);
	else
		diag_segment(acc, nlo, nhi, exact ? t->nb : t->nb + b,
		             exact ? 1 : 0, false);
}

/* Add distances n in [lo, hi] of one side: the exact run, then one run per
 * bucket that occurs, each found from the inverse formula and the exact
 * bucket function. Costs O(buckets met in [lo, hi]). */
static void
diag_t5_side(struct diag_acc *acc, const struct diag_t5 *t, int64_t lo,
             int64_t hi, bool after)
{
	if (lo > hi)
		return;
	if (lo < t->max_exact) {
		int64_t e = hi < t->max_exact - 1 ? hi : t->max_exact - 1;
		diag_t5_run(acc, t, lo, e, true, 0, after);
		lo = t->max_exact;
	}
	for (int64_t start = lo, next; start <= hi; start = next) {
		int64_t b = diag_t5_g(t, start);
		next =
		    b + 1 < t->nb ? diag_t5_first(t, b + 1, start) : DIAG_FAR;
		diag_t5_run(acc, t, start, next - 1 < hi ? next - 1 : hi, false,
		            b, after);
	}
}

/* Sum a T5 bucket field over acc's diagonals: distances n = -k on and
 * below the diagonal, n = k above it. */
static void
diag_t5(struct diag_acc *acc, const struct pe_config *cfg)
{
	struct diag_t5 t = {cfg, 0, 0};
	int64_t kmin = acc->kmin, kmax = acc->kmax;

	t.nb = (int64_t)(cfg->bidirectional ? cfg->buckets / 2 : cfg->buckets);
	t.max_exact =
	    (int64_t)pe_t5_max_exact(cfg->bidirectional, cfg->buckets);
	if (kmin <= 0)
		diag_t5_side(acc, &t, kmax < 0 ? -kmax : 0, -kmin, false);
	if (kmax >= 1) {
		if (cfg->bidirectional)
			diag_t5_side(acc, &t, kmin > 1 ? kmin : 1, kmax, true);
		else
			diag_segment(acc, 1, kmax, 0, 0, false); /* bucket 0 */
	}
}

/* Slope of the field's head, or NAN when the field has none. */
static double
diag_slope(const struct pe_field *f)
{
	if (f->slopes == NULL || f->cfg == NULL || f->head >= f->cfg->heads)
		return NAN;
	return f->slopes[f->head];
}

/* The mask field's shape: NoPE's causal mask, with the layer's window
 * or chunks (attn.h). The mask field is NoPE's alone, whose row reads
 * the span: this is pe_config_attn's shape for it, read here so that
 * the field's code does not call back into the rows (encoding.c). */
static void
diag_mask_attn(const struct pe_config *cfg, struct pe_attn *dest)
{
	*dest = cfg->attn;
	dest->causal = true;
}

/* A chunked mask's block: its seen pairs counted chunk by chunk
 * (pe_attn_seen_rect), the rest masked; a mean of 0. */
static int
diag_chunk_block(const struct pe_config *cfg, size_t r0, size_t r1,
    size_t c0, size_t c1, bool minmax, struct pe_stats *dest)
{
	struct pe_attn t;

	diag_mask_attn(cfg, &t);
	uint64_t seen = pe_attn_seen_rect(&t, r0, r1, c0, c1);
	dest->count = (uint64_t)(r1 - r0) * (uint64_t)(c1 - c0);
	dest->masked = dest->count - seen;
	dest->undefined = 0;
	dest->resultant = 1.0;
	dest->minmax_exact = minmax;
	dest->mean = dest->min = dest->max = seen > 0 ? 0.0 : NAN;
	return PE_OK;
}

/* Exact value of a bias, mask or relative field at (query r, key c). */
double
pe_diag_value(const struct pe_field *f, size_t r, size_t c)
{
	const struct pe_config *cfg = f->cfg;
	int64_t rel = (int64_t)c - (int64_t)r;

	switch (f->kind) {
	case PE_FIELD_BIAS:
		return pe_alibi_bias(diag_slope(f), r, c, cfg->alibi_mode);
	case PE_FIELD_MASK: {
		struct pe_attn t;
		diag_mask_attn(cfg, &t);
		return pe_attn_sees(&t, r, c) ? 0.0 : -INFINITY;
	}
	case PE_FIELD_RELATIVE:
		if (cfg->relative == PE_REL_SHAW)
			return (double)pe_shaw_index(rel, cfg->max_relative);
		return (double)pe_t5_bucket(rel, cfg->bidirectional,
		                            cfg->buckets, cfg->max_distance);
	default:
		return NAN;
	}
}

/* Walk the field's pieces over acc's diagonals (f a bias, a mask whose
 * span is not chunked, or relative buckets): sum them, or record them
 * with acc->rec. *scale: what the sums are multiplied by (alibi's slope).
 * PE_EINVAL for a field without pieces. */
static int
diag_walk(const struct pe_field *f, struct diag_acc *acc, double *scale)
{
	const struct pe_config *cfg = f->cfg;
	struct pe_attn shape;

	*scale = 1.0;
	switch (f->kind) {
	case PE_FIELD_BIAS:
		/* -m (i - j) = m k: p = 0, q = 1 below; causal masks k > 0,
		 * symmetric continues as -m k. */
		*scale = diag_slope(f);
		if (!isfinite(*scale))
			return PE_EINVAL;
		diag_segment(acc, -DIAG_FAR, 0, 0, 1, false);
		if (cfg->alibi_mode == PE_ALIBI_CAUSAL)
			diag_segment(acc, 1, DIAG_FAR, 0, 0, true);
		else
			diag_segment(acc, 1, DIAG_FAR, 0, -1, false);
		return PE_OK;
	case PE_FIELD_MASK:
		/* causal_mask_function: k = key - query <= 0 is seen;
		 * sliding_window_overlay keeps k > -window of those */
		diag_mask_attn(cfg, &shape);
		if (shape.span == PE_SPAN_CHUNKED)
			return PE_EINVAL; /* not a function of k: the caller's */
		if (shape.span == PE_SPAN_SLIDING) {
			int64_t w = (int64_t)shape.window;
			diag_segment(acc, -DIAG_FAR, -w, 0, 0, true);
			diag_segment(acc, -w + 1, 0, 0, 0, false);
		} else {
			diag_segment(acc, -DIAG_FAR, 0, 0, 0, false);
		}
		diag_segment(acc, 1, DIAG_FAR, 0, 0, true);
		return PE_OK;
	case PE_FIELD_RELATIVE:
		if (cfg->relative == PE_REL_SHAW) {
			/* clip(k, -K, K) + K (Shaw et al. 2018, eq. 3). */
			int64_t k = (int64_t)cfg->max_relative;
			diag_segment(acc, -DIAG_FAR, -k, 0, 0, false);
			if (k >= 1)
				diag_segment(acc, -k + 1, k - 1, k, 1, false);
			diag_segment(acc, k > 0 ? k : 1, DIAG_FAR, 2 * k, 0,
			             false);
			return PE_OK;
		}
		if (pe_t5_max_exact(cfg->bidirectional, cfg->buckets) < 1 ||
		    cfg->max_distance <=
		        pe_t5_max_exact(cfg->bidirectional, cfg->buckets) ||
		    cfg->max_distance > PE_MAX_N)
			return PE_EINVAL;
		diag_t5(acc, cfg);
		return PE_OK;
	default:
		return PE_EINVAL;
	}
}

/* A block's statistics from its sums: count cells, scale the field's
 * multiplier (diag_walk). */
static void
diag_finish(const struct diag_acc *acc, double scale, uint64_t count,
    bool minmax, struct pe_stats *dest)
{
	dest->count = count;
	dest->masked = acc->masked;
	dest->undefined = 0;
	dest->resultant = 1.0;
	dest->minmax_exact = minmax;
	if (acc->cnt == 0) {
		dest->mean = dest->min = dest->max = NAN;
		return;
	}
	/* sum / cnt as quotient and remainder, so long double only rounds
	 * once at the end. */
	i128 q = acc->sum / (i128)acc->cnt, rem = acc->sum % (i128)acc->cnt;
	long double mv =
	    (long double)q + (long double)rem / (long double)acc->cnt;
	double lo = scale * (double)acc->vlo, hi = scale * (double)acc->vhi;
	dest->mean = (double)((long double)scale * mv);
	dest->min = lo < hi ? lo : hi;
	dest->max = lo < hi ? hi : lo;
}

/* acc set to the diagonals of rows [r0, r1) x cols [c0, c1). */
static void
diag_acc_start(struct diag_acc *acc, size_t r0, size_t r1, size_t c0,
    size_t c1)
{
	*acc = (struct diag_acc){0};
	acc->kmin = (int64_t)c0 - ((int64_t)r1 - 1);
	acc->kmax = ((int64_t)c1 - 1) - (int64_t)r0;
	acc->m = (int64_t)(r1 - r0 < c1 - c0 ? r1 - r0 : c1 - c0);
}

/* Statistics of rows [r0, r1) x cols [c0, c1): exact mean of the unmasked
 * cells (NAN when all are masked), exact min and max, masked count. */
int
pe_diag_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
              size_t c1, bool minmax, struct pe_stats *dest)
{
	const struct pe_config *cfg = f->cfg;
	struct diag_acc acc;
	struct pe_attn shape;
	double scale = 1.0;

	if (cfg == NULL || dest == NULL || r0 >= r1 || c0 >= c1)
		return PE_EINVAL;
	if ((f->rows != 0 && r1 > f->rows) || (f->cols != 0 && c1 > f->cols) ||
	    r1 > DIAG_MAX_INDEX || c1 > DIAG_MAX_INDEX)
		return PE_ERANGE;
	if (f->kind == PE_FIELD_MASK) {
		diag_mask_attn(cfg, &shape);
		if (shape.span == PE_SPAN_CHUNKED)
			return diag_chunk_block(cfg, r0, r1, c0, c1, minmax,
			    dest);
	}
	diag_acc_start(&acc, r0, r1, c0, c1);
	int rc = diag_walk(f, &acc, &scale);
	if (rc != PE_OK)
		return rc;
	diag_finish(&acc, scale, (uint64_t)(r1 - r0) * (uint64_t)(c1 - c0),
	    minmax, dest);
	return PE_OK;
}

/* Order of pieces by their first diagonal. */
static int
diag_piece_cmp(const void *x, const void *y)
{
	const struct diag_piece *a = x, *b = y;
	return (a->a > b->a) - (a->a < b->a);
}

/* A grid block by block through pe_diag_block (the chunked mask, and
 * what a grid's pieces cannot hold), as pe_field_grid's own loop. */
static int
diag_grid_blocks(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest,
    bool (*stop)(void))
{
	struct field_cells it;

	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		if (it.k % 256 == 255 && stop != NULL && stop())
			return PE_EINTR;
		field_stats_init(&dest[it.k], it.count);
		int rc = pe_diag_block(f, it.p0, it.p1, it.q0, it.q1, false,
		    &dest[it.k]);
		if (rc != PE_OK)
			return rc;
	}
	return PE_OK;
}

/* A block within one piece pc (its diagonals [kmin, kmax] inside the
 * piece's): what pe_diag_block gives it, without sums. Over the block the
 * field is p + q k, whose mean is p + q mean(j - i), and mean(j - i) =
 * mean(j) - mean(i) = ((c0 + c1 - 1) - (r0 + r1 - 1)) / 2: a multiple of
 * 1/2, h2 / 2. pe_diag_block's quotient and remainder of the exact sum by
 * the count give that value exactly in long double (the quotient is its
 * integer part, the remainder over the count 0 or +-1/2, both exact), so
 * (long double)h2 / 2 is its mv bit for bit; min and max are its values at
 * the ends, as diag_segment takes them. */
static void
diag_piece_block(const struct diag_piece *pc, double scale, size_t r0,
    size_t r1, size_t c0, size_t c1, struct pe_stats *dest)
{
	uint64_t count = (uint64_t)(r1 - r0) * (uint64_t)(c1 - c0);
	int64_t kmin = (int64_t)c0 - ((int64_t)r1 - 1);
	int64_t kmax = ((int64_t)c1 - 1) - (int64_t)r0;

	dest->count = count;
	dest->undefined = 0;
	dest->resultant = 1.0;
	dest->minmax_exact = false;
	if (pc->masked) {
		dest->masked = count;
		dest->mean = dest->min = dest->max = NAN;
		return;
	}
	dest->masked = 0;
	/* |h2| < 2^33 (DIAG_MAX_INDEX) and a piece's p and q are its
	 * values' terms (|p| <= 2 max_relative or the buckets, |q| <= 1), so
	 * v2 = 2 p + q h2 is far inside 2^53: exact in double and long
	 * double, v2 / 2 too; times a scale of 1 it stays exact, so the
	 * long double product is needed only for a slope */
	int64_t h2 = ((int64_t)c0 + (int64_t)c1 - 1) -
	    ((int64_t)r0 + (int64_t)r1 - 1);
	int64_t v2 = 2 * pc->p + pc->q * h2;
	int64_t va = pc->p + pc->q * kmin, vb = pc->p + pc->q * kmax;
	int64_t l = va < vb ? va : vb, h = va < vb ? vb : va;
	double lo = scale * (double)l, hi = scale * (double)h;
	if (scale == 1.0)
		dest->mean = (double)v2 * 0.5;
	else
		dest->mean = (double)((long double)scale *
		    ((long double)v2 / 2));
	dest->min = lo < hi ? lo : hi;
	dest->max = lo < hi ? hi : lo;
}

/* Means of a tiling of rows [r0, r1) x cols [c0, c1) in nr x nc blocks
 * (pe_field_grid's grid). The field's pieces over the grid's diagonals
 * are listed once; a block whose diagonals lie in one piece is that
 * piece's closed form (diag_piece_block: no sums), any other sums the
 * pieces it meets, as pe_diag_block does with the same pieces (the sums
 * are exact integers, so how the diagonals are cut does not matter: the
 * same bits). At pixel resolution only the blocks across a piece's end,
 * near the main diagonal and a bucket's edge, are summed. stop: the
 * interrupt check (pe_field_set_interrupt), polled as pe_field_grid does;
 * PE_EINTR when it says so. */
int
pe_diag_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest,
    bool (*stop)(void))
{
	struct diag_acc g;
	struct diag_rec rec = {0};
	struct pe_attn shape;
	double scale = 1.0;
	int rc = PE_OK;

	if (f->kind == PE_FIELD_MASK) {
		diag_mask_attn(f->cfg, &shape);
		if (shape.span == PE_SPAN_CHUNKED)
			return diag_grid_blocks(f, r0, r1, nr, c0, c1, nc,
			    dest, stop);
	}
	/* past the largest index (pe_diag_block's refusal, at the first
	 * block), or more blocks than rows or columns (field_span's blocks of
	 * one that overlap): block by block */
	if (r1 > DIAG_MAX_INDEX || c1 > DIAG_MAX_INDEX || nr > r1 - r0 ||
	    nc > c1 - c0)
		return diag_grid_blocks(f, r0, r1, nr, c0, c1, nc, dest,
		    stop);
	diag_acc_start(&g, r0, r1, c0, c1);
	g.rec = &rec;
	if (diag_walk(f, &g, &scale) != PE_OK || rec.n == 0) {
		free(rec.v); /* its error, from the first block */
		return diag_grid_blocks(f, r0, r1, nr, c0, c1, nc, dest,
		    stop);
	}
	if (rec.failed) {
		free(rec.v);
		return PE_ENOMEM;
	}
	qsort(rec.v, rec.n, sizeof *rec.v, diag_piece_cmp);
	/* the column blocks' bounds, once: block bj is [cb[2 bj],
	 * cb[2 bj + 1]) */
	size_t *cb = malloc(2 * nc * sizeof *cb);
	if (cb == NULL) {
		free(rec.v);
		return PE_ENOMEM;
	}
	for (size_t bj = 0; bj < nc; bj++)
		field_span(c0, c1, nc, bj, &cb[2 * bj], &cb[2 * bj + 1]);
	for (size_t bi = 0; bi < nr && rc == PE_OK; bi++) {
		size_t p0, p1, s = 0;
		if (bi % 8 == 7 && stop != NULL && stop()) {
			rc = PE_EINTR;
			break;
		}
		field_span(r0, r1, nr, bi, &p0, &p1);
		for (size_t bj = 0; bj < nc; bj++) {
			size_t q0 = cb[2 * bj], q1 = cb[2 * bj + 1];
			struct pe_stats *d = &dest[bi * nc + bj];
			int64_t kmin = (int64_t)q0 - ((int64_t)p1 - 1);
			int64_t kmax = ((int64_t)q1 - 1) - (int64_t)p0;
			/* kmin grows along the row: the piece holding it */
			while (s + 1 < rec.n && rec.v[s].b < kmin)
				s++;
			if (kmax <= rec.v[s].b && kmin >= rec.v[s].a) {
				diag_piece_block(&rec.v[s], scale, p0, p1, q0,
				    q1, d);
				continue;
			}
			struct diag_acc acc;
			diag_acc_start(&acc, p0, p1, q0, q1);
			for (size_t t = s; t < rec.n && rec.v[t].a <= kmax; t++)
				diag_segment(&acc, rec.v[t].a, rec.v[t].b,
				    rec.v[t].p, rec.v[t].q, rec.v[t].masked);
			diag_finish(&acc, scale, (uint64_t)(p1 - p0) *
			    (uint64_t)(q1 - q0), false, d);
		}
	}
	free(cb);
	free(rec.v);
	return rc;
}
