#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# list.sh - perfx list against the machine's perf list (6.1), line by line,
# on a pipe and on a terminal (script(1); perf's pager is 'cat -' there, so
# that it prints what it prints into less), for the arguments both take;
# that every event perfx lists is one its -e takes; and that garbage
# arguments get a clear error and a non-zero exit.  env: PERFX.  Prints
# TAP lines.
#
# perf's output is reduced to the kinds perfx lists (perf_filter), then
# perfx's must be the same bytes:
#  1. from the blank line before "Metric Groups:" or "Metrics:" to the end
#     is dropped (perf prints its metrics, then libpfm's events, last;
#     perfx counts neither);
#  2. an event line is kept only if it ends in [Hardware event],
#     [Software event], [Hardware cache event], [Kernel PMU event],
#     [Raw hardware event descriptor] or [Tracepoint event]: perf's
#     [Tool event] (duration_time, user_time, system_time), [Hardware
#     breakpoint] (mem:), [SDT event] and described (JSON) events go;
#  3. the terminal's header and "(see 'man perf-list' ...)" line are kept,
#     with "-e or -M" read as "-e" and perf-list as perfx-list;
#  4. a blank line is kept only first or right after a kept non-blank
#     line: on a terminal perf ends each kind with one (and prints one for
#     its tool events even when none matched), those of dropped kinds go.
set -uo pipefail

PERFX=${PERFX:?}
. "$(dirname "$0")/tap.sh"
tap_init list
tap_workdir


perf_filter()
{
	awk '
	{ line[NR] = $0 }
	/^(Metric Groups|Metrics):$/ && !stop { stop = NR }
	END {
		last = NR
		if (stop) {
			last = stop - 1
			if (last >= 1 && line[last] == "")
				last--
		}
		prev_kept = 0
		prev_blank = 1
		for (i = 1; i <= last; i++) {
			l = line[i]
			if (l == "")
				keep = i == 1 || (prev_kept && !prev_blank)
			else if (l ~ /\[(Hardware event|Software event|Hardware cache event|Kernel PMU event|Raw hardware event descriptor|Tracepoint event)\]$/)
				keep = 1
			else if (l == "List of pre-defined events (to be used in -e or -M):") {
				l = "List of pre-defined events (to be used in -e):"
				keep = 1
			} else if (l == "   (see \047man perf-list\047 on how to encode it)") {
				l = "   (see \047man perfx-list\047 on how to encode it)"
				keep = 1
			} else
				keep = 0
			if (keep)
				print l
			prev_kept = keep
			prev_blank = l == ""
		}
	}'
}


# on_tty CMD... - run CMD with stdout (and stderr) on a terminal
on_tty()
{
	script -qec "$(printf '%q ' "$@")" /dev/null < /dev/null | tr -d '\r'
}

# compare MODE ARGS - perfx list ARGS against perf list ARGS (MODE pipe|tty)
compare()
{
	local mode=$1 what args rc

	set -f
	read -r -a args <<< "$2"
	set +f
	what="perfx list${2:+ $2} is perf's, on a ${mode/tty/terminal}"
	if [ "$mode" = pipe ]; then
		perf list "${args[@]}" > "$work/perf.raw" 2> /dev/null
		"$PERFX" list "${args[@]}" > "$work/perfx" 2> "$work/err"
		rc=$?
	else
		PERF_PAGER='cat -' on_tty perf list "${args[@]}" > "$work/perf.raw"
		on_tty "$PERFX" list "${args[@]}" > "$work/perfx"
		rc=$?
		cp "$work/perfx" "$work/err"
	fi
	perf_filter < "$work/perf.raw" > "$work/perf"
	if [ $rc -eq 0 ] && sanitizer_clean "$work/err" && cmp -s "$work/perf" "$work/perfx"; then
		ok "$what ($(grep -c . "$work/perfx") lines)"
	else
		notok "$what"
		echo "#   exit $rc; diff perf perfx:"
		diff "$work/perf" "$work/perfx" | head -10 | sed 's/^/#   /'
	fi
}

pipe_cases=("" hw hardware sw software cache hwcache pmu tracepoint 'sched:*' 'sched:sched_s*'
	    sched tsc cs '*clock' TSC SCHED nosuch 'sw pmu' '[a-c]*:*' 'cpu-*' ':' 'sched:')
tty_cases=("" sw pmu 'sched:*' cs nosuch)
if ! command -v perf > /dev/null || ! perf list sw > /dev/null 2>&1; then
	for c in "${pipe_cases[@]}"; do
		skip "perfx list${c:+ $c} is perf's, on a pipe" "no working perf here"
	done
	for c in "${tty_cases[@]}"; do
		skip "perfx list${c:+ $c} is perf's, on a terminal" "no working perf here"
	done
else
	for c in "${pipe_cases[@]}"; do
		compare pipe "$c"
	done
	if command -v script > /dev/null; then
		for c in "${tty_cases[@]}"; do
			compare tty "$c"
		done
	else
		for c in "${tty_cases[@]}"; do
			skip "perfx list${c:+ $c} is perf's, on a terminal" "no script(1) here"
		done
	fi
fi

# every name perfx lists, but the syntax lines and only the sched tracepoints
"$PERFX" list > "$work/out" 2> "$work/err"
events=$(awk '
	/\[Raw hardware event descriptor\]$/ { next }
	/\[Tracepoint event\]$/ && $1 !~ /^sched:/ { next }
	/ \[[A-Za-z ]*\]$/ {
		sub(/^  /, ""); sub(/ +\[[A-Za-z ]*\]$/, "")
		n = split($0, w, / OR /)
		for (i = 1; i <= n; i++)
			printf "%s%s", sep, w[i]
		sep = ","
	}' "$work/out")
if [ "$(id -u)" != 0 ]; then
	skip "perfx stat -e takes every event perfx list names" "needs root for the tracepoints"
elif [ -z "$events" ]; then
	notok "perfx stat -e takes every event perfx list names: perfx list named none"
else
	"$PERFX" stat -e "$events" true > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq 0 ] && sanitizer_clean "$work/err"; then
		ok "perfx stat -e takes every event perfx list names ($(tr , '\n' <<< "$events" | wc -l))"
	else
		notok "perfx stat -e takes every event perfx list names"
		echo "#   exit $rc"
		head -5 "$work/err" | sed 's/^/#   /'
	fi
fi

# expect_usage_error WHAT REGEX ARGS... - exit 129 as perf's parser, REGEX
# on stderr's first line, the usage after it, nothing on stdout
expect_usage_error()
{
	local what=$1 re=$2 rc

	shift 2
	"$PERFX" list "$@" > "$work/out" 2> "$work/err"
	rc=$?
	if [ $rc -eq 129 ] && head -1 "$work/err" | grep -qE -- "$re" &&
	   grep -q '^ Usage: perfx list \[hw|sw|cache|tracepoint|pmu|event_glob\]$' "$work/err" &&
	   [ ! -s "$work/out" ] && sanitizer_clean "$work/err"; then
		ok "$what"
	else
		notok "$what"
		echo "#   exit $rc, want 129 and /$re/ then the usage"
		head -4 "$work/err" | sed 's/^/#   /'
	fi
}

expect_usage_error "an unknown option is an error" "^  Error: unknown option '--bogus'$" --bogus
expect_usage_error "an unknown switch is an error" "^  Error: unknown switch '-z'$" -z
expect_usage_error "--help takes no value" "^ Error: option '--help' takes no value" --help=x
expect_usage_error "SDT events are not perfx's" "^perfx list: 'sdt': perfx does not count SDT events" sdt
expect_usage_error "metrics are not perfx's" "^perfx list: 'metric': perfx does not count metrics" \
	sw metric
expect_usage_error "metric groups are not perfx's" \
	"^perfx list: 'metricgroups': perfx does not count metric groups" metricgroups
"$PERFX" list -h > "$work/out" 2> "$work/err"
rc=$?
printf '\n Usage: perfx list [hw|sw|cache|tracepoint|pmu|event_glob]\n\n\n' > "$work/want"
if [ $rc -eq 129 ] && [ ! -s "$work/out" ] && cmp -s "$work/want" "$work/err"; then
	ok "perfx list -h prints the usage on stderr and exits 129, as perf list -h"
else
	notok "perfx list -h prints the usage on stderr and exits 129, as perf list -h"
	echo "#   exit $rc"
	sed 's/^/#   /' "$work/err" | head -5
fi
