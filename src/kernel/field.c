/* Fields: the logical matrices pescope draws, and exact block means of them
 * (include/pescope/field.h).
 *
 * This file is the public API: it prepares a field, checks arguments and
 * sends each call to the module of the field's kind (enum field_part), whose
 * files field_impl.h lists. Blocks are means in closed form where one exists;
 * a grid is the module's own (sharing work along rows and columns) or else
 * block by block; exact min/max are closed forms or scans within
 * FIELD_SCAN_BUDGET. What a module derives once and keeps at struct
 * pe_field's prefix, field_impl.h says under its name. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/diag.h"
#include "kernel/field_impl.h"
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

/* Which module computes a field's values, blocks and grids. */
enum field_part {
	FIELD_PART_NONE,
	FIELD_PART_DIAG,    /* alibi bias, causal mask, relative: diag.c */
	FIELD_PART_WAVE,    /* sinusoidal PE, rope cos/sin/angle */
	FIELD_PART_SIM,     /* similarity of sinusoidal or rope */
	FIELD_PART_LEARNED, /* learned PE and similarity */
	FIELD_PART_PATCH,   /* vit2d PE and patch cosine */
	FIELD_PART_ZERO,    /* nope similarity: no position vectors, all 0 */
};

/* The module of field f (by its kind, then its encoding). */
static enum field_part
field_part(const struct pe_field *f)
{
	switch (f->kind) {
	case PE_FIELD_BIAS:
	case PE_FIELD_MASK:
	case PE_FIELD_RELATIVE:
		return FIELD_PART_DIAG;
	case PE_FIELD_PATCH_COSINE:
		return FIELD_PART_PATCH;
	case PE_FIELD_PE:
	case PE_FIELD_ROPE_ANGLE:
	case PE_FIELD_ROPE_COS:
	case PE_FIELD_ROPE_SIN:
	case PE_FIELD_SIMILARITY:
		break;
	default:
		return FIELD_PART_NONE;
	}
	switch (f->cfg->enc) {
	case PE_ENC_LEARNED:
		return FIELD_PART_LEARNED;
	case PE_ENC_VIT2D:
		return FIELD_PART_PATCH;
	case PE_ENC_NOPE:
		return FIELD_PART_ZERO;
	default:
		return f->kind == PE_FIELD_SIMILARITY ? FIELD_PART_SIM
		                                      : FIELD_PART_WAVE;
	}
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

	switch (field_part(f)) {
	case FIELD_PART_DIAG:
		return pe_diag_value(f, r, c);
	case FIELD_PART_WAVE:
		return pe_field_wave_value(f, r, c);
	case FIELD_PART_SIM:
		return pe_field_sim_value(f, r, c);
	case FIELD_PART_LEARNED:
		return pe_field_learned_value(f, r, c);
	case FIELD_PART_PATCH:
		return pe_field_patch_value(f, r, c);
	case FIELD_PART_ZERO:
		return 0.0;
	default:
		return NAN;
	}
}

/* Exact min and max of the finite entries of a block when the scan fits in
 * FIELD_SCAN_BUDGET; otherwise they stay NAN and minmax_exact false. */
static void
field_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
             size_t c1, struct pe_stats *dest)
{
	enum field_part part = field_part(f);
	uint64_t nr = r1 - r0, nc = c1 - c0;
	uint64_t cost = f->kind == PE_FIELD_SIMILARITY ? f->cfg->d : 1;
	double lo = INFINITY, hi = -INFINITY;

	if (part == FIELD_PART_ZERO) {
		lo = hi = 0.0;
	} else if (part == FIELD_PART_SIM) {
		if (!pe_field_sim_minmax(f, r0, r1, c0, c1, &lo, &hi))
			return;
	} else if (f->kind == PE_FIELD_PATCH_COSINE) {
		pe_field_patch_minmax(f, r0, r1, c0, c1, &lo, &hi);
	} else if (nr > FIELD_SCAN_BUDGET / nc / cost) {
		return;
	} else if (part == FIELD_PART_LEARNED) {
		pe_field_learned_minmax(f, r0, r1, c0, c1, &lo, &hi);
	} else if (part != FIELD_PART_WAVE ||
	           pe_field_scan_minmax(f, r0, r1, c0, c1, &lo, &hi) != PE_OK) {
		/* vit2d PE, or a wave scan out of memory: every entry */
		for (size_t r = r0; r < r1; r++)
			for (size_t c = c0; c < c1; c++)
				field_fold(pe_field_value(f, r, c), &lo, &hi);
	}
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
	int rc = PE_OK;

	if (f == NULL || f->cfg == NULL || dest == NULL || r0 >= r1 ||
	    r1 > f->rows || c0 >= c1 || c1 > f->cols)
		return PE_EINVAL;
	field_stats_init(dest, (uint64_t)(r1 - r0) * (c1 - c0));
	switch (field_part(f)) {
	case FIELD_PART_DIAG:
		/* its min and max are closed forms too */
		return pe_diag_block(f, r0, r1, c0, c1, minmax, dest);
	case FIELD_PART_WAVE:
		pe_field_wave_block(f, r0, r1, c0, c1, dest);
		break;
	case FIELD_PART_SIM:
		pe_field_sim_block(f, r0, r1, c0, c1, dest);
		break;
	case FIELD_PART_LEARNED:
		pe_field_learned_block(f, r0, r1, c0, c1, dest);
		break;
	case FIELD_PART_PATCH:
		rc = pe_field_patch_block(f, r0, r1, c0, c1, dest);
		break;
	case FIELD_PART_ZERO:
		dest->mean = 0.0;
		break;
	default:
		rc = PE_EINVAL;
		break;
	}
	if (rc == PE_OK && minmax)
		field_minmax(f, r0, r1, c0, c1, dest);
	return rc;
}

/* The interrupt check and its argument (pe_field_set_interrupt). */
static bool (*interrupt_check)(void *);
static void *interrupt_arg;

/* Set the check long grids poll. */
void
pe_field_set_interrupt(bool (*check)(void *arg), void *arg)
{
	interrupt_check = check;
	interrupt_arg = arg;
}

/* Whether the interrupt check asks to stop. */
bool
pe_field_interrupted(void)
{
	return interrupt_check != NULL && interrupt_check(interrupt_arg);
}

/* Block k of nblocks tiling [lo, hi) (field_span). */
void
pe_field_span(size_t lo, size_t hi, size_t nblocks, size_t k, size_t *b0,
              size_t *b1)
{
	field_span(lo, hi, nblocks, k, b0, b1);
}

/* Means of an nr x nc grid of blocks tiling rows [r0, r1) x cols [c0, c1):
 * the module's own grid where it has one, else block by block. */
int
pe_field_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
              size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	int rc = PE_ENOMEM; /* no grid of its own, or no memory for it */
	struct field_cells it;

	if (f == NULL || f->cfg == NULL || dest == NULL || r0 >= r1 ||
	    r1 > f->rows || c0 >= c1 || c1 > f->cols || nr == 0 || nc == 0)
		return PE_EINVAL;
	switch (field_part(f)) {
	case FIELD_PART_WAVE:
		rc = pe_field_wave_grid(f, r0, r1, nr, c0, c1, nc, dest);
		break;
	case FIELD_PART_SIM:
		rc = pe_field_sim_grid(f, r0, r1, nr, c0, c1, nc, dest);
		break;
	case FIELD_PART_LEARNED:
		rc = pe_field_learned_grid(f, r0, r1, nr, c0, c1, nc, dest);
		break;
	case FIELD_PART_PATCH:
		if (f->kind == PE_FIELD_PATCH_COSINE)
			rc = pe_field_patch_grid(f, r0, r1, nr, c0, c1, nc,
			                         dest);
		break;
	default:
		break;
	}
	if (rc != PE_ENOMEM)
		return rc;
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		if (it.k % 256 == 255 && pe_field_interrupted())
			return PE_EINTR;
		rc = pe_field_block(f, it.p0, it.p1, it.q0, it.q1, false,
		                    &dest[it.k]);
		if (rc != PE_OK)
			return rc;
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
