#!/bin/sh
# Numbers do not follow the locale: under Italian and German
# locales (decimal comma) every number pescope reads and writes is the same
# as under C.UTF-8: CSV, options, preset files, factor lists and the labels
# on screen. The locales are built with localedef into a temporary folder
# (LOCPATH), so no root is needed; exits 77 (skipped) without localedef or
# its sources (Debian package `locales`). $PESCOPE_BIN is the binary.
set -u
bin=${PESCOPE_BIN:?}
command -v localedef >/dev/null 2>&1 || { echo "no localedef: skipped"; exit 77; }
[ -f /usr/share/i18n/locales/it_IT ] || { echo "no locale sources: skipped"; exit 77; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/pescope-locale.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM
for l in it_IT de_DE; do
	localedef -i $l -f UTF-8 "$dir/$l.UTF-8" 2>/dev/null ||
		{ echo "localedef $l failed: skipped"; exit 77; }
done
export LOCPATH="$dir"
# The comma-decimal locale really is in force (else the test proves nothing).
[ "$(LC_ALL=it_IT.UTF-8 locale decimal_point 2>/dev/null)" = , ] ||
	{ echo "it_IT.UTF-8 is not in force: skipped"; exit 77; }

printf '1 1.5 2.25 3\n' >"$dir/short.txt"
printf '{"model_type": "llama", "num_hidden_layers": 2, "head_dim": 64,
 "max_position_embeddings": 4096, "rope_theta": 12345.5,
 "rope_scaling": {"rope_type": "yarn", "factor": 2.5,
   "original_max_position_embeddings": 1024, "mscale": 0.707}}\n' \
	>"$dir/c.json"

fails=0 n=0
check() {
	n=$((n + 1))
	LC_ALL=C.UTF-8 "$bin" "$@" >"$dir/c.out" 2>&1
	rc=$?
	for l in it_IT.UTF-8 de_DE.UTF-8; do
		LC_ALL=$l "$bin" "$@" >"$dir/l.out" 2>&1
		lrc=$?
		if [ $lrc -ne $rc ] || ! cmp -s "$dir/c.out" "$dir/l.out"; then
			echo "FAIL ($l): pescope $*"
			diff "$dir/c.out" "$dir/l.out" | head -5
			fails=$((fails + 1))
			return
		fi
	done
	[ $rc -eq 0 ] || { echo "FAIL: exit $rc: pescope $*"; cat "$dir/c.out"; fails=$((fails + 1)); return; }
	echo "ok   $*"
}

check dump -d 4 -n 3 -t pe
check dump --base 1.5 -d 4 -n 3 -t pe --dtype f64
check dump -e rope --rope-scaling yarn --factor 2.5 --mscale 0.707 --mscale-all-dim 0.707 -t attention_scaling
check dump -e rope -d 8 --rope-scaling longrope --short-factor @"$dir/short.txt" --long-factor 1,2.5,3,4 -t inv_freq
check dump --config "$dir/c.json" -t inv_freq
check dump --config "$dir/c.json" -t attention_scaling
check model "$dir/c.json"
check dump --preset gpt-neox-20b -t inv_freq
check dump --preset deepseek-v2 -t attention_scaling
check dump --preset gpt-j-6b -t inv_freq
check dump -e alibi --heads 12 -t slopes
check snapshot --preset llama-3.1-8b -n 32768 --cursor 4096,0 -f txt
check snapshot -e alibi --heads 12 -f ansi --color 256
check snapshot -e rope --rope-scaling yarn --factor 2.5 -f html

echo "$((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
