#!/usr/bin/env python3
"""End-to-end check of `pescope dump --format npy`: numpy loads every table
unchanged (dtype, shape, C order), and the numbers equal independent numpy
transcriptions of the reference implementations (the paper / PyTorch
tutorial for sinusoids, HF transformers for RoPE and T5, the ALiBi authors'
get_slopes, MAE's get_2d_sincos_pos_embed). Exit 77 (skip) without numpy."""
import math
import os
import subprocess
import sys
import tempfile

try:
    import numpy as np
except ImportError:
    print("numpy is not installed: skipped")
    sys.exit(77)

BIN = os.environ.get("PESCOPE_BIN", "./build/pescope")
FIX = os.environ.get("PESCOPE_FIXTURES", "tests/fixtures")
failures = 0
checks = 0


def dump(args, dtype="f64"):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.npy")
        cmd = [BIN, "dump", "--format", "npy", "--dtype", dtype, "-o", out] + args
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("%s: %s" % (" ".join(cmd), r.stderr))
        a = np.load(out, allow_pickle=False)
        assert a.flags["C_CONTIGUOUS"]
        return a


def check(name, got, want, atol=1e-12, rtol=1e-12):
    global failures, checks
    checks += 1
    want = np.asarray(want)
    ok = got.shape == want.shape and np.allclose(
        got, want, atol=atol, rtol=rtol, equal_nan=True)
    if not ok:
        failures += 1
        print("FAIL %s: shape %s vs %s" % (name, got.shape, want.shape))
        if got.shape == want.shape:
            i = np.unravel_index(np.nanargmax(np.abs(got - want)), got.shape)
            print("   worst at %s: %r vs %r" % (i, got[i], want[i]))
    else:
        print("ok   %s" % name)


# Sinusoidal, as the PyTorch tutorial's PositionalEncoding writes it.
def sinusoid(n, d, base=10000.0, split=False):
    pos = np.arange(n, dtype=np.float64)[:, None]
    div = np.exp(np.arange(0, d, 2, dtype=np.float64) * (-math.log(base) / d))
    pe = np.zeros((n, d))
    if split:  # GPT-J's create_sinusoidal_positions: sines then cosines
        pe[:, : d // 2] = np.sin(pos * div)
        pe[:, d // 2:] = np.cos(pos * div)
    else:
        pe[:, 0::2] = np.sin(pos * div)
        pe[:, 1::2] = np.cos(pos * div)
    return pe


for n, d, base in [(5, 4, 10000.0), (50, 64, 10000.0), (33, 10, 500.0)]:
    a = dump(["-e", "sinusoidal", "-n", str(n), "-d", str(d), "--base",
              str(base), "--table", "pe"])
    assert a.dtype == np.dtype("<f8")
    check("sinusoidal pe n%d d%d" % (n, d), a, sinusoid(n, d, base), atol=1e-9)
a = dump(["-e", "sinusoidal", "-n", "40", "-d", "16", "--layout", "split",
          "--table", "pe"], "f32")
assert a.dtype == np.dtype("<f4")
check("sinusoidal split f32", a, sinusoid(40, 16, split=True), atol=1e-6)


# tensor2tensor's get_timing_signal_1d (layers/common_attention.py), in
# float64: a geometric sequence of timescales from min_timescale 1 to
# max_timescale (= --base), channels // 2 of them; sines then cosines.
def t2t_timing_signal(length, channels, min_timescale=1.0,
                      max_timescale=1.0e4):
    position = np.arange(length, dtype=np.float64)
    num_timescales = channels // 2
    log_timescale_increment = (
        math.log(float(max_timescale) / float(min_timescale)) /
        (float(num_timescales) - 1))
    inv_timescales = min_timescale * np.exp(
        np.arange(num_timescales, dtype=np.float64) * -log_timescale_increment)
    scaled_time = position[:, None] * inv_timescales[None, :]
    return np.concatenate([np.sin(scaled_time), np.cos(scaled_time)], axis=1)


for n, d, base in [(40, 16, 10000.0), (33, 10, 500.0)]:
    check("sinusoidal t2t n%d d%d base %g" % (n, d, base),
          dump(["-e", "sinusoidal", "-n", str(n), "-d", str(d), "--base",
                str(base), "--layout", "t2t", "--table", "pe"]),
          t2t_timing_signal(n, d, max_timescale=base), atol=1e-12)
pe = t2t_timing_signal(30, 16)
check("sinusoidal t2t similarity", dump(["-n", "30", "-d", "16", "--layout",
      "t2t", "--table", "similarity"]), pe @ pe.T, atol=1e-9)
pe = sinusoid(30, 16)
check("sinusoidal similarity", dump(["-n", "30", "-d", "16", "--table",
      "similarity"]), pe @ pe.T, atol=1e-9)
check("sinusoidal profile", dump(["-n", "30", "-d", "16", "--table",
      "profile"]), (pe @ pe.T)[0], atol=1e-9)


# RoPE as HF: inv_freq = 1 / base^(arange(0, d, 2)/d); emb = cat(freqs, freqs)
def rope_inv(d, base):
    return 1.0 / (base ** (np.arange(0, d, 2, dtype=np.float64) / d))


d, n = 16, 12
inv = rope_inv(d, 10000.0)
check("rope inv_freq", dump(["-e", "rope", "-d", str(d), "--table",
      "inv_freq"]), inv)
freqs = np.outer(np.arange(n, dtype=np.float64), inv)
check("rope angles", dump(["-e", "rope", "-d", str(d), "-n", str(n), "--table",
      "angles"]), freqs)
check("rope cos half", dump(["-e", "rope", "-d", str(d), "-n", str(n),
      "--table", "cos"]), np.cos(np.concatenate([freqs, freqs], 1)), atol=1e-12)
check("rope sin interleaved", dump(["-e", "rope", "-d", str(d), "-n", str(n),
      "--pairing", "interleaved", "--table", "sin"]),
      np.sin(np.repeat(freqs, 2, axis=1)), atol=1e-12)
check("rope wavelength", dump(["-e", "rope", "-d", str(d), "--table",
      "wavelength"]), 2 * math.pi / inv)
check("rope profile", dump(["-e", "rope", "-d", str(d), "-n", str(n),
      "--table", "profile"]), np.cos(freqs).sum(1), atol=1e-9)


# HF _compute_llama3_parameters
def llama3(d, base, factor, low, high, orig):
    inv = rope_inv(d, base)
    low_wl, high_wl = orig / low, orig / high
    wl = 2 * math.pi / inv
    out = np.where(wl > low_wl, inv / factor, inv)
    smooth = (orig / wl - low) / (high - low)
    smoothed = (1 - smooth) * out / factor + smooth * out
    med = ~(wl < high_wl) & ~(wl > low_wl)
    return np.where(med, smoothed, out)


check("rope llama3 (Llama 3.1 preset)",
      dump(["--preset", "llama-3.1-8b", "--table", "inv_freq"]),
      llama3(128, 500000.0, 8.0, 1.0, 4.0, 8192), rtol=1e-12)


# HF _compute_yarn_parameters (truncate=True), attention factor default
def yarn(d, base, factor, orig, bf=32, bs=1, truncate=True):
    def corr_dim(rot):
        return (d * math.log(orig / (rot * 2 * math.pi))) / (2 * math.log(base))
    low, high = corr_dim(bf), corr_dim(bs)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, d - 1)
    if low == high:
        high += 0.001
    ramp = np.clip((np.arange(d // 2, dtype=np.float64) - low) / (high - low),
                   0, 1)
    extra_factor = 1 - ramp
    pos = base ** (np.arange(0, d, 2, dtype=np.float64) / d)
    inter, extra = 1.0 / (factor * pos), 1.0 / pos
    return inter * (1 - extra_factor) + extra * extra_factor, \
        0.1 * math.log(factor) + 1.0


inv_y, att = yarn(128, 1000000.0, 4.0, 32768)
check("rope yarn (Qwen2.5 preset)", dump(["--preset", "qwen2.5-7b-yarn",
      "--table", "inv_freq"]), inv_y)
check("rope yarn attention_scaling", dump(["--preset", "qwen2.5-7b-yarn",
      "--table", "attention_scaling"]), [att])
inv_y, _ = yarn(64, 10000.0, 4.0, 2048, truncate=False)
check("rope yarn no-truncate", dump(["-e", "rope", "-d", "64",
      "--rope-scaling", "yarn", "--factor", "4", "--original-max-pos", "2048",
      "--no-truncate", "--table", "inv_freq"]), inv_y)

# HF reads beta_fast 0, beta_slow 0 (`or 32`, `or 1`) and mscale 0 (`if
# mscale and mscale_all_dim`) as unset
yarn0 = ["-e", "rope", "-d", "64", "--rope-scaling", "yarn", "--factor", "4",
         "--original-max-pos", "2048", "--beta-fast", "0", "--beta-slow", "0",
         "--mscale", "0", "--mscale-all-dim", "2"]
inv_y, att = yarn(64, 10000.0, 4.0, 2048)
check("rope yarn zeros are unset", dump(yarn0 + ["--table", "inv_freq"]), inv_y)
check("rope yarn mscale 0 attention", dump(yarn0 + ["--table",
      "attention_scaling"]), [att])


# HF _compute_longrope_parameters: rope_scaling["factor"], unless the config
# has a top-level original_max_position_embeddings (Phi-3): then
# max_position_embeddings / original_max_position_embeddings
def longrope(d, base, short, long, orig, seq_len, factor):
    att = 1.0 if factor <= 1.0 else math.sqrt(1 + math.log(factor) /
                                              math.log(orig))
    ext = np.array(long if seq_len > orig else short, dtype=np.float64)
    shape = np.arange(0, d, 2, dtype=np.int64).astype(np.float64) / d
    return 1.0 / (ext * base ** shape), att


sf, lf = [1.0, 1.25, 1.5, 2.0], [2.0, 4.0, 8.0, 16.0]
lr = ["-e", "rope", "-d", "8", "--rope-scaling", "longrope", "--short-factor",
      ",".join(map(str, sf)), "--long-factor", ",".join(map(str, lf)),
      "--original-max-pos", "512", "--max-pos", "2048", "-n", "600"]
for extra, factor in (([], 2048 / 512), (["--factor", "16"], 16.0)):
    inv_l, att = longrope(8, 10000.0, sf, lf, 512, 600, factor)
    what = "longrope factor %g%s" % (factor, " (--factor)" if extra else "")
    check(what + " inv_freq", dump(lr + extra + ["--table", "inv_freq"]), inv_l)
    check(what + " attention", dump(lr + extra + ["--table",
          "attention_scaling"]), [att])


# ALiBi authors' get_slopes
def get_slopes(n):
    def pow2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        return [start * start ** i for i in range(n)]
    if math.log2(n).is_integer():
        return pow2(n)
    c = 2 ** math.floor(math.log2(n))
    return pow2(c) + get_slopes(2 * c)[0::2][: n - c]


for h in (8, 12, 112):
    check("alibi slopes %d" % h, dump(["-e", "alibi", "--heads", str(h),
          "--table", "slopes"]), get_slopes(h))
b = dump(["-e", "alibi", "--heads", "12", "-n", "7", "--table", "bias"])
i, j = np.meshgrid(np.arange(7), np.arange(7), indexing="ij")
want = np.array([np.where(j <= i, -m * (i - j), -np.inf) for m in get_slopes(12)])
check("alibi bias causal [12,7,7]", b, want)
b = dump(["-e", "alibi", "--heads", "4", "-n", "5", "--alibi-mode",
          "symmetric", "--table", "bias"])
check("alibi bias symmetric", b,
      np.array([-m * np.abs(i[:5, :5] - j[:5, :5]) for m in get_slopes(4)]))


# T5 _relative_position_bucket with torch's float32 log
def t5(rel, bidirectional=True, nb=32, md=128):
    ret = np.zeros_like(rel)
    if bidirectional:
        nb //= 2
        ret += (rel > 0).astype(np.int64) * nb
        n = np.abs(rel)
    else:
        n = -np.minimum(rel, 0)
    max_exact = nb // 2
    is_small = n < max_exact
    with np.errstate(divide="ignore", invalid="ignore"):
        large = max_exact + (
            np.log(n.astype(np.float32) / np.float32(max_exact))
            / np.float32(math.log(md / max_exact))
            * np.float32(nb - max_exact)).astype(np.int64)
    large = np.minimum(large, nb - 1)
    return ret + np.where(is_small, n, large)


n = 300
q, k = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
for bidi in (True, False):
    args = ["-e", "relative", "-n", str(n), "--table", "buckets"]
    a = dump(args + ([] if bidi else ["--unidirectional"]))
    assert a.dtype == np.dtype("<i8")
    check("t5 buckets %s n%d" % ("bidirectional" if bidi else "unidirectional",
          n), a, t5(k - q, bidi))
check("shaw index", dump(["-e", "relative", "--relative", "shaw",
      "--max-relative", "3", "-n", "9", "--table", "index"]),
      np.clip(k[:9, :9] - q[:9, :9], -3, 3) + 3)
check("nope mask", dump(["-e", "nope", "-n", "6", "--table", "mask"]),
      np.where(k[:6, :6] <= q[:6, :6], 0.0, -np.inf))


# MAE util/pos_embed.py
def mae_1d(D, pos):
    omega = np.arange(D // 2, dtype=np.float64) / (D / 2.0)
    omega = 1.0 / 10000 ** omega
    out = np.einsum("m,d->md", pos.reshape(-1), omega)
    return np.concatenate([np.sin(out), np.cos(out)], axis=1)


def mae_2d(D, gh, gw):
    grid = np.meshgrid(np.arange(gw, dtype=np.float32),
                       np.arange(gh, dtype=np.float32))  # w goes first
    grid = np.stack(grid, axis=0).reshape([2, 1, gh, gw])
    return np.concatenate([mae_1d(D // 2, grid[0]), mae_1d(D // 2, grid[1])], 1)


check("vit2d pe 14x14 d768 (MAE ViT-B/16)", dump(["--preset", "mae-vit-b16",
      "--table", "pe"]), mae_2d(768, 14, 14), atol=1e-12)
check("vit2d pe 3x5 d16", dump(["-e", "vit2d", "--grid", "3x5", "-d", "16",
      "--table", "pe"]), mae_2d(16, 3, 5), atol=1e-12)
# similarity is the raw dot product (as for every encoding); cosine is its
# normalised form, the ViT paper's figure and the TUI's maps
pe = mae_2d(16, 3, 5)
sim = pe @ pe.T
check("vit2d similarity 3x5 d16 (dot product)", dump(["-e", "vit2d", "--grid",
      "3x5", "-d", "16", "--table", "similarity"]), sim, atol=1e-12)
nrm = np.sqrt(np.diag(sim))
check("vit2d cosine 3x5 d16", dump(["-e", "vit2d", "--grid", "3x5", "-d",
      "16", "--table", "cosine"]), sim / np.outer(nrm, nrm), atol=1e-12)

# learned: a numpy-written table round-trips, NaN past max_len
fx = os.path.join(FIX, "f4_3x4.npy")
t = np.load(fx)
a = dump(["-e", "learned", "--table-file", fx, "-n", "5", "--table", "pe"], "f32")
check("learned table-file", a, np.concatenate([t, np.full((2, 4), np.nan)]),
      atol=0, rtol=0)
# an f8 table keeps its float64 values: dump --dtype f64 returns them
fx = os.path.join(FIX, "f8_third_3x4.npy")
t = np.load(fx)
assert (t != t.astype(np.float32)).all()
check("learned f8 table-file, f64 dump", dump(["-e", "learned", "--table-file", fx, "-n", "3",
      "--table", "pe"], "f64"), t, atol=0, rtol=0)
check("learned f8 similarity", dump(["-e", "learned", "--table-file", fx, "-n", "3",
      "--table", "similarity"], "f64"), t @ t.T, atol=0, rtol=1e-15)

print("%d passed, %d failed" % (checks - failures, failures))
sys.exit(1 if failures else 0)
