# SPDX-License-Identifier: GPL-2.0
# cgroup-workload.sh - sourced (bash) by the tests that count workloads in
# cgroups with several counters at once (cgroup-modes.sh,
# guest/cgroup-hw.sh): the workloads wait in cgroup $pfx-Z, which nobody
# counts, and are moved into the counted cgroups only once every window is
# open, and back before the windows close, so that every window holds all
# they did there.  The caller sets mnt (the cgroup2 mount), pfx (its
# cgroups' prefix), work (a directory) and pids=(), and calls
# stop_workload before it exits.

# stop_workload - kill the workloads
stop_workload()
{
	[ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2> /dev/null
	wait 2> /dev/null
	pids=()
}

# busy - a busy loop, waiting in Z
busy()
{
	sh -c "echo \$\$ > $mnt/$pfx-Z/cgroup.procs && exec sh -c 'while :; do :; done'" &
	pids+=($!)
}

# sleeper - a task waking every 10 ms, waiting in Z (bash's read times out
# on a fifo nobody writes: no fork, no interpreter to start)
sleeper()
{
	[ -p "$work/fifo" ] || mkfifo "$work/fifo"
	bash -c "echo \$\$ > $mnt/$pfx-Z/cgroup.procs && exec 3<> $work/fifo &&
		while :; do read -t 0.01 -u 3; done" &
	pids+=($!)
}

# move_to PID CGROUP - move a task while it is stopped (and off its CPU)
move_to()
{
	local st=R i=0

	kill -STOP "$1"
	while [ "$st" != T ] && [ $((i++)) -lt 200 ]; do
		read -r _ _ st _ < "/proc/$1/stat"
		[ "$st" = T ] || sleep 0.005
	done
	# stopped is set just before it switches out: let it
	sleep 0.01
	echo "$1" > "$mnt/$2/cgroup.procs"
	kill -CONT "$1"
}

# into CGROUP... - move the workloads into the CGROUPs, in order, for
# $INTO_SECS seconds (default 0.8)
into()
{
	local i=0 cg

	for cg in "$@"; do
		move_to "${pids[i]}" "$cg"
		i=$((i + 1))
	done
	sleep "${INTO_SECS:-0.8}"
	for i in "${!pids[@]}"; do
		move_to "${pids[i]}" "$pfx-Z"
	done
}

# near A B REL ABS - |A - B| <= REL * max(A, B) + ABS
near()
{
	awk -v a="$1" -v b="$2" -v r="$3" -v x="$4" 'BEGIN { if (a == "" || b == "") exit 1
		d = a > b ? a - b : b - a; m = a > b ? a : b; exit !(d <= r * m + x) }'
}

# not_above A B REL ABS - A <= B + REL * B + ABS
not_above()
{
	awk -v a="$1" -v b="$2" -v r="$3" -v x="$4" 'BEGIN { if (a == "" || b == "") exit 1
		exit !(a <= b + r * b + x) }'
}
