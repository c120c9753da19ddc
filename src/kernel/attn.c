/* The attention shape of a layer (attn.h): its masks, its sinks, Llama 4's
 * query temperature and the softmax scale of a decoupled head, each
 * transcribed from the transformers function it cites. tests/ref/
 * attn_ref.py transcribes the same functions in numpy, independently. */
#include <math.h>

#include "pescope/attn.h"
#include "pescope/encoding.h"
#include "pescope/pescope.h"
#include "kernel/check.h"

/* The span's name. */
const char *
pe_attn_span_name(enum pe_attn_span span)
{
	switch (span) {
	case PE_SPAN_FULL:
		return "full";
	case PE_SPAN_SLIDING:
		return "sliding";
	case PE_SPAN_CHUNKED:
		return "chunked";
	}
	return "?";
}

/* The keys query q sees, an interval [*lo, *hi] (inclusive; masking_utils'
 * mask functions each keep one side of it); false when it sees none (a
 * window or chunk of 0, which pe_config_check refuses). */
static bool
attn_interval(const struct pe_attn *t, size_t q, size_t *lo, size_t *hi)
{
	size_t a = 0, b = SIZE_MAX;

	if (t->causal) /* causal_mask_function: kv_idx <= q_idx */
		b = q;
	if (t->span == PE_SPAN_SLIDING) {
		size_t w = t->window;
		if (w == 0)
			return false;
		if (t->causal) {
			/* sliding_window_overlay: kv_idx > q_idx - sliding_window */
			a = q >= w - 1 ? q - (w - 1) : 0;
		} else {
			/* sliding_window_bidirectional_overlay:
			 * abs(q_idx - kv_idx) <= sliding_window */
			a = q >= w ? q - w : 0;
			b = q <= SIZE_MAX - w ? q + w : SIZE_MAX;
		}
	} else if (t->span == PE_SPAN_CHUNKED) {
		/* chunked_overlay: kv_idx // chunk_size == q_idx // chunk_size
		 * (no left padding) */
		size_t c = t->chunk;
		if (c == 0)
			return false;
		size_t start = q / c * c;
		size_t end = start <= SIZE_MAX - (c - 1) ? start + (c - 1)
		    : SIZE_MAX;
		if (start > a)
			a = start;
		if (end < b)
			b = end;
	}
	*lo = a;
	*hi = b;
	return a <= b;
}

/* Whether query q sees key k. */
bool
pe_attn_sees(const struct pe_attn *t, size_t q, size_t k)
{
	size_t lo, hi;

	return attn_interval(t, q, &lo, &hi) && k >= lo && k <= hi;
}

/* How many keys of [k0, k1) query q sees: its interval cut by the range. */
size_t
pe_attn_seen(const struct pe_attn *t, size_t q, size_t k0, size_t k1)
{
	size_t lo, hi;

	if (k0 >= k1 || !attn_interval(t, q, &lo, &hi))
		return 0;
	if (lo < k0)
		lo = k0;
	if (hi > k1 - 1)
		hi = k1 - 1;
	return lo <= hi ? hi - lo + 1 : 0;
}

/* Pairs (q, k) of rows [a, b) x keys [c, e) with k <= q (a causal
 * triangle cut by a rectangle): sum over q of |[c, min(q, e - 1)]|, in
 * three pieces (q < c: none; c <= q < e: q - c + 1; q >= e: e - c). */
static uint64_t
attn_causal_pairs(uint64_t a, uint64_t b, uint64_t c, uint64_t e)
{
	uint64_t n = 0;

	if (a >= b || c >= e)
		return 0;
	uint64_t x = a > c ? a : c, y = b < e ? b : e; /* rows in [c, e) */
	if (x < y) /* sum of q - c + 1 for q = x .. y - 1 */
		n += ((x - c + 1) + (y - c)) * (y - x) / 2;
	uint64_t z = a > e ? a : e; /* rows at or past e */
	if (z < b)
		n += (b - z) * (e - c);
	return n;
}

/* The pairs chunk k contributes to rows [r0, r1) x keys [c0, c1). */
static uint64_t
attn_chunk_pairs(const struct pe_attn *t, uint64_t k, uint64_t r0,
    uint64_t r1, uint64_t c0, uint64_t c1)
{
	uint64_t s = k * t->chunk, e = s + t->chunk;
	uint64_t a = r0 > s ? r0 : s, b = r1 < e ? r1 : e;
	uint64_t c = c0 > s ? c0 : s, d = c1 < e ? c1 : e;

	if (a >= b || c >= d)
		return 0;
	return t->causal ? attn_causal_pairs(a, b, c, d) : (b - a) * (d - c);
}

/* Seen pairs of a rectangle. */
uint64_t
pe_attn_seen_rect(const struct pe_attn *t, size_t r0, size_t r1, size_t c0,
    size_t c1)
{
	uint64_t n = 0;

	if (r0 >= r1 || c0 >= c1)
		return 0;
	if (t->span != PE_SPAN_CHUNKED) {
		for (size_t q = r0; q < r1; q++)
			n += pe_attn_seen(t, q, c0, c1);
		return n;
	}
	if (t->chunk == 0)
		return 0;
	/* the chunks meeting both ranges are lo / C .. (hi - 1) / C (the
	 * ranges need not overlap: rows [12, 14) and keys [14, 16) meet in
	 * a chunk of 5); those wholly inside both count whole, the (at most
	 * two) cut ones piece by piece */
	uint64_t C = t->chunk;
	uint64_t lo = r0 > c0 ? r0 : c0, hi = r1 < c1 ? r1 : c1;
	uint64_t k0 = lo / C, k1 = (hi - 1) / C; /* chunks meeting both */
	if (k0 > k1)
		return 0;
	uint64_t f0 = (lo + C - 1) / C, f1 = hi / C; /* wholly inside */
	uint64_t whole = t->causal ? C * (C + 1) / 2 : C * C;
	if (f0 < f1)
		n += (f1 - f0) * whole;
	for (uint64_t k = k0; k <= k1; k++) {
		if (k >= f0 && k < f1) {
			k = f1 - 1; /* skip the whole ones */
			continue;
		}
		n += attn_chunk_pairs(t, k, r0, r1, c0, c1);
	}
	return n;
}

/* The additive mask's rows: 0 seen, -inf not. */
int
pe_attn_mask_rows(const struct pe_attn *t, size_t q0, size_t nq, size_t nk,
    double *dest)
{
	if (t == NULL || (nq > 0 && nk > 0 && dest == NULL))
		return PE_EINVAL;
	for (size_t i = 0; i < nq; i++) {
		size_t lo, hi;
		bool any = attn_interval(t, q0 + i, &lo, &hi);
		for (size_t k = 0; k < nk; k++)
			dest[i * nk + k] = any && k >= lo && k <= hi ? 0.0
			    : -INFINITY;
	}
	return PE_OK;
}

/* Llama 4's query temperature at position p (float32 floor as HF's). */
double
pe_attn_temperature(const struct pe_attn *t, size_t p)
{
	if (!t->temperature || !(t->floor_scale > 0.0))
		return 1.0;
	/* cache_position.float() + 1.0, then / self.floor_scale: float32
	 * tensors (a Python number is rounded to the tensor's dtype) */
	volatile float pf = (float)p;
	volatile float q = pf + 1.0f;
	volatile float r = q / (float)t->floor_scale;
	double steps = floor((double)r);
	return log1p(steps) * t->attn_scale + 1.0;
}

/* Softmax over the keys and the sink, the sink's column dropped. */
int
pe_attn_softmax_sink(size_t t, const double *scores, double sink,
    double *dest, double *share)
{
	if (t == 0 || scores == NULL || dest == NULL || !isfinite(sink))
		return PE_EINVAL;
	for (size_t i = 0; i < t; i++) {
		const double *row = scores + i * t;
		double top = sink;
		for (size_t j = 0; j < t; j++) {
			if (isnan(row[j]) || row[j] == INFINITY)
				return PE_EINVAL;
			if (row[j] > top)
				top = row[j];
		}
		/* combined_logits - combined_logits.max(dim=-1) */
		double es = exp(sink - top), sum = 0.0;
		for (size_t j = 0; j < t; j++) {
			double e = exp(row[j] - top);
			dest[i * t + j] = e;
			sum += e;
		}
		sum += es;
		for (size_t j = 0; j < t; j++)
			dest[i * t + j] /= sum;
		if (share != NULL)
			share[i] = es / sum;
	}
	return PE_OK;
}
