/* Learned tables: GPT-2 style init and lookups past max_len. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "helpers.h"
#include "pescope/learned.h"
#include "kernel/testing.h"

/* tests/ref/learned_ref.py: splitmix64 + Box-Muller, seed 42, x 0.02. */
static const float ref_seed42[] = {0.00829439517, 0.0130536249, -0.0178377237,
                                   0.0265366714,  0.0345918611, -0.0376683362,
                                   0.0109124091};

Test(learned, init_matches_reference_draws)
{
	double t[7];
	pe_learned_init(1, 7, 42, t);
	for (int i = 0; i < 7; i++)
		cr_expect(th_close(t[i], ref_seed42[i], 1e-9, 1e-6),
		          "%d: %.9g vs %.9g", i, t[i], ref_seed42[i]);
}

Test(learned, init_is_deterministic_and_seeded)
{
	double a[64], b[64], c[64];
	pe_learned_init(8, 8, 7, a);
	pe_learned_init(8, 8, 7, b);
	pe_learned_init(8, 8, 8, c);
	int differ = 0;
	for (int i = 0; i < 64; i++) {
		cr_expect_eq(a[i], b[i]);
		differ += a[i] != c[i];
	}
	cr_expect_gt(differ, 60);
}

Test(learned, init_is_normal_0_002)
{
	size_t n = 1024 * 768;
	double *t = malloc(n * sizeof *t);
	pe_learned_init(1024, 768, 1, t);
	double s = 0, s2 = 0, s4 = 0;
	for (size_t i = 0; i < n; i++) {
		s += t[i];
		s2 += (double)t[i] * t[i];
	}
	double mean = s / n, var = s2 / n - mean * mean;
	for (size_t i = 0; i < n; i++) {
		double z = (t[i] - mean) / sqrt(var);
		s4 += z * z * z * z;
	}
	/* Standard error of the mean: 0.02 / sqrt(786432) = 2.3e-5. */
	cr_expect_lt(fabs(mean), 1e-4, "mean %g", mean);
	cr_expect(th_close(sqrt(var), 0.02, 0, 0.005), "std %g", sqrt(var));
	/* Kurtosis of a normal is 3 (a uniform would give 1.8). */
	cr_expect(th_close(s4 / n, 3.0, 0.05, 0), "kurtosis %g", s4 / n);
	free(t);
}

Test(learned, value_and_range)
{
	double tab[3 * 2] = {1, 2, 3, 4, 5, 6};
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_LEARNED;
	cfg.d = 2;
	cfg.max_len = 3;
	cfg.table = tab;
	double v = 0;
	cr_expect_eq(pe_learned_value(&cfg, 2, 1, &v), PE_OK);
	cr_expect_eq(v, 6.0);
	cr_expect_eq(pe_learned_value(&cfg, 3, 0, &v), PE_ERANGE);
	cr_expect_eq(pe_learned_value(&cfg, 0, 2, &v), PE_EINVAL);
	cfg.table = NULL;
	cr_expect_eq(pe_learned_value(&cfg, 0, 0, &v), PE_EINVAL);
}
