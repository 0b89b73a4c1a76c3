#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cgroup-overhead.sh - what counting K cgroups costs a cross-cgroup ping-pong.
#
# Run as root, in the guest on the patched kernel (or anywhere: the shared
# mode is reported as n/a where the kernel lacks the ioctls):
#
#   bench/cgroup-overhead.sh [-k "1 10 200 1000"] [-l LOOPS] [-r REPS] [-T] [-o FILE]
#                            [-p SVG] [-e EVENTS] [-d DEPTH]
#
# For each K it creates K cgroups perfx-bench/c0..c<K-1>; the ping-pong
# (perfx bench sched pipe -G c0,c1: two tasks pinned to one CPU, each in its
# cgroup, so every switch crosses cgroups) runs in c0 and c1, while the
# 8 software events are counted system-wide for all K cgroups:
#
#   nothing       the ping-pong alone
#   perf          perf stat -a --for-each-cgroup (the machine's perf, the
#                 outside reference: one event per CPU, event and cgroup)
#   perf-bpf      perf stat -a --bpf-counters --for-each-cgroup, upstream's
#                 BPF answer, with $PERF_BPF (default: build/perf/perf, the
#                 6.12 tree's perf that `make perf` builds with BPF
#                 skeletons, else the machine's perf; n/a when that perf
#                 has no BPF skeletons, as Debian's 6.1, or the kernel no
#                 BTF for their CO-RE reads: the table's notes say why)
#   perf-tree     perf stat -a --for-each-cgroup of the tree's perf, the
#                 series' in-tree user ($PERF_TREE, default build/perf-min/perf
#                 from scripts/perf-build -m): one event per CPU and event,
#                 all cgroups attached; n/a where it falls back to cgroup
#                 events
#   per-cgroup    perfx stat --cgroup-mode per-cgroup (the same scheme)
#   bpf           perfx stat --cgroup-mode bpf (one event per CPU and event,
#                 summed per cgroup by a BPF program at each cgroup switch;
#                 n/a where the kernel refuses the program, and why)
#   shared        perfx stat --cgroup-mode shared (one event per CPU and
#                 event, all cgroups attached with PERF_EVENT_IOC_ATTACH_CGROUP)
#
# With -T the two tasks are threads of one process (perf bench's -T) in
# threaded cgroups perfx-bench-threads/c0..: a switch between them keeps the
# address space.  Under QEMU TCG every address-space switch flushes the
# emulated TLB, so each page the switch path touches afterwards costs a
# software page walk; -T shows the costs without that emulation artefact.
#
# -e counts EVENTS events instead of 8 (the 8 software events repeated, or
# the first EVENTS of them).  -d puts the K cgroups DEPTH levels down,
# under a chain base/l1/.../l<DEPTH-1> whose cgroups are counted too, so
# that the counted cgroups occupy DEPTH levels: the switch's work per
# level shows against DEPTH (the ping-pong's cgroups are two of the K).
#
# and prints a markdown table: usec/op of each repetition, the overhead of
# the mean over "nothing", the counting fds, the setup time (open and
# attach) and the time for one read of all counts with its syscalls.  With
# -p, gnuplot draws the mean usec/op against K for every mode into SVG.
set -euo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
PERFX=${PERFX:-$TOP/tools/perfx/perfx}
PERF_BPF=${PERF_BPF:-$TOP/build/perf/perf}
[ -x "$PERF_BPF" ] || PERF_BPF=perf
PERF_TREE=${PERF_TREE:-$TOP/build/perf-min/perf}
MODES="nothing perf perf-bpf perf-tree per-cgroup bpf shared"
SW_EVENTS=(cpu-clock task-clock context-switches cpu-migrations page-faults minor-faults
	   major-faults cgroup-switches)
NEV=8
DEPTH=1
KS="1 10 200 1000"
LOOPS=20000
REPS=2
THREADS=
OUT=
SVG=

while getopts "k:l:r:o:p:e:d:Th" o; do
	case $o in
	k) KS=$OPTARG ;;
	l) LOOPS=$OPTARG ;;
	r) REPS=$OPTARG ;;
	T) THREADS=-T ;;
	o) OUT=$OPTARG ;;
	p) SVG=$OPTARG ;;
	e) NEV=$OPTARG ;;
	d) DEPTH=$OPTARG ;;
	*) sed -n '3,52p' "$0"; exit 0 ;;
	esac
done
[[ $NEV =~ ^[1-9][0-9]*$ ]] || { echo "cgroup-overhead: -e takes a number of events, not '$NEV'" >&2; exit 1; }
[[ $DEPTH =~ ^[1-9][0-9]*$ ]] || { echo "cgroup-overhead: -d takes a depth of 1 or more, not '$DEPTH'" >&2; exit 1; }
EVENTS=
for i in $(seq 0 $((NEV - 1))); do EVENTS=$EVENTS${EVENTS:+,}${SW_EVENTS[i % 8]}; done
[ "$(id -u)" = 0 ] || { echo "cgroup-overhead: run as root" >&2; exit 1; }
[ -x "$PERFX" ] || { echo "cgroup-overhead: build $PERFX first" >&2; exit 1; }
[ -z "$SVG" ] || command -v gnuplot > /dev/null ||
	{ echo "cgroup-overhead: -p needs gnuplot (scripts/deps installs it)" >&2; exit 1; }
mnt=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
[ -n "$mnt" ] || { echo "cgroup-overhead: no cgroup2 mount" >&2; exit 1; }
for c in pids memory cpu; do	# 6.12: perf_event css only after this
	grep -qw "$c" "$mnt/cgroup.controllers" 2>/dev/null &&
		echo "+$c" > "$mnt/cgroup.subtree_control" 2>/dev/null && break
done
ncpus=$(getconf _NPROCESSORS_ONLN)
ulimit -n 1048576 2>/dev/null || ulimit -n "$(ulimit -Hn)"	# K x CPUs x 8 fds
work=$(mktemp -d)
top=perfx-bench${THREADS:+-threads}
# the chain above the K cgroups, one counted cgroup a level
levels=("$top")
for i in $(seq 1 $((DEPTH - 1))); do levels+=("${levels[-1]}/l$i"); done
base=${levels[-1]}
chain=$(printf '%s\n' "${levels[@]:1}" | paste -sd,)
tasks=processes
[ -z "$THREADS" ] || tasks=threads

cleanup()
{
	local i

	rm -rf "$work"
	if [ -n "$THREADS" ]; then echo $$ > "$mnt/cgroup.procs"; fi
	for i in $(seq 0 $((maxk - 1))); do
		rmdir "$mnt/$base/c$i" 2>/dev/null || true
	done
	for i in $(seq $((${#levels[@]} - 1)) -1 0); do
		rmdir "$mnt/${levels[i]}" 2>/dev/null || true
	done
}
maxk=0
for k in $KS; do [ "$k" -gt "$maxk" ] && maxk=$k; done
trap cleanup EXIT
mkdir -p "$mnt/$base"
for d in "${levels[@]}"; do
	echo "+pids" > "$mnt/$d/cgroup.subtree_control" 2>/dev/null || true
done
for i in $(seq 0 $((maxk - 1))); do
	mkdir -p "$mnt/$base/c$i"
	if [ -n "$THREADS" ]; then echo threaded > "$mnt/$base/c$i/cgroup.type"; fi
done
# threads enter threaded cgroups only from their process's threaded domain
if [ -n "$THREADS" ]; then echo $$ > "$mnt/$base/cgroup.procs"; fi

bench_cmd=("$PERFX" bench sched pipe $THREADS -l "$LOOPS" -G "$base/c0,$base/c1")

usec() { awk '/usecs\/op/ { print $1 }' "$1"; }

# not_available MODE - print an n/a result, and keep the first two lines
# of why (MODE's stderr) for the table's notes, once per mode
not_available()
{
	grep -q "^$1:" "$work/notes" 2> /dev/null ||
		echo "$1: $(grep -v '^$' "$work/err" | head -2 |
			awk 'NR > 1 { printf " / " } { printf "%s", $0 }')" >> "$work/notes"
	echo "n/a n/a n/a n/a n/a"
}

# plot MEANS SVG - usec/op against K, a line per mode that ran (gnuplot)
plot()
{
	local m cmds=

	for m in $MODES; do
		awk -v m="$m" '$2 == m && $3 != "n/a" { print $1, $3 }' "$1" > "$work/plot.$m"
		[ -s "$work/plot.$m" ] || continue
		cmds="$cmds${cmds:+, }'$work/plot.$m' using 1:2 with linespoints title '$m'"
	done
	gnuplot <<-GNUPLOT
		set terminal svg size 720,480 dynamic enhanced font 'sans,11'
		set output '$2'
		set title "cross-cgroup ping-pong while K cgroups are counted ($(uname -r), $ncpus CPUs, $tasks)"
		set xlabel 'K (cgroups counted)'
		set ylabel 'usec per round trip'
		set logscale x
		set key top left
		set grid
		plot $cmds
	GNUPLOT
}

# run MODE K - one repetition; prints "usec fds setup_ms read_ms syscalls"
run()
{
	local mode=$1 k=$2 list i

	list=$chain${chain:+,}$base/c0
	for i in $(seq 1 $((k - 1))); do list=$list,$base/c$i; done
	case $mode in
	nothing)
		"${bench_cmd[@]}" > "$work/out" 2> "$work/err"
		echo "$(usec "$work/out") - - - -"
		;;
	perf)
		perf stat -a -x, -e "$EVENTS" --for-each-cgroup "$list" -o "$work/counts" \
			-- "${bench_cmd[@]}" > "$work/out" 2> "$work/err"
		echo "$(usec "$work/out") $((ncpus * NEV * (k + DEPTH - 1))) - - -"
		;;
	perf-bpf)
		if ! "$PERF_BPF" stat -a -x, -e "$EVENTS" --bpf-counters --for-each-cgroup "$list" \
			-o "$work/counts" -- "${bench_cmd[@]}" > "$work/out" 2> "$work/err"; then
			not_available "$mode"
			return
		fi
		echo "$(usec "$work/out") $((ncpus * NEV)) - - -"
		;;
	perf-tree)
		if ! "$PERF_TREE" stat -v -a -x, -e "$EVENTS" --for-each-cgroup "$list" \
			-o "$work/counts" -- "${bench_cmd[@]}" > "$work/out" 2> "$work/err" ||
		   ! grep -q "shared events per CPU" "$work/err"; then
			not_available "$mode"
			return
		fi
		echo "$(usec "$work/out") $((ncpus * NEV)) - - -"
		;;
	per-cgroup|shared|bpf)
		if ! "$PERFX" stat -v -a -x, -e "$EVENTS" --cgroup-mode "$mode" \
			--for-each-cgroup "$list" -o "$work/counts" \
			-- "${bench_cmd[@]}" > "$work/out" 2> "$work/err"; then
			grep -q -e ENOTTY -e "cgroup-mode=bpf" "$work/err" &&
				{ not_available "$mode"; return; }
			cat "$work/err" >&2
			return 1
		fi
		sed -nE 's/.*mode, ([0-9]+) counting fds, setup ([0-9.]+) ms, one read of all counts ([0-9.]+) ms \(([0-9]+) syscalls\).*/\1 \2 \3 \4/p' \
			"$work/err" | { read -r f s r c; echo "$(usec "$work/out") $f $s $r $c"; }
		;;
	esac
}

{
	echo "# cgroup-monitoring overhead: $(uname -r), $ncpus CPUs, $(date -u +%Y-%m-%dT%H:%MZ)"
	echo
	echo "ping-pong of $LOOPS round trips between c0 and c1 pinned to one CPU, two $tasks;"
	echo "$NEV software events counted system-wide for K cgroups; $REPS repetitions."
	[ "$DEPTH" = 1 ] || echo "The K cgroups are $DEPTH levels down; the $((DEPTH - 1)) above them are counted too."
	echo "perf: $(perf version 2>&1); perf-bpf: $PERF_BPF, $("$PERF_BPF" version 2>&1);" \
	     "perf-tree: $PERF_TREE, $("$PERF_TREE" version 2>&1)"
	echo "Command: bench/cgroup-overhead.sh -k \"$KS\" -l $LOOPS -r $REPS${THREADS:+ -T}${SVG:+ -p $SVG} -e $NEV -d $DEPTH"
	echo
	echo "| K | mode | usec/op | overhead | counting fds | setup ms | one read ms (syscalls) |"
	echo "|---|---|---|---|---|---|---|"
} | tee "$work/table"

for k in $KS; do
	nothing_mean=
	for mode in $MODES; do
		vals=() fds=- setup=- readms=- calls=-
		for r in $(seq 1 "$REPS"); do
			run "$mode" "$k" > "$work/res"	# no /dev/fd in the guest
			read -r u f s rd c < "$work/res"
			vals+=("$u")
			fds=$f setup=$s readms=$rd calls=$c
		done
		mean=$(printf '%s\n' "${vals[@]}" | awk '$1 != "n/a" { s += $1; n++ }
			END { if (n) printf "%.1f", s / n; else print "n/a" }')
		[ "$mode" = nothing ] && nothing_mean=$mean
		over=$(awk -v m="$mean" -v b="$nothing_mean" 'BEGIN {
			if (m == "n/a" || b == "" || b == 0) print "n/a"; else printf "%.2fx", m / b }')
		rd="-"
		[ "$readms" != - ] && rd="$readms ($calls)"
		[ "$readms" = n/a ] && rd="n/a"
		echo "$k $mode $mean" >> "$work/means"
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$k" "$mode" \
			"$(printf '%s\n' "${vals[@]}" | paste -sd, | sed 's/,/, /g')" "$over" \
			"$fds" "$setup" "$rd"
	done
done | tee -a "$work/table"
if [ -s "$work/notes" ]; then
	{ echo; echo "n/a:"; sed 's/^/- /' "$work/notes"; } | tee -a "$work/table"
fi
[ -n "$OUT" ] && cp "$work/table" "$OUT"
[ -z "$SVG" ] || plot "$work/means" "$SVG"
exit 0
