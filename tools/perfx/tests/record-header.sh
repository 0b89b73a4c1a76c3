#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record-header.sh - what perf.data headers perfx record writes, beside
# perf record's for the same command lines, as files and as pipes: every
# header feature perf writes (perf report --header-only's "missing
# features", a pipe's HEADER_FEATURE records), every attr field and
# sample_type/read_format bit of perf evlist -v, and every kind of
# record perf writes once per recording (ID_INDEX, THREAD_MAP, CPU_MAP,
# FINISHED_INIT, ...) must be in perfx's too, but for the ones listed in
# `allowed` with the reason.  The machine's features are perf's bytes;
# ID_INDEX, EVENT_UPDATE, THREAD_MAP and CPU_MAP read as perf's; a vDSO
# hit has perf's build-id.  perf report --time and perf script -F tod
# work on perfx's files; a pipe's features end with perf's
# HEADER_LAST_FEATURE mark; a feature too large for a pipe record is left
# out, as perf does.  env: PERFX.  Prints TAP lines.
set -uo pipefail

PERFX=${PERFX:?}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
tap_init record-header
tap_workdir
layout() { python3 "$here/perf-data-layout.py" "$@"; }

if ! command -v perf > /dev/null ||
   ! perf record -q -e cpu-clock -o "$work/probe.data" -- true > /dev/null 2> "$work/err"; then
	skip "interop with perf" "perf record -e cpu-clock does not work here"
	exit 0
fi

# What perf writes and perfx need not, with why.  Keys: feature:NAME
# (a file's), pipe-feature:ID, record:TYPE.
declare -A allowed=(
	# written by the kernel when tasks come and go during the recording
	[record:4]="EXIT: depends on the tasks that ran"
	[record:5]="THROTTLE: depends on the load"
	[record:6]="UNTHROTTLE: depends on the load"
	[record:7]="FORK: depends on the tasks that ran"
	[record:17]="KSYMBOL: only for BPF programs loaded while recording"
	[record:18]="BPF_EVENT: only for BPF programs loaded while recording"
	[record:68]="FINISHED_ROUND: as many as the passes over the rings"
)

# the bodies perf gives no names: the workload burns CPU for samples
workload=(sh -c 'i=0; while [ $i -lt 40000 ]; do i=$((i + 1)); done')
lines=("" "-a -g" "-e {cpu-clock,task-clock}" "-k mono" "-e sched:sched_switch -a" "--no-buildid"
       "--call-graph dwarf")

# record TOOL NAME OUT ARGS...: perf or perfx into OUT (a file, or a pipe if OUT is -:FILE)
record()
{
	local tool=$1 out=$2
	local bin=/usr/bin/perf

	shift 2
	[ "$tool" = perfx ] && bin=$PERFX
	if [ "${out#-:}" != "$out" ]; then
		"$bin" record -q "$@" -o - -- "${workload[@]}" > "${out#-:}" 2> "$work/err"
	else
		"$bin" record -q "$@" -o "$out" -- "${workload[@]}" > /dev/null 2> "$work/err"
	fi
}

# the feature names perf says a file lacks
missing_features()
{
	perf report --header-only -I -i "$1" 2> /dev/null |
		sed -n 's/^# missing features: //p' | tr ' ' '\n' | grep .
}

# "event key" and "event key=FLAG" lines of perf evlist -v, values left out
attr_fields()
{
	perf evlist -v -i "$1" 2> /dev/null | awk -F ': ' '{
		ev = $1; sub(/:.*/, "", ev)
		n = split(substr($0, length(ev) + 3), f, ", ")
		for (i = 1; i <= n; i++) {
			split(f[i], kv, ": ")
			print ev " " kv[1]
			if (kv[1] == "sample_type" || kv[1] == "read_format") {
				m = split(kv[2], b, "|")
				for (j = 1; j <= m; j++)
					print ev " " kv[1] "=" b[j]
			}
		}
	}' | sort -u
}

# lack WHAT KIND PERF_LIST PERFX_LIST: the items of perf's list not in
# perfx's nor allowed, as "KIND:ITEM" words on stdout
lack()
{
	local kind=$1 item

	comm -23 <(sort -u <<< "$2") <(sort -u <<< "$3") | while IFS= read -r item; do
		[ -n "$item" ] && [ -z "${allowed[$kind:$item]:-}" ] && echo "$kind:$item"
	done
}

check_lack() # DESC LACKING
{
	if [ -z "$2" ]; then
		ok "$1"
	else
		notok "$1"
		echo "$2" | tr ' ' '\n' | sed 's/^/#   perfx lacks /' | head -20
	fi
}

record_types() { layout "$1" | awk '$1 == "record" { print $2 }'; }

for line in "${lines[@]}"; do
	read -ra args <<< "$line"
	name=${line:-default}
	f=$work/${name//[^a-z0-9]/_}
	for mode in file pipe; do
		out=$f.$mode
		[ $mode = pipe ] && out=-:$f.$mode
		if ! record perf "${out/$f/$f.perf}" "${args[@]}"; then
			skip "$mode '$name'" "perf record ${line} failed: $(head -1 "$work/err")"
			continue
		fi
		if ! record perfx "${out/$f/$f.perfx}" "${args[@]}" || ! sanitizer_clean; then
			notok "$mode '$name': perfx record exits 0"
			continue
		fi
		p=$f.perf.$mode x=$f.perfx.$mode
		if [ $mode = file ]; then
			# the features perfx misses and perf does not
			l=$(lack feature "$(missing_features "$x")" "$(missing_features "$p")")
		else
			l=$(lack pipe-feature "$(layout "$p" | awk '$1 == "feature" { print $2 }')" \
				"$(layout "$x" | awk '$1 == "feature" { print $2 }')")
		fi
		check_lack "$mode '$name': every header feature perf writes" "$l"
		check_lack "$mode '$name': every attr field and bit perf sets" \
			"$(lack attr "$(attr_fields "$p")" "$(attr_fields "$x")" | tr ' ' '_')"
		check_lack "$mode '$name': every kind of record perf writes" \
			"$(lack record "$(record_types "$p")" "$(record_types "$x")")"
	done
done

# the features that describe this machine, and the group: perf's bytes,
# or none where perf writes none (CACHE in a pipe, CPU_PMU_CAPS without a
# "cpu" PMU)
for mode in file pipe; do
	for feat in 16:PMU_MAPPINGS 17:GROUP_DESC 20:CACHE 22:MEM_TOPOLOGY 25:BPF_PROG_INFO \
		    26:BPF_BTF 28:CPU_PMU_CAPS 31:PMU_CAPS; do
		p=$work/_e__cpu_clock_task_clock_.perf.$mode
		a=$(layout "$p" "${feat%%:*}")
		b=$(layout "${p/.perf./.perfx.}" "${feat%%:*}")
		if [ -z "$a" ] && [ ! -s "$p" ]; then
			skip "$mode: ${feat#*:} as perf writes it" "perf recorded no $p"
		elif [ "$a" != "$b" ] && [ "${feat%%:*}" -eq 25 -o "${feat%%:*}" -eq 26 ] &&
		     [ "$b" = 00000000 ]; then
			# perf lists the BPF programs loaded (any other user's
			# too: systemd's, perfx stat's); perfx writes none yet
			echo "not ok $((++n)) - $tap_name: $mode: ${feat#*:} as perf writes it # TODO perfx writes no loaded BPF program's info"
		elif [ "$a" = "$b" ]; then
			ok "$mode: ${feat#*:} as perf writes it"
		else
			printf 'perf:  %s\nperfx: %s\n' "$a" "$b" > "$work/err"
			notok "$mode: ${feat#*:} as perf writes it"
		fi
	done
done

# CLOCK_DATA: version 1 and CLOCK_MONOTONIC (1), then the two reference times
what="file -k mono: CLOCK_DATA's version and clockid as perf's"
a=$(layout "$work/_k_mono.perf.file" 29)
b=$(layout "$work/_k_mono.perfx.file" 29)
if [ "${#a}" = 48 ] && [ "${a:0:16}" = 0100000001000000 ] && [ "${#b}" = 48 ] &&
   [ "${b:0:16}" = "${a:0:16}" ]; then
	ok "$what"
else
	printf 'perf:  %s\nperfx: %s\n' "$a" "$b" > "$work/err"
	notok "$what"
fi

# perf report -D's ID_INDEX, EVENT_UPDATE, THREAD_MAP, CPU_MAP and
# FINISHED_INIT lines, sizes included, offsets, sample ids and task ids
# masked
describe_records()
{
	perf report -D -i "$1" 2> /dev/null |
		sed -nE '/\]: PERF_RECORD_(ID_INDEX|EVENT_UPDATE|THREAD_MAP|CPU_MAP|FINISHED_INIT)|^ ?\.\.\. (id|unit|scale|name): /{
			s/^[0-9]+ (0 )?0x[0-9a-f]+ //; s/id: +[0-9]+/id: ID/
			s/(tid|thread): [0-9]+/\1: PID/; p; }'
}

for line in "" "-a" "-C 1" "-e {cpu-clock,task-clock} -C 0,1" "-p PID" "-e cpu-clock" \
	    "-o - -e cpu-clock" "-o - -a -g" "-o - -e {cpu-clock,task-clock}"; do
	read -ra args <<< "${line/PID/$$}"
	what="'$line': ID_INDEX, EVENT_UPDATE, THREAD_MAP, CPU_MAP and FINISHED_INIT as perf's"
	out=/dev/null
	[ "${line#-o -}" = "$line" ] && args+=(-o "$work/p.data") || out=$work/p.data
	if ! perf record -q "${args[@]}" -- sleep 0.1 > "$out" 2> "$work/err"; then
		skip "$what" "perf record $line failed: $(head -1 "$work/err")"
		continue
	fi
	[ "$out" = /dev/null ] && args[-1]=$work/x.data || out=$work/x.data
	if $PERFX record -q "${args[@]}" -- sleep 0.1 > "$out" 2> "$work/err" &&
	   describe_records "$work/p.data" > "$work/p.txt" &&
	   describe_records "$work/x.data" > "$work/x.txt" && [ -s "$work/p.txt" ] &&
	   diff "$work/p.txt" "$work/x.txt" > "$work/err"; then
		ok "$what"
	else
		notok "$what"
	fi
done

# a program whose time goes to the vDSO: its build-id in BUILD_ID, perf's
what="a vDSO hit: perf buildid-list shows [vdso] with perf's build-id"
if command -v cc > /dev/null; then
	printf '%s\n' '#include <time.h>' \
		'int main(void) { struct timespec t; long i;' \
		'for (i = 0; i < 3000000; i++) clock_gettime(CLOCK_MONOTONIC, &t); return 0; }' \
		> "$work/vdso.c"
fi
if ! command -v cc > /dev/null || ! cc -O2 -o "$work/vdso" "$work/vdso.c" 2> "$work/err" ||
   ! perf record -q -o "$work/p.data" -- "$work/vdso" > /dev/null 2> "$work/err" ||
   ! perf buildid-list -i "$work/p.data" 2> /dev/null | grep -q ' \[vdso\]$'; then
	skip "$what" "no compiler, or perf's recording has no [vdso] build-id"
elif $PERFX record -q -o "$work/x.data" -- "$work/vdso" > /dev/null 2> "$work/err" &&
     [ "$(perf buildid-list -i "$work/p.data" | grep ' \[vdso\]$')" = \
       "$(perf buildid-list -i "$work/x.data" 2> "$work/err" | grep ' \[vdso\]$')" ]; then
	ok "$what"
else
	notok "$what"
fi

# the first 10%, which holds the first sample however the workload was
# scheduled (a loaded host may leave 10%/2 without one); without
# SAMPLE_TIME perf has no span to take 10% of and reports nothing
what="perf report --time 0%-10% on perfx's file reports its samples"
if perf report --stdio --time 0%-10% -i "$work/default.perfx.file" > "$work/out" 2> "$work/err" &&
   grep -qE '^ +[0-9.]+%' "$work/out"; then
	ok "$what"
else
	cp "$work/out" "$work/err" 2> /dev/null
	notok "$what"
fi

what="perf script -F tod on perfx's -k mono file prints wall-clock times"
if perf script -F tod,comm -i "$work/_k_mono.perfx.file" > "$work/out" 2> "$work/err" &&
   grep -qE '^ *sh [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]+ *$' "$work/out"; then
	ok "$what"
else
	notok "$what"
fi

what="perf evlist -g on perfx's file keeps {cpu-clock,task-clock} a group"
if perf evlist -g -i "$work/_e__cpu_clock_task_clock_.perfx.file" > "$work/err" 2>&1 &&
   grep -qx '{cpu-clock,task-clock}' "$work/err"; then
	ok "$what"
else
	notok "$what"
fi

what="a pipe's features end with one HEADER_LAST_FEATURE (32) record"
if layout "$work/default.perfx.pipe" > "$work/err" &&
   [ "$(awk '$1 == "feature" { f = $2 } END { print f }' "$work/err")" = 32 ] &&
   [ "$(grep -c '^feature 32$' "$work/err")" = 1 ]; then
	ok "$what"
else
	notok "$what"
fi

# a command line over 64 KiB: its CMDLINE feature cannot be a pipe record
big=$(head -c 70000 /dev/zero | tr '\0' x)
# without_cmdline PIPE: written, sanitizer-clean, no CMDLINE (11) but
# the features after it (12), read by perf without a word
without_cmdline()
{
	sanitizer_clean && layout "$1" > "$work/err" &&
		! grep -qx 'feature 11' "$work/err" && grep -qx 'feature 12' "$work/err" &&
		perf script -i "$1" > /dev/null 2> "$work/err" && ! [ -s "$work/err" ]
}
what="a pipe whose CMDLINE exceeds 64 KiB leaves it out, as perf does"
$PERFX record -q -o - -- sh -c ": $big" > "$work/big.pipe" 2> "$work/err" &&
	without_cmdline "$work/big.pipe"
verdict

# a file may hold one (perf record's does): inject's pipe leaves it out
what="perfx inject -b of a file with a CMDLINE over 64 KiB into a pipe leaves it out"
perf record -q -o "$work/big.file" -- sh -c ": $big" > /dev/null 2> "$work/err" &&
	$PERFX inject -b -i "$work/big.file" -o - > "$work/inj.pipe" 2> "$work/err" &&
	without_cmdline "$work/inj.pipe"
verdict
