/* 2-D rotary position embedding for ViT patches (Heo et al. 2024,
 * "Rotary Position Embedding for Vision Transformer"), as naver-ai/rope-vit
 * models/vit_rope.py computes it.
 *
 * Patch i of a grid_h x grid_w grid sits at x = i mod W, y = i div W
 * (init_t_xy); its pairs are GPT-J's interleaved ones (apply_rotary_emb's
 * view_as_complex of the last axis in twos), pair j turned by
 *   theta_j(i) = x fx_j + y fy_j,  j < d/2.
 * Axial (compute_axial_cis): the first d/4 pairs take x, the rest y, both
 * at f_k = 1 / base^(4k/d), k < d/4: fx = [f, 0], fy = [0, f]. Mixed
 * (compute_mixed_cis): learned fx, fy per head; pescope reads them from a
 * file, or shows init_random_2d_freqs after torch.manual_seed(0): head h's
 * angle a = 2 pi u_h (u_h the h-th torch.rand, mt19937 seeded 0), fx =
 * [f cos a, f cos(pi/2 + a)], fy = [f sin a, f sin(pi/2 + a)]. The
 * reference's theta is 100 for axial, 10 for mixed (--base). */
#ifndef PESCOPE_ROPE2D_H
#define PESCOPE_ROPE2D_H

#include "pescope.h"

/* Grid coordinates of patch i: x = i mod W (column), y = i div W (row). */
void pe_rope2d_coords(size_t i, size_t grid_w, size_t *x, size_t *y);

/* torch.rand after torch.manual_seed(0), draw k (0-based): mt19937
 * (init_genrand(0)), (x & (2^24 - 1)) 2^-24, as torch's CPU generator. */
double pe_rope2d_torch_rand(size_t k);

/* The frequencies of cfg's head, fx[d/2] and fy[d/2]: axial's, the file's
 * (freqs[0] and freqs[1] of the block `layer`, head `head`), or the
 * reference initialisation's (head `head`). PE_EINVAL when cfg's shared
 * and rope2d parameters do not pass their checks (whatever its encoding). */
int pe_rope2d_freqs(const struct pe_config *cfg, double *fx, double *fy);

/* The magnitude f_k = 1 / base^(4k/d), k < d/4, of RoPE-ViT's
 * frequencies (compute_axial_cis, init_random_2d_freqs): axial's fx_k and
 * fy_(d/4 + k); the reference initialisation's pairs k and d/4 + k are f_k
 * times the head's two directions. */
double pe_rope2d_mag(const struct pe_config *cfg, size_t k);

/* Heads of a freqs file (0 without one), and its blocks (depth). */
size_t pe_rope2d_file_heads(const struct pe_config *cfg);
size_t pe_rope2d_file_depth(const struct pe_config *cfg);

/* The tables of `dump`, patch by patch (row-major):
 *   angles [H W, d/2]: theta_j(i), the angle torch.polar takes;
 *   cos, sin [H W, d/2]: freqs_cis's real and imaginary parts (the
 *     reference's complex [N, d/2]). Either may be NULL. */
int pe_rope2d_fill_angles(const struct pe_config *cfg, double *dest);
int pe_rope2d_fill_cos_sin(const struct pe_config *cfg, double *cos_dest,
    double *sin_dest);

/* Score of patches a and b for q = k = (1, 0) in every pair: sum_j
 * cos((x_a - x_b) fx_j + (y_a - y_b) fy_j) (fx, fy as pe_rope2d_freqs). */
double pe_rope2d_score(const struct pe_config *cfg, const double *fx,
    const double *fy, size_t a, size_t b);

/* RoPE-ViT's theta (100 axial, 10 mixed) for an unset base. */
void pe_rope2d_defaults(struct pe_config *cfg, bool d_given,
    bool base_given);

#endif
