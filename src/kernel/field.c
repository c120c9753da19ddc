/* Fields: the logical matrices pescope draws, and exact block means of them.
 *
 * Waves (sinusoidal PE, RoPE cos/sin/angle) sum in closed form along
 * positions with Lagrange's identity (trig.h), so a block of B rows x C
 * columns costs O(C). Similarities of waves are sums over frequencies of
 * products of two geometric sums. Learned tables keep column prefix sums
 * every FIELD_LEARNED_STRIDE rows (a block's column sums cost at most that
 * many table rows); vit2d splits a range of patch indices into partial and
 * full grid rows, and its patch cosine is separable in h and w. Alibi bias,
 * the causal mask and relative buckets are diagonal fields, handled by
 * diag.c.
 *
 * Grids share work: a wave grid walks its row blocks with one phasor per
 * frequency (struct field_tiling), a similarity grid computes one dot
 * product per distinct block (equal sizes and |offset| give equal means),
 * a patch-cosine grid one sum per row block and per column block.
 *
 * struct pe_field's prefix holds what a kind derives once: learned, the prefix
 * sums and the table's row norms (struct field_learned); waves and their
 * similarities, the reduced frequencies and e^{i w/2} (field_wave_prepare);
 * patch cosine, the table of C(k) (field_init_vit2d). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/diag.h"
#include "kernel/field_impl.h"
#include "kernel/trig.h"
#include "pescope/alibi.h"
#include "pescope/field.h"

/* Whether an encoding has this kind of field. */
bool
pe_field_supported(enum pe_encoding enc, enum pe_field_kind kind)
{
	switch (enc) {
	case PE_ENC_SINUSOIDAL:
	case PE_ENC_LEARNED:
		return kind == PE_FIELD_PE || kind == PE_FIELD_SIMILARITY;
	case PE_ENC_ROPE:
		return kind == PE_FIELD_ROPE_ANGLE ||
		       kind == PE_FIELD_ROPE_COS || kind == PE_FIELD_ROPE_SIN ||
		       kind == PE_FIELD_SIMILARITY;
	case PE_ENC_ALIBI:
		return kind == PE_FIELD_BIAS;
	case PE_ENC_NOPE:
		return kind == PE_FIELD_MASK || kind == PE_FIELD_SIMILARITY;
	case PE_ENC_RELATIVE:
		return kind == PE_FIELD_RELATIVE;
	case PE_ENC_VIT2D:
		return kind == PE_FIELD_PE || kind == PE_FIELD_PATCH_COSINE;
	default:
		return false;
	}
}

/* Whether f is a wave: closed-form sums of sin/cos down its columns. */
static bool
field_is_wave(const struct pe_field *f)
{
	return (f->kind == PE_FIELD_PE && f->cfg->enc == PE_ENC_SINUSOIDAL) ||
	       f->kind == PE_FIELD_ROPE_ANGLE || f->kind == PE_FIELD_ROPE_COS ||
	       f->kind == PE_FIELD_ROPE_SIN;
}

/* Whether f is the similarity of a wave encoding (sinusoidal or rope). */
static bool
field_is_wave_sim(const struct pe_field *f)
{
	return f->kind == PE_FIELD_SIMILARITY &&
	       (f->cfg->enc == PE_ENC_SINUSOIDAL || f->cfg->enc == PE_ENC_ROPE);
}

/* An alibi field's slopes, one per head. */
static int
field_init_alibi(struct pe_field *f)
{
	f->slopes = malloc(f->cfg->heads * sizeof *f->slopes);
	if (f->slopes == NULL)
		return PE_ENOMEM;
	return pe_alibi_slopes(f->cfg->heads, f->slopes);
}

/* Prepare a field of the given kind for cfg. */
int
pe_field_init(struct pe_field *f, enum pe_field_kind kind,
              const struct pe_config *cfg)
{
	int rc;

	memset(f, 0, sizeof *f);
	f->kind = kind;
	f->cfg = cfg;
	if (cfg == NULL || (unsigned)kind >= PE_FIELD_KIND_COUNT ||
	    pe_config_check(cfg, NULL, 0) != PE_OK ||
	    !pe_field_supported(cfg->enc, kind))
		return PE_EINVAL;

	switch (kind) {
	case PE_FIELD_PE:
		f->rows = cfg->enc == PE_ENC_VIT2D ? cfg->grid_h * cfg->grid_w
		                                   : cfg->n;
		f->cols = cfg->d;
		break;
	case PE_FIELD_PATCH_COSINE:
		f->rows = cfg->grid_h;
		f->cols = cfg->grid_w;
		break;
	default:
		f->rows = cfg->n;
		f->cols = cfg->n;
		break;
	}

	switch (cfg->enc) {
	case PE_ENC_SINUSOIDAL:
	case PE_ENC_ROPE:
		rc = pe_field_wave_init(f);
		break;
	case PE_ENC_VIT2D:
		rc = pe_field_patch_init(f);
		break;
	case PE_ENC_LEARNED:
		rc = pe_field_learned_init(f);
		break;
	case PE_ENC_ALIBI:
		rc = field_init_alibi(f);
		break;
	default:
		rc = PE_OK;
		break;
	}
	if (rc != PE_OK)
		pe_field_free(f);
	return rc;
}

/* Release what pe_field_init allocated. */
void
pe_field_free(struct pe_field *f)
{
	if (f->rope.inv_freq != NULL || f->rope.inv_freq0 != NULL)
		pe_rope_free(&f->rope);
	free(f->slopes);
	free(f->omega);
	free(f->prefix);
	f->slopes = NULL;
	f->omega = NULL;
	f->prefix = NULL;
	f->nomega = 0;
}

/* Exact value at (r, c). */
double
pe_field_value(const struct pe_field *f, size_t r, size_t c)
{
	if (f == NULL || f->cfg == NULL || r >= f->rows || c >= f->cols)
		return NAN;
	const struct pe_config *cfg = f->cfg;

	switch (f->kind) {
	case PE_FIELD_BIAS:
	case PE_FIELD_MASK:
	case PE_FIELD_RELATIVE:
		return pe_diag_value(f, r, c);
	case PE_FIELD_PE:
		if (cfg->enc == PE_ENC_LEARNED)
			return pe_field_learned_value(f, r, c);
		if (cfg->enc == PE_ENC_VIT2D)
			return pe_field_patch_value(f, r, c);
		return pe_field_wave_value(f, r, c);
	case PE_FIELD_ROPE_ANGLE:
	case PE_FIELD_ROPE_COS:
	case PE_FIELD_ROPE_SIN:
		return pe_field_wave_value(f, r, c);
	case PE_FIELD_SIMILARITY:
		if (cfg->enc == PE_ENC_NOPE)
			return 0.0;
		if (cfg->enc == PE_ENC_LEARNED)
			return pe_field_learned_value(f, r, c);
		return pe_field_sim_value(f, r, c);
	case PE_FIELD_PATCH_COSINE:
		return pe_field_patch_value(f, r, c);
	default:
		return NAN;
	}
}

/* Empty statistics of a rectangle of count entries. */
void
pe_field_stats_init(struct pe_stats *s, uint64_t count)
{
	s->mean = NAN;
	s->min = NAN;
	s->max = NAN;
	s->resultant = 1.0;
	s->count = count;
	s->masked = 0;
	s->undefined = 0;
	s->minmax_exact = false;
}

/* Fold value v into running min/max. */
void
pe_field_fold(double v, double *lo, double *hi)
{
	if (!isfinite(v))
		return;
	if (v < *lo)
		*lo = v;
	if (v > *hi)
		*hi = v;
}

/* Exact min and max of the finite entries of a block when the scan fits in
 * FIELD_SCAN_BUDGET; otherwise they stay NAN and minmax_exact false. */
static void
field_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
             size_t c1, struct pe_stats *dest)
{
	const struct pe_config *cfg = f->cfg;
	uint64_t nr = r1 - r0, nc = c1 - c0;
	double lo = INFINITY, hi = -INFINITY;

	if (f->kind == PE_FIELD_SIMILARITY && cfg->enc == PE_ENC_NOPE) {
		lo = hi = 0.0;
	} else if (field_is_wave_sim(f)) {
		if (!pe_field_sim_minmax(f, r0, r1, c0, c1, &lo, &hi))
			return;
	} else if (f->kind == PE_FIELD_PATCH_COSINE) {
		pe_field_patch_minmax(f, r0, r1, c0, c1, &lo, &hi);
	} else {
		uint64_t cost = f->kind == PE_FIELD_SIMILARITY ? cfg->d : 1;
		if (nr > FIELD_SCAN_BUDGET / nc / cost)
			return;
		if (field_is_wave(f) &&
		    pe_field_scan_minmax(f, r0, r1, c0, c1, &lo, &hi) == PE_OK)
			goto done;
		if (cfg->enc == PE_ENC_LEARNED) {
			/* rows (and, for similarity, columns) past the table
			 * are NAN: scan the defined ones only */
			size_t L = pe_field_learned_rows(cfg);
			r1 = r1 < L ? r1 : L;
			if (f->kind == PE_FIELD_SIMILARITY)
				c1 = c1 < L ? c1 : L;
		}
		for (size_t r = r0; r < r1; r++)
			for (size_t c = c0; c < c1; c++)
				pe_field_fold(pe_field_value(f, r, c), &lo,
				              &hi);
	}
done:
	if (lo <= hi) {
		dest->min = lo;
		dest->max = hi;
	}
	dest->minmax_exact = true;
}

/* Statistics of rows [r0, r1) x cols [c0, c1). */
int
pe_field_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
               size_t c1, bool minmax, struct pe_stats *dest)
{
	if (f == NULL || f->cfg == NULL || dest == NULL || r0 >= r1 ||
	    r1 > f->rows || c0 >= c1 || c1 > f->cols)
		return PE_EINVAL;
	const struct pe_config *cfg = f->cfg;

	pe_field_stats_init(dest, (uint64_t)(r1 - r0) * (c1 - c0));
	switch (f->kind) {
	case PE_FIELD_BIAS:
	case PE_FIELD_MASK:
	case PE_FIELD_RELATIVE:
		return pe_diag_block(f, r0, r1, c0, c1, minmax, dest);
	case PE_FIELD_PE:
		if (cfg->enc == PE_ENC_LEARNED)
			pe_field_learned_block(f, r0, r1, c0, c1, dest);
		else if (cfg->enc == PE_ENC_VIT2D)
			pe_field_patch_block(f, r0, r1, c0, c1, dest);
		else
			pe_field_wave_block(f, r0, r1, c0, c1, dest);
		break;
	case PE_FIELD_ROPE_ANGLE:
	case PE_FIELD_ROPE_COS:
	case PE_FIELD_ROPE_SIN:
		pe_field_wave_block(f, r0, r1, c0, c1, dest);
		break;
	case PE_FIELD_SIMILARITY:
		if (cfg->enc == PE_ENC_NOPE)
			dest->mean = 0.0;
		else if (cfg->enc == PE_ENC_LEARNED)
			pe_field_learned_block(f, r0, r1, c0, c1, dest);
		else
			pe_field_sim_block(f, r0, r1, c0, c1, dest);
		break;
	case PE_FIELD_PATCH_COSINE: {
		int rc = pe_field_patch_block(f, r0, r1, c0, c1, dest);
		if (rc != PE_OK)
			return rc;
		break;
	}
	default:
		return PE_EINVAL;
	}
	if (minmax)
		field_minmax(f, r0, r1, c0, c1, dest);
	return PE_OK;
}

/* Block k of nblocks tiling [lo, hi): [lo + k n / nb, lo + (k+1) n / nb),
 * widened to one item when there are more blocks than items. */
void
pe_field_span(size_t lo, size_t hi, size_t nblocks, size_t k, size_t *b0,
              size_t *b1)
{
	if (hi <= lo || nblocks == 0) {
		*b0 = *b1 = lo;
		return;
	}
	unsigned __int128 n = hi - lo;
	size_t a = lo + (size_t)(n * k / nblocks);
	size_t b = lo + (size_t)(n * (k + 1) / nblocks);
	if (a >= hi)
		a = hi - 1;
	if (b <= a)
		b = a + 1;
	if (b > hi)
		b = hi;
	*b0 = a;
	*b1 = b;
}

/* Means of an nr x nc grid of blocks tiling rows [r0, r1) x cols [c0, c1). */
int
pe_field_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
              size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	if (f == NULL || f->cfg == NULL || dest == NULL || r0 >= r1 ||
	    r1 > f->rows || c0 >= c1 || c1 > f->cols || nr == 0 || nc == 0)
		return PE_EINVAL;
	if (field_is_wave(f) &&
	    pe_field_wave_grid(f, r0, r1, nr, c0, c1, nc, dest) == PE_OK)
		return PE_OK;
	if (field_is_wave_sim(f) &&
	    pe_field_sim_grid(f, r0, r1, nr, c0, c1, nc, dest) == PE_OK)
		return PE_OK;
	if (f->kind == PE_FIELD_PATCH_COSINE) {
		int rc = pe_field_patch_grid(f, r0, r1, nr, c0, c1, nc, dest);
		if (rc != PE_ENOMEM)
			return rc;
	}
	if (f->cfg->enc == PE_ENC_LEARNED &&
	    pe_field_learned_grid(f, r0, r1, nr, c0, c1, nc, dest) == PE_OK)
		return PE_OK;
	for (size_t bi = 0; bi < nr; bi++) {
		size_t p0, p1;
		pe_field_span(r0, r1, nr, bi, &p0, &p1);
		for (size_t bj = 0; bj < nc; bj++) {
			size_t q0, q1;
			pe_field_span(c0, c1, nc, bj, &q0, &q1);
			int rc = pe_field_block(f, p0, p1, q0, q1, false,
			                        &dest[bi * nc + bj]);
			if (rc != PE_OK)
				return rc;
		}
	}
	return PE_OK;
}

/* Similarity profile dest[k] = S(p, p + k), NAN past the last position. */
int
pe_field_profile(const struct pe_field *f, size_t p, size_t nk, double *dest)
{
	if (f == NULL || f->cfg == NULL || f->kind != PE_FIELD_SIMILARITY ||
	    (nk > 0 && dest == NULL))
		return PE_EINVAL;
	for (size_t k = 0; k < nk; k++)
		dest[k] = p < f->rows && k < f->rows - p
		              ? pe_field_value(f, p, p + k)
		              : NAN;
	return PE_OK;
}
