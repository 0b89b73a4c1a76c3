/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_BUILD_ID_H
#define __PERFX_BUILD_ID_H

#include <stddef.h>

#define BUILD_ID_SIZE	20	/* what a HEADER_BUILD_ID record holds */

struct build_id {
	unsigned char	data[BUILD_ID_SIZE];
	size_t		size;
};

/*
 * The NT_GNU_BUILD_ID note of an ELF file: from its first page's PT_NOTE
 * segments, where linkers put it, else through libelf: 0 or -errno.
 */
int build_id__read_elf(const char *path, struct build_id *bid);
/*
 * The note in the PT_NOTE segments of a 64-bit ELF image of this
 * machine's byte order, of which @len bytes are at @head: -ENOENT when
 * it is not in them.
 */
int build_id__parse_elf_head(const void *head, size_t len, struct build_id *bid);
/* The same note in raw ELF notes, as /sys/kernel/notes holds them. */
int build_id__read_notes(const char *path, struct build_id *bid);
int build_id__parse_notes(const void *notes, size_t len, struct build_id *bid);
/* the build-id of the vDSO, as mapped into this process */
int build_id__read_vdso(struct build_id *bid);
/* lowercase hex, NUL-terminated; @buf needs 2 * BUILD_ID_SIZE + 1 */
void build_id__snprintf(const struct build_id *bid, char *buf);

#endif /* __PERFX_BUILD_ID_H */
