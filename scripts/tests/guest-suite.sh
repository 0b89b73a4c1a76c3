#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# guest-suite.sh - what `make check` runs inside the guest: the kselftests
# (and the perf_events ones again in a cgroup namespace),
# the test bed's own guest checks, the series' perf patches against the
# guest's perf and perfx's guest tests when they exist.
# Every part prints its own "NAME: N passed, N failed, N skipped" line.
top=$(cd "$(dirname "$0")/../.." && pwd)
rc=0

# "# WHAT took Ns" after each part: where the guest's time goes
t=$(date +%s)
took()
{
	echo "# $1 took $(($(date +%s) - t))s"
	t=$(date +%s)
}

echo "guest: $(uname -r), $(nproc) CPUs"
"$top/scripts/tests/guest-cgroup.sh" || rc=1
took guest-cgroup
make -s -C "$top/selftests" run_tests || rc=1
took selftests
# the perf_events selftests once more, in a cgroup namespace
"$top/scripts/tests/guest-selftests-ns.sh" || rc=1
took selftests-ns
"$top/scripts/tests/guest-perf.sh" || rc=1
took guest-perf
if [ -x "$top/tools/perfx/tests/guest/run" ]; then
	"$top/tools/perfx/tests/guest/run" || rc=1
fi
exit $rc
