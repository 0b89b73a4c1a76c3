#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh - host-side tests of the instruction-count benchmark's reports:
# bench/cgroup-switch-icount.awk (the table, the ratios, the spread
# between boots) and bench/switch-trace.awk (a trace by function), on
# made-up inputs in which every figure differs, so that a mix-up of
# boots, kernels or modes changes the output.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/scripts/tests/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# log FILE NOTHING PLAIN CGROUP SHARED - one boot's lines at E 8, K 200
log()
{
	{
		echo "icount start init 2 CPUs 3000 rounds"
		echo "icount nothing 8 200 1 $2"
		echo "icount plain 8 200 1 $3"
		echo "icount cgroup 8 200 1 $4"
		echo "icount shared 8 200 1 $5"
		echo "icount end"
	} > "$tmp/$1"
}

icount_table_is_exact()
{
	local out want

	log series-1.log 1000 1100 3300 1430
	log series-2.log 1020 1120 3340 1450
	log base-1.log 1001 1099 2999 "- open: Inappropriate ioctl for device"
	log base-2.log 999 1101 3001 "- open: Inappropriate ioctl for device"
	out=$(cd "$tmp" && awk -v boots=2 -f "$top/bench/cgroup-switch-icount.awk" \
		series-1.log series-2.log base-1.log base-2.log) || return 1
	want='| mode | E | K | depth | series 1 | series 2 | base 1 | base 2 | series / base | x plain |
|---|---|---|---|---:|---:|---:|---:|---:|---:|
| nothing | 8 | 200 | 1 | 1000 | 1020 | 1001 | 999 | 1.01x | - |
| plain | 8 | 200 | 1 | 1100 | 1120 | 1099 | 1101 | 1.01x | - |
| cgroup | 8 | 200 | 1 | 3300 | 3340 | 2999 | 3001 | 1.11x | 2.99x |
| shared | 8 | 200 | 1 | 1430 | 1450 | - | - | - | 1.30x |

Largest difference between two boots of one kernel: 2.00% (20 instructions, series nothing | 8 | 200 | 1).

E = 8, K = 200, depth 1: cgroup events / shared 2.31x
shared | 8 | 200 | 1: base: open: Inappropriate ioctl for device'
	[ "$out" = "$want" ] || { diff <(echo "$want") <(echo "$out"); return 1; }
}

trace_is_summed_by_function()
{
	local out want

	printf '%s\n' "ffff800080001000 T foo" "ffff800080001800 A not_code" \
		"ffff800080002000 t bar" "ffff800080003000 T baz" > "$tmp/nm"
	printf '%s\n' "profile 0000000000400000 4" "profile ffff800080001004 6" \
		"profile ffff800080002010 10" "profile ffff8000800020f0 2" \
		"trace 22 2" > "$tmp/trace"
	out=$(awk -f "$top/bench/switch-trace.awk" - "$tmp/trace" < "$tmp/nm") || return 1
	want='| function | instructions per round trip | share |
|---|---:|---:|
| bar | 6.0 | 54.5% |
| foo | 3.0 | 27.3% |
| [user] | 2.0 | 18.2% |
| total | 11.0 | |'
	[ "$out" = "$want" ] || { diff <(echo "$want") <(echo "$out"); return 1; }
}

trace_without_samples_fails()
{
	! awk -f "$top/bench/switch-trace.awk" - /dev/null < /dev/null 2>/dev/null
}

echo "TAP version 13"
echo "1..3"
t "cgroup-switch-icount.awk: table, ratios, spread and reasons exact" icount_table_is_exact
t "switch-trace.awk: instructions per round trip by function" trace_is_summed_by_function
t "switch-trace.awk: no trace is an error" trace_without_samples_fails
tap_summary bench
