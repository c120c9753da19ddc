#!/bin/sh
# Streamed dumps: tables big enough for many chunks, in both
# formats and dtypes, with --threads 2 and 3 equal byte for byte what
# --threads 1 writes; the NPY header is numpy's for the shape; a dump
# killed by SIGINT or SIGTERM halfway leaves no file, temporary or final;
# with stderr not a terminal nothing but errors reaches it. $PESCOPE_BIN is
# the binary.
set -u
bin=${PESCOPE_BIN:?}
dir=$(mktemp -d "${TMPDIR:-/tmp}/pescope-stream.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM

fails=0 n=0
fail() {
	echo "FAIL $*"
	fails=$((fails + 1))
}

# Each table spans several chunks (128 Ki values for NPY, 32 Ki for CSV).
# A line may start with the one format it is for ("csv:").
while read -r args; do
	fmts="npy csv"
	case $args in
	csv:* | npy:*)
		fmts=${args%%:*}
		args=${args#*:}
		;;
	esac
	for fmt in $fmts; do
		for dt in f32 f64; do
			n=$((n + 1))
			# shellcheck disable=SC2086
			"$bin" dump $args --format $fmt --dtype $dt --threads 1 \
			    -o "$dir/one" 2>"$dir/err" || { fail "$args $fmt $dt: $(cat "$dir/err")"; continue; }
			[ -s "$dir/err" ] && fail "$args $fmt $dt: stderr not empty"
			for t in 2 3; do
				# shellcheck disable=SC2086
				"$bin" dump $args --format $fmt --dtype $dt --threads $t \
				    -o "$dir/many" 2>"$dir/err" &&
				    cmp -s "$dir/one" "$dir/many" ||
				    fail "$args $fmt $dt: --threads $t differs from --threads 1"
			done
		done
	done
done <<'EOF'
-e sinusoidal -n 3000 -d 128 -t pe
-e sinusoidal -n 2000 -d 100 --layout split -t pe
-e rope -n 5000 -d 64 -t cos
-e rope -n 3000 -d 96 --pairing interleaved --partial-rotary 0.5 -t sin
-e rope -n 4000 -d 64 -t angles
npy:-e alibi --heads 4 -n 300 -t bias
csv:-e alibi --heads 4 -n 300 --head 2 -t bias
-e sinusoidal -n 700 -d 32 -t similarity
-e vit2d --grid 40x40 -d 128 -t pe
-e vit2d --grid 20x30 -d 32 -t cosine
-e relative -n 600 -t buckets
-e nope -n 500 -t mask
-e rope -n 300000 -d 16 -t profile
EOF

# Standard output gets the same bytes as a file.
n=$((n + 1))
"$bin" dump -e rope -n 5000 -d 64 -t cos --format npy --threads 3 >"$dir/out" &&
	"$bin" dump -e rope -n 5000 -d 64 -t cos --format npy --threads 1 -o "$dir/one" &&
	cmp -s "$dir/out" "$dir/one" || fail "stdout differs from -o"

# A signal halfway through a long dump (a 3 GiB CSV that takes many
# seconds) leaves the folder empty: no partial file, no temporary file; the
# dump dies of the signal. That holds for every signal whose default action
# ends a program (those that dump core too). Python starts it with the
# signals' default dispositions (a background job of a script ignores
# SIGINT).
for sig in INT TERM HUP QUIT USR1 USR2 ALRM VTALRM PROF PIPE XCPU IO \
    RTMIN RTMAX ABRT SEGV BUS ILL FPE TRAP SYS; do
	n=$((n + 1))
	mkdir "$dir/kill-$sig"
	/usr/bin/python3 - "$bin" "$dir/kill-$sig" "$sig" <<'PY' || fail "SIG$sig"
import os, resource, signal, subprocess, sys, time
bin, folder, name = sys.argv[1], sys.argv[2], sys.argv[3]
sig = getattr(signal, "SIG" + name)
def defaults():
    for s in range(1, signal.NSIG):
        if s not in (signal.SIGKILL, signal.SIGSTOP):
            try:
                signal.signal(s, signal.SIG_DFL)
            except (OSError, ValueError):
                pass
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
# the sanitizers' own handlers of faults would report, not die of them
env = dict(os.environ)
env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + ":handle_segv=0:" \
    "handle_sigbus=0:handle_sigill=0:handle_sigfpe=0:handle_abort=0:" \
    "handle_sigtrap=0"
p = subprocess.Popen([bin, "dump", "-e", "sinusoidal", "-n", "200000", "-d",
                      "1024", "-t", "pe", "--dtype", "f64", "-o",
                      os.path.join(folder, "big.csv")],
                     stderr=subprocess.DEVNULL, preexec_fn=defaults, env=env)
# wait until the temporary file has grown, then signal
for _ in range(200):
    names = os.listdir(folder)
    if names and os.path.getsize(os.path.join(folder, names[0])) > 1000000:
        break
    time.sleep(0.05)
p.send_signal(sig)
try:
    rc = p.wait(timeout=30)
except subprocess.TimeoutExpired:
    p.kill()
    print("the dump went on after SIG%s" % name)
    sys.exit(1)
left = os.listdir(folder)
if rc != -sig or left:
    print("SIG%s: exit %d, left %s" % (name, rc, left))
    sys.exit(1)
PY
done

# A file size limit (ulimit -f) the dump passes: SIGXFSZ does not kill it
# silently; it says so ("file size limit exceeded"), exits 1 and leaves
# nothing, in both formats.
for fmt in csv npy; do
	n=$((n + 1))
	mkdir "$dir/fsize-$fmt"
	/usr/bin/python3 - "$bin" "$dir/fsize-$fmt" "$fmt" <<'PY' || fail "file size limit ($fmt)"
import os, resource, signal, subprocess, sys
bin, folder, fmt = sys.argv[1], sys.argv[2], sys.argv[3]
def limit():
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))
p = subprocess.run([bin, "dump", "-e", "sinusoidal", "-n", "20000", "-d",
                    "256", "-t", "pe", "--format", fmt, "-o",
                    os.path.join(folder, "big." + fmt)],
                   stderr=subprocess.PIPE, preexec_fn=limit, timeout=120)
err = p.stderr.decode()
left = os.listdir(folder)
if p.returncode != 1 or "file size limit exceeded" not in err or left:
    print("exit %d, left %s, stderr %r" % (p.returncode, left, err))
    sys.exit(1)
PY
done

echo "stream: $((n - fails)) passed, $fails failed"
[ $fails -eq 0 ]
