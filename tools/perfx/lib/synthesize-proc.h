/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SYNTHESIZE_PROC_H
#define __PERFX_SYNTHESIZE_PROC_H

#include <limits.h>
#include <linux/types.h>
#include <stdbool.h>
#include <sys/types.h>

#include "synthesize.h"

struct procfs_map;
struct synth_buf;

/*
 * Synthesis from the files of /proc, by process or by task, shared by
 * synthesize.c's entry points and the BPF reader, which falls back to it
 * for what it cannot see (kernel threads' names, processes it could not
 * walk whole).
 */

/* What every thread of one synthesis shares, read-only */
struct synth_ctx {
	const struct synthesize_opts *opts;
	int		procfd;
	char		hugetlbfs[PATH_MAX];	/* perf's hugetlbfs__mountpoint() */
	size_t		hugetlbfs_len;
	__u64		timeout_ns;
};

/* One thread's buffers */
struct synth_worker {
	const struct synth_ctx	*ctx;
	struct synth_buf	*out;
	char			*maps_buf;
};

/* Checks @opts, opens <root>/proc, finds hugetlbfs; @buf: SYNTH_MAPS_BUF bytes */
int synth_ctx__init(struct synth_ctx *ctx, const struct synthesize_opts *opts, char *buf);
void synth_ctx__exit(struct synth_ctx *ctx);

/* a read(2) of a maps file returns at most a page or so: this is plenty */
#define SYNTH_MAPS_BUF		(64 * 1024)

/* records go to @out, which the caller may change between calls */
int synth_worker__init(struct synth_worker *wk, const struct synth_ctx *ctx,
		       struct synth_buf *out);
void synth_worker__exit(struct synth_worker *wk);

/*
 * One map of @tgid's leader by perf's rules: an MMAP2 (misc USER, DATA
 * for a readable map that does not execute, PROC_MAP_PARSE_TIMEOUT for
 * the one a timeout stopped at; //anon for no name, MAP_HUGETLB and no
 * name under hugetlbfs), or nothing for a map perf leaves out.
 */
int synth_worker__map(struct synth_worker *wk, pid_t tgid, const struct procfs_map *m,
		      bool timeout);
/* Every thread of process @pid, perf's full way: FORK, COMM, the leader's maps */
int synth_worker__process(struct synth_worker *wk, pid_t pid);
/* COMM of @tid, and MMAP2s if it leads its process: perf's thread-map way */
int synth_worker__task(struct synth_worker *wk, pid_t tid, bool maps, pid_t *tgid);

/*
 * The numeric entries of @dirfd's @path, ascending; reading stops once
 * @expect (if not 0) are seen.  -errno of open or getdents.
 */
int synth__list(int dirfd, const char *path, unsigned int expect, pid_t **pidsp,
		unsigned int *nrp);

#endif /* __PERFX_SYNTHESIZE_PROC_H */
