/* 2-D sin-cos position embedding for ViT patch grids, transcribed from MAE's
 * get_2d_sincos_pos_embed (He et al. 2022; facebookresearch/mae
 * util/pos_embed.py), generalised from a square grid to H x W.
 *
 * MAE: grid = meshgrid(grid_w, grid_h) (w first), emb_h =
 * 1d(D/2, grid[0]) and emb_w = 1d(D/2, grid[1]); since grid[0] holds the
 * column index, the first d/2 columns encode w and the last d/2 encode h.
 * Each 1-D half is [sin(pos omega) | cos(pos omega)] with omega_k =
 * 1 / 10000^(k / (d/4)), k < d/4. Patches are in row-major order h*W + w.
 * MAE computes in float32; here in double. */
#include <math.h>

#include "pescope/vit2d.h"
#include "kernel/check.h"
#include "kernel/encoding_impl.h"
#include "kernel/testing.h"

/* Grid coordinates of patch r: h = r / W, w = r % W. */
void
pe_vit2d_coords(size_t r, size_t grid_w, size_t *h, size_t *w)
{
	*h = grid_w ? r / grid_w : 0;
	*w = grid_w ? r % grid_w : 0;
}

/* omega_k = 1 / 10000^(k / (d/4)) (MAE get_1d_sincos_pos_embed_from_grid
 * with embed_dim = d/2). */
double
pe_vit2d_omega(size_t k, size_t d)
{
	return 1.0 / pow(10000.0, (double)k / (double)(d / 4));
}

/* Column c of patch (h, w): axis (w for c < d/2), sin or cos, frequency. */
double
pe_vit2d_value(size_t h, size_t w, size_t c, size_t d)
{
	size_t q = d / 4;
	size_t pos = c < 2 * q ? w : h;
	size_t k = c % (2 * q);
	int is_cos = k >= q;
	double t = (double)pos * pe_vit2d_omega(is_cos ? k - q : k, d);
	return is_cos ? cos(t) : sin(t);
}

/* Fill dest[(H*W) * d] in row-major patch order. */
int
pe_vit2d_fill(size_t grid_h, size_t grid_w, size_t d, double *dest)
{
	if (d == 0 || d % 4 != 0 || grid_h == 0 || grid_w == 0 || dest == NULL)
		return PE_EINVAL;
	size_t q = d / 4;
	for (size_t h = 0; h < grid_h; h++) {
		for (size_t w = 0; w < grid_w; w++) {
			double *row = dest + (h * grid_w + w) * d;
			for (size_t k = 0; k < q; k++) {
				double om = pe_vit2d_omega(k, d);
				row[k] = sin((double)w * om);
				row[q + k] = cos((double)w * om);
				row[2 * q + k] = sin((double)h * om);
				row[3 * q + k] = cos((double)h * om);
			}
		}
	}
	return PE_OK;
}

/* Cosine similarity of patches (h1, w1) and (h2, w2): each half's dot
 * product is sum_k cos(dpos omega_k) (sin a sin b + cos a cos b =
 * cos(a - b)) and every embedding has squared norm d/2, so
 *   cos = (C(w1 - w2) + C(h1 - h2)) / (d/2), C(k) = sum_{i<d/4} cos(k omega_i).
 */
double
pe_vit2d_cosine(size_t h1, size_t w1, size_t h2, size_t w2, size_t d)
{
	size_t q = d / 4;
	double dw = (double)w1 - (double)w2, dh = (double)h1 - (double)h2;
	double sum = 0.0;

	if (q == 0)
		return NAN;
	for (size_t k = 0; k < q; k++) {
		double om = pe_vit2d_omega(k, d);
		sum += cos(dw * om) + cos(dh * om);
	}
	return sum / (double)(2 * q);
}

/* vit2d: two axes, each a sin and a cos half; the grid. */
int
pe_vit2d_check(const struct pe_config *cfg, char *why, size_t cap)
{
	if (cfg->d % 4 != 0)
		FAIL("d_model %zu: vit2d needs d_model divisible by 4 (two "
		     "axes, each a sin and a cos half)", cfg->d);
	if (cfg->grid_h < 1 || cfg->grid_w < 1 || cfg->grid_h > PE_MAX_GRID ||
	    cfg->grid_w > PE_MAX_GRID)
		FAIL("grid %zux%zu: each side must be in 1..%zu", cfg->grid_h,
		    cfg->grid_w, PE_MAX_GRID);
	return PE_OK;
}
