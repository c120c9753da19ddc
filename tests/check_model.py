#!/usr/bin/env python3
"""The model loader against transformers v5, for every shipped config
(assets/models/*.json): the layer list (type, rotation, span, window,
chunk, head and rotary dims, encoding) and, for every rotating layer, its
inv_freq, the attention scaling HF multiplies cos and sin by, cos at a few
positions and the softmax scale, each equal to tests/ref/hf_rope_ref.py's
numpy transcription of modeling_rope_utils.py and the model's own files.
The loader is run through tests/model_probe (PESCOPE_MODEL_PROBE). Then
the refusals: malformed JSON with its line and column, a key of the wrong
type naming its path and value, a directory and an oversized file refused
before reading. Exit 77 (skip) without numpy."""
import json
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
import hf_rope_ref  # noqa: E402

PROBE = os.environ.get("PESCOPE_MODEL_PROBE", "./build/tests/model_probe")
BIN = os.environ.get("PESCOPE_BIN", "./build/pescope")
SRC = os.environ.get("PESCOPE_SRCDIR", os.path.dirname(HERE))
MODELS = os.path.join(SRC, "assets", "models")
failures = 0
checks = 0

# What each config has that pescope does not model (noted, not dropped).
NOTES = {}  # Llama 4's attn_temperature_tuning is modelled (attn.h)


def fail(msg):
    global failures
    failures += 1
    print("FAIL " + msg)


def probe(path, positions=()):
    r = subprocess.run([PROBE, path] + [str(p) for p in positions],
                       capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def close(name, got, want, rtol, atol):
    global checks
    checks += 1
    got, want = np.asarray(got, dtype=np.float64), np.asarray(want, dtype=np.float64)
    if got.shape != want.shape or not np.allclose(got, want, rtol=rtol, atol=atol):
        if got.shape == want.shape:
            i = int(np.argmax(np.abs(got - want)))
            fail("%s: worst at %d: %r vs %r" % (name, i, got.flat[i], want.flat[i]))
        else:
            fail("%s: shape %s vs %s" % (name, got.shape, want.shape))
        return False
    return True


def same(name, got, want):
    global checks
    checks += 1
    if got != want:
        fail("%s: %r, want %r" % (name, got, want))
        return False
    return True


for fname in sorted(os.listdir(MODELS)):
    if not fname.endswith(".json"):
        continue
    path = os.path.join(MODELS, fname)
    want, facts = hf_rope_ref.model_layers(path)
    n = facts.get("seq_len") or facts.get("max_pos") or 64
    positions = sorted({0, 1, 7, 1000 % n, n - 1})
    rc, out, err = probe(path, positions)
    if rc != 0:
        fail("%s: probe exit %d: %s" % (fname, rc, err.strip()))
        continue
    lines = [json.loads(x) for x in out.splitlines()]
    head, got = lines[0], lines[1:]
    ok = same("%s: layers" % fname, len(got), len(want))
    same("%s: notes" % fname, head["notes"], NOTES.get(fname, []))
    for i, (g, w) in enumerate(zip(got, want)):
        tag = "%s layer %d" % (fname, i)
        for key in ("type", "enc", "causal", "span", "window", "chunk", "head_dim",
                    "heads", "buckets", "max_distance", "bidirectional", "max_len", "d",
                    "rotates", "pairing", "rope_type", "rotary_dim"):
            if key in w:
                ok &= same("%s %s" % (tag, key), g.get(key, 0 if key in ("window", "chunk") else None), w[key])
        if "softmax_scale" in w:
            ok &= close(tag + " softmax_scale", g["softmax_scale"], w["softmax_scale"], 1e-15, 0)
        if "inv_freq" in w:
            ok &= close(tag + " base", g["base"], w["base"], 0, 0)
            ok &= close(tag + " inv_freq", g["inv_freq"], w["inv_freq"], 1e-13, 0)
            ok &= close(tag + " attention_scaling", g["attention_scaling"],
                        w["attention_scaling"], 1e-15, 0)
            for p in positions:
                ref = hf_rope_ref.cos_row(w["inv_freq"], w["attention_scaling"], w["pairing"], p)
                # the angle p w is formed in double by both: an ulp of
                # inv_freq is p ulps of the angle
                ok &= close("%s cos[%d]" % (tag, p), g["cos"][str(p)], ref, 0,
                            4e-16 * max(p, 1) * 8)
    print(("ok   " if ok else "FAIL ") + "%s: %d layers" % (fname, len(got)))


# ---- the command line: dump --config F --layer L, dump --table layers,
# pescope model ---------------------------------------------------------------

def run(args):
    return subprocess.run([BIN] + args, capture_output=True, text=True)


def dump_npy(args):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "t.npy")
        r = run(["dump", "--format", "npy", "--dtype", "f64", "-o", out] + args)
        if r.returncode != 0:
            raise RuntimeError("%s: %s" % (" ".join(args), r.stderr))
        return np.load(out, allow_pickle=False)


for fname in sorted(os.listdir(MODELS)):
    if not fname.endswith(".json"):
        continue
    path = os.path.join(MODELS, fname)
    want, facts = hf_rope_ref.model_layers(path)
    seen = set()
    for i, w in enumerate(want):
        if "inv_freq" not in w or w["enc"] != "rope":
            continue  # M-RoPE's tables are by token (check_numpy.py)
        key = (w["type"], w["rope_type"], w["base"])
        if key in seen:
            continue
        seen.add(key)
        tag = "%s dump --layer %d" % (fname, i)
        close(tag + " inv_freq", dump_npy(["--config", path, "--layer", str(i),
                                           "--table", "inv_freq"]), w["inv_freq"], 1e-13, 0)
        if w["rope_type"] in ("longrope", "dynamic"):
            continue  # their frequencies follow -n; the probe checks them
        cos = dump_npy(["--config", path, "--layer", str(i), "--table", "cos", "-n", "8"])
        ref = np.array([hf_rope_ref.cos_row(w["inv_freq"], w["attention_scaling"],
                                            w["pairing"], p) for p in range(8)])
        close(tag + " cos", cos, ref, 0, 1e-14)
    # the strip as CSV: a line per layer, types and spans as the config's
    r = run(["dump", "--config", path, "--table", "layers"])
    rows = r.stdout.splitlines()
    ok = same("%s dump --table layers: exit" % fname, r.returncode, 0)
    ok &= same("%s dump --table layers: lines" % fname, len(rows), len(want) + 1)
    for line, w in zip(rows[1:], want):
        cells = line.split(",")
        ok &= same("%s layers csv type" % fname, cells[1], w["type"])
        if "span" in w:
            ok &= same("%s layers csv span" % fname, cells[6], w["span"])
    print(("ok   " if ok else "FAIL ") + "%s: dump --table layers" % fname)

# the model view's strip (pescope model's, as the tab draws it) against the
# config's layer list: a letter a layer, the same letter for layers the
# reference reads alike (every field, inv_freq included), letters in order
# of first appearance


def canon(v):
    if isinstance(v, np.ndarray):
        return tuple(v.tolist())
    if isinstance(v, (list, tuple)):
        return tuple(canon(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, canon(x)) for k, x in v.items()))
    return v


LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
for fname in sorted(os.listdir(MODELS)):
    if not fname.endswith(".json"):
        continue
    path = os.path.join(MODELS, fname)
    want, _ = hf_rope_ref.model_layers(path)
    kinds, letters = [], ""
    for w in want:
        k = canon(w)
        if k not in kinds:
            kinds.append(k)
        letters += LETTERS[kinds.index(k)] if kinds.index(k) < len(LETTERS) else "+"
    r = run(["model", path])
    lines = r.stdout.splitlines()
    got = ""
    start = next((k for k, line in enumerate(lines) if line.startswith("layers  ")), None)
    for line in lines[start:] if start is not None else []:
        if line == "":
            break
        if line.startswith(" " * 8) and line[8:] and line[8:].strip("+").isalpha():
            got += line[8:]
    if same("%s: pescope model's strip" % fname, got, letters):
        print("ok   %s: strip of %d kinds" % (fname, len(kinds)))


# a NoPE layer has no RoPE table, and says what it is
r = run(["dump", "--config", os.path.join(MODELS, "llama-4-scout.json"), "--layer", "3",
         "--table", "cos"])
checks += 1
if r.returncode != 2 or "--layer 3 of" not in r.stderr or "NoPE" not in r.stderr:
    fail("NoPE layer's cos: exit %d %r" % (r.returncode, r.stderr))
else:
    print("ok   refused: " + r.stderr.splitlines()[0])
r = run(["dump", "--config", os.path.join(MODELS, "gemma-3-4b.json"), "--layer", "34",
         "--table", "cos"])
checks += 1
if r.returncode != 2 or "has 34 layers (0 to 33)" not in r.stderr:
    fail("--layer past the layers: exit %d %r" % (r.returncode, r.stderr))
else:
    print("ok   refused: " + r.stderr.splitlines()[0])
# the unmodelled keys are warned about: a config with a key pescope does not
# draw (use_bidirectional_attention, drawn causal)
with tempfile.TemporaryDirectory() as d:
    with open(os.path.join(MODELS, "llama-3.1-8b.json")) as f:
        c = json.load(f)
    c["use_bidirectional_attention"] = True
    noted = os.path.join(d, "noted.json")
    with open(noted, "w") as f:
        json.dump(c, f)
    r = run(["dump", "--config", noted, "--table", "inv_freq"])
checks += 1
if r.returncode != 0 or "warning:" not in r.stderr or "use_bidirectional_attention" not in r.stderr:
    fail("a note's warning: exit %d %r" % (r.returncode, r.stderr))
else:
    print("ok   warned: " + r.stderr.splitlines()[0][:90])
# pescope model prints the strip in 80 columns
r = run(["model", os.path.join(MODELS, "gemma-3-4b.json")])
checks += 1
strip = "".join("B" if (i + 1) % 6 == 0 else "A" for i in range(34))
if r.returncode != 0 or strip not in r.stdout or max(len(x) for x in r.stdout.splitlines()) > 80:
    fail("pescope model: exit %d %r" % (r.returncode, r.stdout[:200]))
else:
    print("ok   pescope model gemma-3-4b.json: %d lines, at most 80 columns"
          % len(r.stdout.splitlines()))


# ---- refusals ----------------------------------------------------------------

def refused(name, text, expect, suffix=".json"):
    global checks
    checks += 1
    with tempfile.NamedTemporaryFile("w", suffix=suffix, delete=False) as f:
        f.write(text)
        p = f.name
    try:
        rc, out, err = probe(p)
    finally:
        os.unlink(p)
    err = err.replace(p, "F")
    if rc != 2 or expect not in err:
        fail("%s: exit %d, %r (want %r)" % (name, rc, err.strip(), expect))
    else:
        print("ok   refused: %s: %s" % (name, err.strip()))


refused("malformed JSON", '{\n  "model_type": "llama",\n  "rope_theta": 10000\n  "x": 1\n}\n',
        "F:4:5: ")
refused("factor as a string", json.dumps({
    "model_type": "gemma3_text", "num_hidden_layers": 6, "head_dim": 256,
    "hidden_size": 2560, "num_attention_heads": 8, "max_position_embeddings": 131072,
    "sliding_window": 1024,
    "rope_parameters": {"full_attention": {"rope_type": "linear", "factor": "8"},
                        "sliding_attention": {"rope_type": "default"}}}),
    'F: rope_parameters.full_attention.factor: must be a number >= 1, got "8"')
refused("layer_types of the wrong length", json.dumps({
    "model_type": "gpt_oss", "num_hidden_layers": 4, "head_dim": 64,
    "hidden_size": 2880, "num_attention_heads": 64, "max_position_embeddings": 4096,
    "sliding_window": 128, "layer_types": ["full_attention"] * 3}),
    "F: layer_types: must have num_hidden_layers (4) entries, got 3")
refused("unknown model without rope keys", json.dumps({"model_type": "mamba", "num_hidden_layers": 4}),
        'F: model_type "mamba": pescope does not know this model')
refused("an array", "[1, 2]", "F: the config must be a JSON object")

checks += 1
rc, out, err = probe(HERE)
if rc != 2 or "not a regular file" not in err:
    fail("a directory: exit %d %r" % (rc, err))
else:
    print("ok   refused: a directory: " + err.strip().replace(HERE, "DIR"))
checks += 1
with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
    f.write("{" + " " * (4 << 20) + "}")
    big = f.name
rc, out, err = probe(big)
os.unlink(big)
if rc != 2 or "more than 4 MiB" not in err:
    fail("over 4 MiB: exit %d %r" % (rc, err))
else:
    print("ok   refused: over 4 MiB")
checks += 1
rc, out, err = probe("/dev/zero")
if rc != 2 or "not a regular file" not in err:
    fail("a device: exit %d %r" % (rc, err))
else:
    print("ok   refused: a device")

print("%d checks, %d failed" % (checks, failures))
sys.exit(1 if failures else 0)
