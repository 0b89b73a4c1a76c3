#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# perf-data-layout.py FILE - what a perf.data file or pipe stream holds,
# one item a line, for the tests to compare perf's and perfx's:
#   feature ID          each header feature (a file's bitmap, a pipe's
#                       HEADER_FEATURE records in their order; perf's end
#                       mark HEADER_LAST_FEATURE too)
#   record TYPE COUNT   how many records of each type
#   oversize ID SIZE    a pipe HEADER_FEATURE whose body exceeds its record
# Exits 1 on a stream it cannot walk.
import struct
import sys
from collections import Counter

TRACING_DATA, HEADER_FEATURE = 66, 80


def records(buf, pos, end, out, counts):
    while pos + 8 <= end:
        typ, _misc, size = struct.unpack_from("<IHH", buf, pos)
        if size < 8:
            sys.exit("%s: byte offset %d: record size %d" % (sys.argv[1], pos, size))
        counts[typ] += 1
        if typ == HEADER_FEATURE:
            out.append("feature %d" % struct.unpack_from("<Q", buf, pos + 8)[0])
        if typ == TRACING_DATA:
            pos += struct.unpack_from("<I", buf, pos + 8)[0]
        pos += size


def main():
    buf = open(sys.argv[1], "rb").read()
    magic, hsize = struct.unpack_from("<8sQ", buf, 0)
    if magic != b"PERFILE2":
        sys.exit("%s: not PERFILE2" % sys.argv[1])
    out, counts = [], Counter()
    if hsize == 16:
        records(buf, 16, len(buf), out, counts)
    else:
        data_off, data_size = struct.unpack_from("<QQ", buf, 40)
        bits = struct.unpack_from("<4Q", buf, 72)
        out += ["feature %d" % i for i in range(256) if bits[i // 64] >> (i % 64) & 1]
        records(buf, data_off, data_off + data_size, out, counts)
    out += ["record %d %d" % (t, c) for t, c in sorted(counts.items())]
    print("\n".join(out))


main()
