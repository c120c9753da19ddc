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
SRC = os.environ.get("PESCOPE_SRCDIR", os.path.dirname(HERE))
MODELS = os.path.join(SRC, "assets", "models")
failures = 0
checks = 0

# What each config has that pescope does not model (noted, not dropped).
NOTES = {
    "llama-4-scout.json": ["text_config.attn_temperature_tuning"],
}


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
