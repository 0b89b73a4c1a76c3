#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# perf-data-layout.py FILE [ID] - what a perf.data file or pipe stream
# holds, one item a line, for the tests to compare perf's and perfx's:
#   feature ID          each header feature (a file's bitmap, a pipe's
#                       HEADER_FEATURE records in their order; perf's end
#                       mark HEADER_LAST_FEATURE too)
#   record TYPE COUNT   how many records of each type
# With ID, only the body of feature ID, in hex; with ID 25 and "bpil",
# BPF_PROG_INFO's programs one a line, each array's padding to 8 shown as
# "xx": perf leaves there what its heap held.  Exits 1 on a stream it
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


# perf's bpil_array_desc by PERF_BPIL_* bit: the offsets in struct
# bpf_prog_info of the array's address, its count, and its element size
# (a field's offset, or the fixed size when negative)
BPIL = {0: (24, 16, -1), 1: (32, 20, -1), 2: (56, 52, -4), 3: (112, 104, -8),
        4: (120, 108, -4), 5: (136, 144, 132), 6: (152, 148, 172),
        7: (160, 168, 176), 8: (184, 180, -8)}


def bpil(body):
    """BPF_PROG_INFO's entries in hex, the padding of each array masked."""
    nr, pos, out = struct.unpack_from("<I", body, 0)[0], 4, []
    for _ in range(nr):
        info_len, data_len, arrays = struct.unpack_from("<IIQ", body, pos)
        info = pos + 16
        data = info + info_len
        hx = [b"%02x" % c for c in body[pos:data + data_len]]
        for bit, (arr, cnt, size) in BPIL.items():
            if not arrays >> bit & 1:
                continue
            off = struct.unpack_from("<Q", body, info + arr)[0]
            n = struct.unpack_from("<I", body, info + cnt)[0]
            n *= -size if size < 0 else struct.unpack_from("<I", body, info + size)[0]
            for i in range(off + n, min((off + n + 7) & ~7, data_len)):
                hx[data - pos + i] = b"xx"
        out.append(b"".join(hx).decode())
        pos = data + data_len
    return out


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
    if len(sys.argv) > 3 and sys.argv[3] == "bpil":
        print("\n".join(bpil(bodies.get(int(sys.argv[2]), b"\0\0\0\0"))))
        return
    if len(sys.argv) > 2:
        print(bodies.get(int(sys.argv[2]), b"").hex())
        return
    out += ["record %d %d" % (t, c) for t, c in sorted(counts.items())]
    print("\n".join(out))


main()
