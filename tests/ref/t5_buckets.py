#!/usr/bin/python3
"""T5 relative position buckets, a numpy float32 transcription of HF
transformers modeling_t5.py T5Attention._relative_position_bucket (torch
computes the log branch on a float32 tensor; the Python float
math.log(max_distance / max_exact) and the int num_buckets - max_exact are
applied in float32; .to(torch.long) truncates).

Prints C arrays of buckets for rel = -300 .. 300 for tests/test_relative.c:
  /usr/bin/python3 tests/ref/t5_buckets.py"""
import math

import numpy as np


def bucket(rel, bidirectional=True, num_buckets=32, max_distance=128):
    rel = np.asarray(rel, dtype=np.int64)
    out = np.zeros_like(rel)
    if bidirectional:
        num_buckets //= 2
        out += (rel > 0).astype(np.int64) * num_buckets
        rel = np.abs(rel)
    else:
        rel = -np.minimum(rel, np.zeros_like(rel))
    max_exact = num_buckets // 2
    is_small = rel < max_exact
    with np.errstate(divide="ignore"):
        x = rel.astype(np.float32) / np.float32(max_exact)
        lg = np.log(x).astype(np.float32)
        q = (lg / np.float32(math.log(max_distance / max_exact))).astype(np.float32)
        r = (q * np.float32(num_buckets - max_exact)).astype(np.float32)
    r = np.where(is_small, 0, r)  # log(0) = -inf only where unused
    large = max_exact + r.astype(np.int64)
    large = np.minimum(large, np.full_like(large, num_buckets - 1))
    out += np.where(is_small, rel, large)
    return out


def carray(name, vals):
    lines = []
    for i in range(0, len(vals), 20):
        lines.append("\t" + ", ".join(str(int(v)) for v in vals[i:i + 20]) + ",")
    return "static const int64_t %s[%d] = {\n%s\n};" % (name, len(vals), "\n".join(lines))


if __name__ == "__main__":
    rel = np.arange(-300, 301)
    print("/* small example */")
    print(bucket(np.array([[0, 1], [-1, 0], [-2, -1]])).tolist())
    print(bucket(np.array([[0, 1], [-1, 0], [-2, -1]]), bidirectional=False).tolist())
    print(carray("t5_bi_32_128", bucket(rel)))
    print(carray("t5_uni_32_128", bucket(rel, bidirectional=False)))
    print(carray("t5_bi_64_50", bucket(rel, True, 64, 50)))
    print(carray("t5_uni_10_20", bucket(rel, False, 10, 20)))
    # rel = -40 here is a knife edge: 16.0 in float32 (bucket 48), but
    # 15.999999999999998 in float64 with numpy's log (bucket 47).
    print(carray("t5_uni_64_50", bucket(rel, False, 64, 50)))
