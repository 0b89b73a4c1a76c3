#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""aux-pipe.py IN OUT [REC] - copy perf pipe IN to OUT with an AUXTRACE
record and the 5000 bytes of AUX data after it (not in its size) put
before the first sample; REC gets the record and its data alone."""
import struct
import sys

d = open(sys.argv[1], 'rb').read()
i = struct.unpack_from('<Q', d, 8)[0]		# the pipe header's size
while struct.unpack_from('<I', d, i)[0] != 9:	# PERF_RECORD_SAMPLE
    i += struct.unpack_from('<H', d, i + 6)[0] or sys.exit('a record of size 0')
data = bytes((7 * k) & 0xff for k in range(5000))
# PERF_RECORD_AUXTRACE: header, size, offset, reference, idx, tid, cpu
rec = struct.pack('<IHHQQQIiiI', 71, 0, 48, len(data), 0, 0x1234, 0, -1, 0, 0) + data
open(sys.argv[2], 'wb').write(d[:i] + rec + d[i:])
if len(sys.argv) > 3:
    open(sys.argv[3], 'wb').write(rec)
