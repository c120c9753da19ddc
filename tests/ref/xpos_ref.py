#!/usr/bin/python3
"""Independent reference for xpos (tests/test_xpos.c, tests/check_numpy.py).

A numpy transcription of torchscale (microsoft/torchscale)
torchscale/component/xpos_relative_position.py: fixed_pos_embedding,
rotate_every_two, duplicate_interleave, apply_rotary_pos_emb and XPOS
(scale buffer, forward with offset, min_pos = -(length + offset) // 2, the
last `length` rows, downscale), used as torchscale's multihead_attention.py
does: k = xpos(k, offset=0, downscale=True), q = xpos(q, offset=offset,
downscale=False). torchscale computes in float32; this in float64. The base
10000 of fixed_pos_embedding is a parameter here (pescope's --base).

Run: /usr/bin/python3 tests/ref/xpos_ref.py   (prints C initialisers)
"""
import numpy as np


def fixed_pos_embedding(x, base=10000.0):
    seq_len, dim = x.shape
    inv_freq = 1.0 / (base ** (np.arange(0, dim) / dim))
    sinusoid_inp = np.einsum("i , j -> i j",
                             np.arange(0, seq_len, dtype=np.float64), inv_freq)
    return np.sin(sinusoid_inp), np.cos(sinusoid_inp)


def rotate_every_two(x):
    x1 = x[:, :, ::2]
    x2 = x[:, :, 1::2]
    x = np.stack((-x2, x1), axis=-1)
    return x.reshape(*x.shape[:-2], -1)


def duplicate_interleave(m):
    dim0 = m.shape[0]
    m = m.reshape(-1, 1)
    m = np.tile(m, (1, 2))
    return m.reshape(dim0, -1)


def apply_rotary_pos_emb(x, sin, cos, scale=1):
    sin, cos = map(lambda t: duplicate_interleave(t * scale), (sin, cos))
    return (x * cos) + (rotate_every_two(x) * sin)


class XPOS:
    def __init__(self, head_dim, scale_base=512, base=10000.0):
        self.head_dim = head_dim
        self.scale_base = scale_base
        self.base = base
        self.scale = ((np.arange(0, head_dim, 2) + 0.4 * head_dim)
                      / (1.4 * head_dim))

    def tables(self, length, offset=0, downscale=False):
        """forward's scale, sin and cos after the slice (and downscale)."""
        min_pos = -(length + offset) // 2
        max_pos = length + offset + min_pos
        scale = self.scale ** (np.arange(min_pos, max_pos, 1)
                               / self.scale_base)[:, None]
        sin, cos = fixed_pos_embedding(scale, self.base)
        if scale.shape[0] > length:
            scale = scale[-length:]
            sin = sin[-length:]
            cos = cos[-length:]
        if downscale:
            scale = 1 / scale
        return scale, sin, cos

    def forward(self, x, offset=0, downscale=False):
        scale, sin, cos = self.tables(x.shape[1], offset, downscale)
        return apply_rotary_pos_emb(x, sin, cos, scale)


def query_tables(n, d, gamma=512, offset=0, base=10000.0):
    """scale [n, d/2]; cos, sin [n, d] as apply_rotary_pos_emb uses them."""
    scale, sin, cos = XPOS(d, gamma, base).tables(n, offset)
    return (scale, duplicate_interleave(cos * scale),
            duplicate_interleave(sin * scale))


def scores(n, d, gamma=512, offset=0, base=10000.0):
    """[n, n]: q = xpos(x, offset), k = xpos(x, 0, downscale) for the unit
    (1, 0) in every interleaved pair, q @ k.T."""
    x = np.tile(np.array([1.0, 0.0]), d // 2)[None, None, :]
    x = np.broadcast_to(x, (1, n, d)).copy()
    xp = XPOS(d, gamma, base)
    q = xp.forward(x, offset=offset, downscale=False)[0]
    k = xp.forward(x, offset=0, downscale=True)[0]
    return q @ k.T


def c_array(name, a, fmt="%.17g"):
    flat = np.asarray(a).reshape(-1)
    body = ",\n".join("\t" + ", ".join(fmt % v for v in flat[i:i + 4])
                      for i in range(0, len(flat), 4))
    return "static const double %s[%d] = {\n%s,\n};" % (name, len(flat), body)


if __name__ == "__main__":
    # n 7 (odd: min_pos -4), d 8, gamma 512
    s, c, sn = query_tables(7, 8)
    print(c_array("ref_scale_7x8", s))
    print(c_array("ref_cos_7x8_row6", c[6]))
    print(c_array("ref_score_7x8", scores(7, 8)))
    # a small scale base, an offset of 3 (min_pos -(6 + 3) // 2 = -5)
    print(c_array("ref_scale_6x4_g8_off3", query_tables(6, 4, 8, 3)[0]))
    print(c_array("ref_score_6x4_g8_off3", scores(6, 4, 8, 3)))
