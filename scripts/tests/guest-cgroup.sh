#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-cgroup.sh - the test bed's promises, checked inside the guest:
# our kernel, the mounts, the NUMA nodes, and perf events on a child cgroup.
top=$(cd "$(dirname "$0")/../.." && pwd)
cg=/sys/fs/cgroup/perfx-testbed
. "$top/scripts/tests/tap.sh"

kernel_is_ours()
{
	uname -r | grep -q -- '-perfx' || { echo "uname -r: $(uname -r)"; return 1; }
}

mounts_are_right()
{
	grep -q '^/dev/root / 9p ro,' /proc/mounts || { echo "/ is not 9p ro"; return 1; }
	grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || { echo "no cgroup2"; return 1; }
	grep -q " /tmp tmpfs " /proc/mounts || { echo "/tmp is not tmpfs"; return 1; }
	touch "$top/build/.guest-write" && rm "$top/build/.guest-write" ||
		{ echo "$top is not writable"; return 1; }
	! touch /usr/.perfx-guest-write 2>/dev/null || { echo "/usr is writable"; return 1; }
}

numa_nodes_match()
{
	want=$(sed -n 's/.*perfx_nodes=\([0-9]*\).*/\1/p' /proc/cmdline)
	have=$(ls -d /sys/devices/system/node/node* | wc -l)
	[ "$want" = "$have" ] || { echo "nodes: want $want, have $have"; return 1; }
}

# perf stat -G on a child cgroup counts the busy loop placed in it
perf_counts_child_cgroup()
{
	mkdir -p "$cg" || return 1
	out=$(perf stat -x, -a -e task-clock -G perfx-testbed -- \
		sh -c "echo \$\$ > $cg/cgroup.procs && exec timeout 1 sh -c 'while :; do :; done'" 2>&1)
	echo "$out"
	ms=$(echo "$out" | awk -F, '$3 == "task-clock" && $4 == "perfx-testbed" { print int($1) }')
	[ -n "$ms" ] && [ "$ms" -ge 100 ]
}

# the instruction-count benchmark's program measures every mode here too
# (its figures mean instructions only under qemu -icount): c0 counted in
# every counting mode, the shared event included
icount_bench_runs_every_mode()
{
	out=$("$top/build/bench/cgroup-switch-icount" -q -r 100) || return 1
	echo "$out"
	for mode in nothing plain cgroup shared; do
		echo "$out" | grep -Eq "^icount $mode 8 200 1 [0-9]+\$" || return 1
	done
}

echo "TAP version 13"
echo "1..5"
t "kernel release is ours" kernel_is_ours
t "host root read-only over 9p, cgroup2, tmpfs, repository writable" mounts_are_right
t "NUMA nodes as requested" numa_nodes_match
t "perf stat -G counts a busy loop in a child cgroup (>= 100 ms of 1 s)" perf_counts_child_cgroup
t "bench/cgroup-switch-icount measures nothing, plain, cgroup and shared" icount_bench_runs_every_mode
rmdir "$cg" 2>/dev/null
tap_summary testbed-guest
