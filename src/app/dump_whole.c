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

/* mrope's positions, angles, cos and sin. */
static int
whole_mrope(const struct dump_ctx *x, void *dest)
{
	const char *t = x->t->name;

	if (strcmp(t, "positions") == 0)
		return pe_mrope_fill_positions(x->c, dest);
	if (strcmp(t, "angles") == 0)
		return pe_mrope_fill_angles(x->c, dest);
	if (strcmp(t, "cos") == 0)
		return pe_mrope_fill_cos_sin(x->c, dest, NULL);
	return pe_mrope_fill_cos_sin(x->c, NULL, dest);
}

/* xpos's scale, cos and sin (the queries'). */
static int
whole_xpos(const struct dump_ctx *x, void *dest)
{
	const char *t = x->t->name;

	if (strcmp(t, "scale") == 0)
		return pe_xpos_fill_scale(x->c, dest);
	if (strcmp(t, "cos") == 0)
		return pe_xpos_fill_cos_sin(x->c, dest, NULL);
	return pe_xpos_fill_cos_sin(x->c, NULL, dest);
}

/* rope2d's angles, cos and sin. */
static int
whole_rope2d(const struct dump_ctx *x, void *dest)
{
	const char *t = x->t->name;

	if (strcmp(t, "angles") == 0)
		return pe_rope2d_fill_angles(x->c, dest);
	if (strcmp(t, "cos") == 0)
		return pe_rope2d_fill_cos_sin(x->c, dest, NULL);
	return pe_rope2d_fill_cos_sin(x->c, NULL, dest);
}

/* A table whose kernel fills it whole (mrope's, xpos's and rope2d's
 * tables, small: positions x head_dim): prep fills it into x->p, fill copies rows. */
static int
prep_whole(struct dump_ctx *x, int (*whole)(const struct dump_ctx *, void *))
{
	x->p.nv = x->count;
	if (x->t->ints) {
		if ((x->p.iv = malloc(x->count * sizeof *x->p.iv)) == NULL)
			return PE_ENOMEM;
		return whole(x, x->p.iv);
	}
	if ((x->p.v = malloc(x->count * sizeof *x->p.v)) == NULL)
		return PE_ENOMEM;
	return whole(x, x->p.v);
}

/* See dump_impl.h. */
int
dump_prep_mrope(struct dump_ctx *x)
{
	return prep_whole(x, whole_mrope);
}

/* See dump_impl.h. */
int
dump_prep_xpos(struct dump_ctx *x)
{
	return prep_whole(x, whole_xpos);
}

/* See dump_impl.h. */
int
dump_prep_rope2d(struct dump_ctx *x)
{
	return prep_whole(x, whole_rope2d);
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
