#!/usr/bin/python3
"""Independent reference for tests/test_sinusoidal.c: the d = 4 example of
Vaswani et al. 2017, PE(p) = [sin p, cos p, sin(p/100), cos(p/100)]
(omega_1 = 10000^(-2/4) = 1/100), positions 0..4, with Python's math.

Run: /usr/bin/python3 tests/ref/sinusoidal_ref.py
"""
import math

for p in range(5):
    print("{%.17g, %.17g, %.17g, %.17g}," % (math.sin(p), math.cos(p), math.sin(p / 100), math.cos(p / 100)))
