#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# capture.sh [NAME...] - record the machine's `perf stat` output for each case
# of tests/golden/cases into tests/golden/NAME.out (see README).  Needs root,
# perf, a cgroup2 mount and tests/fakecount.so built (make test builds it
# as build/asan/fakecount.so; FAKECOUNT= overrides).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

FAKECOUNT=${FAKECOUNT:-$GOLDEN_DIR/../../build/asan/fakecount.so}
[ -f "$FAKECOUNT" ] || { echo "capture: build $FAKECOUNT first (make test)" >&2; exit 1; }
golden_cgroups_setup || { echo "capture: cannot create the cgroups" >&2; exit 1; }
trap golden_cgroups_cleanup EXIT
while IFS='|' read -r name envs args golden _; do
	case "$name" in ''|'#'*) continue ;; esac
	[ -n "$golden" ] && continue	# perfx-only
	[ $# -gt 0 ] && [[ " $* " != *" $name "* ]] && continue
	if ! golden_run "$GOLDEN_DIR/$name.out" "$envs" "$args" perf; then
		echo "capture: $name: perf failed" >&2
		exit 1
	fi
	if [[ " $args " == *" -I "* ]] &&
	   [ "$(golden_count_intervals "$GOLDEN_DIR/$name.out")" != "$(golden_intervals "$args")" ]; then
		echo "capture: $name: not $(golden_intervals "$args") intervals" >&2
		exit 1
	fi
	echo "captured $name"
done < "$GOLDEN_DIR/cases"
{
	echo "perf: $(perf --version)"
	echo "cpus: $(getconf _NPROCESSORS_ONLN) (each case sees FAKECOUNT_CPUS, $GOLDEN_CPUS by default)"
	echo "locale: C"
} > "$GOLDEN_DIR/MACHINE"
