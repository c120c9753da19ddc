#!/usr/bin/python3
"""Independent reference for tests/test_learned.c: splitmix64 (Vigna's
reference code) feeding Box-Muller (u in (0, 1]: top 53 bits plus one, times
2^-53), scaled by 0.02, first draws for seed 42, as float32.

Run: /usr/bin/python3 tests/ref/learned_ref.py
"""
import math

import numpy as np

M = (1 << 64) - 1


def splitmix64(state):
    state = (state + 0x9E3779B97F4A7C15) & M
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return state, z ^ (z >> 31)


def draws(seed, n):
    st, out = seed, []
    while len(out) < n:
        st, a = splitmix64(st)
        st, b = splitmix64(st)
        u1 = ((a >> 11) + 1) * 2.0 ** -53
        u2 = ((b >> 11) + 1) * 2.0 ** -53
        r = math.sqrt(-2.0 * math.log(u1))
        out += [0.02 * r * math.cos(2 * math.pi * u2), 0.02 * r * math.sin(2 * math.pi * u2)]
    return np.array(out[:n], dtype=np.float32)


print("static const float ref_seed42[] = {%s};" % ", ".join("%.9g" % v for v in draws(42, 7)))
