#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# count-fds.sh OUT SECS [BARRIER-DIR N] - the workload cgroup-share.sh gives
# perfx stat: perfx execs it once every counter is open and enabled, so it
# writes the number of perf_event fds its parent (perfx) holds to OUT; then
# (with a barrier) waits until N such workloads have written theirs, so
# that concurrent perfx runs end their windows together, and sleeps SECS.
find /proc/"$PPID"/fd -lname 'anon_inode:\[perf_event\]' 2>/dev/null | wc -l > "$1"
if [ $# -ge 4 ]; then
	touch "$3/ready.$$"
	while [ "$(find "$3" -name 'ready.*' | wc -l)" -lt "$4" ]; do
		sleep 0.05
	done
fi
exec sleep "$2"
