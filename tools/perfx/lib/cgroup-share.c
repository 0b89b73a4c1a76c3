// SPDX-License-Identifier: GPL-2.0
/*
 * the PERF_EVENT_IOC_ATTACH_CGROUP / READ_CGROUP ABI.
 *
 * As issue 3 states it until the kernel series' ABI document lands:
 *
 *   ATTACH  _IOW('$', 12, __u64 *)   buffer u64 { nr, id[nr] }; nr == 0
 *           detaches everything.
 *   READ    _IOWR('$', 13, __u64 *)  buffer u64 { size, id, values... }:
 *           size of the whole buffer in bytes, the cgroup id, then from
 *           byte 16 the values in the event's read_format (count, then
 *           time_enabled and time_running when flagged); returns the bytes
 *           written, -ENOENT for an id not attached, -EINVAL when too small.
 *
 * Reading is one ioctl per cgroup until the batch layout is fixed; the
 * caller counts the syscalls through @nr_syscalls so the benchmark can
 * report them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "cgroup-share.h"
#include "evsel.h"

int cgroup_share__attach(int fd, const __u64 *ids, int nr)
{
	__u64 *buf;
	int err = 0;

	if (nr < 0)
		return -EINVAL;
	buf = calloc(nr + 1, sizeof(__u64));
	if (!buf)
		return -ENOMEM;
	buf[0] = (__u64)nr;
	if (nr)
		memcpy(buf + 1, ids, nr * sizeof(__u64));
	if (ioctl(fd, PERF_EVENT_IOC_ATTACH_CGROUP, buf) < 0)
		err = -errno;
	free(buf);
	return err;
}

int cgroup_share__detach(int fd)
{
	return cgroup_share__attach(fd, NULL, 0);
}

int cgroup_share__read(int fd, __u64 read_format, const __u64 *ids, int nr,
		       struct evsel_counts *out, unsigned long *nr_syscalls)
{
	__u64 buf[2 + 8];
	int i;

	for (i = 0; i < nr; i++) {
		int k = 2;

		memset(buf, 0, sizeof(buf));
		buf[0] = sizeof(buf);
		buf[1] = ids[i];
		if (nr_syscalls)
			(*nr_syscalls)++;
		if (ioctl(fd, PERF_EVENT_IOC_READ_CGROUP, buf) < 0)
			return -errno;
		out[i].val = buf[k++];
		out[i].ena = read_format & PERF_FORMAT_TOTAL_TIME_ENABLED ? buf[k++] : 0;
		out[i].run = read_format & PERF_FORMAT_TOTAL_TIME_RUNNING ? buf[k++] : 0;
	}
	return 0;
}

const char *cgroup_share__strerror(int err)
{
	switch (err) {
	case -ENOTTY:
		return "the running kernel has no PERF_EVENT_IOC_ATTACH_CGROUP (ENOTTY): it needs the shared-cgroup perf series";
	case -EINVAL:
		return "the kernel refused the cgroup list (EINVAL): only CPU-wide counting events can share cgroups";
	case -EOPNOTSUPP:
		return "the event cannot count cgroups in shared mode (EOPNOTSUPP)";
	case -ENOENT:
		return "a cgroup id is unknown to the kernel (ENOENT)";
	case -E2BIG:
		return "too many cgroups for one event (E2BIG)";
	default:
		return "the kernel refused to attach the cgroups";
	}
}
