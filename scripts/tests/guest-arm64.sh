#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# guest-arm64.sh [-c CONFIG] - the arm64 guest (scripts/vm --arch arm64)
# keeps the x86_64 guest's contract, and has the PMU the hardware-counter
# selftests need; then the selftests run in it, the hardware ones again
# under -icount (shift=3: the clock follows the instructions, 8 ns each,
# and only then does QEMU count instructions; the other selftests time
# out there), and perfx with hardware events against the guest's perf
# (tools/perfx/tests/guest/cgroup-hw.sh) under -icount too; then the
# series' perf, cross-built, against perf 6.1 and perfx
# (scripts/tests/guest-perf.sh).  Needs the
# arm64 kernel (scripts/kernel-build -a arm64), the cross-built selftests,
# perfx (make perfx-arm64) and perf (scripts/perf-build -m -a arm64), and
# the root (scripts/guest-root), which scripts/check builds first.
# Prints "guest-arm64-bed: N passed, N failed, N skipped", then the
# summary lines of the selftests, perfx's and perf's tests.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
config=debug
[ "${1:-}" = -c ] && config=$2
. "$top/scripts/tests/tap.sh"

vm()
{
	"$top/scripts/vm" --arch arm64 -c "$config" "$@"
}

passes_exit_status()
{
	vm -- sh -c 'exit 3'
	[ $? -eq 3 ]
}

# the repository at its path (read-write), cgroup2, the Armv8 PMU
has_what_tests_need()
{
	vm -- sh -c "[ \"\$(uname -m)\" = aarch64 ] && [ \"\$PWD\" = $top ] &&
		touch build/.arm64-rw && rm build/.arm64-rw &&
		grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts &&
		ls -d /sys/bus/event_source/devices/armv8_pmuv3*"
}

cd "$top" || exit 1
t "scripts/vm --arch arm64 exits with the command's status" passes_exit_status
t "the arm64 guest has the repository, cgroup2 and the Armv8 PMU" has_what_tests_need
tap_summary guest-arm64-bed || rc=1
vm -t 3600 -- make -s -C selftests run_tests || rc=1
# instructions count only under -icount, where the rest is too slow
vm -t 1200 --icount shift=3 -- selftests/run_tests.sh perf_events 600 \
	"$top/build/selftests-arm64/perf_events/cgroup_share_hw" || rc=1
vm -t 1800 --icount shift=3 -- tools/perfx/tests/guest/cgroup-hw.sh \
	"$top/build/perfx-arm64/perfx" || rc=1
vm -t 1800 -- env PERFX="$top/build/perfx-arm64/perfx" \
	scripts/tests/guest-perf.sh "$top/build/perf-min-arm64/perf" || rc=1
exit "${rc:-0}"
