"""The cells of a `pescope snapshot -f ansi` frame, and the colors a
vector writer must paint for them: the reference the SVG, HTML and PDF
checks compare against, computed here from the ANSI bytes (ECMA-48 SGR,
xterm's documented palette), not from pescope's writers.
"""
import re
import subprocess

SGR = re.compile(r"\x1b\[([0-9;]*)m")

# Page colors: what the terminal's default stands for in each theme.
PAGE = {"dark": (0xd0d0d0, 0x1c1c1c), "light": (0x1c1c1c, 0xffffff)}

# xterm's 16 colors (XTerm-col.ad).
ANSI16 = [0x000000, 0xcd0000, 0x00cd00, 0xcdcd00, 0x0000ee, 0xcd00cd,
          0x00cdcd, 0xe5e5e5, 0x7f7f7f, 0xff0000, 0x00ff00, 0xffff00,
          0x5c5cff, 0xff00ff, 0x00ffff, 0xffffff]


def xterm_rgb(i):
    """RGB of an xterm-256 index (256colres.pl's cube and grey ramp)."""
    if i < 16:
        return ANSI16[i]
    if i < 232:
        i -= 16
        lv = [0 if c == 0 else 55 + 40 * c for c in (i // 36, i // 6 % 6, i % 6)]
        return lv[0] << 16 | lv[1] << 8 | lv[2]
    g = 8 + 10 * (i - 232)
    return g << 16 | g << 8 | g


class Cell:
    __slots__ = ("ch", "fg", "bg", "bold", "dim", "under", "rev")

    def __init__(self, ch, st):
        self.ch = ch
        self.fg, self.bg, self.bold, self.dim, self.under, self.rev = st


def parse(text):
    """Rows of Cells; fg/bg are RGB ints or None for the default."""
    rows = []
    for line in text.split("\n")[:-1]:
        st = [None, None, False, False, False, False]
        row = []
        pos = 0
        for m in SGR.finditer(line):
            row += [Cell(c, tuple(st)) for c in line[pos:m.start()]]
            pos = m.end()
            ps = [int(p) if p else 0 for p in m.group(1).split(";")]
            i = 0
            while i < len(ps):
                p = ps[i]
                if p == 0:
                    st = [None, None, False, False, False, False]
                elif p == 1:
                    st[2] = True
                elif p == 2:
                    st[3] = True
                elif p == 4:
                    st[4] = True
                elif p == 7:
                    st[5] = True
                elif p in (38, 48):
                    k = 0 if p == 38 else 1
                    if ps[i + 1] == 2:
                        st[k] = ps[i + 2] << 16 | ps[i + 3] << 8 | ps[i + 4]
                        i += 4
                    else:
                        st[k] = xterm_rgb(ps[i + 2])
                        i += 2
                elif 30 <= p <= 37:
                    st[0] = ANSI16[p - 30]
                elif 40 <= p <= 47:
                    st[1] = ANSI16[p - 40]
                elif 90 <= p <= 97:
                    st[0] = ANSI16[p - 90 + 8]
                elif 100 <= p <= 107:
                    st[1] = ANSI16[p - 100 + 8]
                i += 1
        row += [Cell(c, tuple(st)) for c in line[pos:]]
        rows.append(row)
    return rows


def mix(a, b, t):
    """Color a at opacity t over b, per sRGB channel."""
    out = 0
    for s in (16, 8, 0):
        ca, cb = (a >> s) & 255, (b >> s) & 255
        out |= min(255, max(0, int(cb + t * (ca - cb) + 0.5))) << s
    return out


def colors(cell, theme):
    """The (foreground, background) RGB a painter shows for a cell."""
    pf, pb = PAGE[theme]
    fg = pf if cell.fg is None else cell.fg
    bg = pb if cell.bg is None else cell.bg
    if cell.rev:
        fg, bg = bg, fg
    if cell.dim:
        fg = mix(fg, bg, 0.6)
    return fg, bg


def halves(cell, theme):
    """The colors of a cell's upper and lower halves at their centres:
    half and full blocks by their geometry, anything else its background
    (text is drawn over it)."""
    fg, bg = colors(cell, theme)
    c = ord(cell.ch)
    if c == 0x2580:
        return fg, bg
    if c == 0x2584:
        return bg, fg
    if c == 0x2588:
        return fg, fg
    return bg, bg


def is_shape(ch):
    """Glyphs a vector writer draws as shapes, not text."""
    c = ord(ch)
    return 0x2580 <= c <= 0x259f or 0x2800 <= c <= 0x28ff or c in (
        0x2500, 0x2501, 0x2502, 0x2503, 0x250c, 0x250f, 0x2510, 0x2513,
        0x2514, 0x2517, 0x2518, 0x251b, 0x251c, 0x2523, 0x2524, 0x252b,
        0x252c, 0x2533, 0x2534, 0x253b, 0x253c, 0x254b, 0x256d, 0x256e,
        0x256f, 0x2570, 0x2574, 0x2575, 0x2576, 0x2577)


def snapshot(exe, args):
    """The rows of `pescope snapshot ARGS -f ansi` (stdout)."""
    r = subprocess.run([exe, "snapshot"] + args + ["-f", "ansi"],
                       stdin=subprocess.DEVNULL, capture_output=True,
                       check=True)
    return parse(r.stdout.decode("utf-8"))


def hexc(c):
    return "#%06x" % c
