#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# compat.sh - perfx stat where a user of perf would notice a difference:
# an unprivileged user, -p/-t targets that exit, a killed workload, many
# cgroups with -A, cgroup names JSON and CSV readers must take, CPUs that
# do not exist, and every failure saying why (malloc failing at each call
# in turn).  env: PERFX (sanitizer build), PERFX_PLAIN, FAKECOUNT,
# FAILALLOC (the malloc-failing shim).  Prints TAP lines.
set -uo pipefail

PERFX=${PERFX:?}
PERFX_PLAIN=${PERFX_PLAIN:?}
FAKECOUNT=${FAKECOUNT:?}
FAILALLOC=${FAILALLOC:?}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
. "$here/golden/lib.sh"
tap_init compat
work=$(mktemp -d)
chmod 755 "$work"
mnt=$(cgroup2_mnt)
cgroups=()
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
cleanup()
{
	local cg

	for cg in "${cgroups[@]}"; do
		rmdir "$mnt/$cg" 2>/dev/null
	done
	[ -z "${GOLDEN_LOCK:-}" ] || golden_cgroups_cleanup
	[ "$(cat /proc/sys/kernel/perf_event_paranoid)" = "$paranoid" ] ||
		echo "$paranoid" > /proc/sys/kernel/perf_event_paranoid
	rm -rf "$work"
}
trap cleanup EXIT
tap_diag() { sed 's/^/#   /' "$work/err" | head -12; }

preload=$FAKECOUNT
asan=$(ldd "$PERFX" 2>/dev/null | awk '/libasan/ { print $3 }')
[ -n "$asan" ] && preload="$asan:$FAKECOUNT"
root=
[ "$(id -u)" = 0 ] && root=1

# as_nobody CMD... - run CMD as an unprivileged user
as_nobody()
{
	setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$@"
}

# 1. perf_event_paranoid 2 (Debian's default): perf counts user space only
unprivileged()
{
	local what="unprivileged: the kernel is excluded and the names get :u, as perf's"

	if [ -z "$root" ] || ! command -v perf > /dev/null; then
		skip "$what" "needs root (to become nobody) and perf"
		return
	fi
	[ "$paranoid" -ge 2 ] || echo 2 > /proc/sys/kernel/perf_event_paranoid
	as_nobody env LD_PRELOAD="$FAKECOUNT" perf stat -x, \
		-e task-clock,context-switches,page-faults true 2> "$work/want" > /dev/null
	as_nobody env LD_PRELOAD="$preload" "$PERFX" stat -x, \
		-e task-clock,context-switches,page-faults true 2> "$work/err" > /dev/null
	rc=$?
	golden_mask "$work/want" > "$work/want.m"
	golden_mask "$work/err" > "$work/got.m"
	if [ $rc -eq 0 ] && grep -q ',task-clock:u,' "$work/err" &&
	   cmp -s "$work/want.m" "$work/got.m" && sanitizer_clean; then
		ok "$what"
	else
		diff "$work/want.m" "$work/got.m" | sed 's/^/#   /'
		notok "$what"
	fi
	# an event that excludes user space already has nothing to fall back to
	as_nobody "$PERFX" stat -e task-clock:k true > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -ne 0 ] && grep -q "opening event 'task-clock:k'.*EACCES" "$work/err"; then
		ok "unprivileged: :k is refused with the reason, no fallback"
	else
		notok "unprivileged: :k is refused with the reason, no fallback"
	fi
}

# 2. -p/-t: counting ends when the tasks are gone, with and without -I
targets_exit()
{
	local opt iv pid start lines

	for opt in -p -t; do
		for iv in "" "-I 100"; do
			sleep 0.5 &
			pid=$!
			start=$SECONDS
			# shellcheck disable=SC2086
			timeout 10 "$PERFX" stat $iv $opt "$pid" -e task-clock > /dev/null 2> "$work/err"
			rc=$?
			wait "$pid"
			lines=$(grep -c 'task-clock' "$work/err")
			if [ $rc -eq 0 ] && [ $((SECONDS - start)) -le 3 ] && [ "$lines" -ge 1 ] &&
			   [ "$lines" -le 12 ] && sanitizer_clean; then
				ok "stat $iv $opt: ends when the task exits ($lines lines)"
			else
				echo "# exit $rc after $((SECONDS - start))s, $lines lines"
				notok "stat $iv $opt: ends when the task exits"
			fi
		done
	done
}

# 3. a workload killed by a signal: named, exit status as perf's
killed_workload()
{
	local what="a killed workload is named and the exit status is perf's" prc

	if ! command -v perf > /dev/null; then
		skip "$what" "no perf"
		return
	fi
	perf stat -e task-clock -- sh -c 'kill -TERM $$' > /dev/null 2> "$work/want"
	prc=$?
	"$PERFX" stat -e task-clock -- sh -c 'kill -TERM $$' > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq $prc ] && [ "$(head -n 1 "$work/err")" = "sh: Terminated" ] &&
	   [ "$(head -n 1 "$work/want")" = "sh: Terminated" ] && sanitizer_clean; then
		ok "$what"
	else
		echo "# exit $rc, perf $prc"
		notok "$what"
	fi
}

# 3b. -a ended by a signal: the counts printed, then perfx dies of the
# signal as perf does (the shell sees 128 + N), not exit 0
# signaled TOOL SIG: TOOL stat -a ended by SIG after a second; its status
signaled()
{
	"$1" stat -a -e task-clock > "$work/out" 2> "$work/err" &
	local pid=$!

	sleep 1
	kill -"$2" $pid
	wait $pid
}

signaled_system_wide()
{
	local sig what prc

	for sig in INT TERM; do
		what="stat -a ended by SIG$sig: the counts, then exit $((128 + $(kill -l $sig))) as perf"
		if ! command -v perf > /dev/null; then
			skip "$what" "no perf"
			continue
		fi
		signaled perf $sig
		prc=$?
		signaled "$PERFX" $sig
		rc=$?
		if [ $rc -eq $prc ] && [ $rc -eq $((128 + $(kill -l $sig))) ] &&
		   grep -q 'msec task-clock' "$work/err" && sanitizer_clean; then
			ok "$what"
		else
			echo "# exit $rc, perf $prc"
			notok "$what"
		fi
	done
}

# 4. -A with 300 cgroups x 10 events: no fixed table to fill
many_cgroups()
{
	local what="-A, 300 cgroups x 10 events: every count printed" i list= want ncpus

	if [ -z "$root" ] || [ -z "$mnt" ]; then
		skip "$what" "needs root and a cgroup2 mount"
		return
	fi
	for i in $(seq 1 300); do
		mkdir -p "$mnt/perfx-compat-$i" && cgroups+=("perfx-compat-$i")
		list+=${list:+,}perfx-compat-$i
	done
	ncpus=$(getconf _NPROCESSORS_ONLN)
	want=$((300 * 10 * ncpus))
	"$PERFX_PLAIN" stat -a -A -x, --cgroup-mode=per-cgroup --for-each-cgroup "$list" \
		-e task-clock,cpu-clock,context-switches,cpu-migrations,page-faults \
		-e minor-faults,major-faults,alignment-faults,emulation-faults,cgroup-switches \
		true > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq 0 ] && [ "$(grep -c '^CPU' "$work/err")" -eq "$want" ]; then
		ok "$what ($want lines)"
	else
		echo "# exit $rc, $(grep -c '^CPU' "$work/err") of $want lines"
		notok "$what"
	fi
}

# 5. names with quotes, backslashes, separators, control characters; a
# name with a comma can only be reached by a pattern, as in perf
odd_names()
{
	local name=$'px"q\\b,s;c\x01' pattern='^px.q.*' what

	if [ -z "$root" ] || [ -z "$mnt" ]; then
		for what in "-j: valid JSON" "-x,: one CSV field" "-x;: one CSV field"; do
			skip "odd cgroup name, $what" "needs root and a cgroup2 mount"
		done
		return
	fi
	mkdir -p "$mnt/$name" && cgroups+=("$name")
	LD_PRELOAD="$preload" "$PERFX" stat -a -j -e task-clock,context-switches --for-each-cgroup "$pattern" \
		true > /dev/null 2> "$work/err"
	if python3 -c '
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
names = {r["cgroup"] for r in rows if "cgroup" in r}
sys.exit(0 if len(rows) == 2 and names == {sys.argv[2]} else 1)' "$work/err" "$name" &&
	   sanitizer_clean; then
		ok "odd cgroup name, -j: valid JSON holding the name"
	else
		notok "odd cgroup name, -j: valid JSON holding the name"
	fi
	for sep in , ';'; do
		LD_PRELOAD="$preload" "$PERFX" stat -a -x "$sep" -e task-clock --for-each-cgroup "$pattern" \
			true > /dev/null 2> "$work/err"
		if python3 -c '
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1]), delimiter=sys.argv[3]) if r]
want = sys.argv[2].replace("\x01", "\\x01")
sys.exit(0 if len(rows) == 1 and rows[0][3] == want else 1)' "$work/err" "$name" "$sep" &&
		   sanitizer_clean; then
			ok "odd cgroup name, -x '$sep': one CSV field, control characters as \\xNN"
		else
			notok "odd cgroup name, -x '$sep': one CSV field"
		fi
	done
}

# 6. user input in errors never reaches the terminal raw
raw_controls()
{
	"$PERFX" stat -e $'task-clock\x1b[2J' true > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq 129 ] && ! grep -q $'\x1b' "$work/err" && grep -q 'task-clock\\x1b\[2J' "$work/err"; then
		ok "a control character in -e is shown as \\xNN"
	else
		notok "a control character in -e is shown as \\xNN"
	fi
	"$PERFX" stat -a --for-each-cgroup $'no\x07such' -e task-clock true > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -ne 0 ] && ! grep -q $'\x07' "$work/err" && grep -q 'no\\x07such' "$work/err"; then
		ok "a control character in a cgroup name is shown as \\xNN"
	else
		notok "a control character in a cgroup name is shown as \\xNN"
	fi
}

# 7. CPUs that do not exist; options that do nothing
cpus_and_modes()
{
	local ncpus last

	ncpus=$(getconf _NPROCESSORS_ONLN)
	last=$((ncpus + 1))
	"$PERFX" stat -C "0-$last" -e cpu-clock true > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq 1 ] && grep -qx "perfx: -C '0-$last': CPUs $ncpus-$last are not online (online: 0-$((ncpus - 1))) (ENODEV)" "$work/err"; then
		ok "-C naming CPUs that are not online fails and names them"
	else
		notok "-C naming CPUs that are not online fails and names them"
	fi
	"$PERFX" stat --cgroup-mode=shared -e task-clock true > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq 0 ] && grep -qx 'perfx: --cgroup-mode has no effect without --for-each-cgroup' "$work/err"; then
		ok "--cgroup-mode without --for-each-cgroup says it does nothing"
	else
		notok "--cgroup-mode without --for-each-cgroup says it does nothing"
	fi
}

# 8. bench -G removes the cgroups it created, refuses to leave the mount
bench_cgroups()
{
	local what="bench -G: the cgroups it created are gone afterwards"

	if [ -z "$root" ] || [ -z "$mnt" ]; then
		skip "$what" "needs root and a cgroup2 mount"
		return
	fi
	"$PERFX" bench sched pipe -l 100 -G perfx-bench-a,perfx-bench-b > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq 0 ] && [ ! -e "$mnt/perfx-bench-a" ] && [ ! -e "$mnt/perfx-bench-b" ] &&
	   grep -q '^0::/$' /proc/self/cgroup && sanitizer_clean; then
		ok "$what"
	else
		notok "$what"
	fi
	"$PERFX" bench sched pipe -l 100 -G ../perfx-bench-a,b > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq 129 ] && grep -q "not '..'" "$work/err" && [ ! -e "$mnt/../perfx-bench-a" ]; then
		ok "bench -G refuses a name that leaves the cgroup2 mount"
	else
		notok "bench -G refuses a name that leaves the cgroup2 mount"
	fi
}

# 9. auto mode: an event the kernel will not share is counted per cgroup,
# the rest shared, and -v says which and why; shared mode fails naming it
per_event_fallback()
{
	local what="auto mode falls back per event and -v says why"

	if [ -z "$root" ] || [ -z "$mnt" ]; then
		skip "$what" "needs root and a cgroup2 mount"
		skip "shared mode names the event the kernel refuses" "needs root and a cgroup2 mount"
		return
	fi
	golden_cgroups_setup
	FAKECOUNT_SHARE=1 FAKECOUNT_SHARE_REFUSE=3 LD_PRELOAD="$preload" "$PERFX" stat -v -a \
		--for-each-cgroup "$CG_A,$CG_B" -e task-clock,context-switches true \
		> /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq 0 ] &&
	   grep -qx "perfx: --for-each-cgroup: event 'context-switches': the event cannot be counted per cgroup (EOPNOTSUPP): its PMU does not count per task (an uncore or AUX PMU); using per-cgroup events" "$work/err" &&
	   grep -q "shared and per-cgroup mode, $((2 * 1 + 2 * 2)) counting fds" "$work/err" &&
	   [ "$(grep -c "using per-cgroup events" "$work/err")" = 1 ] && sanitizer_clean; then
		ok "$what"
	else
		notok "$what"
	fi
	FAKECOUNT_SHARE=1 FAKECOUNT_SHARE_REFUSE=3 LD_PRELOAD="$preload" "$PERFX" stat -a \
		--cgroup-mode shared --for-each-cgroup "$CG_A,$CG_B" -e task-clock,context-switches \
		true > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq 1 ] &&
	   grep -qx "perfx: --cgroup-mode=shared: event 'context-switches': the event cannot be counted per cgroup (EOPNOTSUPP): its PMU does not count per task (an uncore or AUX PMU)" "$work/err" &&
	   sanitizer_clean; then
		ok "shared mode names the event the kernel refuses"
	else
		notok "shared mode names the event the kernel refuses"
	fi
}

# 10. each allocation failing in turn: a message with every non-zero exit
# fail_nth NTH ARGS... - perfx ARGS with its NTH allocation failing:
# "NTH EXIT STDERR_BYTES"
fail_nth()
{
	local nth=$1 err rc

	shift
	err=$(FAILALLOC_NTH=$nth LD_PRELOAD=$FAILALLOC "$PERFX_PLAIN" "$@" 2>&1 > /dev/null)
	rc=$?
	echo "$nth $rc ${#err}"
}
export -f fail_nth
export PERFX_PLAIN FAILALLOC

failing_allocations()
{
	local args=("$@") nth total rc len failures=0 silent=0 crashed=0

	FAILALLOC_COUNT=1 LD_PRELOAD=$FAILALLOC "$PERFX_PLAIN" "${args[@]}" \
		> /dev/null 2> "$work/count"
	total=$(sed -n 's/^failalloc: \([0-9]*\) allocations$/\1/p' "$work/count" | tail -n 1)
	if [ -z "$total" ]; then
		notok "perfx ${args[*]}: the shim counted no allocation"
		return
	fi
	# each run on its own: as many at once as there are CPUs
	seq 1 "$total" | xargs -P "$(nproc)" -I NTH bash -c 'fail_nth "$@"' _ NTH "${args[@]}" |
		sort -n > "$work/fails"
	while read -r nth rc len; do
		[ "$rc" -eq 0 ] && continue
		failures=$((failures + 1))
		if [ "$rc" -gt 128 ] && [ "$rc" -ne 129 ] && [ "$rc" -ne 255 ]; then
			crashed=$((crashed + 1))
			echo "# allocation $nth: exit $rc"
		elif [ "$len" -eq 0 ]; then
			silent=$((silent + 1))
			echo "# allocation $nth: exit $rc without a word"
		fi
	done < "$work/fails"
	if [ "$(wc -l < "$work/fails")" -ne "$total" ]; then
		notok "perfx ${args[*]}: $(wc -l < "$work/fails") of $total runs reported"
	elif [ "$silent" -eq 0 ] && [ "$crashed" -eq 0 ] && [ "$failures" -gt 0 ]; then
		ok "perfx ${args[*]}: each of $total allocations failing: $failures failures, each said"
	else
		notok "perfx ${args[*]}: $silent silent and $crashed crashed of $failures failures"
	fi
}

# signal_window - SIGINT that lands between perfx stat's check of it and
# its wait (a shim raises it just before pause() or sigsuspend()): the
# wait must still return, the counts print and perfx exit 0
signal_window()
{
	local what="stat -a: SIGINT between the check and the wait still ends it (no lost wakeup)"
	local shim=$work/sigwindow.so pre rc

	cat > "$work/sigwindow.c" <<'EOF'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>

static int raised;

static void window(void)
{
	if (!raised++)
		raise(SIGINT);
}

int pause(void)
{
	window();
	return ((int (*)(void))dlsym(RTLD_NEXT, "pause"))();
}

int sigsuspend(const sigset_t *mask)
{
	window();
	return ((int (*)(const sigset_t *))dlsym(RTLD_NEXT, "sigsuspend"))(mask);
}
EOF
	if ! gcc -shared -fPIC -O1 -o "$shim" "$work/sigwindow.c" -ldl 2> "$work/err"; then
		notok "$what"
		return
	fi
	pre=$shim
	[ -n "$asan" ] && pre="$asan:$shim"
	# the shim in perfx only: timeout waits in sigsuspend() too
	timeout 20 env LD_PRELOAD="$pre" "$PERFX" stat -a -e task-clock > /dev/null 2> "$work/err"
	rc=$?
	# ended by the SIGINT, which perfx then dies of (130); timeout's is 124
	if [ $rc -eq 130 ] && grep -q 'task-clock' "$work/err" && sanitizer_clean; then
		ok "$what"
	else
		notok "$what (exit $rc)"
	fi
}

unprivileged
targets_exit
killed_workload
signaled_system_wide
many_cgroups
odd_names
raw_controls
cpus_and_modes
bench_cgroups
per_event_fallback
signal_window
failing_allocations stat -e task-clock,context-switches -x, true
failing_allocations stat -e '{task-clock,page-faults}' -I 20 sleep 0.05
failing_allocations list sw
failing_allocations bench sched pipe -l 100
