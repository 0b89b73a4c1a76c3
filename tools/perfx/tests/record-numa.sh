#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# record-numa.sh - perfx record --affinity, --aio and --mmap-flush, watched
# from outside rather than taken at their word: what a recording of two
# tagged workloads on the first and the last CPU holds (the same set of
# records, all of them, in every mode); the reading thread's CPUs (its
# sched_setaffinity calls under strace, and its Cpus_allowed_list sampled
# from /proc while it drains); the --aio threads' CPUs; where the rings'
# and the --aio buffers' pages are and their memory policy
# (/proc/PID/numa_maps), against what -vv says.  Run on the host (one
# node) and in a 2-node guest (tests/guest/numa).  env: PERFX.  TAP lines.
set -uo pipefail

PERFX=${PERFX:?}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/tap.sh"
tap_init record-numa
work=$(mktemp -d)
holder=
cleanup()
{
	[ -z "$holder" ] || kill "$holder" 2> /dev/null
	wait 2> /dev/null
	rm -rf "$work"
}
trap cleanup EXIT
tap_diag() { sed 's/^/#   /' "$work/err" | head -12; }
export ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$work/san" UBSAN_OPTIONS="$UBSAN_OPTIONS:log_path=$work/san"
check() { if "$@"; then ok "$what"; else notok "$what"; fi; }

event=syscalls:sys_enter_lseek
if ! command -v perf > /dev/null; then
	skip "--affinity and --aio" "no perf here to read the files"
	exit 0
fi
if ! "$PERFX" record -q -a -e $event -o "$work/probe.data" -- true > /dev/null 2> "$work/err"; then
	skip "--affinity and --aio" "cannot record $event here: $(head -1 "$work/err")"
	exit 0
fi

# the machine: CPUs this shell may use, the first and the last, their nodes
read -r -a cpus <<< "$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))')"
first=${cpus[0]}
last=${cpus[${#cpus[@]} - 1]}
orig="${cpus[*]}"
node_of()
{
	local d

	for d in /sys/devices/system/node/node[0-9]*; do
		[ -e "$d/cpu$1" ] && { echo "${d##*node}"; return; }
	done
	echo 0
}
# CPUs as strace prints a mask: "0 1"; from a sysfs list "0-1"
expand() { python3 -c 'import sys
out = []
for r in sys.argv[1].split(","):
    lo, _, hi = r.partition("-")
    out += range(int(lo), int(hi or lo) + 1)
print(*out)' "$1"; }
node_cpus()
{
	if [ -e "/sys/devices/system/node/node$1/cpulist" ]; then
		cat "/sys/devices/system/node/node$1/cpulist"
	else
		cat /sys/devices/system/cpu/online
	fi
}
first_node=$(node_of "$first")
last_node=$(node_of "$last")
nr_nodes=$(ls -d /sys/devices/system/node/node[0-9]* 2> /dev/null | wc -l)
echo "# CPUs $orig; CPU $first on node $first_node, CPU $last on node $last_node; $nr_nodes nodes"

# the workload, built by make test (RECORD_NUMA_TAG), or here
tag=${RECORD_NUMA_TAG:-}
if [ ! -x "$tag" ]; then
	tag=$work/tag
	gcc -O2 -Wall -o "$tag" "$here/record-numa-tag.c" || { notok "the workload builds"; exit 1; }
fi
nr=8000
cat > "$work/produce" <<EOF
#!/bin/sh
"$tag" $first $nr 1 & "$tag" $last $nr 2
wait
EOF
chmod +x "$work/produce"

# record NAME ARGS...: the two tagged workloads, all CPUs, 1 MiB rings: a
# workload's 1 MiB of records wraps its ring once, and is lost only if
# nothing is read of it for half of that.  With STRACE=FILE, strace
# follows perfx's main thread, the reader, and nothing else: the guest's
# kernel has no seccomp to spare the workloads' 16000 system calls.
record()
{
	local name=$1 st=()

	shift
	# LeakSanitizer does not run under ptrace
	[ -n "${STRACE:-}" ] && st=(env "ASAN_OPTIONS=$ASAN_OPTIONS:detect_leaks=0"
				    strace -qq -e trace=sched_setaffinity -o "$STRACE")
	"${st[@]}" "$PERFX" record -v -a -e $event -m 256 "$@" -o "$work/$name.data" \
		-- "$work/produce" > /dev/null 2> "$work/$name.err"
}
# the workloads' records, without times or pids: CPU, offset; sorted
tagged() { grep ' numa-tag ' "$work/$1.script" | sort > "$work/$1.txt"; }
# NAME's file: exit 0, perf script reads it without a warning (out of
# order events included), and the workloads' records are serial mode's
same_records()
{
	local name=$1 args=$2 rc=$3

	perf script -i "$work/$name.data" -F comm,cpu,trace > "$work/$name.script" 2> "$work/err"
	tagged "$name"
	what="$args: exit 0, perf script reads the file without a warning"
	[ "$rc" -eq 0 ] && ! grep -qiE 'warning|error|unexpected|incompatible|failed|out of order' "$work/err"
	verdict
	what="$args: the same $((2 * nr)) records as serial mode"
	if cmp -s "$work/serial.txt" "$work/$name.txt"; then
		ok "$what"
	else
		notok "$what"
		echo "#   $(wc -l < "$work/$name.txt") records; first differences:"
		diff "$work/serial.txt" "$work/$name.txt" | head -4 | sed 's/^/#   /'
	fi
}

echo "# ${SECONDS}s"
# 1: serial mode (--affinity=sys) under strace: all the records; then
# every other mode writes the same set of records
STRACE=$work/strace.sys record serial --affinity=sys
rc=$?
cp "$work/serial.err" "$work/err"
what="serial: exit 0"
check [ $rc -eq 0 ]
perf script -i "$work/serial.data" -F comm,cpu,trace > "$work/serial.script" 2> /dev/null
tagged serial
what="serial: all $((2 * nr)) tagged records"
check [ "$(wc -l < "$work/serial.txt")" -eq $((2 * nr)) ]
for args in "--aio" "--aio=4 --affinity=cpu --mmap-flush=16K"; do
	name=$(echo "$args" | tr -d ' =-')
	# shellcheck disable=SC2086
	record "$name" $args
	same_records "$name" "$args" $?
done

echo "# ${SECONDS}s"
# 2: the reading thread's sched_setaffinity calls, under strace: the
# rings are mapped from their CPUs first, then the thread is put back on
# the CPUs it had ("orig"); what follows until the last return there is
# the draining.  Its other calls (the --aio threads' CPUs) name a
# thread.  Prints one mask per line.
drain_moves()
{
	sed -n 's/^sched_setaffinity(0, [0-9]*, \[\(.*\)\]) *= 0$/\1/p' "$1" |
		awk -v orig="$orig" '
		$0 == orig && !setup { setup = 1; next }
		setup { m[++n] = $0 }
		END {
			if (n && m[n] == orig)
				n--
			for (i = 1; i <= n; i++)
				print m[i]
		}'
}
# no mask twice in a row: the thread moves only when the mask changes
no_repeats() { [ -z "$(uniq -d "$1")" ]; }
said_moves() { sed -n 's/.*the reading thread moved \([0-9]*\) times.*/\1/p' "$work/$1.err"; }
if ! command -v strace > /dev/null; then
	skip "the reading thread's moves under strace" "no strace here"
else
	for mode in sys node cpu; do
		args="--affinity=$mode"
		[ $mode = node ] && args="--affinity=node --aio=2"
		if [ $mode != sys ]; then
			# shellcheck disable=SC2086
			STRACE=$work/strace.$mode record "$mode" $args
			same_records "$mode" "$args" $?
		fi
		drain_moves "$work/strace.$mode" > "$work/moves.$mode"
		moves=$(wc -l < "$work/moves.$mode")
		echo "# $args: $moves moves while draining: $(sort "$work/moves.$mode" | uniq -c | tr -s ' \n' ' ')"
		case $mode in
		node)
			want=$(printf '%s\n' "$(expand "$(node_cpus "$first_node")")" \
				"$(expand "$(node_cpus "$last_node")")" | grep -vx "$orig" | sort -u)
			what="$args: every move is to the CPUs of a node that has a ring with data"
			check [ -z "$(sort -u "$work/moves.node" | grep -vxF -e "${want:-none}")" ]
			what="$args: it moved to each such node ($(echo "$want" | grep -c .) masks)"
			check [ "$(sort -u "$work/moves.node" | grep -c .)" -eq "$(echo "$want" | grep -c .)" ]
			;;
		cpu)
			what="$args: every move is to one CPU, the workloads' among them"
			[ -z "$(grep ' ' "$work/moves.cpu")" ] && grep -qx "$first" "$work/moves.cpu" &&
				grep -qx "$last" "$work/moves.cpu"
			verdict
			;;
		sys)
			what="$args: the thread never moves while draining"
			[ "$moves" -eq 0 ] && grep -q '^sched_setaffinity(0, ' "$work/strace.sys"
			verdict
			;;
		esac
		if [ $mode != sys ]; then
			what="$args: never to the mask it is on (moves only when the mask changes)"
			check no_repeats "$work/moves.$mode"
			what="$args: -v's count of moves is strace's ($moves)"
			check [ "$(said_moves $mode)" = "$moves" ]
		fi
	done
fi

echo "# ${SECONDS}s"
# 3: its Cpus_allowed_list sampled while it drains: the CPUs it had, or
# one CPU at a time
orig_list=$(sed -n 's/^Cpus_allowed_list:\t//p' /proc/self/status)
"$PERFX" record -v -a -e $event -m 256 --affinity=cpu --aio=2 -o "$work/sampled.data" \
	-- "$work/produce" > /dev/null 2> "$work/sampled.err" &
pid=$!
: > "$work/seen"
while kill -0 $pid 2> /dev/null; do
	sed -n 's/^Cpus_allowed_list:\t//p' /proc/$pid/task/$pid/status >> "$work/seen" 2> /dev/null
done
wait $pid
same_records sampled "--affinity=cpu --aio=2" $?
sort "$work/seen" | uniq -c | sed 's/^/# seen: /'
what="sampled /proc: its CPUs were those it had or one CPU, never another mask"
check [ -z "$(sort -u "$work/seen" | grep -vx -e "$orig_list" -e '[0-9]*')" ]
if [ ${#cpus[@]} -gt 1 ]; then
	what="sampled /proc: it was seen on a single CPU"
	check grep -qx '[0-9]*' "$work/seen"
fi

echo "# ${SECONDS}s"
# 4: held open (the workload reads a FIFO): where -vv says the rings and
# the --aio buffers are, against numa_maps; the --aio threads' CPUs
mkfifo "$work/fifo"
"$PERFX" record -vv -a -e $event --aio=2 --affinity=node -o "$work/h.data" \
	-- sh -c "cat '$work/fifo' > /dev/null" > /dev/null 2> "$work/held.err" &
holder=$!
for _ in $(seq 600); do
	grep -q 'rings of' "$work/held.err" && break
	sleep 0.1
done
echo "# ${SECONDS}s: set up"
cp /proc/$holder/numa_maps "$work/numa_maps" 2> /dev/null
cp /proc/$holder/maps "$work/maps" 2> /dev/null
for t in /proc/$holder/task/*; do
	echo "$(cat "$t/comm") $(sed -n 's/^Cpus_allowed_list:\t//p' "$t/status")"
done > "$work/threads" 2> /dev/null
timeout 60 sh -c "echo > '$work/fifo'"
echo "# ${SECONDS}s: released"
wait $holder
rc=$?
holder=
cp "$work/held.err" "$work/err"
what="held open: exit 0"
check [ $rc -eq 0 ]
# the numa_maps line of the VMA holding address $1 (hex), by /proc/PID/maps
vma_of()
{
	local lo hi rest

	while IFS=' -' read -r lo hi rest; do
		if (( 16#$lo <= 16#$1 && 16#$1 < 16#$hi )); then
			grep "^$lo " "$work/numa_maps"
			return
		fi
	done < "$work/maps"
}
# the node counts of a numa_maps line: "N0=12 N1=3" -> "0=12 1=3"
node_pages() { grep -o ' N[0-9]*=[0-9]*' <<< "$1" | tr -d ' N' | tr '\n' ' ' | sed 's/ $//'; }
sed -n 's/^perfx: ring of CPU \([0-9]*\) at 0x\([0-9a-f]*\): \([0-9]*\) of \([0-9]*\) pages on its node \([0-9]*\), --aio buffers at 0x\([0-9a-f]*\) bound .*/\1 \2 \3 \4 \5 \6/p' \
	"$work/held.err" > "$work/rings"
sed -n 's/^perfx: ring of CPU \([0-9]*\) at 0x\([0-9a-f]*\): node \([0-9]*\), --aio buffers at 0x\([0-9a-f]*\) bound .*/\1 \2 -1 -1 \3 \4/p' \
	"$work/held.err" >> "$work/rings"
what="-vv names a ring and its --aio buffers for each of the ${#cpus[@]} CPUs"
check [ "$(wc -l < "$work/rings")" -eq "${#cpus[@]}" ]
pages=$(sed -n 's/^perfx: [0-9]* rings of \([0-9]*\) pages,.*/\1/p' "$work/held.err")
pages=$((${pages:-1} - 1))	# a buffer holds a ring's data pages
ring_ok=1 ring_unseen=0
declare -A aio_vmas=()
while read -r cpu addr here total node buf; do
	line=$(vma_of "$addr")
	if ! grep -q ' mapped=' <<< "$line"; then
		ring_unseen=$((ring_unseen + 1))
	elif [ "$(node_pages "$line")" != "$node=$total" ] || [ "$here" != "$total" ]; then
		echo "# ring of CPU $cpu (node $node): numa_maps '$line', -vv said $here of $total"
		ring_ok=
	fi
	[ "$node" = "$(node_of "$cpu")" ] || { echo "# CPU $cpu is node $(node_of "$cpu")'s"; ring_ok=; }
	line=$(vma_of "$buf")
	aio_vmas[$node]+="${line%% *} "
done < "$work/rings"
if [ $ring_unseen -eq "${#cpus[@]}" ]; then
	skip "the rings' pages in numa_maps" "this kernel ($(uname -r)) maps rings without pages numa_maps counts"
else
	what="numa_maps: every ring's pages are all on its CPU's node, as -vv says"
	[ -n "$ring_ok" ] && [ $ring_unseen -eq 0 ]
	verdict
fi
for node in "${!aio_vmas[@]}"; do
	rings=$(awk -v n="$node" '$5 == n' "$work/rings" | wc -l)
	sum=0 bad=
	for start in $(tr ' ' '\n' <<< "${aio_vmas[$node]}" | sort -u); do
		line=$(grep "^$start " "$work/numa_maps")
		counts=$(node_pages "$line")
		grep -q " bind:$node " <<< "$line" && [ "${counts%%=*}" = "$node" ] &&
			[ "$counts" = "${counts%% *}" ] || { bad=1; echo "# $line"; }
		sum=$((sum + ${counts#*=}))
	done
	echo "# node $node: --aio VMAs ${aio_vmas[$node]}: $sum pages"
	what="numa_maps: node $node's --aio buffers are bind:$node, all $((rings * 2 * pages)) pages there"
	[ -z "$bad" ] && [ "$sum" -eq $((rings * 2 * pages)) ]
	verdict
done
for node in "${!aio_vmas[@]}"; do
	what="the --aio thread of node $node runs on node $node's CPUs ($(node_cpus "$node"))"
	check grep -qx "perfx-aio-$node $(node_cpus "$node")" "$work/threads"
done
what="one --aio thread per node with rings"
check [ "$(grep -c '^perfx-aio-' "$work/threads")" -eq "${#aio_vmas[@]}" ]

echo "# ${SECONDS}s"
# 5: -v's bytes per node (of the serial run): the workloads' nodes
# drained at least their records' bytes; the sum is at most the file's
cp "$work/serial.err" "$work/err"
size=$(stat -c %s "$work/serial.data")
for node in $(printf '%s\n' "$first_node" "$last_node" | sort -u); do
	bytes=$(sed -n "s/^perfx: node $node (CPUs [^)]*): drained \([0-9]*\) bytes .*, waited [0-9.]* ms .*/\1/p" "$work/err")
	what="-v: node $node drained at least its workloads' $nr records of 92 bytes or more"
	want=$((nr * 92))
	[ "$first_node" = "$last_node" ] && want=$((2 * want))
	check [ "${bytes:-0}" -ge $want ]
done
what="-v: the nodes' bytes add up to less than the file"
check [ "$(sed -n 's/^perfx: node [0-9]* (.*): drained \([0-9]*\) bytes.*/\1/p' "$work/err" |
	   paste -sd+ | bc)" -lt "$size" ]

echo "# ${SECONDS}s"
what="no sanitizer report in any of it"
check [ -z "$(cat "$work"/san.* 2> /dev/null)" ]
