#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# inject-attrs.sh - perfx inject against perf inject on a perf.data of
# many attrs, in one run.
#
#   bench/inject-attrs.sh [-n "ATTRS..."] [-s SAMPLES] [-r RUNS] [-o RESULT.md]
#
# For each N of ATTRS (default "1000 8000"), a file-mode perf.data with N
# cpu-clock attrs of one id each and SAMPLES samples (default 100,000)
# spread over the ids, then `inject -i F -o OUT` and `inject -b -i F -o
# OUT` by each tool in turn: best wall time of RUNS (default 3), and
# perfx / perf.  What it measures: the attr-range table and the id ->
# attr lookup of a sample, which were quadratic and linear in perfx.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
perfx=$here/tools/perfx/perfx
sizes="1000 8000"
samples=100000
runs=3
out=
while getopts "n:s:r:o:" o; do
	case $o in
	n) sizes=$OPTARG ;;
	s) samples=$OPTARG ;;
	r) runs=$OPTARG ;;
	o) out=$OPTARG ;;
	*) exit 2 ;;
	esac
done
make -s -C "$here/tools/perfx" perfx > /dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# gen FILE ATTRS SAMPLES - the perf.data: header, the attrs with their ids,
# the samples (IDENTIFIER | IP | TID | TIME), no features
gen()
{
	python3 - "$@" <<'PY'
import struct, sys
path, nattr, nsamp = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
SAMPLE_TYPE = 1 << 16 | 1 | 2 | 4		# IDENTIFIER | IP | TID | TIME
FLAGS = 1 | 2 | 1 << 8 | 1 << 9 | 1 << 18	# disabled inherit mmap comm sample_id_all
attr = lambda: struct.pack('<IIQQQQQIIQQQQIiQIHHIIQ', 1, 128, 0, 100000, SAMPLE_TYPE,
			   0, FLAGS, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
hdr_size, attr_size = 104, 128 + 16
attrs_off = hdr_size
ids_off = attrs_off + nattr * attr_size
data_off = ids_off + nattr * 8
attrs = b''.join(attr() + struct.pack('<QQ', ids_off + 8 * i, 8) for i in range(nattr))
ids = b''.join(struct.pack('<Q', i + 1) for i in range(nattr))
data = b''.join(struct.pack('<IHHQQIIQ', 9, 2, 40, k % nattr + 1, 0x400000 + k, 4242, 4242,
			    1000 + k) for k in range(nsamp))
header = struct.pack('<8sQQQQQQQQQ', b'PERFILE2', hdr_size, attr_size, attrs_off,
		     len(attrs), data_off, len(data), 0, 0, 0) + bytes(24)
with open(path, 'wb') as f:
	f.write(header + attrs + ids + data)
PY
}

# best CMD... - the best wall time of $runs runs, in seconds
best()
{
	local b= t i

	for i in $(seq "$runs"); do
		/usr/bin/time -f %e -o "$work/t" "$@" > /dev/null 2>&1 || { echo failed; return; }
		t=$(cat "$work/t")
		if [ -z "$b" ] || awk "BEGIN { exit !($t < $b) }"; then
			b=$t
		fi
	done
	echo "$b"
}

report=$work/report.md
{
	echo "perfx inject and perf inject on files of many attrs ($samples samples, best of $runs)"
	echo "($(perf version), perfx $(git -C "$here" rev-parse --short HEAD), $(date -u +%F), $(nproc) CPUs)"
	echo
	printf '| %-6s | %-10s | %-10s | %-10s | %-12s |\n' attrs command "perf s" "perfx s" "perfx / perf"
	printf '|--------|------------|------------|------------|--------------|\n'
} > "$report"
for n in $sizes; do
	gen "$work/many.data" "$n" "$samples"
	for args in "" "-b"; do
		# shellcheck disable=SC2086
		p=$(best perf inject $args -i "$work/many.data" -o "$work/perf.out")
		# shellcheck disable=SC2086
		x=$(best "$perfx" inject $args -i "$work/many.data" -o "$work/perfx.out")
		r=$(awk "BEGIN { if ($p > 0) printf \"%.3f\", $x / $p; else print \"-\" }" 2> /dev/null || echo -)
		printf '| %-6s | %-10s | %-10s | %-10s | %-12s |\n' "$n" "inject${args:+ $args}" \
			"$p" "$x" "$r" >> "$report"
	done
done
cat "$report"
[ -z "$out" ] || cp "$report" "$out"
