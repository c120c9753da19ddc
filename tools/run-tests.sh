#!/bin/sh
# Run the meson suite in build dir $1 and print its closing summary: every
# test's Criterion synthesis line, then one plain "N passed, N failed" line.
# Arguments after the label go to meson test (--suite unit: the clang build).
set -u
dir=$1
label=$2
shift 2
rc=0
logs="$dir/tests/sanitizer-logs"
rm -rf "$logs"
mkdir -p "$logs"
meson test -C "$dir" --print-errorlogs --num-processes 2 "$@" || rc=$?
# A sanitizer report anywhere (a leak in a Criterion worker, say) fails the
# run even when the test itself passed.
if [ -n "$(ls -A "$logs" 2>/dev/null)" ]; then
	echo "== sanitizer reports ($label) =="
	cat "$logs"/*
	echo "$label: sanitizer reports found: failing the run"
	rc=1
fi
log="$dir/meson-logs/testlog.txt"
if [ -f "$log" ]; then
	echo "== Criterion summaries ($label) =="
	grep -h "Synthesis:" "$log" | sed 's/\x1b\[[0-9;]*m//g' || true
fi
json="$dir/meson-logs/testlog.json"
if [ -f "$json" ]; then
	pass=$(grep -c '"result": "OK"' "$json")
	fail=$(grep -c '"result": "\(FAIL\|TIMEOUT\|ERROR\|UNEXPECTEDPASS\)"' "$json")
	skip=$(grep -c '"result": "SKIP"' "$json")
	echo "$label: $pass passed, $fail failed, $skip skipped"
	echo "$pass $fail $skip" >"$dir/summary.txt"
fi
exit $rc
