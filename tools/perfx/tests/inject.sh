#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# inject.sh - perfx inject against the machine's perf: what perf record
# writes (file and pipe) goes through perfx inject -b into perf report,
# perf script and perf buildid-list, in every file/pipe combination, and
# agrees with perf inject -b; broken inputs (truncated at many offsets,
# flipped bytes, garbage) end in a message and exit 255, never a crash,
# a hang, a sanitizer report or a half-written -o file.
# env: PERFX; INJECT_QUICK=1 (the guest, under TCG) cuts the inputs at
# fewer offsets and flips bytes in fewer copies.  Prints TAP lines.
set -uo pipefail

PERFX=${PERFX:?}
. "$(dirname "$0")/tap.sh"
tap_init inject
tap_workdir

if ! command -v perf > /dev/null ||
   ! perf record -q -e cpu-clock -F 4000 -o "$work/p.pipe" -- \
	sh -c 'head -c 20000000 /dev/zero | md5sum > /dev/null; ls -R /usr/lib > /dev/null' \
	> /dev/null 2> "$work/err" < /dev/null; then
	skip "interop with perf" "perf record -e cpu-clock does not work here"
	exit 0
fi
# the same recording, piped: perf record -o - writes a pipe-mode stream
perf record -q -e cpu-clock -F 4000 -o - -- \
	sh -c 'head -c 20000000 /dev/zero | md5sum > /dev/null' > "$work/p.pipe" 2> /dev/null
perf record -q -e cpu-clock -F 4000 -o "$work/f.data" -- \
	sh -c 'head -c 20000000 /dev/zero | md5sum > /dev/null' > /dev/null 2>&1

# report FILE|- [< IN]: perf report's table without comments
report() { perf report -i "$1" --stdio --sort comm,dso,sym 2> /dev/null | grep -v '^#' | grep -v '^$'; }
# nsamples: the "Samples: N" perf report counts
nsamples() { perf report -i "$1" --stdio 2> /dev/null | sed -n 's/^# Samples: \([0-9]*\).*/\1/p' | head -1; }
# build-ids both write: perfx adds the kernel's where samples hit it, perf
# inject adds [vdso]'s at its mmap
bids() { perf buildid-list -i "$1" 2> /dev/null | grep -v -e '\[kernel.kallsyms\]' -e '\[vdso\]' | sort -u; }

check() { if "$@"; then ok "$what"; else notok "$what"; fi; }

what="pipe to pipe: perf report reads perfx inject -b as it reads perf inject -b"
perf inject -b < "$work/p.pipe" > "$work/perf.pipe" 2> /dev/null
"$PERFX" inject -b < "$work/p.pipe" > "$work/perfx.pipe" 2> "$work/err"
check cmp -s <(report - < "$work/perf.pipe") <(report - < "$work/perfx.pipe")

what="pipe to pipe: the pipe header, and the same sample count"
check test "$(head -c 16 "$work/perfx.pipe" | od -An -tx8 | tr -s ' ')" = " 32454c4946524550 0000000000000010" -a \
	"$(nsamples - < "$work/perfx.pipe")" = "$(nsamples "$work/p.pipe")"

what="pipe to file: perf buildid-list has perf inject -b's build-ids"
perf inject -b -i "$work/p.pipe" -o "$work/perf.data" 2> /dev/null
"$PERFX" inject -b -i "$work/p.pipe" -o "$work/perfx.data" 2> "$work/err"
check cmp -s <(bids "$work/perf.data") <(bids "$work/perfx.data")

what="pipe to file: the kernel's build-id from /sys/kernel/notes"
kbid=$(perf buildid-list -k 2> /dev/null)
if ! perf buildid-list -i "$work/perfx.data" 2> /dev/null | grep -q '\[kernel.kallsyms\]'; then
	skip "$what" "no kernel sample"
else
	check grep -q "^$kbid \[kernel.kallsyms\]" <(perf buildid-list -i "$work/perfx.data" 2> /dev/null)
fi

what="pipe to file: perf report and perf script read it, same samples"
check test "$(nsamples "$work/perfx.data")" = "$(nsamples "$work/p.pipe")" -a \
	"$(perf script -i "$work/perfx.data" 2> /dev/null | wc -l)" -gt 0

what="file to pipe: perf report reads it, same samples"
"$PERFX" inject -b -i "$work/f.data" > "$work/f2p.pipe" 2> "$work/err"
check test "$(nsamples - < "$work/f2p.pipe")" = "$(nsamples "$work/f.data")"

what="file to pipe: perf buildid-list reads the build-ids from the stream"
perf inject -b -i "$work/f.data" -o "$work/fperf.data" 2> /dev/null
"$PERFX" inject -b -i "$work/f2p.pipe" -o "$work/f2p2f.data" 2> "$work/err"
check cmp -s <(bids "$work/fperf.data") <(bids "$work/f2p2f.data")

what="file to file: same report as perf inject -b's file"
"$PERFX" inject -b -i "$work/f.data" -o "$work/f2f.data" 2> "$work/err"
check cmp -s <(report "$work/fperf.data") <(report "$work/f2f.data")

what="file to file without -b: the records are copied unchanged"
"$PERFX" inject -i "$work/f.data" -o "$work/copy.data" 2> "$work/err"
check cmp -s <(perf report -D -i "$work/f.data" 2> /dev/null | grep -c '^0x') \
	<(perf report -D -i "$work/copy.data" 2> /dev/null | grep -c '^0x')

# attr_sizes FILE: each attr.size of a file's attrs section, and its attr_size
attr_sizes()
{
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
attr_size, off, size = struct.unpack_from('<3Q', d, 16)
print(attr_size, *[struct.unpack_from('<I', d, o + 4)[0] for o in range(off, off + size, attr_size)])
PY
}
# pipe_attr_sizes: each HEADER_ATTR record's attr.size in a pipe stream on stdin
pipe_attr_sizes()
{
	python3 -c '
import struct, sys
d = sys.stdin.buffer.read()
i, out = 16, []
while i + 8 <= len(d):
    t, size = struct.unpack_from("<I2xH", d, i)
    if t == 64:
        out.append(struct.unpack_from("<I", d, i + 12)[0])
    i += size or len(d)
print(*out)'
}
what="perf 6.1's 128-byte attrs stay 128 bytes in a file: attr_size and each attr.size"
perf record -q -e cpu-clock,task-clock -o "$work/two.data" -- ls / > /dev/null 2>&1
"$PERFX" inject -b -i "$work/two.data" -o "$work/two.out" 2> "$work/err"
check test "$(attr_sizes "$work/two.out")" = "$(attr_sizes "$work/two.data")" -a \
	"$(attr_sizes "$work/two.data")" = "144 128 128"
what="perf 6.1's 128-byte attrs stay 128 bytes in a pipe's HEADER_ATTR records"
"$PERFX" inject -b -i "$work/two.data" > "$work/two.pipe" 2> "$work/err"
check test "$(pipe_attr_sizes < "$work/two.pipe")" = "128 128"
what="perf 6.1's attrs injected: perf report reads the file and the pipe"
reads_both()
{
	perf report -i "$work/two.out" --stdio > /dev/null 2>&1 &&
		perf report -i - --stdio < "$work/two.pipe" > /dev/null 2>&1
}
check reads_both

# add_feature IN OUT ID BODY: IN with a feature section of ID added, as a later perf writes
add_feature()
{
	python3 - "$@" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
feat, body = int(sys.argv[3]), sys.argv[4].encode()
bits = list(struct.unpack_from('<4Q', d, 72))
doff, dsize = struct.unpack_from('<2Q', d, 40)
table = doff + dsize
ids = [i for i in range(256) if bits[i // 64] >> (i % 64) & 1]
secs = [struct.unpack_from('<2Q', d, table + 16 * k) for k in range(len(ids))]
bodies = dict((i, bytes(d[o:o + n])) for i, (o, n) in zip(ids, secs))
bodies[feat] = body
bits[feat // 64] |= 1 << (feat % 64)
ids = sorted(bodies)
out, pos = bytearray(), table + 16 * len(ids)
for i in ids:
    out += struct.pack('<2Q', pos, len(bodies[i]))
    pos += len(bodies[i])
for i in ids:
    out += bodies[i]
struct.pack_into('<4Q', d, 72, *bits)
open(sys.argv[2], 'wb').write(bytes(d[:table]) + bytes(out))
PY
}
what="a file with a later perf's feature 40: read, the feature dropped, perf reads the output"
add_feature "$work/f.data" "$work/later.data" 40 "a later perf's feature"
"$PERFX" inject -b -i "$work/later.data" -o "$work/later.out" 2> "$work/err"
check test $? -eq 0 -a "$(od -An -tx8 -j 72 -N 8 "$work/later.out" | tr -d ' ' | cut -c 6)" = 0 &&
	test "$(nsamples "$work/later.out")" = "$(nsamples "$work/f.data")"

what="--buildid-all: a build-id for every mapped DSO"
"$PERFX" inject --buildid-all -i "$work/p.pipe" -o "$work/all.data" 2> "$work/err"
# perf 6.1 fails on the pipe ("failed to process type"): its file instead
perf inject --buildid-all -i "$work/f.data" -o "$work/perfall.data" 2> /dev/null
perfx_nr=$(bids "$work/all.data" | wc -l)
perf_nr=$(bids "$work/perfall.data" | wc -l)
[ "$perf_nr" -gt 2 ] && [ "$perfx_nr" -ge "$perf_nr" ]
verdict

# perf 6.1's inject --buildid-all fails on a pipe ("failed to process
# type"), so the reference is perf record --buildid-all's file: every
# process maps the same vDSO
what="--buildid-all: perfx's [vdso] build-id (-v) is the one perf record --buildid-all writes"
"$PERFX" inject -v --buildid-all -i "$work/p.pipe" -o "$work/allv.data" 2> "$work/err"
vdso=$(sed -n 's/^perfx: build-id \([0-9a-f]*\) \[vdso\]$/\1/p' "$work/err")
perf record -q --buildid-all -e cpu-clock -o "$work/perf-vdso.data" -- true 2> /dev/null
[ -n "$vdso" ] &&
	[ "$vdso" = "$(perf buildid-list -i "$work/perf-vdso.data" 2> /dev/null | sed -n 's/ \[vdso\]$//p')" ]
verdict

what="a live pipeline: perf record -o - | perfx inject -b | perf report -i -"
live=$(perf record -q -e cpu-clock -o - -- sh -c 'head -c 5000000 /dev/zero | md5sum' 2> /dev/null |
	"$PERFX" inject -b 2> "$work/err" | perf report -i - --stdio 2> /dev/null |
	sed -n 's/^# Samples: \([0-9]*\).*/\1/p' | head -1)
check test "${live:-0}" -gt 0

what="a pipe-format file in, a regular file as stdout: still a pipe stream perf reads"
"$PERFX" inject -b -i "$work/p.pipe" > "$work/stdout.file" 2> "$work/err"
check test "$(nsamples "$work/stdout.file")" = "$(nsamples "$work/p.pipe")"

what="-o the input file itself: read whole, then replaced"
cp "$work/f.data" "$work/same.data"
"$PERFX" inject -b -i "$work/same.data" -o "$work/same.data" 2> "$work/err"
check test "$(nsamples "$work/same.data")" = "$(nsamples "$work/f.data")"

what="-o a FIFO: a pipe stream through it, the FIFO left in place"
mkfifo "$work/fifo"
perf report -i - --stdio < "$work/fifo" > "$work/fifo.report" 2> /dev/null &
"$PERFX" inject -b -i "$work/f.data" -o "$work/fifo" 2> "$work/err"
exec 9<> "$work/fifo" 9>&-	# a writer, should perfx not have opened it: no hang
wait $!
check test -p "$work/fifo" -a "$(sed -n 's/^# Samples: \([0-9]*\).*/\1/p' "$work/fifo.report" | head -1)" = \
	"$(nsamples "$work/f.data")"

# a device of our own, not the machine's /dev/null: a regression replaces only it
what="-o a character device (a copy of /dev/null): written in place, not renamed over"
if mknod "$work/null" c 1 3 2> /dev/null; then
	"$PERFX" inject -b -i "$work/f.data" -o "$work/null" 2> "$work/err"
	check test $? = 0 -a -c "$work/null" -a -z "$(ls "$work" | grep 'null\.perfx-')"
else
	skip "$what" "mknod is not allowed here"
fi

# a container's file: "$work/prog" is sleep here and, bind-mounted in a
# mount namespace of its own, tail there; the build-id is the one it runs
what="a live process in another mount namespace: its DSO's build-id is read there"
cp /usr/bin/sleep "$work/prog"
unshare -m --propagation private sh -c \
	"mount --bind /usr/bin/tail '$work/prog' && exec '$work/prog' -f /dev/null" 2> /dev/null &
nspid=$!
for _ in 1 2 3 4 5 6 7 8 9 10; do
	[ "$(readlink "/proc/$nspid/ns/mnt")" != "$(readlink /proc/self/ns/mnt)" ] &&
		grep -q "$work/prog" "/proc/$nspid/maps" 2> /dev/null && break
	sleep 0.2
done
if ! grep -q "$work/prog" "/proc/$nspid/maps" 2> /dev/null; then
	skip "$what" "unshare -m and mount --bind do not work here"
else
	perf record -q -e cpu-clock -p "$nspid" -o "$work/ns.pipe" -- sleep 0.2 > /dev/null 2>&1
	"$PERFX" inject -v --buildid-all -i "$work/ns.pipe" -o "$work/ns.data" 2> "$work/err"
	# readelf's "Build ID: HEX" of the file mapped
	want=$(readelf -n /usr/bin/tail | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
	check grep -qx "perfx: build-id $want $work/prog" "$work/err"
fi
kill "$nspid" 2> /dev/null
wait "$nspid" 2> /dev/null

# tracepoints: a pipe's TRACING_DATA record and the data after it
perf record -q -e sched:sched_switch -a -o - -- sleep 0.2 > "$work/tp.pipe" 2> /dev/null
fields() { perf script -i "$1" 2> /dev/null | sed -n 's/.*sched:sched_switch: //p'; }
perf script -i - < "$work/tp.pipe" 2> /dev/null | sed -n 's/.*sched:sched_switch: //p' > "$work/tp.want"
what="tracepoints, pipe to pipe: the tracing data passes, fields print as perf's"
"$PERFX" inject -b < "$work/tp.pipe" > "$work/tp.out" 2> "$work/err"
check diff "$work/tp.want" <(perf script -i - < "$work/tp.out" 2> /dev/null | sed -n 's/.*sched:sched_switch: //p')
what="tracepoints, pipe to file: the tracing data becomes the feature, fields print"
"$PERFX" inject -b -i "$work/tp.pipe" -o "$work/tp.data" 2> "$work/err"
check diff "$work/tp.want" <(fields "$work/tp.data")
what="tracepoints, file to pipe: the feature becomes the record again"
"$PERFX" inject -i "$work/tp.data" > "$work/tp2.out" 2> "$work/err"
check diff "$work/tp.want" <(perf script -i - < "$work/tp2.out" 2> /dev/null | sed -n 's/.*sched:sched_switch: //p')
what="tracepoints: a pipe cut inside its tracing data is refused, naming it"
head -c "$(($(grep -abo 'tracing' "$work/tp.pipe" | head -1 | cut -d: -f1) + 100))" "$work/tp.pipe" > "$work/tp.cut"
"$PERFX" inject -b -i "$work/tp.cut" -o "$work/tp.cut.out" > /dev/null 2> "$work/err"
[ $? -eq 255 ] && grep -q 'TRACING_DATA record: [0-9]* bytes of tracing data follow it, the input ends after' "$work/err" &&
	[ ! -e "$work/tp.cut.out" ]
verdict
what="tracepoints: a TRACING_DATA size of 3.5 GiB allocates only what follows it"
python3 - "$work/tp.cut" "$work/tp.huge" <<'PY'
import struct, sys
d = bytearray(open(sys.argv[1], 'rb').read())
i = struct.unpack_from('<Q', d, 8)[0]		# the pipe header's size
while struct.unpack_from('<I', d, i)[0] != 66:	# PERF_RECORD_HEADER_TRACING_DATA
    i += struct.unpack_from('<H', d, i + 6)[0] or sys.exit('a record of size 0')
struct.pack_into('<I', d, i + 8, 0xe0000000)
open(sys.argv[2], 'wb').write(d)
PY
# an allocation of the record's size fails: in ASan by its option, else
# under ulimit -v (which ASan's shadow memory cannot run under)
(grep -qa __asan_init "$PERFX" || ulimit -v $((2 << 20))
 ASAN_OPTIONS=$ASAN_OPTIONS:max_allocation_size_mb=1024:allocator_may_return_null=1 \
	"$PERFX" inject -b -i "$work/tp.huge" -o "$work/tp.huge.out" > /dev/null 2> "$work/err")
[ $? -eq 255 ] &&
	grep -qE 'TRACING_DATA record: 3758096384 bytes of tracing data follow it, the input ends after [0-9]+ \(EINVAL\)' "$work/err" &&
	[ ! -e "$work/tp.huge.out" ]
verdict

# AUX area data: an AUXTRACE record and the 5000 bytes of trace data after
# it (not in its size), put before a pipe's first sample
perf record -q -e cpu-clock -o - -- ls / > "$work/aux.in" 2> /dev/null
"$(dirname "$0")/aux-pipe.py" "$work/aux.in" "$work/aux.pipe" "$work/aux.rec"
# perf_reads ARGS... - perf ARGS exits 0 and warns of nothing
perf_reads()
{
	perf "$@" > "$work/perf.out" 2> "$work/perf.err" &&
		! grep -qiE 'warning|error|unexpected|failed' "$work/perf.err"
}
# aux_index FILE - "offset size" of each entry of FILE's HEADER_AUXTRACE, and
# the type of the record at the offset
aux_index()
{
	python3 - "$1" <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read()
data_off, data_size = struct.unpack_from('<QQ', d, 40)
bits = int.from_bytes(d[72:104], 'little')
feats = [f for f in range(256) if bits >> f & 1]
if 18 not in feats:
    sys.exit(0)
off, size = struct.unpack_from('<QQ', d, data_off + data_size + 16 * feats.index(18))
nr, = struct.unpack_from('<Q', d, off)
for k in range(nr):
    o, sz = struct.unpack_from('<QQ', d, off + 8 + 16 * k)
    print(o, sz, struct.unpack_from('<I', d, o)[0])
PY
}
what="AUXTRACE, pipe to pipe: the record and its trace data pass unchanged"
"$PERFX" inject < "$work/aux.pipe" > "$work/aux.out" 2> "$work/err"
check cmp -s "$work/aux.pipe" "$work/aux.out"
what="AUXTRACE, pipe to file: perf reads it, a HEADER_AUXTRACE entry points at the record"
"$PERFX" inject -b -i "$work/aux.pipe" -o "$work/aux.data" 2> "$work/err"
perf_reads report --stats -i "$work/aux.data" &&
	perf report --stats -i "$work/aux.data" 2>&1 | grep -Eq '^ *AUXTRACE events: *1 ' &&
	[ "$(aux_index "$work/aux.data" | cut -d' ' -f2-)" = "5048 71" ] &&
	cmp -s "$work/aux.rec" <(tail -c +$(($(aux_index "$work/aux.data" | cut -d' ' -f1) + 1)) "$work/aux.data" | head -c 5048)
verdict
what="AUXTRACE, file to pipe: the record and its trace data, no index"
"$PERFX" inject -i "$work/aux.data" > "$work/aux2.pipe" 2> "$work/err"
# perf 6.1 stops at an AUXTRACE record without an AUX PMU ("unexpected
# end of event stream"), on the input as on the output: the same words,
# at the offsets of each stream (the header records before it differ)
perf report --stats -i - < "$work/aux.pipe" 2>&1 > /dev/null | sed -E 's/^0x[0-9a-f]+ //' > "$work/aux.said"
grep -qF -f <(od -An -tx1 -v "$work/aux.rec" | tr -d ' \n') <(od -An -tx1 -v "$work/aux2.pipe" | tr -d ' \n') &&
	perf report --stats -i - < "$work/aux2.pipe" 2>&1 > /dev/null | sed -E 's/^0x[0-9a-f]+ //' > "$work/err" &&
	diff "$work/aux.said" "$work/err"
verdict
what="AUXTRACE: a pipe cut inside the trace data is refused, naming it"
rec_at=$(python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); print(d.index(open(sys.argv[2],"rb").read()))' "$work/aux.pipe" "$work/aux.rec")
head -c $((rec_at + 48 + 1000)) "$work/aux.pipe" > "$work/aux.cut"
"$PERFX" inject -i "$work/aux.cut" -o "$work/aux.cut.out" > /dev/null 2> "$work/err"
[ $? -eq 255 ] &&
	grep -q "byte offset $rec_at: AUXTRACE record: 5000 bytes of trace data follow it, the input ends after 1000 (EINVAL)" "$work/err" &&
	[ ! -e "$work/aux.cut.out" ]
verdict

# expect_refused WHAT REGEX ARGS... - exit 255, REGEX in stderr, clean, no -o file
expect_refused()
{
	local what=$1 re=$2 rc

	shift 2
	rm -f "$work/out.data"
	timeout 20 "$PERFX" "$@" > /dev/null 2> "$work/err"
	rc=$?
	if [ $rc -eq 255 ] && grep -qE -- "$re" "$work/err" && sanitizer_clean &&
	   [ ! -e "$work/out.data" ] && ! ls "$work"/out.data.perfx-* > /dev/null 2>&1; then
		ok "$what"
	else
		echo "# exit $rc, want 255 and /$re/"
		notok "$what"
	fi
}

expect_refused "a missing input" "failed to open $work/nosuch: No such file or directory \(ENOENT\)" \
	inject -b -i "$work/nosuch" -o "$work/out.data"
head -c 5000 /dev/urandom > "$work/garbage"
expect_refused "garbage" "garbage: byte offset 0: not a perf.data file" \
	inject -b -i "$work/garbage" -o "$work/out.data"
perl -e 'print pack("Q<Q<", 0x32454c4946524550, 16) x 0, pack("Q>Q>", 0x32454c4946524550, 16)' > "$work/be"
expect_refused "the other byte order" "be: byte offset 0: a big-endian perf.data .*perfx reads only little-endian ones.*EOPNOTSUPP" \
	inject -b -i "$work/be" -o "$work/out.data"
perl -e 'print pack("Q>Q>", 0x32454c4946524550, 104), "\0" x 88' > "$work/be.data"
expect_refused "the other byte order, a file header" "be.data: byte offset 0: a big-endian perf.data .*EOPNOTSUPP" \
	inject -b -i "$work/be.data" -o "$work/out.data"

cut_step=37 nr_bounds=200 nr_flips=40
[ -z "${INJECT_QUICK:-}" ] || { cut_step=401; nr_bounds=20; nr_flips=5; }

# cut_once IN OFF - IN cut at OFF through perfx inject, in a directory of
# its own: "ok", or "bad" and what went wrong
cut_once()
{
	local in=$1 off=$2 d rc

	d=$(mktemp -d "$work/cut.XXXXXX") || { echo "bad: no directory"; return; }
	head -c "$off" "$in" > "$d/cut"
	timeout 20 "$PERFX" inject -b -i "$d/cut" -o "$d/out.data" > /dev/null 2> "$d/err"
	rc=$?
	if { [ $rc -ne 0 ] && [ $rc -ne 255 ]; } || ! sanitizer_clean "$d/err" ||
	   { [ $rc -ne 0 ] && { [ -e "$d/out.data" ] || ! [ -s "$d/err" ]; }; }; then
		echo "bad: $(basename "$in") cut at $off: exit $rc"
	else
		echo ok
	fi
	rm -rf "$d"
}
export -f cut_once sanitizer_clean
export PERFX work

# every 37th byte and the first 200 record boundaries of both recordings,
# as many cuts at once as there are CPUs
corrupt_run()
{
	local in=$1 size nr

	size=$(stat -c %s "$in")
	{ seq 1 "$cut_step" "$((size - 1))"
	  perf report -D -i "$in" 2> /dev/null | sed -n 's/^\(0x[0-9a-f]*\) \[0x.*/\1/p' |
		head -"$nr_bounds"; } > "$work/offsets"
	xargs -P "$(nproc)" -I OFF bash -c 'cut_once "$1" "$((OFF))"' _ "$in" \
		< "$work/offsets" > "$work/cuts"
	grep '^bad: ' "$work/cuts" | sed 's/^bad: /# /' > "$work/diag"
	nr=$(wc -l < "$work/offsets")
	# a cut whose run died without a verdict is a bad one too
	echo "$(($(grep -c '^bad: ' "$work/cuts") + nr - $(wc -l < "$work/cuts"))) $nr"
}

for in in p.pipe f.data; do
	: > "$work/diag"
	read -r bad total < <(corrupt_run "$work/$in")
	head -6 "$work/diag"
	what="$in truncated at $total offsets: a message and exit 255 or a valid prefix, no crash"
	check test "$bad" -eq 0
done

bad=0
for i in $(seq 1 "$nr_flips"); do
	cp "$work/f.data" "$work/flip"
	size=$(stat -c %s "$work/flip")
	for k in 1 2 3 4; do
		printf "\\x$(printf %02x $((RANDOM % 256)))" |
			dd of="$work/flip" bs=1 seek=$((RANDOM * 32768 % size + RANDOM % size)) \
			   count=1 conv=notrunc 2> /dev/null
	done
	timeout 20 "$PERFX" inject -b -i "$work/flip" -o "$work/out.data" > /dev/null 2> "$work/err"
	rc=$?
	if { [ $rc -ne 0 ] && [ $rc -ne 255 ]; } || ! sanitizer_clean; then
		bad=$((bad + 1))
		echo "# flipped copy $i: exit $rc"
	fi
done
what="$nr_flips copies with 4 flipped bytes each: exit 0 or 255, no crash"
check test "$bad" -eq 0

rc=0
"$PERFX" inject -h > /dev/null 2> "$work/err" || rc=$?
what="-h: perf's usage layout and exit 129"
check test $rc -eq 129 -a "$(sed -n 2p "$work/err")" = " Usage: perfx inject [<options>]"
rc=0
"$PERFX" inject --bogus > /dev/null 2> "$work/err" || rc=$?
what="an unknown option: perf's error and exit 129"
check test $rc -eq 129
