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
# hit has perf's build-id.  perf script prints the events of perf's
# recordings, perf report --time, -F tod work on perfx's files; a pipe's features end with perf's
# HEADER_LAST_FEATURE mark; a feature too large for a pipe record is left
# out, as perf does.  With BPF programs loaded (tests/bpf-loaded.c holds
# three for the whole test), the KSYMBOL and BPF_EVENT records and the
# BPF_PROG_INFO and BPF_BTF features are perf's, also when listing them
# fails (tests/bpfdeny.so); a user who may not list them gets none,
# quietly.  env: PERFX, PERFX_PLAIN (else ../perfx), BPF_LOADED and
# BPFDENY (else built here).  Prints TAP lines.
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

# Three BPF programs held while perf and perfx record, their ids in
# bpf_ids; none where the kernel lets no one here load them
bpf_loaded=${BPF_LOADED:-$work/bpf-loaded}
bpf_pid=
bpf_ids=()
trap '[ -n "$bpf_pid" ] && kill "$bpf_pid" 2> /dev/null; rm -rf "$work"' EXIT
if [ -n "${BPF_LOADED:-}" ] ||
   cc -O2 -I"$here/.." -o "$bpf_loaded" "$here/bpf-loaded.c" \
	-Wl,-Bstatic -lbpf -Wl,-Bdynamic -lelf -lz 2> "$work/bpf-err"; then
	"$bpf_loaded" > "$work/bpf-ids" 2> "$work/bpf-err" &
	bpf_pid=$!
	for _ in $(seq 100); do
		[ -s "$work/bpf-ids" ] || ! kill -0 "$bpf_pid" 2> /dev/null && break
		sleep 0.05
	done
	read -ra bpf_ids < "$work/bpf-ids"
fi

# What perf writes and perfx need not, with why.  Keys: feature:NAME
# (a file's), pipe-feature:ID, record:TYPE.
declare -A allowed=(
	# written by the kernel when tasks come and go during the recording
	[record:4]="EXIT: depends on the tasks that ran"
	[record:5]="THROTTLE: depends on the load"
	[record:6]="UNTHROTTLE: depends on the load"
	[record:7]="FORK: depends on the tasks that ran"
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
# "cpu" PMU); the BPF programs' below
for mode in file pipe; do
	for feat in 16:PMU_MAPPINGS 17:GROUP_DESC 20:CACHE 22:MEM_TOPOLOGY \
		    28:CPU_PMU_CAPS 31:PMU_CAPS; do
		p=$work/_e__cpu_clock_task_clock_.perf.$mode
		a=$(layout "$p" "${feat%%:*}")
		b=$(layout "${p/.perf./.perfx.}" "${feat%%:*}")
		if [ -z "$a" ] && [ ! -s "$p" ]; then
			skip "$mode: ${feat#*:} as perf writes it" "perf recorded no $p"
		elif [ "$a" = "$b" ]; then
			ok "$mode: ${feat#*:} as perf writes it"
		else
			printf 'perf:  %s\nperfx: %s\n' "$a" "$b" > "$work/err"
			notok "$mode: ${feat#*:} as perf writes it"
		fi
	done
done

# The BPF programs loaded, as perf report -D shows their records: each
# KSYMBOL's size, addr, len, type, flags and name, each BPF_EVENT's line
# and bytes (its tag among them), offsets left out
bpf_records()
{
	perf report -D -i "$1" 2> /dev/null | awk '
		/^\.  [0-9a-f]+:  / { hex = hex $0 "\n"; next }
		/: event: / { hex = ""; next }
		/PERF_RECORD_(KSYMBOL|BPF_EVENT) / {
			sub(/^[0-9]+ (0 )?0x[0-9a-f]+ /, "")
			print
			if ($0 ~ /BPF_EVENT/)
				printf "%s", hex
		}' | sed 's/ *$//'
}

# the ids of the BPF_EVENTs of a recording, sorted
bpf_ids_of() { bpf_records "$1" | sed -n 's/.*PERF_RECORD_BPF_EVENT .*, id \([0-9]*\)$/\1/p' | sort -n; }

# perf report --header-only -I's lines of the programs and their BTFs
bpf_header() { perf report --header-only -I -i "$1" 2> /dev/null | grep -E '^# (bpf_prog_info |btf info |	)'; }

# bpf_pair MODE [VAR=VALUE...]: perf's and perfx's recordings,
# $work/bpf.perf.MODE and $work/bpf.perfx.MODE, their stderr in
# $work/bpf.perf.err and $work/bpf.perfx.err, of the same BPF programs:
# made again (3 times at most) while another user's programs come or go
# between the two.  With VARs, under tests/bpfdeny.so, and perfx's plain
# build (ASan would have to come first)
bpf_pair()
{
	local mode=$1 try p=$work/bpf.perf.$1 x=$work/bpf.perfx.$1 bin=$PERFX o1 o2
	local -a pre=(env)

	shift
	[ $# -gt 0 ] && pre=(env "$@" LD_PRELOAD="$bpfdeny") bin=$PERFX_PLAIN
	o1=$p o2=$x
	[ "$mode" = pipe ] && o1=- o2=-
	for try in 1 2 3; do
		"${pre[@]}" perf record -e cpu-clock -o "$o1" -- true > "$p.out" 2> "$work/bpf.perf.err" &&
			"${pre[@]}" "$bin" record -e cpu-clock -o "$o2" -- true > "$x.out" \
				2> "$work/bpf.perfx.err" || { cp "$work/bpf.perfx.err" "$work/err"; return 1; }
		if [ "$mode" = pipe ]; then
			mv "$p.out" "$p" && mv "$x.out" "$x" || return 1
		fi
		sanitizer_clean "$work/bpf.perfx.err" || { cp "$work/bpf.perfx.err" "$work/err"; return 1; }
		[ "$(bpf_ids_of "$p")" = "$(bpf_ids_of "$x")" ] && return 0
	done
	return 0
}

# bpf_same MODE: perf's and perfx's recordings have the same KSYMBOL and
# BPF_EVENT records, and BPF_PROG_INFO (but for the padding of its arrays,
# which perf leaves as its heap had it) and BPF_BTF
bpf_same()
{
	local p=$work/bpf.perf.$1 x=$work/bpf.perfx.$1

	bpf_records "$p" > "$work/p.txt" && bpf_records "$x" > "$work/x.txt" &&
		diff "$work/p.txt" "$work/x.txt" > "$work/err" &&
		diff <(layout "$p" 25 | cut -c 1-8; layout "$p" 25 bpil; layout "$p" 26) \
		     <(layout "$x" 25 | cut -c 1-8; layout "$x" 25 bpil; layout "$x" 26) |
			cut -c 1-200 > "$work/err"
}

# every id of @bpf_ids among FILE's BPF_EVENTs
holds_ours() { local id; for id in "${bpf_ids[@]}"; do bpf_ids_of "$1" | grep -qx "$id" || return 1; done; }

if [ ${#bpf_ids[@]} -ne 3 ]; then
	bpf_why="this user may not load BPF programs: $(head -1 "$work/bpf-err" 2> /dev/null)"
fi
for mode in file pipe; do
	if ! bpf_pair $mode; then
		notok "$mode: perf's and perfx's recordings of the BPF programs loaded"
		continue
	fi
	p=$work/bpf.perf.$mode x=$work/bpf.perfx.$mode
	what="$mode: KSYMBOL and BPF_EVENT records as perf's for the BPF programs loaded"
	if [ ${#bpf_ids[@]} -ne 3 ]; then
		skip "$what" "$bpf_why"
	else
		bpf_records "$p" > "$work/p.txt" && bpf_records "$x" > "$work/x.txt" &&
			holds_ours "$p" && diff "$work/p.txt" "$work/x.txt" > "$work/err"
		verdict
	fi
	# perf's bytes, but for the padding of BPF_PROG_INFO's arrays, which
	# perf leaves as its heap had it (tests/perf-data-layout.py shows it
	# as xx); a pipe's header precedes them: empty lists in perf's and
	# perfx's
	for feat in 25:BPF_PROG_INFO 26:BPF_BTF; do
		what="$mode: ${feat#*:} as perf writes it"
		if [ "${feat%%:*}" = 25 ]; then
			a=$(layout "$p" 25 | cut -c 1-8; layout "$p" 25 bpil)
			b=$(layout "$x" 25 | cut -c 1-8; layout "$x" 25 bpil)
		else
			a=$(layout "$p" 26) b=$(layout "$x" 26)
		fi
		diff <(echo "$a") <(echo "$b") | cut -c 1-200 > "$work/err"
		[ -n "$a" ] && [ "$a" = "$b" ]
		verdict
	done
	[ $mode = pipe ] && continue
	what="file: perf report --header-only -I lists perf's bpf_prog_info and btf lines"
	if [ ${#bpf_ids[@]} -ne 3 ]; then
		skip "$what" "$bpf_why"
	else
		bpf_header "$p" > "$work/p.txt" && bpf_header "$x" > "$work/x.txt" &&
			grep -q "^# bpf_prog_info ${bpf_ids[0]}:" "$work/x.txt" &&
			grep -q '^# btf info of id ' "$work/x.txt" &&
			diff "$work/p.txt" "$work/x.txt" > "$work/err"
		verdict
	fi
done

# what perf does when listing them fails, through tests/bpfdeny.so: a
# program unloaded between BPF_PROG_GET_NEXT_ID and BPF_PROG_GET_FD_BY_ID
# skipped; one whose info cannot be read ends the list with a warning; a
# kernel without bpf(2) (ENOSYS: a warning) or that refuses it (EPERM:
# nothing said), no program
bpfdeny=${BPFDENY:-$work/bpfdeny.so}
PERFX_PLAIN=${PERFX_PLAIN:-$here/../perfx}
bpf_warns() { grep -c "Couldn't synthesize bpf events\.$" "$1"; }
if [ -n "${BPFDENY:-}" ] || cc -O2 -shared -fPIC -o "$bpfdeny" "$here/bpfdeny.c" -ldl \
	2> "$work/bpf-err"; then
	bpfdeny_why=
else
	bpfdeny_why="cannot build tests/bpfdeny.c: $(head -1 "$work/bpf-err")"
fi
[ -x "$PERFX_PLAIN" ] || bpfdeny_why="no plain build of perfx at $PERFX_PLAIN"
[ ${#bpf_ids[@]} -eq 3 ] || bpfdeny_why=$bpf_why
for case in "VANISH=${bpf_ids[1]:-}:a program gone before its fd is had is skipped" \
	    "INFO=${bpf_ids[1]:-}:a program whose info cannot be read ends the list, with perf's warning" \
	    "ERRNO=38:no bpf(2) (ENOSYS): no program, perf's warning" \
	    "ERRNO=1:bpf(2) refused (EPERM): no program, nothing said"; do
	what="file: ${case#*:}"
	if [ -n "$bpfdeny_why" ]; then
		skip "$what" "$bpfdeny_why"
		continue
	fi
	v=BPFDENY_${case%%:*}
	x=$work/bpf.perfx.file
	bpf_pair file "$v" && bpf_same file &&
		[ "$(bpf_warns "$work/bpf.perf.err")" = "$(bpf_warns "$work/bpf.perfx.err")" ] &&
		case ${case%%:*} in
		VANISH=*) [ "$(bpf_ids_of "$x" | grep -cxE "${bpf_ids[0]}|${bpf_ids[2]}")" = 2 ] &&
			! bpf_ids_of "$x" | grep -qx "${bpf_ids[1]}" ;;
		INFO=*)	bpf_ids_of "$x" | grep -qx "${bpf_ids[0]}" &&
			! bpf_ids_of "$x" | grep -qxE "${bpf_ids[1]}|${bpf_ids[2]}" &&
			[ "$(bpf_warns "$work/bpf.perfx.err")" = 1 ] ;;
		ERRNO=38) [ -z "$(bpf_ids_of "$x")" ] && [ "$(bpf_warns "$work/bpf.perfx.err")" = 1 ] ;;
		ERRNO=1) [ -z "$(bpf_ids_of "$x")" ] && [ "$(bpf_warns "$work/bpf.perfx.err")" = 0 ] ;;
		esac
	verdict
done

# a user who may not walk the BPF programs: none, and not a word of them
what="as nobody: no KSYMBOL, BPF_EVENT nor listed program, nothing said"
nb=$work/nobody
mkdir -p "$nb" && chmod 777 "$nb" && chmod o+x "$work"
if ! command -v setpriv > /dev/null || [ "$(id -u)" != 0 ] ||
   ! setpriv --reuid=nobody --regid=nogroup --clear-groups \
	perf record -q -e cpu-clock:u -o "$nb/p.data" -- true > /dev/null 2> "$work/err"; then
	skip "$what" "cannot record as nobody here (not root, or no setpriv)"
else
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		$PERFX record -e cpu-clock:u -o "$nb/x.data" -- true > /dev/null 2> "$nb/err" &&
		sanitizer_clean "$nb/err" && ! grep -qE 'synthesize bpf|bpf (programs|images)' "$nb/err" &&
		[ "$(layout "$nb/x.data" 25)" = 00000000 ] &&
		[ "$(layout "$nb/x.data" 26)" = 00000000 ] &&
		[ "$(layout "$nb/p.data" 25)" = 00000000 ] &&
		! layout "$nb/x.data" | grep -qE '^record (17|18) '
	verdict
fi

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

# perf script and perf report read perfx's recordings as they read perf's:
# no warning from either, the same events sampled, the workload's samples
# there (not for -a, whose other tasks differ), and for a file perf report
# --time over the whole span reporting samples
# view MODE FILE CMD...: perf CMD... on FILE (a pipe on stdin), stdout only
# if perf said nothing on stderr
view()
{
	local mode=$1 in=$2

	shift 2
	if [ "$mode" = pipe ]; then
		perf "$@" -i - < "$in" 2> "$work/view.err"
	else
		perf "$@" -i "$in" 2> "$work/view.err"
	fi && ! [ -s "$work/view.err" ]
}
# reports_span FILE: perf report --time over FILE's whole span has samples
# (not without SAMPLE_TIME: --no-buildid leaves it out, as perf does)
reports_span()
{
	view file "$1" report --stdio --time 0%-100% > "$work/out" &&
		grep -qE '^# Samples: [1-9]' "$work/out" && grep -qE '^ +[0-9.]+%' "$work/out"
}
events_of() { view "$1" "$2" script -G -F event | sed 's/: *$//' | sort -u; }
for line in "${lines[@]}"; do
	name=${line:-default}
	f=$work/${name//[^a-z0-9]/_}
	for mode in file pipe; do
		p=$f.perf.$mode x=$f.perfx.$mode
		what="$mode '$name': perf script prints the events perf's file has, without a word"
		if [ ! -s "$p" ] || [ ! -s "$x" ]; then
			skip "$what" "no recording of perf's or perfx's"
			continue
		fi
		a=$(events_of $mode "$p") && b=$(events_of $mode "$x") && [ -n "$a" ] && [ "$a" = "$b" ] &&
			{ [ "${line#*-a}" != "$line" ] || { view $mode "$x" script -F comm > "$work/comm" && grep -qE '^ *sh *$' "$work/comm"; }; }
		verdict
		[ "$a" = "$b" ] || printf '#   perf:  %s\n#   perfx: %s\n' "$a" "$b"
		sed 's/^/#   /' "$work/view.err" | head -3
		# perf has no time span of a pipe, its own included
		[ $mode = pipe ] && continue
		what="$mode '$name': perf report --time 0%-100% reports samples where perf's file does"
		reports_span "$x" || ! reports_span "$p"
		verdict
	done
done
