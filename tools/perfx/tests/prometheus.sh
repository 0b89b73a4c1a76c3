#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# prometheus.sh - perfx stat --serve scraped by a real Prometheus server
# (Debian's prometheus, installed by scripts/deps), as root, in each cgroup
# mode of PROM_MODES: "bpf per-cgroup" by default, which a stock kernel
# has; the guest runs it in shared mode (tests/guest/run).  In each mode:
#
#  - Prometheus, on a free loopback port with its TSDB in the work
#    directory, scrapes perfx every PROM_INTERVAL seconds (default 1;
#    OpenMetrics, as it negotiates it); cgroup A runs a busy loop for 3 s and B a sleeper waking 100
#    times a second for 3 s (each moved there while stopped), C stays
#    idle, all three idle before and after, and D is made during the
#    run, runs a busy loop for 1 s and is removed; both perfx follow the
#    cgroups (--follow-cgroups): a second perfx stat -x counts the same
#    cgroups meanwhile with per-cgroup events, as perf does, and prints
#    its counts at the end;
#  - every scrape succeeded: up == 1 at every sample, at least one
#    sample per two intervals of the run, the target healthy with no
#    error, all 24 samples (3 cgroups x 2 events x 4 families) in each,
#    32 while D was there;
#  - after the run, the last value Prometheus holds of each cgroup's
#    counters is the one perfx serves at that time, exactly;
#  - what Prometheus saw grow over the run (`v - v @ t0`, t0 just before
#    the workload) is what the printing perfx stat counted: task-clock
#    and context switches of each cgroup within 1% + 5 ms or + 3
#    switches (A's 3 s of CPU, B's ~300 switches, C's nothing: a mix-up
#    of cgroups or events fails; no more than that where perfx said the
#    kernel skipped its BPF program), and increase() over the run is that
#    growth extrapolated, between it and 1.5 times it;
#  - the scaling ratio is 1 (software events never multiplex), 0 for C,
#    which never ran;
#  - D's last value in Prometheus is the count the printing perfx printed
#    for it (its final count arrived), that count is D's cpu.stat usage,
#    and its series is stale after;
#  - neither perfx reported a sanitizer error.
#
# A mode this kernel cannot count in (perfx says why) is skipped.
# env: PERFX, PROM_MODES, PROM_INTERVAL.  Prints TAP lines.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
tap_init prometheus
PERFX=${PERFX:?}
PROM_MODES=${PROM_MODES:-bpf per-cgroup}
# seconds between scrapes, and a scrape's timeout: longer in a TCG guest
PROM_INTERVAL=${PROM_INTERVAL:-1}
PY=/usr/bin/python3
EVENTS=task-clock,context-switches
tap_workdir
mnt=
pfx=perfx-prom-$$
pids=()
# D's CPU time (workload)
d_usage=

finish()
{
	local cg

	[ ${#pids[@]} -eq 0 ] || kill -KILL "${pids[@]}" 2> /dev/null
	wait 2> /dev/null
	for cg in A B C D; do
		[ -z "$mnt" ] || rmdir "$mnt/$pfx-$cg" 2> /dev/null
	done
	rm -rf "$work"
}
trap finish EXIT

TESTS=()
for mode in $PROM_MODES; do
	TESTS+=("$mode mode: every scrape succeeded"
		"$mode mode: Prometheus's last values are perfx's"
		"$mode mode: the growth Prometheus saw is what perfx stat printed"
		"$mode mode: increase() over the run"
		"$mode mode: scaling ratio 1, 0 for the idle cgroup"
		"$mode mode: a cgroup made and removed mid-run"
		"$mode mode: no sanitizer report")
done

[ "$(id -u)" = 0 ] || skip_all "needs root"
command -v prometheus > /dev/null || skip_all "no prometheus (scripts/deps installs it)"
command -v curl > /dev/null || skip_all "no curl (scripts/deps installs it)"
tap_cgroup2 || skip_all "no cgroup2 mount"
mkdir -p "$mnt/$pfx-A" "$mnt/$pfx-B" "$mnt/$pfx-C" ||
	skip_all "cannot create cgroups under $mnt"

# scrapes N - the seconds of N scrape intervals
scrapes() { awk -v n="$1" -v i="$PROM_INTERVAL" 'BEGIN { print n * i }'; }

free_port()
{
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_http URL PID - until URL answers 200, or PID is gone (60 s at most:
# Prometheus starts in seconds on a host, in tens under TCG)
wait_http()
{
	local _

	for _ in $(seq 600); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "$1")" = 200 ] && return 0
		kill -0 "$2" 2> /dev/null || return 1
		sleep 0.1
	done
	return 1
}

# query EXPR [TIME] - the value of the one sample of an instant query,
# "none" when it has none
query()
{
	curl -sG --data-urlencode "query=$1" ${2:+--data-urlencode "time=$2"} \
		"$prom/api/v1/query" | "$PY" -c '
import json, sys
r = json.load(sys.stdin)
assert r["status"] == "success", r
res = r["data"]["result"]
print(res[0]["value"][1] if len(res) == 1 else "none")'
}

# served FAMILY EVENT CG - perfx's value, scraped now
served()
{
	curl -s "$url" | awk -v k="$1{cpu=\"\",event=\"$2\",id=\"/$pfx-$3\"}" \
		'$1 == k { print $2 }'
}

# printed EVENT CG - the printing perfx's count, in ns for task-clock
printed()
{
	awk -F, -v e="$1" -v c="$pfx-$2" '$3 == e && $4 == c {
		printf "%.0f\n", e == "task-clock" ? $1 * 1e6 : $1 }' "$work/printed"
}

# start_prometheus - scraping $url every second, its API at $prom
start_prometheus()
{
	local pport

	pport=$(free_port)
	prom=http://127.0.0.1:$pport
	cat > "$work/prometheus.yml" <<-EOF
	global:
	  scrape_interval: ${PROM_INTERVAL}s
	  scrape_timeout: ${PROM_INTERVAL}s
	scrape_configs:
	  - job_name: perfx
	    static_configs:
	      - targets: ['127.0.0.1:$port']
	EOF
	rm -rf "$work/tsdb"
	prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
		--web.listen-address="127.0.0.1:$pport" --log.level=warn \
		> "$work/prometheus.log" 2>&1 &
	prom_pid=$!
	pids+=("$prom_pid")
	wait_http "$prom/-/ready" "$prom_pid" || return 1
	# up to the first scrape's sample
	for _ in $(seq 600); do
		[ "$(query 'up{job="perfx"}')" = 1 ] && return 0
		sleep 0.1
	done
	return 1
}

# stopped PID - until PID is stopped (its state T)
stopped()
{
	local _

	for _ in $(seq 100); do
		[ "$(awk '{ print $3 }' "/proc/$1/stat" 2> /dev/null)" = T ] && return 0
		sleep 0.05
	done
	return 1
}

# appeared CG - until both perfx count CG, made now (60 s at most)
appeared()
{
	local _

	for _ in $(seq 600); do
		grep -q "cgroup '$pfx-$1' appeared" "$work/err" &&
			grep -q "cgroup '$pfx-$1' appeared" "$work/err.printed" && return 0
		sleep 0.1
	done
	return 1
}

# workload - 3 s of a busy loop in A and of a sleeper in B, then idle;
# meanwhile D made, 1 s of a busy loop in it once both perfx count it,
# and D removed.  Each is moved into its cgroup while stopped: BPF mode
# gives a task moved while it runs the time since it was last switched in
# to its new cgroup (perfx-stat(1)), which would differ from what the
# others count
workload()
{
	local busy sleeper d

	mkdir "$mnt/$pfx-D"
	sh -c 'kill -STOP $$; exec timeout 3 sh -c "while :; do :; done"' &
	busy=$!
	sh -c 'kill -STOP $$; exec timeout 3 sh -c "while :; do sleep 0.01; done"' &
	sleeper=$!
	sh -c 'kill -STOP $$; exec timeout 1 sh -c "while :; do :; done"' &
	d=$!
	stopped "$busy" && stopped "$sleeper" && stopped "$d" && appeared D &&
		echo "$busy" > "$mnt/$pfx-A/cgroup.procs" &&
		echo "$sleeper" > "$mnt/$pfx-B/cgroup.procs" &&
		echo "$d" > "$mnt/$pfx-D/cgroup.procs"
	kill -CONT "$busy" "$sleeper" "$d"
	wait "$d"
	# D's CPU time in ns, by the kernel's own account
	d_usage=$(awk '$1 == "usage_usec" { print $2 * 1000 }' "$mnt/$pfx-D/cpu.stat")
	rmdir "$mnt/$pfx-D"
	wait "$busy" "$sleeper"
}

tap_diag()
{
	sed 's/^/#   /' "$work/err" 2> /dev/null | head -8
	sed 's/^/#   prometheus: /' "$work/prometheus.log" 2> /dev/null | tail -4
	sed 's/^/#   printed: /' "$work/printed" "$work/err.printed" 2> /dev/null | grep -v '^#   printed: #' | head -8
}

# within GOT WANT REL ABS - |GOT - WANT| <= REL * WANT + ABS
within()
{
	awk -v g="$1" -v w="$2" -v r="$3" -v a="$4" \
		'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "" && d <= r * w + a) }'
}

# last_values_match - A, B and C are idle after the run: perfx's values no
# longer move, and Prometheus's last samples must be them
last_values_match()
{
	local cg ev got want

	for cg in A B C; do
		for ev in task-clock context-switches; do
			want=$(served container_perf_events_total "$ev" "$cg")
			got=$(query "container_perf_events_total{event=\"$ev\",id=\"/$pfx-$cg\"}")
			echo "# $cg $ev: perfx serves ${want:-?}, Prometheus has $got"
			[ -n "$want" ] && [ "$got" = "$want" ] || return 1
		done
	done
}

# growth CG EVENT T0 - how much Prometheus saw the counter grow since T0
growth()
{
	local sel="event=\"$2\",id=\"/$pfx-$1\""

	query "container_perf_events_total{$sel} - container_perf_events_total{$sel} @ $3"
}

# agrees GOT WANT EVENT - GOT, what Prometheus has, is WANT, the printing
# perfx's count of EVENT, within 1% + 5 ms or + 3 switches; no more than
# it where the serving perfx said the kernel skipped its BPF program at
# some switch (what it cannot attribute, it drops)
agrees()
{
	local slack=3

	[ "$3" = task-clock ] && slack=5e6
	if grep -q 'did not run the BPF program' "$work/err"; then
		awk -v g="$1" -v w="$2" -v a="$slack" \
			'BEGIN { exit !(g != "" && g >= 0 && g <= 1.01 * w + a) }'
	else
		within "$1" "$2" 0.01 "$slack"
	fi
}

# growth_matches_printed T0 - each cgroup's and event's growth since T0
# is the printing perfx's count
growth_matches_printed()
{
	local cg ev got want

	for cg in A B C; do
		for ev in task-clock context-switches; do
			got=$(growth "$cg" "$ev" "$1")
			want=$(printed "$ev" "$cg")
			echo "# $cg $ev: Prometheus saw +$got, perfx stat printed ${want:-?}"
			agrees "$got" "$want" "$ev" || return 1
		done
	done
}

# increase_extrapolates T0 T1 RANGE - increase() over RANGE up to T1 is
# the growth since T0, extrapolated to the range's ends by at most half
increase_extrapolates()
{
	local cg sel got want

	for cg in A B; do
		sel="event=\"task-clock\",id=\"/$pfx-$cg\""
		want=$(growth "$cg" task-clock "$1")
		got=$(query "increase(container_perf_events_total{$sel}[$3])" "$2")
		echo "# $cg task-clock: increase() $got, growth $want"
		awk -v g="$got" -v w="$want" 'BEGIN { exit !(w > 0 && g >= w && g <= 1.5 * w) }' ||
			return 1
	done
}

# removed_cgroup_arrived T1 RANGE - D's last task-clock and context
# switches in Prometheus are what the printing perfx printed for it, and
# at T1 its series is stale; the printed task-clock is D's cpu.stat
# usage within 3% + 10 ms
removed_cgroup_arrived()
{
	local ev sel got want

	for ev in task-clock context-switches; do
		sel="event=\"$ev\",id=\"/$pfx-D\""
		got=$(query "last_over_time(container_perf_events_total{$sel}[$2])" "$1")
		want=$(printed "$ev" D)
		echo "# D $ev: Prometheus's last value $got, perfx stat printed ${want:-?}"
		agrees "$got" "$want" "$ev" || return 1
		[ "$(query "container_perf_events_total{$sel}" "$1")" = none ] || return 1
	done
	echo "# D's cpu.stat: ${d_usage:-?} ns"
	within "$(printed task-clock D)" "$d_usage" 0.03 10e6
}

# mode_skip MODE - skip MODE's tests where this kernel cannot count in
# it, or follow cgroups (no shared-cgroup series, no BPF mode, no
# inotify): perfx says why
mode_skip()
{
	local t

	"$PERFX" stat -a --cgroup-mode "$1" --for-each-cgroup "$pfx-A" --follow-cgroups \
		-e task-clock true > /dev/null 2> "$work/probe" && return 1
	for t in "${TESTS[@]}"; do
		[[ $t = "$1 mode: "* ]] && skip "$t" "no $1 mode here: $(head -1 "$work/probe")"
	done
	return 0
}

run_mode()
{
	local mode=$1 serve_pid print_pid t0 t1 range got sel t

	port=$(free_port)
	url=http://127.0.0.1:$port/metrics
	"$PERFX" stat -a -v --cgroup-mode "$mode" -e "$EVENTS" \
		--for-each-cgroup "$pfx-[A-D]" --follow-cgroups --serve "127.0.0.1:$port" \
		> "$work/out" 2> "$work/err" &
	serve_pid=$!
	pids+=("$serve_pid")
	"$PERFX" stat -a -v -x, -o "$work/printed" --cgroup-mode per-cgroup -e "$EVENTS" \
		--for-each-cgroup "$pfx-[A-D]" --follow-cgroups 2> "$work/err.printed" &
	print_pid=$!
	pids+=("$print_pid")
	if ! wait_http "$url" "$serve_pid" || ! start_prometheus; then
		for t in "${TESTS[@]}"; do
			[[ $t = "$mode mode: "* ]] &&
				notok "$t (perfx --serve or Prometheus did not start)"
		done
		kill -KILL "${pids[@]}" 2> /dev/null
		wait 2> /dev/null
		pids=()
		return
	fi
	# a scrape of idle cgroups after the first, t0, and the workload
	sleep "$(scrapes 1.5)"
	t0=$(date +%s.%N)
	sleep 0.5
	workload
	# two scrapes of the idle cgroups after it
	sleep "$(scrapes 2.5)"
	kill -INT "$print_pid"
	wait "$print_pid"
	t1=$(date +%s.%N)
	# range queries are made at t1, their range reaching back past t0's
	# sample: the checks take seconds, which "now" would slide past
	range=$(awk -v a="$t0" -v b="$t1" -v i="$PROM_INTERVAL" 'BEGIN { printf "%ds", b - a + 2 * i }')
	echo "# $mode mode: t0 $t0, now $t1, range $range"
	sel="job=\"perfx\""

	what="$mode mode: every scrape succeeded"
	got=$(query "min_over_time(up{$sel}[$range])" "$t1") &&
		[ "$got" = 1 ] &&
		got=$(query "count_over_time(up{$sel}[$range])" "$t1") &&
		awk -v n="$got" -v a="$t0" -v b="$t1" -v i="$PROM_INTERVAL" \
			'BEGIN { exit !(n >= (b - a) / (2 * i)) }' &&
		[ "$(query "min_over_time(scrape_samples_scraped{$sel}[$range])" "$t1")" = 24 ] &&
		[ "$(query "max_over_time(scrape_samples_scraped{$sel}[$range])" "$t1")" = 32 ] &&
		curl -s "$prom/api/v1/targets" | "$PY" -c '
import json, sys
t = json.load(sys.stdin)["data"]["activeTargets"]
assert len(t) == 1 and t[0]["health"] == "up" and t[0]["lastError"] == "", t'
	verdict

	what="$mode mode: Prometheus's last values are perfx's"
	last_values_match
	verdict

	what="$mode mode: the growth Prometheus saw is what perfx stat printed"
	growth_matches_printed "$t0" &&
		within "$(printed task-clock A)" 3e9 0.5 0 &&
		[ "$(printed context-switches B)" -gt 100 ] &&
		within "$(printed task-clock C)" 0 0 0
	verdict

	what="$mode mode: increase() over the run"
	increase_extrapolates "$t0" "$t1" "$range"
	verdict

	# C never ran: its ratio is 0, perf's <not counted>
	what="$mode mode: scaling ratio 1, 0 for the idle cgroup"
	[ "$(query "min(container_perf_events_scaling_ratio{id=~\"/$pfx-[AB]\"})")" = 1 ] &&
		[ "$(query "max(container_perf_events_scaling_ratio{id=\"/$pfx-C\"})")" = 0 ]
	verdict

	what="$mode mode: a cgroup made and removed mid-run"
	removed_cgroup_arrived "$t1" "$range"
	verdict

	kill -INT "$serve_pid" "$prom_pid" 2> /dev/null
	wait "$serve_pid" "$prom_pid" 2> /dev/null
	pids=()

	what="$mode mode: no sanitizer report"
	sanitizer_clean "$work/err" "$work/err.printed"
	verdict
}

for mode in $PROM_MODES; do
	mode_skip "$mode" || run_mode "$mode"
done
