#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# capture.sh [NAME...] - record the machine's `perf stat` output for each case
# of tests/golden/cases into tests/golden/NAME.out (see README).  Needs root,
# perf, a cgroup2 mount and tests/fakecount.so built (make test builds it
# as build/asan/fakecount.so; FAKECOUNT= overrides).
set -euo pipefail
export LC_ALL=C	# the comparisons run perfx in the C locale too
. "$(dirname "$0")/lib.sh"

FAKECOUNT=${FAKECOUNT:-$GOLDEN_DIR/../../build/asan/fakecount.so}
[ -f "$FAKECOUNT" ] || { echo "capture: build $FAKECOUNT first (make test)" >&2; exit 1; }
golden_cgroups_setup || { echo "capture: cannot create the cgroups" >&2; exit 1; }
trap golden_cgroups_cleanup EXIT
out=$(mktemp)
while IFS='|' read -r name envs args golden extra; do
	case "$name" in ''|'#'*) continue ;; esac
	[ -n "$golden" ] && continue	# perfx-only
	[ $# -gt 0 ] && [[ " $* " != *" $name "* ]] && continue
	# shellcheck disable=SC2086
	env $envs LD_PRELOAD="$FAKECOUNT" perf stat $(golden_args "$args" "$out") \
		2> "$GOLDEN_DIR/$name.out" > /dev/null || true
	if [[ $args == *@OUT* ]]; then
		cat "$out" > "$GOLDEN_DIR/$name.out"
	fi
	echo "captured $name"
done < "$GOLDEN_DIR/cases"
rm -f "$out"
{
	echo "perf: $(perf --version)"
	echo "cpus: $(getconf _NPROCESSORS_ONLN)"
	echo "locale: $LC_ALL"
} > "$GOLDEN_DIR/MACHINE"
