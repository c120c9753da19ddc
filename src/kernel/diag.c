/* Fields that depend on (query i, key j) only through k = j - i: the alibi
 * bias, the causal mask, T5 buckets and Shaw indices. A rectangle's block
 * statistics are sums along its diagonals, done in closed form. */
#include <math.h>

#include "kernel/diag.h"
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

/* Statistics of rows [r0, r1) x cols [c0, c1): exact mean of the unmasked
 * cells (NAN when all are masked), exact min and max, masked count. */
int
pe_diag_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
              size_t c1, bool minmax, struct pe_stats *dest)
{
	const struct pe_config *cfg = f->cfg;
	struct diag_acc acc = {0};
	struct pe_attn shape;
	double scale = 1.0;

	if (cfg == NULL || dest == NULL || r0 >= r1 || c0 >= c1)
		return PE_EINVAL;
	if ((f->rows != 0 && r1 > f->rows) || (f->cols != 0 && c1 > f->cols) ||
	    r1 > DIAG_MAX_INDEX || c1 > DIAG_MAX_INDEX)
		return PE_ERANGE;
	acc.kmin = (int64_t)c0 - ((int64_t)r1 - 1);
	acc.kmax = ((int64_t)c1 - 1) - (int64_t)r0;
	acc.m = (int64_t)(r1 - r0 < c1 - c0 ? r1 - r0 : c1 - c0);

	switch (f->kind) {
	case PE_FIELD_BIAS:
		/* -m (i - j) = m k: p = 0, q = 1 below; causal masks k > 0,
		 * symmetric continues as -m k. */
		scale = diag_slope(f);
		if (!isfinite(scale))
			return PE_EINVAL;
		diag_segment(&acc, -DIAG_FAR, 0, 0, 1, false);
		if (cfg->alibi_mode == PE_ALIBI_CAUSAL)
			diag_segment(&acc, 1, DIAG_FAR, 0, 0, true);
		else
			diag_segment(&acc, 1, DIAG_FAR, 0, -1, false);
		break;
	case PE_FIELD_MASK:
		/* causal_mask_function: k = key - query <= 0 is seen;
		 * sliding_window_overlay keeps k > -window of those */
		diag_mask_attn(cfg, &shape);
		if (shape.span == PE_SPAN_CHUNKED)
			return diag_chunk_block(cfg, r0, r1, c0, c1, minmax,
			    dest);
		if (shape.span == PE_SPAN_SLIDING) {
			int64_t w = (int64_t)shape.window;
			diag_segment(&acc, -DIAG_FAR, -w, 0, 0, true);
			diag_segment(&acc, -w + 1, 0, 0, 0, false);
		} else {
			diag_segment(&acc, -DIAG_FAR, 0, 0, 0, false);
		}
		diag_segment(&acc, 1, DIAG_FAR, 0, 0, true);
		break;
	case PE_FIELD_RELATIVE:
		if (cfg->relative == PE_REL_SHAW) {
			/* clip(k, -K, K) + K (Shaw et al. 2018, eq. 3). */
			int64_t k = (int64_t)cfg->max_relative;
			diag_segment(&acc, -DIAG_FAR, -k, 0, 0, false);
			if (k >= 1)
				diag_segment(&acc, -k + 1, k - 1, k, 1, false);
			diag_segment(&acc, k > 0 ? k : 1, DIAG_FAR, 2 * k, 0,
			             false);
			break;
		}
		if (pe_t5_max_exact(cfg->bidirectional, cfg->buckets) < 1 ||
		    cfg->max_distance <=
		        pe_t5_max_exact(cfg->bidirectional, cfg->buckets) ||
		    cfg->max_distance > PE_MAX_N)
			return PE_EINVAL;
		diag_t5(&acc, cfg);
		break;
	default:
		return PE_EINVAL;
	}

	dest->count = (uint64_t)(r1 - r0) * (uint64_t)(c1 - c0);
	dest->masked = acc.masked;
	dest->undefined = 0;
	dest->resultant = 1.0;
	dest->minmax_exact = minmax;
	if (acc.cnt == 0) {
		dest->mean = dest->min = dest->max = NAN;
		return PE_OK;
	}
	/* sum / cnt as quotient and remainder, so long double only rounds
	 * once at the end. */
	i128 q = acc.sum / (i128)acc.cnt, rem = acc.sum % (i128)acc.cnt;
	long double mv =
	    (long double)q + (long double)rem / (long double)acc.cnt;
	double lo = scale * (double)acc.vlo, hi = scale * (double)acc.vhi;
	dest->mean = (double)((long double)scale * mv);
	dest->min = lo < hi ? lo : hi;
	dest->max = lo < hi ? hi : lo;
	return PE_OK;
}
