#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# follow.sh - perfx stat --for-each-cgroup --follow-cgroups, as root, in
# every cgroup mode the kernel takes (BPF and per-cgroup on a stock
# kernel, shared in the guest): the pattern names the children of a
# test-private cgroup P, of which only P/a (idle) exists at the start.
#  - -I: a cgroup made mid-run (P/b) gets rows from the interval perfx
#    saw it in (its "appeared" line under -v); a busy loop run in it then
#    has its CPU time (P/b's cpu.stat usage_usec) in P/b's task-clock rows
#    within 3% + 10 ms; once P/b is removed, its rows come exactly once
#    more after the "is gone" line; P/b made again under the same name
#    starts from zero (in BPF mode, with --max-cgroups 2, in the slot
#    P/b had before);
#  - the end table: a cgroup made and removed mid-run (P/b) and one made
#    and still there (P/c) are printed once each, P/b with its busy loop's
#    CPU time;
#  - --serve: P/b is served from its creation, with its busy loop's CPU
#    time; after its removal once more, then no more;
#  - the cap: more cgroups than --max-cgroups at the start is an error
#    that names the option; more made later, a warning, and those are not
#    counted;
#  - usage errors: --follow-cgroups without --for-each-cgroup or with -r,
#    --max-cgroups without --follow-cgroups or out of range.
# env: PERFX; FOLLOW_MODES, the modes to try (default: bpf per-cgroup
# shared).  Prints TAP lines.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
tap_init follow
PERFX=${PERFX:?}
tap_workdir
mnt=
pfx=perfx-follow-$$
perfx_pid=
EVENTS=task-clock,context-switches
# how long the busy loop runs, in seconds
BUSY=0.3

finish()
{
	[ -z "$perfx_pid" ] || kill -KILL "$perfx_pid" 2> /dev/null
	wait 2> /dev/null
	[ -z "$mnt" ] || rmdir "$mnt/$pfx"/* "$mnt/$pfx" 2> /dev/null
	rm -rf "$work"
}
trap finish EXIT

read -r -a MODES <<< "${FOLLOW_MODES:-bpf per-cgroup shared}"
TESTS=()
for m in "${MODES[@]}"; do
	TESTS+=("$m: -I, a cgroup made" "$m: -I, its counts" "$m: -I, a cgroup removed"
		"$m: -I, made again" "$m: the end table" "$m: --serve, cgroups leaving"
		"$m: --serve" "$m: fds held")
done
TESTS+=("the cap at the start" "the cap later" "usage errors")

[ "$(id -u)" = 0 ] || skip_all "needs root"
command -v curl > /dev/null || skip_all "no curl (scripts/deps installs it)"
tap_cgroup2 || skip_all "no cgroup2 mount"
mkdir -p "$mnt/$pfx/a" || skip_all "cannot create cgroups under $mnt"
pat="$pfx/.*"

# wait_for PATTERN FILE - until a line of FILE matches PATTERN (60 s at
# most), while perfx runs
wait_for()
{
	local end=$((SECONDS + 60))

	while [ $SECONDS -lt $end ]; do
		grep -q -- "$1" "$2" 2> /dev/null && return 0
		[ -z "$perfx_pid" ] || kill -0 "$perfx_pid" 2> /dev/null || return 1
		sleep 0.05
	done
	return 1
}

# wait_counting - until perfx ($perfx_pid) counts: its list was expanded
# (what it finds then is the start, past the cap an error) and its events
# are open
wait_counting()
{
	local end=$((SECONDS + 60))

	while [ $SECONDS -lt $end ]; do
		[ -n "$(find "/proc/$perfx_pid/fd" -lname 'anon_inode:\[perf_event\]' -print \
			   -quit 2> /dev/null)" ] && return 0
		kill -0 "$perfx_pid" 2> /dev/null || return 1
		sleep 0.05
	done
	return 1
}

# busy_in CGROUP - a busy loop in CGROUP for $BUSY s; prints its CPU time
# in ms.  It is moved in while stopped: BPF mode gives a task that moves
# while it runs the time since its CPU's last cgroup switch (perfx-stat(1))
busy_in()
{
	local pid i

	sh -c "kill -STOP \$\$; exec timeout $BUSY sh -c 'while :; do :; done'" &
	pid=$!
	for ((i = 0; i < 400; i++)); do
		grep -q '^State:.*stopped' "/proc/$pid/status" && break
		sleep 0.01
	done
	echo "$pid" > "$mnt/$pfx/$1/cgroup.procs"
	kill -CONT "$pid"
	wait "$pid"
	awk '$1 == "usage_usec" { printf "%.3f\n", $2 / 1000 }' "$mnt/$pfx/$1/cpu.stat"
}

# near GOT WANT - GOT (ms) is WANT within 3% + 10 ms
near()
{
	awk -v g="$1" -v w="$2" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= w * 0.03 + 10) }'
}

# counted GOT WANT - GOT (ms) is WANT as near() says; where perfx warned
# that the kernel skipped its BPF program at some cgroup switches (their
# spans are dropped: cgroup-bpf.c), GOT is only above 0 and at most WANT
counted()
{
	if grep -q 'the counts are not exact' "$out"; then
		echo "# $(grep -m1 'the counts are not exact' "$out")"
		awk -v g="$1" -v w="$2" 'BEGIN { exit !(g != "" && g > 0 && g <= w * 1.03 + 10) }'
	else
		near "$1" "$2"
	fi
}

# stop_perfx - SIGINT, and wait: perfx dies of it (130)
stop_perfx()
{
	kill -INT "$perfx_pid"
	wait "$perfx_pid"
	local st=$?

	perfx_pid=
	return $((st != 130))
}

# rows_sum FILE CGROUP EVENT - the sum of CGROUP's EVENT values in -x, rows
# of FILE whose cgroup is field CF (the rows' CSV fields: -I has the time first)
rows_sum()
{
	awk -F, -v c="$2" -v e="$3" -v cf="$4" \
		'$cf == c && $(cf - 1) == e && $(cf - 3) !~ /</ { s += $(cf - 3) } END { printf "%.3f\n", s }' "$1"
}

# skip_mode MODE REASON
skip_mode()
{
	local t

	for t in "-I, a cgroup made" "-I, its counts" "-I, a cgroup removed" "-I, made again" \
		"the end table" "--serve, cgroups leaving" "--serve" "fds held"; do
		skip "$1: $t" "$2"
	done
}

check_interval()
{
	local mode=$1 max=() use want got after
	local out=$work/$mode.I

	# BPF mode: room for two, so that P/b made again takes P/b's old slot
	[ "$mode" != bpf ] || max=(--max-cgroups 2)
	"$PERFX" stat -a -v -x, -I 100 -e $EVENTS --cgroup-mode "$mode" --for-each-cgroup "$pat" \
		--follow-cgroups "${max[@]}" 2> "$out" &
	perfx_pid=$!
	wait_for "^ *[0-9.]*,.*,$pfx/a," "$out"
	mkdir "$mnt/$pfx/b"
	wait_for "cgroup '$pfx/b' appeared" "$out"
	use=$(busy_in b)
	# two intervals more, so that the busy loop's last one is printed
	sleep 0.25
	rmdir "$mnt/$pfx/b"
	wait_for "cgroup '$pfx/b' is gone" "$out"
	sleep 0.25
	mkdir "$mnt/$pfx/b"
	wait_for "cgroup '$pfx/b' appeared.*" "$out"
	sleep 0.25
	stop_perfx
	rmdir "$mnt/$pfx/b"
	# the lines up to the second "appeared" line: P/b's first life
	awk -v p="cgroup '$pfx/b' appeared" 'index($0, p) && ++n == 2 { exit } { print }' \
		"$out" > "$out.1"

	# rows for P/b after its appeared line, in every interval
	what="$mode: -I, a cgroup made: $pfx/b has rows from its appeared line on"
	awk -F, -v c="$pfx/b" -v p="cgroup '$pfx/b' appeared" '
		index($0, p) { seen = 1; next }
		/^ *[0-9.]+,/ && $5 == c { if (!seen) bad = 1; rows[$1]++ }
		/^ *[0-9.]+,/ { times[$1] = 1 }
		END { if (bad || !length(rows)) exit 1 }' "$out.1"
	verdict

	got=$(rows_sum "$out.1" "$pfx/b" task-clock 5)
	what="$mode: -I, its counts: $pfx/b's task-clock rows add up to $got ms, its cpu.stat says $use ms"
	counted "$got" "$use"
	verdict

	what="$mode: -I, a cgroup removed: $pfx/b's rows come once after its \"is gone\" line"
	after=$(awk -F, -v c="$pfx/b" -v p="cgroup '$pfx/b' is gone" '
		index($0, p) { seen = 1; next }
		seen && /^ *[0-9.]+,/ && $5 == c { n++ } END { print n + 0 }' "$out.1")
	[ "$after" = 2 ]
	what+=" ($after rows, want 2: one per event)"
	verdict

	got=$(awk -v p="cgroup '$pfx/b' appeared" 'index($0, p) && ++n == 2 { s = 1; next } s' \
		"$out" > "$out.2"; rows_sum "$out.2" "$pfx/b" task-clock 5)
	what="$mode: -I, made again: the new $pfx/b starts from zero ($got ms of task-clock, want < 5)"
	awk -v g="$got" 'BEGIN { exit !(g < 5) }'
	verdict
}

check_table()
{
	local mode=$1 use got seen
	local out=$work/$mode.table

	"$PERFX" stat -a -v -x, -e $EVENTS --cgroup-mode "$mode" --for-each-cgroup "$pat" \
		--follow-cgroups 2> "$out" &
	perfx_pid=$!
	wait_counting || echo "# perfx opened no counting fd in 60 s"
	mkdir "$mnt/$pfx/b"
	wait_for "cgroup '$pfx/b' appeared" "$out"
	use=$(busy_in b)
	rmdir "$mnt/$pfx/b"
	mkdir "$mnt/$pfx/c"
	wait_for "cgroup '$pfx/b' is gone" "$out"
	wait_for "cgroup '$pfx/c' appeared" "$out"
	stop_perfx
	got=$(rows_sum "$out" "$pfx/b" task-clock 4)
	seen=$(awk -F, -v p="$pfx/" 'index($4, p) == 1 && $3 == "task-clock" { n[$4]++ }
		END { for (c in n) printf "%s:%d ", c, n[c] }' "$out" | tr ' ' '\n' | sort | xargs)
	what="$mode: the end table: $seen (want a, b, c once each), $pfx/b's task-clock $got ms, cpu.stat $use ms"
	[ "$seen" = "$pfx/a:1 $pfx/b:1 $pfx/c:1" ] && counted "$got" "$use"
	verdict
	rmdir "$mnt/$pfx/c"
}

# scrape URL FILE - one scrape into FILE
scrape()
{
	curl -s --max-time 10 "$1" > "$2"
}

# served FILE CGROUP - the task-clock served for CGROUP in ms, or nothing
served()
{
	awk -v id="id=\"/$2\"" '/^container_perf_events_total/ && index($0, "event=\"task-clock\"") &&
		index($0, id) { printf "%.3f\n", $2 / 1e6 }' "$1"
}

check_serve()
{
	local mode=$1 port url use s1 s2 s3 s4 try q1 q2 useq
	local out=$work/$mode.serve

	for try in 1 2 3 4 5; do
		port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
		url=http://127.0.0.1:$port/metrics
		"$PERFX" stat -a -v -e $EVENTS --cgroup-mode "$mode" --for-each-cgroup "$pat" \
			--follow-cgroups --serve "127.0.0.1:$port" 2> "$out" &
		perfx_pid=$!
		wait_for "serve: counting" "$out" && break
		kill -KILL "$perfx_pid" 2> /dev/null
		wait "$perfx_pid" 2> /dev/null
		perfx_pid=
	done
	scrape "$url" "$work/s0"
	mkdir "$mnt/$pfx/b"
	wait_for "cgroup '$pfx/b' appeared" "$out"
	scrape "$url" "$work/s1"
	use=$(busy_in b)
	rmdir "$mnt/$pfx/b"
	wait_for "cgroup '$pfx/b' is gone" "$out"
	scrape "$url" "$work/s2"
	scrape "$url" "$work/s3"
	# two that leave on either side of one that stays, the first busy
	mkdir "$mnt/$pfx/q1" "$mnt/$pfx/q2" "$mnt/$pfx/q3"
	wait_for "cgroup '$pfx/q3' appeared" "$out"
	useq=$(busy_in q1)
	scrape "$url" "$work/s4"
	rmdir "$mnt/$pfx/q1" "$mnt/$pfx/q3"
	wait_for "cgroup '$pfx/q3' is gone" "$out"
	scrape "$url" "$work/s5"
	scrape "$url" "$work/s6"
	stop_perfx
	rmdir "$mnt/$pfx/q2"
	q1=$(served "$work/s4" "$pfx/q1")
	q2=$(served "$work/s6" "$pfx/q2")
	what="$mode: --serve: after q1 (served $q1 ms) and q3 left around q2, q2 keeps its own count (${q2:-none} ms, want < 5), q1 and q3 are gone"
	counted "$q1" "$useq" &&
		awk -v a="$q1" -v b="$q2" 'BEGIN { exit !(a > 50 && b != "" && b < 5) }' &&
		[ -z "$(served "$work/s6" "$pfx/q1")$(served "$work/s6" "$pfx/q3")" ]
	verdict
	s1=$(served "$work/s0" "$pfx/b")
	s2=$(served "$work/s1" "$pfx/b")
	s3=$(served "$work/s2" "$pfx/b")
	s4=$(served "$work/s3" "$pfx/b")
	what="$mode: --serve: $pfx/b served '$s1' before it was made, '$s2' once made, '$s3' ms once removed (cpu.stat $use ms), '$s4' after that"
	[ -z "$s1" ] && [ -n "$s2" ] && counted "$s3" "$use" && [ -z "$s4" ] &&
		[ -n "$(served "$work/s3" "$pfx/a")" ]
	verdict
}

# check_fds MODE - the fds perfx holds with P/a alone and with 40 more
# cgroups: shared and BPF modes hold none per cgroup (no directory is
# opened), per-cgroup mode an event per CPU and event, and the directory
check_fds()
{
	local mode=$1 out=$work/$mode.fds i before after ncpu want

	ncpu=$(getconf _NPROCESSORS_ONLN)
	"$PERFX" stat -a -v -e $EVENTS --cgroup-mode "$mode" --for-each-cgroup "$pat" \
		--follow-cgroups 2> "$out" &
	perfx_pid=$!
	wait_for "Events enabled\\|appeared\\|counting" "$out" || sleep 1
	before=$(ls "/proc/$perfx_pid/fd" | wc -l)
	for ((i = 0; i < 40; i++)); do
		mkdir "$mnt/$pfx/f$i"
	done
	wait_for "cgroup '$pfx/f39' appeared" "$out"
	after=$(ls "/proc/$perfx_pid/fd" | wc -l)
	stop_perfx
	rmdir "$mnt/$pfx"/f*
	if [ "$mode" = per-cgroup ]; then
		want=$((40 * (2 * ncpu + 1)))
		what="$mode: fds held: $before with 1 cgroup, $after with 41: $want more (2 events x $ncpu CPUs + the directory, a cgroup)"
		[ $((after - before)) = $want ]
	else
		what="$mode: fds held: $before with 1 cgroup, $after with 41: none a cgroup"
		[ "$before" = "$after" ] && grep -q "cgroup '$pfx/f39' appeared" "$out"
	fi
	verdict
}

for mode in "${MODES[@]}"; do
	if ! "$PERFX" stat -a --cgroup-mode "$mode" --for-each-cgroup "$pfx/a" --follow-cgroups \
		-e task-clock true > /dev/null 2> "$work/probe"; then
		skip_mode "$mode" "not here: $(head -1 "$work/probe")"
		continue
	fi
	check_interval "$mode"
	check_table "$mode"
	check_serve "$mode"
	check_fds "$mode"
done

# the cap: two children, room for one
mkdir "$mnt/$pfx/b"
what="the cap at the start: more cgroups than --max-cgroups is an error naming it, exit 1"
"$PERFX" stat -a -e task-clock --for-each-cgroup "$pat" --follow-cgroups --max-cgroups 1 \
	true > /dev/null 2> "$work/err"
st=$?
[ $st = 1 ] && grep -q "names more than 1 cgroups (E2BIG): raise --max-cgroups" "$work/err"
verdict
rmdir "$mnt/$pfx/b"

"$PERFX" stat -a -x, -e task-clock --for-each-cgroup "$pat" --follow-cgroups --max-cgroups 1 \
	2> "$work/cap" &
perfx_pid=$!
wait_counting || echo "# perfx opened no counting fd in 60 s"
mkdir "$mnt/$pfx/b"
wait_for "more than --max-cgroups" "$work/cap"
stop_perfx
what="the cap later: a warning, once, and $pfx/b is not counted"
[ "$(grep -c "'$pat' names 1 cgroups more than --max-cgroups 1: they are not counted" "$work/cap")" = 1 ] &&
	! grep -q ",$pfx/b," "$work/cap" && grep -q ",$pfx/a," "$work/cap"
verdict
rmdir "$mnt/$pfx/b"

what="usage errors: exit 129 and the reason"
bad=
for args in "--follow-cgroups -e task-clock" \
	"--follow-cgroups --for-each-cgroup $pfx/a -r 2 -e task-clock" \
	"--max-cgroups 3 --for-each-cgroup $pfx/a -e task-clock" \
	"--max-cgroups 0 --follow-cgroups --for-each-cgroup $pfx/a -e task-clock" \
	"--max-cgroups 65537 --follow-cgroups --for-each-cgroup $pfx/a -e task-clock"; do
	# shellcheck disable=SC2086
	"$PERFX" stat -a $args true > /dev/null 2> "$work/err"
	st=$?
	case $args in
	--follow-cgroups\ -e*) want="--follow-cgroups needs --for-each-cgroup" ;;
	*-r\ 2*) want="--follow-cgroups and -r cannot be used together" ;;
	--max-cgroups\ 3*) want="--max-cgroups needs --follow-cgroups" ;;
	*) want="expected a count from 1 to 65536" ;;
	esac
	{ [ $st = 129 ] && grep -q -- "$want" "$work/err"; } || bad+=" [$args: $st]"
done
what+="${bad:+:$bad}"
[ -z "$bad" ]
verdict
