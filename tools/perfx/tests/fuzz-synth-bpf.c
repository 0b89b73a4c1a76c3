// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the parser of synthesis's BPF task stream
 * (lib/synthesize-bpf-stream.c): the input, copied to an aligned buffer
 * as a read(2) would leave it, is checked and sorted; every entry it
 * returns is read whole, so that ASan sees a record or a VMA the parser
 * let through past the input's end.
 * Build and run: make -C tools/perfx fuzz (tests/fuzz.sh runs it briefly).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/synthesize-bpf-stream.h"

/* where the entries' fields go, so that reading them is not optimized out */
volatile __u64 fuzz_sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct synth_bpf_entry *e;
	size_t nr, bad, i, k;
	__u64 *buf;

	buf = malloc(size + 8);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	if (!synth_bpf__parse(buf, size, &e, &nr, &bad)) {
		for (i = 0; i < nr; i++) {
			fuzz_sink += e[i].task->tgid + e[i].task->comm[15];
			for (k = 0; k < e[i].task->nr_vmas; k++)
				fuzz_sink += e[i].vmas[k].end - e[i].vmas[k].start +
					     e[i].vmas[k].generation;
		}
		free(e);
	} else if (bad > size) {
		abort();	/* the offset of a bad record lies in the input */
	}
	free(buf);
	return 0;
}
