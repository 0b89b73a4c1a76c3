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
#   perfx bench internals synthesize -t -m 1 -M 2 -I ITER --source proc --floor
#   perfx bench internals synthesize -t -m 1 -M 2 -I ITER --source bpf
#   perfx bench internals synthesize -t -m 1 -M 1 -I ITER --auto-threads
# and usec per record (wall, as perf's benchmark measures it): perf, perfx
# reading /proc and perfx from its BPF task iterator with 1 and 2 threads,
# perfx with the source and thread count it chooses, and each source's
# floor (/proc: reading the files perfx reads; BPF: loading the iterator
# and reading its stream).  Ratios are of means over the runs.
#
# Then the CPU time of one thread's synthesis (user + sys, which the load
# of other jobs inflates far less than the wall time): each tool's
# -m 1 -M 1 run with -I 1 and with -I 1+2*ITER under /usr/bin/time; the
# difference over 2*ITER is one iteration's.  The machine is shared: the
# load average is printed with each population.
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
# cpu_ms CMD: CPU ms of one iteration of CMD (which has @I@ for -I)
cpu_ms()
{
	local a b

	/usr/bin/time -f '%U %S' -o "$work/t1" ${1//@I@/1} > /dev/null 2>&1
	/usr/bin/time -f '%U %S' -o "$work/t2" ${1//@I@/$((1 + 2 * iter))} > "$work/cpu.out" 2>&1
	a=$(awk '{ print $1 + $2 }' "$work/t1")
	b=$(awk '{ print $1 + $2 }' "$work/t2")
	awk -v a="$a" -v b="$b" -v n=$((2 * iter)) 'BEGIN { printf "%.2f", (b - a) * 1000 / n }'
}

{
echo "# synthesize: perf $(perf version | cut -d' ' -f3) vs perfx, $(date -u +%F), $(nproc) CPUs"
echo
echo "Command: bench/synthesize.sh -p \"$sizes\" -T $threads -m $maps -I $iter -r $runs"
echo
echo "usec per record (wall), mean of $runs runs of -I $iter (ratios of the means)"
echo
echo "| processes | records | load | perf 1 thr | perf 2 thr | perfx proc 1 | perfx proc 2 | perfx bpf 1 | perfx bpf 2 | perfx bpf 1 / perf 1 | bpf 1 / bpf 2 | perfx auto (N, source) | auto / 1 thr of its source | floor proc | floor bpf | perfx 1 / its floor |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
: > "$work/cputab"
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
		"$perfx" bench internals synthesize -t -m 1 -M 2 -I "$iter" --source proc --floor \
			> "$work/proc" 2>&1
		"$perfx" bench internals synthesize -t -m 1 -M 2 -I "$iter" --source bpf \
			> "$work/bpf" 2>&1 || echo "Average time per event 0 Average time per event 0" > "$work/bpf"
		"$perfx" bench internals synthesize -t -m 1 -M 1 -I "$iter" --auto-threads \
			> "$work/auto" 2>&1
		# perf 1 2, proc 1 2 floor-proc floor-bpf, bpf 1 2, auto-1 auto
		echo "$(per_event "$work/perf") $(per_event "$work/proc") $(per_event "$work/bpf")" \
		     "$(per_event "$work/auto")" >> "$work/all"
	done
	chosen=$(grep -oE 'auto \([0-9]+, [a-z]+\)' "$work/auto" | sed 's/auto (\(.*\))/\1/')
	load=$(cut -d' ' -f1 /proc/loadavg)
	awk -v p="$p" -v rec="$(events "$work/proc")" -v load="$load" -v chosen="$chosen" '
		{ for (i = 1; i <= NF; i++) s[i] += $i; k++; nf = NF }
		END {
			for (i = 1; i <= nf; i++) m[i] = s[i] / k
			# 1 perf 1, 2 perf 2, 3 proc 1, 4 proc 2, 5 floor proc, 6 floor bpf,
			# 7 bpf 1, 8 bpf 2, 9 auto run 1 thread of its source, 10 auto
			bpf = m[7] > 0
			printf "| %d | %d | %s | %.3f | %.3f | %.3f | %.3f | %s | %s | %s | %s | %.3f (%s) | %.2f | %.3f | %s | %.2f |\n",
			       p, rec, load, m[1], m[2], m[3], m[4],
			       bpf ? sprintf("%.3f", m[7]) : "-", bpf ? sprintf("%.3f", m[8]) : "-",
			       bpf ? sprintf("%.2f", m[7] / m[1]) : "-",
			       bpf ? sprintf("%.2fx", m[7] / m[8]) : "-",
			       m[10], chosen, m[10] / m[9], m[5], bpf ? sprintf("%.3f", m[6]) : "-",
			       bpf ? m[7] / m[6] : m[3] / m[5]
		}' "$work/all"
	# CPU per iteration of 1 thread: perf, perfx proc, perfx bpf
	c1=$(cpu_ms "perf bench internals synthesize -t -m 1 -M 1 -I @I@")
	rec=$(events "$work/cpu.out")
	c2=$(cpu_ms "$perfx bench internals synthesize -t -m 1 -M 1 -I @I@ --source proc")
	c3=$(cpu_ms "$perfx bench internals synthesize -t -m 1 -M 1 -I @I@ --source bpf" ||
	     echo 0)
	echo "$p $rec $(cut -d' ' -f1 /proc/loadavg) $c1 $c2 $c3" >> "$work/cputab"
	if [ -n "$popid" ]; then
		kill "$popid"
		wait "$popid" || true
		popid=
	fi
done
echo
echo "CPU time of one thread's synthesis, ms per iteration and usec per record"
echo "(user + sys of -I 1+$((2 * iter)) less -I 1, over $((2 * iter)) iterations):"
echo
echo "| processes | records | load | perf | perfx proc | perfx bpf | perfx proc / perf | perfx bpf / perf |"
echo "|---|---|---|---|---|---|---|---|"
awk '{ printf "| %d | %d | %s | %.1f ms, %.3f | %.1f ms, %.3f | %.1f ms, %.3f | %.2f | %.2f |\n",
	      $1, $2, $3, $4, $4 * 1000 / $2, $5, $5 * 1000 / $2, $6, $6 * 1000 / $2,
	      $5 / $4, $6 / $4 }' "$work/cputab"
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
