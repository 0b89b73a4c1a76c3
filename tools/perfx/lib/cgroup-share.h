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
 * cgroup-share.c, behind these four calls.
 */
#ifndef PERF_EVENT_IOC_ATTACH_CGROUP
#define PERF_EVENT_IOC_ATTACH_CGROUP	_IOW('$', 12, __u64 *)
#endif
#ifndef PERF_EVENT_IOC_READ_CGROUP
#define PERF_EVENT_IOC_READ_CGROUP	_IOWR('$', 13, __u64 *)
#endif

/* Attach @nr ids to the event @fd; -ENOTTY when the kernel lacks the ioctl. */
int cgroup_share__attach(int fd, const __u64 *ids, int nr);
/* Detach every cgroup (nr == 0). */
int cgroup_share__detach(int fd);
/*
 * Read every attached cgroup's count, enabled and running times into
 * @out[0..nr-1] (in @ids order) with one batch READ_CGROUP (id 0);
 * @read_format is the event's.  Adds the number of syscalls it took to
 * *@nr_syscalls.  -ENOENT when an id is no longer attached, -EPROTO when
 * the kernel's answer does not parse.
 */
int cgroup_share__read(int fd, __u64 read_format, const __u64 *ids, int nr,
		       struct evsel_counts *out, unsigned long *nr_syscalls);
/*
 * The batch reply @reply[0..@bytes) (what follows the 16-byte header:
 * { nr, { id, values... }[nr] }) into @out[0..nr-1] in @ids order.
 * -EPROTO for a reply that does not parse (short, a count above @nr, an
 * unknown or repeated id), -ENOENT when an id of @ids is missing; @why
 * then says what.  @out is only written on success.
 */
int cgroup_share__parse_reply(const __u64 *reply, size_t bytes, __u64 read_format,
			      const __u64 *ids, int nr, struct evsel_counts *out,
			      char *why, size_t whylen);
/* A sentence on why the kernel cannot do shared mode, for -ENOTTY etc. */
const char *cgroup_share__strerror(int err);

#endif /* __PERFX_CGROUP_SHARE_H */
