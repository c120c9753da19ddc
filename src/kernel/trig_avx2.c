/* pe_trig_polar_many (trig.h) in AVX2 + FMA, 4 at a time with SLEEF's u35
 * atan2 (within 3.5 ulp); the lengths' products, sum, square root,
 * quotient and minimum are IEEE's, as the scalar loop's. Built with
 * -mavx2 -mfma and called only when the CPU has both (trig.c asks
 * pe_wave_isa). A tail goes through zero-padded vectors, so every
 * element takes the same instructions. */
#include <immintrin.h>
#include <sleef.h>
#include <string.h>

#include "kernel/trig.h"
#include "pescope/pescope.h"

/* Four vectors' angles and lengths. */
static inline void
avx2_polar4(const double *y, const double *x, const double *cnt,
            double *angle, double *len)
{
	const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
	__m256d vy = _mm256_loadu_pd(y), vx = _mm256_loadu_pd(x);
	__m256d a = Sleef_atan2d4_u35avx2(vy, vx);
	__m256d neg = _mm256_cmp_pd(a, zero, _CMP_LT_OQ);
	a = _mm256_add_pd(a, _mm256_and_pd(neg, _mm256_set1_pd(PE_TWO_PI)));
	__m256d r = _mm256_add_pd(_mm256_mul_pd(vy, vy), _mm256_mul_pd(vx, vx));
	/* min's second operand where r is NaN or not below 1 */
	r = _mm256_min_pd(_mm256_div_pd(_mm256_sqrt_pd(r),
	                                _mm256_loadu_pd(cnt)), one);
	_mm256_storeu_pd(angle, a);
	_mm256_storeu_pd(len, r);
}

/* Angles and lengths of n vectors (trig.h). */
void
pe_trig_polar_avx2(const double *y, const double *x, const double *cnt,
                   size_t n, double *angle, double *len)
{
	size_t i = 0;

	for (; i + 4 <= n; i += 4)
		avx2_polar4(y + i, x + i, cnt + i, angle + i, len + i);
	if (i < n) {
		double ty[4] = {0}, tx[4] = {0}, tn[4] = {1, 1, 1, 1}, ta[4],
		       tl[4];
		size_t k = n - i;
		memcpy(ty, y + i, k * sizeof *y);
		memcpy(tx, x + i, k * sizeof *x);
		memcpy(tn, cnt + i, k * sizeof *cnt);
		avx2_polar4(ty, tx, tn, ta, tl);
		memcpy(angle + i, ta, k * sizeof *ta);
		memcpy(len + i, tl, k * sizeof *tl);
	}
}
