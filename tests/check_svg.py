#!/usr/bin/python3
"""Check pescope's SVG snapshots against its ANSI snapshots.

Each SVG must parse as XML (xml.etree), be as wide and tall as its cells
(9 x 18 units each) with a matching viewBox, and paint every cell's upper
and lower half in the colors the ANSI frame of the same options gives
(ansi_cells.py, computed from the SGR bytes); every text glyph must be in
a <text> run at its cell in its color, every braille dot a circle; a
120x40 frame stays under 400 KB. Exit 0, 1 on failure, 77 without a
binary.
"""
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ansi_cells  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"
CW, CH, BASE, MARGIN = 9.0, 18.0, 14.2, 18.0
RECT = re.compile(r"M([-0-9.]+) ([-0-9.]+)h([-0-9.]+)v([-0-9.]+)h-[-0-9.]+z")
DOT = re.compile(r"M([-0-9.]+) ([-0-9.]+)a([-0-9.]+) ")


def groups(root):
    return {g.get("class"): g for g in root.findall(NS + "g")}


def check(path, cells, theme, size_limit=None):
    errs = []
    data = open(path, "rb").read()
    if size_limit is not None and len(data) > size_limit:
        errs.append("%d bytes > %d" % (len(data), size_limit))
    root = ET.fromstring(data)
    rows, cols = len(cells), len(cells[0])
    w, h = cols * CW + 2 * MARGIN, rows * CH + 2 * MARGIN
    if root.tag != NS + "svg":
        errs.append("root is %s" % root.tag)
    if float(root.get("width")) != w or float(root.get("height")) != h:
        errs.append("size %sx%s, want %gx%g" % (root.get("width"),
                                                root.get("height"), w, h))
    # a margin around the cells, which keep their coordinates
    if [float(v) for v in root.get("viewBox").split()] != \
            [-MARGIN, -MARGIN, w, h]:
        errs.append("viewBox %s" % root.get("viewBox"))
    margin = [r for r in root.iter(NS + "rect") if r.get("class") == "margin"]
    page = ansi_cells.PAGE[theme][1]
    if not margin or margin[0].get("fill") != ansi_cells.hexc(page):
        errs.append("margin %s, want the page %s" % (
            margin[0].get("fill") if margin else None, ansi_cells.hexc(page)))
    g = groups(root)
    for k in ("cells", "lines", "dots", "text"):
        if k not in g:
            errs.append("no <g class=%s>" % k)
            return errs
    if g["cells"].get("shape-rendering") != "crispEdges":
        errs.append("cells are not crispEdges")
    # the cells layer: rectangles by row of their top edge
    byrow = {}
    for p in g["cells"].findall(NS + "path"):
        fill = int(p.get("fill")[1:], 16)
        for m in RECT.finditer(p.get("d")):
            x, y, rw, rh = (float(v) for v in m.groups())
            for r in range(int(y // CH), int((y + rh - 1e-6) // CH) + 1):
                byrow.setdefault(r, []).append((x, y, x + rw, y + rh, fill))

    def at(px, py):
        hits = [f for (x0, y0, x1, y1, f) in byrow.get(int(py // CH), [])
                if x0 <= px < x1 and y0 <= py < y1]
        return hits

    bad = 0
    for y, row in enumerate(cells):
        for x, c in enumerate(row):
            want = ansi_cells.halves(c, theme)
            for k, py in enumerate((y * CH + CH / 4, y * CH + 3 * CH / 4)):
                hits = at(x * CW + CW / 2, py)
                if len(hits) != 1 or hits[0] != want[k]:
                    if bad == 0:
                        errs.append("cell %d,%d %s half (U+%04X): %s, want %s"
                                    % (x, y, "upper lower".split()[k],
                                       ord(c.ch),
                                       [ansi_cells.hexc(f) for f in hits],
                                       ansi_cells.hexc(want[k])))
                    bad += 1
    if bad:
        errs.append("%d half cells wrong in all" % bad)
    # text: every glyph that is not a shape, at its cell, in its color
    got = {}
    for t in g["text"].findall(NS + "text"):
        x0 = float(t.get("x")) / CW
        y = (float(t.get("y")) - BASE) / CH
        n = float(t.get("textLength")) / CW
        s = t.text or ""
        if abs(x0 - round(x0)) > 1e-6 or abs(y - round(y)) > 1e-6 or \
                abs(n - len(s)) > 1e-6:
            errs.append("text %r not on its cells" % s)
            continue
        for i, ch in enumerate(s):
            if ch != " ":
                got[(round(x0) + i, round(y))] = (ch, int(t.get("fill")[1:],
                                                          16))
    bad = 0
    for y, row in enumerate(cells):
        for x, c in enumerate(row):
            if c.ch == " " or ansi_cells.is_shape(c.ch):
                continue
            want = (c.ch, ansi_cells.colors(c, theme)[0])
            if got.get((x, y)) != want:
                if bad == 0:
                    errs.append("text at %d,%d: %r, want %r" %
                                (x, y, got.get((x, y)), want))
                bad += 1
    if bad:
        errs.append("%d text cells wrong" % bad)
    # braille: one circle per dot, in the cell's color
    dots = {}
    for p in g["dots"].findall(NS + "path"):
        for m in DOT.finditer(p.get("d")):
            cx = float(m.group(1)) + float(m.group(3))
            key = (int(cx // CW), int(float(m.group(2)) // CH))
            dots.setdefault(key, []).append(int(p.get("fill")[1:], 16))
    for y, row in enumerate(cells):
        for x, c in enumerate(row):
            o = ord(c.ch)
            if 0x2800 <= o <= 0x28ff:
                want = [ansi_cells.colors(c, theme)[0]] * bin(o - 0x2800).count("1")
                if dots.get((x, y), []) != want:
                    errs.append("braille at %d,%d: %d dots, want %d" %
                                (x, y, len(dots.get((x, y), [])), len(want)))
                    return errs
    return errs


def main():
    exe = os.environ.get("PESCOPE_BIN")
    if not exe or not os.access(exe, os.X_OK):
        print("no pescope binary ($PESCOPE_BIN); skipped")
        return 77
    ok = True
    runs = []
    for enc in ("sinusoidal", "learned", "relative", "rope", "alibi", "nope",
                "vit2d", "mrope", "xpos", "rope2d"):
        runs.append((["-e", enc, "--size", "120x40", "--color", "truecolor"],
                     "dark", 400 * 1024))
    runs += [(["-e", "rope", "--size", "120x40", "--color", "truecolor",
               "--theme", "light"], "light", 400 * 1024),
             (["-e", "alibi", "--size", "80x24", "--color", "256",
               "--theme", "light"], "light", None),
             (["-e", "sinusoidal", "--size", "100x30", "--color", "16",
               "--theme", "light", "--panel", "attention"], "light", None),
             (["-e", "relative", "--size", "80x24", "--color", "8"], "dark",
              None),
             (["-e", "sinusoidal", "-n", "8", "-d", "8", "--values",
               "--size", "80x24", "--color", "256"], "dark", None)]
    with tempfile.TemporaryDirectory() as tmp:
        for args, theme, limit in runs:
            out = os.path.join(tmp, "f.svg")
            try:
                cells = ansi_cells.snapshot(exe, args)
                subprocess.run([exe, "snapshot"] + args + ["-f", "svg", "-o",
                                                           out], check=True)
            except subprocess.CalledProcessError as e:
                print("%s: %s" % (" ".join(args), e), file=sys.stderr)
                ok = False
                continue
            errs = check(out, cells, theme, limit)
            for e in errs:
                print("%s: %s" % (" ".join(args), e), file=sys.stderr)
            ok = ok and not errs
            print("%s: %d bytes%s" % (" ".join(args), os.path.getsize(out),
                                      "" if errs else ", ok"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
