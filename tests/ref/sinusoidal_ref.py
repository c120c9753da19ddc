#!/usr/bin/python3
"""Independent reference for tests/test_sinusoidal.c.

1. The d = 4 example of Vaswani et al. 2017, PE(p) = [sin p, cos p,
   sin(p/100), cos(p/100)] (omega_1 = 10000^(-2/4) = 1/100), positions 0..4,
   with Python's math.
2. tensor2tensor's get_timing_signal_1d (tensor2tensor/layers/common_attention.py)
   transcribed with Python floats: num_timescales = channels // 2,
   log_timescale_increment = log(max_timescale / min_timescale) /
   (num_timescales - 1), inv_timescales = min_timescale *
   exp(i * -log_timescale_increment), signal = [sin(p inv) ..., cos(p inv) ...],
   for channels 8, max_timescale 10000 and 500, positions 0, 1, 5, 1000.

Run: /usr/bin/python3 tests/ref/sinusoidal_ref.py
"""
import math

for p in range(5):
    print("{%.17g, %.17g, %.17g, %.17g}," % (math.sin(p), math.cos(p), math.sin(p / 100), math.cos(p / 100)))


def t2t(p, channels, max_timescale, min_timescale=1.0):
    num_timescales = channels // 2
    inc = math.log(float(max_timescale) / float(min_timescale)) / (num_timescales - 1)
    inv = [min_timescale * math.exp(i * -inc) for i in range(num_timescales)]
    return [math.sin(p * w) for w in inv] + [math.cos(p * w) for w in inv]


for base in (10000.0, 500.0):
    print("t2t d 8 base %g" % base)
    for p in (0, 1, 5, 1000):
        print("{" + ", ".join("%.17g" % v for v in t2t(p, 8, base)) + "},")
