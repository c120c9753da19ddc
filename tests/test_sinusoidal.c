/* Sinusoidal encoding (Vaswani et al. 2017): values, layouts, the
 * relative-position property. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* tests/ref/sinusoidal_ref.py: tensor2tensor's get_timing_signal_1d for
 * channels 8 (inv_timescales exp(-i ln(base) / 3)), positions 0, 1, 5,
 * 1000, base (max_timescale) 10000 and 500. */
static const double ref_t2t[2][4][8] = {
    {{0, 0, 0, 0, 1, 1, 1, 1},
     {0.8414709848078965, 0.046399223464731257, 0.0021544330233656027,
      9.9999999833333248e-05, 0.54030230586813977, 0.99892297604063041,
      0.99999767920648086, 0.99999999500000003},
     {-0.95892427466313845, 0.23000171166476732, 0.010771965118034823,
      0.00049999997916666647, 0.28366218546322625, 0.97319022427852064,
      0.99994198070062834, 0.99999987500000265},
     {0.82687954053200252, 0.65031685958631757, 0.83446320776041416,
      0.099833416646828058, 0.56237907629070294, -0.75966307145851819,
      -0.55106365775126187, 0.99500416527802582}},
    {{0, 0, 0, 0, 1, 1, 1, 1},
     {0.8414709848078965, 0.12565903612302429, 0.01587334386141475,
      0.0019999986666669337, 0.54030230586813977, 0.99207348852826038,
      0.99987401054065672, 0.99999800000066663},
     {-0.95892427466313845, 0.58911286055488832, 0.079286745509495174,
      0.0099998333341666662, 0.28366218546322625, 0.80805076420286659,
      0.99685185057084214, 0.99995000041666526},
     {0.82687954053200252, 0.32252785408723872, -0.1652852690630511,
      0.90929742682568149, 0.56237907629070294, 0.94655997345011422,
      -0.98624580091920022, -0.4161468365471428}},
};

/* The t2t layout is tensor2tensor's table: frequencies base^(-i/(d/2-1)),
 * sines then cosines; split keeps the paper's (GPT-J's) frequencies. */
Test(sinusoidal, t2t_layout_is_tensor2tensors_table)
{
	static const size_t pos[4] = {0, 1, 5, 1000};
	static const double bases[2] = {10000.0, 500.0};
	for (size_t b = 0; b < 2; b++)
		for (size_t k = 0; k < 4; k++) {
			double buf[8];
			cr_assert_eq(pe_sinusoidal_fill(pos[k], 1, 8, bases[b],
			                                PE_LAYOUT_T2T, buf),
			             PE_OK);
			for (size_t c = 0; c < 8; c++) {
				double want = ref_t2t[b][k][c];
				cr_expect(th_close(buf[c], want, 1e-15, 1e-14),
				          "base %g PE[%zu,%zu] = %.17g, want %.17g",
				          bases[b], pos[k], c, buf[c], want);
				cr_expect_eq(pe_sinusoidal_value(pos[k], c, 8,
				                                 bases[b],
				                                 PE_LAYOUT_T2T),
				             buf[c]);
			}
		}
	/* split: the paper's frequencies, 10000^(-2i/8) */
	double buf[8];
	pe_sinusoidal_fill(1, 1, 8, 10000.0, PE_LAYOUT_SPLIT, buf);
	cr_expect(th_close(buf[3], sin(0.001), 0, 1e-14));
	cr_expect(th_close(pe_sinusoidal_freq(3, 8, 10000.0, PE_LAYOUT_T2T),
	                   1e-4, 0, 1e-14));
	cr_expect(th_close(pe_sinusoidal_freq(3, 8, 10000.0, PE_LAYOUT_SPLIT),
	                   1e-3, 0, 1e-14));
	size_t f;
	int is_cos;
	pe_sinusoidal_column(5, 8, PE_LAYOUT_T2T, &f, &is_cos);
	cr_expect(f == 1 && is_cos == 1);
}

/* t2t divides by num_timescales - 1: d_model 2 is refused with a reason
 * (and odd widths, which t2t pads with a zero column, as for every
 * layout). */
Test(sinusoidal, t2t_refuses_one_timescale)
{
	struct pe_config cfg;
	char why[256];
	double buf[4];
	pe_config_default(&cfg);
	cfg.layout = PE_LAYOUT_T2T;
	cfg.d = 2;
	cr_expect_eq(pe_config_check(&cfg, why, sizeof why), PE_EINVAL);
	cr_expect(strstr(why, "layout t2t") != NULL, "%s", why);
	cr_expect_eq(pe_sinusoidal_fill(0, 1, 2, 10000.0, PE_LAYOUT_T2T, buf),
	             PE_EINVAL);
	cfg.d = 4;
	cr_expect_eq(pe_config_check(&cfg, why, sizeof why), PE_OK);
	cfg.d = 7;
	cr_expect_eq(pe_config_check(&cfg, why, sizeof why), PE_EINVAL);
	cfg.layout = PE_LAYOUT_SPLIT;
	cfg.d = 2;
	cr_expect_eq(pe_config_check(&cfg, why, sizeof why), PE_OK);
}
