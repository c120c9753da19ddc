#!/bin/sh
# The lesson command line: --list, snapshots of scenes at every
# size and color depth, --all, and the refusals (exit 2, naming the option,
# the file and the line).
set -u
bin=${PESCOPE_BIN:?}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok   $1"; }
bad() { echo "FAIL $1"; fails=$((fails + 1)); }

# refused: exit 2 and the message has the words
refused() {
	want=$1; shift
	"$bin" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -qF -- "$want" "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "refused: $*"
	else
		bad "refused: $* (exit $rc): $(cat "$tmp/err")"
	fi
}

n=$("$bin" lesson --list | grep -c '^[0-9][0-9]* ')
[ "$n" -ge 16 ] && ok "lesson --list: $n scenes" || bad "lesson --list: $n scenes"
"$bin" lesson --list | head -1 | grep -q '^intro: ' && ok "lesson --list names the lesson" \
	|| bad "lesson --list names the lesson"
"$bin" lesson --placeholders | grep -q '^{slope:H}' && ok "lesson --placeholders" \
	|| bad "lesson --placeholders"

# every scene step of a built-in lesson ($1) at three sizes, every depth
# and both themes, and in the presenter view: drawn, nothing cut, no
# placeholder left; its handout a page per step
check_steps() {
	les=$1
	steps=$("$bin" lesson "$les" --list | awk '/^[0-9]/ { k = $1; s = 1; if (match($0, /\(([0-9]+) steps\)$/)) s = substr($0, RSTART + 1) + 0; for (i = 1; i <= s; i++) print k "." i }')
	count=0
	for ks in $steps; do
		for size in 80x24 120x40 200x60; do
			for color in mono 8 16 256 truecolor; do
				for theme in dark light; do
					"$bin" snapshot --lesson "$les" --scene "$ks" --size "$size" \
					    --color "$color" --theme "$theme" -o "$tmp/f.ansi" \
					    2>"$tmp/err" || bad "$les scene $ks $size $color $theme: $(cat "$tmp/err")"
					count=$((count + 1))
				done
			done
			for present in "" --present; do
				"$bin" snapshot --lesson "$les" --scene "$ks" --size "$size" -f txt \
				    $present >"$tmp/f.txt" || bad "$les scene $ks $size txt $present"
				grep -q "more line" "$tmp/f.txt" && bad "$les scene $ks $size $present: the caption does not fit"
				grep -q "{[a-z_][a-z_0-9]*[:}]" "$tmp/f.txt" && bad "$les scene $ks $size $present: a placeholder is left"
				count=$((count + 1))
			done
		done
	done
	ok "$les: $count scene snapshots"
	# --all -f pdf: the handout, a page per scene step
	if command -v pdfinfo >/dev/null 2>&1; then
		"$bin" snapshot --lesson "$les" --all -f pdf --theme light -o "$tmp/h.pdf" \
			&& [ "$(pdfinfo "$tmp/h.pdf" | awk '/^Pages:/ { print $2 }')" -eq "$(echo $steps | wc -w)" ] \
			&& ok "$les --all -f pdf: a page per step" || bad "$les --all -f pdf: $(pdfinfo "$tmp/h.pdf" 2>&1 | head -3)"
	else
		echo "skip --all -f pdf: no pdfinfo (poppler-utils)"
	fi
}
check_steps intro
n=$("$bin" lesson modern --list | grep -c '^[0-9][0-9]* ')
[ "$n" -ge 10 ] && [ "$n" -le 14 ] && ok "lesson modern --list: $n scenes" \
	|| bad "lesson modern --list: $n scenes"
check_steps modern
steps=$("$bin" lesson intro --list | awk '/^[0-9]/ { k = $1; s = 1; if (match($0, /\(([0-9]+) steps\)$/)) s = substr($0, RSTART + 1) + 0; for (i = 1; i <= s; i++) print k "." i }')

# --all: a file per scene step
"$bin" snapshot --lesson intro --all -f txt --size 80x24 -o "$tmp/all" \
	&& [ "$(ls "$tmp/all" | wc -l)" -eq "$(echo $steps | wc -w)" ] \
	&& [ -f "$tmp/all/01-word-order-matters-1.txt" ] \
	&& ok "--all writes $(ls "$tmp/all" | wc -l) files" || bad "--all: $(ls "$tmp/all")"

# the guide's example lesson (docs/lessons.md)
"$bin" snapshot --lesson-file "$PESCOPE_FIXTURES/readme.lesson" --scene 2.2 -f txt \
	| grep -q "With 16 heads the steepest slope is" && ok "the guide's lesson renders" \
	|| bad "the guide's lesson renders"

refused "--paper has no effect with -f txt: it sizes PDF pages" \
	snapshot --lesson intro --all -f txt --paper a4 -o "$tmp/p"
refused "--no-notes has no effect here" snapshot --lesson intro --scene 2 -f pdf \
	--no-notes -o "$tmp/n.pdf"
refused "--paper" snapshot -e rope -f pdf --paper a5 -o "$tmp/a5.pdf"
refused "--duration" lesson --duration 0
refused "--duration" lesson --duration soon
refused "--head-scale" snapshot -e rope --head-scale own
# past a lesson's bounds: refused with the bound and the line
{ echo "[scene] many"; i=0; while [ $i -lt 1000 ]; do echo "[pause]"; i=$((i + 1)); done; } \
	>"$tmp/many.lesson"
refused "many.lesson, line 1001: a lesson has at most 1000 steps" lesson --lesson-file \
	"$tmp/many.lesson" --list
refused "--lesson 'nosuch': unknown lesson; the built-in lessons are intro" \
	snapshot --lesson nosuch
refused "--scene 99: lesson intro has" snapshot --lesson intro --scene 99
refused "--scene 1.5: scene 1 has 2 steps" snapshot --lesson intro --scene 1.5
refused "--scene 'x'" lesson --scene x
refused "--scene: needs --lesson NAME or --lesson-file FILE" snapshot --scene 2
refused "--all: needs -o DIR" snapshot --lesson intro --all
refused "-o '$tmp/one.svg': --all writes a file per scene into a folder" \
	snapshot --lesson intro --all -f svg -o "$tmp/one.svg"
refused "--all and --scene" snapshot --lesson intro --all --scene 2 -o "$tmp/x"
refused "--d-model has no effect with --lesson" snapshot --lesson intro -d 8
refused "--d-model does not apply to lesson" lesson -d 8
refused "--lesson and --lesson-file" snapshot --lesson intro --lesson-file x
refused "--lesson-file '$tmp/none': cannot read it" snapshot --lesson-file "$tmp/none"
printf '[scene] a\nencoding = rope\nd-model = 63\n' >"$tmp/bad.lesson"
refused "lesson $tmp/bad.lesson, line 3: scene a: --d-model 63" snapshot --lesson-file "$tmp/bad.lesson"
refused "lesson $tmp/bad.lesson, line 3" lesson --lesson-file "$tmp/bad.lesson"
printf 'x' >"$tmp/file"
refused "-o '$tmp/file': --all writes a file per scene into a folder" \
	snapshot --lesson intro --all -o "$tmp/file"

echo "$fails failed"
[ "$fails" -eq 0 ]
