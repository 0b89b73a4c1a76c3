#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# count-fds.sh OUT SECS [BARRIER-DIR N [done]] - the workload cgroup-share.sh
# gives perfx stat: perfx execs it once every counter is open and enabled,
# so it writes the number of perf_event fds its parent (perfx) holds to
# OUT; then (with a barrier) waits until N such workloads have written
# theirs, so that concurrent perfx runs open their windows together, and
# sleeps SECS -- or, with "done", until BARRIER-DIR/done exists (at most
# SECS, then it fails), so that their windows close after what the caller
# does in them.
find /proc/"$PPID"/fd -lname 'anon_inode:\[perf_event\]' 2>/dev/null | wc -l > "$1"
if [ $# -ge 4 ]; then
	touch "$3/ready.$$"
	while [ "$(find "$3" -name 'ready.*' | wc -l)" -lt "$4" ]; do
		sleep 0.05
	done
fi
if [ "${5:-}" = done ]; then
	end=$((SECONDS + ${2%.*} + 1))
	while [ ! -e "$3/done" ] && [ "$SECONDS" -lt "$end" ]; do
		sleep 0.05
	done
	[ -e "$3/done" ]
	exit
fi
exec sleep "$2"
