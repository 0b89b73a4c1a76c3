/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_DSO_H
#define __PERFX_DSO_H

#include <stdbool.h>
#include <stddef.h>

#include <linux/types.h>

#include "build-id.h"

#define DSO_KERNEL_NAME		"[kernel.kallsyms]"
#define DSO_VDSO_NAME		"[vdso]"

/*
 * A mapped object, by name and mount namespace; its build-id is looked
 * up once.
 */
struct dso {
	struct dso	*next;		/* hash chain */
	__u64		mntns;		/* its mount namespace's inode, 0: perfx's */
	int		pid;		/* a process there: its /proc/PID/root */
	struct build_id	bid;
	int		bid_err;	/* 0: bid is valid; -errno once looked up */
	bool		bid_read;
	bool		hit;		/* its build-id record was written */
	char		name[];
};

struct dsos {
	struct dso	**table;
	size_t		nr_buckets;
	size_t		nr;
};

int dsos__init(struct dsos *dsos);
void dsos__exit(struct dsos *dsos);
/* The dso named by @name (@len bytes, not NUL-terminated); -ENOMEM */
int dsos__findnew(struct dsos *dsos, const char *name, size_t len, struct dso **dso);
/*
 * The same in mount namespace @mntns (0: perfx's own), whose files are
 * opened through /proc/@pid/root.
 */
int dsos__findnew_ns(struct dsos *dsos, const char *name, size_t len, __u64 mntns, int pid,
		     struct dso **dso);
/*
 * Reads the build-id the first time: kernel notes, an ELF file or nothing;
 * another mount namespace's file through /proc/PID/root while the process
 * lives, else by its name here (as perf does when it cannot enter it).
 */
int dso__read_build_id(struct dso *dso);
void dso__set_build_id(struct dso *dso, const void *data, size_t size);

#endif /* __PERFX_DSO_H */
