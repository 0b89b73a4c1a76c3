# SPDX-License-Identifier: GPL-2.0
# tap.sh - sourced by the test bed's test scripts (sh or bash).
#
# t DESC CMD... runs CMD and prints a TAP line; on failure the last lines
# of its output follow as comments.  tap_summary NAME prints the line that
# make check counts and returns non-zero if anything failed.
n=0
pass=0
fail=0
skip=0

t()
{
	desc=$1
	shift
	n=$((n + 1))
	if out=$("$@" 2>&1); then
		pass=$((pass + 1))
		echo "ok $n $desc"
	else
		fail=$((fail + 1))
		echo "not ok $n $desc"
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/# /'
	fi
}

tap_summary()
{
	echo "$1: $pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
}
