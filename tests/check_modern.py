#!/usr/bin/env python3
"""End-to-end check of the attention shapes of recent models (attn.h) and
of Qwen2.5-VL's and Qwen3-VL's M-RoPE: `pescope dump --format npy` against
tests/ref/attn_ref.py, independent numpy transcriptions of transformers'
masking_utils.py (sliding_window_overlay, sliding_window_bidirectional_
overlay, chunked_overlay), modeling_llama4.py (the NoPE layers'
attn_scales), modeling_gpt_oss.py (eager_attention_forward's sinks),
modeling_deepseek_v3.py (the decoupled head and its softmax scale),
modeling_qwen2_5_vl.py (get_rope_index's time ids) and modeling_qwen3_vl.py
(apply_interleaved_mrope); and the refusals of bad input (exit 2, the
option named, nothing written). Exit 77 (skip) without numpy."""
import json
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "ref"))
import attn_ref  # noqa: E402
import toy_ref  # noqa: E402

BIN = os.environ.get("PESCOPE_BIN", "./build/pescope")
SRC = os.environ.get("PESCOPE_SRCDIR", os.path.dirname(HERE))
MODELS = os.path.join(SRC, "assets", "models")
failures = 0
checks = 0


def dump(args, dtype="f64"):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.npy")
        cmd = [BIN, "dump", "--format", "npy", "--dtype", dtype, "-o", out] + args
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError("%s: %s" % (" ".join(cmd), r.stderr))
        return np.load(out, allow_pickle=False)


def check(name, got, want, atol=1e-12, rtol=1e-12):
    global failures, checks
    checks += 1
    want = np.asarray(want)
    ok = got.shape == want.shape and np.allclose(got, want, atol=atol, rtol=rtol,
                                                 equal_nan=True)
    if not ok:
        failures += 1
        print("FAIL %s: shape %s vs %s" % (name, got.shape, want.shape))
        if got.shape == want.shape:
            diff = np.where(np.isinf(got) & np.isinf(want) & (got == want), 0,
                            np.abs(got - want))
            i = np.unravel_index(np.nanargmax(diff), got.shape)
            print("   worst at %s: %r vs %r" % (i, got[i], want[i]))
    else:
        print("ok   %s" % name)


def same(name, got, want):
    """Cell by cell, exactly (masks: 0 and -inf)."""
    global failures, checks
    checks += 1
    want = np.asarray(want)
    if got.shape == want.shape and np.array_equal(got, want):
        print("ok   %s" % name)
        return
    failures += 1
    print("FAIL %s: shape %s vs %s" % (name, got.shape, want.shape))
    if got.shape == want.shape:
        bad = np.argwhere(got != want)
        print("   %d cells differ, first at %s: %r vs %r" % (
            len(bad), tuple(bad[0]), got[tuple(bad[0])], want[tuple(bad[0])]))


def refused(name, args, words):
    """Exit 2, every word in the message, nothing written to -o."""
    global failures, checks
    checks += 1
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "out")
        r = subprocess.run([BIN] + args + ["-o", out], capture_output=True,
                           text=True)
        wrote = os.path.exists(out)
    ok = r.returncode == 2 and all(w in r.stderr for w in words) and not wrote
    if ok:
        print("ok   refused %s: %s" % (name, r.stderr.splitlines()[0][:100]))
    else:
        failures += 1
        print("FAIL refused %s: exit %d, wrote %s: %r" % (name, r.returncode,
                                                         wrote, r.stderr))


WORDS = "the dog bit the man".split()

# ---- 1. windows and chunks: the masks cell by cell ------------------------
# at a window edge (W = 4: query 4 no longer sees key 0) and a chunk
# boundary (C = 4: query 4 starts chunk 1), for rope and nope
for enc in ("rope", "nope"):
    for n, w in [(10, 4), (33, 8), (17, 1), (40, 39)]:
        same("%s --window %d -n %d: mask" % (enc, w, n),
             dump(["-e", enc, "-n", str(n), "--window", str(w), "--table", "mask"]),
             attn_ref.mask(n, True, window=w))
    for n, c in [(10, 4), (33, 8), (17, 1), (40, 39)]:
        same("%s --chunk %d -n %d: mask" % (enc, c, n),
             dump(["-e", enc, "-n", str(n), "--chunk", str(c), "--table", "mask"]),
             attn_ref.mask(n, True, chunk=c))
same("nope -n 12: mask (causal)", dump(["-e", "nope", "-n", "12", "--table", "mask"]),
     attn_ref.mask(12, True))
same("rope -n 12: mask (no mask)", dump(["-e", "rope", "-n", "12", "--table", "mask"]),
     attn_ref.mask(12, False))
# the toy: causal with a window or chunks; --mask none makes the window the
# bidirectional overlay (|q - k| <= W) and the chunk the chunk alone
for extra, want in [(["--window", "2"], attn_ref.mask(5, True, window=2)),
                    (["--chunk", "3"], attn_ref.mask(5, True, chunk=3)),
                    (["--window", "2", "--mask", "none"], attn_ref.mask(5, False, window=2)),
                    (["--window", "1", "--mask", "none"], attn_ref.mask(5, False, window=1)),
                    (["--chunk", "2", "--mask", "none"], attn_ref.mask(5, False, chunk=2))]:
    s = dump(["-e", "rope", "-d", "8", "--table", "scores"] + extra)
    same("rope toy scores %s: -inf where the mask hides" % " ".join(extra),
         np.where(np.isinf(s), -np.inf, 0.0), want)
    # and the softmax over what is seen: the scores with the mask added
    x = np.array([toy_ref.embedding(w, 8) for w in WORDS])
    a = dump(["-e", "nope", "-d", "8", "--table", "attention"] + extra)
    check("nope toy attention %s" % " ".join(extra), a,
          toy_ref.softmax_rows(x @ x.T / math.sqrt(8) + want))
# a model's layer: Gemma 3's sliding window of 1024 at its edge
g = dump(["--config", os.path.join(MODELS, "gemma-3-4b.json"), "--layer", "0", "-n", "1030",
          "--table", "mask"], "f32")
same("gemma-3-4b layer 0 (sliding 1024) -n 1030: mask", g.astype(np.float64),
     attn_ref.mask(1030, True, window=1024))
g = dump(["--config", os.path.join(MODELS, "gemma-3-4b.json"), "--layer", "5", "-n", "1030",
          "--table", "mask"], "f32")
same("gemma-3-4b layer 5 (full): mask", g.astype(np.float64), attn_ref.mask(1030, True))

# ---- 2. Llama 4: the NoPE layers' temperature at the floor_scale steps ------
n = 3 * 8192 + 3
t = dump(["--config", os.path.join(MODELS, "llama-4-scout.json"), "--layer", "3", "-n",
          str(n), "--table", "temperature"])
want = attn_ref.llama4_attn_scales(n, 8192, 0.1)
check("llama-4-scout layer 3: temperature (float32 rounding)", t, want.astype(np.float64),
      atol=0, rtol=2e-7)
steps = np.flatnonzero(np.diff(t)) + 1
same("llama-4-scout layer 3: the temperature steps at p + 1 = k 8192", steps,
     np.array([8191, 16383, 24575]))
t = dump(["-e", "nope", "-n", "40", "--temperature", "--floor-scale", "4", "--attn-scale",
          "0.25", "--table", "temperature"])
check("nope --floor-scale 4 --attn-scale 0.25: temperature", t,
      attn_ref.llama4_attn_scales(40, 4, 0.25).astype(np.float64), atol=0, rtol=2e-7)
# the toy's scores of a NoPE layer with temperature: row i times scale(i)
x = np.array([toy_ref.embedding(w, 8) for w in WORDS])
s = dump(["-e", "nope", "-d", "8", "--temperature", "--floor-scale", "2", "--table",
          "scores"])
sc = attn_ref.llama4_attn_scales(5, 2, 0.1).astype(np.float64)
check("nope toy scores, temperature floor 2", s,
      (x @ x.T / math.sqrt(8)) * sc[:, None] + attn_ref.mask(5), rtol=1e-6, atol=1e-9)

# ---- 3. sinks --------------------------------------------------------------
for enc, z, extra in [("nope", 0.5, []), ("nope", -3.0, []), ("nope", 4.0, []),
                      ("rope", 1.25, ["--window", "2"])]:
    args = ["-e", enc, "-d", "8", "--sinks", "9,%g,-1" % z, "--head", "1"] + extra
    sc = dump(args + ["--table", "scores"])
    w, share = attn_ref.gpt_oss_softmax(sc, z)
    check("%s sinks head 1 (%g) %s: sink_share" % (enc, z, " ".join(extra)),
          dump(args + ["--table", "sink_share"]), share)
    check("%s sinks head 1 (%g) %s: attention (rows sum to 1 - share)" % (
        enc, z, " ".join(extra)), dump(args + ["--table", "attention"]), w)
# against the scores computed here too (NoPE, causal)
sc = x @ x.T / math.sqrt(8) + attn_ref.mask(5)
w, share = attn_ref.gpt_oss_softmax(sc, 0.5)
check("nope d 8 sink 0.5: sink_share from numpy's scores",
      dump(["-e", "nope", "-d", "8", "--sinks", "0.5", "--table", "sink_share"]), share)

# ---- 4. decoupled RoPE (DeepSeek's MLA): the score split -------------------
yarn = dict(factor=40.0, original_max_position_embeddings=4096, mscale=1.0,
            mscale_all_dim=1.0)
args = ["-e", "rope", "-d", "16", "--rope-dim", "8", "--pairing", "interleaved",
        "--rope-scaling", "yarn", "--factor", "40", "--original-max-pos", "4096",
        "--mscale", "1", "--mscale-all-dim", "1"]
c, p = attn_ref.decoupled_parts(WORDS, 16, 8, 10000.0, yarn)
cg = dump(args + ["--table", "score_content"])
pg = dump(args + ["--table", "score_position"])
check("rope d 16 rope-dim 8 yarn x40: score_content", cg, c, rtol=1e-12, atol=1e-12)
check("rope d 16 rope-dim 8 yarn x40: score_position", pg, p, rtol=1e-12, atol=1e-12)
check("rope d 16 rope-dim 8 yarn x40: scores = content + position",
      dump(args + ["--table", "scores"]), c + p, rtol=1e-12, atol=1e-12)
c, p = attn_ref.decoupled_parts(WORDS, 16, 8, 10000.0)
check("rope d 16 rope-dim 8: score_position (no scaling)",
      dump(["-e", "rope", "-d", "16", "--nope-dim", "8", "--pairing", "interleaved",
            "--table", "score_position"]), p)
# DeepSeek-V3's own config: 128 + 64, YaRN x40, mscale 1 and 1
with open(os.path.join(MODELS, "deepseek-v3.json")) as f:
    ds = json.load(f)
rs = ds.get("rope_scaling") or {}
d = ds["qk_rope_head_dim"] + ds["qk_nope_head_dim"]
c, p = attn_ref.decoupled_parts(WORDS, d, ds["qk_rope_head_dim"], ds.get("rope_theta", 10000.0),
                                dict(factor=rs["factor"],
                                     original_max_position_embeddings=rs[
                                         "original_max_position_embeddings"],
                                     mscale=rs.get("mscale"),
                                     mscale_all_dim=rs.get("mscale_all_dim"),
                                     beta_fast=rs.get("beta_fast"),
                                     beta_slow=rs.get("beta_slow")))
cfg = ["--config", os.path.join(MODELS, "deepseek-v3.json")]
causal = attn_ref.mask(5, True)  # a decoder's layer: the toy is causal
check("deepseek-v3: score_content", dump(cfg + ["--table", "score_content"]), c + causal,
      rtol=1e-11, atol=1e-11)
check("deepseek-v3: score_position", dump(cfg + ["--table", "score_position"]), p + causal,
      rtol=1e-11, atol=1e-11)

# ---- 5. Qwen2.5-VL's time ids, Qwen3-VL's interleaved sections ------------
for frames, grid, spf, tps in [(3, (2, 2), 1.0, 2), (5, (2, 3), 2.0 / 3.0, 2),
                               (4, (1, 2), 0.5, 2), (6, (2, 2), 0.4, 3.5)]:
    args = ["-e", "mrope", "-d", "16", "--mrope-section", "2,3,3", "--text-before", "3",
            "--text-after", "4", "--frames", str(frames), "--grid", "%dx%d" % grid,
            "--tokens-per-second", repr(tps), "--seconds-per-frame", repr(spf)]
    pos = attn_ref.qwen25vl_positions(3, grid[0], grid[1], frames, 4, spf, tps)
    same("mrope %d frames, %r s/frame x %r tokens/s: positions" % (frames, spf, tps),
         dump(args + ["--table", "positions"]), pos)
# Qwen3-VL: the interleaved angles at a video frame boundary
args = ["-e", "mrope", "-d", "128", "--base", "5000000", "--mrope-section", "24,20,20",
        "--mrope-layout", "interleaved", "--text-before", "2", "--text-after", "3",
        "--frames", "3", "--grid", "2x3"]
pos = attn_ref.qwen25vl_positions(2, 2, 3, 3, 3, 1.0, 0)
pos = np.vstack([pos[:2], pos[2:2 + 18], pos[20:]])
mr = dump(args + ["--table", "positions"])
same("qwen3-vl layout: positions", mr, dump(args[:-2] + ["--frames", "3", "--grid", "2x3",
                                                           "--table", "positions"]))
ang = dump(args + ["--table", "angles"])
want = attn_ref.interleaved_angles(mr, 128, 5000000.0, [24, 20, 20])
check("qwen3-vl interleaved 24,20,20: angles", ang, want, rtol=1e-13, atol=1e-12)
# the frame boundary: tokens 2 + 6 k - 1 and 2 + 6 k differ in t only by a
# frame; their angles differ only in the pairs that follow t
b = 2 + 6
moved = np.flatnonzero(np.abs(ang[b] - ang[b - 1]) > 0)
t_pairs = [j for j in range(64) if not ((j % 3 == 1 and j < 60) or (j % 3 == 2 and j < 60))]
hw_moved = [j for j in moved if j not in t_pairs]
checks += 1
if set(t_pairs) <= set(moved) or not hw_moved:
    print("ok   qwen3-vl: at the frame boundary the t pairs (0, 3, ..., 57, 60-63) turn")
else:
    failures += 1
    print("FAIL qwen3-vl frame boundary: pairs moved %s" % moved)
# the config: Qwen3-VL 8B interleaves, Qwen2.5-VL 7B's frames follow time
q3 = ["--config", os.path.join(MODELS, "qwen3-vl-8b.json"), "--frames", "2", "--grid", "2x2",
      "--text-before", "1", "--text-after", "1"]
mr = dump(q3 + ["--table", "positions"])
check("qwen3-vl-8b config: angles (interleaved)", dump(q3 + ["--table", "angles"]),
      attn_ref.interleaved_angles(mr, 128, 5000000.0, [24, 20, 20]), rtol=1e-13, atol=1e-12)
q25 = ["--config", os.path.join(MODELS, "qwen2.5-vl-7b.json"), "--frames", "4", "--grid",
       "2x2", "--text-before", "2", "--text-after", "2"]
same("qwen2.5-vl-7b config (tokens_per_second 2, 1 s a frame): positions",
     dump(q25 + ["--table", "positions"]), attn_ref.qwen25vl_positions(2, 2, 2, 4, 2, 1.0, 2))

# ---- bad input --------------------------------------------------------------
D = ["dump", "--table", "mask"]
refused("--window 0", D + ["-e", "rope", "--window", "0"], ["--window", "1.."])
refused("--chunk past the sequence", D + ["-e", "nope", "-n", "16", "--chunk", "16"],
        ["--chunk 16", "no effect", "1..15"])
refused("--window past the sequence", D + ["-e", "nope", "-n", "16", "--window", "20"],
        ["--window 20", "no effect", "1..15"])
refused("--window and --chunk", D + ["-e", "rope", "--window", "4", "--chunk", "8"],
        ["--window", "--chunk"])
refused("--sinks of the wrong length", ["dump", "--config", os.path.join(MODELS, "gpt-oss-20b.json"),
                                        "--table", "sink_share", "--sinks", "1,2,3"],
        ["--sinks", "3 numbers", "64"])
refused("--rope-dim + --nope-dim not the head", ["dump", "-e", "rope", "-d", "64",
                                                 "--rope-dim", "16", "--nope-dim", "40",
                                                 "--table", "scores"],
        ["--rope-dim 16", "--nope-dim 40", "64"])
refused("an odd --rope-dim", ["dump", "-e", "rope", "-d", "64", "--rope-dim", "15",
                              "--table", "scores"], ["--rope-dim 15", "even"])
refused("mrope sections short of the pairs", ["dump", "-e", "mrope", "-d", "128",
                                              "--mrope-section", "24,20,19", "--table", "angles"],
        ["--mrope-section", "64"])
refused("interleaved sections past the pairs", ["dump", "-e", "mrope", "-d", "16",
                                                "--mrope-section", "0,4,4",
                                                "--mrope-layout", "interleaved",
                                                "--table", "angles"],
        ["--mrope-section", "interleaved"])
refused("--seconds-per-frame without time", ["dump", "-e", "mrope", "--seconds-per-frame", "2",
                                             "--table", "positions"],
        ["--seconds-per-frame", "--tokens-per-second"])
refused("--window with sinusoidal", D[:1] + ["-e", "sinusoidal", "--window", "4", "--table",
                                             "pe"], ["--window", "rope and nope"])
refused("--temperature with rope", ["dump", "-e", "rope", "--temperature", "--table", "scores"],
        ["--temperature", "nope"])
refused("a temperature table without one", ["dump", "-e", "nope", "--table", "temperature"],
        ["--temperature"])

print("%d checks, %d failed" % (checks, failures))
sys.exit(1 if failures else 0)
