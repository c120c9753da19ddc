#!/bin/sh
# Two pescope builds side by side on dump's tables (the kinds and sizes of
# `pescope bench --tables`): each dump on one thread, -o /dev/null, timed
# by the CPU time of the whole process (perf stat's task-clock: what other
# work on a shared machine does not add), best of 5, in turns; GB/s of the
# table's bytes per CPU second (process start included, ~2.5 ms).
# Usage: tools/bench-tables-vs.sh OLD/pescope NEW/pescope
set -eu
[ $# -eq 2 ] || { echo "usage: $0 OLD/pescope NEW/pescope" >&2; exit 2; }
old=$1 new=$2

best() {
	bin=$1 dt=$2
	shift 2
	for i in 1 2 3 4 5; do
		perf stat -x, -e task-clock "$bin" dump --threads 1 --dtype "$dt" \
		    --format npy -o /dev/null "$@" 2>&1 >/dev/null |
		    grep task-clock | cut -d, -f1
	done | sort -g | head -n 1
}

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-18s %5s %9s %9s %9s %9s\n' table MiB "old ms" "new ms" "old GB/s" \
    "new GB/s"
while IFS='|' read -r name dt mib args; do
	# shellcheck disable=SC2086
	o=$(best "$old" "$dt" $args)
	# shellcheck disable=SC2086
	n=$(best "$new" "$dt" $args)
	echo "$name $mib $o $n" | awk '{printf "%-18s %5d %9.1f %9.1f %9.2f %9.2f\n",
	    $1, $2, $3, $4, $2 * 1.048576 / $3, $2 * 1.048576 / $4}'
done <<'CASES'
sinusoidal_pe|f32|256|-e sinusoidal -n 16384 -d 4096 -t pe
sinusoidal_pe_f64|f64|256|-e sinusoidal -n 8192 -d 4096 -t pe
rope_angles|f32|64|-e rope -n 262144 -d 128 -t angles
rope_cos|f32|128|-e rope -n 262144 -d 128 -t cos
rope_sin|f32|128|-e rope -n 262144 -d 128 -t sin
alibi_bias|f32|512|-e alibi -n 4096 --heads 8 -t bias
vit2d_pe|f32|64|-e vit2d --grid 128x128 -d 1024 -t pe
similarity|f32|256|-e sinusoidal -n 8192 -d 512 -t similarity
relative_buckets|f32|128|-e relative -n 4096 -t buckets
nope_mask|f32|256|-e nope -n 8192 -t mask
CASES
