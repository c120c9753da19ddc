/* The loops of pescope/wave.h in AVX-512F, 8 frequencies a step, with
 * SLEEF's sincos (u10: within 1.0 ulp). Built with -mavx512f and called
 * only when the CPU has it (wave.c). A row's tail is computed in a
 * zero-padded vector and stored under a mask, so every column goes through
 * the same instructions. Each loop is written once and made twice, for
 * double and for float32 rows (the float of the double value: the same
 * arithmetic, rounded once more on the way out). */
#include <immintrin.h>
#include <sleef.h>

#include "kernel/trig.h"
#include "kernel/wave_impl.h"

/* Mask of the first n (<= 8) lanes. */
static inline __mmask8
avx512_mask(size_t n)
{
	return (__mmask8)(n >= 8 ? 0xff : (1u << n) - 1);
}

/* Mask of the first n (<= 16) lanes. */
static inline __mmask16
avx512_mask16(size_t n)
{
	return (__mmask16)(n >= 16 ? 0xffff : (1u << n) - 1);
}

/* How a loop writes: the layout's and dtype's choices, fixed for a whole
 * row so the loops below are made once per combination (the constants
 * fold away) and the only per-step choices are two blends. */
struct avx512_how {
	__mmask8 cos1, cos2;	/* all lanes when that value is the cosine */
	__m512d scale;
	size_t half;
};

/* Store pair values of frequencies j .. j+n-1 (n <= 8, lanes past n
 * masked off when tail) as out says, as doubles or (f32) floats. */
static inline __attribute__((always_inline)) void
avx512_put(const struct avx512_how *h, size_t j, size_t n, __m512d s,
           __m512d c, void *dest, bool pairs, bool scaled, bool f32,
           bool tail, int sel)
{
	__m512d a, b;

	if (sel >= 0) { /* the functions known here: bit 0 cos1, bit 1 cos2 */
		a = sel & 1 ? c : s;
		b = sel & 2 ? c : s;
	} else {
		a = _mm512_mask_blend_pd(h->cos1, s, c);
		b = _mm512_mask_blend_pd(h->cos2, s, c);
	}

	if (scaled) {
		a = _mm512_mul_pd(a, h->scale);
		b = _mm512_mul_pd(b, h->scale);
	}
	if (f32) {
		float *d = dest;
		__m256 fa = _mm512_cvtpd_ps(a), fb = _mm512_cvtpd_ps(b);
		if (pairs) {
			const __m512i i = _mm512_set_epi32(23, 7, 22, 6, 21, 5,
			    20, 4, 19, 3, 18, 2, 17, 1, 16, 0);
			__m512 ab = _mm512_permutex2var_ps(
			    _mm512_castps256_ps512(fa), i,
			    _mm512_castps256_ps512(fb));
			if (tail)
				_mm512_mask_storeu_ps(d + 2 * j,
				    avx512_mask16(2 * n), ab);
			else
				_mm512_storeu_ps(d + 2 * j, ab);
		} else if (tail) {
			/* the low 8 lanes (AVX-512F has no 256-bit masked
			 * store) */
			__mmask16 k = avx512_mask16(n);
			_mm512_mask_storeu_ps(d + j, k, _mm512_castps256_ps512(fa));
			_mm512_mask_storeu_ps(d + h->half + j, k,
			    _mm512_castps256_ps512(fb));
		} else {
			_mm256_storeu_ps(d + j, fa);
			_mm256_storeu_ps(d + h->half + j, fb);
		}
		return;
	}
	double *d = dest;
	if (pairs) {
		const __m512i i0 = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0);
		const __m512i i1 = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
		__m512d lo = _mm512_permutex2var_pd(a, i0, b);
		__m512d hi = _mm512_permutex2var_pd(a, i1, b);
		size_t m = 2 * n; /* values to store, up to 16 */
		__mmask8 k0 = (__mmask8)(m >= 8 ? 0xff : (1u << m) - 1);
		__mmask8 k1 = (__mmask8)(m <= 8 ? 0 : (1u << (m - 8)) - 1);
		if (!tail) {
			_mm512_storeu_pd(d + 2 * j, lo);
			_mm512_storeu_pd(d + 2 * j + 8, hi);
			return;
		}
		_mm512_mask_storeu_pd(d + 2 * j, k0, lo);
		if (k1 != 0)
			_mm512_mask_storeu_pd(d + 2 * j + 8, k1, hi);
	} else if (tail) {
		__mmask8 k = avx512_mask(n);
		_mm512_mask_storeu_pd(d + j, k, a);
		_mm512_mask_storeu_pd(d + h->half + j, k, b);
	} else {
		_mm512_storeu_pd(d + j, a);
		_mm512_storeu_pd(d + h->half + j, b);
	}
}

/* The choices of out for a row whose pairs' second values are half
 * columns after the first (halves). */
static inline struct avx512_how
avx512_how(const struct pe_wave_out *out, size_t half)
{
	struct avx512_how h = {out->cos1 ? 0xff : 0, out->cos2 ? 0xff : 0,
		_mm512_set1_pd(out->scale), half};
	return h;
}

/* sin and cos of fl(p w_j). */
static inline __attribute__((always_inline)) void
avx512_exact_loop(const double *w, size_t nw, double p,
                  const struct avx512_how *h, void *dest, bool pairs,
                  bool scaled, bool f32)
{
	const __m512d vp = _mm512_set1_pd(p);

	for (size_t j = 0; j < nw; j += 8) {
		size_t n = nw - j < 8 ? nw - j : 8;
		__m512d t = _mm512_mul_pd(vp,
		    _mm512_maskz_loadu_pd(avx512_mask(n), w + j));
		Sleef___m512d_2 sc = Sleef_sincosd8_u10avx512f(t);
		avx512_put(h, j, n, sc.x, sc.y, dest, pairs, scaled, f32, n < 8,
		    -1);
	}
}

/* The exact loop made for each layout, scale and dtype. */
static void
avx512_exact_any(const double *w, size_t nw, size_t half, double p,
                 const struct pe_wave_out *out, void *dest, bool f32)
{
	struct avx512_how h = avx512_how(out, half);
	bool scaled = out->scale != 1.0;

	if (f32) {
		if (out->pairs)
			avx512_exact_loop(w, nw, p, &h, dest, true, scaled, true);
		else
			avx512_exact_loop(w, nw, p, &h, dest, false, scaled, true);
	} else if (out->pairs) {
		avx512_exact_loop(w, nw, p, &h, dest, true, scaled, false);
	} else {
		avx512_exact_loop(w, nw, p, &h, dest, false, scaled, false);
	}
}

/* The anchors: SLEEF's u35 sincos (3.5 ulps for |x| up to 1e14). */
static void
avx512_anchor(const double *w, size_t nw, size_t half, double p, double *s)
{
	const __m512d vp = _mm512_set1_pd(p);

	for (size_t j = 0; j < nw; j += 8) {
		__mmask8 k = avx512_mask(nw - j < 8 ? nw - j : 8);
		Sleef___m512d_2 sc = Sleef_sincosd8_u35avx512f(
		    _mm512_mul_pd(vp, _mm512_maskz_loadu_pd(k, w + j)));
		_mm512_mask_storeu_pd(s + j, k, sc.x);
		_mm512_mask_storeu_pd(s + half + j, k, sc.y);
	}
}

/* The step (wave_step_generic's formulas, with fused multiply-adds). */
static void
avx512_step(const double *w, size_t nw, double q, double m, const double *s0,
            const double *c0, const double *sm, const double *cm, double *s,
            double *c)
{
	const __m512d vq = _mm512_set1_pd(q), vb = _mm512_set1_pd(q - m);
	const __m512d vm = _mm512_set1_pd(m), half = _mm512_set1_pd(0.5);

	for (size_t j = 0; j < nw; j += 8) {
		size_t n = nw - j < 8 ? nw - j : 8;
		__mmask8 k = avx512_mask(n);
		__m512d W = _mm512_maskz_loadu_pd(k, w + j);
		__m512d r = _mm512_sub_pd(_mm512_sub_pd(_mm512_mul_pd(vq, W),
		    _mm512_mul_pd(vb, W)), _mm512_mul_pd(vm, W));
		__m512d h = _mm512_mul_pd(_mm512_mul_pd(half, r), r);
		__m512d S0 = _mm512_maskz_loadu_pd(k, s0 + j);
		__m512d C0 = _mm512_maskz_loadu_pd(k, c0 + j);
		__m512d SM = _mm512_maskz_loadu_pd(k, sm + j);
		__m512d CM = _mm512_maskz_loadu_pd(k, cm + j);
		__m512d S = _mm512_fmadd_pd(S0, CM, _mm512_mul_pd(C0, SM));
		__m512d C = _mm512_fmsub_pd(C0, CM, _mm512_mul_pd(S0, SM));
		_mm512_mask_storeu_pd(s + j, k,
		    _mm512_fmadd_pd(C, r, _mm512_fnmadd_pd(S, h, S)));
		_mm512_mask_storeu_pd(c + j, k,
		    _mm512_fnmadd_pd(S, r, _mm512_fnmadd_pd(C, h, C)));
	}
}

/* Frequencies j .. j+n-1 (the lanes past n zero when tail) of nr rows q +
 * v, v = v0 .. v0 + nr - 1, by angle addition to first order: the rows
 * share the loads of w and of q's anchor. */
static inline __attribute__((always_inline)) void
avx512_rows_step(const double *w, size_t j, size_t n, double q, size_t v0,
                 int nr, const double *s0, const double *c0,
                 const double *t1, size_t nw1, size_t tstride,
                 const struct avx512_how *h, void *dest, size_t stride,
                 bool pairs, bool scaled, bool f32, bool tail, int sel)
{
	__mmask8 k = tail ? avx512_mask(n) : 0xff;
	__m512d W = _mm512_maskz_loadu_pd(k, w + j);
	__m512d A0 = _mm512_mul_pd(_mm512_set1_pd(q), W);
	__m512d S0 = _mm512_maskz_loadu_pd(k, s0 + j);
	__m512d C0 = _mm512_maskz_loadu_pd(k, c0 + j);
	size_t es = f32 ? sizeof(float) : sizeof(double);

	for (int i = 0; i < nr; i++) {
		double v = (double)(v0 + (size_t)i);
		const double *sv = t1 + (v0 + (size_t)i) * tstride;
		__m512d t = _mm512_mul_pd(_mm512_set1_pd(q + v), W);
		__m512d r = _mm512_sub_pd(_mm512_sub_pd(t, A0),
		    _mm512_mul_pd(_mm512_set1_pd(v), W));
		__m512d SV = _mm512_maskz_loadu_pd(k, sv + j);
		__m512d CV = _mm512_maskz_loadu_pd(k, sv + nw1 + j);
		__m512d S = _mm512_fmadd_pd(S0, CV, _mm512_mul_pd(C0, SV));
		__m512d C = _mm512_fmsub_pd(C0, CV, _mm512_mul_pd(S0, SV));
		__m512d s = _mm512_fmadd_pd(C, r, S);
		__m512d c = _mm512_fnmadd_pd(S, r, C);
		avx512_put(h, j, n, s, c, (char *)dest + (size_t)i * stride * es,
		    pairs, scaled, f32, tail, sel);
	}
}

/* The rows, four at a time (then one at a time), each frequency vector
 * of them together; the tail under a mask. */
static inline __attribute__((always_inline)) void
avx512_rows_loop(const double *w, size_t nw, double q, size_t v0,
                 size_t nrows, const double *s0, const double *c0,
                 const double *t1, size_t nw1, size_t tstride,
                 const struct avx512_how *h, void *dest, size_t stride,
                 bool pairs, bool scaled, bool f32, int sel)
{
	size_t es = f32 ? sizeof(float) : sizeof(double), i = 0;

	for (; i < nrows; ) {
		int nr = nrows - i >= 4 ? 4 : 1;
		char *row = (char *)dest + i * stride * es;
		size_t j = 0;
		if (nr == 4) {
			for (; j + 8 <= nw; j += 8)
				avx512_rows_step(w, j, 8, q, v0 + i, 4, s0, c0, t1, nw1,
				    tstride, h, row, stride, pairs, scaled, f32, false,
				    sel);
			if (j < nw)
				avx512_rows_step(w, j, nw - j, q, v0 + i, 4, s0, c0, t1,
				    nw1, tstride, h, row, stride, pairs, scaled, f32,
				    true, sel);
		} else {
			for (; j + 8 <= nw; j += 8)
				avx512_rows_step(w, j, 8, q, v0 + i, 1, s0, c0, t1, nw1,
				    tstride, h, row, stride, pairs, scaled, f32, false,
				    sel);
			if (j < nw)
				avx512_rows_step(w, j, nw - j, q, v0 + i, 1, s0, c0, t1,
				    nw1, tstride, h, row, stride, pairs, scaled, f32,
				    true, sel);
		}
		i += (size_t)nr;
	}
}

/* The rows made for each dtype, layout, pair of functions and scale: the
 * dtype and layout by a switch, the functions by one more (rope's cos
 * and sin tables, the sinusoids), the scale by a multiply by one when
 * unscaled but not the usual sin, cos. */
static void
avx512_rows(const double *w, size_t nw, size_t half, double q, size_t v0,
            size_t nrows, const double *s0, const double *c0,
            const double *t1, size_t nw1, size_t tstride,
            const struct pe_wave_out *out, void *dest, size_t stride,
            bool f32)
{
	struct avx512_how h = avx512_how(out, half);
	int sel = (out->cos1 ? 1 : 0) | (out->cos2 ? 2 : 0);
	bool plain = sel == 2 && out->scale == 1.0;
	int how = (f32 ? 4 : 0) | (out->pairs ? 2 : 0) | (plain ? 1 : 0);

#define AVX512_ROWS(pairs, scaled, f32, sel) avx512_rows_loop(w, nw, q, v0, \
    nrows, s0, c0, t1, nw1, tstride, &h, dest, stride, pairs, scaled, f32, \
    sel)
#define AVX512_SEL(pairs, f32) do {					\
	switch (sel) {							\
	case 0: AVX512_ROWS(pairs, true, f32, 0); break;		\
	case 1: AVX512_ROWS(pairs, true, f32, 1); break;		\
	case 3: AVX512_ROWS(pairs, true, f32, 3); break;		\
	default: AVX512_ROWS(pairs, true, f32, 2); break;		\
	}								\
} while (0)
	switch (how) {
	case 7: AVX512_ROWS(true, false, true, 2); break;
	case 6: AVX512_SEL(true, true); break;
	case 5: AVX512_ROWS(false, false, true, 2); break;
	case 4: AVX512_SEL(false, true); break;
	case 3: AVX512_ROWS(true, false, false, 2); break;
	case 2: AVX512_SEL(true, false); break;
	case 1: AVX512_ROWS(false, false, false, 2); break;
	default: AVX512_SEL(false, false); break;
	}
#undef AVX512_SEL
#undef AVX512_ROWS
}

static void
avx512_exact(const double *w, size_t nw, size_t half, double p,
             const struct pe_wave_out *out, double *dest)
{
	avx512_exact_any(w, nw, half, p, out, dest, false);
}

static void
avx512_exact32(const double *w, size_t nw, size_t half, double p,
               const struct pe_wave_out *out, float *dest)
{
	avx512_exact_any(w, nw, half, p, out, dest, true);
}

const struct wave_isa pe_wave_avx512 = {"avx512", avx512_exact,
	avx512_exact32, avx512_anchor, avx512_step, avx512_rows};

/* pe_trig_runs 8 frequencies a step (trig.h's formulas, wave.c's generic
 * loop in vectors), the runs' sums kept in registers; the tail under a
 * mask, read as zeros. */
void
pe_wave_avx512_runs(const struct pe_trig_freqs *fr, size_t n,
                    const struct pe_trig_run *run, size_t nrun, bool add,
                    double *re, double *im)
{
	const __m512d zero = _mm512_setzero_pd();

	for (size_t k = 0; k < n; k += 8) {
		__mmask8 m = avx512_mask(n - k);
		__m512d h = _mm512_maskz_loadu_pd(m, fr->h + k);
		__m512d ish = _mm512_maskz_loadu_pd(m, fr->ish + k);
		__mmask8 flat = _mm512_cmp_pd_mask(ish, zero, _CMP_EQ_OQ);
		__m512d sr = add ? _mm512_maskz_loadu_pd(m, re + k) : zero;
		__m512d si = add ? _mm512_maskz_loadu_pd(m, im + k) : zero;
		for (size_t r = 0; r < nrun; r++) {
			const struct pe_trig_run *u = &run[r];
			__m512d len = _mm512_set1_pd(u->len), s, c, d, sl, cl;
			d = _mm512_set1_pd(1.0);
			if (u->anchor < 0) {
				Sleef___m512d_2 sc = Sleef_sincosd8_u10avx512f(
				    _mm512_mul_pd(_mm512_set1_pd(u->mid), h));
				s = sc.x;
				c = sc.y;
				if (u->len != 1.0)
					d = _mm512_mask_blend_pd(flat, _mm512_mul_pd(
					    Sleef_sind8_u10avx512f(_mm512_mul_pd(len, h)),
					    ish), len);
			} else {
				if (u->len == 1.0) {
					sl = _mm512_maskz_loadu_pd(m, fr->sh + k);
					cl = _mm512_maskz_loadu_pd(m, fr->ch + k);
				} else {
					Sleef___m512d_2 sc = Sleef_sincosd8_u10avx512f(
					    _mm512_mul_pd(len, h));
					sl = sc.x;
					cl = sc.y;
					d = _mm512_mask_blend_pd(flat, _mm512_mul_pd(sl, ish),
					    len);
				}
				__m512d ac = _mm512_maskz_loadu_pd(m,
				    fr->ac[u->anchor] + k);
				__m512d as = _mm512_maskz_loadu_pd(m,
				    fr->as[u->anchor] + k);
				if (u->anchor == 1)
					sl = _mm512_sub_pd(zero, sl);
				c = _mm512_sub_pd(_mm512_mul_pd(ac, cl),
				    _mm512_mul_pd(as, sl));
				s = _mm512_add_pd(_mm512_mul_pd(as, cl),
				    _mm512_mul_pd(ac, sl));
			}
			__m512d mult = _mm512_set1_pd(u->mult);
			sr = _mm512_add_pd(sr, _mm512_mul_pd(mult, _mm512_mul_pd(d, c)));
			si = _mm512_add_pd(si, _mm512_mul_pd(mult, _mm512_mul_pd(d, s)));
		}
		_mm512_mask_storeu_pd(re + k, m, sr);
		_mm512_mask_storeu_pd(im + k, m, si);
	}
}
