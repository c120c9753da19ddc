#!/usr/bin/python3
"""Independent reference for tests/test_rope.c.

A numpy (float64) transcription of Hugging Face transformers'
src/transformers/modeling_rope_utils.py: _compute_default_rope_parameters,
_compute_linear_scaling_rope_parameters, _compute_dynamic_ntk_parameters,
_compute_yarn_parameters (with mscale / mscale_all_dim / truncate),
_compute_longrope_parameters and _compute_llama3_parameters. HF works in
float32; this works in float64 so that the C code (double) can be compared
tightly. Prints C initialisers to paste into the test.

Run: /usr/bin/python3 tests/ref/rope_ref.py
"""
import math

import numpy as np


def default(base, dim):
    return 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim)), 1.0


def linear(base, dim, factor):
    inv, att = default(base, dim)
    return inv / factor, att


def dynamic(base, dim, factor, max_pos, seq_len):
    seq_len = max(seq_len, max_pos)
    base = base * ((factor * seq_len / max_pos) - (factor - 1)) ** (dim / (dim - 2))
    return 1.0 / (base ** (np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim)), 1.0


def yarn(base, dim, factor, orig, beta_fast=None, beta_slow=None, mscale=None,
         mscale_all_dim=None, attention_factor=None, truncate=True):
    def get_mscale(scale, mscale=1):
        if scale <= 1:
            return 1.0
        return 0.1 * mscale * math.log(scale) + 1.0

    if attention_factor is None:
        if mscale and mscale_all_dim:
            attention_factor = float(get_mscale(factor, mscale) / get_mscale(factor, mscale_all_dim))
        else:
            attention_factor = get_mscale(factor)
    beta_fast = beta_fast or 32
    beta_slow = beta_slow or 1

    def find_correction_dim(num_rotations, dim, base, max_position_embeddings):
        return (dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    def find_correction_range(low_rot, high_rot, dim, base, max_position_embeddings, truncate):
        low = find_correction_dim(low_rot, dim, base, max_position_embeddings)
        high = find_correction_dim(high_rot, dim, base, max_position_embeddings)
        if truncate:
            low = math.floor(low)
            high = math.ceil(high)
        return max(low, 0), min(high, dim - 1)

    def linear_ramp_factor(min, max, dim):
        if min == max:
            max += 0.001
        linear_func = (np.arange(dim, dtype=np.float64) - min) / (max - min)
        return np.clip(linear_func, 0, 1)

    pos_freqs = base ** (np.arange(0, dim, 2).astype(np.float64) / dim)
    inv_freq_extrapolation = 1.0 / pos_freqs
    inv_freq_interpolation = 1.0 / (factor * pos_freqs)
    low, high = find_correction_range(beta_fast, beta_slow, dim, base, orig, truncate)
    inv_freq_extrapolation_factor = 1 - linear_ramp_factor(low, high, dim // 2)
    inv_freq = (inv_freq_interpolation * (1 - inv_freq_extrapolation_factor)
                + inv_freq_extrapolation * inv_freq_extrapolation_factor)
    return inv_freq, attention_factor


def longrope(base, dim, short, long, orig, max_pos, seq_len, attention_factor=None,
             factor=None):
    # Phi-3: the config carries original_max_position_embeddings, so
    # factor = max_position_embeddings / original_max_position_embeddings;
    # without it, rope_scaling["factor"] (given here as factor), and the
    # pretrained length is the config's max_position_embeddings (orig here).
    if factor is None:
        factor = max_pos / orig
    if attention_factor is None:
        if factor <= 1.0:
            attention_factor = 1.0
        else:
            attention_factor = math.sqrt(1 + math.log(factor) / math.log(orig))
    ext = np.array(long if (seq_len and seq_len > orig) else short, dtype=np.float64)
    shape = np.arange(0, dim, 2, dtype=np.int64).astype(np.float64) / dim
    return 1.0 / (ext * base ** shape), attention_factor


def llama3(base, dim, factor, low_freq_factor, high_freq_factor, old_context_len):
    inv_freq, att = default(base, dim)
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelen = 2 * math.pi / inv_freq
    inv_freq_llama = np.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth_factor = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama
    is_medium = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
    return np.where(is_medium, smoothed, inv_freq_llama), att


CASES = [
    ("default_16", default(10000.0, 16)),
    ("default_32_b5e5", default(500000.0, 32)),
    ("linear_16_f4", linear(10000.0, 16, 4.0)),
    ("linear_32_f2_5", linear(500000.0, 32, 2.5)),
    ("dynamic_16_below", dynamic(10000.0, 16, 2.0, 64, 32)),
    ("dynamic_16_above", dynamic(10000.0, 16, 2.0, 64, 200)),
    ("dynamic_32_above", dynamic(500000.0, 32, 4.0, 1000, 5000)),
    ("yarn_16_trunc", yarn(10000.0, 16, 8.0, 64)),
    ("yarn_16_notrunc", yarn(10000.0, 16, 8.0, 64, truncate=False)),
    ("yarn_32_mscale", yarn(500000.0, 32, 16.0, 4096, beta_fast=16.0, beta_slow=2.0,
                            mscale=1.0, mscale_all_dim=0.5)),
    ("yarn_32_att", yarn(500000.0, 32, 16.0, 4096, attention_factor=1.25, truncate=False)),
    ("longrope_8_short", longrope(10000.0, 8, [1.0, 1.2, 1.5, 2.0], [1.5, 3.0, 8.0, 20.0], 256, 1024, 256)),
    ("longrope_8_long", longrope(10000.0, 8, [1.0, 1.2, 1.5, 2.0], [1.5, 3.0, 8.0, 20.0], 256, 1024, 257)),
    ("longrope_8_factor8", longrope(10000.0, 8, [1.0, 1.2, 1.5, 2.0], [1.5, 3.0, 8.0, 20.0], 256, 1024, 257,
                                    factor=8.0)),
    ("yarn_16_mscale0", yarn(10000.0, 16, 8.0, 64, beta_fast=0.0, beta_slow=0.0, mscale=0.0,
                             mscale_all_dim=1.0)),
    ("llama3_16", llama3(500000.0, 16, 8.0, 1.0, 4.0, 64)),
    ("llama3_32", llama3(500000.0, 32, 32.0, 1.0, 4.0, 512)),
    ("partial_16_half", default(10000.0, 8)),
]

for name, (inv, att) in CASES:
    vals = ", ".join("%.17g" % v for v in inv)
    print("static const double ref_%s[] = {%s};" % (name, vals))
    print("static const double att_%s = %.17g;" % (name, att))

# cos/sin tables for yarn_16_trunc at positions 7 and 1000, half pairing
inv, att = CASES[7][1]
for m in (7, 1000):
    emb = np.concatenate([m * inv, m * inv])
    print("static const double cos_yarn_%d[] = {%s};" % (m, ", ".join("%.17g" % v for v in np.cos(emb) * att)))
    print("static const double sin_yarn_%d[] = {%s};" % (m, ", ".join("%.17g" % v for v in np.sin(emb) * att)))
