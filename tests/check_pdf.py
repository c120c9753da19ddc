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
    return (0 if ok else 1) if handout(exe) else 1


def handout(exe):
    """A lesson's handout (snapshot --lesson --all -f pdf): a page per
    scene step; each page's scene line in the colors of the scene's ANSI
    frame (the line both share), its caption and notes below as text."""
    ok = True
    scale = DPI / 72.0
    fixture = os.path.join(os.environ.get("PESCOPE_FIXTURES", "tests/fixtures"),
                           "readme.lesson")
    base = ["--lesson-file", fixture, "--size", "80x24", "--color",
            "truecolor", "--theme", "light"]
    with tempfile.TemporaryDirectory() as tmp:
        pdf = os.path.join(tmp, "h.pdf")
        subprocess.run([exe, "snapshot"] + base + ["--all", "-f", "pdf",
                                                   "--paper", "fit", "-o",
                                                   pdf], check=True)
        info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True,
                              check=True).stdout
        pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
        if pages != 3:  # scene 1; scene 2, steps 1 and 2
            print("handout: %d pages, want 3" % pages, file=sys.stderr)
            ok = False
        for page, scene, words in ((1, "1", "here PE(1) = [0.841"),
                                   (3, "2.2", "Notes: Ask which head looks")):
            cells = ansi_cells.snapshot(exe, base + ["--scene", scene])
            out = os.path.join(tmp, "p")
            subprocess.run(["pdftoppm", "-r", str(DPI), "-png", "-singlefile",
                            "-f", str(page), "-l", str(page), pdf, out],
                           check=True)
            w, h, pixel = png.read(out + ".png")
            errs = []
            for x, c in enumerate(cells[0]):  # the scene line
                if x % 3 or c.ch != " ":
                    continue
                want = ansi_cells.halves(c, "light")[0]
                got = pixel(int((MARGIN + (x + 0.5) * CW) * scale),
                            int((MARGIN + CH / 4) * scale))
                if not png.close(got, want, TOL) and len(errs) < 3:
                    errs.append("page %d cell %d,0: %s, want %s" % (
                        page, x, ansi_cells.hexc(got), ansi_cells.hexc(want)))
            text = subprocess.run(["pdftotext", "-f", str(page), "-l",
                                   str(page), pdf, "-"], capture_output=True,
                                  text=True, check=True).stdout
            flat = " ".join(text.split())
            if words not in flat:
                errs.append("page %d lacks '%s': %s" % (page, words,
                                                         flat[-300:]))
            for e in errs:
                print("handout: %s" % e, file=sys.stderr)
            ok = ok and not errs
        print("handout: %d pages%s" % (pages, ", ok" if ok else ""))
    return paper(exe, fixture) and ok


def page_sizes(pdf):
    """Every page's size in points, as pdfinfo reads them."""
    info = subprocess.run(["pdfinfo", "-f", "1", "-l", "999", pdf],
                          capture_output=True, text=True, check=True).stdout
    return [(float(a), float(b)) for a, b in
            re.findall(r"^Page\s+\d+ size:\s+([0-9.]+) x ([0-9.]+) pts",
                       info, re.M)]


def paper(exe, fixture):
    """--paper: the handout on A4 unless told (595.276 x 841.89 pt),
    letter (612 x 792), a 16:9 slide (960 x 540), each page that size;
    a single frame fits its page unless told; --no-notes leaves the notes
    out and keeps the captions."""
    ok = True
    cases = [([], (595.276, 841.89)), (["--paper", "a4"], (595.276, 841.89)),
             (["--paper", "letter"], (612.0, 792.0)),
             (["--paper", "16:9"], (960.0, 540.0))]
    with tempfile.TemporaryDirectory() as tmp:
        pdf = os.path.join(tmp, "h.pdf")
        for extra, want in cases:
            for lesson in (["--lesson-file", fixture], ["--lesson", "intro"]):
                subprocess.run([exe, "snapshot"] + lesson + ["--all", "-f",
                               "pdf", "-o", pdf] + extra, check=True)
                sizes = page_sizes(pdf)
                bad = [s for s in sizes if abs(s[0] - want[0]) > 0.01 or
                       abs(s[1] - want[1]) > 0.01]
                if not sizes or bad:
                    print("paper %s %s: pages %s, want %s" % (
                        " ".join(extra) or "(default)", lesson[-1],
                        sorted(set(sizes)), want), file=sys.stderr)
                    ok = False
        # a single frame: its own size unless told
        subprocess.run([exe, "snapshot", "-e", "rope", "--size", "80x24",
                        "-f", "pdf", "-o", pdf], check=True)
        if page_sizes(pdf) != [(80 * CW + 2 * MARGIN, 24 * CH + 2 * MARGIN)]:
            print("a frame's page: %s" % page_sizes(pdf), file=sys.stderr)
            ok = False
        subprocess.run([exe, "snapshot", "-e", "rope", "-f", "pdf", "--paper",
                        "16:9", "-o", pdf], check=True)
        if page_sizes(pdf) != [(960.0, 540.0)]:
            print("a frame on 16:9: %s" % page_sizes(pdf), file=sys.stderr)
            ok = False
        # --no-notes: the captions stay, the notes go
        for extra, notes in (([], True), (["--no-notes"], False)):
            subprocess.run([exe, "snapshot", "--lesson-file", fixture,
                            "--all", "-f", "pdf", "-o", pdf] + extra,
                           check=True)
            text = " ".join(subprocess.run(
                ["pdftotext", pdf, "-"], capture_output=True, text=True,
                check=True).stdout.split())
            if ("Notes: Ask which head" in text) != notes or \
                    "With 16 heads the steepest slope is" not in text:
                print("handout %s: notes %s, caption %s" % (
                    " ".join(extra) or "with notes",
                    "Notes: Ask which head" in text,
                    "With 16 heads" in text), file=sys.stderr)
                ok = False
    print("paper sizes and --no-notes%s" % (", ok" if ok else ""))
    return ok


if __name__ == "__main__":
    sys.exit(main())
