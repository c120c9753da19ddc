#!/bin/sh
# tools/check-layers.sh passes on the tree and fails on a copy with a
# wrong-way include (view -> tui), a sideways one (kernel -> render) and
# curses outside src/tui.
set -u
src=${PESCOPE_SRCDIR:?}
dir=$(mktemp -d "${TMPDIR:-/tmp}/pescope-layers.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
fails=0 n=0
expect() { # expect STATUS WHAT
	n=$((n + 1))
	sh "$src/tools/check-layers.sh" "$dir" "$dir/stamp" 2>"$dir/err"
	rc=$?
	if [ "$rc" -eq "$1" ]; then echo "ok   $2"; else echo "FAIL $2 (status $rc)"; cat "$dir/err"; fails=$((fails + 1)); fi
}
cp -r "$src/include" "$src/src" "$dir/"
expect 0 "the tree's includes point down"
echo '#include "tui/tui.h"' >>"$dir/src/view/panels.c"
expect 1 "view including tui fails"
cp "$src/src/view/panels.c" "$dir/src/view/panels.c"
echo '#include "render/canvas.h"' >>"$dir/src/kernel/nope.c"
expect 1 "kernel including render fails"
cp "$src/src/kernel/nope.c" "$dir/src/kernel/nope.c"
echo '#include <curses.h>' >>"$dir/src/view/view.c"
expect 1 "curses outside src/tui fails"
echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
