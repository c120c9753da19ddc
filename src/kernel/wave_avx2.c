/* The loops of pescope/wave.h in AVX2 + FMA, 4 frequencies a step, with
 * SLEEF's sincos (u10: within 1.0 ulp); the same operations as
 * wave_avx512.c. Built with -mavx2 -mfma and called only when the CPU has
 * both (wave.c). A row's tail is computed in a zero-padded vector, so every
 * column goes through the same instructions. */
#include <immintrin.h>
#include <sleef.h>
#include <string.h>

#include "kernel/wave_impl.h"

/* Load the first n (<= 4) of src, zeros after. */
static inline __m256d
avx2_load(const double *src, size_t n)
{
	double tmp[4] = {0.0, 0.0, 0.0, 0.0};

	if (n >= 4)
		return _mm256_loadu_pd(src);
	memcpy(tmp, src, n * sizeof *tmp);
	return _mm256_loadu_pd(tmp);
}

/* Store the first n (<= 4) lanes of v at dest. */
static inline void
avx2_store(double *dest, size_t n, __m256d v)
{
	double tmp[4];

	if (n >= 4) {
		_mm256_storeu_pd(dest, v);
		return;
	}
	_mm256_storeu_pd(tmp, v);
	memcpy(dest, tmp, n * sizeof *tmp);
}

/* Store pair values a, b of frequencies j .. j+n-1 (n <= 4) as out says. */
static inline void
avx2_put(const struct pe_wave_out *out, size_t half, size_t j, size_t n,
         __m256d s, __m256d c, double *dest)
{
	const __m256d scale = _mm256_set1_pd(out->scale);
	__m256d a = _mm256_mul_pd(out->cos1 ? c : s, scale);
	__m256d b = _mm256_mul_pd(out->cos2 ? c : s, scale);

	if (out->pairs) {
		__m256d lo = _mm256_unpacklo_pd(a, b); /* a0 b0 a2 b2 */
		__m256d hi = _mm256_unpackhi_pd(a, b); /* a1 b1 a3 b3 */
		size_t m = 2 * n;
		avx2_store(dest + 2 * j, m < 4 ? m : 4,
		           _mm256_permute2f128_pd(lo, hi, 0x20));
		if (m > 4)
			avx2_store(dest + 2 * j + 4, m - 4,
			           _mm256_permute2f128_pd(lo, hi, 0x31));
	} else {
		avx2_store(dest + j, n, a);
		avx2_store(dest + half + j, n, b);
	}
}

/* sin and cos of fl(p w_j). */
static void
avx2_exact(const double *w, size_t nw, size_t half, double p,
           const struct pe_wave_out *out, double *dest)
{
	const struct pe_wave_out o = *out; /* not aliased by dest */
	const __m256d vp = _mm256_set1_pd(p);

	for (size_t j = 0; j < nw; j += 4) {
		size_t n = nw - j < 4 ? nw - j : 4;
		__m256d t = _mm256_mul_pd(vp, avx2_load(w + j, n));
		Sleef___m256d_2 sc = Sleef_sincosd4_u10avx2(t);
		avx2_put(&o, half, j, n, sc.x, sc.y, dest);
	}
}

/* Angle addition corrected to fl(p w_j) (wave_add_generic's formulas,
 * with fused multiply-adds as wave_avx512.c). */
static void
avx2_add(const double *w, size_t nw, size_t half, double p,
           double b, double k,
         const double *s0, const double *c0, const double *sk,
         const double *ck, const struct pe_wave_out *out, double *dest)
{
	const struct pe_wave_out o = *out; /* not aliased by dest */
	const __m256d vp = _mm256_set1_pd(p), vb = _mm256_set1_pd(b);
	const __m256d vk = _mm256_set1_pd(k);

	for (size_t j = 0; j < nw; j += 4) {
		size_t n = nw - j < 4 ? nw - j : 4;
		__m256d wj = avx2_load(w + j, n);
		__m256d S0 = avx2_load(s0 + j, n), C0 = avx2_load(c0 + j, n);
		__m256d SK = avx2_load(sk + j, n), CK = avx2_load(ck + j, n);
		__m256d a0 = _mm256_mul_pd(vb, wj), ak = _mm256_mul_pd(vk, wj);
		__m256d t = _mm256_mul_pd(vp, wj);
		__m256d r = _mm256_sub_pd(_mm256_sub_pd(t, a0), ak);
		__m256d S = _mm256_fmadd_pd(S0, CK, _mm256_mul_pd(C0, SK));
		__m256d C = _mm256_fmsub_pd(C0, CK, _mm256_mul_pd(S0, SK));
		__m256d s = _mm256_fmadd_pd(C, r, S);
		__m256d c = _mm256_fnmadd_pd(S, r, C);
		avx2_put(&o, half, j, n, s, c, dest);
	}
}

const struct wave_isa pe_wave_avx2 = {"avx2", avx2_exact, avx2_add};
