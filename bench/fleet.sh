#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fleet.sh - perfx stat --serve --follow-cgroups as a container host runs
# it, in each cgroup mode:
#
#   bench/fleet.sh [-k 1000] [-c 100] [-i 5] [-d 600] [-m "shared bpf per-cgroup"] [-o FILE]
#
# K cgroups (fleet/cN under the cgroup2 mount) counted for the 8 software
# events of cgroup-scale.sh; C of them removed and C made per minute, the
# oldest first, spread evenly over the minute by bench/fleet-churn.py (one
# process: no fork a step; "churn late" is the latest a step ran behind
# its time); a scrape of /metrics every
# I seconds for D seconds, its latency measured by curl; four sleepers
# waking every 10 ms in the newest cgroups, moved along as cgroups go.
# Per mode: perfx's fds, RSS (VmRSS) and CPU time (its /proc stat) at
# each scrape; the table has the scrape latency's p50 and p99, the fds
# and RSS after the first minute, half-way and at the end (no growth
# between the last two: the heap has met the churn's whole cycle of
# names by then, and the same cgroups' worth are alive), their maxima,
# perfx's CPU use, the cgroups made and
# removed, and the samples of the last scrape.  per-cgroup mode is what
# cAdvisor does (one event per CPU, event and cgroup); a mode the kernel
# cannot run is n/a with the reason.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
PERFX=${PERFX:-$TOP/tools/perfx/perfx}
EVENTS=cpu-clock,task-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults,cgroup-switches
K=1000
CHURN=100
INTERVAL=5
DURATION=600
MODES="shared bpf per-cgroup"
OUT=
while getopts "k:c:i:d:m:o:h" o; do
	case $o in
	k) K=$OPTARG ;;
	c) CHURN=$OPTARG ;;
	i) INTERVAL=$OPTARG ;;
	d) DURATION=$OPTARG ;;
	m) MODES=$OPTARG ;;
	o) OUT=$OPTARG ;;
	*) sed -n '3,19p' "$0"; exit 0 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "fleet: run as root" >&2; exit 1; }
# four sleepers live in the newest cgroups: one more is removed a step
[ "$K" -ge 5 ] && [ "$CHURN" -ge 1 ] && [ "$INTERVAL" -ge 1 ] && [ "$DURATION" -ge 1 ] ||
	{ echo "fleet: -k takes 5 or more, -c, -i and -d 1 or more" >&2; exit 2; }
mnt=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
[ -n "$mnt" ] || { echo "fleet: no cgroup2 mount" >&2; exit 1; }
for c in pids memory cpu; do
	grep -qw "$c" "$mnt/cgroup.controllers" 2>/dev/null &&
		echo "+$c" > "$mnt/cgroup.subtree_control" 2>/dev/null && break
done
work=$(mktemp -d)
base=fleet
perfx_pid=
sleepers=()
# cgroup numbers alive: first..next-1
first=0
next=0

cleanup()
{
	local d

	[ -z "$perfx_pid" ] || kill -KILL "$perfx_pid" 2>/dev/null
	[ ${#sleepers[@]} -eq 0 ] || kill -KILL "${sleepers[@]}" 2>/dev/null
	wait 2>/dev/null
	for d in "$mnt/$base"/c*; do
		[ -d "$d" ] && rmdir "$d" 2>/dev/null
	done
	rmdir "$mnt/$base" 2>/dev/null
	rm -rf "$work"
}
trap cleanup EXIT
ulimit -n 1048576 2>/dev/null || ulimit -n "$(ulimit -Hn)"

# cg N - cgroup number N's path: six digits, as fleet-churn.py names them,
# so that the names, and what perfx serves, do not grow with the churn
cg() { printf '%s/%s/c%06d' "$mnt" "$base" "$1"; }

# the sleepers: into the newest cgroups, so that the removals never find one
place_sleepers()
{
	local i

	for i in "${!sleepers[@]}"; do
		echo "${sleepers[$i]}" > "$(cg $((next - 1 - i)))/cgroup.procs"
	done
}

# the mode's cgroups go before the next mode's, the sleepers out first
drop_cgroups()
{
	local i

	for i in "${sleepers[@]}"; do
		echo "$i" > "$mnt/$base/cgroup.procs"
	done
	while [ $first -lt $next ]; do
		rmdir "$(cg $first)" 2>/dev/null
		first=$((first + 1))
	done
}

# stat_of PID - "fds rss_kB cpu_ticks" of PID now
stat_of()
{
	local fds rss cpu

	fds=$(ls "/proc/$1/fd" 2>/dev/null | wc -l)
	rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	cpu=$(awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat" 2>/dev/null)
	echo "$fds ${rss:-0} ${cpu:-0}"
}

# pct FILE P - the P-th percentile of FILE's numbers
pct()
{
	sort -g "$1" | awk -v p="$2" '{ v[NR] = $1 } END {
		i = int(NR * p / 100 + 0.999); if (i < 1) i = 1; printf "%.1f", v[i] * 1000 }'
}

run_mode()
{
	local mode=$1 port url t0 now next_scrape samples lat churn_pid late st
	local hz cpu0 made0 removed0 s1 shalf send

	hz=$(getconf CLK_TCK)
	first=$next
	for ((i = 0; i < K; i++)); do
		mkdir "$(cg $next)"
		next=$((next + 1))
	done
	place_sleepers
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	url=http://127.0.0.1:$port/metrics
	"$PERFX" stat -a -e "$EVENTS" --cgroup-mode "$mode" --for-each-cgroup "$base/.*" \
		--follow-cgroups --max-cgroups $((K + K / 10)) --serve "127.0.0.1:$port" \
		> /dev/null 2> "$work/err.$mode" &
	perfx_pid=$!
	for ((i = 0; i < 600; i++)); do
		curl -s -o /dev/null "$url" && break
		kill -0 "$perfx_pid" 2>/dev/null || break
		sleep 0.1
	done
	if ! kill -0 "$perfx_pid" 2>/dev/null; then
		echo "| $mode | n/a: $(head -1 "$work/err.$mode") |" >> "$work/table"
		perfx_pid=
		drop_cgroups
		return
	fi
	: > "$work/lat.$mode"
	: > "$work/stat.$mode"
	cpu0=$(stat_of "$perfx_pid" | awk '{ print $3 }')
	made0=$next
	removed0=$first
	# the churn in a process of its own: a slow scrape does not hold it up
	python3 "$TOP/bench/fleet-churn.py" "$mnt/$base" "$first" "$next" "$CHURN" "$DURATION" \
		"${sleepers[@]}" > "$work/churn.$mode" 2>&1 &
	churn_pid=$!
	# in microseconds, from bash's clock: no process per check
	t0=${EPOCHREALTIME/./}
	next_scrape=0
	while :; do
		now=$((${EPOCHREALTIME/./} - t0))
		[ $now -lt $((DURATION * 1000000)) ] || break
		# either one dead: the run says so, not a table of its remains
		kill -0 "$perfx_pid" 2>/dev/null && kill -0 "$churn_pid" 2>/dev/null || break
		if [ $now -ge $next_scrape ]; then
			lat=$(curl -s -o "$work/scrape" -w '%{time_total}' --max-time 60 "$url") ||
				lat=fail
			echo "$lat" >> "$work/lat.$mode"
			echo "$((now / 1000000)) $(stat_of "$perfx_pid")" >> "$work/stat.$mode"
			next_scrape=$((next_scrape + INTERVAL * 1000000))
		fi
		sleep 0.05
	done
	# perfx dead before the end: the churn stops too (and says where it was)
	kill -0 "$perfx_pid" 2>/dev/null || kill -TERM "$churn_pid" 2>/dev/null
	wait "$churn_pid"
	st=$?
	read -r first next late < "$work/churn.$mode"
	if [ $st != 0 ] || [ -z "$late" ]; then
		echo "fleet: $mode: the churn failed: $(tail -1 "$work/churn.$mode")" >&2
		exit 1
	fi
	now=$(stat_of "$perfx_pid")
	samples=$(grep -c '^container_perf_events_total' "$work/scrape")
	if ! kill -INT "$perfx_pid" 2>/dev/null; then
		echo "| $mode | perfx died: $(grep -v ' appeared\| is gone' "$work/err.$mode" | tail -2 | tr '\n' ' ') |" >> "$work/table"
		wait "$perfx_pid"
		perfx_pid=
		drop_cgroups
		return
	fi
	wait "$perfx_pid"
	perfx_pid=
	# after the first minute, half-way, at the end, the maxima
	s1=$(awk '$1 >= 60 { print $2, $3; exit }' "$work/stat.$mode")
	shalf=$(awk -v h=$((DURATION / 2)) '$1 >= h { print $2, $3; exit }' "$work/stat.$mode")
	send=$(tail -1 "$work/stat.$mode" | awk '{ print $2, $3 }')
	grep -v fail "$work/lat.$mode" > "$work/lat.ok"
	awk -v mode="$mode" -v p50="$(pct "$work/lat.ok" 50)" -v p99="$(pct "$work/lat.ok" 99)" \
		-v fails="$(grep -c fail "$work/lat.$mode")" -v n="$(wc -l < "$work/lat.$mode")" \
		-v s1="$s1" -v shalf="$shalf" -v send="$send" -v cpu0="$cpu0" -v cpu1="$(echo "$now" | awk '{ print $3 }')" \
		-v hz="$hz" -v d="$DURATION" -v made=$((next - made0)) -v removed=$((first - removed0)) \
		-v samples="$samples" -v late="$late" -v maxfd="$(awk 'm < $2 { m = $2 } END { print m }' "$work/stat.$mode")" \
		-v maxrss="$(awk 'm < $3 { m = $3 } END { print m }' "$work/stat.$mode")" '
		BEGIN {
			split(s1, a, " "); split(shalf, h, " "); split(send, b, " ")
			printf "| %s | %s | %s | %d/%d | %s, %s, %s (max %s) | %s, %s, %s (max %s) | %.2f%% | %d/%d | %d | %d |\n",
				mode, p50, p99, n - fails, n, a[1], h[1], b[1], maxfd, a[2], h[2], b[2], maxrss,
				100 * (cpu1 - cpu0) / hz / d, made, removed, late, samples
		}' >> "$work/table"
	drop_cgroups
}

mkdir -p "$mnt/$base"
# bash's read times out on a fifo nobody writes: no fork per wakeup
mkfifo "$work/fifo"
for ((i = 0; i < 4; i++)); do
	bash -c "exec 3<> $work/fifo; while :; do read -t 0.01 -u 3; done" &
	sleepers+=($!)
done
: > "$work/table"
for mode in $MODES; do
	run_mode "$mode"
done
{
	echo "# fleet: $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs, 8 events x $K cgroups, $CHURN made and $CHURN removed a minute, a scrape every $INTERVAL s for $DURATION s, $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "Command: bench/fleet.sh -k $K -c $CHURN -i $INTERVAL -d $DURATION -m \"$MODES\""
	echo
	echo "| mode | scrape p50, ms | p99, ms | scrapes ok | fds at 1 min, D/2, end | RSS kB at 1 min, D/2, end | perfx CPU | cgroups made/removed | churn late, ms | samples |"
	echo "|---|---|---|---|---|---|---|---|---|---|"
	cat "$work/table"
} | if [ -n "$OUT" ]; then tee "$OUT"; else cat; fi
