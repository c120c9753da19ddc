#!/usr/bin/python3
"""HTML and SVG snapshots as headless Chromium draws them (Debian's
`chromium`): sampled cells' pixels have the colors the ANSI frame of the
same options gives (ansi_cells.py), half blocks tile with no gap between
lines, and the underscore of `d_model` is not covered by the next line.
Skips (exit 77) when chromium is not installed.
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ansi_cells  # noqa: E402
import png  # noqa: E402

TOL = 3          # per channel: Chromium's color pipeline may round
PAD, LINE = 16, 20  # the HTML writer's padding (1em) and line (1.25em)


def shoot(chrome, url, w, h, out, tmp):
    cmd = [chrome, "--headless", "--no-sandbox", "--disable-gpu",
           "--hide-scrollbars", "--force-device-scale-factor=1",
           "--user-data-dir=" + os.path.join(tmp, "profile"),
           "--screenshot=" + out, "--window-size=%d,%d" % (w, h), url]
    subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                   timeout=120)
    if not os.path.exists(out):
        raise RuntimeError("chromium wrote no screenshot: " + " ".join(cmd))
    return png.read(out)


def sample_cells(cells, every):
    """Cells whose halves are colors at their centres (blocks, blanks),
    every `every`-th of them."""
    out = []
    for y, row in enumerate(cells):
        for x, c in enumerate(row):
            if c.ch == " " or ord(c.ch) in (0x2580, 0x2584, 0x2588):
                out.append((x, y))
    return out[::every]


def check_grid(pixel, cells, theme, x0, y0, cw, ch, what):
    errs = []
    n = 0
    for x, y in sample_cells(cells, 7):
        want = ansi_cells.halves(cells[y][x], theme)
        px = int(x0 + (x + 0.5) * cw)
        for k, py in enumerate((y0 + y * ch + ch / 4,
                                y0 + y * ch + 3 * ch / 4)):
            got = pixel(px, int(py))
            n += 1
            if not png.close(got, want[k], TOL) and len(errs) < 5:
                errs.append("%s cell %d,%d %s half: %s, want %s" %
                            (what, x, y, "upper lower".split()[k],
                             ansi_cells.hexc(got), ansi_cells.hexc(want[k])))
    # no gaps: the last pixel line of a cell has its lower color and the
    # first pixel line of the cell below its upper one
    for y in range(len(cells) - 1):
        for x in range(0, len(cells[0]), 5):
            a, b = cells[y][x], cells[y + 1][x]
            if ord(a.ch) != 0x2580 or ord(b.ch) != 0x2580:
                continue
            px = int(x0 + (x + 0.5) * cw)
            bottom = int(y0 + (y + 1) * ch) - 1
            for py, want in ((bottom, ansi_cells.halves(a, theme)[1]),
                             (bottom + 1, ansi_cells.halves(b, theme)[0])):
                got = pixel(px, py)
                n += 1
                if not png.close(got, want, TOL) and len(errs) < 10:
                    errs.append("%s gap at cell %d,%d pixel line %d: %s, "
                                "want %s" % (what, x, y, py,
                                             ansi_cells.hexc(got),
                                             ansi_cells.hexc(want)))
    return errs, n


def underscore(pixel, cells, theme, x0, y0, cw, ch):
    """The underscore of d_model (line 1) shows in its text color."""
    line = "".join(c.ch for c in cells[1])
    i = line.find("d_model")
    if i < 0:
        return []
    c = cells[1][i + 1]
    fg, bg = ansi_cells.colors(c, theme)
    # a thin stroke is anti-aliased: count pixels past 40 % of the way
    # from the background to the text color (green channel)
    g0, g1 = (bg >> 8) & 255, (fg >> 8) & 255
    hits = 0
    for py in range(int(y0 + ch), int(y0 + 2 * ch)):
        for px in range(int(x0 + (i + 1) * cw) + 1, int(x0 + (i + 2) * cw) - 1):
            g = (pixel(px, py) >> 8) & 255
            if (g - g0) * (1 if g1 > g0 else -1) > 0.4 * abs(g1 - g0):
                hits += 1
    return [] if hits >= 3 else ["the underscore of d_model shows %d "
                                 "pixels of its color" % hits]


def cell_width(pixel, w, cells, theme):
    """The HTML cell width, the font's advance: the right edge of the
    rightmost colored cell of any line (its right neighbour another color)
    found in the pixels, over its count of cells."""
    page = ansi_cells.PAGE[theme][1]
    best = None
    for y, row in enumerate(cells):
        for x in range(len(row) - 1, -1, -1):
            up = ansi_cells.halves(row[x], theme)[0]
            nxt = ansi_cells.halves(row[x + 1], theme)[0] \
                if x + 1 < len(row) else page
            if up != page and up != nxt and row[x].ch in (" ", "\u2580"):
                if best is None or x > best[0]:
                    best = (x, y, up)
                break
    if best is None:
        return None
    x, y, col = best
    py = int(PAD + y * LINE + LINE / 4)
    for px in range(w - 1, -1, -1):
        if png.close(pixel(px, py), col, TOL):
            return (px + 1 - PAD) / (x + 1)
    return None


def main():
    exe = os.environ.get("PESCOPE_BIN")
    chrome = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe or not os.access(exe, os.X_OK):
        print("no pescope binary ($PESCOPE_BIN); skipped")
        return 77
    if chrome is None:
        print("chromium is not installed (apt-get install chromium); "
              "skipped")
        return 77
    runs = [(["-e", "sinusoidal", "--size", "120x40", "--color", "truecolor"],
             "dark"),
            (["-e", "rope", "--size", "80x24", "--color", "256",
              "--theme", "light"], "light"),
            (["-e", "sinusoidal", "--size", "100x30", "--color", "16",
              "--theme", "light"], "light")]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for args, theme in runs:
            cells = ansi_cells.snapshot(exe, args)
            cols, rows = len(cells[0]), len(cells)
            for fmt in ("svg", "html"):
                f = os.path.join(tmp, "frame." + fmt)
                subprocess.run([exe, "snapshot"] + args + ["-f", fmt, "-o", f],
                               check=True)
                shot = os.path.join(tmp, "shot.png")
                if os.path.exists(shot):
                    os.remove(shot)
                what = "%s %s" % (" ".join(args), fmt)
                if fmt == "svg":
                    # the cells inside an 18-unit margin
                    w, h, pixel = shoot(chrome, "file://" + f,
                                        cols * 9 + 36, rows * 18 + 36, shot,
                                        tmp)
                    errs, n = check_grid(pixel, cells, theme, 18, 18, 9, 18,
                                         what)
                else:
                    w, h, pixel = shoot(chrome, "file://" + f,
                                        2 * PAD + cols * 11,
                                        2 * PAD + rows * LINE, shot, tmp)
                    cw = cell_width(pixel, w, cells, theme)
                    if cw is None:
                        print("%s: no colored cell to measure" % what,
                              file=sys.stderr)
                        ok = False
                        continue
                    errs, n = check_grid(pixel, cells, theme, PAD, PAD, cw,
                                         LINE, what)
                    errs += underscore(pixel, cells, theme, PAD, PAD, cw, LINE)
                for e in errs:
                    print(e, file=sys.stderr)
                ok = ok and not errs
                print("%s: %d pixels compared%s" % (what, n,
                                                     "" if errs else ", ok"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
