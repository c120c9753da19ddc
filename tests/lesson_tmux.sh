#!/bin/sh
# Lessons on a stage, in tmux: a presenting instance and a
# speaker's instance in two panes follow each other over one socket; the
# speaker quits and the presenter goes on; a speaker with no presenter
# waits and keeps trying; an edit to the lesson file is shown at once, a
# broken one is named in the status line and the last good scene stays.
# Exits 77 (meson: skipped) when tmux is missing.
set -u

command -v tmux >/dev/null 2>&1 || { echo "tmux not found: skipped"; exit 77; }
bin=${PESCOPE_BIN:-./pescope}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
dir=$(mktemp -d "${TMPDIR:-/tmp}/pescope-lesson.XXXXXX")
sock=pescope-lesson-$$
t() { tmux -L "$sock" -f /dev/null "$@"; }
cleanup() { t kill-server >/dev/null 2>&1; rm -rf "$dir"; }
trap cleanup EXIT INT TERM
fails=0
ok() { echo "ok   $1"; }
bad() {
	echo "FAIL $1"
	echo "--- $2 ---"
	t capture-pane -p -t "$2" 2>/dev/null
	fails=$((fails + 1))
}
# wait (up to 10 s) until pane $1 shows the text $2
shows() {
	i=0
	while [ $i -lt 100 ]; do
		t capture-pane -p -t "$1" 2>/dev/null | grep -qF -- "$2" && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# wait (up to 10 s) until pane $1's first line (the scene line) has $2
top() {
	i=0
	while [ $i -lt 100 ]; do
		t capture-pane -p -t "$1" 2>/dev/null | head -1 | grep -qF -- "$2" \
			&& return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

link=$dir/l.sock
cp "$PESCOPE_FIXTURES/readme.lesson" "$dir/my.lesson"
t new-session -d -x 100 -y 30 -s spk "$bin lesson --speaker --link $link --lesson-file $dir/my.lesson; sleep 30"
shows spk "waiting for the presenting instance at $link" \
	&& ok "a speaker with no presenter waits" || bad "a speaker waits" spk
t new-session -d -x 100 -y 30 -s pre "$bin lesson --link $link --lesson-file $dir/my.lesson; echo exited \$?; sleep 30"
shows pre "1/2 · Sinusoidal, small" && ok "the presenter starts" || bad "presenter" pre
shows spk "linked to the presenting instance" && ok "the speaker keeps trying and links" \
	|| bad "the speaker links" spk
[ "$(stat -c %a "$link")" = 600 ] && ok "the socket is owner-only" || bad "socket mode $(stat -c %a "$link")" pre

t send-keys -t pre NPage
top spk "2/2 · ALiBi's slopes" && ok "PgDn in the presenter steps the speaker" \
	|| bad "the speaker follows" spk
shows spk "Ask which head looks furthest." && ok "the speaker shows the scene's notes" \
	|| bad "notes" spk
shows spk "next: step 2/2 of this scene" && ok "the speaker shows what comes next" \
	|| bad "next" spk
shows spk "min planned" && ok "the speaker's clock" || bad "clock" spk
t send-keys -t spk NPage
shows pre "step 2/2" && shows pre "With 16 heads" \
	&& ok "PgDn in the speaker steps the presenter" || bad "the presenter follows" pre
t send-keys -t spk q
shows pre "the speaker's view quit" && ok "the presenter says the speaker left" \
	|| bad "speaker left" pre
t send-keys -t pre PPage
shows pre "step 1/2" && ok "the presenter goes on alone" || bad "presenter alone" pre

# a presenter restarted mid-lesson: the speaker, stepped alone meanwhile,
# comes back to the audience's scene (the presenter's)
t new-session -d -x 100 -y 30 -s spk2 "$bin lesson --speaker --link $link --lesson-file $dir/my.lesson; sleep 30"
shows spk2 "linked to the presenting instance" && top spk2 "2/2 · ALiBi's slopes" \
	&& ok "a second speaker joins on the presenter's scene" \
	|| bad "second speaker" spk2
t send-keys -t pre q
shows spk2 "the presenting instance quit" && ok "the speaker says the presenter quit" \
	|| bad "presenter quit" spk2
t send-keys -t spk2 PPage PPage
top spk2 "1/2 · Sinusoidal, small" || bad "the speaker steps alone" spk2
t kill-session -t pre
t new-session -d -x 100 -y 30 -s pre "$bin lesson --link $link --lesson-file $dir/my.lesson --scene 2; echo exited \$?; sleep 30"
shows spk2 "linked to the presenting instance" && top spk2 "2/2 · ALiBi's slopes" \
	&& top pre "2/2 · ALiBi's slopes" \
	&& ok "a restarted presenter: the speaker comes back to its scene" \
	|| bad "restarted presenter" spk2
t send-keys -t spk2 q

# live reload: an edit shows, a broken edit is named and the scene stays
sed -i 's/Head 0 has slope/The first head has slope/' "$dir/my.lesson"
shows pre "The first head has slope 0.5" && ok "an edit to the lesson shows at once" \
	|| bad "reload" pre
sed -i 's/^heads = 8$/heads = 0/' "$dir/my.lesson"
shows pre "line 16: --heads '0': must be" && shows pre "(not reloaded)" \
	&& ok "a broken edit is named with its line" || bad "broken edit" pre
t send-keys -t pre Right
sleep 0.5
shows pre "(not reloaded)" && ok "the broken file stays said after a key" \
	|| bad "broken file after a key" pre
t capture-pane -p -t pre | grep -qF "The first head has slope 0.5" \
	&& t capture-pane -p -t pre | grep -qF "2/2 · ALiBi's slopes" \
	&& ok "the last good scene stays" || bad "last good" pre
sed -i 's/^heads = 0$/heads = 12/' "$dir/my.lesson"
shows pre "heads 12" && ok "a fixed edit reloads" || bad "fixed edit" pre
# the lesson file replaced by a FIFO nobody writes to: refused at once (it
# used to freeze the TUI in open(2): no key, not even q, did anything)
mv "$dir/my.lesson" "$dir/my.lesson.good"
mkfifo "$dir/my.lesson"
shows pre "cannot read the lesson file: not a regular file (not reloaded)" \
	&& ok "a FIFO in the lesson file's place is refused" || bad "fifo" pre
t send-keys -t pre PPage
top pre "1/2 · Sinusoidal, small" && ok "the keys go on after a FIFO" \
	|| bad "keys after a FIFO" pre
rm "$dir/my.lesson"
mv "$dir/my.lesson.good" "$dir/my.lesson"
shows pre "reloaded" && ok "the file back in place reloads" || bad "reload after FIFO" pre
t send-keys -t pre q
shows pre "exited 0" && ok "q ends the presenter with 0" || bad "exit" pre
[ ! -e "$link" ] && ok "the socket is removed" || bad "socket left behind" pre

# a restart mid-class goes on where the class is: the presenter keeps its
# place (XDG_STATE_HOME), and one restarted while a speaker's view is
# linked takes the speaker's scene (it went back to scene 1 and dragged the
# speaker with it)
st="XDG_STATE_HOME=$dir/state"
rl=$dir/r.sock
t new-session -d -x 100 -y 30 -s rp "$st $bin lesson --link $rl; sleep 30"
top rp "1/18 · Word order matters" || bad "intro starts at its first scene" rp
t new-session -d -x 100 -y 30 -s rs "$st $bin lesson --speaker --link $rl; sleep 30"
shows rs "linked to the presenting instance" || bad "speaker links" rs
t send-keys -t rp NPage NPage NPage NPage NPage NPage
top rp "5/18 · PE(p+K)" && top rs "5/18 · PE(p+K)" \
	&& ok "six PgDn: both at 5/18" || bad "six PgDn" rs
t send-keys -t rp q
shows rs "the presenting instance quit" || bad "presenter quit" rs
t send-keys -t rs NPage NPage
top rs "7/18 · Learned" || bad "the speaker steps alone" rs
t kill-session -t rp
t new-session -d -x 100 -y 30 -s rp "$st $bin lesson --link $rl; sleep 30"
shows rs "linked to the presenting instance" && top rp "7/18 · Learned" \
	&& top rs "7/18 · Learned" \
	&& ok "a restarted presenter takes the linked speaker's scene" \
	|| bad "restart with a speaker" rp
t send-keys -t rs q
t send-keys -t rp q
sleep 0.5
t kill-session -t rp
t kill-session -t rs
t new-session -d -x 100 -y 30 -s rp "$st $bin lesson --link $rl; sleep 30"
top rp "7/18 · Learned" && shows rp "resumed at scene 7/18" \
	&& ok "alone, a restarted presenter resumes where the lesson was left" \
	|| bad "resume alone" rp
t send-keys -t rp Home
top rp "1/18 · Word order matters" && ok "Home: the first scene" \
	|| bad "Home" rp
t send-keys -t rp End
top rp "18/18" && ok "End: the last scene" || bad "End" rp
t send-keys -t rp q
sleep 0.5
t kill-session -t rp
t new-session -d -x 100 -y 30 -s rp "$st $bin lesson --link $rl --scene 3; sleep 30"
top rp "3/18 · The sinusoidal formula" && ok "--scene K starts elsewhere" \
	|| bad "--scene" rp
# a clicker's blank key: b blanks the projector, any key brings it back
# and does nothing else
t send-keys -t rp b
i=0
while [ $i -lt 50 ] && t capture-pane -p -t rp | grep -q "3/18"; do
	sleep 0.1
	i=$((i + 1))
done
t capture-pane -p -t rp | grep -q "3/18" && bad "b blanks the screen" rp \
	|| ok "b blanks the screen"
t send-keys -t rp N
top rp "3/18 · The sinusoidal formula" &&
	! t capture-pane -p -t rp | grep -q "seq_len 100" \
	&& ok "any key brings it back and does nothing else" \
	|| bad "unblank" rp
t send-keys -t rp q
sleep 0.5
t kill-session -t rp

# a link path that is not a socket: the link is optional, the lesson runs
# and says why the speaker's view is unavailable; the file stays
: >"$dir/file"
t new-session -d -x 160 -y 30 -s file "$bin lesson --link $dir/file; sleep 30"
shows file "unavailable: $dir/file exists and is not a socket" \
	&& ok "--link to a file: the lesson runs and says why" \
	|| bad "--link to a file" file
[ -f "$dir/file" ] && ok "the file is kept" || bad "the file was removed" file

echo "$fails failed"
[ "$fails" -eq 0 ]
