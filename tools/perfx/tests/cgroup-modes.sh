#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cgroup-modes.sh - perfx stat --for-each-cgroup in BPF mode against
# per-cgroup mode, and against shared mode where the kernel has the ioctls,
# on real workloads.  Run as root, on the host (make test) and in the guest
# (tests/guest/run):
#
#     PERFX=tools/perfx/perfx tools/perfx/tests/cgroup-modes.sh
#
# Every mode counts the same workloads at the same time with the software
# events task-clock, cpu-clock, context-switches and cgroup-switches: the
# workloads wait in a cgroup nobody counts (Z), are moved into the counted
# cgroups once every window is open (guest/count-fds.sh's barrier) and
# back to Z 0.8 s later, and only then do the windows close, so every
# window holds all they did there.  They are moved while stopped: BPF mode
# gives a task moved while it runs the time since it was last switched in
# to its new cgroup (perfx-stat(1)), not what this compares.  So the
# counts themselves must agree: the switches exactly and the clocks within
# 0.5% + 0.5 ms + a pipe round trip's time per cgroup switch (the program
# reads the clocks as the outgoing task switches out, the kernel switches
# cgroup events a little later: -2 to +13 usec a switch on a loaded host
# where a round trip took 10 to 30, 44 in a TCG guest where it took
# ~100; the round trip is measured first) -- unless the kernel skipped the
# program at some cgroup switch, which it may (bpf/cgroup-counter.bpf.c):
# then perfx must warn so (and name the CPUs under -v), and its counts must
# be no more than the others' (what it could not attribute it drops).  The
# workloads:
#  1. busy and idle: a busy loop in A, a sleeper waking every 10 ms in B,
#     nothing in E (which every mode prints <not counted>);
#  2. a hierarchy: the busy loop in P/C1, the sleeper in P/C2, P, P/C1 and
#     P/C2 counted: in BPF mode P's counts are C1's plus C2's (to the
#     printed 0.01 msec and exactly for the switches), and every mode
#     agrees on each;
#  3. a task moved: the busy loop in A for 0.4 s, then in B for 0.4 s.
# Beyond the counts: the -x, lines of all modes are the same but for the
# values; -v names the mode; the BPF programs and maps perfx had open
# (its /proc/PID/fdinfo during the run) are gone after it exits, and
# `bpftool prog list` / `bpftool map list` show none of its names that
# they did not show before it ran.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
. "$here/cgroup-workload.sh"
tap_init cgroup-modes
PERFX=${PERFX:?}
EVENTS=task-clock,cpu-clock,context-switches,cgroup-switches
# the most a window waits for the moves to end: the 0.8 s they take grew
# past 60 s in a TCG guest on a host with a load average of 17
TIMEOUT=300
work=$(mktemp -d)
pids=()
mnt=
pfx=perfx-modes-$$

finish()
{
	stop_workload
	if [ -n "$mnt" ]; then
		rmdir "$mnt/$pfx-P/C1" "$mnt/$pfx-P/C2" "$mnt/$pfx-P" \
			"$mnt/$pfx-A" "$mnt/$pfx-B" "$mnt/$pfx-E" "$mnt/$pfx-Z" 2> /dev/null
	fi
	rm -rf "$work"
}
trap finish EXIT

TESTS=("busy and idle" "a hierarchy" "a task moved" "the same lines in every mode"
       "-v names the mode" "no BPF object left")

[ "$(id -u)" = 0 ] || skip_all "needs root"
tap_cgroup2 || skip_all "no cgroup2 mount"
mkdir -p "$mnt/$pfx-A" "$mnt/$pfx-B" "$mnt/$pfx-E" "$mnt/$pfx-P/C1" "$mnt/$pfx-P/C2" \
	"$mnt/$pfx-Z" ||
	skip_all "cannot create cgroups under $mnt"

"$PERFX" stat -a --cgroup-mode bpf --for-each-cgroup "$pfx-A" -e task-clock true \
	> /dev/null 2> "$work/probe" || skip_all "no BPF mode here: $(head -1 "$work/probe")"
modes=(bpf per-cgroup)
if "$PERFX" stat -a --cgroup-mode shared --for-each-cgroup "$pfx-A" -e task-clock true \
	> /dev/null 2>&1; then
	modes+=(shared)
fi
echo "# modes compared: ${modes[*]}"
# the clocks' allowance per cgroup switch: the median of 5 round trips,
# usec (one run can take 50 times as long in a TCG guest)
rtt=$(for i in 1 2 3 4 5; do "$PERFX" bench sched pipe -l 1000; done |
	awk '/usecs\/op/ { print $1 }' | sort -n | sed -n 3p)
echo "# a pipe round trip takes $rtt usec here (median of 5)"

tap_diag() { sed 's/^/#   /' "$work"/out.* 2> /dev/null; }

# count CGROUPS CMD... - every mode counts CGROUPS at the same time into
# out.MODE; CMD runs once every window is open, the windows close after it
count()
{
	local m p v ps=() rc=0 cgrps=$1

	rm -rf "$work/barrier" "$work"/out.*
	mkdir -p "$work/barrier"
	for m in "${modes[@]}"; do
		[ "$m" = bpf ] && v=-v || v=
		"$PERFX" stat $v -a -x, --cgroup-mode "$m" --for-each-cgroup "$cgrps" -e "$EVENTS" \
			-- "$here/guest/count-fds.sh" "$work/fds.$m" "$TIMEOUT" "$work/barrier" \
			"${#modes[@]}" done 2> "$work/out.$m" &
		ps+=($!)
	done
	shift
	while [ "$(find "$work/barrier" -name 'ready.*' | wc -l)" -lt "${#modes[@]}" ]; do
		sleep 0.05
	done
	"$@"
	touch "$work/barrier/done"
	for p in "${ps[@]}"; do
		wait "$p" || rc=1
	done
	return $rc
}

# val MODE EVENT CGROUP [FIELD] - a field of the -x, line (1: value, 7: metric)
val()
{
	awk -F, -v e="$2" -v c="$3" -v f="${4:-1}" '$3 == e && $4 == c { print $f }' \
		"$work/out.$1"
}

# missed - the cgroup switches BPF mode (run with -v) says it missed (""
# if none), or "malformed" if it does not say so as it must: one warning,
# and -v's lines for the CPUs adding up to its number
MISSED_RE='^perfx: --for-each-cgroup: the kernel did not run the BPF program at [1-9][0-9]* of [1-9][0-9]* cgroup switches: the counts are not exact$'
CPU_RE='^perfx: --for-each-cgroup: CPU [0-9]*: BPF missed [1-9][0-9]* of [1-9][0-9]* cgroup switches$'
missed()
{
	local n cpus others

	n=$(grep "$MISSED_RE" "$work/out.bpf" | awk '{ print $12 } END { if (NR > 1) print "many" }')
	cpus=$(grep "$CPU_RE" "$work/out.bpf" | awk '{ n += $7 } END { if (NR) print n }')
	others=$(grep '^perfx: ' "$work/out.bpf" | grep -v -e "$MISSED_RE" -e "$CPU_RE" \
		-e '^perfx: --for-each-cgroup: BPF mode, ' | wc -l)
	if [ "$n" = "$cpus" ] && [ "$others" = 0 ] && [ "$n" != many ]; then
		echo "$n"
	else
		echo malformed
	fi
}

# agree CGROUP... - every mode's counts agree with BPF mode's on each
# CGROUP, exactly but for the clocks' few usec a switch; where BPF mode
# missed switches, it warned and counted no more than they did.  The
# differences go to $bad, the switches missed to $miss.
agree()
{
	local cg m e s p skew

	miss=$(missed)
	[ "$miss" = malformed ] && bad="$bad malformed-warning($(grep '^perfx: ' "$work/out.bpf"))"
	for cg in "$@"; do
		for e in task-clock cpu-clock context-switches cgroup-switches; do
			s=$(val bpf "$e" "$cg")
			for m in "${modes[@]:1}"; do
				p=$(val "$m" "$e" "$cg")
				skew=$(awk -v n="$(val "$m" cgroup-switches "$cg")" -v t="$rtt" \
					'BEGIN { print 0.5 + n * t / 1000 }')
				if [ -n "$miss" ]; then
					not_above "$s" "$p" 0.005 "$skew"
				else
					case $e in
					*-clock) near "$s" "$p" 0.005 "$skew" ;;
					*) [ "$s" = "$p" ] ;;
					esac
				fi || bad="$bad ${cg#$pfx-}/$e(bpf $s vs $m $p)"
			done
		done
	done
}

# how - how the modes agreed, for the test's name
how() { if [ -n "$miss" ]; then echo "(BPF missed $miss switches, warned)"; else echo exactly; fi; }

# 1. busy and idle
busy
sleeper
sleep 0.3
bad=
if count "$pfx-A,$pfx-B,$pfx-E" into "$pfx-A" "$pfx-B"; then
	agree "$pfx-A" "$pfx-B"
	a=$(val bpf task-clock "$pfx-A")
	b=$(val bpf task-clock "$pfx-B")
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > b) }' || bad="$bad B-busier-than-A($b vs $a msec)"
	for m in "${modes[@]}"; do
		[ "$(grep -c "^<not counted>,.*,$pfx-E," "$work/out.$m")" = 4 ] ||
			bad="$bad E-counted-in-$m"
	done
else
	bad=" a perfx run failed"
fi
for m in "${modes[@]}"; do
	grep -v '^perfx: ' "$work/out.$m" | cut -d, -f2-4 > "$work/lines.$m"
done
stop_workload
if [ -z "$bad" ]; then ok "busy and idle agree $(how) (BPF: A $a msec, B $b)"; else notok "busy and idle:$bad"; fi

same=
for m in "${modes[@]:1}"; do
	cmp -s "$work/lines.bpf" "$work/lines.$m" || same="$same $m"
done
if [ -z "$same" ] && [ -s "$work/lines.bpf" ]; then
	ok "the same lines in every mode (unit, event, cgroup)"
else
	notok "the same lines in every mode: differ in$same"
fi

# 2. a hierarchy
busy
sleeper
sleep 0.3
bad=
if count "$pfx-P,$pfx-P/C1,$pfx-P/C2" into "$pfx-P/C1" "$pfx-P/C2"; then
	agree "$pfx-P" "$pfx-P/C1" "$pfx-P/C2"
	for e in task-clock cpu-clock; do
		p=$(val bpf "$e" "$pfx-P")
		s=$(awk -v a="$(val bpf "$e" "$pfx-P/C1")" -v b="$(val bpf "$e" "$pfx-P/C2")" \
			'BEGIN { printf "%.2f", a + b }')
		near "$p" "$s" 0 0.021 || bad="$bad P/$e($p != C1+C2 $s)"
	done
	for e in context-switches cgroup-switches; do
		p=$(val bpf "$e" "$pfx-P")
		s=$(($(val bpf "$e" "$pfx-P/C1") + $(val bpf "$e" "$pfx-P/C2")))
		[ "$p" = "$s" ] || bad="$bad P/$e($p != C1+C2 $s)"
	done
else
	bad=" a perfx run failed"
fi
stop_workload
if [ -z "$bad" ]; then ok "a hierarchy: P = C1 + C2 in BPF mode, the modes agree $(how)"; else notok "a hierarchy:$bad"; fi

# 3. a task moved from A to B
move()
{
	move_to "${pids[0]}" "$pfx-A"
	sleep 0.4
	move_to "${pids[0]}" "$pfx-B"
	sleep 0.4
	move_to "${pids[0]}" "$pfx-Z"
}
busy
sleep 0.3
bad=
if count "$pfx-A,$pfx-B" move; then
	agree "$pfx-A" "$pfx-B"
	a=$(val bpf task-clock "$pfx-A")
	b=$(val bpf task-clock "$pfx-B")
	awk -v a="$a" -v b="$b" 'BEGIN { exit !(a > 20 && b > 20) }' ||
		bad="$bad both-A-and-B-ran(A $a, B $b msec)"
else
	bad=" a perfx run failed"
fi
stop_workload
if [ -z "$bad" ]; then ok "a task moved: A $a msec then B $b, the modes agree $(how)"; else notok "a task moved:$bad"; fi

# -v: the mode, and the fds it took (one per CPU per event, not per cgroup)
ncpus=$(getconf _NPROCESSORS_ONLN)
"$PERFX" stat -v -a --cgroup-mode bpf --for-each-cgroup "$pfx-A,$pfx-B" -e task-clock,cpu-clock \
	true > /dev/null 2> "$work/out.v"
if grep -q "^perfx: --for-each-cgroup: BPF mode, $((ncpus * 2)) counting fds" "$work/out.v"; then
	ok "-v names the mode: BPF, CPUs x events fds"
else
	notok "-v names the mode: BPF, CPUs x events fds"
fi

# the BPF objects perfx held are gone after it exits: those its fdinfo
# showed during the run, and any program or map bearing the names of
# bpf/cgroup-counter.bpf.c's that bpftool lists after the run and not
# before (one perfx made and did not hold, pinned, say); others' BPF
# objects come and go meanwhile, hence the names
bpf_named()
{
	{ bpftool prog list; bpftool map list; } 2> /dev/null | awk '
		/^[0-9]+: / && $3 == "name" &&
		$4 ~ /^(on_switch|on_read|switches|events|cgrp_idx|slots|counts|cpu_state|cgroup_c\..*)$/ {
			print $1 $4
		}' | sort
}
bpf_named > "$work/before"
"$PERFX" stat -a --cgroup-mode bpf --for-each-cgroup "$pfx-A" -e task-clock -- sh -c \
	'cat /proc/$PPID/fdinfo/* 2> /dev/null | grep -E "^(prog|map)_id:"' > "$work/ids" 2> /dev/null
nprog=$(grep -c prog_id "$work/ids")
nmap=$(grep -c map_id "$work/ids")
# the kernel frees them after an RCU grace period, later on a loaded
# machine: give it 5 s (something pinned or leaked stays)
for i in $(seq 50); do
	left=
	while read -r kind id; do
		bpftool "${kind%_id:}" show id "$id" > /dev/null 2>&1 && left="$left ${kind%_id:}:$id"
	done < "$work/ids"
	left="$left$(bpf_named | comm -13 "$work/before" - | sed 's/^/ /' | tr -d '\n')"
	[ -z "$left" ] && break
	sleep 0.1
done
if [ "$nprog" -ge 2 ] && [ "$nmap" -ge 4 ] && [ -z "$left" ]; then
	ok "no BPF object left: the $nprog programs and $nmap maps perfx had are gone, bpftool lists none new"
else
	notok "no BPF object left: $nprog programs, $nmap maps seen; left:${left:- none}"
fi
