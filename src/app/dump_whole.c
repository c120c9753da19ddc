/* dump's tables that the kernel fills whole (mrope's positions, angles,
 * cos and sin; xpos's scale, cos and sin; rope2d's angles, cos and sin):
 * made once by their prep, copied a row range at a time by
 * dump_fill_whole. Their rows are in dump_tables.c. */
#include <stdlib.h>
#include <string.h>

#include "app/dump_impl.h"
#include "pescope/mrope.h"
#include "pescope/rope2d.h"
#include "pescope/xpos.h"

/* One encoding's kernel fills, by the table they make (NULL: it has no
 * such table). */
struct whole_fills {
	int (*positions)(const struct pe_config *cfg, int64_t *dest);
	int (*angles)(const struct pe_config *cfg, double *dest);
	int (*scale)(const struct pe_config *cfg, double *dest);
	int (*cos_sin)(const struct pe_config *cfg, double *cos_dest,
	    double *sin_dest);
};

/* mrope's positions, angles, cos and sin. */
static const struct whole_fills mrope_fills = {
	.positions = pe_mrope_fill_positions,
	.angles = pe_mrope_fill_angles,
	.cos_sin = pe_mrope_fill_cos_sin,
};

/* xpos's scale, cos and sin (the queries'). */
static const struct whole_fills xpos_fills = {
	.scale = pe_xpos_fill_scale,
	.cos_sin = pe_xpos_fill_cos_sin,
};

/* rope2d's angles, cos and sin. */
static const struct whole_fills rope2d_fills = {
	.angles = pe_rope2d_fill_angles,
	.cos_sin = pe_rope2d_fill_cos_sin,
};

/* Fill the table x names whole into dest with the encoding's fill of it. */
static int
whole_fill(const struct dump_ctx *x, const struct whole_fills *f, void *dest)
{
	const char *t = x->t->name;

	if (strcmp(t, "positions") == 0 && f->positions != NULL)
		return f->positions(x->c, dest);
	if (strcmp(t, "angles") == 0 && f->angles != NULL)
		return f->angles(x->c, dest);
	if (strcmp(t, "scale") == 0 && f->scale != NULL)
		return f->scale(x->c, dest);
	if (strcmp(t, "cos") == 0 && f->cos_sin != NULL)
		return f->cos_sin(x->c, dest, NULL);
	if (strcmp(t, "sin") == 0 && f->cos_sin != NULL)
		return f->cos_sin(x->c, NULL, dest);
	return PE_EINVAL; /* a row in dump_tables.c this encoding cannot fill */
}

/* A table whose kernel fills it whole (mrope's, xpos's and rope2d's
 * tables, small: positions x head_dim): prep fills it into x->p, fill
 * copies rows. */
static int
prep_whole(struct dump_ctx *x, const struct whole_fills *f)
{
	x->p.nv = x->count;
	if (x->t->ints) {
		if ((x->p.iv = malloc(x->count * sizeof *x->p.iv)) == NULL)
			return PE_ENOMEM;
		return whole_fill(x, f, x->p.iv);
	}
	if ((x->p.v = malloc(x->count * sizeof *x->p.v)) == NULL)
		return PE_ENOMEM;
	return whole_fill(x, f, x->p.v);
}

/* See dump_impl.h. */
int
dump_prep_mrope(struct dump_ctx *x)
{
	return prep_whole(x, &mrope_fills);
}

/* See dump_impl.h. */
int
dump_prep_xpos(struct dump_ctx *x)
{
	return prep_whole(x, &xpos_fills);
}

/* See dump_impl.h. */
int
dump_prep_rope2d(struct dump_ctx *x)
{
	return prep_whole(x, &rope2d_fills);
}

/* See dump_impl.h. */
int
dump_fill_whole(const struct dump_ctx *x, size_t r0, size_t r1, void *dest)
{
	size_t n = (r1 - r0) * x->rowlen;
	if (x->t->ints)
		memcpy(dest, x->p.iv + r0 * x->rowlen, n * sizeof *x->p.iv);
	else
		memcpy(dest, x->p.v + r0 * x->rowlen, n * sizeof *x->p.v);
	return PE_OK;
}
