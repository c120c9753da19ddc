#!/usr/bin/python3
"""Independent reference for tests/test_vit2d.c.

MAE's get_2d_sincos_pos_embed (facebookresearch/mae util/pos_embed.py),
transcribed with numpy and generalised from grid_size x grid_size to
grid_h x grid_w the way the square code reads: meshgrid(grid_w, grid_h)
(w first), rows in row-major patch order. Like MAE it computes in float32.
Prints a C initialiser for a 3 x 5 grid with embed_dim 16.

Run: /usr/bin/python3 tests/ref/vit2d_ref.py
"""
import numpy as np


def get_2d_sincos_pos_embed(embed_dim, grid_h_size, grid_w_size):
    grid_h = np.arange(grid_h_size, dtype=np.float32)
    grid_w = np.arange(grid_w_size, dtype=np.float32)
    grid = np.meshgrid(grid_w, grid_h)  # here w goes first
    grid = np.stack(grid, axis=0)
    grid = grid.reshape([2, 1, grid_h_size, grid_w_size])
    return get_2d_sincos_pos_embed_from_grid(embed_dim, grid)


def get_2d_sincos_pos_embed_from_grid(embed_dim, grid):
    assert embed_dim % 2 == 0
    emb_h = get_1d_sincos_pos_embed_from_grid(embed_dim // 2, grid[0])
    emb_w = get_1d_sincos_pos_embed_from_grid(embed_dim // 2, grid[1])
    return np.concatenate([emb_h, emb_w], axis=1)


def get_1d_sincos_pos_embed_from_grid(embed_dim, pos):
    assert embed_dim % 2 == 0
    omega = np.arange(embed_dim // 2, dtype=np.float32)
    omega /= embed_dim / 2.
    omega = 1. / 10000**omega
    pos = pos.reshape(-1)
    out = np.einsum('m,d->md', pos, omega)
    emb_sin = np.sin(out)
    emb_cos = np.cos(out)
    return np.concatenate([emb_sin, emb_cos], axis=1)


H, W, D = 3, 5, 16
emb = get_2d_sincos_pos_embed(D, H, W)
print("/* %d x %d grid, d = %d: [%d][%d] */" % (H, W, D, H * W, D))
print("static const double ref_vit2d[%d][%d] = {" % (H * W, D))
for row in emb:
    print("\t{" + ", ".join("%.9g" % v for v in row) + "},")
print("};")
# cosine similarity of patch (1, 2) with every patch, for PATCH_COSINE
a = emb[1 * W + 2].astype(np.float64)
e = emb.astype(np.float64)
cosv = e @ a / (np.linalg.norm(e, axis=1) * np.linalg.norm(a))
print("static const double ref_cos_12[%d] = {%s};" % (H * W, ", ".join("%.9g" % v for v in cosv)))
