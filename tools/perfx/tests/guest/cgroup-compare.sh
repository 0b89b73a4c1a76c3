# SPDX-License-Identifier: GPL-2.0
# cgroup-compare.sh - sourced (bash) by cgroup-share.sh and by the test
# bed's scripts/tests/guest-perf.sh, which count two cgroups with two or
# more tools at once: TAP lines for the suite $SUITE, two cgroups A and B
# with a busy loop in A and a sleeper in B, the fields of perf stat -x,
# output, and the tolerances within which two counts of one workload
# agree.  The caller sets SUITE, TESTS, A and B, then calls cgroups_setup.

n=0 pass=0 fail=0 skip=0
work=$(mktemp -d)
pids=()

ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n - $SUITE: $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n - $SUITE: $1"; }
skipit() { n=$((n + 1)); skip=$((skip + 1)); echo "ok $n - $SUITE: $1 # SKIP $2"; }
check() { if eval "$2"; then ok "$1"; else notok "$1"; fi; }
# all_skip REASON - skip every test of the suite (TESTS: a name a line) and end
all_skip()
{
	local t

	while IFS= read -r t; do
		skipit "$t" "$1"
	done <<< "$TESTS"
	exit
}

# stop_workloads - kill the busy loop and the sleeper
stop_workloads()
{
	local p

	for p in "${pids[@]}"; do
		kill "$p" 2>/dev/null
	done
	wait 2>/dev/null
	pids=()
}

finish()
{
	stop_workloads
	[ -n "${mnt:-}" ] && rmdir "$mnt/$A" "$mnt/$B" 2>/dev/null
	rm -rf "$work"
	echo "$SUITE: $pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
	exit
}
trap finish EXIT

# cgroups_setup - A and B on the cgroup2 mount ($mnt), and the number of
# CPUs ($ncpus); returns non-zero, with the reason in $why, where it cannot
cgroups_setup()
{
	local c

	ncpus=$(getconf _NPROCESSORS_ONLN)
	why="needs root"
	[ "$(id -u)" = 0 ] || return 1
	mnt=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
	why="no cgroup2 mount"
	[ -n "$mnt" ] || return 1
	# 6.12: children made before anything writes the root's
	# subtree_control get no perf_event css (cgroup events fail with
	# ENOENT); enable one first
	for c in pids memory cpu; do
		grep -qw "$c" "$mnt/cgroup.controllers" 2>/dev/null &&
			echo "+$c" > "$mnt/cgroup.subtree_control" 2>/dev/null && break
	done
	why="cannot create cgroups under $mnt"
	mkdir -p "$mnt/$A" "$mnt/$B"
}

# start_workloads - a busy loop in A, a sleeper waking 100 times a second in B
start_workloads()
{
	sh -c "echo \$\$ > $mnt/$A/cgroup.procs && exec sh -c 'while :; do :; done'" &
	pids+=($!)
	sh -c "echo \$\$ > $mnt/$B/cgroup.procs && exec python3 -c 'import time
while True: time.sleep(0.01)'" &
	pids+=($!)
	sleep 0.5
}

# reap PID FDS OUT LABEL - wait for a counting tool, whose workload
# (count-fds.sh) wrote its fd count to FDS and whose output is OUT, which
# is shown with LABEL; its exit status in $rc, its fds in $fds
reap()
{
	wait "$1"
	rc=$?
	fds=$(cat "$2" 2>/dev/null || echo none)
	sed "s/^/#   $4: /" "$3"
}

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

# agree FILE1 FILE2 LABEL - adds to $bad what of A's and B's counts in the
# two files differs by more than the tolerances: the CPUs utilized of
# task-clock and cpu-clock within 10% + 0.02 CPUs (B's sleeper uses ~0.05
# CPUs, whose jitter under TCG is larger than 10% of it), the context
# switches per second of wall time within 25% + 5/s
agree()
{
	local cg e s p

	for cg in "$A" "$B"; do
		for e in task-clock cpu-clock; do
			s=$(val "$1" "$e" "$cg" 7)
			p=$(val "$2" "$e" "$cg" 7)
			awk -v s="$s" -v p="$p" 'BEGIN { if (s == "" || p == "") exit 1
				d = s > p ? s - p : p - s; m = s > p ? s : p; exit !(d <= 0.1 * m + 0.02) }' ||
				bad="$bad $3$cg/$e(util $s vs $p)"
		done
		s=$(rate "$1" "$cg")
		p=$(rate "$2" "$cg")
		awk -v s="$s" -v p="$p" 'BEGIN { if (s == "" || p == "") exit 1
			d = s > p ? s - p : p - s; m = s > p ? s : p; exit !(d <= 0.25 * m + 5) }' ||
			bad="$bad $3$cg/context-switches($s/s vs $p/s)"
	done
}
