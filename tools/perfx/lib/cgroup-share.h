/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_CGROUP_SHARE_H
#define __PERFX_CGROUP_SHARE_H

#include <linux/ioctl.h>
#include <linux/types.h>
#include <stddef.h>

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
/* the host's uapi headers may predate the ioctls: the same as the uapi */
#ifndef PERF_CGROUP_ATTACH_SIZE_VER0
struct perf_event_cgroup_attach {
	__u32	size;
	__u32	flags;
	__u32	nr;
	__u32	reserved;
	__u64	ids;
};

#define PERF_CGROUP_ATTACH_SIZE_VER0	24

struct perf_event_cgroup_read {
	__u32	size;
	__u32	flags;
	__u64	id;
	__u64	buf;
	__u64	buf_size;
};

#define PERF_CGROUP_READ_SIZE_VER0	32
#define PERF_EVENT_IOC_ATTACH_CGROUP	_IOW('$', 12, struct perf_event_cgroup_attach)
#define PERF_EVENT_IOC_READ_CGROUP	_IOWR('$', 13, struct perf_event_cgroup_read)
#endif

/* Attach @nr ids to the event @fd; -ENOTTY when the kernel lacks the ioctl. */
int cgroup_share__attach(int fd, const __u64 *ids, int nr);
/*
 * Read every attached cgroup's count, enabled and running times with one
 * batch READ_CGROUP (id 0); @read_format is the event's.  Without
 * PERF_FORMAT_GROUP @nr_cntr is 1 and @out[k] is the k-th cgroup of @ids;
 * with it @fd is a group leader, @nr_cntr the number of counters of the
 * group that are open (the leader and the members the kernel took), and
 * @out[k * nr_cntr + m] the m-th counter's counts for the k-th cgroup, with
 * the group's times.  Adds the number of syscalls it took to *@nr_syscalls.
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
/* A sentence on why the kernel cannot do shared mode, for -ENOTTY etc. */
const char *cgroup_share__strerror(int err);

#endif /* __PERFX_CGROUP_SHARE_H */
