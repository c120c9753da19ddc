/* vit2d fields: MAE's 2-D sin-cos embedding over patch indices, and the
 * cosine of one patch to all (He et al. 2022; facebookresearch/mae
 * util/pos_embed.py, as transcribed in vit2d.c).
 *
 * A range of patch indices splits into partial and full grid rows, each
 * column of which sums in closed form (Lagrange, trig.h). The patch cosine is
 * separable in h and w, (C(w - wa) + C(h - ha)) / (d/2) with C(k) = sum_i
 * cos(k omega_i), so a block, a grid or a min/max costs O(H + W) from a
 * table of C kept at struct pe_field's prefix. */
#include <math.h>
#include <stdlib.h>

#include "kernel/field_impl.h"
#include "kernel/trig.h"
#include "pescope/vit2d.h"

/* Largest table of C (entries times frequencies) built with one cos per
 * term; past it, cos(k w) steps by rotation between direct sincos calls
 * every FIELD_CTAB_ANCHOR positions (a few ulps), to bound the build. */
#define FIELD_CTAB_DIRECT ((uint64_t)1 << 22)
#define FIELD_CTAB_ANCHOR 16

/* The table of a patch-cosine field, at f->prefix: C(k) = sum_i cos(k
 * omega_i) for k = 0 .. max(H, W) - 1, the dot product of the 1-D halves
 * of two patches k apart (MAE). */
static int
field_patch_ctab(struct pe_field *f)
{
	const struct pe_config *cfg = f->cfg;
	size_t M = cfg->grid_h > cfg->grid_w ? cfg->grid_h : cfg->grid_w;
	size_t step = (uint64_t)M * f->nomega <= FIELD_CTAB_DIRECT
	                  ? 1
	                  : FIELD_CTAB_ANCHOR;

	f->prefix = calloc(M, sizeof *f->prefix);
	if (f->prefix == NULL)
		return PE_ENOMEM;
	for (size_t i = 0; i < f->nomega; i++) {
		double w = f->omega[i], sw, cw, s = 0.0, c = 1.0;
		sincos(w, &sw, &cw);
		for (size_t k = 0; k < M; k++) {
			if (step == 1) {
				c = cos((double)k * w);
			} else if (k % step == 0) {
				sincos((double)k * w, &s, &c);
			} else {
				double ns = s * cw + c * sw;
				c = c * cw - s * sw;
				s = ns;
			}
			f->prefix[k] += c;
		}
	}
	return PE_OK;
}

/* A range of patch indices [r0, r1) as grid rows: partial rows (h, [wlo,
 * whi)) and a run of full rows [hf0, hf1). */
struct field_patches {
	size_t nseg;
	size_t h[2], wlo[2], whi[2];
	size_t hf0, hf1;
};

/* Split patch indices [r0, r1) of a W-wide grid into grid rows. */
static void
field_patch_split(size_t r0, size_t r1, size_t W, struct field_patches *p)
{
	size_t h0 = r0 / W, w0 = r0 % W;
	size_t h1 = (r1 - 1) / W, w1 = (r1 - 1) % W;

	p->nseg = 0;
	p->hf0 = p->hf1 = 0;
	if (h0 == h1) {
		p->h[0] = h0;
		p->wlo[0] = w0;
		p->whi[0] = w1 + 1;
		p->nseg = 1;
		return;
	}
	p->h[0] = h0;
	p->wlo[0] = w0;
	p->whi[0] = W;
	p->h[1] = h1;
	p->wlo[1] = 0;
	p->whi[1] = w1 + 1;
	p->nseg = 2;
	p->hf0 = h0 + 1;
	p->hf1 = h1;
}

/* Sum of sin (is_cos 0) or cos (1) of pos * om over pos = p0 .. p0+n-1. */
static double
field_patch_wave_sum(double om, size_t p0, size_t n, int is_cos)
{
	double s, c;

	pe_trig_sum(0.0, om, p0, n, &s, &c);
	return is_cos ? c : s;
}

/* Mean of a vit2d PE block: each column sums over the partial rows and the
 * run of full rows in closed form (a w column sums along w in each row; an
 * h column is constant along a row). */
static void
field_patch_pe_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
                     size_t c1, struct pe_stats *dest)
{
	size_t W = f->cfg->grid_w, q = f->nomega;
	struct field_patches pt;
	double total = 0.0;

	field_patch_split(r0, r1, W, &pt);
	size_t nfull = pt.hf1 - pt.hf0;
	for (size_t c = c0; c < c1; c++) {
		int is_w = c < 2 * q;
		size_t k = c % (2 * q);
		int is_cos = k >= q;
		double om = f->omega[is_cos ? k - q : k];
		if (is_w) {
			for (size_t s = 0; s < pt.nseg; s++)
				total += field_patch_wave_sum(
				    om, pt.wlo[s], pt.whi[s] - pt.wlo[s],
				    is_cos);
			if (nfull > 0)
				total += (double)nfull *
				         field_patch_wave_sum(om, 0, W, is_cos);
		} else {
			for (size_t s = 0; s < pt.nseg; s++) {
				double t = (double)pt.h[s] * om;
				total += (double)(pt.whi[s] - pt.wlo[s]) *
				         (is_cos ? cos(t) : sin(t));
			}
			if (nfull > 0)
				total += (double)W *
				         field_patch_wave_sum(om, pt.hf0, nfull,
				                              is_cos);
		}
	}
	dest->mean = total / (double)dest->count;
}

/* C(pos - a) from the table of C (struct pe_field's prefix for a
 * patch-cosine field; C is even). */
static double
field_patch_c(const struct pe_field *f, size_t a, size_t pos)
{
	return f->prefix[pos > a ? pos - a : a - pos];
}

/* Mean of C(pos - a) over pos in [p0, p1). */
static double
field_patch_cmean(const struct pe_field *f, size_t a, size_t p0, size_t p1)
{
	double sum = 0.0;

	for (size_t pos = p0; pos < p1; pos++)
		sum += field_patch_c(f, a, pos);
	return sum / (double)(p1 - p0);
}

/* Grid coordinates (*ha, *wa) of a patch-cosine field's anchor; false when
 * it is off the grid. */
static bool
field_patch_anchor(const struct pe_field *f, size_t *ha, size_t *wa)
{
	const struct pe_config *cfg = f->cfg;

	if (f->anchor >= cfg->grid_h * cfg->grid_w)
		return false;
	pe_vit2d_coords(f->anchor, cfg->grid_w, ha, wa);
	return true;
}

/* Mean of a patch-cosine block [h0, h1) x [w0, w1): the cosine is
 * (C(w - wa) + C(h - ha)) / (d/2), separable in h and w, so the mean is
 * (mean_w C + mean_h C) / (d/2). */
static int
field_patch_cosine_block(const struct pe_field *f, size_t r0, size_t r1,
                         size_t c0, size_t c1, struct pe_stats *dest)
{
	size_t ha, wa;

	if (!field_patch_anchor(f, &ha, &wa))
		return PE_EINVAL;
	double mw = field_patch_cmean(f, wa, c0, c1);
	double mh = field_patch_cmean(f, ha, r0, r1);
	dest->mean = (mw + mh) / (double)(2 * f->nomega);
	return PE_OK;
}

/* A part of a patch-cosine block (field_separable_grid): the mean of C
 * over rows (from the anchor's h, a[0]) or columns (its w, a[1]). */
static double
field_patch_part(const struct pe_field *f, int axis, size_t lo, size_t hi,
                 const void *arg)
{
	const size_t *a = arg;

	return field_patch_cmean(f, a[axis], lo, hi);
}

/* Grid of a patch-cosine field: the cosine (C(w - wa) + C(h - ha)) / (d/2)
 * is separable, so a block's mean is mean_w C + mean_h C: one sum per
 * column block and one per row block from the table of C, O(H + W + nr +
 * nc + nr nc) in all (each block's mean as field_patch_cosine_block's). */
int
pe_field_patch_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
                    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	size_t a[2];

	if (!field_patch_anchor(f, &a[0], &a[1]))
		return PE_EINVAL;
	return field_separable_grid(f, r0, r1, nr, c0, c1, nc,
	                            field_patch_part, a,
	                            (double)(2 * f->nomega), NULL, dest);
}

/* Frequencies of a vit2d field (MAE: omega_k = 1 / 10000^(k / (d/4)), k <
 * d/4) and, for a patch-cosine field, the table of C. */
int
pe_field_patch_init(struct pe_field *f)
{
	const struct pe_config *cfg = f->cfg;

	f->nomega = cfg->d / 4;
	f->omega = malloc(f->nomega * sizeof *f->omega);
	if (f->omega == NULL)
		return PE_ENOMEM;
	for (size_t k = 0; k < f->nomega; k++)
		f->omega[k] = 1.0 / pow(10000.0, (double)k / (double)f->nomega);
	if (f->kind == PE_FIELD_PATCH_COSINE && field_patch_ctab(f) != PE_OK)
		return PE_ENOMEM;
	return PE_OK;
}

/* Value at (r, c): PE of patch r, column c; or the cosine of the anchor
 * patch to patch (h r, w c), NAN when the anchor is off the grid. */
double
pe_field_patch_value(const struct pe_field *f, size_t r, size_t c)
{
	const struct pe_config *cfg = f->cfg;
	size_t h, w;

	if (f->kind == PE_FIELD_PE) {
		pe_vit2d_coords(r, cfg->grid_w, &h, &w);
		return pe_vit2d_value(h, w, c, cfg->d);
	}
	if (!field_patch_anchor(f, &h, &w))
		return NAN;
	return pe_vit2d_cosine(h, w, r, c, cfg->d);
}

/* Mean of a block of a vit2d field; PE_EINVAL when a patch-cosine field's
 * anchor is off the grid. */
int
pe_field_patch_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
                     size_t c1, struct pe_stats *dest)
{
	if (f->kind == PE_FIELD_PE) {
		field_patch_pe_block(f, r0, r1, c0, c1, dest);
		return PE_OK;
	}
	return field_patch_cosine_block(f, r0, r1, c0, c1, dest);
}

/* Exact min and max of a patch-cosine block: separable, so the max of C(w -
 * wa) plus the max of C(h - ha), from the table of C. */
void
pe_field_patch_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
                      size_t c1, double *lo, double *hi)
{
	size_t ha, wa;

	field_patch_anchor(f, &ha, &wa); /* on the grid: the block checked */
	double lw = INFINITY, hw = -INFINITY, lh = INFINITY, hh = -INFINITY;
	for (size_t w = c0; w < c1; w++)
		field_fold(field_patch_c(f, wa, w), &lw, &hw);
	for (size_t h = r0; h < r1; h++)
		field_fold(field_patch_c(f, ha, h), &lh, &hh);
	double half = (double)(2 * f->nomega);
	*lo = (lw + lh) / half;
	*hi = (hw + hh) / half;
}
