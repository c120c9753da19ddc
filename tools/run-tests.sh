#!/bin/sh
# Run the meson suite in build dir $1 and print its closing summary: every
# test's Criterion synthesis line, then one plain "N passed, N failed" line.
set -u
dir=$1
label=$2
rc=0
meson test -C "$dir" --print-errorlogs --num-processes 2 || rc=$?
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
