# SPDX-License-Identifier: GPL-2.0
"""switch-trace.py - where a round trip's instructions go, one by one.

Run by bench/cgroup-switch-icount.sh -t as a gdb-multiarch script against
QEMU's gdbstub: waits until the write() at TRACE_BREAK has been hit
TRACE_SKIP times (the ping-pong is then running), then single-steps that
vCPU (QEMU steps with its interrupts and timers off) through TRACE_TRIPS
round trips, two write() calls each, and writes "profile PC COUNT" for
every PC executed, and "trace STEPS TRIPS", to TRACE_OUT.  Every
instruction is counted: no sampling, no skid.
"""
import os

import gdb

MASK = (1 << 64) - 1
# a round trip is some 10,000 instructions: give up well beyond
STEPS_MAX = 200000


def main():
    brk = int(os.environ["TRACE_BREAK"], 16)
    trips = int(os.environ["TRACE_TRIPS"])
    gdb.execute("set pagination off")
    gdb.execute("set confirm off")
    gdb.execute("target remote :" + os.environ["TRACE_PORT"])
    bp = gdb.Breakpoint("*0x%x" % brk, internal=True)
    bp.ignore_count = int(os.environ["TRACE_SKIP"])
    gdb.execute("continue")
    bp.enabled = False

    counts = {}
    hits = steps = 0
    while hits < 2 * trips:
        gdb.execute("stepi", to_string=True)
        pc = int(gdb.parse_and_eval("$pc")) & MASK
        counts[pc] = counts.get(pc, 0) + 1
        hits += pc == brk
        steps += 1
        if steps > STEPS_MAX * trips:
            raise gdb.GdbError("no round trip within %d steps" % steps)
    with open(os.environ["TRACE_OUT"], "w") as out:
        for pc, n in sorted(counts.items()):
            out.write("profile %016x %d\n" % (pc, n))
        out.write("trace %d %d\n" % (steps, trips))
    gdb.execute("kill")


main()
