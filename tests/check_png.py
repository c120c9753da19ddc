"""snapshot -f png: the main map's pixels are the kernel's values through
the colormap at 24 bits. The values come from `pescope dump` (the table as
CSV, f64), the colormap from assets/colormaps (matplotlib's table,
interpolated as its LinearSegmentedColormap does), the picture's place
from the SVG of the same options with --scale (its <image>), and the PNG
is read with tests/png.py. Also: --lesson --all -f png writes one PNG per
step, and --scale is refused where it changes nothing."""
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ansi_cells  # noqa: E402
import png  # noqa: E402

BIN = os.environ.get("PESCOPE_BIN", "build/pescope")
SRC = os.environ.get("PESCOPE_SRCDIR", ".")


def cmap(name):
    """The table's rows as floats."""
    text = open(os.path.join(SRC, "assets", "colormaps", name)).read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return [[f32(float(v)) for v in row.split(",")]
            for row in re.findall(r"\{([^}]*)\}", text)]


def f32(v):
    """v rounded to float, as the C table holds it."""
    return struct.unpack("f", struct.pack("f", v))[0]


def color(table, t):
    """matplotlib's interpolation between evenly spaced knots, rounded."""
    t = min(max(t, 0.0), 1.0)
    pos = t * (len(table) - 1)
    i = min(int(pos), len(table) - 2)
    f = pos - i
    out = 0
    for k in range(3):
        # C: float + double * (float - float, a float difference)
        v = table[i][k] + f * f32(table[i + 1][k] - table[i][k])
        b = int(v * 255.0 + 0.5) if v >= 0 else 0
        out = out << 8 | min(b, 255)
    return out


def run(args):
    return subprocess.run([BIN] + args, capture_output=True)


def check_map(tmp, opts, n, d, scale):
    """Every pixel of the map's picture but the cursor's frame."""
    p = run(["dump"] + opts + ["-t", "pe", "-f", "csv", "--dtype", "f64"])
    assert p.returncode == 0, p.stderr
    vals = [[float(v) for v in line.split(",")]
            for line in p.stdout.decode().splitlines()]
    assert len(vals) == n and len(vals[0]) == d
    snap = ["snapshot"] + opts + ["--size", "100x30", "--cursor", "7,3",
                                  "--scale", str(scale)]
    svg = run(snap + ["-f", "svg"]).stdout.decode()
    m = re.search(r'<image [^>]*x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
                  r'height="([\d.]+)"[^>]*data-pixels="(\d+)x(\d+)"', svg)
    assert m, "no picture in the SVG"
    cx, cy = float(m.group(1)) / 9, float(m.group(2)) / 18
    pw, ph = int(m.group(5)), int(m.group(6))
    assert pw == float(m.group(3)) / 9 * scale
    assert ph == float(m.group(4)) / 18 * 2 * scale
    out = os.path.join(tmp, "map.png")
    p = run(snap + ["-f", "png", "-o", out])
    assert p.returncode == 0, p.stderr
    w, h, px = png.read(out)
    assert (w, h) == (100 * scale, 30 * 2 * scale), (w, h)
    table = cmap("rdbu_r.inc")
    x0, y0 = int(cx * scale), int(cy * 2 * scale)
    nr, nc = min(n, ph), min(d, pw)
    # the cursor's sample (7, 3) and its frame, two pixels wide
    def run_of(ns, npx, s):
        a = -(-s * npx // ns)
        b = -(-(s + 1) * npx // ns)
        return a, b
    def sample(lo_n, ns, e):
        return next(k for k in range(ns) if lo_n * k // ns <= e
                    < lo_n * (k + 1) // ns)
    ra = run_of(nr, ph, sample(n, nr, 7))
    ca = run_of(nc, pw, sample(d, nc, 3))
    bad = 0
    for y in range(ph):
        r0, r1 = n * (nr * y // ph) // nr, n * (nr * y // ph + 1) // nr
        for x in range(pw):
            if (ra[0] - 2 <= y < ra[1] + 2 and ca[0] - 2 <= x < ca[1] + 2
                    and not (ra[0] <= y < ra[1] and ca[0] <= x < ca[1])):
                continue
            c0, c1 = d * (nc * x // pw) // nc, d * (nc * x // pw + 1) // nc
            block = [vals[r][c] for r in range(r0, max(r1, r0 + 1))
                     for c in range(c0, max(c1, c0 + 1))]
            want = color(table, (sum(block) / len(block) + 1) / 2)
            if px(x0 + x, y0 + y) != want:
                bad += 1
    assert bad == 0, "%d of %d pixels differ (%s)" % (bad, pw * ph, opts)
    return pw * ph


def check_masks(tmp, opts, theme, glyph):
    """The picture's masked (U+2571) or undefined (U+00B7) cells are the
    ANSI frame's: each cell's pixels its two colors alone, the hatch's
    ink from the bottom-left corner to the top-right, the dot's at the
    centre with the corners its background. Returns the cells checked."""
    snap = ["snapshot"] + opts + ["--size", "100x30", "--cursor", "40,3",
                                  "--theme", theme]
    rows = ansi_cells.snapshot(BIN, snap[1:])
    svg = run(snap + ["-f", "svg", "--scale", "8"]).stdout.decode()
    m = re.search(r'<image [^>]*x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
                  r'height="([\d.]+)"', svg)
    assert m, "no picture in the SVG"
    x0, y0 = round(float(m.group(1)) / 9), round(float(m.group(2)) / 18)
    w, h = round(float(m.group(3)) / 9), round(float(m.group(4)) / 18)
    out = os.path.join(tmp, "masks.png")
    p = run(snap + ["-f", "png", "-o", out])
    assert p.returncode == 0, p.stderr
    _, _, px = png.read(out)
    cw, ch, n, edge = 8, 16, 0, 0
    for y in range(y0, y0 + h):
        for x in range(x0, x0 + w):
            cell = rows[y][x]
            if cell.ch != glyph:
                continue
            ink, bg = ansi_cells.colors(cell, theme)
            got = {(u, v): px(x * cw + u, y * ch + v)
                   for u in range(cw) for v in range(ch)}
            where = "%s %s cell %d,%d" % (opts, theme, x, y)
            # the cells' block means and the picture's samples cut the
            # map apart: a cell at the triangle's edge holds pixels of a
            # value sample; cells wholly of the glyph's class are checked
            if not set(got.values()) <= {ink, bg}:
                edge += 1
                continue
            if glyph == "\u2571":
                assert got[0, ch - 1] == ink and got[cw - 1, 0] == ink, where
                assert got[0, 0] == bg and got[cw - 1, ch - 1] == bg, where
            else:
                assert got[cw // 2, ch // 2] == ink, where
                assert got[0, 0] == bg and got[cw - 1, ch - 1] == bg, where
            n += 1
    assert n > 4 * edge, "%d %r cells under the picture, %d at an edge " \
        "(%s)" % (n, glyph, edge, opts)
    return n


def main():
    tmp = tempfile.mkdtemp()
    # elements over runs of pixels; then block means (rows) at pixels
    k = check_map(tmp, ["-e", "sinusoidal", "-n", "40", "-d", "24"], 40,
                  24, 6)
    k += check_map(tmp, ["-e", "sinusoidal", "-n", "2000", "-d", "64"],
                   2000, 64, 3)
    # masked and undefined cells: as the ANSI frame's, in both themes
    masks = 0
    for theme in ("dark", "light"):
        masks += check_masks(tmp, ["-e", "alibi"], theme, "\u2571")
        masks += check_masks(tmp, ["-e", "learned", "-n", "80",
                                   "--max-len", "50"], theme, "\u00b7")
    # a lesson: one PNG per step
    out = os.path.join(tmp, "slides")
    p = run(["snapshot", "--lesson", "intro", "--all", "-f", "png", "-o",
             out])
    assert p.returncode == 0, p.stderr
    files = sorted(os.listdir(out))
    assert files and all(f.endswith(".png") for f in files), files
    for f in files[:3]:
        png.read(os.path.join(out, f))
    # --scale where nothing has pixels
    p = run(["snapshot", "-f", "txt", "--scale", "4"])
    assert p.returncode == 2 and b"--scale" in p.stderr, p.stderr
    p = run(["snapshot", "-f", "png", "--scale", "99", "-o",
             os.path.join(tmp, "x.png")])
    assert p.returncode == 2 and b"--scale" in p.stderr, p.stderr
    print("png: %d map pixels as the kernel's values say; %d masked and "
          "undefined cells as the ANSI frame's; %d lesson PNGs"
          % (k, masks, len(files)))


if __name__ == "__main__":
    main()
