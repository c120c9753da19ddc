#!/usr/bin/python3
"""PDF snapshots as poppler sees them: `pdfinfo` finds one page of the
frame's size (a cell is 6 x 12 pt, margins 24 pt), and `pdftoppm` renders
sampled cells' halves in the colors the ANSI frame of the same options
gives (ansi_cells.py). Skips (exit 77) without poppler-utils.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ansi_cells  # noqa: E402
import png  # noqa: E402

CW, CH, MARGIN, DPI = 6.0, 12.0, 24.0, 144
TOL = 3


def main():
    exe = os.environ.get("PESCOPE_BIN")
    if not exe or not os.access(exe, os.X_OK):
        print("no pescope binary ($PESCOPE_BIN); skipped")
        return 77
    if not shutil.which("pdfinfo") or not shutil.which("pdftoppm"):
        print("poppler-utils is not installed (pdfinfo, pdftoppm); skipped")
        return 77
    runs = [(["-e", "rope", "--size", "120x40", "--color", "truecolor"],
             "dark"),
            (["-e", "sinusoidal", "--size", "80x24", "--color", "256",
              "--theme", "light"], "light"),
            (["-e", "alibi", "--size", "100x30", "--color", "8",
              "--theme", "light"], "light")]
    ok = True
    scale = DPI / 72.0
    with tempfile.TemporaryDirectory() as tmp:
        for args, theme in runs:
            what = " ".join(args)
            cells = ansi_cells.snapshot(exe, args)
            cols, rows = len(cells[0]), len(cells)
            pdf = os.path.join(tmp, "f.pdf")
            subprocess.run([exe, "snapshot"] + args + ["-f", "pdf", "-o", pdf],
                           check=True)
            info = subprocess.run(["pdfinfo", pdf], capture_output=True,
                                  text=True, check=True).stdout
            pages = re.search(r"^Pages:\s+(\d+)", info, re.M)
            size = re.search(r"^Page size:\s+([0-9.]+) x ([0-9.]+) pts", info,
                             re.M)
            want = (cols * CW + 2 * MARGIN, rows * CH + 2 * MARGIN)
            if not pages or int(pages.group(1)) != 1:
                print("%s: pages %s" % (what, pages and pages.group(1)),
                      file=sys.stderr)
                ok = False
            if not size or abs(float(size.group(1)) - want[0]) > 0.01 or \
                    abs(float(size.group(2)) - want[1]) > 0.01:
                print("%s: page size %s, want %g x %g" %
                      (what, size and size.groups(), *want), file=sys.stderr)
                ok = False
            base = os.path.join(tmp, "page")
            subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile",
                            pdf, base], check=True)
            w, h, pixel = png.read(base + ".png")
            errs, n = [], 0
            # the margin is the theme's page
            page = ansi_cells.PAGE[theme][1]
            if not png.close(pixel(2, 2), page, TOL):
                errs.append("margin %s, want %s" % (
                    ansi_cells.hexc(pixel(2, 2)), ansi_cells.hexc(page)))
            for y, row in enumerate(cells):
                for x, c in enumerate(row):
                    if (x + 3 * y) % 5 or not (
                            c.ch == " " or ord(c.ch) in (0x2580, 0x2584)):
                        continue
                    halves = ansi_cells.halves(c, theme)
                    px = int((MARGIN + (x + 0.5) * CW) * scale)
                    for k, dy in enumerate((CH / 4, 3 * CH / 4)):
                        py = int((MARGIN + y * CH + dy) * scale)
                        got = pixel(px, py)
                        n += 1
                        if not png.close(got, halves[k], TOL) and \
                                len(errs) < 5:
                            errs.append("cell %d,%d %s half: %s, want %s" % (
                                x, y, "upper lower".split()[k],
                                ansi_cells.hexc(got),
                                ansi_cells.hexc(halves[k])))
            for e in errs:
                print("%s: %s" % (what, e), file=sys.stderr)
            ok = ok and not errs
            print("%s: %s pages, %d pixels compared%s" % (
                what, pages and pages.group(1), n, "" if errs else ", ok"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
