#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# run_tests.sh TARGET TIMEOUT PROG... - run kselftest binaries as one TAP stream.
#
# Each program's own output is indented as a TAP comment.  Exit status 4 is
# kselftest's SKIP.  The per-case counts come from the harness's "# Totals:"
# line; a program that dies before printing one counts as one case.  The last
# line, "selftests: N passed, N failed, N skipped", is what `make check` sums.
# Programs named in $SKIP_PROGS are not run and count as one skip each,
# with $SKIP_REASON.

target=$1
timeout=$2
shift 2

log=$(mktemp)
trap 'rm -f "$log"' EXIT
n=0
pass=0
fail=0
skip=0
echo "TAP version 13"
echo "1..$#"
for prog in "$@"; do
	n=$((n + 1))
	name=$(basename "$prog")
	echo "# selftests: $target: $name"
	case " $SKIP_PROGS " in
	*" $name "*)
		skip=$((skip + 1))
		echo "ok $n selftests: $target: $name # SKIP $SKIP_REASON"
		continue
		;;
	esac
	timeout -k 5 "$timeout" "$prog" > "$log" 2>&1
	rc=$?
	sed 's/^/# /' "$log"
	totals=$(grep -E '^# Totals: pass:' "$log" | tail -n 1)
	if [ -n "$totals" ]; then
		set -- $(echo "$totals" | sed -E 's/^# Totals: pass:([0-9]+) fail:([0-9]+) xfail:([0-9]+) xpass:([0-9]+) skip:([0-9]+) error:([0-9]+).*/\1 \2 \5 \6/')
		p=$1 f=$2 s=$3 e=$4
		pass=$((pass + p))
		fail=$((fail + f + e))
		skip=$((skip + s))
		# a crash after the totals still fails the program
		[ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ $((f + e)) -eq 0 ] &&
			fail=$((fail + 1))
	elif [ "$rc" -eq 0 ]; then
		pass=$((pass + 1))
	elif [ "$rc" -eq 4 ]; then
		skip=$((skip + 1))
	else
		fail=$((fail + 1))
	fi
	case $rc in
	0) echo "ok $n selftests: $target: $name" ;;
	4) echo "ok $n selftests: $target: $name # SKIP" ;;
	124) echo "not ok $n selftests: $target: $name # TIMEOUT ${timeout}s" ;;
	*) echo "not ok $n selftests: $target: $name # exit=$rc" ;;
	esac
done
echo "selftests: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
