#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# run-tests.sh - perfx's host tests: the unit tests (TESTBIN/test-*), the
# golden comparisons against perf's recorded outputs, the error paths,
# perfx list and the usage texts against the machine's perf, perfx inject
# against perf inject (tests/inject.sh), perfx record against perf
# (tests/record.sh), on a host busy with 3,000 threads
# (tests/record-load.sh) and into every kind of output path
# (tests/output-paths.sh), the header features and records it writes
# beside perf's (tests/record-header.sh), and its --affinity and --aio watched
# from outside (tests/record-numa.sh), perfx's own benchmark options (tests/bench.sh),
# a libFuzzer smoke run of the perf.data reader, the live interop
# comparisons with perf, BPF mode against the other cgroup modes on
# real workloads (tests/cgroup-modes.sh), --follow-cgroups as cgroups come
# and go (tests/follow.sh), and stat --serve scraped over HTTP
# (tests/serve.sh) and by a Prometheus server (tests/prometheus.sh).
# Prints each suite's TAP lines and ends with
#   perfx: N xfail
#   perfx: N passed, N failed, N skipped
# the known bugs ("not ok ... # TODO", golden.sh's XFAIL cases) counted
# apart, neither passed, failed nor skipped, on a line of their own: the
# last line, the summary, keeps the layout scripts/check sums (a fourth
# field there would not parse).  Exits non-zero if anything failed.
#
# env (set by `make test`): PERFX (sanitizer build), PERFX_PLAIN (the
# normal build), SYNTH_POPULATION (a still population of threads),
# FAKECOUNT (the counting shim), FAILALLOC (the malloc-failing shim), TESTBIN (unit test binaries), FUZZER (the
# reader's libFuzzer target, if clang built it)
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
PERFX=${PERFX:?} TESTBIN=${TESTBIN:?} FAKECOUNT=${FAKECOUNT:?} FAILALLOC=${FAILALLOC:?}
export PERFX FAKECOUNT FAILALLOC
pass=0
fail=0
skip=0
xfail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# suite NAME CMD... - run CMD, echo its TAP lines, count them
suite()
{
	local name=$1 rc before t0=$SECONDS

	shift
	echo "# $name"
	before=$((pass + fail + skip + xfail))
	"$@" > "$log" 2>&1
	rc=$?
	cat "$log"
	echo "# $name took $((SECONDS - t0))s"
	while IFS= read -r line; do
		case "$line" in
		"not ok "*"# TODO"*) xfail=$((xfail + 1)) ;;
		"not ok "*) fail=$((fail + 1)) ;;
		"ok "*"# SKIP"*) skip=$((skip + 1)) ;;
		"ok "*) pass=$((pass + 1)) ;;
		esac
	done < "$log"
	if [ "$((pass + fail + skip + xfail))" -eq "$before" ] ||
	   { [ $rc -ne 0 ] && ! grep -q "^not ok " "$log"; }; then
		echo "not ok - $name exited $rc without a failing test line"
		fail=$((fail + 1))
	fi
}

for t in "$TESTBIN"/test-*; do
	[ -x "$t" ] && suite "$(basename "$t")" "$t"
done
suite golden "$here/golden.sh"
suite errors "$here/errors.sh"
suite compat "$here/compat.sh"
suite list "$here/list.sh"
suite usage "$here/usage.sh"
suite inject "$here/inject.sh"
suite record "$here/record.sh"
suite output-paths "$here/output-paths.sh"
suite record-load "$here/record-load.sh"
suite record-header "$here/record-header.sh"
suite record-numa "$here/record-numa.sh"
suite bench "$here/bench.sh"
suite fuzz "$here/fuzz.sh"
# interop runs the sanitizer build too; perf and perfx count the same dd
suite interop python3 "$here/interop.py"
suite cgroup-modes "$here/cgroup-modes.sh"
suite follow "$here/follow.sh"
suite serve "$here/serve.sh"
suite prometheus "$here/prometheus.sh"
echo "perfx: $xfail xfail"
echo "perfx: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
