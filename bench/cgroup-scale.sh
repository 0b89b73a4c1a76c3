#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cgroup-scale.sh - fds and setup time of counting 8 events for K cgroups
# on every CPU (boot the guest with many vCPUs: scripts/vm -s 32 ...):
#
#   bench/cgroup-scale.sh [-k 200] [-o FILE]
#
# Prints, for perf stat --for-each-cgroup (the machine's perf), perf stat
# --bpf-counters --for-each-cgroup ($PERF_BPF: build/perf/perf from `make
# perf` if built, else the machine's perf) and perfx's per-cgroup, BPF and
# shared modes: the counting fds, perfx's setup time (open + attach), one
# read of all counts, and the wall time of `stat ... -- sleep 1`; a mode
# the kernel or that perf cannot run is n/a with the reason.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
PERFX=${PERFX:-$TOP/tools/perfx/perfx}
PERF_BPF=${PERF_BPF:-$TOP/build/perf/perf}
[ -x "$PERF_BPF" ] || PERF_BPF=perf
EVENTS=cpu-clock,task-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults,cgroup-switches
NEV=8
K=200
OUT=
while getopts "k:o:h" o; do
	case $o in
	k) K=$OPTARG ;;
	o) OUT=$OPTARG ;;
	*) sed -n '3,13p' "$0"; exit 0 ;;
	esac
done
[ "$(id -u)" = 0 ] || { echo "cgroup-scale: run as root" >&2; exit 1; }
mnt=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
for c in pids memory cpu; do
	grep -qw "$c" "$mnt/cgroup.controllers" 2>/dev/null &&
		echo "+$c" > "$mnt/cgroup.subtree_control" 2>/dev/null && break
done
ncpus=$(getconf _NPROCESSORS_ONLN)
work=$(mktemp -d)
base=perfx-scale
trap 'rm -rf "$work"; for i in $(seq 0 $((K - 1))); do rmdir "$mnt/$base/c$i" 2>/dev/null; done; rmdir "$mnt/$base" 2>/dev/null; true' EXIT
mkdir -p "$mnt/$base"
t0=$(date +%s.%N)
list=
for i in $(seq 0 $((K - 1))); do
	mkdir -p "$mnt/$base/c$i"
	list=${list:+$list,}$base/c$i
done
t1=$(date +%s.%N)
ulimit -n 1048576 2>/dev/null || ulimit -n "$(ulimit -Hn)"	# K x CPUs x 8 fds

# wall CMD... - print CMD's wall time, s; CMD's exit status, its stderr in $work/err
wall() { local s e rc=0; s=$(date +%s.%N); "$@" > /dev/null 2> "$work/err" || rc=$?
	 e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f", e - s }'; return $rc; }

{
	echo "# fds and setup: $(uname -r), $ncpus CPUs, $NEV events x $K cgroups, $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "creating $K cgroups: $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
	echo "perf: $(perf version 2>&1); perf-bpf: $PERF_BPF, $("$PERF_BPF" version 2>&1)"
	echo "Command: bench/cgroup-scale.sh -k $K"
	echo
	echo "| mode | counting fds | setup ms | one read ms (syscalls) | wall s of stat -- sleep 1 |"
	echo "|---|---|---|---|---|"
	w=$(wall perf stat -a -x, -e "$EVENTS" --for-each-cgroup "$list" -- sleep 1)
	echo "| perf | $((ncpus * NEV * K)) | - | - | $w |"
	if w=$(wall "$PERF_BPF" stat -a -x, -e "$EVENTS" --bpf-counters \
		--for-each-cgroup "$list" -- sleep 1); then
		echo "| perf-bpf | $((ncpus * NEV)) | - | - | $w |"
	else
		echo "| perf-bpf | n/a: $(grep -v '^$' "$work/err" | head -1) | | | |"
	fi
	for mode in per-cgroup bpf shared; do
		w=$(wall "$PERFX" stat -v -a -x, -e "$EVENTS" --cgroup-mode "$mode" \
			--for-each-cgroup "$list" -- sleep 1) || true
		if grep -q -e ENOTTY -e "cgroup-mode=bpf" "$work/err"; then
			echo "| $mode | n/a: $(grep -m1 -e ENOTTY -e "cgroup-mode=bpf" "$work/err") | | | |"
			continue
		fi
		sed -nE "s/.*mode, ([0-9]+) counting fds, setup ([0-9.]+) ms, one read of all counts ([0-9.]+) ms \(([0-9]+) syscalls\).*/| $mode | \1 | \2 | \3 (\4) | $w |/p" \
			"$work/err"
	done
} | tee "$work/table"
[ -n "$OUT" ] && cp "$work/table" "$OUT"
exit 0
