/* Fields: the logical matrices pescope draws, and exact block means of them
 * (include/pescope/field.h).
 *
 * This file is the public API: it prepares a field, checks arguments and
 * sends each call to the module of the field's encoding and kind (one row
 * of field_modules, a struct field_ops), whose files field_impl.h lists. Blocks are means in closed form where one exists;
 * a grid is the module's own (sharing work along rows and columns) or else
 * block by block; exact min/max are closed forms or scans within
 * FIELD_SCAN_BUDGET. What a module derives once and keeps at struct
 * pe_field's prefix, field_impl.h says under its name. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/diag.h"
#include "kernel/field_impl.h"
#include "pescope/alibi.h"
#include "pescope/field.h"
#include "kernel/testing.h"

/* The modules' entry points in the shape of struct field_ops. */
static int
wave_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	(void)minmax;
	pe_field_wave_block(f, r0, r1, c0, c1, dest);
	return PE_OK;
}

static int
sim_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	(void)minmax;
	pe_field_sim_block(f, r0, r1, c0, c1, dest);
	return PE_OK;
}

static int
sim_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, double *lo, double *hi)
{
	return pe_field_sim_minmax(f, r0, r1, c0, c1, lo, hi) ? PE_OK
							      : PE_ERANGE;
}

static int
learned_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	(void)minmax;
	pe_field_learned_block(f, r0, r1, c0, c1, dest);
	return PE_OK;
}

/* Cost of one entry of a learned field: a dot product for similarity. */
static int
learned_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, double *lo, double *hi)
{
	uint64_t cost = f->kind == PE_FIELD_SIMILARITY ? f->cfg->d : 1;
	if ((uint64_t)(r1 - r0) > FIELD_SCAN_BUDGET / (c1 - c0) / cost)
		return PE_ERANGE;
	pe_field_learned_minmax(f, r0, r1, c0, c1, lo, hi);
	return PE_OK;
}

static int
patch_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	(void)minmax;
	return pe_field_patch_block(f, r0, r1, c0, c1, dest);
}

static int
patch_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, double *lo, double *hi)
{
	pe_field_patch_minmax(f, r0, r1, c0, c1, lo, hi);
	return PE_OK;
}

/* A diagonal field's grid, cut short by the interrupt check. */
static int
diag_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	return pe_diag_grid(f, r0, r1, nr, c0, c1, nc, dest,
	    pe_field_interrupted);
}

/* NoPE has no position vectors: its similarity is 0 everywhere. */
static double
zero_value(const struct pe_field *f, size_t r, size_t c)
{
	(void)f, (void)r, (void)c;
	return 0.0;
}

static int
zero_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	(void)f, (void)r0, (void)r1, (void)c0, (void)c1, (void)minmax;
	dest->mean = 0.0;
	return PE_OK;
}

static int
zero_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, double *lo, double *hi)
{
	(void)f, (void)r0, (void)r1, (void)c0, (void)c1;
	*lo = *hi = 0.0;
	return PE_OK;
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

static const struct field_ops wave_ops = {pe_field_wave_init,
	pe_field_wave_value, wave_block, pe_field_wave_grid,
	pe_field_scan_minmax, false, NULL,
	pe_field_wave_rows};
static const struct field_ops sim_ops = {pe_field_wave_init,
	pe_field_sim_value, sim_block, pe_field_sim_grid, sim_minmax, false};
static const struct field_ops rope_wave_ops = {pe_field_wave_init_rope,
	pe_field_wave_value, wave_block, pe_field_wave_grid,
	pe_field_scan_minmax, false, NULL,
	pe_field_wave_rows};
static const struct field_ops rope_sim_ops = {pe_field_wave_init_rope,
	pe_field_sim_value, sim_block, pe_field_sim_grid, sim_minmax, false};
static const struct field_ops learned_ops = {pe_field_learned_init,
	pe_field_learned_value, learned_block, pe_field_learned_grid,
	learned_minmax, false};
static const struct field_ops patch_pe_ops = {pe_field_patch_init,
	pe_field_patch_value, patch_block, NULL, NULL, false};
static const struct field_ops patch_cosine_ops = {pe_field_patch_init,
	pe_field_patch_value, patch_block, pe_field_patch_grid, patch_minmax,
	false};
static const struct field_ops diag_ops = {NULL, pe_diag_value,
	pe_diag_block, diag_grid, NULL, true};
static const struct field_ops alibi_ops = {field_init_alibi, pe_diag_value,
	pe_diag_block, diag_grid, NULL, true};
static const struct field_ops zero_ops = {NULL, zero_value, zero_block,
	NULL, zero_minmax, false};

/* Which module computes each kind of field of each encoding; NULL: the
 * encoding has no such field. */
static const struct field_ops *const field_modules[PE_ENC_COUNT]
						  [PE_FIELD_KIND_COUNT] = {
	[PE_ENC_SINUSOIDAL] = {[PE_FIELD_PE] = &wave_ops,
	    [PE_FIELD_SIMILARITY] = &sim_ops},
	[PE_ENC_LEARNED] = {[PE_FIELD_PE] = &learned_ops,
	    [PE_FIELD_SIMILARITY] = &learned_ops},
	[PE_ENC_RELATIVE] = {[PE_FIELD_RELATIVE] = &diag_ops},
	[PE_ENC_ROPE] = {[PE_FIELD_ROPE_ANGLE] = &rope_wave_ops,
	    [PE_FIELD_ROPE_COS] = &rope_wave_ops,
	    [PE_FIELD_ROPE_SIN] = &rope_wave_ops,
	    [PE_FIELD_SIMILARITY] = &rope_sim_ops},
	[PE_ENC_ALIBI] = {[PE_FIELD_BIAS] = &alibi_ops},
	[PE_ENC_NOPE] = {[PE_FIELD_MASK] = &diag_ops,
	    [PE_FIELD_SIMILARITY] = &zero_ops},
	[PE_ENC_VIT2D] = {[PE_FIELD_PE] = &patch_pe_ops,
	    [PE_FIELD_PATCH_COSINE] = &patch_cosine_ops},
	[PE_ENC_MROPE] = {[PE_FIELD_ROPE_ANGLE] = &pe_field_mrope_angle_ops,
	    [PE_FIELD_SIMILARITY] = &pe_field_mrope_sim_ops,
	    [PE_FIELD_PATCH_COSINE] = &pe_field_mrope_patch_ops},
	[PE_ENC_XPOS] = {[PE_FIELD_ROPE_ANGLE] = &pe_field_xpos_angle_ops,
	    [PE_FIELD_SIMILARITY] = &pe_field_xpos_sim_ops},
	[PE_ENC_ROPE2D] = {[PE_FIELD_PATCH_COSINE] = &pe_field_rope2d_patch_ops,
	    [PE_FIELD_SIMILARITY] = &pe_field_rope2d_sim_ops},
};

/* The module of a field of kind for enc, or NULL. */
static const struct field_ops *
field_ops_of(enum pe_encoding enc, enum pe_field_kind kind)
{
	if ((unsigned)enc >= PE_ENC_COUNT ||
	    (unsigned)kind >= PE_FIELD_KIND_COUNT)
		return NULL;
	return field_modules[enc][kind];
}

/* Whether an encoding has this kind of field. */
bool
pe_field_supported(enum pe_encoding enc, enum pe_field_kind kind)
{
	return field_ops_of(enc, kind) != NULL;
}

/* Rows and columns of a field of kind for cfg: its module's shape, else
 * the kind's usual one over the encoding's positions. */
void
pe_field_shape(const struct pe_config *cfg, enum pe_field_kind kind,
               size_t *rows, size_t *cols)
{
	const struct field_ops *ops = field_ops_of(cfg->enc, kind);
	size_t rot = pe_rope_rotary_dim(cfg), npos = pe_config_positions(cfg);

	if (ops != NULL && ops->shape != NULL) {
		ops->shape(cfg, rows, cols);
		return;
	}
	switch (kind) {
	case PE_FIELD_PE: /* vit2d: one row per patch */
		*rows = npos;
		*cols = cfg->d;
		break;
	case PE_FIELD_ROPE_ANGLE:
		*rows = npos;
		*cols = rot / 2;
		break;
	case PE_FIELD_ROPE_COS:
	case PE_FIELD_ROPE_SIN:
		*rows = npos;
		*cols = rot;
		break;
	case PE_FIELD_PATCH_COSINE:
		*rows = cfg->grid_h;
		*cols = cfg->grid_w;
		break;
	default: /* query x key */
		*rows = npos;
		*cols = npos;
		break;
	}
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

	pe_field_shape(cfg, kind, &f->rows, &f->cols);
	const struct field_ops *ops = field_ops_of(cfg->enc, kind);
	rc = ops->init != NULL ? ops->init(f) : PE_OK;
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

	return field_ops_of(f->cfg->enc, f->kind)->value(f, r, c);
}

/* Exact min and max of the finite entries of a block when the work fits
 * in FIELD_SCAN_BUDGET; otherwise they stay NAN and minmax_exact false. */
static int
field_minmax(const struct pe_field *f, const struct field_ops *ops,
             size_t r0, size_t r1, size_t c0, size_t c1, struct pe_stats *dest)
{
	double lo = INFINITY, hi = -INFINITY;
	int rc = PE_OK;

	if (ops->minmax != NULL) {
		rc = ops->minmax(f, r0, r1, c0, c1, &lo, &hi);
	} else if ((uint64_t)(r1 - r0) > FIELD_SCAN_BUDGET / (c1 - c0)) {
		rc = PE_ERANGE;
	} else {
		for (size_t r = r0; r < r1; r++)
			for (size_t c = c0; c < c1; c++)
				field_fold(ops->value(f, r, c), &lo, &hi);
	}
	if (rc == PE_ERANGE) /* not scanned: said by minmax_exact */
		return PE_OK;
	if (rc != PE_OK)
		return rc;
	if (lo <= hi) {
		dest->min = lo;
		dest->max = hi;
	}
	dest->minmax_exact = true;
	return PE_OK;
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
	const struct field_ops *ops = field_ops_of(f->cfg->enc, f->kind);
	rc = ops->block(f, r0, r1, c0, c1, minmax, dest);
	if (rc == PE_OK && minmax && !ops->minmax_in_block)
		rc = field_minmax(f, ops, r0, r1, c0, c1, dest);
	return rc;
}

/* The interrupt check and its argument (pe_field_set_interrupt); whether
 * this thread set it (it alone calls it: the check may look at the
 * terminal); whether it has said stop since it was set, which grids on
 * other threads (the pixel layer's second band) read instead. */
static bool (*interrupt_check)(void *);
static void *interrupt_arg;
static _Thread_local bool interrupt_mine;
static atomic_bool interrupt_said;

/* Set the check long grids poll. */
void
pe_field_set_interrupt(bool (*check)(void *arg), void *arg)
{
	interrupt_check = check;
	interrupt_arg = arg;
	interrupt_mine = check != NULL;
	atomic_store(&interrupt_said, false);
}

/* Whether the interrupt check asks to stop. */
bool
pe_field_interrupted(void)
{
	if (interrupt_check == NULL)
		return false;
	if (!interrupt_mine)
		return atomic_load(&interrupt_said);
	if (!interrupt_check(interrupt_arg))
		return false;
	atomic_store(&interrupt_said, true);
	return true;
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
	struct field_cells it;

	if (f == NULL || f->cfg == NULL || dest == NULL || r0 >= r1 ||
	    r1 > f->rows || c0 >= c1 || c1 > f->cols || nr == 0 || nc == 0)
		return PE_EINVAL;
	const struct field_ops *ops = field_ops_of(f->cfg->enc, f->kind);
	if (ops->grid != NULL)
		return ops->grid(f, r0, r1, nr, c0, c1, nc, dest);
	field_cells_start(&it, r0, r1, nr, c0, c1, nc);
	while (field_cells_next(&it)) {
		if (it.k % 256 == 255 && pe_field_interrupted())
			return PE_EINTR;
		int rc = pe_field_block(f, it.p0, it.p1, it.q0, it.q1, false,
		                        &dest[it.k]);
		if (rc != PE_OK)
			return rc;
	}
	return PE_OK;
}

/* pe_field_grid's rows handed on as finished: the module's own where it
 * finishes them in order, else its whole grid in scratch, then its rows. */
int
pe_field_grid_rows(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *scratch,
    pe_field_row_fn *row, void *arg)
{
	if (f == NULL || f->cfg == NULL || scratch == NULL || row == NULL ||
	    r0 >= r1 || r1 > f->rows || c0 >= c1 || c1 > f->cols || nr == 0 ||
	    nc == 0)
		return PE_EINVAL;
	const struct field_ops *ops = field_ops_of(f->cfg->enc, f->kind);
	if (ops->rows != NULL)
		return ops->rows(f, r0, r1, nr, c0, c1, nc, scratch, row, arg);
	int rc = pe_field_grid(f, r0, r1, nr, c0, c1, nc, scratch);
	for (size_t k = 0; k < nr && rc == PE_OK; k++)
		rc = row(arg, k, &(struct pe_field_row){scratch + k * nc, NULL,
		    NULL});
	return rc;
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
