#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ab.sh - two builds of perfx side by side in one run: did a change slow
# record, synthesis or inject down?
#
#   bench/ab.sh -a PERFX_A -b PERFX_B [-r ROUNDS] [-o RESULT.md]
#
# The measures of Documentation/benchmarks.rst's record, synthesis and
# inject sections, A and B in turn, ROUNDS times (default 5), so that a
# busy machine weighs on both alike:
#   record  `record -q -a -e cpu-clock -F 4000 -o FILE -- sleep 3` while
#           two busy processes run (bench/busy.c): the recorder's CPU time
#           per sample
#           (samples counted by perf script)
#   synth   `bench internals synthesize -t -m 1 -M 1 -I 5 --source proc`:
#           usec per record
#   inject  `bench internals inject-build-id -i 20 --buffered --seed R
#           --injector "A inject" --injector "B inject"`: each injector's
#           CPU time per event of -b on the same streams
# The table has each build's median and B / A.
set -uo pipefail

A=
B=
rounds=5
out=
while getopts "a:b:r:o:h" o; do
	case $o in
	a) A=$OPTARG ;;
	b) B=$OPTARG ;;
	r) rounds=$OPTARG ;;
	o) out=$OPTARG ;;
	h) sed -n '3,20p' "$0"; exit 0 ;;
	*) sed -n '3,20p' "$0" >&2; exit 2 ;;
	esac
done
[ -x "$A" ] && [ -x "$B" ] && [ "$rounds" -ge 1 ] 2> /dev/null ||
	{ echo "ab: -a and -b name two perfx binaries, -r takes 1 or more" >&2; exit 2; }
command -v perf > /dev/null || { echo "ab: perf script counts the samples: no perf" >&2; exit 1; }
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

gcc -O1 -o "$work/hot" "$here/bench/busy.c" || exit 1

# record PERFX: recorder CPU usec per sample
record()
{
	local f=$work/rec.data hot u s e n

	"$work/hot" 4 &
	hot=$!
	/usr/bin/time -f "%U %S %e" -o "$work/time" \
		"$1" record -q -a -e cpu-clock -F 4000 -o "$f" -- sleep 3 > /dev/null 2>&1
	wait "$hot"
	read -r u s e < "$work/time"
	n=$(perf script -i "$f" 2> /dev/null | wc -l)
	[ "$n" -gt 0 ] && echo "$u $s $n" | awk '{ printf "%.3f\n", ($1 + $2) * 1e6 / $3 }'
}

# synth PERFX: usec per record of its synthesis from /proc
synth()
{
	"$1" bench internals synthesize -t -m 1 -M 1 -I 5 --source proc 2>&1 |
		awk '/Average time per event/ { v = $(NF - 1) } END { if (v != "") print v }'
}

# inject SEED: "A B", each injector's CPU usec per event of -b on the same
# streams (the first two of the four runs: -b, then --buildid-all)
inject()
{
	"$B" bench internals inject-build-id -i 20 --buffered --seed "$1" \
		--injector "$A inject" --injector "$B inject" 2>&1 |
		awk '/injector CPU time per event/ { v[++n] = $(NF - 4) }
		     END { if (n >= 2) print v[1], v[2] }'
}

for ((r = 1; r <= rounds; r++)); do
	record "$A" >> "$work/record.a"
	record "$B" >> "$work/record.b"
	synth "$A" >> "$work/synth.a"
	synth "$B" >> "$work/synth.b"
	inject "$r" > "$work/inject"
	cut -d' ' -f1 "$work/inject" >> "$work/inject.a"
	cut -d' ' -f2 "$work/inject" >> "$work/inject.b"
done

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print "n/a" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b != "n/a") printf "%.2f", b / a; else print "n/a" }'; }
row()
{
	local a b

	a=$(median "$work/$1.a")
	b=$(median "$work/$1.b")
	echo "| $2 | $a | $b | $(ratio "$a" "$b") | $(wc -l < "$work/$1.a")/$rounds |"
}
{
	echo "# A: $A, B: $B; $rounds rounds in turn, $(nproc) CPUs, $(uname -r), $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "| measure (median) | A | B | B / A | rounds measured |"
	echo "|---|---|---|---|---|"
	row record "record -a, recorder CPU usec per sample"
	row synth "synthesis from /proc, usec per record"
	row inject "inject -b, injector CPU usec per event"
} | tee ${out:+"$out"}
