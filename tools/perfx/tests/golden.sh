#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# golden.sh - run perfx stat on every case of golden/cases with the counts
# (and the CPUs) fixed by fakecount.so and compare its output byte for byte
# with perf's recorded output (golden/NAME.out), every interval of it,
# after masking the time-dependent numbers (mask.sed): elapsed/user/sys,
# CPUs utilized, -I timestamps.
#
# A case after a "# XFAIL: reason" line is a known perfx bug: its mismatch
# prints "not ok ... # TODO reason" (run-tests.sh counts it as an xfail,
# neither passed nor skipped), and its match fails, so that the mark is
# removed with the fix.
#
# env: PERFX (binary under test), FAKECOUNT (the shim)
set -uo pipefail
. "$(dirname "$0")/golden/lib.sh"

PERFX=${PERFX:?}
FAKECOUNT=${FAKECOUNT:?}
n=0
xfail=
# the shim goes first, not ASan, whose start-up would slow the workload
# down (it inherits the preload) enough to add -I intervals
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
have_cgroups=
if [ "$(id -u)" = 0 ] && golden_cgroups_setup; then
	have_cgroups=1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "$have_cgroups" ] && golden_cgroups_cleanup' EXIT

while IFS='|' read -r name envs args golden extra; do
	case "$name" in
	'# XFAIL: '*) xfail=${name#\# XFAIL: }; continue ;;
	''|'#'*) continue ;;
	esac
	n=$((n + 1))
	what="golden: perfx stat $args matches perf"
	[ -n "$golden" ] && what="golden: perfx stat ${extra:+$extra }$args ($envs) matches perf's $golden"
	golden=${golden:-$name}
	why=$xfail
	xfail=
	if [[ $args == *@A* ]] && [ -z "$have_cgroups" ]; then
		echo "ok $n - $what # SKIP needs root and a cgroup2 mount"
		continue
	fi
	# shellcheck disable=SC2086
	golden_run "$work/$name.got" "$envs" "$args" "$PERFX" $extra
	rc=$?
	golden_mask "$GOLDEN_DIR/$golden.out" > "$work/$name.want.m"
	golden_mask "$work/$name.got" > "$work/$name.got.m"
	if [ $rc -eq 0 ] && cmp -s "$work/$name.want.m" "$work/$name.got.m"; then
		if [ -n "$why" ]; then
			echo "not ok $n - $what (passes: remove its XFAIL mark)"
		else
			echo "ok $n - $what"
		fi
	else
		echo "not ok $n - $what (exit $rc)${why:+ # TODO $why}"
		diff "$work/$name.want.m" "$work/$name.got.m" | head -20 | sed 's/^/#   /'
	fi
done < "$GOLDEN_DIR/cases"
