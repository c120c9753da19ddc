/* pe_trig_polar_many (trig.h) in AVX-512F, 8 at a time with SLEEF's u35
 * atan2 (within 3.5 ulp); the lengths' products, sum, square root,
 * quotient and minimum are IEEE's, as the scalar loop's. Built with
 * -mavx512f and called only when the CPU has it (trig.c asks
 * pe_wave_isa). A tail is loaded zero-padded and stored under a mask, so
 * every element goes through the same instructions. */
#include <immintrin.h>
#include <sleef.h>

#include "kernel/trig.h"
#include "pescope/pescope.h"

/* Angles and lengths of n vectors (trig.h). */
void
pe_trig_polar_avx512(const double *y, const double *x, const double *cnt,
                     size_t n, double *angle, double *len)
{
	const __m512d zero = _mm512_setzero_pd(), one = _mm512_set1_pd(1.0);
	const __m512d turn = _mm512_set1_pd(PE_TWO_PI);

	for (size_t i = 0; i < n; i += 8) {
		__mmask8 m = (__mmask8)(n - i >= 8 ? 0xff
		                                   : (1u << (n - i)) - 1);
		__m512d vy = _mm512_maskz_loadu_pd(m, y + i);
		__m512d vx = _mm512_maskz_loadu_pd(m, x + i);
		__m512d vn = _mm512_mask_loadu_pd(one, m, cnt + i);
		__m512d a = Sleef_atan2d8_u35avx512f(vy, vx);
		__mmask8 neg = _mm512_cmp_pd_mask(a, zero, _CMP_LT_OQ);
		a = _mm512_mask_add_pd(a, neg, a, turn);
		__m512d r = _mm512_add_pd(_mm512_mul_pd(vy, vy),
		                          _mm512_mul_pd(vx, vx));
		/* min's second operand where r is NaN or not below 1:
		 * r < 1 ? r : 1 */
		r = _mm512_min_pd(_mm512_div_pd(_mm512_sqrt_pd(r), vn), one);
		_mm512_mask_storeu_pd(angle + i, m, a);
		_mm512_mask_storeu_pd(len + i, m, r);
	}
}
