#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# synthesize.sh - perfx's synthesis of existing tasks against perf's, in
# one run on the same /proc.
#
#   bench/synthesize.sh [-p "PROCS..."] [-T THREADS] [-m MAPS] [-I ITER] [-r RUNS] [-o RESULT.md]
#
# For each population size P (default "0 250 1000"; 0 is the machine as it
# is), tests/synth-population starts P still processes of THREADS threads
# (default 4) with MAPS executable and MAPS data maps each (default 10),
# removed afterwards.  Then RUNS times (default 3), in turn:
#   perf bench internals synthesize -t -m 1 -M 2 -I ITER
#   perfx bench internals synthesize -t -m 1 -M 2 -I ITER --auto-threads --floor
# and usec per record: perf and perfx with 1 and 2 threads, perfx with the
# count it chooses, and the floor (reading the files perfx reads, without
# synthesis).  Last, perf's and perfx's -s (this process's threads).
# Ratios are of means over the runs.  The machine is shared: the load
# average is printed with each population.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
perfx=$here/tools/perfx/perfx
pop=$here/tools/perfx/build/asan/synth-population
sizes="0 250 1000"
threads=4
maps=10
iter=5
runs=3
out=
while getopts "p:T:m:I:r:o:" o; do
	case $o in
	p) sizes=$OPTARG ;;
	T) threads=$OPTARG ;;
	m) maps=$OPTARG ;;
	I) iter=$OPTARG ;;
	r) runs=$OPTARG ;;
	o) out=$OPTARG ;;
	*) exit 2 ;;
	esac
done
make -s -C "$here/tools/perfx" perfx build/asan/synth-population > /dev/null
work=$(mktemp -d)
popid=
cleanup()
{
	[ -n "$popid" ] && kill "$popid" 2> /dev/null && wait "$popid" 2> /dev/null
	rm -rf "$work"
}
trap cleanup EXIT

# per_event FILE: each "Average time per event" figure, in order
per_event() { grep -oE 'per event [0-9.]+' "$1" | awk '{ print $3 }' | paste -sd' '; }
events() { grep -m1 -oE 'num. events: [0-9.]+' "$1" | awk '{ printf "%d", $3 }'; }

{
echo "# synthesize: perf $(perf version | cut -d' ' -f3) vs perfx, $(date -u +%F), $(nproc) CPUs"
echo
echo "Command: bench/synthesize.sh -p \"$sizes\" -T $threads -m $maps -I $iter -r $runs"
echo
echo "usec per record, mean of $runs runs of -I $iter (ratios of the means)"
echo
echo "| processes | records | load | perf 1 thr | perfx 1 thr | perfx / perf | perf 2 thr | perfx 2 thr | perfx 1 thr / 2 thr | perfx auto (N) | auto / 1 thr | floor | perfx 1 thr / floor |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for p in $sizes; do
	if [ "$p" -gt 0 ]; then
		rm -f "$work/ready"
		"$pop" "$p" "$threads" "$maps" "$work/ready" &
		popid=$!
		while [ ! -f "$work/ready" ]; do
			kill -0 "$popid" || exit 1
			sleep 0.2
		done
	fi
	: > "$work/all"
	for run in $(seq "$runs"); do
		perf bench internals synthesize -t -m 1 -M 2 -I "$iter" > "$work/perf" 2>&1
		"$perfx" bench internals synthesize -t -m 1 -M 2 -I "$iter" --auto-threads --floor \
			> "$work/perfx" 2>&1
		echo "$(per_event "$work/perf") $(per_event "$work/perfx")" >> "$work/all"
	done
	n=$(grep -oE 'auto \([0-9]+\)' "$work/perfx" | tr -dc 0-9)
	load=$(cut -d' ' -f1 /proc/loadavg)
	awk -v p="$p" -v rec="$(events "$work/perfx")" -v load="$load" -v n="$n" '
		{ for (i = 1; i <= 6; i++) s[i] += $i; k++ }
		END {
			for (i = 1; i <= 6; i++) m[i] = s[i] / k
			# perf 1, perf 2, perfx 1, perfx 2, perfx auto, floor
			printf "| %d | %d | %s | %.3f | %.3f | %.2f | %.3f | %.3f | %.2fx | %.3f (%d) | %.2f | %.3f | %.2f |\n",
			       p, rec, load, m[1], m[3], m[3] / m[1], m[2], m[4], m[3] / m[4],
			       m[5], n, m[5] / m[3], m[6], m[3] / m[6]
		}' "$work/all"
	if [ -n "$popid" ]; then
		kill "$popid"
		wait "$popid" || true
		popid=
	fi
done
echo
echo "Single-threaded, this process's threads (-s -i 2000), usec per record:"
echo
echo "| tool | records | usec/record | data maps: records | usec/record |"
echo "|---|---|---|---|---|"
for t in perf "$perfx"; do
	$t bench internals synthesize -s -i 2000 > "$work/st" 2>&1
	read -r a b <<< "$(per_event "$work/st")"
	echo "| $(basename "$t") | $(grep -oE 'num. events: [0-9.]+' "$work/st" | sed -n 1p | awk '{ printf "%d", $3 }') | $a |" \
	     "$(grep -oE 'num. events: [0-9.]+' "$work/st" | sed -n 2p | awk '{ printf "%d", $3 }') | $b |"
done
} | tee ${out:+"$out"}
