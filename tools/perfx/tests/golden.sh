#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# golden.sh - run perfx stat on every case of golden/cases with the counts
# fixed by fakecount.so and compare its output byte for byte with perf's
# recorded output (golden/NAME.out), after masking the time-dependent
# numbers (mask.sed): elapsed/user/sys, CPUs utilized, -I timestamps.
#
# env: PERFX (binary under test), FAKECOUNT (the shim)
set -uo pipefail
. "$(dirname "$0")/golden/lib.sh"

PERFX=${PERFX:?}
FAKECOUNT=${FAKECOUNT:?}
n=0
preload=$FAKECOUNT
asan=$(ldd "$PERFX" 2>/dev/null | awk '/libasan/ { print $3 }')
[ -n "$asan" ] && preload="$asan:$FAKECOUNT"
cpus=$(getconf _NPROCESSORS_ONLN)
golden_cpus=$(awk '/^cpus:/ { print $2 }' "$GOLDEN_DIR/MACHINE")
have_cgroups=
if [ "$(id -u)" = 0 ] && golden_cgroups_setup; then
	have_cgroups=1
	trap golden_cgroups_cleanup EXIT
fi
work=$(mktemp -d)
trap 'rm -rf "$work"; [ -n "$have_cgroups" ] && golden_cgroups_cleanup' EXIT

while IFS='|' read -r name envs args golden extra; do
	case "$name" in ''|'#'*) continue ;; esac
	n=$((n + 1))
	what="golden: perfx stat $args matches perf"
	[ -n "$golden" ] && what="golden: perfx stat ${extra:+$extra }$args ($envs) matches perf's $golden"
	golden=${golden:-$name}
	if [[ $args == *@A* ]] && [ -z "$have_cgroups" ]; then
		echo "ok $n - $what # SKIP needs root and a cgroup2 mount"
		continue
	fi
	if [[ " $args " == *" -a "* || " $args " == *" -C "* ]] && [ "$cpus" != "$golden_cpus" ]; then
		echo "ok $n - $what # SKIP captured on $golden_cpus CPUs, this machine has $cpus"
		continue
	fi
	out=$work/$name.file
	# shellcheck disable=SC2086
	env LC_ALL=C $envs LD_PRELOAD="$preload" "$PERFX" stat $extra \
		$(golden_args "$args" "$out") 2> "$work/$name.err" > /dev/null
	rc=$?
	if [[ $args == *@OUT* ]]; then
		cat "$out" > "$work/$name.got" 2>/dev/null
		cat "$work/$name.err" >> "$work/$name.got"
	else
		cp "$work/$name.err" "$work/$name.got"
	fi
	iv=
	[[ " $args " == *" -I "* ]] && iv=interval
	golden_mask "$GOLDEN_DIR/$golden.out" $iv > "$work/$name.want.m"
	golden_mask "$work/$name.got" $iv > "$work/$name.got.m"
	if [ $rc -eq 0 ] && cmp -s "$work/$name.want.m" "$work/$name.got.m"; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what (exit $rc)"
		diff "$work/$name.want.m" "$work/$name.got.m" | head -20 | sed 's/^/#   /'
	fi
done < "$GOLDEN_DIR/cases"
