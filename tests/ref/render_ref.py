#!/usr/bin/python3
# Independent reference values for tests/test_palette.c and test_draw.c.
# Run: /usr/bin/python3 tests/ref/render_ref.py
# The xterm palette is rebuilt from xterm's 256colres.pl rules and searched
# by brute force (not per channel as palette.c does); colormap values come
# from matplotlib's own tables.
from matplotlib import _cm, _cm_listed

levels = [0, 95, 135, 175, 215, 255]
pal = {}
for i in range(216):
    pal[16 + i] = (levels[i // 36], levels[(i // 6) % 6], levels[i % 6])
for k in range(24):
    v = 8 + 10 * k
    pal[232 + k] = (v, v, v)
ansi = [0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd, 0x00cdcd,
        0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00, 0x5c5cff, 0xff00ff,
        0x00ffff, 0xffffff]


def rgb(c):
    return ((c >> 16) & 255, (c >> 8) & 255, c & 255)


def d2(a, b):
    return sum((x - y) ** 2 for x, y in zip(a, b))


def near256(c):
    return min(range(16, 256), key=lambda i: (d2(rgb(c), pal[i]), i))


def near16(c):
    return min(range(16), key=lambda i: (d2(rgb(c), rgb(ansi[i])), i))


print("/* 256: color -> index */")
for c in [0x5f87af, 0x080808, 0xffffff, 0x808080, 0x000000, 0x123456,
          0xfa8072, 0x3a3a3c, 0x6c006c, 0x262626, 0xc0ffee]:
    print("{0x%06x, %d}," % (c, near256(c)))
print("/* 16: color -> index */")
for c in [0x000000, 0xffffff, 0xc80000, 0x808080, 0x101090, 0x6060f0,
          0xe0e0e0, 0x00c0c0]:
    print("{0x%06x, %d}," % (c, near16(c)))


def byte(v):
    return max(0, min(255, int(round(v * 255))))


def hexc(t):
    return "0x%02x%02x%02x" % tuple(byte(v) for v in t)


def mid(tab):
    n = len(tab)
    pos = 0.5 * (n - 1)
    i = int(pos)
    f = pos - i
    if i == n - 1:
        return tuple(tab[i])
    return tuple(a + f * (b - a) for a, b in zip(tab[i], tab[i + 1]))


vir = _cm_listed._viridis_data
tw = _cm_listed._twilight_data
rdbu_r = list(reversed(_cm._RdBu_data))
for name, tab in [("viridis", vir), ("twilight", tw), ("rdbu_r", rdbu_r)]:
    print("/* %s: t=0, t=0.5, t=1 */ %s, %s, %s" %
          (name, hexc(tab[0]), hexc(mid(tab)), hexc(tab[-1])))
