/* The difference A − B of two fields of one shape, a field of its own
 * (compare mode's strip): block means from the two fields' exact block
 * means, since the mean of a difference is the difference of the means. */
#include <math.h>
#include <stdlib.h>

#include "pescope/field.h"

/* x wrapped into [−π, π). */
static double
wrap_pi(double x)
{
	return x - PE_TWO_PI * floor((x + PE_TWO_PI / 2) / PE_TWO_PI);
}

/* Whether the fields are angles (their means are circular). */
static bool
is_angle(const struct pe_field *f)
{
	return f->kind == PE_FIELD_ROPE_ANGLE;
}

/* Whether A − B is defined: one shape, and angles on both sides or on
 * neither. */
bool
pe_field_diff_defined(const struct pe_field *a, const struct pe_field *b)
{
	return a->rows == b->rows && a->cols == b->cols &&
	    is_angle(a) == is_angle(b);
}

/* The statistics of A − B over a block from those of A and of B. */
static struct pe_stats
diff_stats(const struct pe_stats *sa, const struct pe_stats *sb, bool angle)
{
	struct pe_stats d = {.mean = NAN, .min = NAN, .max = NAN,
		.resultant = 1, .count = sa->count};

	if (sa->masked != sb->masked || sa->undefined != sb->undefined) {
		d.undefined = d.count; /* finite on one side only */
		return d;
	}
	d.masked = sa->masked;
	d.undefined = sa->undefined;
	if (isnan(sa->mean) || isnan(sb->mean))
		return d;
	d.mean = angle ? wrap_pi(sa->mean - sb->mean) : sa->mean - sb->mean;
	if (angle)
		d.resultant = fmin(sa->resultant, sb->resultant);
	return d;
}

/* Block means of A − B over a tiling, as pe_field_grid. */
int
pe_field_diff_grid(const struct pe_field *a, const struct pe_field *b,
    size_t r0, size_t r1, size_t nr, size_t c0, size_t c1, size_t nc,
    struct pe_stats *dest)
{
	if (!pe_field_diff_defined(a, b) || nr == 0 || nc == 0)
		return PE_EINVAL;
	struct pe_stats *sb = malloc(nr * nc * sizeof *sb);
	if (sb == NULL)
		return PE_ENOMEM;
	int rc = pe_field_grid(a, r0, r1, nr, c0, c1, nc, dest);
	if (rc == PE_OK)
		rc = pe_field_grid(b, r0, r1, nr, c0, c1, nc, sb);
	for (size_t k = 0; rc == PE_OK && k < nr * nc; k++)
		dest[k] = diff_stats(&dest[k], &sb[k], is_angle(a));
	free(sb);
	return rc;
}

/* A − B at one element: −inf where both are masked, NaN where either is
 * not finite otherwise; angles wrapped into [−π, π). */
double
pe_field_diff_value(const struct pe_field *a, const struct pe_field *b,
    size_t r, size_t c)
{
	double va = pe_field_value(a, r, c), vb = pe_field_value(b, r, c);

	if (isinf(va) && va < 0 && isinf(vb) && vb < 0)
		return -INFINITY;
	if (!isfinite(va) || !isfinite(vb))
		return NAN;
	return is_angle(a) ? wrap_pi(va - vb) : va - vb;
}
