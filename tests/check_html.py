#!/usr/bin/python3
"""Check pescope's HTML snapshots with Python's own HTML parser.

  check_html.py [--size WxH] FILE...   check files (the unit tests do this)
  check_html.py                        make snapshots with $PESCOPE_BIN and
                                       check them (meson's e2e suite)

A file passes when it is one well-formed document (a doctype, <meta
charset=utf-8>, a <title>, every element closed in order), and its <pre>
holds exactly H lines of exactly W characters once tags are dropped and
entities decoded (every glyph pescope writes is one column wide). Exit 0
on success, 1 on failure, 77 (meson's "skipped") when there is no binary.
"""
import os
import subprocess
import sys
import tempfile
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "link", "input", "area", "base", "col",
        "embed", "source", "track", "wbr"}


class Checker(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.doctype = None
        self.charset = None
        self.title = None
        self.in_title = False
        self.pre_depth = 0
        self.pre_count = 0
        self.pre_text = []

    def handle_decl(self, decl):
        self.doctype = decl

    def handle_starttag(self, tag, attrs):
        if tag == "meta":
            for k, v in attrs:
                if k == "charset":
                    self.charset = v
        if tag in VOID:
            return
        if self.pre_depth and tag != "span":
            self.errors.append("<%s> inside <pre>" % tag)
        if tag == "span" and self.pre_depth:
            style = dict(attrs).get("style")
            if style is None:
                self.errors.append("<span> without style")
        self.stack.append(tag)
        if tag == "pre":
            self.pre_depth += 1
            self.pre_count += 1
        if tag == "title":
            self.in_title = True
            self.title = ""

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> does not close <%s>" %
                               (tag, self.stack[-1] if self.stack else ""))
            return
        self.stack.pop()
        if tag == "pre":
            self.pre_depth -= 1
        if tag == "title":
            self.in_title = False

    def handle_data(self, data):
        if self.in_title:
            self.title += data
        if self.pre_depth:
            self.pre_text.append(data)


def check(text, size=None):
    """Return a list of problems with one HTML document."""
    p = Checker()
    p.feed(text)
    p.close()
    errs = list(p.errors)
    if p.doctype is None or p.doctype.lower() != "doctype html":
        errs.append("no <!DOCTYPE html> (got %r)" % p.doctype)
    if (p.charset or "").lower() != "utf-8":
        errs.append("no <meta charset=utf-8>")
    if p.title is None:
        errs.append("no <title>")
    if p.stack:
        errs.append("unclosed: %s" % " ".join(p.stack))
    if p.pre_count != 1:
        errs.append("%d <pre> elements, want 1" % p.pre_count)
        return errs
    body = "".join(p.pre_text)
    # A newline right after <pre> is dropped by browsers; pescope writes none.
    if body.startswith("\n"):
        errs.append("<pre> starts with a newline")
    if not body.endswith("\n"):
        errs.append("last line is not newline-terminated")
    lines = body[:-1].split("\n") if body.endswith("\n") else body.split("\n")
    widths = {len(ln) for ln in lines}
    if len(widths) != 1:
        errs.append("lines of different widths: %s" % sorted(widths))
    if size is not None:
        w, h = size
        if len(lines) != h:
            errs.append("%d lines, want %d" % (len(lines), h))
        bad = [i for i, ln in enumerate(lines) if len(ln) != w]
        if bad:
            errs.append("%d lines not %d wide (first: line %d, %d wide)" %
                        (len(bad), w, bad[0], len(lines[bad[0]])))
    return errs


def parse_size(s):
    w, h = s.lower().split("x")
    return int(w), int(h)


def check_file(path, size):
    with open(path, encoding="utf-8") as f:
        errs = check(f.read(), size)
    for e in errs:
        print("%s: %s" % (path, e), file=sys.stderr)
    return not errs


def from_binary():
    """Make HTML snapshots with the real binary and check them."""
    exe = os.environ.get("PESCOPE_BIN")
    if not exe or not os.access(exe, os.X_OK):
        print("no pescope binary ($PESCOPE_BIN); skipped")
        return 77
    ok = True
    runs = [("sinusoidal", "truecolor", (100, 30), "dark"),
            ("rope", "256", (80, 24), "dark"),
            ("alibi", "16", (120, 40), "dark"),
            ("learned", "mono", (90, 28), "dark"),
            ("rope", "truecolor", (120, 40), "light"),
            ("alibi", "8", (80, 24), "light")]
    with tempfile.TemporaryDirectory() as tmp:
        for enc, color, (w, h), theme in runs:
            out = os.path.join(tmp, "%s-%s-%s.html" % (enc, color, theme))
            cmd = [exe, "snapshot", "-e", enc, "--color", color,
                   "--size", "%dx%d" % (w, h), "-f", "html", "-o", out,
                   "--theme", theme]
            r = subprocess.run(cmd, stdin=subprocess.DEVNULL,
                               capture_output=True, text=True)
            if r.returncode != 0:
                print("%s: exit %d: %s" % (" ".join(cmd), r.returncode,
                                           r.stderr.strip()), file=sys.stderr)
                ok = False
                continue
            ok = check_file(out, (w, h)) and ok
    return 0 if ok else 1


def main(argv):
    size = None
    files = []
    i = 0
    while i < len(argv):
        if argv[i] == "--size" and i + 1 < len(argv):
            size = parse_size(argv[i + 1])
            i += 2
            continue
        files.append(argv[i])
        i += 1
    if not files:
        return from_binary()
    ok = True
    for f in files:
        ok = check_file(f, size) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
