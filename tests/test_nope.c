/* NoPE: the causal mask, and its block statistics (the masked count). */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "helpers.h"
#include "kernel/diag.h"
#include "pescope/nope.h"
#include "kernel/testing.h"

Test(nope, mask)
{
	cr_expect_eq(pe_nope_mask(3, 2), 0.0);
	cr_expect_eq(pe_nope_mask(3, 3), 0.0);
	cr_expect_eq(pe_nope_mask(3, 4), -INFINITY);
	double m[16];
	cr_assert_eq(pe_nope_fill(4, m), PE_OK);
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++)
			cr_expect_eq(m[i * 4 + j], j > i ? -INFINITY : 0.0);
	cr_expect_eq(pe_nope_fill(0, m), PE_EINVAL);
}

/* A mask field of size n, built by hand. */
static struct pe_field
make_field(const struct pe_config *cfg)
{
	struct pe_field f;
	memset(&f, 0, sizeof f);
	f.kind = PE_FIELD_MASK;
	f.cfg = cfg;
	f.rows = f.cols = cfg->n;
	return f;
}

Test(nope_block, masked_counts)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_NOPE;
	cfg.n = 60;
	struct pe_field f = make_field(&cfg);
	/* Every rectangle: masked = #{j > i}, by counting cell by cell. */
	for (size_t r0 = 0; r0 < 60; r0 += 7)
		for (size_t r1 = r0 + 1; r1 <= 60; r1 += 11)
			for (size_t c0 = 0; c0 < 60; c0 += 5)
				for (size_t c1 = c0 + 1; c1 <= 60; c1 += 13) {
					uint64_t masked = 0;
					for (size_t i = r0; i < r1; i++)
						for (size_t j = c0; j < c1; j++)
							masked += j > i;
					struct pe_stats s;
					cr_assert_eq(pe_diag_block(&f, r0, r1,
					                           c0, c1, true,
					                           &s),
					             PE_OK);
					uint64_t count = (r1 - r0) * (c1 - c0);
					cr_expect_eq(s.count, count);
					cr_expect_eq(s.masked, masked);
					if (masked == count)
						cr_expect(isnan(s.mean) &&
						          isnan(s.min));
					else
						cr_expect(s.mean == 0.0 &&
						          s.min == 0.0 &&
						          s.max == 0.0);
				}
}

Test(nope_block, huge)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_NOPE;
	cfg.n = PE_MAX_N;
	struct pe_field f = make_field(&cfg);
	struct pe_stats s;
	cr_assert_eq(pe_diag_block(&f, 0, cfg.n, 0, cfg.n, false, &s), PE_OK);
	cr_expect_eq(s.count, (uint64_t)cfg.n * cfg.n);
	cr_expect_eq(s.masked, (uint64_t)cfg.n * (cfg.n - 1) / 2);
	cr_expect_eq(s.mean, 0.0);
	cr_expect_eq(pe_diag_value(&f, 5, 6), -INFINITY);
	cr_expect_eq(pe_diag_value(&f, 6, 6), 0.0);
}

/* The mask's grid (pe_diag_grid) against its blocks and the direct
 * sums on awkward tilings: causal, a sliding window (1 and 7 keys) and
 * chunks (block by block). */
Test(nope_grid, tilings_vs_brute)
{
	struct pe_config cfg;
	pe_config_default(&cfg);
	cfg.enc = PE_ENC_NOPE;
	cfg.n = 150;
	struct pe_field f = make_field(&cfg);
	th_diag_check_grids(&f);
	cfg.attn.span = PE_SPAN_SLIDING;
	size_t windows[] = {1, 7, 100};
	for (size_t k = 0; k < 3; k++) {
		cfg.attn.window = windows[k];
		th_diag_check_grids(&f);
	}
	cfg.attn.span = PE_SPAN_CHUNKED;
	cfg.attn.chunk = 16;
	th_diag_check_grids(&f);
}
