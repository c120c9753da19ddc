/* Compare mode's difference strip, A − B (kernel/field_diff.c): each
 * sample against the brute-force mean of the elementwise differences,
 * element by element from pe_field_value (the angles: circular means from
 * the elements' sines and cosines), never from block means; and when it is
 * not defined. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "pescope/field.h"
#include "pescope/learned.h"

/* Brute force over one block: the mean of A − B over the elements finite
 * in both, counting those masked in both and those finite in one only;
 * angles: circular means of each, their difference wrapped. */
struct brute {
	double mean;
	size_t masked, one_sided, n;
};

static struct brute
brute_block(const struct pe_field *a, const struct pe_field *b, size_t r0,
    size_t r1, size_t c0, size_t c1, bool angle)
{
	struct brute o = {0, 0, 0, 0};
	double sum = 0, sa = 0, ca = 0, sb = 0, cb = 0;
	for (size_t r = r0; r < r1; r++)
		for (size_t c = c0; c < c1; c++) {
			double va = pe_field_value(a, r, c), vb = pe_field_value(b, r, c);
			if (isfinite(va) && isfinite(vb)) {
				sum += va - vb;
				sa += sin(va), ca += cos(va);
				sb += sin(vb), cb += cos(vb);
				o.n++;
			} else if (isinf(va) && isinf(vb)) {
				o.masked++;
			} else {
				o.one_sided++;
			}
		}
	if (o.n == 0) {
		o.mean = NAN;
	} else if (angle) {
		double d = atan2(sa, ca) - atan2(sb, cb);
		o.mean = d - 2 * M_PI * floor((d + M_PI) / (2 * M_PI));
	} else {
		o.mean = sum / (double)o.n;
	}
	return o;
}

/* Every sample of an nr x nc tiling of [r0, r1) x [c0, c1) against the
 * brute force, within tol (relative to the fields' scale). */
static void
check_grid(const struct pe_field *a, const struct pe_field *b, size_t r0,
    size_t r1, size_t nr, size_t c0, size_t c1, size_t nc, double tol)
{
	bool angle = a->kind == PE_FIELD_ROPE_ANGLE;
	struct pe_stats *d = calloc(nr * nc, sizeof *d);
	cr_assert_not_null(d);
	cr_assert_eq(pe_field_diff_grid(a, b, r0, r1, nr, c0, c1, nc, d), PE_OK);
	for (size_t i = 0; i < nr; i++)
		for (size_t j = 0; j < nc; j++) {
			size_t p0, p1, q0, q1;
			pe_field_span(r0, r1, nr, i, &p0, &p1);
			pe_field_span(c0, c1, nc, j, &q0, &q1);
			struct brute w = brute_block(a, b, p0, p1, q0, q1, angle);
			const struct pe_stats *s = &d[i * nc + j];
			cr_assert_eq(s->count, (uint64_t)((p1 - p0) * (q1 - q0)));
			if (w.one_sided > 0) {
				cr_expect(isnan(s->mean), "sample %zu,%zu: finite on one "
				    "side only, so undefined", i, j);
				cr_expect_eq(s->undefined, s->count);
				continue;
			}
			cr_expect_eq(s->masked, (uint64_t)w.masked, "sample %zu,%zu", i,
			    j);
			if (isnan(w.mean)) {
				cr_expect(isnan(s->mean), "sample %zu,%zu", i, j);
				continue;
			}
			double e = s->mean - w.mean;
			if (angle)
				cr_expect(s->mean >= -M_PI && s->mean < M_PI, "sample "
				    "%zu,%zu: %.17g is not wrapped", i, j, s->mean);
			if (angle) /* the same angle across the wrap */
				e = e - 2 * M_PI * round(e / (2 * M_PI));
			cr_expect(fabs(e) <= tol, "sample %zu,%zu (rows %zu-%zu, cols "
			    "%zu-%zu): %.17g, brute force %.17g", i, j, p0, p1, q0, q1,
			    s->mean, w.mean);
		}
	/* and one element at a time: the value A − B */
	for (size_t r = r0; r < r1; r += 7)
		for (size_t c = c0; c < c1; c += 5) {
			struct brute w = brute_block(a, b, r, r + 1, c, c + 1, angle);
			double v = pe_field_diff_value(a, b, r, c);
			if (w.masked)
				cr_expect(isinf(v) && v < 0);
			else if (w.one_sided)
				cr_expect(isnan(v));
			else
				cr_expect(fabs(v - w.mean) <= tol, "(%zu,%zu): %.17g vs "
				    "%.17g", r, c, v, w.mean);
		}
	free(d);
}

/* Sinusoidal with two bases: blocks of uneven sizes, a sub-rectangle, and
 * blocks of one element. */
Test(compare, sinusoidal_two_bases)
{
	struct pe_config ca, cb;
	struct pe_field a, b;

	pe_config_default(&ca);
	ca.n = 200;
	ca.d = 64;
	cb = ca;
	cb.base = 500;
	cr_assert_eq(pe_field_init(&a, PE_FIELD_PE, &ca), PE_OK);
	cr_assert_eq(pe_field_init(&b, PE_FIELD_PE, &cb), PE_OK);
	cr_assert(pe_field_diff_defined(&a, &b));
	check_grid(&a, &b, 0, 200, 7, 0, 64, 5, 1e-12);
	check_grid(&a, &b, 13, 77, 9, 3, 50, 11, 1e-12);
	check_grid(&a, &b, 10, 16, 6, 0, 4, 4, 1e-12);
	pe_field_free(&a);
	pe_field_free(&b);
}

/* Sinusoidal against a learned table (GPT-2's init) of the same width;
 * then a table shorter than n: rows past max_len are undefined in B only. */
Test(compare, sinusoidal_against_learned)
{
	struct pe_config ca, cb;
	struct pe_field a, b;
	double *t;

	pe_config_default(&ca);
	cb = ca;
	cb.enc = PE_ENC_LEARNED;
	cr_assert_eq(pe_learned_untrained(cb.max_len, cb.d, &t), PE_OK);
	cb.table = t;
	cb.table_untrained = true;
	cr_assert_eq(pe_field_init(&a, PE_FIELD_PE, &ca), PE_OK);
	cr_assert_eq(pe_field_init(&b, PE_FIELD_PE, &cb), PE_OK);
	check_grid(&a, &b, 0, 64, 10, 0, 64, 9, 1e-12);
	pe_field_free(&b);

	cb.max_len = 40; /* rows 40..63 undefined in B */
	cr_assert_eq(pe_field_init(&b, PE_FIELD_PE, &cb), PE_OK);
	check_grid(&a, &b, 0, 64, 7, 0, 64, 4, 1e-12); /* 36-45 straddles */
	struct pe_stats s;
	cr_assert_eq(pe_field_diff_grid(&a, &b, 40, 64, 1, 0, 64, 1, &s), PE_OK);
	cr_assert(isnan(s.mean));
	cr_assert_eq(s.undefined, 24 * 64);
	pe_field_free(&a);
	pe_field_free(&b);
	free(t);
}

/* ALiBi with 8 heads and with 12 (other slopes), head 3, causal: the
 * masked triangle is the same in both and stays masked. */
Test(compare, alibi_heads_masked_triangle)
{
	struct pe_config ca, cb;
	struct pe_field a, b;

	pe_config_default(&ca);
	ca.enc = PE_ENC_ALIBI;
	ca.n = 90;
	cb = ca;
	cb.heads = 12;
	cr_assert_eq(pe_field_init(&a, PE_FIELD_BIAS, &ca), PE_OK);
	cr_assert_eq(pe_field_init(&b, PE_FIELD_BIAS, &cb), PE_OK);
	a.head = b.head = 3;
	check_grid(&a, &b, 0, 90, 13, 0, 90, 17, 1e-9);
	struct pe_stats s;
	cr_assert_eq(pe_field_diff_grid(&a, &b, 0, 10, 1, 50, 60, 1, &s), PE_OK);
	cr_assert_eq(s.masked, 100, "keys after the query: masked in both");
	pe_field_free(&a);
	pe_field_free(&b);
}

/* RoPE unscaled against YaRN x4: the angles' circular means subtracted
 * and wrapped into [−π, π). */
Test(compare, rope_default_against_yarn)
{
	struct pe_config ca, cb;
	struct pe_field a, b;

	pe_config_default(&ca);
	ca.enc = PE_ENC_ROPE;
	ca.n = 300;
	ca.d = 64;
	cb = ca;
	cb.rope.type = PE_ROPE_YARN;
	cb.rope.factor = 4;
	cb.rope.original_max_pos = 64;
	char why[256];
	cr_assert_eq(pe_config_check(&cb, why, sizeof why), PE_OK, "%s", why);
	cr_assert_eq(pe_field_init(&a, PE_FIELD_ROPE_ANGLE, &ca), PE_OK);
	cr_assert_eq(pe_field_init(&b, PE_FIELD_ROPE_ANGLE, &cb), PE_OK);
	check_grid(&a, &b, 0, 300, 300, 0, 32, 32, 1e-9); /* one element */
	check_grid(&a, &b, 0, 300, 30, 0, 32, 32, 1e-7);
	pe_field_free(&a);
	pe_field_free(&b);
}

/* Not defined: shapes differ (64x64 PE and 64x32 angles), or one shape
 * holds angles on one side only. */
Test(compare, undefined_differences)
{
	struct pe_config ca, cb;
	struct pe_field a, b;
	struct pe_stats s;

	pe_config_default(&ca);
	cb = ca;
	cb.enc = PE_ENC_ROPE;
	cr_assert_eq(pe_field_init(&a, PE_FIELD_PE, &ca), PE_OK);
	cr_assert_eq(pe_field_init(&b, PE_FIELD_ROPE_ANGLE, &cb), PE_OK);
	cr_assert_eq(b.cols, 32);
	cr_assert(!pe_field_diff_defined(&a, &b));
	cr_assert_eq(pe_field_diff_grid(&a, &b, 0, 64, 1, 0, 32, 1, &s),
	    PE_EINVAL);
	pe_field_free(&a);
	ca.d = 32; /* 64 x 32 both, PE values against angles */
	cr_assert_eq(pe_field_init(&a, PE_FIELD_PE, &ca), PE_OK);
	cr_assert(!pe_field_diff_defined(&a, &b));
	pe_field_free(&a);
	pe_field_free(&b);
}
