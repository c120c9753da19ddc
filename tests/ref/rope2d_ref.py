#!/usr/bin/python3
"""Independent reference for rope2d (tests/test_rope2d.c, check_numpy.py).

A numpy transcription of RoPE-ViT (Heo et al. 2024, naver-ai/rope-vit)
models/vit_rope.py (the same functions as deit/models_v2_rope.py):
init_t_xy, compute_axial_cis, init_random_2d_freqs, compute_mixed_cis,
reshape_for_broadcast / apply_rotary_emb (view_as_complex of the last axis
in pairs: GPT-J's interleaved pairs), and rope_vit_models' storage of the
mixed frequencies (freqs stacked per block, .view(2, depth, -1)). The
reference computes in float32 (complex64); this in float64.

torch.rand, which init_random_2d_freqs draws each head's angle from, is
torch's CPU generator: mt19937 seeded by torch.manual_seed (init_genrand),
one 32-bit output per float32, (x & (2^24 - 1)) * 2^-24. numpy's legacy
RandomState is the same mt19937 (checked below against torch.manual_seed(0);
torch.rand(4) = [0.4963, 0.7682, 0.0885, 0.1320]).

Run: /usr/bin/python3 tests/ref/rope2d_ref.py   (prints C initialisers)
"""
import numpy as np


def torch_rand(n, seed=0):
    """torch.manual_seed(seed); [torch.rand(1) for _ in range(n)]."""
    raw = np.random.RandomState(seed).randint(0, 2 ** 32, size=n,
                                              dtype=np.uint64)
    return (raw & np.uint64((1 << 24) - 1)).astype(np.float64) * 2.0 ** -24


assert np.allclose(torch_rand(4), [0.4963, 0.7682, 0.0885, 0.1320], atol=5e-5)


def init_t_xy(end_x, end_y):
    t = np.arange(end_x * end_y, dtype=np.float64)
    t_x = t % end_x
    t_y = np.floor_divide(t, end_x)
    return t_x, t_y


def compute_axial_cis(dim, end_x, end_y, theta=100.0):
    freqs_x = 1.0 / (theta ** (np.arange(0, dim, 4)[: (dim // 4)]
                               .astype(np.float64) / dim))
    freqs_y = 1.0 / (theta ** (np.arange(0, dim, 4)[: (dim // 4)]
                               .astype(np.float64) / dim))
    t_x, t_y = init_t_xy(end_x, end_y)
    freqs_x = np.outer(t_x, freqs_x)
    freqs_y = np.outer(t_y, freqs_y)
    freqs_cis_x = np.exp(1j * freqs_x)   # torch.polar(ones, angle)
    freqs_cis_y = np.exp(1j * freqs_y)
    return np.concatenate([freqs_cis_x, freqs_cis_y], axis=-1)


def axial_angles(dim, end_x, end_y, theta=100.0):
    """The angles compute_axial_cis turns into freqs_cis, [N, dim/2]."""
    f = 1.0 / (theta ** (np.arange(0, dim, 4)[: (dim // 4)]
                         .astype(np.float64) / dim))
    t_x, t_y = init_t_xy(end_x, end_y)
    return np.concatenate([np.outer(t_x, f), np.outer(t_y, f)], axis=-1)


def init_random_2d_freqs(dim, num_heads, theta=10.0, rotate=True, seed=0):
    """[2, num_heads, dim/2], the heads' angles from torch_rand."""
    freqs_x = []
    freqs_y = []
    mag = 1 / (theta ** (np.arange(0, dim, 4)[: (dim // 4)]
                         .astype(np.float64) / dim))
    u = torch_rand(num_heads, seed)
    for i in range(num_heads):
        angles = u[i:i + 1] * 2 * np.pi if rotate else np.zeros(1)
        fx = np.concatenate([mag * np.cos(angles),
                             mag * np.cos(np.pi / 2 + angles)], axis=-1)
        fy = np.concatenate([mag * np.sin(angles),
                             mag * np.sin(np.pi / 2 + angles)], axis=-1)
        freqs_x.append(fx)
        freqs_y.append(fy)
    freqs_x = np.stack(freqs_x, axis=0)
    freqs_y = np.stack(freqs_y, axis=0)
    return np.stack([freqs_x, freqs_y], axis=0)


def model_freqs(blocks):
    """rope_vit_models: torch.stack(blocks, dim=1).view(2, depth, -1)."""
    f = np.stack(blocks, axis=1)
    return f.reshape(2, len(blocks), -1)


def compute_mixed_cis(freqs, t_x, t_y, num_heads):
    """freqs [2, depth, heads * dim/2] -> [depth, heads, N, dim/2]."""
    N = t_x.shape[0]
    depth = freqs.shape[1]
    freqs_x = (t_x[:, None] @ freqs[0][:, None, :]).reshape(
        depth, N, num_heads, -1).transpose(0, 2, 1, 3)
    freqs_y = (t_y[:, None] @ freqs[1][:, None, :]).reshape(
        depth, N, num_heads, -1).transpose(0, 2, 1, 3)
    return freqs_x + freqs_y   # the angles torch.polar takes


def apply_rotary_emb(xq, freqs_cis):
    """view_as_complex(x.reshape(..., -1, 2)) * freqs_cis, back to real."""
    xq_ = xq.reshape(*xq.shape[:-1], -1, 2)
    xq_ = xq_[..., 0] + 1j * xq_[..., 1]
    out = xq_ * freqs_cis
    return np.stack([out.real, out.imag], axis=-1).reshape(*xq.shape)


def scores(angles):
    """[N, N]: the rotated unit (1, 0) per pair, q @ k.T."""
    n, half = angles.shape
    x = np.tile([1.0, 0.0], half)[None, :].repeat(n, 0)
    q = apply_rotary_emb(x, np.exp(1j * angles))
    return q @ q.T


def c_array(name, a, fmt="%.17g"):
    flat = np.asarray(a).reshape(-1)
    body = ",\n".join("\t" + ", ".join(fmt % v for v in flat[i:i + 4])
                      for i in range(0, len(flat), 4))
    return "static const double %s[%d] = {\n%s,\n};" % (name, len(flat), body)


if __name__ == "__main__":
    a = axial_angles(8, 3, 2)                       # W 3, H 2, d 8
    assert np.allclose(np.exp(1j * a), compute_axial_cis(8, 3, 2))
    print(c_array("ref_axial_3x2_d8", a))
    print(c_array("ref_axial_score_3x2_d8", scores(a)))
    f = init_random_2d_freqs(8, 3, 10.0)            # [2, 3, 4]
    print(c_array("ref_mixed_init_d8_h3", f))
    t_x, t_y = init_t_xy(3, 2)
    ang = compute_mixed_cis(model_freqs([f]), t_x, t_y, 3)[0, 2]  # head 2
    print(c_array("ref_mixed_angles_h2", ang))
    print(c_array("ref_mixed_score_h2", scores(ang)))
