#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-selftests-ns.sh - in the guest (guest-suite.sh): the perf_events
# selftests as a container would run them, and what they leave behind.
#
#  - the whole perf_events suite inside a cgroup namespace whose root is a
#    child cgroup, with cgroup2 mounted anew there: every test passes or
#    skips (the ids, the conservation check and the private directories
#    are relative to that mount, not to the system's root);
#  - CPU 1 left offline before a run of cgroup_share stays offline after
#    it: the fixture puts back only what a test changed;
#  - a plain run of the ABI fuzzer takes no CPU offline (only
#    CGS_FUZZ_HOTPLUG=1, which `make stress` sets, does).
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/build/selftests/perf_events
cpu1=/sys/devices/system/cpu/cpu1/online
ns=/sys/fs/cgroup/perfx-selftests-ns
. "$top/scripts/tests/tap.sh"

# the suite in a new cgroup and mount namespace rooted at $ns
suite_in_cgroup_namespace()
{
	log=$(mktemp) || return 1
	mkdir -p "$ns" || return 1
	# a shell of its own moved into $ns, so that the namespace is rooted
	# there ($$ of a subshell would be this script's)
	sh -c '
		echo $$ > "$1/cgroup.procs" || exit 1
		exec unshare --cgroup --mount --propagation private sh -c "
			umount -l /sys/fs/cgroup &&
			mount -t cgroup2 cgroup2 /sys/fs/cgroup || exit 1
			# the namespace shows its own cgroup as the root
			grep -qx 0::/ /proc/self/cgroup || exit 1
			[ -e /sys/fs/cgroup/cgroup.type ] || exit 1
			make -s -C \"\$0/selftests\" run_tests TARGETS=perf_events
		" "$2"
	' sh "$ns" "$top" > "$log" 2>&1
	rc=$?
	# what failed, then the counts (t shows the last lines on failure)
	grep -E '^not ok|FAIL|Expected|^selftests:' "$log"
	rm -f "$log"
	# that shell is gone: $ns is empty again
	rmdir "$ns" 2>/dev/null
	return $rc
}

cpu1_offline_stays_offline()
{
	[ -w "$cpu1" ] || { echo "no CPU 1 to take offline"; return 0; }
	echo 0 > "$cpu1" || return 1
	"$bin/cgroup_share" -t cpu_hotplug -t idle_cgroup_reads_zero
	state=$(cat "$cpu1")
	echo 1 > "$cpu1"
	[ "$state" = 0 ] || { echo "CPU 1 was put online"; return 1; }
}

fuzzer_keeps_cpus_online()
{
	[ -w "$cpu1" ] || { echo "no CPU 1 to take offline"; return 0; }
	out=$(CGS_FUZZ_SECONDS=2 "$bin/cgroup_share_fuzz" 2>&1)
	rc=$?
	echo "$out" | grep -E 'CPU off/online|Totals'
	[ "$rc" = 0 ] || [ "$rc" = 4 ] || return 1
	# with 2 CPUs, a hotplug thread takes CPU 1 off every 200 ms
	! echo "$out" | grep -Eq 'CPU off/online: [1-9]'
}

echo "TAP version 13"
echo "1..3"
t "perf_events selftests in a cgroup namespace: all pass or skip" suite_in_cgroup_namespace
t "cgroup_share leaves an offline CPU 1 offline" cpu1_offline_stays_offline
t "a plain fuzzer run takes no CPU offline" fuzzer_keeps_cpus_online
tap_summary selftests-cgroupns
