#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record-numa.sh - perf record's --affinity and --aio, perfx beside perf,
# in one run (the table of perf's --affinity/--aio patches: serial and aio
# with sys, node and cpu).
#
#   bench/record-numa.sh [-r ROUNDS] [-F FREQ] [-s SECONDS] [-m PAGES]
#                        [-d DIR] [-o RESULT.md]
#
# A CPU-bound workload, one busy process pinned to each CPU (so on every
# node), runs for about SECONDS alone, then under `TOOL record -B -a -e
# cpu-clock -F FREQ --affinity=X [--aio]` for each tool and setting, in
# turn, ROUNDS times.  The workload times itself (from its start to its
# last process's end): its slowdown is that time over its median time
# alone.  Records lost: the samples the kernel dropped (LOST_SAMPLES, as
# `perf report --stats` sums them) and the LOST records' count.  Prints a
# markdown table: per setting and tool the slowdown and the samples lost
# as median (min-max), perfx's time over perf's in the same round (the
# pair runs back to back) likewise, the median samples written and LOST
# records.  The kernel's sampling throttle (perf_cpu_time_max_percent) is
# off meanwhile: under TCG it would lower the sample rate for every later
# run after one slow one.
# -B (no build-id pass) for both: only the recording is measured, and
# the runs end sooner.
#
# To load the recorders until they lose records: -m PAGES, the ring's
# data pages per CPU for both tools (default: each tool's own, 512 KiB),
# and -d DIR, the directory the recordings are written in (default: the
# work directory, tmpfs in the guest); in the guest, a directory of the
# repository is on virtio-9p, a slow disk whose writes hold up a serial
# recorder and not an aio one.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
rounds=3 freq=4000 secs=4 pages= dir=
more_opts="m:d:"
more_opt()
{
	case $1 in
	m) pages=$2 ;;
	d) dir=$2 ;;
	esac
}
. "$here/bench/record-args.sh"
throttle=/proc/sys/kernel/perf_cpu_time_max_percent
rate=/proc/sys/kernel/perf_event_max_sample_rate
old_throttle=$(cat $throttle)
old_rate=$(cat $rate)
# the kernel takes no rate while the throttle is off: the rate first
trap 'echo "$old_throttle" > $throttle; echo "$old_rate" > $rate; rm -rf "$work" "${data:-}"' EXIT
data=$(mktemp -p "${dir:-$work}" record-numa.XXXXXX.data)
echo 100000 > $rate
echo 0 > $throttle

# busy N OUT: one process per CPU, each N loops on its CPU; OUT gets the
# seconds from the start to the last one's end
cat > "$work/busy.c" <<'EOF'
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * busy N OUT [LOOPS_OUT]: OUT gets the seconds from the start to the last
 * process's end; LOOPS_OUT the longest time a process spent in its loops
 * alone, without its fork and pinning, for the calibration.
 */
int main(int argc, char **argv)
{
	unsigned long n = strtoul(argv[1], NULL, 0), i;
	double *loop = mmap(NULL, CPU_SETSIZE * sizeof(double), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	double start = now(), t, longest = 0;
	cpu_set_t all, one;
	FILE *f;
	int c;

	if (loop == MAP_FAILED)
		return 1;

	sched_getaffinity(0, sizeof(all), &all);
	for (c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &all) || fork())
			continue;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		sched_setaffinity(0, sizeof(one), &one);
		t = now();
		for (i = 0; i < n; i++)
			sink += i;
		loop[c] = now() - t;
		_exit(0);
	}
	while (wait(NULL) > 0)
		;
	t = now() - start;
	for (c = 0; c < CPU_SETSIZE; c++)
		longest = loop[c] > longest ? loop[c] : longest;
	f = fopen(argv[2], "w");
	fprintf(f, "%.4f\n", t);
	if (fclose(f))
		return 1;
	if (argc < 4)
		return 0;
	f = fopen(argv[3], "w");
	fprintf(f, "%.4f\n", longest);
	return fclose(f) != 0;
}
EOF
gcc -O1 -o "$work/busy" "$work/busy.c"

# loops for $secs seconds alone, scaled from the loops' own time (each
# process times its loop; the longest counts): forking and pinning a
# process per CPU is long and erratic under TCG, and scaling a whole
# run's time, or the difference of two runs, carried that into the count
# (0.54 s and 30 s for 4 s in earlier runs)
n=1000000
while :; do
	"$work/busy" "$n" "$work/t" "$work/loop"
	t=$(cat "$work/loop")
	[ "$(echo "$t >= 0.5" | bc)" = 1 ] && break
	n=$((n * 4))
done
n=$(echo "$n * $secs / $t" | bc | cut -d. -f1)

settings=("serial sys:--affinity=sys" "serial node:--affinity=node" "serial cpu:--affinity=cpu"
	  "aio sys:--aio --affinity=sys" "aio node:--aio --affinity=node"
	  "aio cpu:--aio --affinity=cpu")

# run FILE TOOL ARGS: one recording; appends "time lost lost-records samples" to FILE
run()
{
	local file=$1 tool=$2 lost records samples

	shift 2
	"$tool" record -q -B -a -e cpu-clock -F "$freq" ${pages:+-m "$pages"} "$@" \
		-o "$data" -- "$work/busy" "$n" "$work/t" > /dev/null 2>&1
	perf report --stats -i "$data" 2> /dev/null > "$work/stats"
	# the events' sections sum the lost samples; Aggregated counts records
	lost=$(awk '/^Aggregated stats:$/ { ev = 0; next } / stats:$/ { ev = 1; next }
		    ev && $1 == "LOST_SAMPLES" { s += $3 } END { print s + 0 }' "$work/stats")
	records=$(awk '/Aggregated/ { a = 1 } a && $1 == "LOST" { print $3; exit }' "$work/stats")
	samples=$(awk '/Aggregated/ { a = 1 } a && $1 == "SAMPLE" { print $3; exit }' "$work/stats")
	echo "$(cat "$work/t") $lost ${records:-0} ${samples:-0}" >> "$file"
	rm -f "$data"
}

for ((r = 0; r < rounds; r++)); do
	"$work/busy" "$n" "$work/t"
	cat "$work/t" >> "$work/alone"
	for s in "${!settings[@]}"; do
		# shellcheck disable=SC2086
		run "$work/perf.$s" perf ${settings[$s]#*:}
		# shellcheck disable=SC2086
		run "$work/perfx.$s" "$perfx" ${settings[$s]#*:}
	done
done

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
range() { sort -g | awk 'NR == 1 { lo = $1 } { hi = $1 } END { print lo "-" hi }'; }
# "median (min-max)" of the values on stdin
spread() { local v; v=$(cat); echo "$(median <<< "$v") ($(range <<< "$v"))"; }
base=$(median < "$work/alone")
# column N of TOOL.S as "median (min-max)", or its median alone
col() { cut -d' ' -f"$2" "$1" | spread; }
colm() { cut -d' ' -f"$2" "$1" | median; }
# the workload's time under TOOL.S over its median time alone
slowdown() { awk -v b="$base" '{ printf "%.3f\n", $1 / b }' "$1" | spread; }
# perfx's time over perf's in the same round, a pair run back to back: the
# host's drift between rounds, which the ranges above carry, cancels
paired() { paste -d' ' "$work/perf.$1" "$work/perfx.$1" | awk '{ printf "%.3f\n", $5 / $1 }' | spread; }
{
	echo "# record -a -e cpu-clock -F $freq${pages:+ -m $pages}${dir:+ -o $dir/...}," \
	     "$rounds rounds, workload ${secs}s alone" \
	     "(median $base s, spread $(range < "$work/alone"))," \
	     "$(nproc) CPUs on $(ls -d /sys/devices/system/node/node[0-9]* | wc -l) nodes, $(uname -r)"
	echo
	echo "| setting | perf slowdown | perfx slowdown | perfx / perf paired | samples perf / perfx | lost samples perf / perfx | LOST records perf / perfx |"
	echo "|---|---|---|---|---|---|---|"
	for s in "${!settings[@]}"; do
		p=$work/perf.$s x=$work/perfx.$s
		echo "| ${settings[$s]%%:*} | $(slowdown "$p") | $(slowdown "$x") | $(paired "$s")" \
		     "| $(colm "$p" 4) / $(colm "$x" 4) | $(col "$p" 2) / $(col "$x" 2)" \
		     "| $(colm "$p" 3) / $(colm "$x" 3) |"
	done
} | tee ${out:+"$out"}
