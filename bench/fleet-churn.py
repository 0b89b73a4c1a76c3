#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# fleet-churn.py - the churn of bench/fleet.sh, in one process: no fork a
# step, and a schedule that catches up rather than drifts when a step is
# late, so that the churn asked for is the churn made whatever the
# scrapes cost.
#
#   fleet-churn.py DIR FIRST NEXT PER_MIN SECONDS [PID...]
#
# DIR/cFIRST .. DIR/c(NEXT-1) exist, more of them than PIDs, named with
# six digits (every name as long: nothing perfx serves grows with the
# numbers).  Every 60/PER_MIN s, DIR/cNEXT is made, the PIDs (sleepers) moved into the
# newest cgroups, one each, and DIR/cFIRST removed, for SECONDS or until
# SIGTERM.  Prints "FIRST NEXT LATE_MS": the live range at the end and the
# latest a step ran behind its time; on an error, what failed instead.
import os
import signal
import sys
import time


def main():
    d, first, nxt, per_min = sys.argv[1], *map(int, sys.argv[2:5])
    secs, pids = float(sys.argv[5]), sys.argv[6:]
    if per_min < 1 or nxt - first <= len(pids):
        sys.exit(f"fleet-churn: want PER_MIN >= 1 and more cgroups than the {len(pids)} sleepers")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    step = 60.0 / per_min
    t0 = time.monotonic()
    late = 0.0
    i = 1
    try:
        while t0 + i * step - t0 <= secs:
            due = t0 + i * step
            now = time.monotonic()
            if now < due:
                time.sleep(due - now)
            else:
                late = max(late, now - due)
            os.mkdir(f"{d}/c{nxt:06d}")
            nxt += 1
            for k, pid in enumerate(pids):
                with open(f"{d}/c{nxt - 1 - k:06d}/cgroup.procs", "w") as f:
                    f.write(pid)
            os.rmdir(f"{d}/c{first:06d}")
            first += 1
            i += 1
    finally:
        print(first, nxt, round(late * 1000))


if __name__ == "__main__":
    main()
