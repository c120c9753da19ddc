#!/bin/sh
# Regenerate the golden frames: screenshots.sh PESCOPE DIR. Each line of
# DIR/MANIFEST is "name<TAB>options"; the frame is `pescope snapshot options`
# (read as the shell reads them: --compare "-e rope" is two words).
# Says, per file, what a fresh render changed: new, unchanged, or how many
# of its lines differ and which (for .ansi, how many in their text and how
# many in their colors only), then which files in DIR no MANIFEST line names.
# Exit status 0 whether or not frames changed; review the lines it prints
# and `git diff` before committing.
set -eu
bin=$1
dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# One line describing how file $2 (new) differs from file $1 (old), lines
# compared in order: "N of M lines (ranges)", and when $3 is 1 (the frame
# carries SGR sequences) how many differ in text and how many in colors only.
summary() {
	awk -v old="$1" -v new="$2" -v sgr="$3" '
	function strip(s) { gsub(/\033\[[0-9;]*m/, "", s); return s }
	function range(a, b) { return a == b ? a : a "-" b }
	BEGIN {
		while ((getline l < old) > 0) o[++no] = l
		while ((getline l < new) > 0) n[++nn] = l
		m = no > nn ? no : nn
		for (i = 1; i <= m; i++) {
			if (i <= no && i <= nn && o[i] == n[i])
				continue
			diff++
			if (i > no || i > nn || strip(o[i]) != strip(n[i]))
				text++
			else
				color++
			if (i == last + 1 && last > 0) {
				last = i
				continue
			}
			if (last > 0)
				spans = spans (spans == "" ? "" : ",") range(first, last)
			first = last = i
		}
		if (last > 0)
			spans = spans (spans == "" ? "" : ",") range(first, last)
		if (length(spans) > 40)
			spans = substr(spans, 1, 40) "…"
		s = diff " of " nn " lines (" spans ")"
		if (no != nn)
			s = s ", " no " -> " nn " lines"
		if (sgr)
			s = s ": text " text + 0 ", colors only " color + 0
		print s
	}'
}

grep -v '^#' "$dir/MANIFEST" >"$tmp/manifest" || true
new=0
changed=0
same=0
: >"$tmp/names"
while IFS='	' read -r name args; do
	[ -n "$name" ] || continue
	echo "$name" >>"$tmp/names"
	# the options as the shell reads them: "..." is one word
	eval "set -- $args"
	env -u NO_COLOR "$bin" snapshot "$@" -o "$tmp/frame"
	if [ ! -f "$dir/$name" ]; then
		echo "new        $name ($(wc -l <"$tmp/frame") lines)"
		new=$((new + 1))
	elif cmp -s "$tmp/frame" "$dir/$name"; then
		echo "unchanged  $name"
		same=$((same + 1))
		continue
	else
		echo "changed    $name: $(summary "$dir/$name" "$tmp/frame" \
			"$(case $name in *.ansi) echo 1 ;; *) echo 0 ;; esac)")"
		changed=$((changed + 1))
	fi
	cp "$tmp/frame" "$dir/.$name.tmp"
	mv "$dir/.$name.tmp" "$dir/$name"
done <"$tmp/manifest"
for f in "$dir"/*; do
	base=${f##*/}
	[ "$base" = MANIFEST ] && continue
	[ -f "$f" ] || continue
	grep -qxF "$base" "$tmp/names" ||
		echo "stale      $base (no MANIFEST line names it; not removed)"
done
echo "$changed changed, $new new, $same unchanged"
