// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the build-id reader's fast path: the input is the
 * first bytes of an ELF file, parsed for the notes of its program
 * headers as perfx inject -b reads every DSO a stream names.
 * Build and run: make -C tools/perfx fuzz (tests/fuzz.sh runs it briefly).
 */
#include <stddef.h>
#include <stdint.h>

#include "lib/build-id.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct build_id bid;

	build_id__parse_elf_head(data, size, &bid);
	return 0;
}
