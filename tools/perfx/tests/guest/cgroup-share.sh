#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cgroup-share.sh - perfx stat --for-each-cgroup in shared mode, inside the
# guest (patched kernel).  Run as root:
#
#     tools/perfx/tests/guest/cgroup-share.sh [PERFX]
#
# Proves, with a busy loop in cgroup A and a sleeper loop in cgroup B:
#  1. shared mode opens exactly CPUs x events perf_event fds (counted in
#     /proc/PID/fd while it runs), per-cgroup mode CPUs x events x cgroups;
#  2. shared mode gives A its CPU time (task-clock between 40% and 110% of
#     one CPU for the run: a busy loop, on a machine that may be loaded)
#     and B its context switches, and not the other way round;
#  3. shared and per-cgroup modes, counting the same workload at the same
#     time, agree: task-clock and cpu-clock within 10%, context-switches
#     within 20% + 20 (B's sleeper switches ~100 times a second).
# Everything that needs the ioctls SKIPs when the kernel lacks them.
# Ends with "perfx-guest: N passed, N failed, N skipped"; non-zero on failure.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
PERFX=${1:-${PERFX:-$here/../../perfx}}
EVENTS=task-clock,cpu-clock,context-switches,cgroup-switches
NEV=4
DUR=3
n=0 pass=0 fail=0 skip=0
work=$(mktemp -d)
pids=()

ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - perfx-guest: $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - perfx-guest: $1"; }
skipit() { n=$((n + 1)); skip=$((skip + 1)); echo "ok $n - perfx-guest: $1 # SKIP $2"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }

finish()
{
	local p

	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	[ -n "${mnt:-}" ] && rmdir "$mnt/$A" "$mnt/$B" 2>/dev/null
	rm -rf "$work"
	echo "perfx-guest: $pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
	exit
}
trap finish EXIT

all_skip()
{
	local t

	for t in "fds in shared mode" "fds in per-cgroup mode" "A's counts" "B's counts" \
		 "shared matches per-cgroup"; do
		skipit "$t" "$1"
	done
	exit
}

[ "$(id -u)" = 0 ] || all_skip "needs root"
[ -x "$PERFX" ] || all_skip "no perfx binary at $PERFX (make -C tools/perfx)"
mnt=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
[ -n "$mnt" ] || all_skip "no cgroup2 mount"
A=perfx-guest-A
B=perfx-guest-B
# 6.12: children made before anything writes the root's subtree_control get
# no perf_event css (per-cgroup events fail with ENOENT); enable one first
for c in pids memory cpu; do
	grep -qw "$c" "$mnt/cgroup.controllers" 2>/dev/null &&
		echo "+$c" > "$mnt/cgroup.subtree_control" 2>/dev/null && break
done
mkdir -p "$mnt/$A" "$mnt/$B" || all_skip "cannot create cgroups under $mnt"
ncpus=$(getconf _NPROCESSORS_ONLN)

"$PERFX" stat -a --cgroup-mode shared --for-each-cgroup "$A,$B" -e task-clock true \
	> /dev/null 2> "$work/probe"
if grep -q ENOTTY "$work/probe"; then
	all_skip "kernel $(uname -r) has no PERF_EVENT_IOC_ATTACH_CGROUP"
elif [ -s "$work/probe" ] && grep -q "perfx: " "$work/probe"; then
	sed 's/^/#   /' "$work/probe"
fi

# the workloads: a busy loop in A, a sleeper loop in B
sh -c "echo \$\$ > $mnt/$A/cgroup.procs && exec sh -c 'while :; do :; done'" &
pids+=($!)
sh -c "echo \$\$ > $mnt/$B/cgroup.procs && exec sh -c 'while :; do sleep 0.01; done'" &
pids+=($!)
sleep 0.5

# count_fds PID - perf_event fds of PID
count_fds()
{
	local f c=0

	for f in /proc/"$1"/fd/*; do
		[ "$(readlink "$f" 2>/dev/null)" = "anon_inode:[perf_event]" ] && c=$((c + 1))
	done
	echo "$c"
}

# both modes count the same window of the same workload
"$PERFX" stat -a -x, --cgroup-mode shared --for-each-cgroup "$A,$B" -e "$EVENTS" \
	-- sleep "$DUR" 2> "$work/shared" &
sp=$!
"$PERFX" stat -a -x, --cgroup-mode per-cgroup --for-each-cgroup "$A,$B" -e "$EVENTS" \
	-- sleep "$DUR" 2> "$work/percg" &
pp=$!
sleep 1
sfds=$(count_fds "$sp")
pfds=$(count_fds "$pp")
wait "$sp"; src=$?
wait "$pp"; prc=$?
sed 's/^/#   shared: /' "$work/shared"
sed 's/^/#   per-cgroup: /' "$work/percg"

check "fds in shared mode: $sfds, want CPUs x events = $((ncpus * NEV))" \
	"[ $src -eq 0 ] && [ '$sfds' -eq $((ncpus * NEV)) ]"
check "fds in per-cgroup mode: $pfds, want CPUs x events x 2 = $((ncpus * NEV * 2))" \
	"[ $prc -eq 0 ] && [ '$pfds' -eq $((ncpus * NEV * 2)) ]"

# val FILE EVENT CGROUP - the -x, value
val()
{
	awk -F, -v e="$2" -v c="$3" '$3 == e && $4 == c { print $1 }' "$1"
}

a_tc=$(val "$work/shared" task-clock "$A")
b_tc=$(val "$work/shared" task-clock "$B")
a_cs=$(val "$work/shared" context-switches "$A")
b_cs=$(val "$work/shared" context-switches "$B")
echo "# shared: A task-clock $a_tc msec, cs $a_cs; B task-clock $b_tc msec, cs $b_cs"
check "A's counts: task-clock $a_tc msec is 40-110% of one CPU for ${DUR}s" \
	"awk -v a='$a_tc' -v d=$DUR 'BEGIN { exit !(a > 400 * d && a < 1100 * d) }'"
check "B's counts: $b_cs context switches (> 50), task-clock $b_tc < A's / 4" \
	"awk -v b='$b_cs' -v bt='$b_tc' -v at='$a_tc' 'BEGIN { exit !(b > 50 && bt < at / 4) }'"

bad=
for cg in "$A" "$B"; do
	for e in task-clock cpu-clock context-switches; do
		s=$(val "$work/shared" "$e" "$cg")
		p=$(val "$work/percg" "$e" "$cg")
		if ! awk -v s="$s" -v p="$p" -v e="$e" 'BEGIN {
			if (s == "" || p == "" || s ~ /</ || p ~ /</) exit 1
			d = s > p ? s - p : p - s; m = s > p ? s : p
			if (e == "context-switches") exit !(d <= 0.2 * m + 20)
			exit !(d <= 0.1 * m) }'; then
			bad="$bad $cg/$e($s vs $p)"
		fi
	done
done
check "shared matches per-cgroup on the same workload:${bad:- all within tolerance}" \
	"[ -z '$bad' ]"
