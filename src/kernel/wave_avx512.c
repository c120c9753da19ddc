/* The loops of pescope/wave.h in AVX-512F, 8 frequencies a step, with
 * SLEEF's sincos (u10: within 1.0 ulp). Built with -mavx512f and called
 * only when the CPU has it (wave.c). A row's tail is computed in a
 * zero-padded vector and stored under a mask, so every column goes through
 * the same instructions. */
#include <immintrin.h>
#include <sleef.h>

#include "kernel/wave_impl.h"

/* Store pair values a, b of frequencies j .. j+n-1 (n <= 8) as out says. */
static inline void
avx512_put(const struct pe_wave_out *out, size_t half, size_t j, size_t n,
           __m512d s, __m512d c, double *dest)
{
	const __m512d scale = _mm512_set1_pd(out->scale);
	__m512d a = _mm512_mul_pd(out->cos1 ? c : s, scale);
	__m512d b = _mm512_mul_pd(out->cos2 ? c : s, scale);

	if (out->pairs) {
		const __m512i i0 = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
		const __m512i i1 = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
		__m512d lo = _mm512_permutex2var_pd(a, i0, b);
		__m512d hi = _mm512_permutex2var_pd(a, i1, b);
		size_t m = 2 * n; /* values to store, up to 16 */
		__mmask8 k0 = (__mmask8)(m >= 8 ? 0xff : (1u << m) - 1);
		__mmask8 k1 = (__mmask8)(m <= 8 ? 0 : (1u << (m - 8)) - 1);
		_mm512_mask_storeu_pd(dest + 2 * j, k0, lo);
		if (k1 != 0)
			_mm512_mask_storeu_pd(dest + 2 * j + 8, k1, hi);
	} else {
		__mmask8 k = (__mmask8)(n >= 8 ? 0xff : (1u << n) - 1);
		_mm512_mask_storeu_pd(dest + j, k, a);
		_mm512_mask_storeu_pd(dest + half + j, k, b);
	}
}

/* Mask of the first n (<= 8) lanes. */
static inline __mmask8
avx512_mask(size_t n)
{
	return (__mmask8)(n >= 8 ? 0xff : (1u << n) - 1);
}

/* sin and cos of fl(p w_j). */
static void
avx512_exact(const double *w, size_t nw, size_t half, double p,
             const struct pe_wave_out *out, double *dest)
{
	const struct pe_wave_out o = *out; /* not aliased by dest */
	const __m512d vp = _mm512_set1_pd(p);

	for (size_t j = 0; j < nw; j += 8) {
		size_t n = nw - j < 8 ? nw - j : 8;
		__m512d t = _mm512_mul_pd(vp,
		    _mm512_maskz_loadu_pd(avx512_mask(n), w + j));
		Sleef___m512d_2 sc = Sleef_sincosd8_u10avx512f(t);
		avx512_put(&o, half, j, n, sc.x, sc.y, dest);
	}
}

/* Angle addition corrected to fl(p w_j) (wave_add_generic's formulas,
 * with fused multiply-adds). */
static void
avx512_add(const double *w, size_t nw, size_t half, double p,
           double b, double k,
           const double *s0, const double *c0, const double *sk,
           const double *ck, const struct pe_wave_out *out, double *dest)
{
	const struct pe_wave_out o = *out; /* not aliased by dest */
	const __m512d vp = _mm512_set1_pd(p), vb = _mm512_set1_pd(b);
	const __m512d vk = _mm512_set1_pd(k);

	for (size_t j = 0; j < nw; j += 8) {
		size_t n = nw - j < 8 ? nw - j : 8;
		__mmask8 m = avx512_mask(n);
		__m512d wj = _mm512_maskz_loadu_pd(m, w + j);
		__m512d S0 = _mm512_maskz_loadu_pd(m, s0 + j);
		__m512d C0 = _mm512_maskz_loadu_pd(m, c0 + j);
		__m512d SK = _mm512_maskz_loadu_pd(m, sk + j);
		__m512d CK = _mm512_maskz_loadu_pd(m, ck + j);
		__m512d a0 = _mm512_mul_pd(vb, wj), ak = _mm512_mul_pd(vk, wj);
		__m512d t = _mm512_mul_pd(vp, wj);
		__m512d r = _mm512_sub_pd(_mm512_sub_pd(t, a0), ak);
		__m512d S = _mm512_fmadd_pd(S0, CK, _mm512_mul_pd(C0, SK));
		__m512d C = _mm512_fmsub_pd(C0, CK, _mm512_mul_pd(S0, SK));
		__m512d s = _mm512_fmadd_pd(C, r, S);
		__m512d c = _mm512_fnmadd_pd(S, r, C);
		avx512_put(&o, half, j, n, s, c, dest);
	}
}

const struct wave_isa pe_wave_avx512 = {"avx512", avx512_exact, avx512_add};
