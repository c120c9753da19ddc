/* pe_scale_means' loop (heatmap.c) in AVX-512F, 8 samples at a time: the
 * same IEEE operations in the same order as the generic loop and as
 * pe_scale_color (no contraction: -ffp-contract=off), the colormap's
 * buckets read by one gather, floors and truncations by the unit's
 * rounding (exact, as the generic loop's 2^52 sums are). Built with
 * -mavx512f and called only when the CPU has it. A picture's colors were
 * a sixth of its CPU time in the generic loop, whose lanes GCC moved
 * through the stack one by one. */
#include <immintrin.h>
#include <string.h>

#include "render/heatmap_impl.h"

/* The lanes' t as pe_scale_t makes them, then pe_cmap_color's clamp
 * (NaN -> 0): on a cyclic scale t - floor(t), 0 where t is not finite or
 * the difference rounds up to 1; else clamped into [0, 1]. */
static inline __m512d
heatmap_t8(const struct heatmap_plan *pl, __m512d v)
{
	const __m512d zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1.0);

	if (pl->flat)
		return _mm512_set1_pd(0.5);
	__m512d t = _mm512_div_pd(_mm512_sub_pd(v, _mm512_set1_pd(pl->lo)),
	    _mm512_set1_pd(pl->span));
	if (pl->cyclic) {
		/* not finite (|t| > DBL_MAX, or NaN): 0 */
		__mmask8 fin = _mm512_cmp_pd_mask(_mm512_abs_pd(t),
		    _mm512_set1_pd(__DBL_MAX__), _CMP_LE_OQ);
		t = _mm512_maskz_mov_pd(fin, t);
		t = _mm512_sub_pd(t, _mm512_roundscale_pd(t,
		    _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
		__mmask8 top = _mm512_cmp_pd_mask(t, one, _CMP_GE_OQ);
		t = _mm512_mask_mov_pd(t, top, zero);
	}
	/* max's and min's second operand where t is NaN or a zero: t > 0 ?
	 * t : 0, then t < 1 ? t : 1 (t > 1 ? 1 : t on a t not NaN) */
	t = _mm512_max_pd(t, zero);
	return _mm512_min_pd(t, one);
}

/* The lanes' colors c faded toward mid grey by 1 - R (heatmap_blend's
 * arithmetic: a channel c + f (128 - c), rounded half up; R NaN or past 1
 * is 1, below 0 is 0). */
static inline __m256i
heatmap_fade8(__m256i c, __m512d r)
{
	const __m512d zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1.0);
	const __m512d grey = _mm512_set1_pd(128.0), half = _mm512_set1_pd(0.5);
	__m256i out = _mm256_set1_epi32((int)0xff000000u);

	/* min's second operand where r is NaN: r < 1 ? r : 1 */
	r = _mm512_min_pd(r, one);
	__mmask8 neg = _mm512_cmp_pd_mask(r, zero, _CMP_LT_OQ);
	r = _mm512_mask_mov_pd(r, neg, zero);
	__m512d f = _mm512_sub_pd(one, r);
	for (int sh = 16; sh >= 0; sh -= 8) {
		__m256i ch = _mm256_and_si256(_mm256_srli_epi32(c, sh),
		    _mm256_set1_epi32(0xff));
		__m512d ca = _mm512_cvtepi32_pd(ch);
		__m512d x = _mm512_add_pd(ca, _mm512_mul_pd(f,
		    _mm512_sub_pd(grey, ca)));
		/* x is in [0, 255]: its integer part, and one more where the
		 * rest (exact) is at least 1/2 */
		__m512d xi = _mm512_roundscale_pd(x, _MM_FROUND_TO_ZERO |
		    _MM_FROUND_NO_EXC);
		__mmask8 up = _mm512_cmp_pd_mask(_mm512_sub_pd(x, xi), half,
		    _CMP_GE_OQ);
		xi = _mm512_mask_add_pd(xi, up, xi, one);
		out = _mm256_or_si256(out, _mm256_slli_epi32(
		    _mm512_cvttpd_epi32(xi), sh));
	}
	return out;
}

/* Samples a pass of pe_heatmap_means_avx512 takes: their buckets read
 * first, all of them (independent gathers, many at once in flight: the
 * 256 KiB of buckets are not all in the core's cache), then their
 * colors. */
#define HEATMAP_PASS 256

/* Colors of the first n - n % 8 samples; see heatmap_impl.h. */
size_t
pe_heatmap_means_avx512(const struct heatmap_plan *pl, const double *mean,
    const double *res, size_t n, uint32_t *dest)
{
	const __m512d buckets = _mm512_set1_pd((double)PE_CMAP_BUCKETS);
	const __m256i mixed = _mm256_set1_epi32((int)PE_CMAP_MIXED);
	const __m256i opaque = _mm256_set1_epi32((int)0xff000000u);
	const uint32_t undef = 0xff000000u | (uint32_t)PE_COLOR_UNDEF;
	bool fade = pl->cyclic && res != NULL;
	size_t special = 0;
	double ts[HEATMAP_PASS];
	uint32_t cs[HEATMAP_PASS];

	n -= n % 8;
	for (size_t p = 0; p < n; p += HEATMAP_PASS) {
		size_t m = n - p < HEATMAP_PASS ? n - p : HEATMAP_PASS;
		__m256i any = _mm256_setzero_si256();
		for (size_t i = 0; i < m; i += 8) {
			__m512d t = heatmap_t8(pl, _mm512_loadu_pd(mean + p + i));
			/* t 2^16 is exact: its integer part is t's bucket (of
			 * 2^16 + 1: t 1 has its own) */
			__m256i k = _mm512_cvttpd_epi32(_mm512_mul_pd(t,
			    buckets));
			__m256i c = _mm256_i32gather_epi32((const int *)pl->lut,
			    k, 4);
			any = _mm256_or_si256(any, c);
			_mm512_storeu_pd(ts + i, t);
			_mm256_storeu_si256((__m256i *)(void *)(cs + i), c);
		}
		/* a bucket whose t get more than one color: the colormap's
		 * own answer for those samples */
		for (size_t i = 0; !_mm256_testz_si256(any, mixed) && i < m; i++)
			if (cs[i] & PE_CMAP_MIXED)
				cs[i] = (uint32_t)pe_cmap_color(pl->cmap, ts[i]);
		for (size_t i = 0; i < m; i += 8) {
			__m256i c = _mm256_loadu_si256((const __m256i *)(const
			    void *)(cs + i));
			c = fade ? heatmap_fade8(c, _mm512_loadu_pd(res + p + i))
			    : _mm256_or_si256(c, opaque);
			_mm256_storeu_si256((__m256i *)(void *)(dest + p + i), c);
			__m512d v = _mm512_loadu_pd(mean + p + i);
			__mmask8 nan = _mm512_cmp_pd_mask(v, v, _CMP_UNORD_Q);
			if (nan != 0) { /* undefined: no finite entry */
				for (int j = 0; j < 8; j++)
					if (nan >> j & 1)
						dest[p + i + (size_t)j] = undef;
				special += (size_t)__builtin_popcount(nan);
			}
		}
	}
	return special;
}
