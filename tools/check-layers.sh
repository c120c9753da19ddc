#!/bin/sh
# The layers point one way (HACKING.md): app -> tui -> view -> render ->
# kernel, app -> io. A project include ("layer/file.h") that points up or
# sideways, or <curses.h> outside src/tui, fails the build: meson runs this
# before it compiles anything. Usage: check-layers.sh SRCDIR STAMP.
set -u
top=$1
stamp=$2
status=0

# Which layers' headers each layer may include (besides its own).
allowed() {
	case $1 in
	pescope | kernel) echo "pescope kernel" ;;
	io) echo "pescope io" ;;
	render) echo "pescope render colormaps" ;;
	view) echo "pescope render io view" ;;
	tui) echo "pescope render io view tui" ;;
	app) echo "pescope render io view tui app" ;;
	*) echo "" ;;
	esac
}

for file in "$top"/include/pescope/*.h "$top"/src/*/*.[ch]; do
	[ -f "$file" ] || continue
	case $file in
	"$top"/include/pescope/*) layer=pescope ;;
	*) layer=$(basename "$(dirname "$file")") ;;
	esac
	ok=$(allowed "$layer")
	# "dir/name.h" includes; a bare "name.h" is the file's own folder.
	for dir in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([a-z_]*\)\/[^"]*".*/\1/p' "$file" | sort -u); do
		case " $ok " in
		*" $dir "*) ;;
		*)
			echo "$file: includes \"$dir/...\": the $layer layer may include only: $ok" >&2
			status=1
			;;
		esac
	done
	if [ "$layer" != tui ] && grep -q '^[[:space:]]*#[[:space:]]*include[[:space:]]*<n\{0,1\}curses' "$file"; then
		echo "$file: includes curses: only src/tui talks to the terminal" >&2
		status=1
	fi
done
[ $status -eq 0 ] && : >"$stamp"
exit $status
