#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record-load.sh - perfx record on a busy host: with 3,000 still threads
# (tests/synth-population, 300 processes of 10), a disk that fills while
# they are synthesized keeps the file, cut after its last whole record
# (it used to be removed), and 1 and 4 synthesis threads write the same
# records of the population, compared once every task has settled.
# env: PERFX, SYNTH_POPULATION (its binary); RECORD_LOAD_PROCS (300).
# Prints TAP lines.
set -uo pipefail

PERFX=${PERFX:?} SYNTH_POPULATION=${SYNTH_POPULATION:?}
procs=${RECORD_LOAD_PROCS:-300}
. "$(dirname "$0")/tap.sh"
tap_init record-load
work=$(mktemp -d)
popid=
cleanup()
{
	[ -z "${small_mounted:-}" ] || umount "$work/small"
	[ -z "$popid" ] || { kill "$popid" 2> /dev/null; wait "$popid" 2> /dev/null; }
	rm -rf "$work"
}
trap cleanup EXIT
tap_diag() { sed 's/^/#   /' "$work/err" | head -12; }
check() { if "$@"; then ok "$what"; else notok "$what"; fi; }
export ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$work/san" UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$work/san"
perf_clean()
{
	"$@" > "$work/out" 2> "$work/err" &&
		! grep -qiE 'warning|error|unexpected|incompatible|failed' "$work/err"
}

if ! "$PERFX" record -q -a -e cpu-clock -o "$work/probe.data" -- true 2> "$work/err"; then
	skip "record under load" "perfx record -a does not work here: $(head -1 "$work/err")"
	exit 0
fi
"$SYNTH_POPULATION" "$procs" 10 4 "$work/ready" 2> "$work/err" &
popid=$!
for i in $(seq 600); do
	[ -e "$work/ready" ] || ! kill -0 $popid 2> /dev/null && break
	sleep 0.1
done
if [ ! -e "$work/ready" ]; then
	skip "record under load" "the population did not start: $(head -1 "$work/err")"
	exit 0
fi
nr_threads=$(ls -d /proc/[0-9]*/task/* 2> /dev/null | wc -l)

# a full disk during synthesis: 256 KiB left, less than the population's
# records alone
mkdir "$work/small"
mount -t tmpfs -o size=2m perfx-record-load "$work/small" 2> /dev/null && small_mounted=1
if [ -n "${small_mounted:-}" ] && head -c $((1792 * 1024)) /dev/zero > "$work/small/filler"; then
	"$PERFX" record -a -e cpu-clock -o "$work/small/f.data" -- sleep 5 > /dev/null 2> "$work/err"
	rc=$?
	what="$nr_threads threads, a disk full while synthesizing: exit 255 naming ENOSPC and what the file keeps"
	[ $rc -eq 255 ] && grep -q 'ENOSPC' "$work/err" &&
		grep -q 'it holds the [0-9]* bytes of records' "$work/err" && [ -s "$work/small/f.data" ]
	verdict
	what="$nr_threads threads, a disk full while synthesizing: perf script reads the records kept, no warning"
	perf_clean perf script --show-task-events --show-mmap-events -i "$work/small/f.data" &&
		[ "$(grep -c PERF_RECORD_COMM "$work/out")" -gt 100 ]
	verdict
else
	skip "a disk full while synthesizing" "cannot mount a small tmpfs here"
	skip "a disk full while synthesizing: perf reads the file" "cannot mount a small tmpfs here"
fi

# the population's records are the same for 1 and 4 synthesis threads
pids=$(paste -sd'|' "$work/ready")
synth_of() { perf script -i "$1" --show-task-events --show-mmap-events 2> /dev/null |
	     grep -E "[ :]($pids)/" | grep ' 0.000000: ' | sort; }
for t in 1 4; do
	"$PERFX" record -q -a -e cpu-clock --num-thread-synthesize $t -o "$work/n$t.data" -- true \
		2> "$work/err"
	synth_of "$work/n$t.data" > "$work/n$t.txt"
done
what="$nr_threads threads: --num-thread-synthesize 1 and 4 write the same records of the population's $procs processes"
[ "$(grep -c ' PERF_RECORD_COMM' "$work/n1.txt")" -ge $((procs * 10)) ] &&
	diff "$work/n1.txt" "$work/n4.txt" > "$work/err"
verdict

what="no sanitizer report in any of it"
check [ -z "$(cat "$work"/san.* 2> /dev/null)" ]
