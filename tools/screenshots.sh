#!/bin/sh
# Regenerate the golden frames: screenshots.sh PESCOPE DIR. Each line of
# DIR/MANIFEST is "name<TAB>options"; the frame is `pescope snapshot options`.
set -eu
bin=$1
dir=$2
grep -v '^#' "$dir/MANIFEST" | while IFS='	' read -r name args; do
	[ -n "$name" ] || continue
	# shellcheck disable=SC2086
	env -u NO_COLOR "$bin" snapshot $args -o "$dir/$name"
	echo "wrote $dir/$name"
done
