/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_CGROUP_SHARE_H
#define __PERFX_CGROUP_SHARE_H

#include <linux/ioctl.h>
#include <linux/types.h>
#include <stddef.h>

#include "cgroup.h"

struct evsel_counts;

/*
 * Shared cgroup counting (the kernel series of issue 3): one cgroup-less
 * CPU-wide counting event per CPU carries a table of cgroup ids; the kernel
 * adds each switch-out delta to the previous task's cgroup and ancestors
 * found in the table.
 *
 * Everything that depends on the ABI's exact layout lives in
 * cgroup-share.c, behind these calls.
 */
/*
 * The host's uapi headers may predate the ioctls: the same as the series'
 * v5 uapi.  A header of an older version (a size field, no err_index) does
 * not build with cgroup-share.c, rather than pass the kernel another
 * layout.
 */
#ifndef PERF_CGROUP_ATTACH_SIZE_VER0
struct perf_event_cgroup_attach {
	__u32	flags;		/* none defined yet: 0 */
	__u32	nr;		/* number of ids */
	__u64	ids;		/* pointer to __u64 ids[nr] */
	__u32	err_index;	/* out: the id at fault */
	__u32	reserved;	/* 0 */
};

#define PERF_CGROUP_ATTACH_SIZE_VER0	24

struct perf_event_cgroup_read {
	__u32	flags;		/* none defined yet: 0 */
	__u32	reserved;	/* 0 */
	__u64	id;		/* cgroup2 id, or 0: all */
	__u64	buf;		/* pointer to the values */
	__u64	buf_size;	/* bytes at buf; size needed on ENOSPC */
};

#define PERF_CGROUP_READ_SIZE_VER0	32
/* the struct's size is the one the number encodes (_IOC_SIZE()) */
#define PERF_EVENT_IOC_ATTACH_CGROUP	_IOWR('$', 12, struct perf_event_cgroup_attach)
#define PERF_EVENT_IOC_READ_CGROUP	_IOWR('$', 13, struct perf_event_cgroup_read)
#endif

/* the kernel's limit of ids in one ATTACH_CGROUP */
#define CGROUP_SHARE_ATTACH_MAX		65536
/* and of ids times the members of the group, which all get a table */
#define CGROUP_SHARE_ATTACH_ENTRIES	(8 * CGROUP_SHARE_ATTACH_MAX)
/* READ_CGROUP calls that may find the set changing (EAGAIN) before giving up */
#define CGROUP_SHARE_READ_TRIES		5

/*
 * Attach the @nr @ids to the event @fd, replacing its set: 0 or -errno,
 * -ENOTTY when the kernel lacks the ioctl.  *@err_index is the index in
 * @ids of the cgroup the kernel blamed (its err_index) on -ENODEV, -ENOENT
 * and -EEXIST, else -1, as it is when the kernel's is out of range.
 */
int cgroup_share__attach(int fd, const __u64 *ids, int nr, int *err_index);
/*
 * Read every attached cgroup's count, enabled and running times with one
 * batch READ_CGROUP (id 0); @read_format is the event's.  Without
 * PERF_FORMAT_GROUP @nr_cntr is 1 and @out[k] is the k-th cgroup of @ids;
 * with it @fd is a group leader, @nr_cntr the number of counters of the
 * group that are open (the leader and the members the kernel took), and
 * @out[k * nr_cntr + m] the m-th counter's counts for the k-th cgroup, with
 * the group's times.  Adds the number of syscalls it took to *@nr_syscalls.
 * A call the kernel found the set or group changing in (-EAGAIN: what it
 * wrote is incomplete) is made again, up to CGROUP_SHARE_READ_TRIES calls
 * in all, then -EAGAIN; -EINTR (a fatal signal) is not retried.
 * -ENOENT when an id is no longer attached, -EPROTO when the kernel's
 * answer does not parse, -EINVAL for a bad @nr or @nr_cntr.
 */
int cgroup_share__read(int fd, __u64 read_format, int nr_cntr, const __u64 *ids, int nr,
		       struct evsel_counts *out, unsigned long *nr_syscalls);
/*
 * The batch reply @reply[0..@bytes) (what the kernel wrote at buf:
 * { nr, { id, values... }[nr] }, values as in read(2) of the event for
 * @read_format) into @out[0..nr*nr_cntr-1] as cgroup_share__read() does.
 * -EPROTO for a reply that does not parse (a size that is not exactly
 * that of its count of cgroups, a count above @nr, an unknown or repeated
 * id, a group of other than @nr_cntr counters), -ENOENT when an id of @ids
 * is missing; @why then says what.  @out is only written on success.
 */
int cgroup_share__parse_reply(const __u64 *reply, size_t bytes, __u64 read_format,
			      int nr_cntr, const __u64 *ids, int nr, struct evsel_counts *out,
			      char *why, size_t whylen);

/* A refused ATTACH_CGROUP, with what its message names. */
struct cgroup_share_refusal {
	int err;			/* -errno of cgroup_share__attach() */
	int nr;				/* the cgroups asked for */
	const char *mnt;		/* the cgroup2 mount */
	const struct cgroup *cgrp;	/* at the kernel's err_index, or NULL */
	const struct cgroup *first;	/* -EEXIST: the same cgroup named before */
	enum cgroup_controller ctrl;	/* -ENODEV: where perf_event is */
};

/*
 * A sentence on why the kernel cannot count in shared mode, naming the
 * cgroup at fault (its name and path), in @buf, which it returns.
 */
const char *cgroup_share__strerror(const struct cgroup_share_refusal *r, char *buf,
				   size_t size);

#endif /* __PERFX_CGROUP_SHARE_H */
