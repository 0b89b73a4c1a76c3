#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# bench.sh - perfx's own options of the benchmarks, short runs:
# inject-build-id's --injector, --floor, --buffered and --seed (every
# injector gets the same bytes, per record or buffered, and another seed
# other bytes; a failing injector fails the run, no hang; perf's output
# without them), and synthesize's --source and --floor.
# env: PERFX.  Prints TAP lines.
set -uo pipefail

PERFX=${PERFX:?}
. "$(dirname "$0")/tap.sh"
tap_init bench
tap_workdir

check() { if "$@" && sanitizer_clean; then ok "$what"; else notok "$what"; fi; }
# after a compound condition (A && B): its status decides, not A's alone
verdict() { if [ $? -eq 0 ] && sanitizer_clean; then ok "$what"; else notok "$what"; fi; }
# ib ARGS...: a small inject-build-id run, stdout to $work/out
ib() { "$PERFX" bench internals inject-build-id -i 1 -m 3 -n 5 "$@" > "$work/out" 2> "$work/err"; }
# keep N: an injector that keeps the stream in $work/N
keep() { echo "sh -c cat>$work/$1 sh"; }
# same A B: the same bytes, a pipe-mode stream
same()
{
	cmp -s "$work/$1" "$work/$2" &&
	[ "$(head -c 16 "$work/$1" | od -An -tx8 | tr -s ' ')" = " 32454c4946524550 0000000000000010" ]
}

what="inject-build-id: perf's output without perfx's options"
ib
check test $? = 0 -a "$(grep -c 'Average' "$work/out")" = 6 -a \
	"$(grep -c 'Injector:\|CPU time' "$work/out")" = 0

what="--injector twice and --floor: each one's block, with its CPU time"
ib --injector "$PERFX inject" --injector "$(keep a)" --floor
check test $? = 0 -a "$(grep -c 'Injector: ' "$work/out")" = 6 -a \
	"$(grep -c 'injector CPU time per event: [0-9.]* usec' "$work/out")" = 6 -a \
	"$(grep -c 'Injector: cat' "$work/out")" = 2

what="--seed: every injector gets the same stream, a pipe-mode one"
ib --seed 7 --injector "$(keep a)" --injector "$(keep b)"
check same a b

# untask N: $work/N with the task's ids (the benchmark's pid) as 0: in a
# FORK its pid and tid, in an MMAP2 its pid and tid, in a SAMPLE its TID
untask()
{
	python3 - "$work/$1" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
fields = {7: (8, 16), 10: (8, 12), 9: (24, 28)}	# FORK, MMAP2, SAMPLE
off = 16
while off + 8 <= len(d):
    rtype, size = struct.unpack_from('<I', d, off)[0], struct.unpack_from('<H', d, off + 6)[0]
    for f in fields.get(rtype, ()):
        struct.pack_into('<I', d, off + f, 0)
    off += size or len(d)
open(sys.argv[1], 'wb').write(d)
PY
}

what="--buffered: the same bytes in fewer writes (but for the task's id)"
cp "$work/a" "$work/unbuffered"
ib --seed 7 --buffered --injector "$(keep a)"
untask a
untask unbuffered
check same a unbuffered

what="--seed: another seed, another stream"
ib --seed 8 --injector "$(keep a)"
rc=$?
untask a
test $rc = 0 && ! same a unbuffered
verdict

what="an injector that fails: exit 1 and the message, no hang"
timeout 60 "$PERFX" bench internals inject-build-id -i 1 -m 3 -n 5 --injector false \
	> "$work/out" 2> "$work/err"
check test $? = 1 -a "$(grep -c 'Build-id injection failed: false' "$work/out")" = 1

what="-m 0: refused with exit 129, no sanitizer report (perf's run crashes)"
ib -m 0
test $? = 129 && grep -q "switch 'm' expects a number of mmaps above 0" "$work/err"
verdict

what="-m 10: a FINISHED_ROUND (a record without a body) in the stream, no sanitizer report"
"$PERFX" bench internals inject-build-id -i 1 -m 10 -n 1 > "$work/out" 2> "$work/err"
check test $? = 0 -a "$(grep -c 'Average' "$work/out")" = 6

what="--seed x: perf's error and exit 129"
ib --seed x
test $? = 129 && grep -q -- "--seed" "$work/err"
verdict

# synth RUN ARGS...: a one-iteration synthesize -t run
synth() { "$PERFX" bench internals synthesize -t -m 1 -M 1 -I 1 "$@" > "$work/out" 2> "$work/err"; }

what="synthesize --source proc: the source is said, records per event"
synth --source proc
check test $? = 0 -a "$(grep -c 'threads: 1 (proc)' "$work/out")" = 1 -a \
	"$(grep -c 'Average time per event' "$work/out")" = 1

what="synthesize --source bpf: the BPF task iterator"
synth --source bpf
rc=$?
if [ $rc -ne 0 ] && grep -qE 'synthesis failed: .*\((EPERM|EINVAL|ENOENT|ENOTTY|EOPNOTSUPP|ENOSYS|E2BIG|EACCES|ESRCH)\)' "$work/err"; then
	skip "$what" "no BPF task iterator here: $(grep -o '([A-Z0-9]*)' "$work/err" | tail -1)"
else
	check test $rc = 0 -a "$(grep -c 'threads: 1 (bpf)' "$work/out")" = 1
fi

what="synthesize --floor: each source's floor, or why BPF has none"
synth --floor
check test $? = 0 -a "$(grep -c 'floor, proc' "$work/out")" = 1 -a \
	"$(grep -c 'floor, bpf\|No BPF task iterator here' "$work/out")" = 1

what="synthesize --source x: the expected values and exit 129"
synth --source x
test $? = 129 && grep -q "expected auto, proc or bpf" "$work/err"
verdict
