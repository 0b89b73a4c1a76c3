#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# cgroup-switch-icount.sh - the cost of a cgroup switch, in instructions.
#
#   bench/cgroup-switch-icount.sh [-n BOOTS] [-r ROUNDS] [-q] [-o RESULT.md]
#   bench/cgroup-switch-icount.sh -t MODE [-n TRIPS] [-o RESULT.md]
#   bench/cgroup-switch-icount.sh -B [-n BOOTS] [-r ROUNDS] [-o RESULT.md]
#
# Cross-builds two arm64 kernels with the icount config (scripts/kernel-build
# -a arm64 -c icount): build/linux with the series, and the base tag
# without it (-b).  Each boots BOOTS times (2) under
#   qemu-system-aarch64 -M virt -cpu max -smp 2 -icount shift=0,sleep=off
# where the guest's clock advances one nanosecond per instruction, with
# build/bench/arm64/cgroup-switch-icount as the init of an initramfs: it
# prints, per mode, events E, cgroups K and depth, the nanoseconds of a
# cross-cgroup pipe round trip on CPU 0 (bench/cgroup-switch-icount.c),
# which are instructions executed on both CPUs.  Then prints a markdown
# table of every figure of every boot, the ratios the series is judged by,
# and the largest difference between two boots of one kernel: what this
# benchmark can resolve.  -q measures only K = 200, E = 8, depth 1.
# -t traces MODE (nothing, plain, cgroup or shared) at K = 200, E = 8,
# depth 1 on the series kernel: TRIPS (2) round trips single-stepped
# through QEMU's gdbstub with gdb-multiarch (bench/switch-trace.py), every
# instruction counted, then their instructions per round trip by kernel
# function (bench/switch-trace.awk).  The emulated PMU's overflow
# interrupt cannot do this: under TCG it is taken at the next return to
# user space, so its samples name a syscall's return, not the kernel.
# -B adds perfx's BPF mode, which needs a userland: the series kernel of
# the base config in the full arm64 guest (scripts/vm --arch arm64 -c base
# -n 1 --icount shift=0,sleep=off: 2 vCPUs on one NUMA node, as in the
# main table), the program run there as a process with
# -k (E = 8, depth 1, every K) and -p build/perfx-arm64/perfx, BOOTS
# times: every mode beside the others in one boot, the ratios between
# neighbours as in the main table (the guest's own userland adds a little
# to each figure, so they are not the main table's figures).
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

boots=2
rounds=3000
quick=
out=
trace=
bpf=
while getopts "n:r:qo:t:B" o; do
	case $o in
	n) boots=$OPTARG ;;
	r) rounds=$OPTARG ;;
	q) quick=-q ;;
	o) out=$OPTARG ;;
	t) trace=$OPTARG ;;
	B) bpf=1 ;;
	*) echo "usage: $PROG [-n BOOTS] [-r ROUNDS] [-q] [-o RESULT.md] | -t MODE [-n TRIPS] [-o RESULT.md] | -B [-n BOOTS] [-r ROUNDS] [-o RESULT.md]" >&2
	   exit 2 ;;
	esac
done

# output FILE - stdin to FILE, if given, and to stdout
output()
{
	if [ -n "$1" ]; then
		tee "$1"
	else
		cat
	fi
}

[ -z "$bpf" ] || [ -z "$trace$quick" ] || die "-B takes neither -t nor -q"
"$TOP/scripts/deps" arm64
SECONDS=0
if [ -n "$bpf" ]; then
	"$TOP/scripts/kernel-build" -a arm64 -c base
	make -s -C "$TOP" perfx-arm64 build/bench/arm64/cgroup-switch-icount
	work=$BUILD/bench/icount-bpf
	mkdir -p "$work"
	# before the result file, which may be in the tree, is written
	perfx_rev=$(git -C "$TOP" describe --always --dirty)
	logs=()
	for b in $(seq "$boots"); do
		info "booting the arm64 guest ($b of $boots), $(elapsed)"
		"$TOP/scripts/vm" --arch arm64 -c base -n 1 --icount shift=0,sleep=off -t 3600 -- \
			"$BUILD/bench/arm64/cgroup-switch-icount" -k -r "$rounds" \
			-p "$BUILD/perfx-arm64/perfx" < /dev/null > "$work/guest-$b.raw" 2>&1 ||
			die "the guest run failed; its output: ${work#$TOP/}/guest-$b.raw"
		tr -d '\r' < "$work/guest-$b.raw" | grep '^icount ' > "$work/series-$b.log" || true
		grep -q '^icount end$' "$work/series-$b.log" ||
			die "the program did not finish; its output: ${work#$TOP/}/guest-$b.raw"
		logs+=("$work/series-$b.log")
	done
	{
		echo "# The cost of a cgroup switch with perfx's BPF mode, in instructions"
		echo
		echo "\`bench/cgroup-switch-icount.sh -B -n $boots -r $rounds\`, $(date -u +%Y-%m-%d):"
		echo "the arm64 kernel (config base) of build/linux with the series"
		echo "($(git -C "$LINUX_SRC" describe --always --tags)) in the full arm64 guest,"
		echo "scripts/vm --arch arm64 -c base -n 1 --icount shift=0,sleep=off (2 vCPUs, one node);"
		echo "the program as a process, perfx $perfx_rev"
		echo "for the bpf mode; $rounds cross-cgroup pipe round trips pinned to CPU 0,"
		echo "after $((rounds / 10)) to warm up.  Instructions per round trip (both CPUs), per boot."
		echo
		awk -v boots="$boots" -v kernels=1 -f "$TOP/bench/cgroup-switch-icount.awk" "${logs[@]}"
	} | output "$out"
	info "done in $(elapsed)"
	exit 0
fi
"$TOP/scripts/kernel-build" -a arm64 -c icount
# a trace needs only the series kernel
[ -n "$trace" ] || "$TOP/scripts/kernel-build" -a arm64 -c icount -b
make -s -C "$TOP" build/bench/arm64/cgroup-switch-icount

work=$BUILD/bench/icount
mkdir -p "$work"
# the initramfs: the program as /init, and a console for it
"$BUILD/kbuild-arm64-icount/usr/gen_init_cpio" - > "$work/initramfs.cpio" <<EOF
dir /dev 0755 0 0
nod /dev/console 0600 0 0 c 5 1
file /init $BUILD/bench/arm64/cgroup-switch-icount 0755 0 0
EOF

# the guest of every run: one nanosecond of clock per instruction
QEMU=(timeout 1800 qemu-system-aarch64 -M virt -cpu max -smp 2 -m 1G
      -icount shift=0,sleep=off -nographic -no-reboot)

# boot KERNEL LOG ARGS - one run of the program; its lines go to LOG
boot()
{
	"${QEMU[@]}" \
		-kernel "$1" -initrd "$work/initramfs.cpio" \
		-append "console=ttyAMA0 quiet -- -r $rounds $3" \
		< /dev/null > "$2.raw" 2>&1 || true
	tr -d '\r' < "$2.raw" | grep '^icount ' > "$2" || true
	grep -q '^icount end$' "$2" ||
		die "the guest did not finish (${1#$TOP/}); its console: ${2#$TOP/}.raw"
}

if [ -n "$trace" ]; then
	vmlinux=$BUILD/kbuild-arm64-icount/vmlinux
	prog=$BUILD/bench/arm64/cgroup-switch-icount
	port=$((20000 + $$ % 20000))
	info "tracing $trace on the series kernel, gdbstub on port $port"
	# bounded, and killed on any exit: it must not outlive the trace
	"${QEMU[@]}" -gdb tcp:127.0.0.1:$port \
		-kernel "$BUILD/kbuild-arm64-icount/arch/arm64/boot/Image" \
		-initrd "$work/initramfs.cpio" \
		-append "console=ttyAMA0 quiet -- -r 100000 -m $trace" \
		< /dev/null > "$work/trace-$trace.raw" 2>&1 &
	qemu=$!
	trap 'kill $qemu 2>/dev/null || true' EXIT
	trap 'exit 143' INT TERM
	sleep 1
	# past the first 1000 write()s the ping-pong is running
	TRACE_PORT=$port TRACE_SKIP=1000 TRACE_TRIPS=$boots TRACE_OUT=$work/trace-$trace.log \
	TRACE_BREAK=$(aarch64-linux-gnu-nm "$prog" | awk '$3 == "__libc_write" { print $1 }') \
		timeout 1800 gdb-multiarch -q -batch -nx -x "$TOP/bench/switch-trace.py" "$vmlinux" \
		> "$work/trace-$trace.gdb" 2>&1 ||
		die "the trace failed; gdb said: ${work#$TOP/}/trace-$trace.gdb"
	{
		echo "\`bench/cgroup-switch-icount.sh -t $trace -n $boots\`, $(date -u +%Y-%m-%d):"
		echo "$trace at E = 8, K = 200, depth 1 on the series kernel"
		echo "($(git -C "$LINUX_SRC" describe --always --tags)), $boots round trips single-stepped on CPU 0."
		echo
		aarch64-linux-gnu-nm -n "$vmlinux" |
			awk -f "$TOP/bench/switch-trace.awk" - "$work/trace-$trace.log"
	} | output "$out"
	info "done in $(elapsed)"
	exit 0
fi

logs=()
for kernel in series base; do
	image=$BUILD/kbuild-arm64-icount$([ $kernel = series ] || echo -base)/arch/arm64/boot/Image
	for b in $(seq "$boots"); do
		info "booting the $kernel kernel ($b of $boots), $(elapsed)"
		boot "$image" "$work/$kernel-$b.log" "$quick"
		logs+=("$work/$kernel-$b.log")
	done
done

report()
{
	echo "# The cost of a cgroup switch, in instructions"
	echo
	echo "\`bench/cgroup-switch-icount.sh -n $boots -r $rounds${quick:+ -q}\`, $(date -u +%Y-%m-%d):"
	echo "arm64 kernels (config icount) of build/linux with the series"
	echo "($(git -C "$LINUX_SRC" describe --always --tags)) and without (tag $BASE_TAG),"
	echo "qemu-system-aarch64 -M virt -cpu max -smp 2 -icount shift=0,sleep=off;"
	echo "$rounds cross-cgroup pipe round trips pinned to CPU 0, after $((rounds / 10))"
	echo "to warm up.  Instructions per round trip (both CPUs), per boot."
	echo
	awk -v boots="$boots" -f "$TOP/bench/cgroup-switch-icount.awk" "${logs[@]}"
}
report | output "$out"
info "done in $(elapsed)"
