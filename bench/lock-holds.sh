#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lock-holds.sh - how long the series holds a CPU context's lock, with
# interrupts off, at K cgroups on a group of E events.
#
#   bench/lock-holds.sh [-k K] [-e E] [-o RESULT.md]
#
# Builds the debug config with bench/patches/perf-cgroup-lock-holds.patch
# (a trace line per hold, measurement only) into build/kbuild-holds: the
# patch is applied to build/linux for that build only and taken out again,
# whatever happens.  Then boots it (2 vCPUs, 4 GiB) and runs
# build/bench/cgroup-share-mem -k K -e E -H: K cgroups (default 65536)
# attached to a group of E (default 8) task-clock events with every
# read_format flag on each CPU; per path, the holds of a batch read, a
# re-attach, a reset and 2000 cross-cgroup round trips on CPU 0.  The
# debug config is what lockdep and the irqsoff tracer run on; its costs
# are higher than a production kernel's, and under TCG a hold that the
# host preempts takes milliseconds, so the mean is what says most.
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

k=65536
e=8
out=
while getopts "k:e:o:" o; do
	case $o in
	k) k=$OPTARG ;;
	e) e=$OPTARG ;;
	o) out=$OPTARG ;;
	*) echo "usage: $PROG [-k K] [-e E] [-o RESULT.md]" >&2; exit 2 ;;
	esac
done

load=$(cut -d' ' -f1-3 /proc/loadavg)
patch=$TOP/bench/patches/perf-cgroup-lock-holds.patch
kbuild=$BUILD/kbuild-holds
"$TOP/scripts/kernel-build" -c debug
make -s -C "$TOP" build/bench/cgroup-share-mem

git -C "$LINUX_SRC" diff --quiet HEAD ||
	die "build/linux has changes of its own; the patch goes on a clean tree"
git -C "$LINUX_SRC" apply "$patch"
trap 'git -C "$LINUX_SRC" apply -R "$patch"' EXIT
KBUILD_OUT=$kbuild "$TOP/scripts/kernel-build" -c debug
git -C "$LINUX_SRC" apply -R "$patch"
trap - EXIT

log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$TOP/scripts/vm" -c debug -k "$kbuild/arch/x86/boot/bzImage" -m 4G -t 3000 -- \
	"$TOP/build/bench/cgroup-share-mem" -k "$k" -e "$e" -H | tee "$log"
if [ -n "$out" ]; then
	{
		echo "# Context lock holds of the series, K = $k, a group of $e"
		echo
		echo "    bench/lock-holds.sh -k $k -e $e -o ${out#$TOP/}"
		echo
		echo "Guest: build/linux at $(git -C "$LINUX_SRC" rev-parse --short HEAD) (6.12 with the"
		echo "series) and $(basename "$patch"), debug config, QEMU TCG, 2 vCPUs;"
		echo "host load average before the run: $load."
		echo
		sed 's/^/    /' "$log"
	} > "$out"
	info "wrote ${out#$TOP/}"
fi
