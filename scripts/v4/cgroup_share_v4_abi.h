/* SPDX-License-Identifier: GPL-2.0 */
/*
 * v4's PERF_EVENT_IOC_ATTACH_CGROUP / READ_CGROUP, behind v5's helpers:
 * scripts/v4-check puts this in place of cgroup_share_util.h's
 * cgs_attach_err() and cgs_read() to run v5's selftests on a v4 kernel.
 * v4 read the size from a field (the ioctl number's size masked off) and
 * wrote no err_index back: *err_index stays ~0U.
 */
struct cgs_v4_attach {
	__u32	size;
	__u32	flags;
	__u32	nr;
	__u32	reserved;
	__u64	ids;
};

struct cgs_v4_read {
	__u32	size;
	__u32	flags;
	__u64	id;
	__u64	buf;
	__u64	buf_size;
};

#define CGS_V4_IOC_ATTACH	_IOW('$', 12, struct cgs_v4_attach)
#define CGS_V4_IOC_READ		_IOWR('$', 13, struct cgs_v4_read)

static inline int cgs_attach_err(int fd, const __u64 *ids, unsigned int nr,
				 __u32 *err_index)
{
	struct cgs_v4_attach arg = {
		.size = sizeof(arg),
		.nr = nr,
		.ids = (uintptr_t)ids,
	};

	if (err_index)
		*err_index = ~0U;
	return cgs_ioctl(fd, CGS_V4_IOC_ATTACH, &arg);
}

static inline int cgs_attach(int fd, const __u64 *ids, unsigned int nr)
{
	return cgs_attach_err(fd, ids, nr, NULL);
}

static inline int cgs_read(int fd, __u64 id, __u64 *vals, unsigned int nvals)
{
	struct cgs_v4_read arg = {
		.size = sizeof(arg),
		.id = id,
		.buf = (uintptr_t)vals,
		.buf_size = nvals * sizeof(*vals),
	};

	return cgs_ioctl(fd, CGS_V4_IOC_READ, &arg);
}
