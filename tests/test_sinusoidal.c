/* Sinusoidal encoding (Vaswani et al. 2017): values, layouts, the
 * relative-position property. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "helpers.h"
#include "pescope/sinusoidal.h"

/* tests/ref/sinusoidal_ref.py: [sin p, cos p, sin(p/100), cos(p/100)]. */
static const double ref_d4[5][4] = {
    {0, 1, 0, 1},
    {0.8414709848078965, 0.54030230586813977, 0.0099998333341666645,
     0.99995000041666526},
    {0.90929742682568171, -0.41614683654714241, 0.01999866669333308,
     0.99980000666657776},
    {0.14112000805986721, -0.98999249660044542, 0.02999550020249566,
     0.99955003374898754},
    {-0.7568024953079282, -0.65364362086361194, 0.039989334186634161,
     0.99920010666097792},
};

Test(sinusoidal, d4_example_values)
{
	double buf[5 * 4];
	cr_assert_eq(
	    pe_sinusoidal_fill(0, 5, 4, 10000.0, PE_LAYOUT_INTERLEAVED, buf),
	    PE_OK);
	for (size_t p = 0; p < 5; p++)
		for (size_t c = 0; c < 4; c++) {
			cr_expect(th_close(buf[p * 4 + c], ref_d4[p][c], 1e-15,
			                   1e-14),
			          "PE[%zu,%zu] = %.17g, want %.17g", p, c,
			          buf[p * 4 + c], ref_d4[p][c]);
			cr_expect(
			    th_close(pe_sinusoidal_value(p, c, 4, 10000.0,
			                                 PE_LAYOUT_INTERLEAVED),
			             ref_d4[p][c], 1e-15, 1e-14));
		}
}

Test(sinusoidal, adding_pe0_to_an_embedding)
{
	const double x[4] = {0.51, -0.22, 0.88, 0.14};
	const double want[4] = {0.51, 0.78, 0.88, 1.14};
	double pe[4];
	pe_sinusoidal_fill(0, 1, 4, 10000.0, PE_LAYOUT_INTERLEAVED, pe);
	for (int c = 0; c < 4; c++)
		cr_expect(th_close(x[c] + pe[c], want[c], 1e-15, 0));
}

Test(sinusoidal, split_layout_is_a_permutation)
{
	size_t d = 16;
	double a[3 * 16], b[3 * 16];
	pe_sinusoidal_fill(5, 3, d, 10000.0, PE_LAYOUT_INTERLEAVED, a);
	pe_sinusoidal_fill(5, 3, d, 10000.0, PE_LAYOUT_SPLIT, b);
	for (size_t p = 0; p < 3; p++)
		for (size_t i = 0; i < d / 2; i++) {
			cr_expect_eq(a[p * d + 2 * i], b[p * d + i]);
			cr_expect_eq(a[p * d + 2 * i + 1],
			             b[p * d + d / 2 + i]);
		}
	size_t f;
	int is_cos;
	pe_sinusoidal_column(11, d, PE_LAYOUT_SPLIT, &f, &is_cos);
	cr_expect(f == 3 && is_cos == 1);
	pe_sinusoidal_column(11, d, PE_LAYOUT_INTERLEAVED, &f, &is_cos);
	cr_expect(f == 5 && is_cos == 1);
}

Test(sinusoidal, omega_and_base)
{
	/* omega_i = base^(-2i/d): d = 8, base 10000: 1, 0.1, 0.01, 0.001. */
	const double want[4] = {1, 0.1, 0.01, 0.001};
	for (size_t i = 0; i < 4; i++)
		cr_expect(th_close(pe_sinusoidal_omega(i, 8, 10000.0), want[i],
		                   0, 1e-14));
	/* base 100, d 4: omega_1 = 0.1, PE(3, 2) = sin(0.3). */
	cr_expect(
	    th_close(pe_sinusoidal_value(3, 2, 4, 100.0, PE_LAYOUT_INTERLEAVED),
	             sin(0.3), 0, 1e-14));
}

/* PE(p) . PE(p + k) = sum_i cos(k omega_i) does not depend on p. */
Test(sinusoidal, dot_product_depends_on_offset_only)
{
	size_t d = 64;
	double *buf = malloc(2000 * d * sizeof *buf);
	pe_sinusoidal_fill(0, 2000, d, 10000.0, PE_LAYOUT_INTERLEAVED, buf);
	for (size_t k = 0; k < 40; k += 3) {
		double ref = 0.0;
		for (size_t c = 0; c < d; c++)
			ref += buf[0 * d + c] * buf[k * d + c];
		for (size_t p = 1; p + k < 2000; p += 97) {
			double dot = 0.0;
			for (size_t c = 0; c < d; c++)
				dot += buf[p * d + c] * buf[(p + k) * d + c];
			cr_expect(th_close(dot, ref, 1e-11, 0), "k %zu p %zu",
			          k, p);
		}
	}
	free(buf);
}

Test(sinusoidal, fill_offset_matches_value)
{
	double buf[4 * 10];
	pe_sinusoidal_fill(123456, 4, 10, 500.0, PE_LAYOUT_SPLIT, buf);
	for (size_t p = 0; p < 4; p++)
		for (size_t c = 0; c < 10; c++)
			cr_expect_eq(buf[p * 10 + c],
			             pe_sinusoidal_value(123456 + p, c, 10,
			                                 500.0,
			                                 PE_LAYOUT_SPLIT));
}

Test(sinusoidal, rejects_bad_parameters)
{
	double buf[16];
	cr_expect_eq(pe_sinusoidal_fill(0, 1, 3, 10000.0, PE_LAYOUT_SPLIT, buf),
	             PE_EINVAL);
	cr_expect_eq(pe_sinusoidal_fill(0, 1, 0, 10000.0, PE_LAYOUT_SPLIT, buf),
	             PE_EINVAL);
	cr_expect_eq(pe_sinusoidal_fill(0, 1, 4, 1.0, PE_LAYOUT_SPLIT, buf),
	             PE_EINVAL);
	cr_expect_eq(pe_sinusoidal_fill(0, 1, 4, NAN, PE_LAYOUT_SPLIT, buf),
	             PE_EINVAL);
}
