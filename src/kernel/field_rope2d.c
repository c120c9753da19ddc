/* rope2d fields (rope2d.h): the cosine of the rotated unit q of patch
 * `anchor` with each patch's, an [H, W] map (the score over the d/2 pairs,
 * |R q|^2), and the score of every two patches, [H W, H W].
 *
 * Pair j turns by x fx_j + y fy_j, so over a rectangle of patches the sum
 * of e^{i theta_j} is the product of a sum along x and a sum along y, each
 * an arithmetic progression (Lagrange, trig.h); a range of patch indices
 * is partial grid rows and a run of whole ones. A block costs O(pairs);
 * grids take one dot product per cell (pe_field_dots). */
#include <math.h>
#include <stdlib.h>

#include "kernel/field_impl.h"
#include "kernel/trig.h"
#include "pescope/rope2d.h"

/* fx at f->omega, fy at f->prefix. */
static int
rope2d_init(struct pe_field *f)
{
	size_t P = f->cfg->d / 2;

	f->nomega = P;
	f->omega = malloc((P ? P : 1) * sizeof *f->omega);
	f->prefix = malloc((P ? P : 1) * sizeof *f->prefix);
	if (f->omega == NULL || f->prefix == NULL)
		return PE_ENOMEM;
	return pe_rope2d_freqs(f->cfg, f->omega, f->prefix);
}

/* sum_{p = p0}^{p0 + n - 1} e^{i p w}: *re, *im. */
static void
rope2d_ap(double w, uint64_t p0, uint64_t n, double *re, double *im)
{
	pe_trig_sum(0.0, w, p0, n, im, re);
}

/* Complex product (a + ib)(c + id) into *re, *im. */
static void
rope2d_mul(double a, double b, double c, double d, double *re, double *im)
{
	*re = a * c - b * d;
	*im = a * d + b * c;
}

/* ---- the patch map -------------------------------------------------- */

/* Score of patches a and b. */
static double
rope2d_score(const struct pe_field *f, size_t a, size_t b)
{
	return pe_rope2d_score(f->cfg, f->omega, f->prefix, a, b);
}

/* Cosine of the anchor with the patch at row h, column w. */
static double
rope2d_patch_value(const struct pe_field *f, size_t h, size_t w)
{
	const struct pe_config *cfg = f->cfg;

	if (f->anchor >= cfg->grid_h * cfg->grid_w)
		return NAN;
	return rope2d_score(f, f->anchor, h * cfg->grid_w + w) /
	    (double)f->nomega;
}

/* Row factor of the patch map over rows [h0, h1): e^{i theta_j(anchor)}
 * conj(sum_y e^{i y fy_j}). */
static void
rope2d_patch_xf(const struct pe_field *f, size_t h0, size_t h1, size_t k0,
    size_t kn, double *re, double *im)
{
	size_t xa, ya;

	pe_rope2d_coords(f->anchor, f->cfg->grid_w, &xa, &ya);
	for (size_t k = 0; k < kn; k++) {
		size_t j = k0 + k;
		double yr, yi, ar, ai;
		rope2d_ap(f->prefix[j], h0, h1 - h0, &yr, &yi);
		sincos(fmod((double)xa * f->omega[j] + (double)ya * f->prefix[j],
		    PE_TWO_PI), &ai, &ar);
		rope2d_mul(ar, ai, yr, -yi, &re[k], &im[k]);
	}
}

/* Column factor over columns [w0, w1): sum_x e^{i x fx_j}. */
static void
rope2d_patch_yf(const struct pe_field *f, size_t w0, size_t w1, size_t k0,
    size_t kn, double *re, double *im)
{
	for (size_t k = 0; k < kn; k++)
		rope2d_ap(f->omega[k0 + k], w0, w1 - w0, &re[k], &im[k]);
}

static int
rope2d_patch_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	struct pe_stats tmp;

	(void)minmax;
	if (f->anchor >= f->cfg->grid_h * f->cfg->grid_w)
		return PE_EINVAL;
	int rc = pe_field_dots(f, r0, r1, 1, c0, c1, 1, f->nomega,
	    rope2d_patch_xf, rope2d_patch_yf, 1.0 / (double)f->nomega, &tmp);
	dest->mean = tmp.mean;
	return rc;
}

static int
rope2d_patch_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	if (f->anchor >= f->cfg->grid_h * f->cfg->grid_w)
		return PE_EINVAL;
	return pe_field_dots(f, r0, r1, nr, c0, c1, nc, f->nomega,
	    rope2d_patch_xf, rope2d_patch_yf, 1.0 / (double)f->nomega, dest);
}

/* ---- scores ------------------------------------------------------------ */

/* sum over patches [i0, i1) of e^{i theta_j}, pairs [k0, k0 + kn): a
 * partial first row, whole rows (sum_x times sum_y), a partial last row. */
static void
rope2d_sim_factor(const struct pe_field *f, size_t i0, size_t i1, size_t k0,
    size_t kn, double *re, double *im)
{
	size_t W = f->cfg->grid_w;
	size_t y0 = i0 / W, x0 = i0 % W, y1 = (i1 - 1) / W, x1 = (i1 - 1) % W;

	for (size_t k = 0; k < kn; k++) {
		size_t j = k0 + k;
		double fx = f->omega[j], fy = f->prefix[j], sr = 0, si = 0, ar,
		       ai, br, bi, pr, pi;
		if (y0 == y1) {
			rope2d_ap(fx, x0, x1 + 1 - x0, &ar, &ai);
			rope2d_ap(fy, y0, 1, &br, &bi);
			rope2d_mul(ar, ai, br, bi, &sr, &si);
		} else {
			rope2d_ap(fx, x0, W - x0, &ar, &ai);
			rope2d_ap(fy, y0, 1, &br, &bi);
			rope2d_mul(ar, ai, br, bi, &pr, &pi);
			sr += pr, si += pi;
			if (y1 > y0 + 1) {
				rope2d_ap(fx, 0, W, &ar, &ai);
				rope2d_ap(fy, y0 + 1, y1 - y0 - 1, &br, &bi);
				rope2d_mul(ar, ai, br, bi, &pr, &pi);
				sr += pr, si += pi;
			}
			rope2d_ap(fx, 0, x1 + 1, &ar, &ai);
			rope2d_ap(fy, y1, 1, &br, &bi);
			rope2d_mul(ar, ai, br, bi, &pr, &pi);
			sr += pr, si += pi;
		}
		re[k] = sr;
		im[k] = si;
	}
}

static int
rope2d_sim_block(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, bool minmax, struct pe_stats *dest)
{
	struct pe_stats tmp;

	(void)minmax;
	int rc = pe_field_dots(f, r0, r1, 1, c0, c1, 1, f->nomega,
	    rope2d_sim_factor, rope2d_sim_factor, 1.0, &tmp);
	dest->mean = tmp.mean;
	return rc;
}

static int
rope2d_sim_grid(const struct pe_field *f, size_t r0, size_t r1, size_t nr,
    size_t c0, size_t c1, size_t nc, struct pe_stats *dest)
{
	return pe_field_dots(f, r0, r1, nr, c0, c1, nc, f->nomega,
	    rope2d_sim_factor, rope2d_sim_factor, 1.0, dest);
}

/* Min and max by a scan of the block's entries, each O(pairs); PE_ERANGE
 * past FIELD_SCAN_BUDGET. */
static int
rope2d_minmax(const struct pe_field *f, size_t r0, size_t r1, size_t c0,
    size_t c1, double *lo, double *hi)
{
	uint64_t cost = f->nomega ? f->nomega : 1;
	if ((uint64_t)(r1 - r0) > FIELD_SCAN_BUDGET / (c1 - c0) / cost)
		return PE_ERANGE;
	for (size_t r = r0; r < r1; r++)
		for (size_t c = c0; c < c1; c++)
			field_fold(f->kind == PE_FIELD_SIMILARITY
				? rope2d_score(f, r, c)
				: rope2d_patch_value(f, r, c), lo, hi);
	return PE_OK;
}

static double
rope2d_sim_value(const struct pe_field *f, size_t r, size_t c)
{
	return rope2d_score(f, r, c);
}

const struct field_ops pe_field_rope2d_patch_ops = {rope2d_init,
	rope2d_patch_value, rope2d_patch_block, rope2d_patch_grid,
	rope2d_minmax, false, NULL};
const struct field_ops pe_field_rope2d_sim_ops = {rope2d_init,
	rope2d_sim_value, rope2d_sim_block, rope2d_sim_grid, rope2d_minmax,
	false, NULL};
