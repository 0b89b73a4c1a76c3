#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record.sh - perfx record against perf record in one run.
#
#   bench/record.sh [-r ROUNDS] [-F FREQ] [-s SECONDS] [-o RESULT.md]
#
# The same command line, `record -a -e cpu-clock -F FREQ -o FILE -- sleep
# SECONDS` while hot keeps both CPUs busy, by perf and by perfx in
# turn, ROUNDS times: the recorder's own CPU time (user + sys, from
# /usr/bin/time) per sample, its wall time, and the file's bytes per
# sample, with the samples counted by perf script; then the ratios
# perfx / perf of the medians.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
rounds=5 freq=4000 secs=3
. "$here/bench/record-args.sh"

gcc -O1 -o "$work/hot" "$here/bench/busy.c"

# run TOOL: "cpu_s wall_s bytes samples" of one recording; the workload
# runs beside the recorder, not under it, whose rusage would count it
run()
{
	local f=$work/$1.data hot

	"$work/hot" "$((secs + 1))" &
	hot=$!
	/usr/bin/time -f "%U %S %e" -o "$work/time" \
		"${@:2}" record -q -a -e cpu-clock -F "$freq" -o "$f" -- sleep "$secs" \
		> /dev/null 2>&1
	wait "$hot"
	read -r u s e < "$work/time"
	echo "$(echo "$u + $s" | bc) $e $(stat -c %s "$f") $(perf script -i "$f" 2> /dev/null | wc -l)"
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for ((i = 0; i < rounds; i++)); do
	run perf perf >> "$work/perf.runs"
	run perfx "$perfx" >> "$work/perfx.runs"
done

# per tool: median usec of recorder CPU per sample, median bytes per sample
stats()
{
	awk '{ printf "%.3f %.1f %.2f\n", $1 * 1e6 / $4, $3 / $4, $2 }' "$work/$1.runs" > "$work/$1.per"
	echo "$(cut -d' ' -f1 "$work/$1.per" | median) $(cut -d' ' -f2 "$work/$1.per" | median) $(cut -d' ' -f3 "$work/$1.per" | median) $(awk '{ print $4 }' "$work/$1.runs" | median)"
}
read -r pc pb pw ps <<< "$(stats perf)"
read -r xc xb xw xs <<< "$(stats perfx)"
{
	echo "# record -a -e cpu-clock -F $freq, $rounds rounds of ${secs}s, $(nproc) CPUs, $(uname -r)"
	echo
	echo "| | perf | perfx | perfx / perf |"
	echo "|---|---|---|---|"
	echo "| recorder CPU, usec per sample | $pc | $xc | $(echo "scale=2; $xc / $pc" | bc) |"
	echo "| bytes per sample | $pb | $xb | $(echo "scale=2; $xb / $pb" | bc) |"
	echo "| wall s | $pw | $xw | |"
	echo "| samples (median) | $ps | $xs | |"
} | tee ${out:+"$out"}
