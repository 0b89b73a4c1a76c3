#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record.sh - perfx record against the machine's perf: the attrs perf
# gives the same command lines; perf report, script, evlist and
# buildid-list read perfx's files and pipes without a warning; the sample
# count perfx prints is perf's; a test program's hot function tops the
# report, with its callers under -g; tracepoint fields print; signals
# finish the file; a killed or disk-full recording is never silently
# wrong, with --aio too; bad values are refused (--affinity, --aio and
# --mmap-flush included, which perf 6.1 takes silently).  env: PERFX; RECORD_QUICK=1 (the guest,
# under TCG) compares fewer command lines' attrs and a shorter hot loop.
# Prints TAP lines.
set -uo pipefail

PERFX=${PERFX:?}
. "$(dirname "$0")/tap.sh"
tap_init record
work=$(mktemp -d)
cleanup()
{
	[ -z "${small_mounted:-}" ] || umount "$work/small"
	[ -z "${sleepers:-}" ] || kill $sleepers 2> /dev/null
	rm -rf "$work"
}
trap cleanup EXIT
tap_diag() { sed 's/^/#   /' "$work/err" | head -12; }
# every sanitizer report of every run, whatever its stderr went to
export ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$work/san" UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$work/san"
check() { if "$@"; then ok "$what"; else notok "$what"; fi; }

if ! command -v perf > /dev/null ||
   ! perf record -q -e cpu-clock -o "$work/probe.data" -- true > /dev/null 2> "$work/err"; then
	skip "interop with perf" "perf record -e cpu-clock does not work here"
	exit 0
fi

# a program whose time goes to hot_loop(), called from main()
cat > "$work/hot.c" <<'EOF'
volatile unsigned long sink;

__attribute__((noinline)) void hot_loop(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i * i;
}

int main(void)
{
	hot_loop(HOT_N);
	return 0;
}
EOF
attr_lines=("" "-e cpu-clock" "-e cpu-clock,task-clock" "-a -e cpu-clock" "-C 0 -e cpu-clock"
	    "-g -e cpu-clock -c 10000" "-F 99 -e cpu-clock" "-a -F 99" "-e sched:sched_switch -a"
	    "-e sched:sched_switch" "-e cpu-clock:u" "-e {cpu-clock,task-clock}" "-i -e cpu-clock"
	    "-k mono -e cpu-clock" "--call-graph dwarf,100 -e cpu-clock" "-g --call-graph fp,100"
	    "--call-graph dwarf -g -a -e cpu-clock" "-a -g" "-a -P -e cpu-clock"
	    "-a -s -d -R -W --phys-data -e cpu-clock" "-T -s -e {cpu-clock,task-clock}"
	    "--switch-events --namespaces --sample-cpu -e cpu-clock" "-d -e sched:sched_switch"
	    "-e cycles" "-e cycles:u,cpu-clock" "-e cpu-clock:k" "-e cpu-clock:G,task-clock:uH"
	    "-e {cpu-clock:k,task-clock}:u" "-e cpu-clock:ppI")
hot_n=300000000
if [ -n "${RECORD_QUICK:-}" ]; then
	attr_lines=("" "-a -e cpu-clock" "-e {cpu-clock,task-clock}" "-e sched:sched_switch -a")
	hot_n=20000000
fi
gcc -O1 -g -fno-omit-frame-pointer -fno-inline -DHOT_N=${hot_n}UL -o "$work/hot" "$work/hot.c"
hot_bid=$(readelf -n "$work/hot" | sed -n 's/.*Build ID: *//p')

# the perf command "$@" exits 0 with no warning on stderr, where perf
# says what is wrong with its input
perf_clean()
{
	"$@" > "$work/out" 2> "$work/err" &&
		! grep -qiE 'warning|error|unexpected|incompatible|failed' "$work/err"
}
# what perfx said it wrote: the N of "(N samples)"
said_samples() { sed -n 's/.*(\([0-9]*\) samples).*/\1/p' "$work/rec.err"; }
# hot_loop's first samples in FILE have main() among their callers
called_from_main()
{
	perf script -i "$1" > "$work/script" 2> /dev/null
	grep -A3 -m 5 'hot_loop' "$work/script" > "$work/hot-callers" && grep -q 'main' "$work/hot-callers"
}
top_symbol() { perf report -i "$1" --stdio --sort sym 2> /dev/null | grep -v '^#' | grep -v '^$' | head -1; }

# 1: the attrs of perf record, for a set of command lines
for args in "${attr_lines[@]}"; do
	what="perf's attrs for: record $args -- true"
	# shellcheck disable=SC2086
	perf record -q -o "$work/a.data" $args -- true > /dev/null 2>&1
	# shellcheck disable=SC2086
	"$PERFX" record -q -o "$work/b.data" $args -- true > /dev/null 2> "$work/err"
	check diff <(perf evlist -v -i "$work/a.data" 2>&1) <(perf evlist -v -i "$work/b.data" 2>&1)
done

# 1b: what perf's sampling options record, read back by perf
# 8 KiB of stack a sample: rings of 8 MiB at 1 kHz, so that a slow reader
# (ASan under TCG, a loaded host) loses no chunk, which perf would report
"$PERFX" record -q --call-graph dwarf -s --switch-events -e cpu-clock -F 1000 -m 2048 \
	-o "$work/dw.data" -- "$work/hot" > /dev/null 2> "$work/err"
what="--call-graph dwarf -s --switch-events: perf report -T reads it without a warning"
check perf_clean perf report -T --stdio -i "$work/dw.data"
what="--call-graph dwarf: hot_loop's samples carry the user stack perf unwinds to main"
check called_from_main "$work/dw.data"
if perf record -q -e cpu-clock --call-graph lbr -o "$work/lbr.data" -- true > /dev/null 2>&1; then
	skip "--call-graph lbr without branch stacks: perf's error" "this machine has LBR"
else
	"$PERFX" record -e cpu-clock --call-graph lbr -o "$work/lbr.data" -- true > /dev/null 2> "$work/err"
	rc=$?
	what="--call-graph lbr without branch stacks: perf's error, exit 255"
	[ $rc -eq 255 ] && grep -qx "cpu-clock: PMU Hardware or event type doesn't support branch stack sampling." "$work/err"
	verdict
fi

# 1c: without a hardware PMU, cycles is cpu-clock with perf's warning
# (-v); another hardware event is perf's error
perf record -q -e cycles -o "$work/cyc.data" -- true > /dev/null 2>&1
if ! perf evlist -i "$work/cyc.data" 2> /dev/null | grep -qx 'cpu-clock'; then
	skip "cycles without a PMU: perf's fallback" "this machine has a PMU"
else
	"$PERFX" record -v -e cycles -o "$work/cyc.data" -- true > /dev/null 2> "$work/err"
	rc=$?
	what="cycles without a PMU: cpu-clock, perf's warning with -v, exit 0"
	[ $rc -eq 0 ] && grep -qx 'perfx: Warning:' "$work/err" &&
		grep -qx 'The cycles event is not supported, trying to fall back to cpu-clock-ticks' "$work/err"
	verdict
fi
if perf record -q -e instructions -o "$work/ins-perf.data" -- true > /dev/null 2>&1; then
	skip "instructions without a PMU: perf's error" "this machine has a PMU"
else
	"$PERFX" record -e instructions -o "$work/ins.data" -- true > /dev/null 2> "$work/err"
	rc=$?
	what="instructions without a PMU: perf's error, exit 255, no file"
	[ $rc -eq 255 ] && grep -qx 'The instructions event is not supported.' "$work/err" &&
		[ ! -e "$work/ins.data" ]
	verdict
fi

# 1d: targets as perf's: -p wins over -a and -C with perf's warning; no
# command and no target records every CPU until SIGINT
# task_for FILE: starts a task for -p (its pid in $task) that lives until
# FILE has a header, i.e. until perfx has attached to it, however slow
# perfx is to start
task_for()
{
	rm -f "$1"
	sleep 60 &
	task=$!
	(while [ ! -s "$1" ]; do sleep 0.1; done; sleep 0.3; kill $task) 2> /dev/null &
}
for t in "-a SYSTEM" "-C0 CPU"; do
	task_for "$work/ap.data"
	"$PERFX" record ${t% *} -p $task -e cpu-clock -o "$work/ap.data" > /dev/null 2> "$work/err"
	rc=$?
	what="record ${t% *} -p: perf's 'PID/TID switch overriding ${t#* }', the task recorded"
	[ $rc -eq 0 ] && [ "$(head -2 "$work/err")" = "Warning:
PID/TID switch overriding ${t#* }" ] && perf evlist -i "$work/ap.data" > "$work/out" 2> /dev/null &&
		[ "$(cat "$work/out")" = cpu-clock ]
	verdict
done
task_for "$work/ap.data"
"$PERFX" record -q -a -p $task -e cpu-clock -o "$work/ap.data" > /dev/null 2> "$work/err"
what="record -q -a -p: no warning"
check [ ! -s "$work/err" ]
"$PERFX" record -e cpu-clock -o "$work/sw.data" > /dev/null 2> "$work/err" &
pid=$!
sleep 1
kill -INT $pid
wait $pid
rc=$?
what="record with no command: every CPU (perf's dummy:HG) until SIGINT, exit 130 as perf"
[ $rc -eq 130 ] && perf evlist -i "$work/sw.data" 2> /dev/null | grep -qx 'dummy:HG' &&
	grep -q 'Captured and wrote' "$work/err"
verdict

# 1e: tracepoints: tracefs mounted where it is not yet (in a mount
# namespace of the test's own), and a user who may not read it told so
if ! unshare -m true 2> /dev/null; then
	skip "tracefs not mounted: perfx mounts it" "no mount namespace here"
else
	unshare -m sh -c 'umount /sys/kernel/tracing 2> /dev/null
		! mountpoint -q /sys/kernel/tracing &&
		"$1" record -q -e sched:sched_switch -a -o "$2" -- sleep 0.1' sh "$PERFX" \
		"$work/tf.data" > /dev/null 2> "$work/err"
	rc=$?
	what="tracefs not mounted: perfx mounts it at /sys/kernel/tracing and records the tracepoint"
	[ $rc -eq 0 ] && grep -q 'prev_comm=.*next_pid=' <(perf script -i "$work/tf.data" 2> /dev/null)
	verdict
fi
if ! setpriv --reuid=nobody --regid=nogroup --clear-groups true 2> /dev/null ||
   setpriv --reuid=nobody --regid=nogroup --clear-groups test -r /sys/kernel/tracing/events/sched/sched_switch/id; then
	skip "tracefs unreadable: permission denied" "cannot become nobody, or nobody may read tracefs"
else
	(cd "$work" && setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PERFX" record -e sched:sched_switch -o /dev/null -- true) > /dev/null 2> "$work/err"
	rc=$?
	what="tracefs unreadable: 'permission denied' naming the file, EACCES, exit 129"
	[ $rc -eq 129 ] && grep -q "permission denied reading /sys/kernel/tracing/events/sched/sched_switch/id .*(EACCES)" "$work/err"
	verdict
fi

# 2: a file, read by every perf tool
"$PERFX" record -e cpu-clock -F 2000 -o "$work/f.data" -- "$work/hot" > /dev/null 2> "$work/rec.err"
cp "$work/rec.err" "$work/err"
what="a workload's file: perf's closing lines, exit 0, nothing lost"
grep -q '^\[ perf record: Captured and wrote .* MB .*/f.data ([0-9]* samples) \]$' "$work/rec.err" &&
	! grep -q 'Warning' "$work/rec.err"
verdict
for tool in "report --stdio" "report --header-only" "script" "evlist -v" "buildid-list"; do
	what="perf $tool reads it without a warning"
	# shellcheck disable=SC2086
	check perf_clean perf $tool -i "$work/f.data"
done
what="perf counts the samples perfx said it wrote"
check [ "$(perf script -i "$work/f.data" 2> /dev/null | wc -l)" = "$(said_samples)" ]
what="the hot function is the top symbol"
check grep -q 'hot_loop' <<< "$(top_symbol "$work/f.data")"
what="BUILD_ID holds the program's build-id"
check grep -q "^$hot_bid .*/hot$" <(perf buildid-list -i "$work/f.data" 2> /dev/null)
what="the header has perf's machine features"
perf report --header-only -i "$work/f.data" > "$work/out" 2>&1
check grep -q -e '^# hostname : ' -e '^# nrcpus online : ' "$work/out"
what="the header's cmdline is perfx's"
check grep -q "^# cmdline : .*perfx record -e cpu-clock -F 2000 -o $work/f.data -- $work/hot" "$work/out"

# 3: -g: hot_loop's samples have main() as caller
"$PERFX" record -q -g -e cpu-clock -o "$work/g.data" -- "$work/hot" > /dev/null 2> "$work/err"
what="-g: hot_loop is called from main in perf script"
check called_from_main "$work/g.data"

# 4: tracepoints, file and pipe: their fields print
"$PERFX" record -q -e sched:sched_switch -a -o "$work/t.data" -- sleep 0.2 2> "$work/err"
what="a tracepoint's fields print in perf script (file)"
check grep -q 'prev_comm=.*next_pid=' <(perf script -i "$work/t.data" 2> "$work/err")
"$PERFX" record -q -e sched:sched_switch -a -o - -- sleep 0.2 2> "$work/err" > "$work/t.pipe"
what="a tracepoint's fields print in perf script (pipe)"
check grep -q 'prev_comm=.*next_pid=' <(perf script -i - < "$work/t.pipe" 2> "$work/err")

# 5: pipes, into perf and through perfx inject
"$PERFX" record -e cpu-clock -o - -- "$work/hot" > "$work/p.pipe" 2> "$work/rec.err"
cp "$work/rec.err" "$work/err"
what="a pipe: perf's closing lines name '-'"
check grep -q '^\[ perf record: Captured and wrote .* MB - \]$' "$work/rec.err"
what="a pipe: perf report reads it without a warning"
check perf_clean perf report --stdio -i "$work/p.pipe"
what="a pipe: the hot function is the top symbol"
check grep -q 'hot_loop' <<< "$(top_symbol - < "$work/p.pipe")"
what="a pipe through perfx inject -b: the program's build-id"
"$PERFX" inject -b -i "$work/p.pipe" -o "$work/pb.data" 2> "$work/err"
check grep -q "^$hot_bid .*/hot$" <(perf buildid-list -i "$work/pb.data" 2> /dev/null)

# 6: signals end a recording with a finished file, then perfx dies of
# the signal as perf does
# signaled TOOL SIG OUT: TOOL record -a into OUT ended by SIG; its status
signaled()
{
	"$1" record -a -e cpu-clock -F 1000 -o "$3" > /dev/null 2> "$work/err" &
	local pid=$!

	sleep 1
	kill -"$2" "$pid"
	wait "$pid"
}
for sig in INT TERM; do
	signaled perf $sig "$work/ps.data"
	prc=$?
	signaled "$PERFX" $sig "$work/s.data"
	rc=$?
	what="SIG$sig ends -a with perf's closing lines and exit $((128 + $(kill -l $sig))), as perf"
	[ $rc -eq $prc ] && [ $rc -eq $((128 + $(kill -l $sig))) ] && grep -q 'Captured and wrote' "$work/err"
	verdict
	what="SIG$sig: perf report reads the file without a warning"
	check perf_clean perf report --stdio -i "$work/s.data"
done

# 7: -p ends when the task does; the workload's exit status is perfx's
sleep 5 &
spid=$!
what="-p: the recording ends when the task exits"
check timeout 60 "$PERFX" record -q -e cpu-clock -p "$spid" -o "$work/pid.data" 2> "$work/err"
"$PERFX" record -q -e cpu-clock -o "$work/x.data" -- sh -c 'exit 3' 2> "$work/err"
rc=$?
what="a workload's exit status 3 is perfx's"
check [ $rc -eq 3 ]
"$PERFX" record -q -e cpu-clock -o "$work/x.data" -- sh -c 'kill -TERM $$' 2> "$work/err"
rc=$?
what="a workload killed by SIGTERM: perfx ends by it too (143)"
check [ $rc -eq 143 ]
echo old > "$work/w.data"
"$PERFX" record -q -o "$work/w.data" -- "$work/nonexistent" 2> "$work/err"
rc=$?
what="a workload that cannot run: perf's message, exit 255, the old file kept"
[ $rc -eq 255 ] && grep -q "Failed to collect .* for the '$work/nonexistent' workload: No such file" "$work/err" &&
	[ "$(cat "$work/w.data")" = old ] && [ ! -e "$work/w.data.old" ]
verdict

# 8: cut short: never silently wrong, serially or with --aio (whose
# writes may be done out of order)
mkdir "$work/small"
mount -t tmpfs -o size=2m perfx-record-test "$work/small" 2> /dev/null && small_mounted=1
# 256 KiB left: full within seconds even when a loaded machine loses
# most samples (34,340 of 240,000 once: the file never reached 2 MiB)
[ -z "${small_mounted:-}" ] ||
	head -c $((1792 * 1024)) /dev/zero > "$work/small/filler" || small_mounted=
for aio in "" --aio=2; do
	"$PERFX" record -a -e cpu-clock $aio -o "$work/k.data" > /dev/null 2>&1 &
	pid=$!
	sleep 1.5
	kill -KILL "$pid"
	wait "$pid" 2> /dev/null
	what="SIGKILL${aio:+ $aio}: perf reports the file as not properly terminated"
	perf report --stdio -i "$work/k.data" > /dev/null 2> "$work/err"
	check grep -q 'properly terminated' "$work/err"
	if [ -z "${small_mounted:-}" ]; then
		skip "a full disk${aio:+ $aio}" "cannot mount a small tmpfs here"
		skip "a full disk${aio:+ $aio}: perf reads the cut file" "cannot mount a small tmpfs here"
		continue
	fi
	rm -f "$work/small/f.data"
	"$PERFX" record -a -e cpu-clock -F 4000 $aio -o "$work/small/f.data" -- sleep 30 \
		> /dev/null 2> "$work/err"
	rc=$?
	what="a full disk${aio:+ $aio}: exit 255 naming ENOSPC and what the file keeps"
	[ $rc -eq 255 ] && grep -q 'ENOSPC' "$work/err" && grep -q 'it holds the [0-9]* bytes of records' "$work/err"
	verdict
	what="a full disk${aio:+ $aio}: perf reads the file up to its last whole record, no warning"
	check perf_clean perf report --stdio -i "$work/small/f.data"
done

# 8b: --buildid-all: the build-ids of every DSO mapped, as perf's.
# Then a write that fails in the features, after every record is
# written (RLIMIT_FSIZE cuts the file at a byte chosen from a full run's
# layout, which a 1 s period and a short workload keep the same but for
# the FINISHED_ROUNDs, 8 bytes each, of a drain that may take one round or
# two; so the cuts fall well inside the features): the file is cut after
# the records, all of them (as many as perf script shows of the full
# run), and its header says so
u64_at() { od -An -tu8 -j "$2" -N8 "$1" | tr -d ' '; }
record_all() { "$@" record -q --buildid-all -e cpu-clock -c 1000000000 -o "$out" -- true; }
out=$work/full.data record_all "$PERFX" 2> "$work/err"
out=$work/perf-all.data record_all perf 2> /dev/null
what="--buildid-all: the build-ids of perf record --buildid-all"
perf buildid-list -i "$work/full.data" 2> /dev/null | sort > "$work/bid-perfx"
perf buildid-list -i "$work/perf-all.data" 2> /dev/null | sort > "$work/bid-perf"
grep -q '/libc\.so' "$work/bid-perfx" && diff "$work/bid-perf" "$work/bid-perfx" > "$work/err"
verdict
data_size=$(u64_at "$work/full.data" 48)
data_end=$(( $(u64_at "$work/full.data" 40) + data_size ))
full_size=$(stat -c %s "$work/full.data")
script_lines() { perf script --show-task-events --show-mmap-events -i "$1" 2> /dev/null | wc -l; }
full_lines=$(script_lines "$work/full.data")
for cut in $((data_end + 64)) $((full_size - 64)); do
	rm -f "$work/cut.data"
	(trap '' XFSZ; out=$work/cut.data record_all prlimit --fsize="$cut" "$PERFX") 2> "$work/err"
	rc=$?
	cut_size=$(u64_at "$work/cut.data" 48)
	cut_lines=$(script_lines "$work/cut.data")
	what="a write failing at byte $cut of ~$full_size, in the features: exit 255 naming EFBIG, every record kept ($cut_lines of $full_lines lines, $cut_size bytes)"
	[ $rc -eq 255 ] && grep -q "not finished (EFBIG): it holds the $cut_size bytes" "$work/err" &&
		[ "$cut_lines" -eq "$full_lines" ] && [ "$full_lines" -gt 5 ] &&
		[ "$(stat -c %s "$work/cut.data")" -eq $(( $(u64_at "$work/cut.data" 40) + cut_size )) ]
	verdict
	what="a write failing at byte $cut, in the features: perf script reads the records, no warning"
	check perf_clean perf script --show-task-events --show-mmap-events -i "$work/cut.data"
done

# 9: synthesis: the same records for 1 and 4 threads
sleepers=
for i in 1 2 3 4 5 6; do sleep 60 & sleepers="$sleepers $!"; done
# still only once each has exec'd: a forked shell's COMM and maps change
for pid in $sleepers; do
	for i in $(seq 100); do
		[ "$(cat /proc/$pid/comm 2> /dev/null)" = sleep ] && break
		sleep 0.05
	done
done
synth_of() { perf script -i "$1" --show-task-events --show-mmap-events 2> /dev/null |
	     grep -E " ($(echo $sleepers | tr ' ' '|'))/" | grep ' 0.000000: ' | sort; }
"$PERFX" record -q -a -e cpu-clock --num-thread-synthesize 1 -o "$work/n1.data" -- true 2> "$work/err"
"$PERFX" record -q -a -e cpu-clock --num-thread-synthesize 4 -o "$work/n4.data" -- true 2> "$work/err"
what="--num-thread-synthesize 1 and 4: the same records of still tasks"
synth_of "$work/n1.data" > "$work/n1.txt"
synth_of "$work/n4.data" > "$work/n4.txt"
[ -s "$work/n1.txt" ] && diff "$work/n1.txt" "$work/n4.txt" > "$work/err"
verdict

# 9b: lost records.  A one-page ring sampled every 20 us of a busy task
# overflows while perfx is stopped: its warnings are the ones perf report
# gives for the file, with the same figures; -q prints none.
lost_run()
{
	"$PERFX" record "$@" -e cpu-clock -c 20000 -m 1 -o "$work/lost.data" -- \
		timeout 3 sh -c 'while :; do :; done' > /dev/null 2> "$work/lost.err" &
	local pid=$! i

	# once the workload runs (perfx starts slowly in a TCG guest)
	for i in $(seq 100); do
		pgrep -P $pid > /dev/null && break
		sleep 0.1
	done
	sleep 0.3
	kill -STOP $pid
	sleep 1
	kill -CONT $pid
	wait $pid
}
lost_run
what="lost records: perf's warnings, with the figures perf report gives for the file"
grep -E '^Processed [0-9]+ (events|samples) and lost ' "$work/lost.err" > "$work/lost.said"
grep -q 'lost [0-9]* chunks!$' "$work/lost.said" &&
	grep -qx 'Check IO/CPU overload!' "$work/lost.err" &&
	diff "$work/lost.said" <(perf report --stdio -i "$work/lost.data" 2>&1 |
				 grep -E '^Processed [0-9]+ (events|samples) and lost ')
verdict
lost_run -q
what="lost records, -q: no warning"
[ ! -s "$work/lost.err" ] && [ -s "$work/lost.data" ]
verdict

# 10: bad values: a message, exit 129
for bad in "-F 0" "-F fast" "-c 0" "-m 0" "-m 3x" "-k bogus" "--num-thread-synthesize -1" \
	   "--proc-map-timeout -1" "--affinity=bogus" "--affinity=" "--aio=9" "--aio=0" "--aio=x" \
	   "--mmap-flush=abc" "--mmap-flush=-1" "--mmap-flush=1T" "-m 1,x" \
	   "-m 4294967296" "--call-graph foo" \
	   "--call-graph dwarf,0" "--call-graph dwarf,65529" "--call-graph fp,x" "--call-graph="; do
	# shellcheck disable=SC2086
	"$PERFX" record $bad -o "$work/bad.data" -- true > /dev/null 2> "$work/err"
	rc=$?
	what="record $bad: refused with exit 129 and the expectation"
	[ $rc -eq 129 ] && grep -q 'expected' "$work/err" && [ ! -e "$work/bad.data" ]
	verdict
done

# a value with a space after its number (strtoul()'s end was not checked)
for bad in "-m" "--mmap-flush"; do
	"$PERFX" record "$bad" "2 " -o "$work/bad.data" -- true > /dev/null 2> "$work/err"
	rc=$?
	what="record $bad '2 ': refused with exit 129 and the expectation"
	[ $rc -eq 129 ] && grep -q "^perfx record: $bad '2 ': expected" "$work/err" &&
		[ ! -e "$work/bad.data" ]
	verdict
done

# 11: -m as perf: rounded up to a power of two with perf's words, the
# second part for AUX; by default perf's size from perf_event_mlock_kb
ring_pages() { sed -n 's/^perfx: [0-9]* rings of \([0-9]*\) pages.*/\1/p' "$work/err"; }
"$PERFX" record -v -e cpu-clock -m 3,5 -o "$work/m.data" -- true > /dev/null 2> "$work/err"
what="-m 3,5: perf's two rounding lines, a ring of 4 data pages and its control page"
[ "$(grep '^rounding' "$work/err")" = "rounding mmap pages size to 16K (4 pages)
rounding mmap pages size to 32K (8 pages)" ] && [ "$(ring_pages)" = 5 ] ||
	[ "$(getconf PAGESIZE)" != 4096 ]
verdict
"$PERFX" record -q -v -e cpu-clock -m 3 -o "$work/m.data" -- true > /dev/null 2> "$work/err"
what="-q -m 3: no rounding line"
check [ "$(grep -c '^rounding' "$work/err")" = 0 ]
page_kb=$(( $(getconf PAGESIZE) / 1024 ))
want=$(( ($(cat /proc/sys/kernel/perf_event_mlock_kb) - page_kb) / page_kb ))
p=1
while [ $((p * 2)) -le "$want" ]; do p=$((p * 2)); done
"$PERFX" record -v -e cpu-clock -o "$work/m.data" -- true > /dev/null 2> "$work/err"
what="the default ring: perf's $p data pages from perf_event_mlock_kb, and the control page"
check [ "$(ring_pages)" = $((p + 1)) ]
"$PERFX" record -q -a -e cpu-clock --num-thread-synthesize=0 -o "$work/n0.data" -- true 2> "$work/err"
rc=$?
what="--num-thread-synthesize=0: one thread, as perf"
[ $rc -eq 0 ] && [ -s "$work/n0.data" ]
verdict

"$PERFX" record --aio -o - -- true > "$work/out" 2> "$work/err"
rc=$?
what="record --aio -o -: refused with exit 129, saying why, nothing written"
[ $rc -eq 129 ] && grep -q -- '--aio writes at offsets in a file, not into a pipe (-o -) (EINVAL)' "$work/err" &&
	[ ! -s "$work/out" ]
verdict

what="no sanitizer report in any of it"
check [ -z "$(cat "$work"/san.* 2> /dev/null)" ]
