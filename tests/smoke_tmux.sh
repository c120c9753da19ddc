#!/bin/sh
# Smoke test as a user would run it: pescope in a tmux pane (100x30), keys
# typed with send-keys, the screen read with capture-pane. Exits 77 (meson:
# skipped) when tmux is missing. $PESCOPE_BIN is the binary.
set -u

command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
bin=${PESCOPE_BIN:-./pescope}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
[ -x "$bin" ] || { echo "no binary at $bin"; exit 1; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/pescope-smoke.XXXXXX")
# One tmux server per session: a server may still be exiting after its
# last session closed, and a new session on its socket would race it.
base=pescope-smoke-$$
sock=$base
socks=$sock
t() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() {
	for s in $socks; do
		tmux -L "$s" -f /dev/null kill-server >/dev/null 2>&1
	done
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM

fail() {
	echo "FAIL: $*"
	echo "--- screen ---"
	t capture-pane -p -t smoke 2>/dev/null
	exit 1
}

# Wait up to 10 s for text on the screen.
wait_for() {
	i=0
	while [ $i -lt 100 ]; do
		t capture-pane -p -t smoke 2>/dev/null | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Wait up to 10 s for text to leave the screen.
wait_gone() {
	i=0
	while [ $i -lt 100 ]; do
		t capture-pane -p -t smoke 2>/dev/null | grep -qF -- "$1" || return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# The first frame is the snapshot of the same options (rope starts at
# m = n / 2 in both): mono, so that capture-pane's glyphs are the .txt's.
for args in "-e rope" "--preset llama-3.1-8b"; do
	sock=$base-$(echo "$args" | tr -c 'a-z0-9' '-')
	socks="$socks $sock"
	t new-session -d -s first -x 100 -y 30 \
		"env LC_ALL=C.UTF-8 '$bin' $args --color mono; sleep 10" ||
		fail "tmux new-session"
	# shellcheck disable=SC2086
	"$bin" snapshot $args --size 100x30 -f txt | sed 's/ *$//' >"$dir/want"
	i=0
	while [ $i -lt 100 ]; do
		t capture-pane -p -t first | sed 's/ *$//' >"$dir/got"
		cmp -s "$dir/got" "$dir/want" && break
		sleep 0.1
		i=$((i + 1))
	done
	cmp -s "$dir/got" "$dir/want" || {
		diff "$dir/want" "$dir/got" | head -20
		fail "first frame of '$args' differs from its snapshot"
	}
	t kill-session -t first
done
rm -f "$dir/want" "$dir/got"

sock=$base-smoke
socks="$socks $sock"
t new-session -d -s smoke -x 100 -y 30 \
	"env LC_ALL=C.UTF-8 PESCOPE_SNAPSHOT_DIR='$dir' '$bin'; echo \$? > '$dir/status'; sleep 10" ||
	fail "tmux new-session"

wait_for "1 sinusoidal" || fail "no first frame"
wait_for "d_model 64" || fail "default d_model not shown"

t send-keys -t smoke D
wait_for "d_model 128" || fail "D did not double d_model"

t send-keys -t smoke 4
wait_for "head_dim 128" || fail "4 did not switch to rope"
wait_for "θ[0,0]" || fail "no rope inspector"

t send-keys -t smoke Down Right
wait_gone "θ[0,0]" || fail "arrows did not move the cursor"

t send-keys -t smoke 7
wait_for "grid 14×14" || fail "7 did not switch to vit2d"

t send-keys -t smoke '?'
wait_for "any key closes this help" || fail "? did not open the help"
t send-keys -t smoke x
wait_gone "any key closes this help" || fail "a key did not close the help"

t send-keys -t smoke w
wait_for "saved" || fail "w did not save a snapshot"
ls "$dir"/pescope-vit2d-*.ansi >/dev/null 2>&1 || fail "no .ansi file in $dir"
ls "$dir"/pescope-vit2d-*.txt >/dev/null 2>&1 || fail "no .txt file in $dir"

t send-keys -t smoke q
i=0
while [ ! -s "$dir/status" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$dir/status" ] || fail "q did not quit"
[ "$(cat "$dir/status")" = 0 ] || fail "exit status $(cat "$dir/status"), want 0"
echo "ok: tmux smoke"
exit 0
