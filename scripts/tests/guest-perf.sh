#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# guest-perf.sh [PERF] - the series' in-tree user, perf stat
# --for-each-cgroup of the tree's perf (build/perf-min/perf, scripts/perf-build
# -m), inside the guest (patched kernel), against the guest's own perf 6.1,
# which counts the same cgroups with cgroup events (what the tree's perf
# falls back to without the ioctls), and against perfx's shared mode.  With
# a busy loop in cgroup A and a sleeper in B, all three counting at once:
#  1. the tree's perf holds exactly CPUs x events perf_event fds while it
#     counts (count-fds.sh, in /proc/PID/fd), perf 6.1 CPUs x events x 2;
#     strace sees it open CPUs x events events, all without a cgroup, and
#     attach cgroups to each with PERF_EVENT_IOC_ATTACH_CGROUP;
#  2. its counts agree with perf 6.1's and perfx's within the tolerances of
#     tools/perfx/tests/guest/cgroup-share.sh (CPUs utilized within 10% +
#     0.02, context switches per second within 25% + 5/s), and A's busy
#     loop and B's sleeper show in them (A's share of 2 CPUs with the
#     three tools at least a quarter of one);
#  3. a cgroup named twice prints as perf 6.1 prints it, and a group
#     keeps cgroup events (CPUs x events x cgroups fds), as -v says;
#  4. tools/perf/tests/shell/stat_cgroup_share.sh, the series' perf test,
#     passes with it.
# Ends with "perf-intree: N passed, N failed, N skipped".
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
PERF=${1:-$top/build/perf-min/perf}
PERFX=$top/tools/perfx/perfx
COUNT_FDS=$top/tools/perfx/tests/guest/count-fds.sh
SHELL_TEST=$top/build/linux/tools/perf/tests/shell/stat_cgroup_share.sh
EVENTS=task-clock,context-switches,cpu-clock
NEV=3
DUR=5
n=0 pass=0 fail=0 skip=0
work=$(mktemp -d)
pids=()

ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - perf-intree: $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - perf-intree: $1"; }
skipit() { n=$((n + 1)); skip=$((skip + 1)); echo "ok $n - perf-intree: $1 # SKIP $2"; }
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
	echo "perf-intree: $pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
	exit
}
trap finish EXIT

all_skip()
{
	local t

	for t in "fds" "strace" "counts against perf 6.1 and perfx" "A's and B's counts" \
		 "a cgroup named twice" "a group" "the perf shell test"; do
		skipit "$t" "$1"
	done
	exit
}

[ "$(id -u)" = 0 ] || all_skip "needs root"
[ -x "$PERF" ] || all_skip "no perf at $PERF (scripts/perf-build -m)"
command -v perf > /dev/null || all_skip "no perf 6.1 in the guest"
mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
[ -n "$mnt" ] || all_skip "no cgroup2 mount"
A=perf-intree-A
B=perf-intree-B
# 6.12: children made before anything writes the root's subtree_control get
# no perf_event css (cgroup events fail with ENOENT); enable one first
for c in pids memory cpu; do
	grep -qw "$c" "$mnt/cgroup.controllers" 2>/dev/null &&
		echo "+$c" > "$mnt/cgroup.subtree_control" 2>/dev/null && break
done
mkdir -p "$mnt/$A" "$mnt/$B" || all_skip "cannot create cgroups under $mnt"
ncpus=$(getconf _NPROCESSORS_ONLN)

"$PERF" stat -v -a --for-each-cgroup "$A,$B" -e task-clock true > /dev/null 2> "$work/probe"
grep -q "shared events per CPU" "$work/probe" ||
	all_skip "the tree's perf does not share events on $(uname -r): $(grep cgroup "$work/probe")"

sh -c "echo \$\$ > $mnt/$A/cgroup.procs && exec sh -c 'while :; do :; done'" &
pids+=($!)
sh -c "echo \$\$ > $mnt/$B/cgroup.procs && exec python3 -c 'import time
while True: time.sleep(0.01)'" &
pids+=($!)
sleep 0.5

# the three count the same workload at the same time: their windows open
# at count-fds.sh's barrier and close together when done appears
mkdir -p "$work/barrier"
strace -f -qq -e trace=perf_event_open,ioctl -o "$work/strace" \
	"$PERF" stat -a -x, --for-each-cgroup "$A,$B" -e "$EVENTS" \
	-- "$COUNT_FDS" "$work/nfds" 120 "$work/barrier" 3 done 2> "$work/new" &
np=$!
perf stat -a -x, --for-each-cgroup "$A,$B" -e "$EVENTS" \
	-- "$COUNT_FDS" "$work/ofds" 120 "$work/barrier" 3 done 2> "$work/old" &
op=$!
"$PERFX" stat -a -x, --cgroup-mode shared --for-each-cgroup "$A,$B" -e "$EVENTS" \
	-- "$COUNT_FDS" "$work/xfds" 120 "$work/barrier" 3 done 2> "$work/perfx" &
xp=$!
end=$((SECONDS + 100))
while [ "$(find "$work/barrier" -name 'ready.*' | wc -l)" -lt 3 ] && [ $SECONDS -lt $end ]; do
	sleep 0.1
done
sleep "$DUR"
touch "$work/barrier/done"
wait "$np"; nrc=$?
wait "$op"; orc=$?
wait "$xp"; xrc=$?
nfds=$(cat "$work/nfds" 2>/dev/null || echo none)
ofds=$(cat "$work/ofds" 2>/dev/null || echo none)
sed 's/^/#   tree perf: /' "$work/new"
sed 's/^/#   perf 6.1: /' "$work/old"
sed 's/^/#   perfx: /' "$work/perfx"

check "fds: the tree's perf holds $nfds, want CPUs x events = $((ncpus * NEV)); perf 6.1 $ofds, want $((ncpus * NEV * 2))" \
	"[ $nrc -eq 0 ] && [ $orc -eq 0 ] && [ '$nfds' = $((ncpus * NEV)) ] && [ '$ofds' = $((ncpus * NEV * 2)) ]"

# strace: the perf process's own calls (the workload's are not perf's)
opens=$(grep -c 'perf_event_open(.*) = [0-9]' "$work/strace")
cgroup_opens=$(grep -c 'perf_event_open(.*PERF_FLAG_PID_CGROUP.*) = [0-9]' "$work/strace")
attaches=$(grep -cE 'ioctl\([0-9]+, (PERF_EVENT_IOC_ATTACH_CGROUP|_IOC\(_IOC_WRITE, 0x24, 0xc, 0x18\)).* = 0' \
	"$work/strace")
check "strace: $opens events opened, $cgroup_opens of them cgroup events, $attaches attached; want $((ncpus * NEV)), 0, $((ncpus * NEV))" \
	"[ $opens -eq $((ncpus * NEV)) ] && [ $cgroup_opens -eq 0 ] && [ $attaches -eq $((ncpus * NEV)) ]"

# val FILE EVENT CGROUP [FIELD] - a field of the -x, line (1: value, 7: metric)
val()
{
	awk -F, -v e="$2" -v c="$3" -v f="${4:-1}" '$3 == e && $4 == c { print $f }' "$1"
}

# rate FILE CGROUP - context switches per second of wall time
rate()
{
	awk -F, -v c="$2" '$4 == c && $3 == "task-clock" { wall = $1 / $7 / 1000 }
		$4 == c && $3 == "context-switches" { cs = $1 }
		END { if (wall > 0) printf "%.1f", cs / wall }' "$1"
}

bad=
for other in old perfx; do
	for cg in "$A" "$B"; do
		for e in task-clock cpu-clock; do
			s=$(val "$work/new" "$e" "$cg" 7)
			p=$(val "$work/$other" "$e" "$cg" 7)
			awk -v s="$s" -v p="$p" 'BEGIN { if (s == "" || p == "") exit 1
				d = s > p ? s - p : p - s; m = s > p ? s : p; exit !(d <= 0.1 * m + 0.02) }' ||
				bad="$bad $other:$cg/$e(util $s vs $p)"
		done
		s=$(rate "$work/new" "$cg")
		p=$(rate "$work/$other" "$cg")
		awk -v s="$s" -v p="$p" 'BEGIN { if (s == "" || p == "") exit 1
			d = s > p ? s - p : p - s; m = s > p ? s : p; exit !(d <= 0.25 * m + 5) }' ||
			bad="$bad $other:$cg/context-switches($s/s vs $p/s)"
	done
done
check "counts against perf 6.1 and perfx on the same workload (exit $orc, $xrc):${bad:- all within tolerance}" \
	"[ $orc -eq 0 ] && [ $xrc -eq 0 ] && [ -z '$bad' ]"

a_ut=$(val "$work/new" task-clock "$A" 7)
b_ut=$(val "$work/new" task-clock "$B" 7)
b_cs=$(val "$work/new" context-switches "$B")
# A's loop shares 2 CPUs with B, three counting tools and their
# workloads (0.39 seen on a loaded host): at least a quarter of one
check "A's and B's counts: A uses ${a_ut:-?} CPUs (0.25-1.1), B switches ${b_cs:-?} times (> 50) on ${b_ut:-?} CPUs (< A's / 3)" \
	"awk -v a='$a_ut' -v b='$b_cs' -v bu='$b_ut' 'BEGIN { exit !(a > 0.25 && a < 1.1 && b > 50 && bu < a / 3) }'"

# the lines, not the counts, of two runs one after the other
"$PERF" stat -a -x, --for-each-cgroup "$A,$B,$A" -e "$EVENTS" sleep 0.2 2> "$work/new2"
perf stat -a -x, --for-each-cgroup "$A,$B,$A" -e "$EVENTS" sleep 0.2 2> "$work/old2"
check "a cgroup named twice: the lines of perf 6.1" \
	"diff <(cut -d, -f2-4 '$work/old2') <(cut -d, -f2-4 '$work/new2') > /dev/null"

# a group keeps cgroup events: CPUs x 2 events x 2 cgroups fds
"$PERF" stat -v -a -x, --for-each-cgroup "$A,$B" -e '{task-clock,context-switches}' \
	-- "$COUNT_FDS" "$work/gfds" 0.2 2> "$work/group"
gfds=$(cat "$work/gfds" 2>/dev/null || echo none)
check "a group: cgroup events as before, $gfds fds, want $((ncpus * 4)), -v says so" \
	"[ '$gfds' = $((ncpus * 4)) ] && grep -q 'counted by cgroup events' '$work/group'"

for p in "${pids[@]}"; do
	kill "$p" 2>/dev/null
done
wait 2>/dev/null
pids=()
PATH=$(dirname "$PERF"):$PATH sh "$SHELL_TEST" -v > "$work/shell" 2>&1
src=$?
sed 's/^/#   /' "$work/shell"
check "the perf shell test stat_cgroup_share.sh: exit $src, want 0" "[ $src -eq 0 ]"
