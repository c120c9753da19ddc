#!/usr/bin/python3
"""Independent reference for a layer's attention shape (tests/test_attn.c,
tests/check_modern.py): numpy transcriptions of the transformers code that
computes it, written from that code, not from pescope's.

- masks: src/transformers/masking_utils.py, the mask functions
  causal_mask_function (kv_idx <= q_idx), sliding_window_overlay
  (kv_idx > q_idx - sliding_window), sliding_window_bidirectional_overlay
  (abs(q_idx - kv_idx) <= sliding_window), chunked_overlay
  ((kv_idx - left_padding) // chunk_size == (q_idx - left_padding) //
  chunk_size, no padding here) and and_masks; eager_mask's 0 / -inf.
- temperature: models/llama4/modeling_llama4.py, Llama4TextAttention.forward:
  attn_scales = torch.log1p(torch.floor((cache_position.float() + 1.0) /
  self.floor_scale)) * self.attn_scale + 1.0, in float32 as torch has it.
- sinks: models/gpt_oss/modeling_gpt_oss.py, eager_attention_forward:
  combined_logits = cat([attn_weights, sinks]); minus its max; softmax;
  probs[..., :-1].
- decoupled RoPE: models/deepseek_v3/modeling_deepseek_v3.py:
  DeepseekV3Attention (q_nope, q_pe = split(q, [qk_nope_head_dim,
  qk_rope_head_dim]); apply_rotary_pos_emb_interleave on q_pe and k_pe;
  query = cat(q_nope, q_pe); self.scaling = qk_head_dim ** -0.5 times
  mscale ** 2, mscale = yarn_get_mscale(factor, mscale_all_dim)).
- Qwen2.5-VL's time ids: models/qwen2_5_vl/modeling_qwen2_5_vl.py,
  get_rope_index: time_tensor = expanded_range * second_per_grid_t *
  self.config.vision_config.tokens_per_second; t_index =
  time_tensor.long() (an int64 arange times Python numbers: float32).
- Qwen3-VL's interleaved sections: models/qwen3_vl/modeling_qwen3_vl.py,
  Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope.
The toy sentence's embeddings are tests/ref/toy_ref.py's.

Run: /usr/bin/python3 tests/ref/attn_ref.py  (prints C initialisers)
"""
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import toy_ref  # noqa: E402


# ---- masking_utils.py ---------------------------------------------------

def causal_mask_function(q_idx, kv_idx):
    return kv_idx <= q_idx


def sliding_window_overlay(sliding_window):
    def inner_mask(q_idx, kv_idx):
        return kv_idx > q_idx - sliding_window
    return inner_mask


def sliding_window_bidirectional_overlay(sliding_window):
    def inner_mask(q_idx, kv_idx):
        return np.abs(q_idx - kv_idx) <= sliding_window
    return inner_mask


def chunked_overlay(chunk_size):
    def inner_mask(q_idx, kv_idx):
        return kv_idx // chunk_size == q_idx // chunk_size
    return inner_mask


def and_masks(*fns):
    def and_mask(q_idx, kv_idx):
        out = np.ones(np.broadcast(q_idx, kv_idx).shape, dtype=bool)
        for f in fns:
            out &= f(q_idx, kv_idx)
        return out
    return and_mask


def mask(n, causal=True, window=None, chunk=None):
    """[n, n] float64: 0 where the query (row) sees the key, -inf else."""
    fns = [causal_mask_function] if causal else []
    if window is not None:
        fns.append(sliding_window_overlay(window) if causal
                   else sliding_window_bidirectional_overlay(window))
    if chunk is not None:
        fns.append(chunked_overlay(chunk))
    q = np.arange(n)[:, None]
    k = np.arange(n)[None, :]
    seen = and_masks(*fns)(q, k) if fns else np.ones((n, n), bool)
    return np.where(seen, 0.0, -np.inf)


# ---- modeling_llama4.py ---------------------------------------------------

def llama4_attn_scales(n, floor_scale=8192, attn_scale=0.1):
    """[n] float32 as torch computes it."""
    cache_position = np.arange(n, dtype=np.int64)
    x = cache_position.astype(np.float32) + np.float32(1.0)
    x = np.floor(x / np.float32(floor_scale))
    return (np.log1p(x).astype(np.float32) * np.float32(attn_scale)
            + np.float32(1.0)).astype(np.float32)


# ---- modeling_gpt_oss.py --------------------------------------------------

def gpt_oss_softmax(attn_weights, sink):
    """Rows of attn_weights [q, k] with the head's sink: weights, share."""
    sinks = np.full((attn_weights.shape[0], 1), sink)
    combined = np.concatenate([attn_weights, sinks], axis=-1)
    combined = combined - combined.max(axis=-1, keepdims=True)
    e = np.exp(combined)
    probs = e / e.sum(axis=-1, keepdims=True)
    return probs[..., :-1], probs[..., -1]


# ---- modeling_deepseek_v3.py ----------------------------------------------

def yarn_get_mscale(scale=1, mscale=1):
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def deepseek_scaling(qk_head_dim, factor=None, mscale_all_dim=0):
    s = qk_head_dim ** -0.5
    if factor is not None and mscale_all_dim:
        m = yarn_get_mscale(factor, mscale_all_dim)
        s = s * m * m
    return s


def rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def apply_rotary_pos_emb_interleave(q, cos, sin):
    """DeepSeek-V3's: pairs (2j, 2j+1) regrouped, then rotate_half."""
    s, d = q.shape
    q = q.reshape(s, d // 2, 2).transpose(0, 2, 1).reshape(s, d)
    return q * cos + rotate_half(q) * sin


def decoupled_parts(words, d, rope_dim, base=10000.0, yarn=None):
    """content, position [T, T] of the toy sentence's scores with W_q =
    W_k = I, the last rope_dim dims rotated, scaled as DeepSeek-V3. yarn:
    a rope_scaling dict of type yarn (factor, original_max_position_
    embeddings, mscale, mscale_all_dim), its inv_freq and attention factor
    from tests/ref/hf_rope_ref.py's transcription of
    _compute_yarn_parameters at DeepSeek's dim, qk_rope_head_dim."""
    nope = d - rope_dim
    x = np.array([toy_ref.embedding(w, d) for w in words])
    q_nope, q_pe = x[:, :nope], x[:, nope:]
    factor, mscale_all_dim, attention_factor = None, 0, 1.0
    if yarn is None:
        inv = 1.0 / base ** (np.arange(0, rope_dim, 2, dtype=np.int64)
                             .astype(np.float64) / rope_dim)
    else:
        import hf_rope_ref
        p = dict(yarn, rope_theta=base)
        inv, attention_factor = hf_rope_ref.rope_yarn(p, rope_dim, None,
                                                      True)
        factor, mscale_all_dim = yarn["factor"], yarn.get("mscale_all_dim", 0)
    pos = np.arange(len(words), dtype=np.float64)
    freqs = pos[:, None] * inv[None, :]
    emb = np.concatenate([freqs, freqs], axis=-1)
    cos, sin = np.cos(emb) * attention_factor, np.sin(emb) * attention_factor
    q_rot = apply_rotary_pos_emb_interleave(q_pe, cos, sin)
    scale = deepseek_scaling(d, factor, mscale_all_dim)
    return (q_nope @ q_nope.T) * scale, (q_rot @ q_rot.T) * scale


# ---- modeling_qwen2_5_vl.py, modeling_qwen3_vl.py -------------------------

def qwen25vl_t_index(frames, hw, second_per_grid_t, tokens_per_second):
    """get_rope_index's t_index of a video's tokens (before the offset)."""
    range_tensor = np.arange(frames, dtype=np.int64).reshape(-1, 1)
    expanded_range = np.broadcast_to(range_tensor, (frames, hw))
    time_tensor = (expanded_range.astype(np.float32)
                   * np.float32(second_per_grid_t))
    time_tensor = time_tensor * np.float32(tokens_per_second)
    return time_tensor.astype(np.int64).flatten()


def qwen25vl_positions(text_before, grid_h, grid_w, frames, text_after,
                       second_per_grid_t, tokens_per_second):
    """[L, 3] position ids: text, a video (the merged grid), text."""
    n = text_before
    pos = [np.broadcast_to(np.arange(n), (3, n))]
    t_index = qwen25vl_t_index(frames, grid_h * grid_w, second_per_grid_t,
                               tokens_per_second)
    h_index = np.tile(np.repeat(np.arange(grid_h), grid_w), frames)
    w_index = np.tile(np.arange(grid_w), frames * grid_h)
    pos.append(np.stack([t_index, h_index, w_index]) + n)
    st_idx = pos[-1].max() + 1
    pos.append(np.broadcast_to(np.arange(text_after), (3, text_after))
               + st_idx)
    return np.ascontiguousarray(np.concatenate(pos, axis=1).T).astype(np.int64)


def apply_interleaved_mrope(freqs, mrope_section):
    """freqs [3, L, d/2] -> [L, d/2] as Qwen3-VL (a copy, not in place)."""
    freqs_t = freqs[0].copy()
    for dim, offset in enumerate((1, 2), start=1):
        length = mrope_section[dim] * 3
        idx = slice(offset, length, 3)
        freqs_t[..., idx] = freqs[dim, ..., idx]
    return freqs_t


def interleaved_angles(pos, d, base, section):
    """[L, d/2]: Qwen3-VL's freqs (the angles before cos and sin)."""
    inv = 1.0 / base ** (np.arange(0, d, 2, dtype=np.int64)
                         .astype(np.float64) / d)
    freqs = pos.T.astype(np.float64)[:, :, None] * inv[None, None, :]
    return apply_interleaved_mrope(freqs, section)


def c_array(name, a, fmt="%.17g"):
    flat = np.asarray(a).ravel()
    body = ", ".join(fmt % v for v in flat)
    return "static const double %s[%d] = {%s};" % (name, flat.size, body)


if __name__ == "__main__":
    # the masks at a chunk boundary and a window edge (C = W = 4, n = 10)
    for name, m in [("mask_window4", mask(10, True, window=4)),
                    ("mask_chunk4", mask(10, True, chunk=4)),
                    ("mask_window2_bidir", mask(10, False, window=2))]:
        print("/* %s: 1 seen, 0 hidden */ {%s}," % (name, ", ".join(
            "1" if v == 0 else "0" for v in m.ravel())))
    # the temperature at the floor_scale steps
    s = llama4_attn_scales(3 * 8192 + 2)
    for p in (0, 8190, 8191, 8192, 16382, 16383, 24575, 24576):
        print("/* temperature p %d */ %.9g," % (p, s[p]))
    # the sink share of the toy (NoPE, d 8, causal), sink 0.5
    words = "the dog bit the man".split()
    x = np.array([toy_ref.embedding(w, 8) for w in words])
    sc = x @ x.T / math.sqrt(8) + mask(5)
    w, share = gpt_oss_softmax(sc, 0.5)
    print(c_array("sink_share_nope_d8_z05", share))
    # the score split: d 16, rope 8, yarn factor 40, mscale_all_dim 1
    c, p = decoupled_parts(words, 16, 8, 10000.0, dict(
        factor=40.0, original_max_position_embeddings=4096, mscale=1.0,
        mscale_all_dim=1.0))
    print(c_array("split_content_row4", c[4]))
    print(c_array("split_position_row4", p[4]))
    # Qwen2.5-VL's time ids: 7 frames at 3 fps (second_per_grid_t 2 / 3),
    # tokens_per_second 2
    print("/* qwen25vl t_index */ {%s}," % ", ".join(
        str(v) for v in qwen25vl_t_index(7, 1, 2.0 / 3.0, 2)))
