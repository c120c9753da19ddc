#!/usr/bin/env python3
"""End-to-end check of `pescope dump --format npy`: numpy loads every table
unchanged (dtype, shape, C order), and the numbers equal independent numpy
transcriptions of the reference implementations (the paper / PyTorch
tutorial for sinusoids, HF transformers for RoPE and T5, the ALiBi authors'
get_slopes, MAE's get_2d_sincos_pos_embed), and the teaching tables: the toy
attention (tests/ref/toy_ref.py's generator; Vaswani et al. 2017 eq. 1 with
HF's apply_rotary_pos_emb / rotate_half and GPT-J's rotate_every_two), the
worked example, M_K (solved by least squares from the sinusoids, not from
the rotation formula), RoFormer's decay bound (Su et al. 2021, sec. 3.4.3),
the pairs beyond the training length, ALiBi's recency (a softmax of the
biases, Press et al. 2022 sec. 3) and NoPE's 1/(i+1); the newer
encodings: mrope (HF's get_rope_index and apply_multimodal_rotary_pos_emb
for Qwen2-VL, tests/ref/mrope_ref.py) and xPos (torchscale's
xpos_relative_position.py, tests/ref/xpos_ref.py) and RoPE-ViT
(models/vit_rope.py, tests/ref/rope2d_ref.py). Exit 77 (skip) without
numpy."""
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


# ---- the toy attention and the worked examples ----
# The toy's generator and softmax: tests/ref/toy_ref.py (FNV-1a 64,
# splitmix64, Box-Muller, transcribed from include/pescope/toy.h's text).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "ref"))
import toy_ref  # noqa: E402

TMP = tempfile.mkdtemp(prefix="pescope-numpy-")
SENT = "the dog bit the man"


def toy_x(words, d):
    return np.array([toy_ref.embedding(w, d) for w in words])


def toy_scores(q, mask_causal, bias=None):
    t, d = q.shape
    s = q @ q.T / np.sqrt(d)
    if bias is not None:
        s = s + bias
    if mask_causal:
        s = np.where(np.triu(np.ones((t, t), bool), 1), -np.inf, s)
    return s


# HF modeling_llama.py: rotate_half and apply_rotary_pos_emb, with
# GPT-NeoX's partial rotary (q_rot, q_pass) and GPT-J's rotate_every_two
# for the interleaved pairing; cos and sin times attention_scaling
# (LlamaRotaryEmbedding.forward).
def rotate_half(x):
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def rotate_every_two(x):
    out = np.empty_like(x)
    out[..., 0::2] = -x[..., 1::2]
    out[..., 1::2] = x[..., 0::2]
    return out


def hf_rope(x, pos, inv, att=1.0, interleaved=False):
    rot = 2 * len(inv)
    freqs = np.outer(np.asarray(pos, dtype=np.float64), inv)
    if interleaved:
        emb = np.repeat(freqs, 2, axis=1)
        rotf = rotate_every_two
    else:
        emb = np.concatenate([freqs, freqs], axis=1)
        rotf = rotate_half
    cos, sin = np.cos(emb) * att, np.sin(emb) * att
    xr, xp = x[..., :rot], x[..., rot:]
    return np.concatenate([xr * cos + rotf(xr) * sin, xp], axis=-1)


words = SENT.split()
# token_embeddings: same word, same row
x8 = toy_x(words, 8)
check("toy token_embeddings", dump(["-e", "sinusoidal", "-d", "8", "--table",
      "token_embeddings"]), x8, atol=1e-15, rtol=1e-14)
# sinusoidal: q = x + PE(i) (the tutorial's sinusoid); no mask
q = x8 + sinusoid(5, 8)
check("toy scores sinusoidal", dump(["-d", "8", "--table", "scores"]),
      toy_scores(q, False), atol=1e-13)
check("toy attention sinusoidal", dump(["-d", "8", "--table", "attention"]),
      toy_ref.softmax_rows(toy_scores(q, False)), atol=1e-14)
check("toy attention sinusoidal --mask causal", dump(
      ["-d", "8", "--mask", "causal", "--table", "attention"]),
      toy_ref.softmax_rows(toy_scores(q, True)), atol=1e-14)
# --permute: the permuted sentence in its own order
perm = [0, 4, 2, 3, 1]
qp = toy_x([words[k] for k in perm], 8) + sinusoid(5, 8)
check("toy scores sinusoidal --permute", dump(["-d", "8", "--permute",
      "0,4,2,3,1", "--table", "scores"]), toy_scores(qp, False), atol=1e-13)
check("toy token_embeddings --permute", dump(["-d", "8", "--permute",
      "0,4,2,3,1", "--table", "token_embeddings"]), x8[perm], atol=1e-15,
      rtol=1e-14)
# nope: causal by default; without a mask P A' P^T = A
xn = toy_x(words, 64)
check("toy scores nope (causal)", dump(["-e", "nope", "--table", "scores"]),
      toy_scores(xn, True), atol=1e-13)
a = dump(["-e", "nope", "--mask", "none", "--table", "attention"])
ap = dump(["-e", "nope", "--mask", "none", "--permute", "0,4,2,3,1",
           "--table", "attention"])
inv_p = np.argsort(perm)
check("toy nope --mask none: P A' P^T = A", ap[np.ix_(inv_p, inv_p)], a,
      atol=1e-15)
# learned: q = x + table row (a numpy-written [3, 4] table)
fx = os.path.join(FIX, "f4_3x4.npy")
t = np.load(fx).astype(np.float64)
q = toy_x(["a", "b", "c"], 4) + t
check("toy scores learned (table-file)", dump(["-e", "learned", "--table-file",
      fx, "--tokens", "a b c", "--table", "scores"]), toy_scores(q, False),
      atol=1e-12)
# rope: HF's rotation (yarn's attention scaling, partial rotary,
# interleaved pairs)
inv4, att = yarn(4, 10000.0, 4.0, 16)  # rotary dim int(8 * 0.5) = 4
q = hf_rope(x8, np.arange(5), inv4, att, interleaved=True)
check("toy scores rope (yarn, partial, interleaved)", dump(
      ["-e", "rope", "-d", "8", "--partial-rotary", "0.5",
       "--pairing", "interleaved", "--rope-scaling", "yarn", "--factor", "4",
       "--original-max-pos", "16", "--table", "scores"]),
      toy_scores(q, False), atol=1e-13)
q = hf_rope(toy_x(words, 16), np.arange(5), rope_inv(16, 10000.0))
check("toy attention rope (HF rotate_half)", dump(["-e", "rope", "-d", "16",
      "--table", "attention"]), toy_ref.softmax_rows(toy_scores(q, False)),
      atol=1e-14)
# alibi: x x^T / sqrt(d) + head h's bias -m (i - j), -inf above
m = get_slopes(12)[5]
qi, kj = np.meshgrid(np.arange(5), np.arange(5), indexing="ij")
bias = np.where(kj <= qi, -m * (qi - kj), -np.inf)
check("toy scores alibi head 5 of 12", dump(["-e", "alibi", "--heads", "12",
      "--head", "5", "-d", "8", "--table", "scores"]),
      toy_scores(x8, True, bias), atol=1e-13)
# relative: the learned bias read from --bias-file, [heads, buckets]
rng = np.random.default_rng(11)
b5 = rng.standard_normal((3, 32))
bf = os.path.join(TMP, "t5_bias.npy")
np.save(bf, b5)
tokens = "one two three four five six seven eight nine ten eleven twelve"
tw = tokens.split()
T = len(tw)
qi, kj = np.meshgrid(np.arange(T), np.arange(T), indexing="ij")
check("toy scores t5 (bias file [3, 32], head 2)", dump(
      ["-e", "relative", "-d", "8", "--tokens", tokens, "--bias-file", bf,
       "--head", "2", "--max-distance", "20", "--table", "scores"]),
      toy_scores(toy_x(tw, 8), False, b5[2][t5(kj - qi, md=20)]), atol=1e-13)
bs = np.array([0.5, -1.0, 0.25, 2.0, -0.75], dtype=np.float32)
bf = os.path.join(TMP, "shaw_bias.npy")
np.save(bf, bs)
check("toy attention shaw (bias file [5], K 2)", dump(
      ["-e", "relative", "--relative", "shaw", "--max-relative", "2", "-d",
       "8", "--tokens", tokens, "--bias-file", bf, "--table", "attention"]),
      toy_ref.softmax_rows(toy_scores(toy_x(tw, 8), False,
                                      bs.astype(np.float64)[
                                          np.clip(kj - qi, -2, 2) + 2])),
      atol=1e-14)

# the worked example: x + PE(p) (Vaswani et al. 2017, sec. 3.5)
x = np.array([0.51, -0.22, 0.88, 0.14])
a = dump(["-d", "4", "-n", "7", "--embedding", "0.51,-0.22,0.88,0.14",
          "--table", "sum"])
check("sum sinusoidal d4 (row 0: 0.51 0.78 0.88 1.14)", a,
      x + sinusoid(7, 4), atol=1e-15)
assert np.allclose(a[0], [0.51, 0.78, 0.88, 1.14], atol=1e-15, rtol=0)
fx = os.path.join(FIX, "f4_3x4.npy")
check("sum learned (NaN past the table)", dump(
      ["-e", "learned", "--table-file", fx, "-n", "5", "--embedding",
       "1,2,3,4", "--table", "sum"]),
      np.concatenate([np.array([1, 2, 3, 4]) + np.load(fx).astype(np.float64),
                      np.full((2, 4), np.nan)]), atol=0, rtol=0)
xr = toy_ref.embedding("x", 8)
lst = ",".join("%.17g" % v for v in xr)
check("rotated rope d8 (HF)", dump(["-e", "rope", "-d", "8", "-n", "20",
      "--embedding", lst, "--table", "rotated"]),
      hf_rope(np.tile(xr, (20, 1)), np.arange(20), rope_inv(8, 10000.0)),
      atol=1e-14)
r = dump(["-e", "rope", "-d", "8", "-n", "20", "--embedding", lst, "--table",
          "rotated"])
check("rotated keeps |x|", np.linalg.norm(r, axis=1),
      np.full(20, np.linalg.norm(xr)), atol=0, rtol=1e-15)


# M_K with PE(p + K) = M_K PE(p): solved by least squares from the
# sinusoids themselves (no rotation formula), then the residual
def shift_lstsq(pe, k):
    n = pe.shape[0]
    lo, hi = max(0, -k), min(n, n - k)
    X, Y = pe[lo:hi], pe[lo + k:hi + k]
    return np.linalg.lstsq(X, Y, rcond=None)[0].T  # Y^T = M X^T


for layout, pe in (("interleaved", sinusoid(50, 6, 100.0)),
                   ("split", sinusoid(50, 6, 100.0, split=True)),
                   ("t2t", t2t_timing_signal(50, 6, max_timescale=100.0))):
    for k in (3, -2):
        m = dump(["-d", "6", "-n", "50", "--base", "100", "--layout", layout,
                  "--shift", str(k), "--table", "shift"])
        check("shift %s K %d (least squares)" % (layout, k), m,
              shift_lstsq(pe, k), atol=1e-9)
pe = sinusoid(64, 64)
m = dump(["--shift", "-5", "--table", "shift"])
check("shift interleaved K -5: PE(p - 5) = M PE(p)", pe[5:] @ m.T, pe[:-5],
      atol=1e-13)


# RoFormer sec. 3.4.3: (1/(d/2)) sum_j |sum_{k<j} exp(i r theta_k)|
def roformer_decay(inv, n):
    r = np.arange(n, dtype=np.float64)[:, None]
    s = np.cumsum(np.exp(1j * r * inv[None, :]), axis=1)
    return np.abs(s).mean(axis=1)


check("rope decay d128 n300", dump(["-e", "rope", "-d", "128", "-n", "300",
      "--table", "decay"]), roformer_decay(rope_inv(128, 10000.0), 300),
      atol=1e-11)
check("rope decay llama3 (scaled frequencies)", dump(
      ["--preset", "llama-3.1-8b", "-n", "200", "--table", "decay"]),
      roformer_decay(llama3(128, 500000.0, 8.0, 1.0, 4.0, 8192), 200),
      atol=1e-11)
check("rope decay partial rotary (rotary pairs only)", dump(
      ["-e", "rope", "-d", "64", "--partial-rotary", "0.25", "-n", "100",
       "--table", "decay"]), roformer_decay(rope_inv(16, 10000.0), 100),
      atol=1e-12)

# the pairs whose (unscaled) wavelength exceeds the training length
for args, inv, L in ((["--preset", "llama-2-7b"], rope_inv(128, 1e4), 4096),
                     (["--preset", "llama-3.1-8b"], rope_inv(128, 5e5), 8192)):
    a = dump(args + ["--table", "beyond"])
    assert a.dtype == np.dtype("<i8")
    check("rope beyond %s" % args[1], a,
          np.nonzero(2 * math.pi / inv > L)[0])
a = dump(["-e", "rope", "-d", "16", "--train-len", "1000000", "--table",
          "beyond"])
check("rope beyond: none (shape (0,))", a, np.zeros(0, dtype=np.int64))


# ALiBi's recency: softmax over the biases alone (Press et al. 2022, sec. 3)
# for the last query, averaged over heads
def recency(h, n, symmetric=False):
    i, j = n - 1, np.arange(n)
    out = np.zeros(n)
    for m in get_slopes(h):
        b = -m * np.abs(i - j) if symmetric else np.where(j <= i, -m * (i - j),
                                                          -np.inf)
        e = np.exp(b - b.max())
        out += e / e.sum() / h
    return out


check("alibi recency 12 heads n 50", dump(["-e", "alibi", "--heads", "12", "-n",
      "50", "--table", "recency"]), recency(12, 50), atol=1e-15, rtol=1e-12)
check("alibi recency symmetric", dump(["-e", "alibi", "--heads", "8", "-n",
      "30", "--alibi-mode", "symmetric", "--table", "recency"]),
      recency(8, 30, True), atol=1e-15, rtol=1e-12)
check("nope start_share 1/(i+1)", dump(["-e", "nope", "-n", "40", "--table",
      "start_share"]), 1.0 / np.arange(1, 41))

# ---- mrope (tests/ref/mrope_ref.py: HF's get_rope_index and
# apply_multimodal_rotary_pos_emb for Qwen2-VL) ----
import mrope_ref  # noqa: E402

# the default sequence needs no option: text 8, a 14 x 14 image, text 8
a = dump(["-e", "mrope", "--table", "positions"])
assert a.dtype == np.dtype("<i8")
check("mrope positions (defaults)", a, mrope_ref.positions(8, 14, 14, 1, 8))
for n, g, f, m, what in ((0, (3, 5), 1, 4, "image at the start, odd grid"),
                         (6, (2, 7), 1, 0, "image at the end"),
                         (0, (4, 3), 1, 0, "no text"),
                         (3, (2, 2), 5, 2, "video of 5 frames"),
                         (1, (5, 2), 3, 0, "video at the end"),
                         (2, (1, 9), 2, 3, "one-row frames")):
    args = ["-e", "mrope", "--text-before", str(n), "--grid", "%dx%d" % g,
            "--frames", str(f), "--text-after", str(m)]
    pos = mrope_ref.positions(n, g[0], g[1], f, m)
    check("mrope positions: " + what, dump(args + ["--table", "positions"]),
          pos)
    for d, base, sec in ((16, 100.0, [2, 3, 3]), (32, 1e4, [4, 0, 12])):
        more = args + ["-d", str(d), "--base", str(base), "--mrope-section",
                       ",".join(map(str, sec))]
        c, s_ = mrope_ref.cos_sin(pos, d, base, sec)
        check("mrope cos d%d %s" % (d, what), dump(more + ["--table", "cos"]),
              c, atol=1e-12)
        check("mrope sin d%d %s" % (d, what), dump(more + ["--table", "sin"]),
              s_, atol=1e-12)
        check("mrope angles d%d %s" % (d, what), dump(more + ["--table",
              "angles"]), mrope_ref.angles(pos, d, base, sec), rtol=1e-14)
        check("mrope similarity d%d %s" % (d, what), dump(
              more + ["--table", "similarity"]),
              mrope_ref.scores(pos, d, base, sec), atol=1e-11)
# Qwen2-VL-7B as its preset says: head_dim 128, theta 1e6, 16,24,24
pos = mrope_ref.positions(8, 14, 14, 1, 8)
c, s_ = mrope_ref.cos_sin(pos, 128, 1e6, [16, 24, 24])
check("mrope cos (qwen2-vl-7b preset)", dump(["--preset", "qwen2-vl-7b",
      "--table", "cos"]), c, atol=1e-12)
check("mrope defaults are the preset's", dump(["-e", "mrope", "--table",
      "sin"]), s_, atol=1e-12)
check("mrope profile (qwen2-vl-7b preset)", dump(["--preset", "qwen2-vl-7b",
      "--table", "profile"]), mrope_ref.scores(pos, 128, 1e6,
                                               [16, 24, 24])[0], atol=1e-10)
# sections that do not cover the pairs are refused, as HF's split fails
r = subprocess.run([BIN, "dump", "-e", "mrope", "--mrope-section",
                    "16,24,23", "--table", "cos"], capture_output=True,
                   text=True)
checks += 1
if r.returncode != 2 or "--mrope-section 16,24,23" not in r.stderr:
    failures += 1
    print("FAIL mrope sections 16,24,23 refused: %d %s" % (r.returncode,
                                                          r.stderr))
else:
    print("ok   mrope sections that miss a pair are refused")


# ---- xpos (tests/ref/xpos_ref.py: torchscale's xpos_relative_position.py,
# q = xpos(q, offset), k = xpos(k, 0, downscale=True)) ----
import xpos_ref  # noqa: E402

for n, d, g, off, base in ((64, 64, 512, 0, 10000.0),   # the defaults
                           (33, 16, 512, 0, 10000.0),   # odd n: min_pos -17
                           (40, 8, 16, 0, 10000.0),     # a faster decay
                           (25, 12, 2, 0, 500.0),       # scale base 2
                           (9, 8, 64, 4, 10000.0),      # an offset
                           (1, 4, 512, 6, 10000.0)):    # one query, K 6
    args = ["-e", "xpos", "-n", str(n), "-d", str(d), "--xpos-scale-base",
            str(g), "--xpos-offset", str(off), "--base", str(base)]
    what = "xpos n%d d%d gamma %g offset %d" % (n, d, g, off)
    sc, c, s_ = xpos_ref.query_tables(n, d, g, off, base)
    check(what + " scale", dump(args + ["--table", "scale"]), sc, atol=1e-15,
          rtol=1e-13)
    check(what + " cos", dump(args + ["--table", "cos"]), c, atol=1e-13,
          rtol=1e-12)
    check(what + " sin", dump(args + ["--table", "sin"]), s_, atol=1e-13,
          rtol=1e-12)
    check(what + " similarity", dump(args + ["--table", "similarity"]),
          xpos_ref.scores(n, d, g, off, base), atol=1e-11, rtol=1e-12)
check("xpos profile (defaults)", dump(["-e", "xpos", "--table", "profile"]),
      xpos_ref.scores(64, 64)[0], atol=1e-11)

# ---- rope2d (tests/ref/rope2d_ref.py: RoPE-ViT's models/vit_rope.py) ----
import rope2d_ref  # noqa: E402

# axial: compute_axial_cis; the preset is RoPE-ViT-B/16's
a = rope2d_ref.axial_angles(64, 14, 14, 100.0)
check("rope2d axial angles (rope-vit-b16-axial preset)", dump(
      ["--preset", "rope-vit-b16-axial", "--table", "angles"]), a, rtol=1e-15)
cis = rope2d_ref.compute_axial_cis(64, 14, 14, 100.0)
check("rope2d axial cos = freqs_cis.real", dump(["-e", "rope2d", "--table",
      "cos"]), cis.real, atol=1e-15)
check("rope2d axial sin = freqs_cis.imag", dump(["-e", "rope2d", "--table",
      "sin"]), cis.imag, atol=1e-15)
for gh, gw, d, base in ((3, 5, 16, 100.0), (7, 2, 8, 10.0), (1, 9, 12, 100.0)):
    a = rope2d_ref.axial_angles(d, gw, gh, base)
    args = ["-e", "rope2d", "--grid", "%dx%d" % (gh, gw), "-d", str(d),
            "--base", str(base)]
    check("rope2d axial %dx%d d%d base %g angles" % (gh, gw, d, base),
          dump(args + ["--table", "angles"]), a, rtol=1e-15)
    check("rope2d axial %dx%d d%d similarity" % (gh, gw, d),
          dump(args + ["--table", "similarity"]), rope2d_ref.scores(a),
          atol=1e-12)
# mixed: init_random_2d_freqs after torch.manual_seed(0), the head --head
f = rope2d_ref.init_random_2d_freqs(16, 4, 10.0)
t_x, t_y = rope2d_ref.init_t_xy(5, 3)
ang = rope2d_ref.compute_mixed_cis(rope2d_ref.model_freqs([f]), t_x, t_y, 4)
for h in (0, 3):
    args = ["-e", "rope2d", "--rope2d", "mixed", "--grid", "3x5", "-d", "16",
            "--head", str(h)]
    check("rope2d mixed init head %d angles" % h, dump(args + ["--table",
          "angles"]), ang[0, h], atol=1e-14)
    check("rope2d mixed init head %d similarity" % h, dump(
          args + ["--table", "similarity"]), rope2d_ref.scores(ang[0, h]),
          atol=1e-12)
# mixed from a file: [2, heads, d/2], and the model's freqs [2, depth,
# heads d/2] with --layer picking the block
rng = np.random.default_rng(15)
blocks = [rope2d_ref.init_random_2d_freqs(8, 3, 10.0) +
          0.01 * rng.standard_normal((2, 3, 4)) for _ in range(2)]
fh = os.path.join(TMP, "freqs_heads.npy")
np.save(fh, blocks[1].astype(np.float32))
fm = os.path.join(TMP, "freqs_model.npy")
model = rope2d_ref.model_freqs(blocks)
np.save(fm, model)
t_x, t_y = rope2d_ref.init_t_xy(4, 3)
ang = rope2d_ref.compute_mixed_cis(model, t_x, t_y, 3)
check("rope2d mixed [2, heads, d/2] file, head 2 (f4)", dump(
      ["-e", "rope2d", "--rope2d", "mixed", "--grid", "3x4", "-d", "8",
       "--freqs-file", fh, "--head", "2", "--table", "angles"]),
      rope2d_ref.compute_mixed_cis(
          rope2d_ref.model_freqs([blocks[1].astype(np.float32)
                                  .astype(np.float64)]), t_x, t_y, 3)[0, 2],
      atol=1e-15)
check("rope2d mixed [2, depth, heads d/2] file, layer 1 head 1", dump(
      ["-e", "rope2d", "--rope2d", "mixed", "--grid", "3x4", "-d", "8",
       "--freqs-file", fm, "--layer", "1", "--head", "1", "--table",
       "similarity"]), rope2d_ref.scores(ang[1, 1]), atol=1e-12)
fb = os.path.join(TMP, "freqs_bad.npy")
np.save(fb, np.zeros((3, 4)))
r = subprocess.run([BIN, "dump", "-e", "rope2d", "--rope2d", "mixed", "-d",
                    "8", "--freqs-file", fb, "--table", "angles"],
                   capture_output=True, text=True)
checks += 1
if r.returncode != 2 or "[3, 4]" not in r.stderr:
    failures += 1
    print("FAIL rope2d freqs [3, 4] refused: %d %s" % (r.returncode, r.stderr))
else:
    print("ok   rope2d mixed refuses a [3, 4] freqs file")

# float32 dumps: NPY's rows are written as floats with no double in between
# (and sines and cosines by angle addition, wave.h); they are the floats of
# the values CSV prints (%.9g, which a float32 reads back exactly), and
# within an ulp of the correctly rounded float32 of a float64 reference.


def dump_csv(args):
    r = subprocess.run([BIN, "dump", "--format", "csv", "--dtype", "f32"] +
                       args, capture_output=True, text=True, check=True)
    return np.loadtxt(r.stdout.splitlines(), delimiter=",", ndmin=2)


def check_same32(name, npy, csv):
    global failures, checks
    checks += 1
    a = np.asarray(npy, dtype=np.float32).reshape(csv.shape)
    b = csv.astype(np.float32)
    same = a.view(np.uint32) == b.view(np.uint32)
    if not same.all():
        failures += 1
        i = np.unravel_index(np.argmin(same), a.shape)
        print("FAIL %s: NPY %r vs CSV %r at %s" % (name, a[i], b[i], i))
    else:
        print("ok   %s" % name)


def check_ulp32(name, got, want):
    global failures, checks
    checks += 1
    w32 = np.asarray(want, dtype=np.float32)
    ulp = np.spacing(np.abs(w32)).astype(np.float64)
    err = np.abs(got.astype(np.float64) - w32.astype(np.float64)) / ulp
    if got.shape != w32.shape or np.max(err) > 1.0:
        failures += 1
        print("FAIL %s: %g float32 ulps" % (name, np.max(err)))
    else:
        print("ok   %s (%d of %d not the correctly rounded float)"
              % (name, int(np.count_nonzero(err)), err.size))


n32, d32 = 700, 96
for args in (["-e", "sinusoidal", "-n", str(n32), "-d", str(d32), "-t", "pe"],
             ["-e", "sinusoidal", "-n", str(n32), "-d", str(d32), "--layout",
              "split", "-t", "pe"],
             ["-e", "rope", "-n", str(n32), "-d", str(d32), "-t", "cos"],
             ["-e", "rope", "-n", str(n32), "-d", str(d32), "--pairing",
              "interleaved", "--partial-rotary", "0.5", "-t", "sin"],
             ["-e", "rope", "-n", str(n32), "-d", str(d32), "-t", "angles"],
             ["-e", "sinusoidal", "-n", "300", "-d", "32", "-t",
              "similarity"],
             ["-e", "vit2d", "--grid", "12x9", "-d", "64", "-t", "pe"],
             ["-e", "nope", "-n", "300", "-t", "mask"],
             ["-e", "alibi", "-n", "200", "--heads", "6", "-t", "bias"],
             ["-e", "alibi", "-n", "200", "--heads", "6", "--alibi-mode",
              "symmetric", "-t", "bias"]):
    a = dump(args, "f32")
    assert a.dtype == np.dtype("<f4")
    if a.ndim == 3:
        for h in (0, a.shape[0] - 1):
            check_same32(" ".join(args[1::2]) + " head %d: NPY = CSV" % h,
                         a[h], dump_csv(args + ["--head", str(h)]))
    else:
        check_same32(" ".join(args[1::2]) + ": NPY = CSV", a, dump_csv(args))
check_ulp32("sinusoidal pe f32", dump(["-e", "sinusoidal", "-n", str(n32),
            "-d", str(d32), "-t", "pe"], "f32"), sinusoid(n32, d32))
inv32 = 1.0 / (10000.0 ** (np.arange(0, d32, 2, dtype=np.float64) / d32))
f32 = np.outer(np.arange(n32, dtype=np.float64), inv32)
check_ulp32("rope cos f32", dump(["-e", "rope", "-n", str(n32), "-d",
            str(d32), "-t", "cos"], "f32"), np.cos(np.concatenate([f32, f32], 1)))
check_ulp32("rope angles f32", dump(["-e", "rope", "-n", str(n32), "-d",
            str(d32), "-t", "angles"], "f32"), f32)

# ---- --train (tests/ref/train.py: train.h transcribed, complex-step
# gradients): the table and the losses after three Adam steps ----
import train as train_ref  # noqa: E402
# the command line's run: batch 32, sigma 2 (the defaults); n 6, d 4, V 5
for task, opts, cfg in [
        ("offset:2", ["--heads", "2", "--vocab", "5"],
         train_ref.base("offset", k=2, heads=2, batch=32)),
        ("reverse", ["-n", "7", "--vocab", "5"],
         train_ref.base("reverse", n=7, heads=1, batch=32)),
        ("distance", [], train_ref.base("distance", sigma=2.0))]:
    n, d = cfg["n"], cfg["d"]
    args = ["-e", "learned", "--train", task, "-n", str(n), "-d", str(d),
            "--seed", str(cfg["seed"]), "--train-steps", "3"] + opts
    ref = train_ref.run(cfg)
    check("train %s: the table after 3 steps" % task,
          dump(args + ["--table", "pe"]),
          ref["params"][2][:n * d].reshape(n, d), atol=1e-9, rtol=0)
    check("train %s: the losses of steps 1..3" % task,
          dump(args + ["--table", "loss"])[1:, 1], np.array(ref["loss"]),
          atol=0, rtol=1e-12)

for f in os.listdir(TMP):
    os.unlink(os.path.join(TMP, f))
os.rmdir(TMP)

print("%d passed, %d failed" % (checks - failures, failures))
sys.exit(1 if failures else 0)
