/* 2-D sin-cos position embedding for ViT patch grids, as MAE's
 * get_2d_sincos_pos_embed (facebookresearch/mae, util/pos_embed.py). */
#ifndef PESCOPE_VIT2D_H
#define PESCOPE_VIT2D_H

#include "pescope.h"

/* Grid coordinates of patch r in row-major order: h = r / W, w = r % W. */
void pe_vit2d_coords(size_t r, size_t grid_w, size_t *h, size_t *w);

/* Value of column c for the patch at (h, w). MAE's ordering: the first d/2
 * columns encode the column coordinate w (meshgrid(grid_w, grid_h) puts w
 * first), the second half the row coordinate h; each half is
 * [sin(pos omega) | cos(pos omega)] with omega_k = 1 / 10000^(k / (d/4)). */
double pe_vit2d_value(size_t h, size_t w, size_t c, size_t d);

/* Frequency k < d/4 of each half: omega_k = 1 / 10000^(k / (d/4)) (MAE's
 * get_1d_sincos_pos_embed_from_grid with embed_dim d/2). */
double pe_vit2d_omega(size_t k, size_t d);

/* Cosine similarity of the embeddings of patches (h1,w1) and (h2,w2). */
double pe_vit2d_cosine(size_t h1, size_t w1, size_t h2, size_t w2, size_t d);

#endif
