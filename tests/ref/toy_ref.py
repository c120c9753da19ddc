#!/usr/bin/python3
"""Independent reference for tests/test_toy.c and tests/check_numpy.py.

The toy attention, transcribed from its definition in
include/pescope/toy.h (written down before the C code):
- FNV-1a 64 (Fowler, Noll, Vo; the IETF draft draft-eastlake-fnv's
  offset basis 0xcbf29ce484222325 and prime 0x100000001b3),
- splitmix64 (Vigna's reference splitmix64.c, Steele, Lea & Flood 2014),
- Box-Muller (Box & Muller 1958) in float64,
- scores q_i . q_j / sqrt(d) as in Vaswani et al. 2017, eq. (1), with the
  per-encoding q of toy.h, softmax over keys.
Python integers and numpy float64 only; no pescope code.

Run: /usr/bin/python3 tests/ref/toy_ref.py  (prints C initialisers)
"""
import math

import numpy as np

M64 = (1 << 64) - 1


def fnv1a64(data: bytes) -> int:
    h = 0xcbf29ce484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & M64
    return h


def splitmix64(state):
    state = (state + 0x9e3779b97f4a7c15) & M64
    z = state
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M64
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M64
    return state, z ^ (z >> 31)


def embedding(word: str, d: int) -> np.ndarray:
    s = fnv1a64(word.encode())
    out = []
    while len(out) < d:
        s, a = splitmix64(s)
        s, b = splitmix64(s)
        u1 = ((a >> 11) + 1) * 2.0 ** -53
        u2 = ((b >> 11) + 1) * 2.0 ** -53
        r = math.sqrt(-2.0 * math.log(u1))
        out += [r * math.cos(2 * math.pi * u2), r * math.sin(2 * math.pi * u2)]
    return np.array(out[:d])


def softmax_rows(s):
    m = s.max(axis=1, keepdims=True)
    e = np.exp(s - m)
    return e / e.sum(axis=1, keepdims=True)


if __name__ == "__main__":
    print("/* fnv1a64: */")
    for w in ["", "a", "the", "dog"]:
        print('\t{"%s", 0x%016xULL},' % (w, fnv1a64(w.encode())))
    for w in ["the", "dog"]:
        print("/* x(%s)[0..5]: */ {%s}," % (w, ", ".join(
            "%.17g" % v for v in embedding(w, 5))))
    # NoPE, no mask, d = 4: the scores of "the dog bit the man"
    words = "the dog bit the man".split()
    x = np.array([embedding(w, 4) for w in words])
    s = x @ x.T / 2.0
    print("/* nope d4 scores row 1: */ {%s}," % ", ".join("%.17g" % v
                                                       for v in s[1]))
    print("/* nope d4 attention row 1: */ {%s}," % ", ".join(
        "%.17g" % v for v in softmax_rows(s)[1]))
