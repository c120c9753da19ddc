#!/bin/sh
# `make screenshots` says what it changed: tools/screenshots.sh run on a
# scratch manifest reports new frames, unchanged ones, which lines of a
# changed frame differ (text, or colors only), and files no line names.
# $PESCOPE_BIN is the binary, $PESCOPE_SRCDIR the source tree.
set -u
bin=${PESCOPE_BIN:?}
src=${PESCOPE_SRCDIR:?}
dir=$(mktemp -d "${TMPDIR:-/tmp}/pescope-shots.XXXXXX")
out=$(mktemp "${TMPDIR:-/tmp}/pescope-shots-out.XXXXXX")
trap 'rm -rf "$dir" "$out"' EXIT INT TERM
fail() {
	echo "FAIL: $*"
	echo "--- output ---"
	cat "$out"
	exit 1
}
expect() { # expect PATTERN WHAT: a line of the output matches PATTERN
	grep -q -- "$1" "$out" || fail "$2"
}
run() { sh "$src/tools/screenshots.sh" "$bin" "$dir" >"$out" 2>&1 ||
	fail "screenshots.sh exited $?"; }

printf '# scratch\na.txt\t-e nope --size 80x24 -f txt\nb.ansi\t-e nope --size 80x24 --color 16 -f ansi\n' \
	>"$dir/MANIFEST"
run
expect '^new  *a.txt' "a new frame is not reported as new"
expect '^new  *b.ansi' "a new frame is not reported as new"

run
expect '^unchanged  *a.txt' "an identical frame is not reported as unchanged"
expect '0 changed, 0 new, 2 unchanged' "no closing count"

# One line of text changed in a.txt (line 3), one color in b.ansi (line 5).
sed '3s/^./X/' "$dir/a.txt" >"$dir/a.tmp" && mv "$dir/a.tmp" "$dir/a.txt"
sed '5s/\[0;3/[0;9/' "$dir/b.ansi" >"$dir/b.tmp" && mv "$dir/b.tmp" "$dir/b.ansi"
touch "$dir/old.txt"
run
expect '^changed  *a.txt: 1 of 24 lines (3)' "a changed line is not named"
expect '^changed  *b.ansi: 1 of 24 lines (5): text 0, colors only 1' \
	"a color-only change is not told apart"
expect '^stale  *old.txt' "a file no MANIFEST line names is not reported"
expect '2 changed, 0 new, 0 unchanged' "no closing count"
# and the frames are fresh again
run
expect '0 changed, 0 new, 2 unchanged' "the changed frames were not rewritten"
echo "ok"
