// SPDX-License-Identifier: GPL-2.0
/*
 * fakecount.so - LD_PRELOAD shim that makes perf counter reads deterministic.
 *
 * Both `perf stat` and `perfx stat` open their events with
 * syscall(__NR_perf_event_open, ...) and read them with read(2).  This shim
 * remembers each perf fd's attr and, on read, replaces the values the kernel
 * returned with a fixed function of (type, config, cpu, nth read), so that
 * the two tools print the same counts and their outputs can be compared
 * byte for byte.  Used to capture the golden outputs under tests/golden/ and
 * by the interop tests.
 *
 *   FAKECOUNT_RUN_PCT  percentage of time_enabled reported as running (100)
 *   FAKECOUNT_SCALE    multiplier applied to every count (1)
 *   FAKECOUNT_VARY     K: counts also times 10 + (open# / K) % 3, so that
 *                      repeated runs (-r) differ when K = events x CPUs
 *   FAKECOUNT_SHARE    1: emulate PERF_EVENT_IOC_ATTACH_CGROUP/READ_CGROUP
 *                      (single and batch reads, the series' layout, groups
 *                      read through their leader with PERF_FORMAT_GROUP,
 *                      at most 64 cgroups) on a kernel without them; a cgroup's
 *                      read returns what a per-cgroup event of the same
 *                      config on the same CPU would, so shared mode must
 *                      print exactly what per-cgroup mode prints;
 *                      2: the same without the batch form (a batch read
 *                      is -EINVAL), as a kernel read one cgroup at a time
 *   FAKECOUNT_HW       1: hardware and hardware-cache events always open, so
 *                      their metrics can be compared on a machine without
 *                      a PMU: when the kernel refuses one (ENOENT,
 *                      EOPNOTSUPP, ENODEV, ENXIO, EINVAL) it is opened
 *                      again as a software dummy event with the same pid,
 *                      CPU, group, flags and read_format, and read back as
 *                      the event asked for.  Both perf 6.1 and perfx take a
 *                      successful open as the event existing (perf only
 *                      looks at sysfs's cpu PMU to add the stalled-cycles
 *                      events to its default set: without a cpu PMU neither
 *                      tool adds them).  Their counts follow hw_milli[] and
 *                      the cache tables below instead of config + 1, so
 *                      that the metrics look like a real CPU's: 2.6 GHz
 *                      beside task-clock, 1.37 insn per cycle, 2% branch
 *                      misses, 5% L1-dcache load misses...
 *
 * count = (config + 1) * 1000003 * SCALE * (cpu + 2) * n, for the n-th read
 * (config + 1 replaced by milli / 1000 for FAKECOUNT_HW's events);
 * time_enabled = 1000000000 * n; time_running = enabled * RUN_PCT / 100.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <linux/ioctl.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_FD 65536

struct fake_fd {
	int used;
	__u32 type;
	__u64 config;
	__u64 read_format;
	int cpu;
	int group_fd;
	__u64 nreads;
	__u64 gen;
	__u64 nr_cgroups;
	__u64 share_reads;
	__u64 ids[64];
	int inherit;
};

static __u64 nr_opens;

static struct fake_fd fds[MAX_FD];

static long env_long(const char *name, long def)
{
	const char *s = getenv(name);

	return s && *s ? strtol(s, NULL, 0) : def;
}

/*
 * FAKECOUNT_HW's counts, in thousandths of config + 1's unit: task-clock
 * (config 1) counts 2 units of ns, so cycles at 5.2 units is 2.6 GHz.
 */
static const __u64 hw_milli[PERF_COUNT_HW_MAX] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= 5200,
	[PERF_COUNT_HW_INSTRUCTIONS]		= 7100,
	[PERF_COUNT_HW_CACHE_REFERENCES]	= 310,
	[PERF_COUNT_HW_CACHE_MISSES]		= 47,
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= 1430,
	[PERF_COUNT_HW_BRANCH_MISSES]		= 29,
	[PERF_COUNT_HW_BUS_CYCLES]		= 260,
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= 1190,
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= 2080,
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= 4800,
};

/* cache reads (accesses) per cache; writes and prefetches are a share of them */
static const __u64 cache_milli[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D]	= 2400,
	[PERF_COUNT_HW_CACHE_L1I]	= 1700,
	[PERF_COUNT_HW_CACHE_LL]	= 90,
	[PERF_COUNT_HW_CACHE_DTLB]	= 2400,
	[PERF_COUNT_HW_CACHE_ITLB]	= 1700,
	[PERF_COUNT_HW_CACHE_BPU]	= 1430,
	[PERF_COUNT_HW_CACHE_NODE]	= 40,
};

static const __u64 cache_op_permille[PERF_COUNT_HW_CACHE_OP_MAX] = {
	[PERF_COUNT_HW_CACHE_OP_READ]		= 1000,
	[PERF_COUNT_HW_CACHE_OP_WRITE]		= 450,
	[PERF_COUNT_HW_CACHE_OP_PREFETCH]	= 120,
};

static const __u64 cache_miss_permille[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D]	= 52,
	[PERF_COUNT_HW_CACHE_L1I]	= 19,
	[PERF_COUNT_HW_CACHE_LL]	= 310,
	[PERF_COUNT_HW_CACHE_DTLB]	= 4,
	[PERF_COUNT_HW_CACHE_ITLB]	= 2,
	[PERF_COUNT_HW_CACHE_BPU]	= 20,
	[PERF_COUNT_HW_CACHE_NODE]	= 150,
};

/*
 * With FAKECOUNT_HW, a hardware or cache event's count per unit in
 * millionths (0 for any other event, or a config outside the tables).
 */
static __u64 hw_micro(__u32 type, __u64 config)
{
	__u64 id = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;

	if (!env_long("FAKECOUNT_HW", 0))
		return 0;
	if (type == PERF_TYPE_HARDWARE)
		return config < PERF_COUNT_HW_MAX ? hw_milli[config] * 1000 : 0;
	if (type != PERF_TYPE_HW_CACHE || id >= PERF_COUNT_HW_CACHE_MAX ||
	    op >= PERF_COUNT_HW_CACHE_OP_MAX || res >= PERF_COUNT_HW_CACHE_RESULT_MAX ||
	    config >> 24)
		return 0;
	return cache_milli[id] * cache_op_permille[op] *
	       (res == PERF_COUNT_HW_CACHE_RESULT_MISS ? cache_miss_permille[id] : 1000) / 1000;
}

static int hw_refused(__u32 type, int err)
{
	if (type != PERF_TYPE_HARDWARE && type != PERF_TYPE_HW_CACHE)
		return 0;
	return err == ENOENT || err == EOPNOTSUPP || err == ENODEV || err == ENXIO ||
	       err == EINVAL;
}

/*
 * FAKECOUNT_HW: open the refused hardware event a[0] as a software dummy
 * with the same arguments; on failure keep the first open's errno.
 */
static long open_as_software(long (*real_syscall)(long, ...), long *a, int err)
{
	const struct perf_event_attr *attr = (const struct perf_event_attr *)a[0];
	union {
		struct perf_event_attr attr;
		char bytes[4096];
	} copy;
	size_t size = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;
	long ret;

	if (size > sizeof(copy)) {
		errno = err;
		return -1;
	}
	memset(&copy, 0, sizeof(copy));
	memcpy(&copy, attr, size);
	copy.attr.type = PERF_TYPE_SOFTWARE;
	copy.attr.config = PERF_COUNT_SW_DUMMY;
	ret = real_syscall(__NR_perf_event_open, &copy.attr, a[1], a[2], a[3], a[4]);
	if (ret < 0)
		errno = err;
	return ret;
}

long syscall(long nr, ...)
{
	static long (*real_syscall)(long, ...);
	long a[6];
	va_list ap;
	long ret;
	int i;

	if (!real_syscall)
		real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	ret = real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (nr == __NR_perf_event_open && ret < 0 && env_long("FAKECOUNT_HW", 0) &&
	    hw_refused(((struct perf_event_attr *)a[0])->type, errno))
		ret = open_as_software(real_syscall, a, errno);
	if (nr == __NR_perf_event_open && ret >= 0 && ret < MAX_FD) {
		/* the event asked for, even when a dummy stands in for it */
		struct perf_event_attr *attr = (struct perf_event_attr *)a[0];

		fds[ret].used = 1;
		fds[ret].type = attr->type;
		fds[ret].config = attr->config;
		fds[ret].read_format = attr->read_format;
		fds[ret].cpu = (int)a[2];
		fds[ret].group_fd = (int)a[3];
		fds[ret].inherit = attr->inherit;
		fds[ret].nreads = 0;
		fds[ret].gen = nr_opens++;
		fds[ret].nr_cgroups = 0;
		fds[ret].share_reads = 0;
	}
	return ret;
}

int close(int fd)
{
	static int (*real_close)(int);

	if (!real_close)
		real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	if (fd >= 0 && fd < MAX_FD)
		fds[fd].used = 0;
	return real_close(fd);
}

static __u64 fake_count(struct fake_fd *f, __u64 n)
{
	__u64 cpu = f->cpu < 0 ? 0 : (__u64)f->cpu;
	__u64 vary = 1, micro;

	/* FAKECOUNT_VARY=K: multiply by 1 + (K-th opens later ... ) for -r noise */
	if (env_long("FAKECOUNT_VARY", 0))
		vary = 10 + f->gen / (__u64)env_long("FAKECOUNT_VARY", 1) % 3;
	micro = hw_micro(f->type, f->config);
	if (micro)
		return (__u64)((unsigned __int128)micro * 1000003ULL *
			       (__u64)env_long("FAKECOUNT_SCALE", 1) * (cpu + 2) * n * vary /
			       1000000);
	return (f->config + 1) * 1000003ULL * (__u64)env_long("FAKECOUNT_SCALE", 1) *
	       (cpu + 2) * n * vary;
}

#define FAKE_ATTACH	_IOW('$', 12, __u64 *)
#define FAKE_READ	_IOWR('$', 13, __u64 *)

static int (*real_ioctl)(int, unsigned long, ...);

/* the kernel's id of the event @fd (PERF_FORMAT_ID), 0 if it does not say */
static __u64 fake_id(int fd)
{
	__u64 id = 0;

	if (real_ioctl(fd, PERF_EVENT_IOC_ID, &id) < 0)
		return 0;
	return id;
}

/* the next member of the group led by @lfd after @m (@lfd: the first), or -1 */
static int next_member(int lfd, int m)
{
	if (m < 0)
		return lfd;
	for (m++; m < MAX_FD; m++)
		if (fds[m].used && fds[m].group_fd == lfd)
			return m;
	return -1;
}

/* words of one cgroup's values of @fd: a read(2)'s, as READ_CGROUP has them */
static int fake_values_words(int fd)
{
	__u64 rf = fds[fd].read_format;
	int times = !!(rf & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(rf & PERF_FORMAT_TOTAL_TIME_RUNNING);
	int per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST), nr = 0, m;

	if (!(rf & PERF_FORMAT_GROUP))
		return per + times;
	for (m = next_member(fd, -1); m >= 0; m = next_member(fd, m))
		nr++;
	return 1 + times + nr * per;
}

/*
 * One cgroup's values of @fd for the @n-th read at v[i...]: what read(2)
 * below fakes for the same event (a group: { nr, [ena], [run], { value,
 * [id], [lost] }[nr] } through its leader, the members in open order), so
 * that a cgroup reads what a per-cgroup event of the same config on the
 * same CPU reads.  A member opened after the attach has no cgroups: 0.
 */
static int fake_values(int fd, __u64 n, __u64 *v, int i)
{
	struct fake_fd *f = &fds[fd];
	__u64 rf = f->read_format, *nr = NULL;
	int m;

	if (rf & PERF_FORMAT_GROUP) {
		nr = &v[i++];
		*nr = 0;
	} else {
		v[i++] = fake_count(f, n);
	}
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		v[i++] = 1000000000ULL * n;
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		v[i++] = 1000000000ULL * n * (__u64)env_long("FAKECOUNT_RUN_PCT", 100) / 100;
	if (!nr) {
		if (rf & PERF_FORMAT_ID)
			v[i++] = fake_id(fd);
		if (rf & PERF_FORMAT_LOST)
			v[i++] = 0;
		return i;
	}
	for (m = next_member(fd, -1); m >= 0; m = next_member(fd, m)) {
		v[i++] = m == fd || fds[m].nr_cgroups ? fake_count(&fds[m], n) : 0;
		if (rf & PERF_FORMAT_ID)
			v[i++] = fake_id(m);
		if (rf & PERF_FORMAT_LOST)
			v[i++] = 0;
		(*nr)++;
	}
	return i;
}

int ioctl(int fd, unsigned long req, ...)
{
	struct fake_fd *f;
	__u64 *v, n, need;
	va_list ap;
	void *arg;
	int i = 2, words;

	if (!real_ioctl)
		real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!env_long("FAKECOUNT_SHARE", 0) || (req != FAKE_ATTACH && req != FAKE_READ) ||
	    fd < 0 || fd >= MAX_FD || !fds[fd].used)
		return real_ioctl(fd, req, arg);
	f = &fds[fd];
	v = arg;
	if (req == FAKE_ATTACH) {
		/* what the kernel checks: CPU-wide, not inherited, <= our table */
		if (f->cpu < 0 || f->inherit || v[0] > 64) {
			errno = f->cpu < 0 || f->inherit ? EINVAL : E2BIG;
			return -1;
		}
		/* through the leader, for every member of its group */
		if (f->group_fd >= 0) {
			errno = EINVAL;
			return -1;
		}
		for (int m = fd; m < MAX_FD; m++) {
			if (m != fd && (!fds[m].used || fds[m].group_fd != fd))
				continue;
			fds[m].nr_cgroups = v[0];
			memcpy(fds[m].ids, v + 1, v[0] * sizeof(__u64));
			fds[m].share_reads = 0;
		}
		return 0;
	}
	/* a group is read as its leader's, whichever of its fds is asked */
	if (f->read_format & PERF_FORMAT_GROUP && f->group_fd >= 0 && f->group_fd < MAX_FD &&
	    fds[f->group_fd].used) {
		fd = f->group_fd;
		f = &fds[fd];
	}
	if (v[0] < 16) {
		errno = EINVAL;
		return -1;
	}
	words = fake_values_words(fd);
	if (v[1] == 0 && env_long("FAKECOUNT_SHARE", 0) == 2) {
		errno = EINVAL;
		return -1;
	}
	if (v[1] == 0) {
		/* batch: { nr, { id, values... }[nr] } after the header */
		need = 8 * (2 + 1 + f->nr_cgroups * (1 + words));
		if (v[0] < need) {
			v[0] = need;
			errno = ENOSPC;
			return -1;
		}
		n = ++f->share_reads;
		v[i++] = f->nr_cgroups;
		for (__u64 k = 0; k < f->nr_cgroups; k++) {
			v[i++] = f->ids[k];
			i = fake_values(fd, n, v, i);
		}
		return (i - 2) * 8;
	}
	for (n = 0; n < f->nr_cgroups && f->ids[n] != v[1]; n++)
		;
	if (n == f->nr_cgroups) {
		errno = ENOENT;
		return -1;
	}
	need = 8 * (2 + (__u64)words);
	if (v[0] < need) {
		v[0] = need;
		errno = ENOSPC;
		return -1;
	}
	n = f->share_reads++ / f->nr_cgroups + 1;
	i = fake_values(fd, n, v, i);
	return (i - 2) * 8;
}

ssize_t read(int fd, void *buf, size_t len)
{
	static ssize_t (*real_read)(int, void *, size_t);
	struct fake_fd *f;
	__u64 *v = buf, ena, run, n;
	ssize_t ret;
	size_t i = 0;

	if (!real_read)
		real_read = (ssize_t (*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	ret = real_read(fd, buf, len);
	if (ret <= 0 || fd < 0 || fd >= MAX_FD || !fds[fd].used)
		return ret;
	f = &fds[fd];
	n = ++f->nreads;
	ena = 1000000000ULL * n;
	run = ena * (__u64)env_long("FAKECOUNT_RUN_PCT", 100) / 100;
	if (f->read_format & PERF_FORMAT_GROUP) {
		__u64 nr = v[i++];

		if (f->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
			v[i++] = ena;
		if (f->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
			v[i++] = run;
		/* members in open order: the leader, then fds naming it */
		for (int m = fd, k = 0; (__u64)k < nr && (i + 1) * 8 <= (size_t)ret; k++) {
			if (k) {
				for (m = m + 1; m < MAX_FD; m++)
					if (fds[m].used && fds[m].group_fd == fd)
						break;
				if (m == MAX_FD)
					break;
			}
			v[i++] = fake_count(&fds[m], n);
			if (f->read_format & PERF_FORMAT_ID)
				i++;
			if (f->read_format & PERF_FORMAT_LOST)
				i++;
		}
		return ret;
	}
	v[i++] = fake_count(f, n);
	if (f->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		v[i++] = ena;
	if (f->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		v[i++] = run;
	return ret;
}
