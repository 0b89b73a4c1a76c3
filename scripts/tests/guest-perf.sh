#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# guest-perf.sh [PERF] - the series' in-tree user, perf stat
# --for-each-cgroup of the tree's perf (build/perf-min/perf, scripts/perf-build
# -m), inside the guest (patched kernel), against the guest's own perf 6.1,
# which counts the same cgroups with cgroup events (what the tree's perf
# falls back to without the ioctls), against itself with --no-cgroup-share
# (cgroup events too) and against perfx's shared mode.  With a busy loop in
# cgroup A and a sleeper in B, all four counting at once:
#  1. the tree's perf holds exactly CPUs x events perf_event fds while it
#     counts (count-fds.sh, in /proc/PID/fd), perf 6.1 and the tree's perf
#     with --no-cgroup-share CPUs x events x 2;
#     strace sees it open CPUs x events events, all without a cgroup, and
#     attach cgroups to each with PERF_EVENT_IOC_ATTACH_CGROUP;
#  2. its counts agree with perf 6.1's, its own with --no-cgroup-share and
#     perfx's within the tolerances of
#     tools/perfx/tests/guest/cgroup-compare.sh (CPUs utilized within 10% +
#     0.02, context switches per second within 25% + 5/s), and A's busy
#     loop and B's sleeper show in them (A's share of 2 CPUs with the
#     four tools at least a quarter of one);
#  3. a cgroup named twice prints as perf 6.1 prints it, and a group or a
#     tool event keeps cgroup events (CPUs x events x cgroups fds), as -v
#     says;
#  4. tools/perf/tests/shell/stat_cgroup_share.sh, the series' perf test,
#     passes with it.
# PERFX names the perfx to compare (default tools/perfx/perfx; the arm64
# guest's is build/perfx-arm64/perfx, with build/perf-min-arm64/perf).
# Ends with "perf-intree: N passed, N failed, N skipped".
set -uo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
PERF=${1:-$top/build/perf-min/perf}
PERFX=${PERFX:-$top/tools/perfx/perfx}
COUNT_FDS=$top/tools/perfx/tests/guest/count-fds.sh
SHELL_TEST=$top/build/linux/tools/perf/tests/shell/stat_cgroup_share.sh
EVENTS=task-clock,context-switches,cpu-clock
NEV=3
DUR=5
TESTS="fds
strace
counts against perf 6.1 and perfx
--no-cgroup-share
A's and B's counts
a cgroup named twice
a group
a tool event (duration_time)
the perf shell test"
SUITE=perf-intree
A=perf-intree-A
B=perf-intree-B
. "$top/tools/perfx/tests/guest/cgroup-compare.sh"

[ -x "$PERF" ] || all_skip "no perf at $PERF (scripts/perf-build -m)"
command -v perf > /dev/null || all_skip "no perf 6.1 in the guest"
cgroups_setup || all_skip "$why"

"$PERF" stat -v -a --for-each-cgroup "$A,$B" -e task-clock true > /dev/null 2> "$work/probe"
grep -q "shared events per CPU" "$work/probe" ||
	all_skip "the tree's perf does not share events on $(uname -r): $(grep cgroup "$work/probe")"

start_workloads

# the four count the same workload at the same time: their windows open
# at count-fds.sh's barrier and close together when done appears
mkdir -p "$work/barrier"
strace -f -qq -e trace=perf_event_open,ioctl -o "$work/strace" \
	"$PERF" stat -a -x, --for-each-cgroup "$A,$B" -e "$EVENTS" \
	-- "$COUNT_FDS" "$work/nfds" 120 "$work/barrier" 4 done 2> "$work/new" &
np=$!
perf stat -a -x, --for-each-cgroup "$A,$B" -e "$EVENTS" \
	-- "$COUNT_FDS" "$work/ofds" 120 "$work/barrier" 4 done 2> "$work/old" &
op=$!
"$PERF" stat -a -x, --no-cgroup-share --for-each-cgroup "$A,$B" -e "$EVENTS" \
	-- "$COUNT_FDS" "$work/cfds" 120 "$work/barrier" 4 done 2> "$work/nocs" &
cp=$!
"$PERFX" stat -a -x, --cgroup-mode shared --for-each-cgroup "$A,$B" -e "$EVENTS" \
	-- "$COUNT_FDS" "$work/xfds" 120 "$work/barrier" 4 done 2> "$work/perfx" &
xp=$!
end=$((SECONDS + 100))
while [ "$(find "$work/barrier" -name 'ready.*' | wc -l)" -lt 4 ] && [ $SECONDS -lt $end ]; do
	sleep 0.1
done
sleep "$DUR"
touch "$work/barrier/done"
reap "$np" "$work/nfds" "$work/new" "tree perf"; nrc=$rc nfds=$fds
reap "$op" "$work/ofds" "$work/old" "perf 6.1"; orc=$rc ofds=$fds
reap "$cp" "$work/cfds" "$work/nocs" "tree perf --no-cgroup-share"; crc=$rc cfds=$fds
reap "$xp" "$work/xfds" "$work/perfx" perfx; xrc=$rc

check "fds: the tree's perf holds $nfds, want CPUs x events = $((ncpus * NEV)); perf 6.1 $ofds, want $((ncpus * NEV * 2))" \
	"[ $nrc -eq 0 ] && [ $orc -eq 0 ] && [ '$nfds' = $((ncpus * NEV)) ] && [ '$ofds' = $((ncpus * NEV * 2)) ]"

# strace: the perf process's own calls (the workload's are not perf's)
opens=$(grep -c 'perf_event_open(.*) = [0-9]' "$work/strace")
cgroup_opens=$(grep -c 'perf_event_open(.*PERF_FLAG_PID_CGROUP.*) = [0-9]' "$work/strace")
attaches=$(grep -cE 'ioctl\([0-9]+, (PERF_EVENT_IOC_ATTACH_CGROUP|_IOC\(_IOC_READ\|_IOC_WRITE, 0x24, 0xc, 0x18\)).* = 0' \
	"$work/strace")
check "strace: $opens events opened, $cgroup_opens of them cgroup events, $attaches attached; want $((ncpus * NEV)), 0, $((ncpus * NEV))" \
	"[ $opens -eq $((ncpus * NEV)) ] && [ $cgroup_opens -eq 0 ] && [ $attaches -eq $((ncpus * NEV)) ]"

bad=
agree "$work/new" "$work/old" old:
agree "$work/new" "$work/perfx" perfx:
check "counts against perf 6.1 and perfx on the same workload (exit $orc, $xrc):${bad:- all within tolerance}" \
	"[ $orc -eq 0 ] && [ $xrc -eq 0 ] && [ -z '$bad' ]"

# the same binary both ways: only the kernel's split of the counts differs
bad=
agree "$work/new" "$work/nocs" no-share:
check "--no-cgroup-share: $cfds fds, want CPUs x events x 2 = $((ncpus * NEV * 2)), exit $crc, counts of the shared events:${bad:- all within tolerance}" \
	"[ $crc -eq 0 ] && [ '$cfds' = $((ncpus * NEV * 2)) ] && [ -z '$bad' ]"

a_ut=$(val "$work/new" task-clock "$A" 7)
b_ut=$(val "$work/new" task-clock "$B" 7)
b_cs=$(val "$work/new" context-switches "$B")
# A's loop shares 2 CPUs with B, four counting tools and their
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

# a tool event has no kernel event to share: cgroup events, no crash
"$PERF" stat -v -a -x, --for-each-cgroup "$A,$B" -e task-clock,duration_time \
	sleep 0.2 2> "$work/tool"
trc=$?
check "a tool event (duration_time): exit $trc, cgroup events as before" \
	"[ $trc -eq 0 ] && grep -q 'counted by cgroup events' '$work/tool' &&
	 [ -n \"\$(val '$work/tool' task-clock '$A')\" ]"

stop_workloads
PATH=$(dirname "$PERF"):$PATH sh "$SHELL_TEST" -v > "$work/shell" 2>&1
src=$?
sed 's/^/#   /' "$work/shell"
check "the perf shell test stat_cgroup_share.sh: exit $src, want 0" "[ $src -eq 0 ]"
