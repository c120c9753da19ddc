#!/usr/bin/python3
"""--graphics in real terminal emulators: the TUI runs in kitty (its
graphics protocol), in xterm as a VT340 (DEC sixel) and in mlterm (sixel,
and iTerm2's inline images), each on an Xvfb screen of its own, driven by
xdotool and read back by screenshots (ImageMagick's import, as PPM). The
main map's rectangle on screen is compared pixel by pixel with an
expectation made here: the PE of `-e sinusoidal -n 64 -d 32` from
check_numpy.py's transcription of the PyTorch tutorial, through
check_png.py's colormap, spread over the picture's pixels as the pixel
layer does (one element over a run of pixels) with the cursor's frame (a
black ring, then a white one) around the cursor's element; the rectangle
is the <image> of the SVG snapshot at the terminal's size, its pixels the
terminal's cells (TIOCGWINSZ of the terminal's pty). kitty's and
iTerm2's pixels must be exactly these (chafa's alpha defect corrected),
sixel's within its palette's quantisation (SIXEL_TOL, RING_TOL).

In kitty (--graphics auto, which must find kitty by itself, then
--graphics kitty): the first picture; Down keeps it and moves the frame; b
(base / 2) replaces it, every pixel the new base's; a resize of the window
replaces it at the new size; q ends pescope with 0 and leaves nothing but
text on the screen (every pixel grey). In xterm and mlterm: the first
picture, Down and q. What the terminals print (kitty's warnings) is shown.

Skips (exit 77) when Xvfb, xdotool or import is missing, or no terminal
is installed or starts; a terminal that cannot start is said and left
out. PESCOPE_SHOTS=DIR keeps the screenshots there (PNG); on a failure
they are kept in the temporary folder, which is printed."""
import ast
import fcntl
import math
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
import traceback

try:
    import numpy as np
except ImportError:
    print("numpy is not installed: skipped")
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_png  # noqa: E402  (the colormap: cmap, color)

BIN = os.path.abspath(os.environ.get("PESCOPE_BIN", "build/pescope"))
OPTS = ["-e", "sinusoidal", "-n", "64", "-d", "32"]
N, D = 64, 32
# xterm's sixel: chafa picks at most 256 color registers for the picture
# (here up to 2048 colors of the map, and the frame's black and white) and
# writes each as percentages (0..100, 2.55 levels a step). Measured: the
# map's pixels within 8 levels in a channel, a mean of 1.2; the frame's
# few black pixels may share a register with a dark map color (17 levels
# off). A wrong picture is far beyond the mean's bound.
SIXEL_TOL = 24
SIXEL_MEAN = 2.0   # the mean channel error over the picture
# The frame's black and white are a few hundred pixels of the picture: a
# palette chosen over its pixels may give them a register of a map color
# near them (mlterm: black drawn 35000f, a dark red).
RING_TOL = 64
WAIT = 20          # seconds a screen may take to show what it must
# chafa 1.12.4's base64 writes the last byte of each 512-byte piece wrong
# (fixed in chafa later): kitty's last byte of a piece is an alpha, which
# read 243 however opaque the pixel (a faint seam). pescope corrects that
# digit, in the picture and in the cursor's frame: every kitty pixel must
# be exact, the frame's too.


def sinusoid_reference():
    """check_numpy.py's sinusoid (the PyTorch tutorial's
    PositionalEncoding in numpy), taken from its file by name: that file
    runs its checks as it is read, so it cannot be imported."""
    path = os.path.join(HERE, "check_numpy.py")
    tree = ast.parse(open(path).read(), path)
    fn = next(f for f in tree.body
              if isinstance(f, ast.FunctionDef) and f.name == "sinusoid")
    space = {"np": np, "math": math}
    exec(compile(ast.Module([fn], []), path, "exec"), space)
    return space["sinusoid"]


sinusoid = sinusoid_reference()
TABLE = check_png.cmap("rdbu_r.inc")


def map_colors(base, table=TABLE):
    """The map's n x d colors as 0xRRGGBB: PE in [-1, 1] on the colormap."""
    pe = sinusoid(N, D, base)
    return np.array([[check_png.color(table, (v + 1) / 2) for v in row]
                     for row in pe], dtype=np.int64)


def run_of(s, ns, npx):
    """The pixels [a, b) of sample s of ns over npx pixels."""
    return -(-s * npx // ns), -(-(s + 1) * npx // ns)


def expected(colors, pw, ph, cur):
    """The picture's ph x pw pixels: element (r, c) over the pixels whose
    floor(r' * n / ph) is r, and the cursor's frame around element cur:
    two pixels out of its run, the inner ring black, the outer white."""
    n, d = colors.shape
    img = colors[(n * np.arange(ph)) // ph][:, (d * np.arange(pw)) // pw]
    y0, y1 = run_of(cur[0], n, ph)
    x0, x1 = run_of(cur[1], d, pw)
    yy, xx = np.mgrid[0:ph, 0:pw]
    outer = (yy >= y0 - 2) & (yy < y1 + 2) & (xx >= x0 - 2) & (xx < x1 + 2)
    inner = (yy >= y0 - 1) & (yy < y1 + 1) & (xx >= x0 - 1) & (xx < x1 + 1)
    own = (yy >= y0) & (yy < y1) & (xx >= x0) & (xx < x1)
    img = img.copy()
    img[outer & ~inner] = 0xffffff
    img[inner & ~own] = 0x000000
    return img, outer & ~own


def map_cells(cols, rows, extra):
    """The main map's picture in cells (x, y, w, h): the SVG snapshot's
    <image> at the terminal's size (9 x 18 units a cell)."""
    p = subprocess.run([BIN, "snapshot"] + OPTS + extra +
                       ["--size", "%dx%d" % (cols, rows), "-f", "svg",
                        "--scale", "2"], capture_output=True, text=True)
    if p.returncode != 0:
        raise Failure("snapshot at %dx%d: %s" % (cols, rows, p.stderr))
    m = re.search(r'<image [^>]*x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
                  r'height="([\d.]+)"', p.stdout)
    if not m:
        raise Failure("no picture in the snapshot at %dx%d" % (cols, rows))
    v = [float(g) for g in m.groups()]
    return (round(v[0] / 9), round(v[1] / 18), round(v[2] / 9),
            round(v[3] / 18))


class Failure(Exception):
    pass


class Skip(Exception):
    pass


def read_ppm(data):
    """A binary PPM (P6, maxval 255) as an h x w array of 0xRRGGBB."""
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    if not m or m.group(3) != b"255":
        raise Failure("import wrote no PPM")
    w, h = int(m.group(1)), int(m.group(2))
    a = np.frombuffer(data, np.uint8, w * h * 3, m.end()).reshape(h, w, 3)
    a = a.astype(np.int64)
    return a[:, :, 0] << 16 | a[:, :, 1] << 8 | a[:, :, 2]


def winsize(tty):
    """(rows, cols, x pixels, y pixels) of a pty, as pescope reads them."""
    fd = os.open(tty, os.O_RDONLY | os.O_NOCTTY)
    try:
        return struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ,
                                                 b"\0" * 8))
    finally:
        os.close(fd)


class Screen:
    """An Xvfb display of its own (-displayfd: the server picks a free
    number) and the processes started on it, all ended by close()."""

    def __init__(self, tmp, keep):
        self.tmp, self.keep, self.procs, self.groups = tmp, keep, [], []
        self.shots = 0
        r, w = os.pipe()
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(w), "-screen", "0", "1400x1000x24",
             "-nolisten", "tcp", "-noreset"], pass_fds=[w],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(
                tmp, "xvfb.log"), "w"), start_new_session=True)
        os.close(w)
        num = b""
        end = time.time() + 10
        while not num.endswith(b"\n") and time.time() < end:
            if select.select([r], [], [], 0.5)[0]:
                b = os.read(r, 16)
                if not b:
                    break
                num += b
        os.close(r)
        if not num.strip().isdigit():
            self.close()
            raise Skip("Xvfb did not start (%s)" % open(os.path.join(
                tmp, "xvfb.log")).read().strip()[-200:])
        # Mesa's software GL (llvmpipe) for kitty: no GPU here
        self.env = dict(os.environ, DISPLAY=":" + num.strip().decode(),
                        LIBGL_ALWAYS_SOFTWARE="1")
        self.env.pop("WAYLAND_DISPLAY", None)

    def start(self, argv, log):
        p = subprocess.Popen(argv, env=self.env, stdin=subprocess.DEVNULL,
                             stdout=log, stderr=subprocess.STDOUT,
                             start_new_session=True)
        self.procs.append(p)
        return p

    def x(self, *argv):
        """An X client's output (xdotool, import)."""
        return subprocess.run(list(argv), env=self.env, capture_output=True,
                              timeout=20).stdout

    def shot(self):
        """The whole screen as an array."""
        self.shots += 1
        return read_ppm(self.x("import", "-window", "root", "-depth", "8",
                                "ppm:-"))

    def save(self, name, a):
        """A screenshot kept as NAME.png."""
        if self.keep:
            rgb = np.stack([(a >> 16) & 255, (a >> 8) & 255, a & 255], -1)
            ppm = os.path.join(self.keep, name + ".ppm")
            with open(ppm, "wb") as f:
                f.write(b"P6 %d %d 255\n" % (a.shape[1], a.shape[0]))
                f.write(rgb.astype(np.uint8).tobytes())
            subprocess.run(["convert", ppm, os.path.join(self.keep,
                                                         name + ".png")])
            os.unlink(ppm)

    def close(self):
        for g in self.groups:  # the shells in the terminals, pescope
            try:
                os.killpg(g, signal.SIGKILL)
            except OSError:
                pass
        for p in self.procs + [self.xvfb]:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass
            p.wait()
        self.procs = []


# The program each terminal runs: it says its pid (its stdin is the pty,
# whose size the check reads), runs pescope and says its exit status.
LAUNCH = """echo $$ >"$1.tmp" && mv "$1.tmp" "$1.pid"; shift
"$@"
echo $? >"$T.rc"
exec sleep 300
"""


class Term:
    """One terminal on the screen running pescope with args."""

    def __init__(self, scr, name, argv_of, args, cls):
        self.scr, self.name = scr, name
        self.base = os.path.join(scr.tmp, name)
        launch = os.path.join(scr.tmp, "launch.sh")
        with open(launch, "w") as f:
            f.write(LAUNCH.replace("$T", self.base))
        cmd = ["sh", launch, self.base, BIN] + args
        self.log = open(self.base + ".log", "w")
        self.proc = scr.start(argv_of(cmd), self.log)
        end = time.time() + WAIT
        self.wid = None
        while time.time() < end and self.proc.poll() is None:
            ids = scr.x("xdotool", "search", "--class", cls).split()
            if ids and os.path.exists(self.base + ".pid"):
                self.wid = ids[-1].decode()
                break
            time.sleep(0.2)
        if self.wid is None:
            raise Skip("%s did not start: %s" % (name, self.log_text()[-400:]))
        # the shell's stdin, through /proc: a name under /dev/pts may be
        # another devpts instance's where two are mounted there
        shell = int(open(self.base + ".pid").read())
        self.tty = "/proc/%d/fd/0" % shell
        scr.groups.append(shell)
        scr.x("xdotool", "windowfocus", "--sync", self.wid)

    def log_text(self):
        self.log.flush()
        return open(self.base + ".log", errors="replace").read()

    def origin(self):
        g = self.scr.x("xdotool", "getwindowgeometry", "--shell",
                       self.wid).decode()
        v = dict(re.findall(r"(\w+)=(\d+)", g))
        return int(v["X"]), int(v["Y"])

    def geometry(self):
        if self.proc.poll() is not None or not os.path.exists(self.tty):
            raise Failure("%s ended (%s): %s" % (self.name, self.proc.poll(),
                                                 self.log_text()[-400:]))
        rows, cols, xp, yp = winsize(self.tty)
        if xp == 0 or yp == 0:
            raise Failure("%s: its pty has no pixel size" % self.name)
        return cols, rows, xp // cols, yp // rows

    def key(self, *keys):
        self.scr.x("xdotool", "windowfocus", "--sync", self.wid)
        self.scr.x("xdotool", "key", "--delay", "50", *keys)

    def rc(self):
        try:
            return int(open(self.base + ".rc").read())
        except (OSError, ValueError):
            return None


def channel_error(got, want):
    """The largest difference of a channel, pixel by pixel."""
    err = np.zeros(got.shape, np.int64)
    for s in (16, 8, 0):
        err = np.maximum(err, abs(((got >> s) & 255) - ((want >> s) & 255)))
    return err


def compare(got, want, tol, ring, kitty, ring_tol=RING_TOL):
    """(pixels off by more than tol, the mean channel error, the worst, the
    pixels let off, the error by pixel). kitty: none let off; else the
    frame's pixels within ring_tol (a palette's registers)."""
    err = channel_error(got, want)
    off = ring & (err > tol) & (err <= (0 if kitty else ring_tol))
    err = np.where(off, 0, err)
    mean = float(np.mean([abs(((got >> s) & 255) - ((want >> s) & 255))
                          for s in (16, 8, 0)]))
    return (int(np.count_nonzero(err > tol)), mean, int(err.max()),
            int(np.count_nonzero(off)), err)


def wait_picture(t, what, base, cur, tol, mean_tol, extra=(), edges=False,
                 ring_tol=RING_TOL, wait=WAIT):
    """Poll screenshots until the map's rectangle is the expectation at the
    terminal's present size, or fail with the last difference."""
    end = time.time() + wait
    colors = map_colors(base)
    last = None
    while True:
        cols, rows, cw, ch = t.geometry()
        x, y, w, h = map_cells(cols, rows, list(extra))
        ox, oy = t.origin()
        want, ring = expected(colors, w * cw, h * ch, cur)
        a = t.scr.shot()
        px, py = ox + x * cw, oy + y * ch
        got = a[py:py + h * ch, px:px + w * cw]
        if got.shape == want.shape:
            bad, mean, worst, dark, err = compare(got, want, tol, ring,
                                                  edges, ring_tol)
            last = (bad, mean, worst)
            if bad == 0 and mean <= mean_tol:
                t.scr.save("%s-%s" % (t.name, what), a)
                return got, (px, py, w * cw, h * ch, cols, rows, cw, ch,
                             mean, worst, dark)
        if time.time() > end:
            t.scr.save("%s-%s" % (t.name, what), a)
            where = ""
            if last is not None:
                ys, xs = np.nonzero(err > tol)
                where = ("; %d pixels off by more than %d, mean %.2f, worst "
                         "%d; first at picture pixel (%d, %d): %06x, want "
                         "%06x" % (last[0], tol, last[1], last[2], xs[0],
                                   ys[0], got[ys[0], xs[0]],
                                   want[ys[0], xs[0]])) if len(ys) else ""
                for k, v in (("got", got), ("want", want)):
                    np.save(os.path.join(t.scr.keep, "%s-%s-%s.npy" %
                                         (t.name, what, k)), v)
            raise Failure("%s, %s: the map at cells %d,%d %dx%d (%dx%d-pixel "
                          "cells, terminal %dx%d) is not the expected "
                          "picture%s" % (t.name, what, x, y, w, h, cw, ch,
                                         cols, rows, where))
        time.sleep(0.3)


def wait_gone(t, what):
    """pescope's exit status once it ended, and a screen with no picture:
    every pixel grey (the background and antialiased text)."""
    end = time.time() + WAIT
    while t.rc() is None and time.time() < end:
        time.sleep(0.2)
    rc = t.rc()
    if rc != 0:
        raise Failure("%s: pescope ended with %s after q" % (t.name, rc))
    while True:
        a = t.scr.shot()
        r, g, b = (a >> 16) & 255, (a >> 8) & 255, a & 255
        colored = np.count_nonzero((r != g) | (g != b))
        if colored == 0:
            t.scr.save("%s-%s" % (t.name, what), a)
            return
        if time.time() > end:
            t.scr.save("%s-%s" % (t.name, what), a)
            raise Failure("%s, %s: %d colored pixels left on the screen "
                          "after q" % (t.name, what, colored))
        time.sleep(0.3)


def warnings(t):
    lines = [ln for ln in t.log_text().splitlines()
             if ln.strip() and "exit" not in ln]
    for ln in lines[:6]:
        print("  %s said: %s" % (t.name, ln[:240]))


def kitty_argv(cmd):
    return ["kitty", "--config", "NONE", "--class", "pescope-check",
            "-o", "font_size=10", "-o", "remember_window_size=no",
            "-o", "initial_window_width=1000", "-o",
            "initial_window_height=720", "-o", "window_padding_width=0",
            "-o", "placement_strategy=top-left",
            "-o", "linux_display_server=x11", "--"] + cmd


def xterm_argv(cmd):
    return ["xterm", "-class", "PescopeCheck", "-geometry", "130x42+0+0",
            "-b", "0", "-w", "0", "-fa", "DejaVu Sans Mono", "-fs", "8",
            "-tn", "xterm-256color",
            "-ti", "vt340", "-xrm", "XTerm*decTerminalID: vt340",
            "-xrm", "XTerm*numColorRegisters: 1024",
            "-xrm", "XTerm*sixelScrolling: true",
            "-bg", "black", "-fg", "grey", "-e"] + cmd


def click_targets(cols, rows, extra, cw, ch):
    """Pixels of the map to click (x, y from the map's first pixel) and the
    element each shows: the first and the last pixel of the run of an
    element whose rows miss the middle pixel row of their cell, so that a
    click read as a cell (its middle pixel, as with mouse reports in cells)
    would inspect another element, and a pixel off by one another element
    too; with the element under the cell's middle pixel."""
    x, y, w, h = map_cells(cols, rows, list(extra))
    ph, pw = h * ch, w * cw
    c = D // 3
    x0, x1 = run_of(c, D, pw)
    for r in range(N // 4, N):
        a, b = run_of(r, N, ph)
        mid = (a // ch) * ch + ch // 2
        if not a <= mid < b and a // ch == (b - 1) // ch:
            out = []
            for px, py in ((x0, a), (x1 - 1, b - 1)):
                mx = (px // cw) * cw + cw // 2
                my = (py // ch) * ch + ch // 2
                out.append(((px, py), (r, c),
                            ((N * my) // ph, (D * mx) // pw)))
            return out, (x, y)
    raise Failure("no element to click at %dx%d" % (cols, rows))


def click(t, what, base, extra, pixels, tol, mean, edges, ring_tol):
    """Click an element's first pixel, then its last (click_targets), and
    check that the cursor's frame went to it (pixels: the terminal reports
    pixels, SGR-Pixels) or to the element under the cell's middle pixel
    (cells). The element the cursor is on at the end."""
    cols, rows, cw, ch = t.geometry()
    targets, (x, y) = click_targets(cols, rows, extra, cw, ch)
    for i, ((px, py), elem, cell_elem) in enumerate(targets):
        want = elem if pixels else cell_elem
        # mlterm 3.9.0 on Xvfb reports the first click after xdotool
        # moved the pointer at the pointer's place before (seen in a probe
        # that printed its reports): the pointer goes there, then the
        # button; a click that changed nothing in 6 s is made again, twice.
        # The pointer first goes a few pixels aside, so that it always
        # moves: the terminal before this one was clicked at the same
        # place, and a move to where the pointer already is reports
        # nothing (mlterm-iterm's click then landed where mlterm thought
        # the pointer was, both times, with the machine busy)
        for attempt in (0, 1, 2):
            t.scr.x("xdotool", "windowfocus", "--sync", t.wid)
            t.scr.x("xdotool", "mousemove", "--window", t.wid,
                    str(x * cw + px + 5), str(y * ch + py + 5))
            time.sleep(0.2)
            t.scr.x("xdotool", "mousemove", "--window", t.wid,
                    str(x * cw + px), str(y * ch + py))
            time.sleep(0.3)
            t.scr.x("xdotool", "click", "1")
            try:
                wait_picture(t, "%s%d" % (what, i), base, want, tol, mean,
                             extra, edges=edges, ring_tol=ring_tol,
                             wait=6 if attempt < 2 else WAIT)
                break
            except Failure:
                if attempt == 2:
                    raise
                print("  (the click changed nothing in 6 s: clicked again)")
        print("  click at pixel (%d, %d) of the map (its element's %s "
              "pixel): the frame on element %s%s" %
              (px, py, ("first", "last")[i], want,
               " (its cell's middle pixel shows %s)" % (cell_elem,)
               if pixels else " (mouse reports in cells: the cell's "
               "middle pixel's)"))
    return want


def kitty_picture(t, what, base, cur, extra=()):
    """kitty's picture: every pixel the expectation (but chafa's alpha on
    the cursor's frame)."""
    return wait_picture(t, what, base, cur, 0, 255.0, extra, edges=True)[1]


def run_kitty(scr, mode, full):
    t = Term(scr, "kitty-" + mode, kitty_argv, OPTS + ["--graphics", mode],
             "pescope-check")
    g = kitty_picture(t, "start", 10000.0, (0, 0))
    print("kitty --graphics %s: %dx%d picture at (%d, %d), terminal %dx%d "
          "of %dx%d-pixel cells: every pixel as expected, the cursor's "
          "frame's too" % (mode, g[2], g[3], g[0], g[1], g[4], g[5], g[6],
                            g[7]))
    if full:
        t.key("Down")
        kitty_picture(t, "down", 10000.0, (1, 0))
        print("  Down: the same picture, the frame on element (1, 0)")
        t.key("b")
        kitty_picture(t, "base", 5000.0, (1, 0), ["--base", "5000"])
        print("  b: the picture replaced by base 5000's, no pixel stale")
        cur = click(t, "click", 5000.0, ["--base", "5000"], True, 0, 255.0,
                    True, RING_TOL)
        scr.x("xdotool", "windowsize", "--sync", t.wid, "1240", "880")
        g = kitty_picture(t, "resize", 5000.0, cur, ["--base", "5000"])
        print("  resize: the picture replaced, %dx%d at (%d, %d), terminal "
              "%dx%d" % (g[2], g[3], g[0], g[1], g[4], g[5]))
    t.key("q")
    wait_gone(t, "quit")
    print("  q: exit 0, no picture left on the screen")
    warnings(t)


def mlterm_argv(cmd):
    # TERM=xterm (mlterm's default) says 8 colors, where pescope's maps are
    # cells (a legend of 8 colors cannot show a picture's)
    return ["mlterm", "--geometry", "130x42+0+0", "--border", "0",
            "--term", "xterm-256color",
            "--sbmod", "none", "--bg", "black", "--fg", "gray",
            "--fontsize", "12", "-e"] + cmd


def run_images(scr, prog, argv_of, cls, mode, what, tol, mean, ring_tol,
               pixels):
    """A terminal whose pictures hold the frame (sixel, iTerm2's): the
    picture, Down (sent again, framed one element lower), clicks (pixels:
    the terminal reports the mouse in pixels), q."""
    t = Term(scr, "%s-%s" % (prog, mode), argv_of,
             OPTS + ["--graphics", mode], cls)
    _, g = wait_picture(t, "start", 10000.0, (0, 0), tol, mean,
                        ring_tol=ring_tol)
    print("%s --graphics %s (%s): %dx%d picture at (%d, %d), %dx%d-pixel "
          "cells: every pixel within %d, the frame's within %d (mean %.2f, "
          "worst %d, %d frame pixels beyond %d)" %
          (prog, mode, what, g[2], g[3], g[0], g[1], g[6], g[7], tol,
           max(tol, ring_tol), g[8], g[9], g[10], tol))
    t.key("Down")
    wait_picture(t, "down", 10000.0, (1, 0), tol, mean, ring_tol=ring_tol)
    print("  Down: the picture sent again, the frame on element (1, 0)")
    click(t, "click", 10000.0, (), pixels, tol, mean, False, ring_tol)
    t.key("q")
    wait_gone(t, "quit")
    print("  q: exit 0, no picture left on the screen")
    warnings(t)


def run_xterm(scr):
    run_images(scr, "xterm", xterm_argv, "PescopeCheck", "auto", "sixel",
               SIXEL_TOL, SIXEL_MEAN, RING_TOL, True)


def run_mlterm(scr):
    # mlterm 3.9.0 does not know SGR-Pixels (DECRQM 1016: 0): cells
    run_images(scr, "mlterm", mlterm_argv, "mlterm", "auto", "sixel",
               SIXEL_TOL, SIXEL_MEAN, RING_TOL, False)
    # iTerm2's protocol carries chafa's PNG: every pixel exact
    run_images(scr, "mlterm", mlterm_argv, "mlterm", "iterm",
               "iTerm2's inline images", 0, 0.0, 0, False)


def main():
    if not os.access(BIN, os.X_OK):
        print("no pescope binary at %s" % BIN)
        return 1
    for prog in ("Xvfb", "xdotool", "import", "convert"):
        if shutil.which(prog) is None:
            print("%s is not installed: skipped" % prog)
            return 77
    tmp = tempfile.mkdtemp(prefix="pescope-terminals.")
    keep = os.environ.get("PESCOPE_SHOTS")
    if keep:
        os.makedirs(keep, exist_ok=True)
    ran, failed = [], False
    # meson's timeout sends SIGTERM: end through the finally below
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    checks = [("kitty", lambda s: (run_kitty(s, "auto", True),
                                   run_kitty(s, "kitty", False))),
              ("xterm", run_xterm), ("mlterm", run_mlterm)]
    try:
        for prog, check in checks:
            if shutil.which(prog) is None:
                print("%s is not installed: not checked" % prog)
                continue
            scr = None
            try:
                scr = Screen(tmp, keep or tmp)
                check(scr)
                ran.append(prog)
            except Skip as e:
                print("%s: not checked: %s" % (prog, e))
            except Failure as e:
                print("FAIL %s" % e)
                failed = True
            except Exception:
                traceback.print_exc()
                failed = True
            finally:
                if scr is not None:
                    scr.close()
    finally:
        if failed:
            print("logs (and screenshots) kept in %s%s" %
                  (tmp, ", screenshots in " + keep if keep else ""))
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    if failed:
        return 1
    if not ran:
        print("no terminal could run here: skipped")
        return 77
    print("terminals: %s" % ", ".join(ran))
    return 0


if __name__ == "__main__":
    sys.exit(main())
