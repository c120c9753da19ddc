/* pe_trig_atan2_many (trig.h) in AVX2 + FMA, 4 at a time with SLEEF's u10
 * atan2 (within 1.0 ulp). Built with -mavx2 -mfma and called only when the
 * CPU has both (trig.c asks pe_wave_isa). A tail goes through a
 * zero-padded vector, so every element takes the same instructions. */
#include <immintrin.h>
#include <sleef.h>
#include <string.h>

#include "kernel/trig.h"

/* dest[i] = atan2(y[i], x[i]) for i < n. */
void
pe_trig_atan2_avx2(const double *y, const double *x, size_t n, double *dest)
{
	size_t i = 0;

	for (; i + 4 <= n; i += 4)
		_mm256_storeu_pd(dest + i,
		                 Sleef_atan2d4_u10avx2(_mm256_loadu_pd(y + i),
		                                       _mm256_loadu_pd(x + i)));
	if (i < n) {
		double ty[4] = {0}, tx[4] = {0}, td[4];
		memcpy(ty, y + i, (n - i) * sizeof *y);
		memcpy(tx, x + i, (n - i) * sizeof *x);
		_mm256_storeu_pd(td, Sleef_atan2d4_u10avx2(_mm256_loadu_pd(ty),
		                                           _mm256_loadu_pd(tx)));
		memcpy(dest + i, td, (n - i) * sizeof *dest);
	}
}
