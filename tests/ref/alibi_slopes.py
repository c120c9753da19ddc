#!/usr/bin/python3
"""ALiBi head slopes, transcribed from the authors' get_slopes
(ofirpress/attention_with_linear_biases, fairseq/models/transformer.py).
Prints C initializers for tests/test_alibi.c:  /usr/bin/python3 tests/ref/alibi_slopes.py"""
import math


def get_slopes(n):
    def get_slopes_power_of_2(n):
        start = (2**(-2**-(math.log2(n)-3)))
        ratio = start
        return [start*ratio**i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest_power_of_2 = 2**math.floor(math.log2(n))
    return (get_slopes_power_of_2(closest_power_of_2)
            + get_slopes(2*closest_power_of_2)[0::2][:n-closest_power_of_2])


for h in (8, 12, 6, 1, 3, 112):
    s = get_slopes(h)
    print("/* h = %d: %d slopes */" % (h, len(s)))
    if h == 112:
        print("first %r last %r s[64] %r" % (s[0], s[-1], s[64]))
    else:
        print("{" + ", ".join(repr(x) for x in s) + "}")
