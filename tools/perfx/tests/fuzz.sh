#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# fuzz.sh - short smoke runs of the libFuzzer targets: the perf.data
# reader over a seed corpus of perf's and perfx's files and pipes, for
# FUZZ_TIME seconds (default 20), the /proc parsers over this machine's
# maps, stat, status, kallsyms, modules and mounts, the BPF task stream's
# parser over a stream of two processes, the build-id reader's ELF
# header parser over the heads of a few of this machine's ELF files, and
# the cgroup watcher's inotify event parser over a read of mkdirs and
# rmdirs, each for half as long: no crash, leak or sanitizer report.
# env: PERFX, FUZZER, FUZZER_PROCFS, FUZZER_SYNTH, FUZZER_ELF,
# FUZZER_WATCH (the targets; absent without clang).
# Prints TAP lines.
set -uo pipefail

PERFX=${PERFX:?}
. "$(dirname "$0")/tap.sh"
tap_init fuzz
tap_workdir

# fuzz WHAT TARGET CORPUS SECONDS MAX_LEN
fuzz()
{
	local what="$4 s of libFuzzer on $1: no crash, leak or sanitizer report"

	if [ -z "$2" ] || [ ! -x "$2" ]; then
		skip "$what" "no clang: the target was not built"
		return
	fi
	if "$2" -max_total_time="$4" -max_len="$5" -rss_limit_mb=1024 \
		-artifact_prefix="$work/" "$3" > "$work/log" 2>&1; then
		ok "$what ($(grep -oE '#[0-9]+' "$work/log" | tail -1 | tr -d '#') runs)"
	else
		notok "$what"
		grep -E 'ERROR|SUMMARY|artifact' "$work/log" | sed 's/^/#   /' | head -8
	fi
}

mkdir "$work/corpus" "$work/proc"
if [ -n "${FUZZER:-}" ] && command -v perf > /dev/null &&
   perf record -q -e cpu-clock -o "$work/corpus/perf.data" -- ls / > /dev/null 2>&1; then
	perf record -q -e cpu-clock -o - -- ls / 2> /dev/null > "$work/corpus/perf.pipe"
	"$(dirname "$0")/aux-pipe.py" "$work/corpus/perf.pipe" "$work/corpus/aux.pipe"
	"$PERFX" inject -b -i "$work/corpus/perf.data" -o "$work/corpus/perfx.data" 2> /dev/null
	"$PERFX" inject -b -i "$work/corpus/perf.data" > "$work/corpus/perfx.pipe" 2> /dev/null
fi
fuzz "the reader" "${FUZZER:-}" "$work/corpus" "${FUZZ_TIME:-20}" 65536

for f in self/maps self/stat self/status self/comm modules mounts; do
	[ -r "/proc/$f" ] && cat "/proc/$f" > "$work/proc/${f//\//-}"
done
head -c 4000 /proc/kallsyms > "$work/proc/kallsyms"
fuzz "the /proc parsers" "${FUZZER_PROCFS:-}" "$work/proc" "$(( ${FUZZ_TIME:-20} / 2 ))" 8192

# bpf/synth-tasks.h: a leader with two maps and a thread, a kernel thread
mkdir "$work/synth"
python3 - "$work/synth/stream" <<'PY'
import struct, sys
def task(flags, tgid, tid, ppid, nr, comm):
    return struct.pack('<IIiiiI16s', 1, flags, tgid, tid, ppid, nr, comm)
def vma(kind, flags, start, end, key):
    return struct.pack('<IIIIQQQQQQQII', 2, kind, flags, 0xfe00000, start, end, 1, 42,
                       key, key + 8, 0, 7, 0)
s = vma(1, 5, 0x400000, 0x401000, 0xffff0000) + vma(2, 5, 0x7f0000, 0x7f2000, 0xffff1000)
s += task(4, 100, 100, 1, 2, b'sleeper') + task(0, 100, 101, 1, 0, b'worker')
s += task(1, 2, 2, 0, 0, b'kthreadd')
open(sys.argv[1], 'wb').write(s)
PY
fuzz "the BPF task stream's parser" "${FUZZER_SYNTH:-}" "$work/synth" "$(( ${FUZZ_TIME:-20} / 2 ))" 8192

mkdir "$work/elf"
for f in /bin/sh /usr/lib/x86_64-linux-gnu/libc.so.6 /usr/lib/x86_64-linux-gnu/libelf.so.1; do
	[ -r "$f" ] && head -c 4096 "$f" > "$work/elf/${f##*/}"
done
fuzz "the ELF header parser" "${FUZZER_ELF:-}" "$work/elf" "$(( ${FUZZ_TIME:-20} / 2 ))" 4096

# struct inotify_event: wd, mask, cookie, len, then len bytes of name
mkdir "$work/watch"
python3 - "$work/watch/events" << 'PY'
import struct, sys
def event(wd, mask, name=b""):
    pad = (len(name) + 16) // 16 * 16 if name else 0
    return struct.pack("<iIII", wd, mask, 0, pad) + name.ljust(pad, b"\0")
IN_CREATE, IN_DELETE, IN_ISDIR, IN_IGNORED, IN_Q_OVERFLOW = 0x100, 0x200, 0x40000000, 0x8000, 0x4000
s = event(1, IN_CREATE | IN_ISDIR, b"web-1") + event(2, IN_DELETE | IN_ISDIR, b"system.slice")
s += event(3, IN_IGNORED) + event(-1, IN_Q_OVERFLOW)
open(sys.argv[1], "wb").write(s)
PY
fuzz "the inotify event parser" "${FUZZER_WATCH:-}" "$work/watch" "$(( ${FUZZ_TIME:-20} / 2 ))" 4096
