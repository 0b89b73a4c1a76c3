#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""interop.py - run the machine's `perf stat` and `perfx stat` on the same
real workload in each output format and compare.

Layout: exact after every number is replaced by N and runs of blanks by one
blank (the numbers differ, so their widths may).  Values, per event, within
these tolerances (both tools count the same workload, not the same run):
  page-faults, minor-faults, major-faults: 25% + 20
  context-switches, cpu-migrations, cgroup-switches: 75% + 200 (they follow
      the machine's load: preemptions of dd by other tasks)
  task-clock, cpu-clock: factor 3 + 2 msec (a fork+exec of a short command)
With -a every other task on the machine counts too (a kernel build beside
it doubles anything), so system-wide values are only checked to be
present and non-negative; their layout is still compared exactly.
The workload (dd with a 16 MB buffer) takes ~4000 page faults.
  <not supported> / <not counted>: identical
env: PERFX (binary under test).  Prints TAP lines.
"""
import json
import os
import re
import subprocess
import sys

PERFX = os.environ["PERFX"]
EVENTS = "task-clock,context-switches,cpu-migrations,page-faults,minor-faults,major-faults,cycles"
WORKLOAD = ["dd", "if=/dev/zero", "of=/dev/null", "bs=16M", "count=20", "status=none"]
CASES = [
    ("default", []),
    ("csv", ["-x,"]),
    ("json", ["-j"]),
    ("no-big-num", ["--no-big-num"]),
    ("system-wide", ["-a"]),
    ("system-wide-csv", ["-a", "-x,"]),
    ("system-wide-json", ["-a", "-j"]),
    # groups: members must count with their leader, not sit <not counted>
    ("groups", ["-e", "{task-clock,context-switches},{page-faults,minor-faults}"]),
    ("groups-system-wide", ["-a", "-x,", "-e", "{task-clock,context-switches,page-faults}"]),
]
NUM = re.compile(r"[0-9][0-9.,]*")
n = 0
failed = 0


def tap(ok, what, detail=""):
    global n, failed
    n += 1
    print("%sok %d - interop: %s" % ("" if ok else "not ", n, what))
    if not ok:
        failed += 1
        for line in detail.splitlines()[:20]:
            print("#   " + line)


def run(tool, args):
    env = dict(os.environ, LC_ALL="C")
    events = [] if "-e" in args else ["-e", EVENTS]
    cmd = [tool, "stat"] + args + events + ["--"] + WORKLOAD
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                       timeout=120)
    return p.returncode, p.stderr.decode()


def layout(text):
    out = []
    for line in text.splitlines():
        line = NUM.sub("N", line)
        # the unit prefix of a rate follows the value
        line = re.sub(r"[KMG]/sec", "/sec", line)
        line = re.sub(r"\s+", " ", line).rstrip()
        out.append(line)
    return out


def values(text, fmt):
    vals = {}
    for line in text.splitlines():
        if fmt == "json":
            if not line.startswith("{"):
                continue
            obj = json.loads(line)
            vals[obj["event"]] = obj["counter-value"]
        elif fmt == "csv":
            f = line.split(",")
            if len(f) >= 3 and f[2]:
                vals[f[2]] = f[0]
        else:
            m = re.match(r"^\s*([0-9][0-9.,]*|<not supported>|<not counted>)\s+(msec)?\s+(\S+)",
                         line)
            if m:
                vals[m.group(3)] = m.group(1).replace(",", "")
    return vals


def close(event, a, b, system_wide):
    if a.startswith("<") or b.startswith("<"):
        return a == b
    x, y = float(a), float(b)
    if system_wide:
        # every other task on the machine counts too: only sanity
        return x >= 0 and y >= 0
    if event in ("page-faults", "minor-faults", "major-faults"):
        return abs(x - y) <= 0.25 * max(x, y) + 20
    if event in ("context-switches", "cpu-migrations", "cgroup-switches"):
        return abs(x - y) <= 0.75 * max(x, y) + 200
    if event in ("task-clock", "cpu-clock"):
        return max(x, y) <= 3 * min(x, y) + 2
    return True


def main():
    try:
        subprocess.run(["perf", "--version"], capture_output=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        tap(True, "perf stat vs perfx stat # SKIP no perf on this machine")
        return 0
    for name, args in CASES:
        fmt = "json" if "-j" in args else "csv" if "-x," in args else "std"
        rc1, a = run("perf", args)
        rc2, b = run(PERFX, args)
        if rc1 != 0 and "-a" in args:
            tap(True, "%s # SKIP perf stat -a fails here (exit %d)" % (name, rc1))
            continue
        tap(rc1 == rc2, "%s: same exit status (%d, %d)" % (name, rc1, rc2), b)
        la, lb = layout(a), layout(b)
        tap(la == lb, "%s: same layout" % name,
            "\n".join("perf:  %s\nperfx: %s" % (x, y) for x, y in zip(la, lb) if x != y))
        va, vb = values(a, fmt), values(b, fmt)
        bad = [e for e in va if e not in vb or not close(e, va[e], vb[e], "-a" in args)]
        want = 7 if "-e" not in args else len(args[args.index("-e") + 1].split(","))
        counted = all(not v.startswith("<not counted>") for v in list(va.values()) + list(vb.values()))
        tap(va.keys() == vb.keys() and not bad and len(va) == want and counted,
            "%s: same events, values within tolerance" % name,
            "perf:  %s\nperfx: %s\noff: %s" % (va, vb, bad))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
