/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SYNTHESIZE_RECORD_H
#define __PERFX_SYNTHESIZE_RECORD_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "synthesize.h"

/*
 * What synthesis shares inside the library: the records it writes, built
 * in a growing buffer, each laid out as the kernel's, names NUL-padded to
 * 8 bytes, then id_hdr_size zeros; and the tree it reads.
 */
struct synth_buf {
	char		*p;
	size_t		len;
	size_t		cap;
	unsigned int	nr;		/* records in it */
	__u16		id_hdr_size;
};

/* perf's PATH_MAX-sized name field: longer names are cut to 4095 bytes */
#define SYNTH_NAME_MAX		4095

void synth_buf__init(struct synth_buf *b, __u16 id_hdr_size);
void synth_buf__exit(struct synth_buf *b);
/* Room for @size more bytes: 0 or -ENOMEM */
int synth_buf__reserve(struct synth_buf *b, size_t size);
/* Drops what came after its first @len bytes and @nr records */
void synth_buf__rewind(struct synth_buf *b, size_t len, unsigned int nr);

int synth_buf__comm(struct synth_buf *b, __u32 pid, __u32 tid, const char *comm);
/* misc FORK_EXEC, time 0 */
int synth_buf__fork(struct synth_buf *b, __u32 pid, __u32 ppid, __u32 tid, __u32 ptid);

struct synth_mmap {
	__u16		misc;
	__u32		pid;
	__u32		tid;
	__u64		start;
	__u64		len;
	__u64		pgoff;
	__u32		maj;
	__u32		min;
	__u64		ino;
	__u32		prot;
	__u32		flags;
	const char	*name;
	size_t		name_len;
};

int synth_buf__mmap2(struct synth_buf *b, const struct synth_mmap *m);
/* PERF_RECORD_MMAP: the kernel's and the modules' (no dev, prot, flags) */
int synth_buf__mmap(struct synth_buf *b, const struct synth_mmap *m);

/* sample_id_all's fields are at most six u64s: room to spare */
#define SYNTH_ID_HDR_MAX	128

static inline bool synth__opts_valid(const struct synthesize_opts *opts)
{
	return !(opts->id_hdr_size % 8) && opts->id_hdr_size <= SYNTH_ID_HDR_MAX;
}

/* the tree synthesis reads: "" for the machine's own */
static inline const char *synth__root(const struct synthesize_opts *opts)
{
	return opts->root ? opts->root : "";
}

/* <root>/proc, which every path is opened relative to: fd or -errno */
static inline int synth__open_proc(const struct synthesize_opts *opts)
{
	char path[PATH_MAX];
	int fd;

	if (snprintf(path, sizeof(path), "%s/proc", synth__root(opts)) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

#endif /* __PERFX_SYNTHESIZE_RECORD_H */
