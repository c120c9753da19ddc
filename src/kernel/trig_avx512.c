/* pe_trig_atan2_many (trig.h) in AVX-512F, 8 at a time with SLEEF's u10
 * atan2 (within 1.0 ulp). Built with -mavx512f and called only when the
 * CPU has it (trig.c asks pe_wave_isa). A tail is loaded zero-padded and
 * stored under a mask, so every element goes through the same
 * instructions. */
#include <immintrin.h>
#include <sleef.h>

#include "kernel/trig.h"

/* dest[i] = atan2(y[i], x[i]) for i < n. */
void
pe_trig_atan2_avx512(const double *y, const double *x, size_t n,
                     double *dest)
{
	for (size_t i = 0; i < n; i += 8) {
		__mmask8 m = (__mmask8)(n - i >= 8 ? 0xff
		                                   : (1u << (n - i)) - 1);
		__m512d vy = _mm512_maskz_loadu_pd(m, y + i);
		__m512d vx = _mm512_maskz_loadu_pd(m, x + i);
		_mm512_mask_storeu_pd(dest + i, m,
		                      Sleef_atan2d8_u10avx512f(vy, vx));
	}
}
