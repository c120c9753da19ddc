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

/* One row of frequencies j .. j+n-1 (the lanes past n zero when tail):
 * row q + v from q's anchor (S0, C0; A0 = fl(q w)) and the row table's
 * entry v (sines at sv, cosines nw1 after), avx512_rows_step's
 * arithmetic. */
static inline __attribute__((always_inline)) void
avx512_row2_one(__m512d W, __m512d A0, __m512d S0, __m512d C0, double q,
                double v, __m512d VW, __m512d SV, __m512d CV,
                const struct avx512_how *h, size_t j, size_t n, void *row,
                bool pairs, bool scaled, bool f32, bool tail, int sel)
{
	__m512d t = _mm512_mul_pd(_mm512_set1_pd(q + v), W);
	__m512d r = _mm512_sub_pd(_mm512_sub_pd(t, A0), VW);
	__m512d S = _mm512_fmadd_pd(S0, CV, _mm512_mul_pd(C0, SV));
	__m512d C = _mm512_fmsub_pd(C0, CV, _mm512_mul_pd(S0, SV));
	avx512_put(h, j, n, _mm512_fmadd_pd(C, r, S), _mm512_fnmadd_pd(S, r, C),
	    row, pairs, scaled, f32, tail, sel);
}

/* Frequencies j .. j+n-1 of rows q + v and q + 16 + v, v = v0 .. v0 +
 * nv - 1: the two rows of a v share the loads of its table entry and
 * fl(v w). */
static inline __attribute__((always_inline)) void
avx512_rows2_step(const double *w, size_t j, size_t n, double q, size_t v0,
                  size_t nv, const double *s0, const double *c0, const double *s1,
                  const double *c1, const double *t1, size_t nw1,
                  size_t tstride, const struct avx512_how *h, void *dest,
                  size_t stride, bool pairs, bool scaled, bool f32,
                  bool tail, int sel)
{
	__mmask8 k = tail ? avx512_mask(n) : 0xff;
	__m512d W = _mm512_maskz_loadu_pd(k, w + j);
	__m512d A0 = _mm512_mul_pd(_mm512_set1_pd(q), W);
	__m512d A1 = _mm512_mul_pd(_mm512_set1_pd(q + 16.0), W);
	__m512d S0 = _mm512_maskz_loadu_pd(k, s0 + j);
	__m512d C0 = _mm512_maskz_loadu_pd(k, c0 + j);
	__m512d S1 = _mm512_maskz_loadu_pd(k, s1 + j);
	__m512d C1 = _mm512_maskz_loadu_pd(k, c1 + j);
	size_t es = f32 ? sizeof(float) : sizeof(double);

	for (size_t i = v0; i < v0 + nv; i++) {
		double v = (double)i;
		const double *sv = t1 + i * tstride;
		__m512d VW = _mm512_mul_pd(_mm512_set1_pd(v), W);
		__m512d SV = _mm512_maskz_loadu_pd(k, sv + j);
		__m512d CV = _mm512_maskz_loadu_pd(k, sv + nw1 + j);
		avx512_row2_one(W, A0, S0, C0, q, v, VW, SV, CV, h, j, n,
		    (char *)dest + i * stride * es, pairs, scaled, f32, tail, sel);
		avx512_row2_one(W, A1, S1, C1, q + 16.0, v, VW, SV, CV, h, j, n,
		    (char *)dest + (16 + i) * stride * es, pairs, scaled, f32,
		    tail, sel);
	}
}

/* Two whole steps, two values of v at a time, each frequency vector of
 * their four rows together; the tail under a mask. Four rows, not eight:
 * rows whose stride is a multiple of 4 KiB fall in one set of the
 * first-level cache (12 lines), and eight rows of halves (two lines a row)
 * overfill it; for pairs, four measured a little faster too. */
static inline __attribute__((always_inline)) void
avx512_rows2_loop(const double *w, size_t nw, double q, const double *s0,
                  const double *c0, const double *s1, const double *c1,
                  const double *t1, size_t nw1, size_t tstride,
                  const struct avx512_how *h, void *dest, size_t stride,
                  bool pairs, bool scaled, bool f32, int sel)
{
	const size_t nv = 2;

	for (size_t v0 = 0; v0 < 16; v0 += nv) {
		size_t j = 0;
		for (; j + 8 <= nw; j += 8)
			avx512_rows2_step(w, j, 8, q, v0, nv, s0, c0, s1, c1, t1,
			    nw1, tstride, h, dest, stride, pairs, scaled, f32, false,
			    sel);
		if (j < nw)
			avx512_rows2_step(w, j, nw - j, q, v0, nv, s0, c0, s1, c1,
			    t1, nw1, tstride, h, dest, stride, pairs, scaled, f32,
			    true, sel);
	}
}

/* Call LOOP made for the dtype, layout, pair of functions and scale
 * (a multiply only when the scale is not one, which changes no bit):
 * each combination's constants fold away. */
#define AVX512_MADE(LOOP, ...) do {					\
	switch (how) {							\
	case 0: LOOP(false, false, false, __VA_ARGS__); break;		\
	case 1: LOOP(false, false, true, __VA_ARGS__); break;		\
	case 2: LOOP(false, true, false, __VA_ARGS__); break;		\
	case 3: LOOP(false, true, true, __VA_ARGS__); break;		\
	case 4: LOOP(true, false, false, __VA_ARGS__); break;		\
	case 5: LOOP(true, false, true, __VA_ARGS__); break;		\
	case 6: LOOP(true, true, false, __VA_ARGS__); break;		\
	default: LOOP(true, true, true, __VA_ARGS__); break;		\
	}								\
} while (0)
#define AVX512_SELS(LOOP) do {						\
	switch (sel) {							\
	case 0: AVX512_MADE(LOOP, 0); break;				\
	case 1: AVX512_MADE(LOOP, 1); break;				\
	case 3: AVX512_MADE(LOOP, 3); break;				\
	default: AVX512_MADE(LOOP, 2); break;				\
	}								\
} while (0)

/* out's choices as the switch above reads them: how = f32, pairs,
 * scaled as bits 2, 1, 0; sel = cos1, cos2 as bits 0, 1. */
static inline int
avx512_how_bits(const struct pe_wave_out *out, bool f32, int *sel)
{
	*sel = (out->cos1 ? 1 : 0) | (out->cos2 ? 2 : 0);
	return (f32 ? 4 : 0) | (out->pairs ? 2 : 0) | (out->scale != 1.0 ? 1 : 0);
}

/* The rows made for each dtype, layout, pair of functions and scale. */
static void
avx512_rows(const double *w, size_t nw, size_t half, double q, size_t v0,
            size_t nrows, const double *s0, const double *c0,
            const double *t1, size_t nw1, size_t tstride,
            const struct pe_wave_out *out, void *dest, size_t stride,
            bool f32)
{
	struct avx512_how h = avx512_how(out, half);
	int sel, how = avx512_how_bits(out, f32, &sel);

#define AVX512_ROWS(f32, pairs, scaled, sel) avx512_rows_loop(w, nw, q, v0, \
    nrows, s0, c0, t1, nw1, tstride, &h, dest, stride, pairs, scaled, f32, \
    sel)
	AVX512_SELS(AVX512_ROWS);
#undef AVX512_ROWS
}

/* Two whole steps of rows, made as avx512_rows is. */
static void
avx512_rows2(const double *w, size_t nw, size_t half, double q,
             const double *s0, const double *c0, const double *s1,
             const double *c1, const double *t1, size_t nw1, size_t tstride,
             const struct pe_wave_out *out, void *dest, size_t stride,
             bool f32)
{
	struct avx512_how h = avx512_how(out, half);
	int sel, how = avx512_how_bits(out, f32, &sel);

#define AVX512_ROWS2(f32, pairs, scaled, sel) avx512_rows2_loop(w, nw, q, \
    s0, c0, s1, c1, t1, nw1, tstride, &h, dest, stride, pairs, scaled, f32, \
    sel)
	AVX512_SELS(AVX512_ROWS2);
#undef AVX512_ROWS2
}
#undef AVX512_SELS
#undef AVX512_MADE

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
	avx512_exact32, avx512_anchor, avx512_step, avx512_rows, avx512_rows2};

/* pe_trig_runs 8 frequencies a step (trig.h's formulas, wave.c's generic
 * loop in vectors), the runs' sums kept in registers; the tail under a
 * mask, read as zeros. SLEEF's u35 sincos and sine (trig.h): half the
 * time of u10's, which were a third of mrope's angle map. */
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
				Sleef___m512d_2 sc = Sleef_sincosd8_u35avx512f(
				    _mm512_mul_pd(_mm512_set1_pd(u->mid), h));
				s = sc.x;
				c = sc.y;
				if (u->len != 1.0)
					d = _mm512_mask_blend_pd(flat, _mm512_mul_pd(
					    Sleef_sind8_u35avx512f(_mm512_mul_pd(len, h)),
					    ish), len);
			} else {
				if (u->len == 1.0) {
					sl = _mm512_maskz_loadu_pd(m, fr->sh + k);
					cl = _mm512_maskz_loadu_pd(m, fr->ch + k);
				} else {
					Sleef___m512d_2 sc = Sleef_sincosd8_u35avx512f(
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
