#!/usr/bin/env python3
"""No two files of a layer call each other in a loop (HACKING.md).

Reads the program's static libraries with nm: for each object file
(src_LAYER_NAME.c.o) the functions it defines and the symbols it uses. A
file calls another of its layer when it uses a function the other defines;
a strongly connected set of two or more files is a loop. The loops the
tree still has are listed in KNOWN; a loop that is not within one of them
fails, naming each call that makes it. Usage: check_calls.py LIB.a..."""
import collections
import re
import subprocess
import sys

# The loops left to break, by layer and files: a loop within one of these
# is reported, not failed (so breaking part of one is fine); a loop with a
# file of none of them fails; one that is gone says to take it out.
KNOWN = [
    # render: writer.c dispatches to svg.c, pdf.c and png.c, which use
    # its glyphs through paint.c
    ('render', {'paint.c', 'pdf.c', 'png.c', 'svg.c', 'writer.c'}),
    # kernel: field.c's modules call back for the interrupt check
    ('kernel', {'encoding.c', 'field.c', 'field_learned.c', 'field_scan.c',
                'field_sim.c', 'field_wave.c', 'xpos.c'}),
    # app: the option parser asks commands.c for a command's label
    # (options_apply.c -> pe_command_label), and commands.c runs them all
    # (the preset picker too: the TUI's hook parses --preset NAME)
    ('app', {'commands.c', 'lesson_build.c', 'lesson_export.c',
             'lesson_live.c', 'lesson_read.c', 'options.c', 'options_apply.c',
             'options_compare.c', 'options_preset.c', 'picker.c'}),
]


def objects(libs):
    """{file: (defined functions, used symbols)} from nm -A of libs."""
    files = collections.defaultdict(lambda: (set(), set()))
    for lib in libs:
        out = subprocess.run(['nm', '-A', lib], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            m = re.match(r'.*[:/]src_([a-z]+)_(.+)\.c\.o:\s*(\S*)\s+(\w)\s+(\S+)$',
                         line)
            if not m:
                continue
            f = (m.group(1), m.group(2) + '.c')
            if m.group(4) == 'T':
                files[f][0].add(m.group(5))
            elif m.group(4) == 'U':
                files[f][1].add(m.group(5))
    return files


def loops(files):
    """The strongly connected sets of files (Tarjan), with their calls."""
    owner = {s: f for f, (defs, _) in files.items() for s in defs}
    calls = collections.defaultdict(lambda: collections.defaultdict(set))
    for f, (_, used) in files.items():
        for s in used:
            g = owner.get(s)
            if g is not None and g != f and g[0] == f[0]:
                calls[f][g].add(s)
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in calls[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(comp)

    sys.setrecursionlimit(10000)
    for v in sorted(files):
        if v not in index:
            visit(v)
    return found, calls


def main():
    files = objects(sys.argv[1:])
    if len(files) < 50:
        print('FAIL only %d object files in %s' % (len(files), sys.argv[1:]))
        return 1
    found, calls = loops(files)
    fails, used = 0, set()
    for comp in found:
        layer, names = comp[0][0], {f[1] for f in comp}
        within = [i for i, (kl, kf) in enumerate(KNOWN)
                  if kl == layer and names <= kf]
        if within:
            used.add(within[0])
            print('known %s: %s' % (layer, ' '.join(sorted(names))))
            continue
        fails += 1
        print('FAIL %s files call each other in a loop: %s' %
              (layer, ' '.join(sorted(names))))
        for a in sorted(comp):
            for b in sorted(comp):
                if b in calls[a]:
                    print('  %s -> %s: %s' % (a[1], b[1],
                                             ' '.join(sorted(calls[a][b]))))
    for i, (layer, names) in enumerate(KNOWN):
        if i not in used:
            print('ok   the %s loop of %s is gone: take it out of KNOWN' %
                  (layer, ' '.join(sorted(names))))
    print('%d files, %d loops, %d not known' % (len(files), len(found), fails))
    return 1 if fails else 0


sys.exit(main())
