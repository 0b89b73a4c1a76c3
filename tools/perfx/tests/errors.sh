#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# errors.sh - every error perfx stat must report: a clear message naming the
# input, a non-zero exit, and (with the sanitizer build) no leak or memory
# error.  Also help/list, the shared-mode fallback on kernels without the
# ioctls (to BPF, else per-cgroup events), forced BPF mode's refusals, and
# (through the fakecount shim) the shared ioctls' ENODEV, EEXIST and
# EAGAIN, each with its own message naming the cgroup.
# env: PERFX, FAKECOUNT (optional).  Prints TAP lines.
set -uo pipefail

PERFX=${PERFX:?}
. "$(dirname "$0")/tap.sh"
tap_init errors
work=$(mktemp -d)
mnt=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
cg=perfx-err-$$
cleanup()
{
	rm -rf "$work"
	[ -n "$mnt" ] && rmdir "$mnt/$cg" "$mnt/$cg-gone" "$mnt/$cg-2" "$mnt/$cg-3" 2>/dev/null
	true
}
trap cleanup EXIT

tap_diag() { sed 's/^/#   /' "$work/err" | head -8; }

# expect_fail_cmd WHAT REGEX CMD... - non-zero exit, REGEX in stderr, clean
expect_fail_cmd()
{
	local what=$1 re=$2 rc

	shift 2
	"$@" > "$work/out" 2> "$work/err"
	rc=$?
	if [ $rc -ne 0 ] && grep -qE -- "$re" "$work/err" && sanitizer_clean; then
		ok "$what"
	else
		echo "# exit $rc, want non-zero and /$re/"
		notok "$what"
	fi
}

# expect_fail WHAT REGEX ARGS... - perfx ARGS fails as expect_fail_cmd says
expect_fail() { expect_fail_cmd "$1" "$2" "$PERFX" "${@:3}"; }

# expect_ok_cmd WHAT REGEX CMD... - zero exit, REGEX in stdout+stderr, clean
expect_ok_cmd()
{
	local what=$1 re=$2 rc

	shift 2
	"$@" > "$work/out" 2> "$work/err"
	rc=$?
	cat "$work/out" >> "$work/err"
	if [ $rc -eq 0 ] && grep -qE -- "$re" "$work/err" && sanitizer_clean; then
		ok "$what"
	else
		echo "# exit $rc, want 0 and /$re/"
		notok "$what"
	fi
}

# expect_ok WHAT REGEX ARGS... - perfx ARGS succeeds as expect_ok_cmd says
expect_ok() { expect_ok_cmd "$1" "$2" "$PERFX" "${@:3}"; }

expect_fail "unknown event names the event" "^ +\\\\___ unknown event 'nosuch'.*\(EINVAL\)$" \
	stat -e nosuch true
expect_fail "bad modifier" "invalid modifier 'x'" stat -e cycles:x true
expect_fail "unknown PMU" "unknown PMU 'nopmu'" stat -e 'nopmu/event=1/' true
expect_fail "bad CPU list" "-C '0-x': expected a CPU list" stat -C 0-x -e task-clock true
expect_fail "missing process" "-p '999999999'.*process" stat -p 999999999 -e task-clock
expect_fail "malformed pid list" "-p 'x1'" stat -p x1 -e task-clock
expect_fail "command that cannot run" "^Workload failed: No such file or directory$" \
	stat -e task-clock perfx-no-such-cmd
expect_fail "nothing to count" "nothing to count" stat -e task-clock
expect_fail "-G with --for-each-cgroup" "cannot be used together" \
	stat -a -e task-clock -G A --for-each-cgroup A true
expect_fail "-G before -e" "must define events before cgroups" stat -a -G A -e task-clock true
expect_fail "cgroups need -a" "only available system-wide" \
	stat --for-each-cgroup A -e task-clock true
expect_fail "-x with -j" "cannot be used together" stat -x, -j -e task-clock true
expect_fail "bad -I" "-I 'abc'" stat -I abc -e task-clock true
expect_fail "bad -r" "-r '0'" stat -r 0 -e task-clock true
expect_fail "bad --cgroup-mode" "--cgroup-mode 'sometimes'" \
	stat -a --cgroup-mode sometimes -e task-clock true
expect_fail "unknown option" "unknown option '--bogus'" stat --bogus true

# perf_layout WHAT ARGS... - the caret layout of an event syntax error and
# its exit status are perf's: the first line and the caret's column match
# perf's for the same -e; the words after the caret are perfx's own
perf_layout()
{
	local what=$1 rc prc

	shift
	if ! command -v perf > /dev/null; then
		skip "$what" "no perf to compare with"
		return
	fi
	perf "$@" > /dev/null 2> "$work/perf.err"
	prc=$?
	"$PERFX" "$@" > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq $prc ] && [ $rc -eq 129 ] &&
	   [ "$(head -n 1 "$work/err")" = "$(head -n 1 "$work/perf.err")" ] &&
	   [ "$(sed -n '2s/___ .*/___/p' "$work/err")" = "$(sed -n '2s/___ .*/___/p' "$work/perf.err")" ] &&
	   sanitizer_clean; then
		ok "$what"
	else
		echo "# exit $rc (perf $prc); perf said:"
		sed 's/^/#   /' "$work/perf.err" | head -3
		notok "$what"
	fi
}

perf_layout "a syntax error's caret sits where perf's does" stat -e task-clock,bogus true
perf_layout "a long -e is cut as perf cuts it" \
	stat -e task-clock,context-switches,bogus,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa true
perf_layout "each -e is its own string, as perf's" stat -e task-clock -e bogus true

# garbage numbers and lists: the value, what was expected, the errno
expect_ok "-I 9: below 10 ms is taken, as perf 6.1 takes it" "^#           time +counts unit events$" \
	stat -I 9 -e task-clock sleep 0.03
expect_ok "-I 0: no interval, as perf 6.1" "Performance counter stats for 'true'" \
	stat -I 0 -e task-clock true
expect_fail "-I of 2^32" "^ Error: -I '4294967296': expected milliseconds from 0 \(none\) to 4294967295 \(ERANGE\)$" \
	stat -I 4294967296 -e task-clock true
expect_fail "-I negative" "^ Error: -I '-5': expected milliseconds .* \(EINVAL\)$" \
	stat -I -5 -e task-clock true
expect_fail "-I blank" "^ Error: -I ' ': expected milliseconds .* \(EINVAL\)$" \
	stat -I ' ' -e task-clock true
expect_fail "-I with a unit" "^ Error: -I '100ms': expected milliseconds .* \(EINVAL\)$" \
	stat -I 100ms -e task-clock true
expect_fail "-r of 2^31" "^ Error: -r '2147483648': expected a count from 1 to 2147483647 \(ERANGE\)$" \
	stat -r 2147483648 -e task-clock true
expect_fail "-r empty" "^ Error: -r '': expected a count from 1 to 2147483647 \(EINVAL\)$" \
	stat -r '' -e task-clock true
expect_fail "-C of 2^32" "^perfx: -C '4294967296': expected a CPU list like 0-3,6: .* \(ERANGE\)$" \
	stat -C 4294967296 -e task-clock true
expect_fail "-C reversed" "^perfx: -C '3-1': expected a CPU list like 0-3,6: .* \(EINVAL\)$" \
	stat -C 3-1 -e task-clock true
expect_fail "-C with a trailing comma" "^perfx: -C '0,': expected a CPU list" \
	stat -C 0, -e task-clock true
expect_fail "-p with a trailing comma" "^perfx: -p '1,': expected existing process ids: .* \(EINVAL\)$" \
	stat -p 1, -e task-clock
expect_fail "-t of 2^31" "^perfx: -t '2147483648': expected existing thread ids: .* \(EINVAL\)$" \
	stat -t 2147483648 -e task-clock
expect_fail "-t of 0" "^perfx: -t '0': expected existing thread ids: .* \(EINVAL\)$" \
	stat -t 0 -e task-clock
expect_fail "an event with an empty term" \
	"___ empty term in 'config=1,,config=2' .*\(EINVAL\)$" \
	stat -e 'software/config=1,,config=2/' true
# a PMU and a tracepoint whose sysfs/tracefs files hold garbage
mkdir -p "$work/pmu/junk" "$work/tp/sys/ev"
printf '\377\376\n' > "$work/pmu/junk/type"
printf '0x10\n' > "$work/tp/sys/ev/id"
PERFX_PMU_ROOT=$work/pmu expect_fail "a PMU type file of binary bytes" \
	"PMU 'junk': $work/pmu/junk/type holds '\\\\xff\\\\xfe', expected a decimal type below 2\^32 .*\(EINVAL\)" \
	stat -e 'junk/config=1/' true
PERFX_TRACEFS=$work/tp expect_fail "a tracepoint id in hex" \
	"tracepoint 'sys:ev': $work/tp/sys/ev/id holds '0x10', expected a decimal id .*\(EINVAL\)" \
	stat -e sys:ev true
expect_fail "unwritable -o" "-o '/nonexistent/x'.*ENOENT" stat -o /nonexistent/x -e task-clock true
if [ -w /dev/full ]; then
	expect_fail "a full output is an error, not silence" "writing the output" \
		stat -o /dev/full -e task-clock true
else
	skip "a full output is an error" "no /dev/full"
fi
expect_fail "unknown command" "unknown command 'nosuch'" nosuch
expect_fail "perfx help of an unknown command" "unknown command 'nosuch'" help nosuch
expect_ok "perfx help stat" "Usage: perfx stat" help stat
expect_fail "perfx stat -h exits 129 as perf" "--for-each-cgroup" stat -h
expect_ok "perfx list shows software events" "cgroup-switches .*Software event" list
expect_ok "perfx list sw" "task-clock" list sw
# a tracefs subsystem directory also holds its enable and filter files
if [ -d /sys/kernel/tracing/events/syscalls ]; then
	expect_ok "perfx list shows tracepoints" \
		"syscalls:sys_enter_read +\[Tracepoint event\]" list
	if grep -qE ':(enable|filter) ' "$work/err"; then
		notok "perfx list shows no tracefs control files as events"
	else
		ok "perfx list shows no tracefs control files as events"
	fi
else
	skip "perfx list shows tracepoints" "no tracefs with syscalls here"
	skip "perfx list shows no tracefs control files as events" "no tracefs here"
fi
expect_fail "perfx bench -h exits 129 as perf" "Usage: perfx bench sched pipe" bench -h
expect_fail "perfx bench sched pipe -h exits 129 as perf" "-T, --threaded" bench sched pipe -h
expect_fail "perfx bench sched pipe, an unknown option" "Error: unknown option '--bogus'" \
	bench sched pipe --bogus
expect_fail "perfx bench, an unknown collection" "Unknown collection: 'nosuch'" bench nosuch
expect_fail "perfx bench bad -l" "-l 'x'" bench sched pipe -l x
expect_ok "perfx bench sched pipe" "usecs/op" bench sched pipe -l 1000
expect_ok "perfx bench sched pipe -T" "between two threads" bench sched pipe -T -l 1000
expect_fail "perfx bench -G needs two names" "-G 'a': expected two cgroup names" \
	bench sched pipe -G a

if [ "$(id -u)" != 0 ] || [ -z "$mnt" ]; then
	for t in "missing cgroup" "no cgroup matched" "cgroup name leaving the mount" \
		 "-G name leaving the mount" "removed cgroup" "shared mode" "fallback"; do
		skip "$t" "needs root and a cgroup2 mount"
	done
else
	expect_fail "missing cgroup names it" "cgroup 'perfx-nosuch': expected a directory.*ENOENT" \
		stat -a --for-each-cgroup perfx-nosuch -e task-clock true
	expect_fail "a pattern matching no cgroup" "no cgroup matched: perfx-nosuch.*" \
		stat -a --for-each-cgroup 'perfx-nosuch.*' -e task-clock true
	expect_fail "a cgroup name leaving the mount" \
		"cgroup '\.\./x': expected a directory under the cgroup2 mount .*\(EINVAL\)" \
		stat -a --for-each-cgroup ../x -e task-clock true
	expect_fail "a -G name leaving the mount" \
		"cgroup 'A/\.\./\.\.': expected a directory under the cgroup2 mount .*\(EINVAL\)" \
		stat -a -e task-clock -G A/../.. true
	mkdir -p "$mnt/$cg" "$mnt/$cg-gone"
	expect_fail "a cgroup removed while counting" "cgroup '$cg-gone'.*removed while counting" \
		stat -a --cgroup-mode per-cgroup --for-each-cgroup "$cg,$cg-gone" -e task-clock \
		-- rmdir "$mnt/$cg-gone"
	mkdir -p "$mnt/$cg-gone"
	"$PERFX" stat -a --cgroup-mode shared --for-each-cgroup "$cg" -e task-clock true \
		> "$work/out" 2> "$work/err"
	if grep -q ENOTTY "$work/err"; then
		expect_fail "forced shared mode says why the kernel cannot" \
			"cgroup-mode=shared: .*no PERF_EVENT_IOC_ATTACH_CGROUP \(ENOTTY\)" \
			stat -a --cgroup-mode shared --for-each-cgroup "$cg" -e task-clock true
		if "$PERFX" stat -a --cgroup-mode bpf --for-each-cgroup "$cg" -e task-clock true \
			> /dev/null 2>&1; then
			expect_ok "auto mode falls back to BPF" \
				"event 'task-clock': .*\(ENOTTY\).*; using BPF$" \
				stat -v -a --for-each-cgroup "$cg" -e task-clock true
		else
			expect_ok "auto mode falls back to per-cgroup events" \
				"BPF: .*; using per-cgroup events" \
				stat -v -a --for-each-cgroup "$cg" -e task-clock true
		fi
	else
		expect_fail "shared mode: a cgroup removed while counting" \
			"cgroup '$cg-gone'.*removed while counting" \
			stat -a --cgroup-mode shared --for-each-cgroup "$cg,$cg-gone" -e task-clock \
			-- rmdir "$mnt/$cg-gone"
		expect_ok "auto mode picks shared mode on this kernel" \
			"shared mode" stat -v -a --for-each-cgroup "$cg" -e task-clock true
	fi
fi

# the counting shim fails bpf(2) with ENOSYS, as a kernel without BPF
if [ -n "$mnt" ] && [ "$(id -u)" = 0 ] && [ -n "${FAKECOUNT:-}" ]; then
	preload=$FAKECOUNT
	asan=$(ldd "$PERFX" 2>/dev/null | awk '/libasan/ { print $3 }')
	[ -n "$asan" ] && preload="$asan:$FAKECOUNT"
	mkdir -p "$mnt/$cg"
	expect_fail_cmd "forced BPF mode without bpf() says what the kernel needs" \
		"^perfx: --cgroup-mode=bpf: loading the BPF program: Function not implemented \(ENOSYS\): the kernel has no bpf\(\) \(CONFIG_BPF_SYSCALL\)$" \
		env LD_PRELOAD="$preload" "$PERFX" stat -a --cgroup-mode bpf --for-each-cgroup "$cg" \
		-e task-clock true
	expect_ok_cmd "auto mode without the ioctls nor bpf() counts per cgroup, and says why" \
		"BPF: loading the BPF program: .*\(ENOSYS\).*; using per-cgroup events$" \
		env LD_PRELOAD="$preload" "$PERFX" stat -v -a --for-each-cgroup "$cg" -e task-clock true
else
	skip "forced BPF mode without bpf()" "needs root, a cgroup2 mount and FAKECOUNT"
	skip "auto mode without the ioctls nor bpf()" "needs root, a cgroup2 mount and FAKECOUNT"
fi

# nodev_why MNT - what an ENODEV message says after its colon, by where
# /proc/cgroups puts perf_event (lib/cgroup-share.c)
nodev_why()
{
	local fix="the kernel gave it none; without the cgroup2 fix, cgroups get it once something writes the root's cgroup.subtree_control: enable a controller there (e.g. echo +pids > $1/cgroup.subtree_control)"

	awk -v fix="$fix" '$1 == "perf_event" && NF >= 4 { found = 1
		if ($4 == 0) print "the perf_event controller is disabled (cgroup_disable=perf_event on the kernel command line)"
		else if ($2 != 0) print "the perf_event controller is bound to a cgroup v1 hierarchy: unmount it there to count cgroup2 cgroups"
		else print fix
		exit }
		END { if (!found) print fix ", or perf_event is bound to cgroup v1 or disabled" }' \
		/proc/cgroups 2> /dev/null || echo "$fix, or perf_event is bound to cgroup v1 or disabled"
}

# the v5 ioctls' refusals, each with its own message naming the cgroup at
# fault (the shim emulates the kernel's errno and err_index)
share_tests=("ENODEV names the cgroup and what to do" "auto mode: ENODEV falls back to per-cgroup events"
	     "EEXIST names both names of the cgroup" "EAGAIN once: read again, the counts of per-cgroup mode"
	     "EAGAIN every time: a bounded retry, then an error")
if [ -n "$mnt" ] && [ "$(id -u)" = 0 ] && [ -n "${FAKECOUNT:-}" ]; then
	mkdir -p "$mnt/$cg" "$mnt/$cg-2"
	nodev="cgroup '$cg-2' ($mnt/$cg-2) has no perf_event controller state (ENODEV): $(nodev_why "$mnt")"
	shared() { env FAKECOUNT_SHARE=1 LD_PRELOAD="$preload" "$@"; }
	shared FAKECOUNT_SHARE_NODEV="$cg-2" "$PERFX" stat -a --cgroup-mode shared \
		--for-each-cgroup "$cg,$cg-2" -e task-clock true > /dev/null 2> "$work/err"
	rc=$?
	what=${share_tests[0]}
	[ $rc -eq 1 ] && grep -qxF "perfx: --cgroup-mode=shared: event 'task-clock': $nodev" "$work/err" &&
		sanitizer_clean
	verdict
	shared FAKECOUNT_SHARE_NODEV="$cg-2" "$PERFX" stat -v -a --for-each-cgroup "$cg,$cg-2" \
		-e task-clock true > /dev/null 2> "$work/err"
	rc=$?
	what=${share_tests[1]}
	[ $rc -eq 0 ] &&
		grep -qxF "perfx: --for-each-cgroup: event 'task-clock': $nodev; using per-cgroup events" "$work/err" &&
		grep -q "per-cgroup mode, " "$work/err" && sanitizer_clean
	verdict
	shared "$PERFX" stat -a --cgroup-mode shared --for-each-cgroup "$cg,/$cg" -e task-clock true \
		> /dev/null 2> "$work/err"
	rc=$?
	what=${share_tests[2]}
	[ $rc -eq 1 ] &&
		grep -qxF "perfx: --cgroup-mode=shared: event 'task-clock': cgroup '/$cg' ($mnt/$cg) is named twice (EEXIST): it is cgroup '$cg', named before it; name each cgroup once" "$work/err" &&
		sanitizer_clean
	verdict
	# -I: reads after the first, each with the counts of its interval
	shared "$PERFX" stat -x, -I 100 -a --cgroup-mode per-cgroup --for-each-cgroup "$cg,$cg-2" \
		-e task-clock,context-switches -- sleep 0.25 > /dev/null 2> "$work/want"
	shared FAKECOUNT_SHARE_EAGAIN=1 "$PERFX" stat -x, -I 100 -a --cgroup-mode shared \
		--for-each-cgroup "$cg,$cg-2" -e task-clock,context-switches -- sleep 0.25 \
		> /dev/null 2> "$work/err"
	rc=$?
	what=${share_tests[3]}
	# the first two intervals' counts, run times and shares: not the time
	# stamps nor CPUs utilized
	grep -v '^perfx: ' "$work/err" | cut -d, -f2-7 | head -8 > "$work/got"
	cut -d, -f2-7 "$work/want" | head -8 > "$work/want.c"
	[ $rc -eq 0 ] && [ "$(wc -l < "$work/want.c")" = 8 ] && cmp -s "$work/want.c" "$work/got" &&
		sanitizer_clean
	verdict
	shared FAKECOUNT_SHARE_EAGAIN=1000 "$PERFX" stat -a --cgroup-mode shared \
		--for-each-cgroup "$cg,$cg-2" -e task-clock true > /dev/null 2> "$work/err"
	rc=$?
	what=${share_tests[4]}
	[ $rc -eq 1 ] &&
		grep -qxF "perfx: reading event 'task-clock': its cgroups or its group kept changing during 5 PERF_EVENT_IOC_READ_CGROUP calls (EAGAIN)" "$work/err" &&
		sanitizer_clean
	verdict
else
	for t in "${share_tests[@]}"; do
		skip "$t" "needs root, a cgroup2 mount and FAKECOUNT"
	done
fi

paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 2)
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null && [ "$paranoid" -ge 1 ]; then
	cp "$PERFX" "$work/perfx" && chmod 755 "$work" "$work/perfx"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$work/perfx" stat -a \
		-e task-clock true > "$work/out" 2> "$work/err"
	rc=$?
	if [ $rc -ne 0 ] &&
	   grep -qE "(EACCES|EPERM).*CAP_PERFMON.*perf_event_paranoid <= 0; it is $paranoid" "$work/err"; then
		ok "EACCES/EPERM explains perf_event_paranoid and CAP_PERFMON"
	else
		notok "EACCES/EPERM explains perf_event_paranoid and CAP_PERFMON"
	fi
	if [ -n "$mnt" ]; then
		mkdir -p "$mnt/$cg"
		expect_fail_cmd "forced BPF mode unprivileged says it needs CAP_BPF" \
			"^perfx: --cgroup-mode=bpf: loading the BPF program: Operation not permitted \(EPERM\): it needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN$" \
			setpriv --reuid=65534 --regid=65534 --clear-groups "$work/perfx" stat -a \
			--cgroup-mode bpf --for-each-cgroup "$cg" -e task-clock true
	else
		skip "forced BPF mode unprivileged" "needs a cgroup2 mount"
	fi
else
	skip "EACCES/EPERM message" "needs root, setpriv and perf_event_paranoid >= 1"
	skip "forced BPF mode unprivileged" "needs root, setpriv and perf_event_paranoid >= 1"
fi

if [ -n "$mnt" ] && [ "$(id -u)" = 0 ]; then
	mkdir -p "$mnt/$cg" "$mnt/$cg-2" "$mnt/$cg-3"
	(ulimit -n 24; "$PERFX" stat -a --cgroup-mode per-cgroup --for-each-cgroup "$cg,$cg-2,$cg-3" \
		-e task-clock,cpu-clock,context-switches,page-faults,minor-faults,major-faults true \
		> "$work/out" 2> "$work/err")
	rc=$?
	if [ $rc -ne 0 ] && grep -qE "EMFILE.*raise 'ulimit -n'" "$work/err" &&
	   sanitizer_clean; then
		ok "EMFILE names the fds needed and the limit"
	else
		notok "EMFILE names the fds needed and the limit"
	fi
else
	skip "EMFILE message" "needs root and a cgroup2 mount"
fi
