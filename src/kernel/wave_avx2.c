/* The loops of pescope/wave.h in AVX2 + FMA, 4 frequencies a step, with
 * SLEEF's sincos (u10: within 1.0 ulp); the same operations as
 * wave_avx512.c. Built with -mavx2 -mfma and called only when the CPU has
 * both (wave.c). A row's tail is computed in a zero-padded vector, so every
 * column goes through the same instructions. Each loop is made for double
 * and for float32 rows (the float of the double value). */
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

/* Store the first n (<= 8) floats of v at dest. */
static inline void
avx2_store32(float *dest, size_t n, __m256 v)
{
	float tmp[8];

	if (n >= 8) {
		_mm256_storeu_ps(dest, v);
		return;
	}
	_mm256_storeu_ps(tmp, v);
	memcpy(dest, tmp, n * sizeof *tmp);
}

/* Store the first n (<= 4) floats of v at dest. */
static inline void
avx2_store32q(float *dest, size_t n, __m128 v)
{
	float tmp[4];

	if (n >= 4) {
		_mm_storeu_ps(dest, v);
		return;
	}
	_mm_storeu_ps(tmp, v);
	memcpy(dest, tmp, n * sizeof *tmp);
}

/* Store pair values a, b of frequencies j .. j+n-1 (n <= 4) as out says,
 * as doubles or (f32) as floats. */
static inline void
avx2_put(const struct pe_wave_out *out, size_t half, size_t j, size_t n,
         __m256d s, __m256d c, void *dest, bool f32)
{
	__m256d a = out->cos1 ? c : s, b = out->cos2 ? c : s;

	if (out->scale != 1.0) {
		const __m256d scale = _mm256_set1_pd(out->scale);
		a = _mm256_mul_pd(a, scale);
		b = _mm256_mul_pd(b, scale);
	}
	if (f32) {
		float *d = dest;
		__m128 fa = _mm256_cvtpd_ps(a), fb = _mm256_cvtpd_ps(b);
		if (out->pairs) {
			__m256 ab = _mm256_set_m128(_mm_unpackhi_ps(fa, fb),
			    _mm_unpacklo_ps(fa, fb));
			avx2_store32(d + 2 * j, 2 * n, ab);
		} else {
			avx2_store32q(d + j, n, fa);
			avx2_store32q(d + half + j, n, fb);
		}
		return;
	}
	double *d = dest;
	if (out->pairs) {
		__m256d lo = _mm256_unpacklo_pd(a, b); /* a0 b0 a2 b2 */
		__m256d hi = _mm256_unpackhi_pd(a, b); /* a1 b1 a3 b3 */
		size_t m = 2 * n;
		avx2_store(d + 2 * j, m < 4 ? m : 4,
		           _mm256_permute2f128_pd(lo, hi, 0x20));
		if (m > 4)
			avx2_store(d + 2 * j + 4, m - 4,
			           _mm256_permute2f128_pd(lo, hi, 0x31));
	} else {
		avx2_store(d + j, n, a);
		avx2_store(d + half + j, n, b);
	}
}

/* sin and cos of fl(p w_j). */
static inline void
avx2_exact_body(const double *w, size_t nw, size_t half, double p,
                const struct pe_wave_out *out, void *dest, bool f32)
{
	const struct pe_wave_out o = *out; /* not aliased by dest */
	const __m256d vp = _mm256_set1_pd(p);

	for (size_t j = 0; j < nw; j += 4) {
		size_t n = nw - j < 4 ? nw - j : 4;
		__m256d t = _mm256_mul_pd(vp, avx2_load(w + j, n));
		Sleef___m256d_2 sc = Sleef_sincosd4_u10avx2(t);
		avx2_put(&o, half, j, n, sc.x, sc.y, dest, f32);
	}
}

/* The anchors: SLEEF's u35 sincos (3.5 ulps for |x| up to 1e14). */
static void
avx2_anchor(const double *w, size_t nw, size_t half, double p, double *s)
{
	const __m256d vp = _mm256_set1_pd(p);

	for (size_t j = 0; j < nw; j += 4) {
		size_t n = nw - j < 4 ? nw - j : 4;
		Sleef___m256d_2 sc = Sleef_sincosd4_u35avx2(
		    _mm256_mul_pd(vp, avx2_load(w + j, n)));
		avx2_store(s + j, n, sc.x);
		avx2_store(s + half + j, n, sc.y);
	}
}

/* The step (wave_step_generic's formulas, with fused multiply-adds). */
static void
avx2_step(const double *w, size_t nw, double q, double m, const double *s0,
          const double *c0, const double *sm, const double *cm, double *s,
          double *c)
{
	const __m256d vq = _mm256_set1_pd(q), vb = _mm256_set1_pd(q - m);
	const __m256d vm = _mm256_set1_pd(m), half = _mm256_set1_pd(0.5);

	for (size_t j = 0; j < nw; j += 4) {
		size_t n = nw - j < 4 ? nw - j : 4;
		__m256d W = avx2_load(w + j, n);
		__m256d r = _mm256_sub_pd(_mm256_sub_pd(_mm256_mul_pd(vq, W),
		    _mm256_mul_pd(vb, W)), _mm256_mul_pd(vm, W));
		__m256d h = _mm256_mul_pd(_mm256_mul_pd(half, r), r);
		__m256d S0 = avx2_load(s0 + j, n), C0 = avx2_load(c0 + j, n);
		__m256d SM = avx2_load(sm + j, n), CM = avx2_load(cm + j, n);
		__m256d S = _mm256_fmadd_pd(S0, CM, _mm256_mul_pd(C0, SM));
		__m256d C = _mm256_fmsub_pd(C0, CM, _mm256_mul_pd(S0, SM));
		avx2_store(s + j, n,
		    _mm256_fmadd_pd(C, r, _mm256_fnmadd_pd(S, h, S)));
		avx2_store(c + j, n,
		    _mm256_fnmadd_pd(S, r, _mm256_fnmadd_pd(C, h, C)));
	}
}

/* Rows by angle addition to first order (wave_rows_generic's formulas,
 * with fused multiply-adds as wave_avx512.c). */
static inline void
avx2_rows_body(const double *w, size_t nw, size_t half, double q, size_t v0,
               size_t nrows, const double *s0, const double *c0,
               const double *t1, size_t nw1, size_t tstride,
               const struct pe_wave_out *out, void *dest, size_t stride,
               bool f32)
{
	const struct pe_wave_out o = *out; /* not aliased by dest */
	size_t es = f32 ? sizeof(float) : sizeof(double);
	const __m256d vq = _mm256_set1_pd(q);

	for (size_t i = 0; i < nrows; i++) {
		const double *sv = t1 + (v0 + i) * tstride, *cv = sv + nw1;
		double v = (double)(v0 + i);
		const __m256d vp = _mm256_set1_pd(q + v), vv = _mm256_set1_pd(v);
		void *row = (char *)dest + i * stride * es;
		for (size_t j = 0; j < nw; j += 4) {
			size_t n = nw - j < 4 ? nw - j : 4;
			__m256d W = avx2_load(w + j, n);
			__m256d r = _mm256_sub_pd(_mm256_sub_pd(_mm256_mul_pd(vp, W),
			    _mm256_mul_pd(vq, W)), _mm256_mul_pd(vv, W));
			__m256d S0 = avx2_load(s0 + j, n), C0 = avx2_load(c0 + j, n);
			__m256d SV = avx2_load(sv + j, n), CV = avx2_load(cv + j, n);
			__m256d S = _mm256_fmadd_pd(S0, CV, _mm256_mul_pd(C0, SV));
			__m256d C = _mm256_fmsub_pd(C0, CV, _mm256_mul_pd(S0, SV));
			__m256d s = _mm256_fmadd_pd(C, r, S);
			__m256d c = _mm256_fnmadd_pd(S, r, C);
			avx2_put(&o, half, j, n, s, c, row, f32);
		}
	}
}

static void
avx2_rows(const double *w, size_t nw, size_t half, double q, size_t v0,
          size_t nrows, const double *s0, const double *c0,
          const double *t1, size_t nw1, size_t tstride,
          const struct pe_wave_out *out, void *dest, size_t stride, bool f32)
{
	if (f32)
		avx2_rows_body(w, nw, half, q, v0, nrows, s0, c0, t1, nw1,
		    tstride, out, dest, stride, true);
	else
		avx2_rows_body(w, nw, half, q, v0, nrows, s0, c0, t1, nw1,
		    tstride, out, dest, stride, false);
}

/* avx2_put with out's choices known where it is made (sel: bit 0 cos1,
 * bit 1 cos2; scaled: scale is not one), so they fold away; the tail
 * (n < 4) through avx2_put's stores. */
static inline __attribute__((always_inline)) void
avx2_put_made(size_t half, size_t j, size_t n, __m256d s, __m256d c,
              __m256d scale, void *dest, bool pairs, bool scaled, bool f32,
              bool tail, int sel)
{
	__m256d a = sel & 1 ? c : s, b = sel & 2 ? c : s;

	if (scaled) {
		a = _mm256_mul_pd(a, scale);
		b = _mm256_mul_pd(b, scale);
	}
	if (tail) {
		const struct pe_wave_out o = {pairs, false, true, 1.0};
		avx2_put(&o, half, j, n, a, b, dest, f32);
		return;
	}
	if (f32) {
		float *d = dest;
		__m128 fa = _mm256_cvtpd_ps(a), fb = _mm256_cvtpd_ps(b);
		if (pairs) {
			_mm256_storeu_ps(d + 2 * j, _mm256_set_m128(
			    _mm_unpackhi_ps(fa, fb), _mm_unpacklo_ps(fa, fb)));
		} else {
			_mm_storeu_ps(d + j, fa);
			_mm_storeu_ps(d + half + j, fb);
		}
		return;
	}
	double *d = dest;
	if (pairs) {
		__m256d lo = _mm256_unpacklo_pd(a, b), hi = _mm256_unpackhi_pd(a, b);
		_mm256_storeu_pd(d + 2 * j, _mm256_permute2f128_pd(lo, hi, 0x20));
		_mm256_storeu_pd(d + 2 * j + 4, _mm256_permute2f128_pd(lo, hi, 0x31));
	} else {
		_mm256_storeu_pd(d + j, a);
		_mm256_storeu_pd(d + half + j, b);
	}
}

/* One row of frequencies j .. j+n-1 by angle addition (avx2_rows_body's
 * arithmetic): row q + v from q's anchor (S0, C0; A0 = fl(q w)) and the
 * row table's entry v (SV, CV; VW = fl(v w)). */
static inline __attribute__((always_inline)) void
avx2_row2_one(__m256d W, __m256d A0, __m256d S0, __m256d C0, double p,
              __m256d VW, __m256d SV, __m256d CV, size_t half, size_t j,
              size_t n, __m256d scale, void *row, bool pairs, bool scaled,
              bool f32, bool tail, int sel)
{
	__m256d r = _mm256_sub_pd(_mm256_sub_pd(_mm256_mul_pd(
	    _mm256_set1_pd(p), W), A0), VW);
	__m256d S = _mm256_fmadd_pd(S0, CV, _mm256_mul_pd(C0, SV));
	__m256d C = _mm256_fmsub_pd(C0, CV, _mm256_mul_pd(S0, SV));
	avx2_put_made(half, j, n, _mm256_fmadd_pd(C, r, S),
	    _mm256_fnmadd_pd(S, r, C), scale, row, pairs, scaled, f32, tail, sel);
}

/* Two whole steps (wave_impl.h's rows2): for each two values of v, each
 * frequency vector of their four rows, rows q + v and q + 16 + v sharing
 * the loads of the table's entry v (wave_avx512.c's loop, 4 lanes). */
static inline __attribute__((always_inline)) void
avx2_rows2_loop(const double *w, size_t nw, size_t half, double q,
                const double *s0, const double *c0, const double *s1,
                const double *c1, const double *t1, size_t nw1,
                size_t tstride, __m256d scale, void *dest, size_t stride,
                bool pairs, bool scaled, bool f32, int sel)
{
	size_t es = f32 ? sizeof(float) : sizeof(double);
	const __m256d vq0 = _mm256_set1_pd(q), vq1 = _mm256_set1_pd(q + 16.0);

	for (size_t v0 = 0; v0 < 16; v0 += 2)
		for (size_t j = 0; j < nw; j += 4) {
			size_t n = nw - j < 4 ? nw - j : 4;
			bool tail = n < 4;
			__m256d W = avx2_load(w + j, n);
			__m256d A0 = _mm256_mul_pd(vq0, W), A1 = _mm256_mul_pd(vq1, W);
			__m256d S0 = avx2_load(s0 + j, n), C0 = avx2_load(c0 + j, n);
			__m256d S1 = avx2_load(s1 + j, n), C1 = avx2_load(c1 + j, n);
			for (size_t i = v0; i < v0 + 2; i++) {
				const double *sv = t1 + i * tstride;
				double v = (double)i;
				__m256d VW = _mm256_mul_pd(_mm256_set1_pd(v), W);
				__m256d SV = avx2_load(sv + j, n);
				__m256d CV = avx2_load(sv + nw1 + j, n);
				char *row = (char *)dest + i * stride * es;
				if (tail) {
					avx2_row2_one(W, A0, S0, C0, q + v, VW, SV, CV, half, j,
					    n, scale, row, pairs, scaled, f32, true, sel);
					avx2_row2_one(W, A1, S1, C1, q + 16.0 + v, VW, SV, CV,
					    half, j, n, scale, row + 16 * stride * es, pairs,
					    scaled, f32, true, sel);
				} else {
					avx2_row2_one(W, A0, S0, C0, q + v, VW, SV, CV, half, j,
					    4, scale, row, pairs, scaled, f32, false, sel);
					avx2_row2_one(W, A1, S1, C1, q + 16.0 + v, VW, SV, CV,
					    half, j, 4, scale, row + 16 * stride * es, pairs,
					    scaled, f32, false, sel);
				}
			}
		}
}

/* Two whole steps of rows, made for each dtype, layout, pair of
 * functions and scale (a multiply only when the scale is not one, which
 * changes no bit). */
static void
avx2_rows2(const double *w, size_t nw, size_t half, double q,
           const double *s0, const double *c0, const double *s1,
           const double *c1, const double *t1, size_t nw1, size_t tstride,
           const struct pe_wave_out *out, void *dest, size_t stride,
           bool f32)
{
	const __m256d scale = _mm256_set1_pd(out->scale);
	int sel = (out->cos1 ? 1 : 0) | (out->cos2 ? 2 : 0);
	int how = (f32 ? 4 : 0) | (out->pairs ? 2 : 0) |
	    (out->scale != 1.0 ? 1 : 0);

#define AVX2_ROWS2(f32, pairs, scaled, sel) avx2_rows2_loop(w, nw, half, q, \
    s0, c0, s1, c1, t1, nw1, tstride, scale, dest, stride, pairs, scaled, \
    f32, sel)
#define AVX2_MADE(sel) do {						\
	switch (how) {							\
	case 0: AVX2_ROWS2(false, false, false, sel); break;		\
	case 1: AVX2_ROWS2(false, false, true, sel); break;		\
	case 2: AVX2_ROWS2(false, true, false, sel); break;		\
	case 3: AVX2_ROWS2(false, true, true, sel); break;		\
	case 4: AVX2_ROWS2(true, false, false, sel); break;		\
	case 5: AVX2_ROWS2(true, false, true, sel); break;		\
	case 6: AVX2_ROWS2(true, true, false, sel); break;		\
	default: AVX2_ROWS2(true, true, true, sel); break;		\
	}								\
} while (0)
	switch (sel) {
	case 0: AVX2_MADE(0); break;
	case 1: AVX2_MADE(1); break;
	case 3: AVX2_MADE(3); break;
	default: AVX2_MADE(2); break;
	}
#undef AVX2_MADE
#undef AVX2_ROWS2
}

static void
avx2_exact(const double *w, size_t nw, size_t half, double p,
           const struct pe_wave_out *out, double *dest)
{
	avx2_exact_body(w, nw, half, p, out, dest, false);
}

static void
avx2_exact32(const double *w, size_t nw, size_t half, double p,
             const struct pe_wave_out *out, float *dest)
{
	avx2_exact_body(w, nw, half, p, out, dest, true);
}

const struct wave_isa pe_wave_avx2 = {"avx2", avx2_exact, avx2_exact32,
	avx2_anchor, avx2_step, avx2_rows, avx2_rows2};
