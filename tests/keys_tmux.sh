#!/bin/sh
# Keys and faults a lecturer meets, in tmux (100x30): Esc, Alt+keys, keys
# whose sequences the terminfo entry does not know (tmux sends Home as
# \E[1~ while TERM=xterm-256color says \EOH), function keys and 5000 random
# keys must never end pescope; only q does (status 0). Under both
# TERM=xterm-256color and TERM=tmux-256color. Then a terminal that goes
# away: pescope in a session of its own (setsid, so no SIGHUP comes), its
# pane killed: it must end instead of spinning. Exits 77 (meson: skipped)
# when tmux is missing. $PESCOPE_BIN is the binary.
set -u

command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
bin=${PESCOPE_BIN:-./pescope}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
[ -x "$bin" ] || { echo "no binary at $bin"; exit 1; }

# The keys may save snapshots (w is left out, but be safe): run in a
# folder of our own.
dir=$(mktemp -d "${TMPDIR:-/tmp}/pescope-keys.XXXXXX")
# One tmux server per phase: a server may still be exiting after its last
# session closed, and a new session on the same socket would race it.
base=pescope-keys-$$
sock=$base
socks=
pid=
t() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() {
	# the setsid'd pescope when it failed to end (our own child's pid)
	[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null
	for s in $socks; do
		tmux -L "$s" -f /dev/null kill-server >/dev/null 2>&1
	done
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM

fail() {
	echo "FAIL: $*"
	echo "--- screen ---"
	t capture-pane -p -t keys 2>/dev/null
	exit 1
}

# Wait up to 20 s for text on the screen.
wait_for() {
	i=0
	while [ $i -lt 200 ]; do
		t capture-pane -p -t keys 2>/dev/null | grep -qF -- "$1" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# Whether pescope has ended (its pane wrote the exit status).
ended() { [ -s "$dir/status" ]; }

# 5000 random keys, 50 to a send-keys: printable keys but q (quits), w
# (writes files) and ; (tmux's command separator), and named keys, Alt
# keys and harmless control keys. Never Ctrl-C, Ctrl-Z, Ctrl-\ (signals)
# or Ctrl-S / Ctrl-Q (flow control).
random_keys() {
	awk -v seed="$1" 'BEGIN {
		srand(seed)
		n = split("a b c d e f g h i j k l m n o p r s t u v x y z " \
		    "A B C D E F G H I J K L M N O P R S T U V X Y Z " \
		    "0 1 2 3 4 5 6 7 8 9 + - = [ ] < > ? . , / ! @ # % ^ * ( ) " \
		    "Space Tab BTab Enter BSpace Escape Up Down Left Right " \
		    "Home End PPage NPage IC DC F1 F2 F3 F4 F5 F6 F7 F8 F9 " \
		    "F10 F11 F12 M-a M-x M-q M-w M-1 M-[ M-O M-Up M-Left " \
		    "C-Up C-Right S-Up S-F5 C-a C-b C-e C-f C-l C-n C-p", k, " ")
		for (i = 0; i < 100; i++) {
			line = ""
			for (j = 0; j < 50; j++)
				line = line " " k[1 + int(rand() * n)]
			print line
		}
	}'
}

for term in xterm-256color tmux-256color; do
	sock=$base-$term
	socks="$socks $sock"
	rm -f "$dir/status"
	t new-session -d -s keys -x 100 -y 30 \
		"cd '$dir' && env TERM=$term LC_ALL=C.UTF-8 '$bin'; echo \$? > '$dir/status'; sleep 30" ||
		fail "tmux new-session"
	wait_for "1 sinusoidal" || fail "$term: no first frame"

	for k in Escape M-x M-q Home End F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 \
		F12 IC DC; do
		t send-keys -t keys "$k"
		sleep 0.1
		ended && fail "$term: $k ended pescope (status $(cat "$dir/status"))"
	done
	# An unknown sequence is noted, not taken for keys.
	t send-keys -t keys -H 1b 5b 39 39 7e
	wait_for "ESC [99~" || fail "$term: no note for ESC [99~"

	random_keys $$ | while read -r keys; do
		# shellcheck disable=SC2086 # one word per key
		t send-keys -t keys $keys
		ended && break
	done
	sleep 1
	ended && fail "$term: random keys ended pescope (status $(cat "$dir/status"))"
	# a frame: the tab bar, or in the presenter view (P) the parameter
	# line's items
	wait_for "pescope" || wait_for " · " ||
		fail "$term: no frame after the random keys"

	# Close the help if it is up (Esc, then a pause so that q is not
	# Alt+q), then q quits with 0.
	t send-keys -t keys Escape
	sleep 0.5
	ended && fail "$term: Escape ended pescope"
	# On a loaded machine Escape and q can reach pescope in one read,
	# and ESC q is Alt+q (named, not a quit): send q again then.
	for try in 1 2 3; do
		t send-keys -t keys q
		i=0
		while ! ended && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
		ended && break
	done
	ended || fail "$term: q did not quit"
	[ "$(cat "$dir/status")" = 0 ] || fail "$term: exit status $(cat "$dir/status"), want 0"
	t kill-session -t keys
	echo "ok: $term keys"
done

# The terminal goes away under a program in a session of its own.
sock=$base-gone
socks="$socks $sock"
t new-session -d -s keys -x 100 -y 30 \
	"setsid -w sh -c 'echo \$\$ > \"$dir/pid\"; exec env LC_ALL=C.UTF-8 \"$bin\"'" ||
	fail "tmux new-session (setsid)"
wait_for "1 sinusoidal" || fail "setsid: no first frame"
pid=$(cat "$dir/pid")
[ -n "$pid" ] || fail "no pid"
t kill-pane -t keys
# Gone (or a zombie nobody reaped) within 5 s.
i=0
while [ $i -lt 50 ]; do
	state=$(awk '{print $3}' "/proc/$pid/stat" 2>/dev/null)
	case $state in "" | Z) break ;; esac
	sleep 0.1
	i=$((i + 1))
done
case $state in
"" | Z) ;;
*) fail "pescope (pid $pid) still runs 5 s after its terminal went away (state $state, $(ps -o %cpu= -p "$pid")% CPU)" ;;
esac
pid=
echo "ok: a vanished terminal ends pescope"
exit 0
