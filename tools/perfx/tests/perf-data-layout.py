#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# perf-data-layout.py FILE [ID] - what a perf.data file or pipe stream
# holds, one item a line, for the tests to compare perf's and perfx's:
#   feature ID          each header feature (a file's bitmap, a pipe's
#                       HEADER_FEATURE records in their order; perf's end
#                       mark HEADER_LAST_FEATURE too)
#   record TYPE COUNT   how many records of each type
# With ID, only the body of feature ID, in hex.  Exits 1 on a stream it
# cannot walk.
import struct
import sys
from collections import Counter

TRACING_DATA, HEADER_FEATURE = 66, 80


def records(buf, pos, end, out, counts, bodies):
    while pos + 8 <= end:
        typ, _misc, size = struct.unpack_from("<IHH", buf, pos)
        if size < 8:
            sys.exit("%s: byte offset %d: record size %d" % (sys.argv[1], pos, size))
        counts[typ] += 1
        if typ == HEADER_FEATURE:
            feat = struct.unpack_from("<Q", buf, pos + 8)[0]
            out.append("feature %d" % feat)
            bodies[feat] = buf[pos + 16:pos + size]
        if typ == TRACING_DATA:
            pos += struct.unpack_from("<I", buf, pos + 8)[0]
        pos += size


def main():
    buf = open(sys.argv[1], "rb").read()
    magic, hsize = struct.unpack_from("<8sQ", buf, 0)
    if magic != b"PERFILE2":
        sys.exit("%s: not PERFILE2" % sys.argv[1])
    out, counts, bodies = [], Counter(), {}
    if hsize == 16:
        records(buf, 16, len(buf), out, counts, bodies)
    else:
        data_off, data_size = struct.unpack_from("<QQ", buf, 40)
        bits = struct.unpack_from("<4Q", buf, 72)
        feats = [i for i in range(256) if bits[i // 64] >> (i % 64) & 1]
        out += ["feature %d" % i for i in feats]
        for n, feat in enumerate(feats):
            off, size = struct.unpack_from("<QQ", buf, data_off + data_size + 16 * n)
            bodies[feat] = buf[off:off + size]
        records(buf, data_off, data_off + data_size, out, counts, bodies)
    if len(sys.argv) > 2:
        print(bodies.get(int(sys.argv[2]), b"").hex())
        return
    out += ["record %d %d" % (t, c) for t, c in sorted(counts.items())]
    print("\n".join(out))


main()
