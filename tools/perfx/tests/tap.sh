# SPDX-License-Identifier: GPL-2.0
# tap.sh - sourced by perfx's host shell tests (bash).
#
#   . tap.sh; tap_init NAME
#   ok DESC; notok DESC; skip DESC REASON   TAP lines "ok N - NAME: DESC"
#   A && B; verdict                         ok or notok "$what" by the status
#                                           of the whole chain (check A && B
#                                           would decide by A alone)
#   sanitizer_clean [FILE...]               no ASan/LSan/UBSan report in
#                                           FILEs (default: $work/err)
#   tap_workdir                             $work, a directory removed at
#                                           exit; a failed step's $work/err
#                                           is its diagnostic
#
# notok then calls tap_diag, if the test defines it, to print the output
# of the failed step as "#" comment lines.  The sanitizer exit codes tell a
# sanitizer report apart from perfx's own failures.
export LSAN_OPTIONS=exitcode=201 ASAN_OPTIONS=exitcode=202 UBSAN_OPTIONS=exitcode=203
n=0
tap_name=

tap_init() { tap_name=$1; }

tap_workdir()
{
	work=$(mktemp -d) || exit 1
	trap 'rm -rf "$work"' EXIT
	declare -F tap_diag > /dev/null ||
		tap_diag() { sed 's/^/#   /' "$work/err" 2> /dev/null | head -8; }
}

ok() { n=$((n + 1)); echo "ok $n - $tap_name: $1"; }

notok()
{
	n=$((n + 1))
	echo "not ok $n - $tap_name: $1"
	if declare -F tap_diag > /dev/null; then
		tap_diag
	fi
}

skip() { n=$((n + 1)); echo "ok $n - $tap_name: $1 # SKIP $2"; }

# tap_cgroup2 - the cgroup2 mount in $mnt, with a controller enabled at
# its root: on 6.12 without the cgroup fix, children made before anything
# writes the root's subtree_control get no perf_event css; 1 without one
tap_cgroup2()
{
	local c

	mnt=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
	[ -n "$mnt" ] || return 1
	for c in pids memory cpu; do
		grep -qw "$c" "$mnt/cgroup.controllers" 2> /dev/null &&
			echo "+$c" > "$mnt/cgroup.subtree_control" 2> /dev/null && break
	done
	return 0
}

# skip_all REASON - every test named in the suite's TESTS array skips
skip_all()
{
	local t

	for t in "${TESTS[@]}"; do
		skip "$t" "$1"
	done
	exit 0
}

verdict() { if [ $? -eq 0 ]; then ok "$what"; else notok "$what"; fi; }

sanitizer_clean()
{
	[ $# -gt 0 ] || set -- "$work/err"
	! grep -qE 'ERROR: (Address|Leak)Sanitizer|runtime error:' "$@"
}
