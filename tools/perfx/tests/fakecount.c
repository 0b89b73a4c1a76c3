// SPDX-License-Identifier: GPL-2.0
/*
 * fakecount.so - LD_PRELOAD shim that makes perf counter reads deterministic.
 *
 * Both `perf stat` and `perfx stat` open their events with
 * syscall(__NR_perf_event_open, ...) and read them with read(2).  This shim
 * remembers each perf fd's attr and, on read, replaces the values the kernel
 * returned with a fixed function of (type, config, CPU, cgroup, nth read),
 * different for every event, CPU and cgroup, so that the two tools print
 * the same counts, their outputs can be compared byte for byte, and a count
 * shown for the wrong event, CPU, cgroup or interval changes the output.
 * Used to capture the golden outputs under tests/golden/.
 *
 *   FAKECOUNT_RUN_PCT  percentage of time_enabled reported as running (100)
 *   FAKECOUNT_SCALE    multiplier applied to every count (1)
 *   FAKECOUNT_VARY     K: counts also times 10 + (open# / K) % 3, so that
 *                      repeated runs (-r) differ when K = events x CPUs
 *   FAKECOUNT_CPUS     N: the machine has CPUs 0..N-1, whatever it really
 *                      has: /sys/devices/system/cpu/{online,possible,present}
 *                      read "0-<N-1>", sysconf(_SC_NPROCESSORS_ONLN/CONF) is
 *                      N, and an event opened on a CPU the machine lacks is
 *                      opened on CPU (cpu % real CPUs) and counts as the CPU
 *                      asked for
 *   FAKECOUNT_SHARE    1: emulate PERF_EVENT_IOC_ATTACH_CGROUP/READ_CGROUP
 *                      (single and batch reads, the series' v5 ABI: the
 *                      struct's size from the ioctl number, err_index
 *                      written back; groups read through their leader with
 *                      PERF_FORMAT_GROUP) on a kernel without them,
 *                      refusing what the kernel refuses with its errno
 *                      (attach_cgroups()); a cgroup's read returns what a
 *                      per-cgroup event of the same config on the same CPU
 *                      would, so shared mode must print exactly what
 *                      per-cgroup mode prints
 *   FAKECOUNT_SHARE_NODEV
 *                      PATH: the cgroup at PATH under the cgroup2 mount
 *                      (no leading slash) has no perf_event state of its
 *                      own: ATTACH naming it is -ENODEV, err_index its
 *                      index, as a kernel whose cgroup2 root gave new
 *                      cgroups no perf_event css
 *   FAKECOUNT_SHARE_EAGAIN
 *                      N: each event's first N READ_CGROUP calls fail with
 *                      -EAGAIN, garbage in the buffer, as when the kernel
 *                      saw its cgroups or group change during the call;
 *                      the counts of the calls that work are unchanged
 *   FAKECOUNT_BPF      1: bpf(2) goes to the kernel; by default it fails
 *                      with ENOSYS, as on a kernel without
 *                      CONFIG_BPF_SYSCALL, because a BPF program reads the
 *                      real events past the shim: auto mode then counts
 *                      through events the shim fakes, as the golden
 *                      outputs expect
 *   FAKECOUNT_SHARE_REFUSE
 *                      CONFIG: ATTACH of a group holding the software event
 *                      of that config is -EOPNOTSUPP, as the kernel refuses
 *                      an event of a PMU that does not count per task
 *   FAKECOUNT_HW       0: hardware and hardware-cache events are refused
 *                      with ENOENT, as on a machine without a PMU (so the
 *                      outputs do not depend on the machine having one);
 *                      1: they always open, so their metrics can be
 *                      compared on a machine without a PMU: when the kernel
 *                      refuses one (ENOENT, EOPNOTSUPP, ENODEV, ENXIO,
 *                      EINVAL) it is opened again as a software dummy event
 *                      with the same pid, CPU, group, flags and
 *                      read_format, and read back as the event asked for.
 *                      Both perf 6.1 and perfx take a successful open as
 *                      the event existing (perf only looks at sysfs's cpu
 *                      PMU to add the stalled-cycles events to its default
 *                      set: without a cpu PMU neither tool adds them).
 *                      Their counts follow hw_milli[] and the cache tables
 *                      below instead of unit(), so that the metrics look
 *                      like a real CPU's: 2.6 GHz beside task-clock, 1.37
 *                      insn per cycle, 2% branch misses, 5% L1-dcache load
 *                      misses...
 *
 * count = unit(type, config) * weight(cpu, cgroup) * (1 + 2 + ... + n) for
 * the n-th read, so that interval n's delta is n times the first;
 * time_enabled = 1000000000 * n; time_running = enabled * RUN_PCT / 100.
 * The weight is a prime larger than the units of the events the golden
 * cases use, one for each CPU and cgroup, so no two (event, CPU, cgroup) of
 * a case count the same (see weight() and cgroup_index()).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/ioctl.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../lib/cgroup-share.h"
#include "syscall-shim.h"

#define MAX_FD		65536
/* the kernel's PERF_CGROUP_ATTACH_MAX */
#define ATTACH_MAX	65536

struct fake_fd {
	int used;
	__u32 type;
	__u64 config;
	__u64 read_format;
	int cpu;		/* as asked for: maybe one FAKECOUNT_CPUS made up */
	int group_fd;
	int pid;		/* -1: CPU-wide; a task, or a cgroup's fd */
	int inherit;
	int sampling;		/* a sample period or frequency */
	unsigned int cgroup;	/* cgroup_index() of a cgroup event, else 0 */
	__u64 nreads;
	__u64 gen;
	/* FAKECOUNT_SHARE: the attached cgroups' ids and cgroup_index()es */
	__u64 nr_cgroups;
	__u64 share_reads;
	__u64 share_eagain;	/* READ_CGROUP calls failed with EAGAIN */
	__u64 *ids;
	unsigned int *index;
};

/*
 * glibc's exported aliases of functions interposed below, called directly:
 * no dlsym(RTLD_NEXT) lookup, which is safe while ASan (preloaded first)
 * initialises and calls sysconf() and open() through this shim.
 */
extern long __sysconf(int name);
extern int __open(const char *path, int flags, ...);
extern FILE *_IO_fopen(const char *path, const char *mode);

static __u64 nr_opens;

static struct fake_fd fds[MAX_FD];

/*
 * The decimal number at @s, its end in @end.  Not strtol(): ASan intercepts
 * it, and sysconf() and open() below are called while ASan initialises,
 * when its interceptors must not run.
 */
static long parse_long(const char *s, const char **end)
{
	long n = 0;

	for (; *s >= '0' && *s <= '9'; s++)
		n = n * 10 + *s - '0';
	*end = s;
	return n;
}

/* the number in the environment variable @name, or @def */
static long env_long(const char *name, long def)
{
	const char *s = getenv(name), *end;
	long n;

	if (!s)
		return def;
	n = parse_long(s, &end);
	return end == s ? def : n;
}

/* the CPUs the machine really has online */
static long real_cpus(void)
{
	long n = __sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? n : 1;
}

long sysconf(int name)
{
	long n = env_long("FAKECOUNT_CPUS", 0);

	if (n > 0 && (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF))
		return n;
	return __sysconf(name);
}

/*
 * FAKECOUNT_CPUS: if @path is one of sysfs's CPU lists, store in @fd a
 * file that lists CPUs 0..N-1 (-1 and errno if it cannot be made) and
 * return 1; else return 0.
 */
static int fake_cpu_list(const char *path, int *fd)
{
	static const char *const lists[] = {
		"/sys/devices/system/cpu/online",
		"/sys/devices/system/cpu/possible",
		"/sys/devices/system/cpu/present",
	};
	long n = env_long("FAKECOUNT_CPUS", 0);
	char buf[64];
	size_t i;
	int len;

	if (n <= 0 || !path)
		return 0;
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (!strcmp(path, lists[i]))
			break;
	if (i == sizeof(lists) / sizeof(lists[0]))
		return 0;
	len = n > 1 ? snprintf(buf, sizeof(buf), "0-%ld\n", n - 1) :
		      snprintf(buf, sizeof(buf), "0\n");
	*fd = memfd_create("fakecount-cpus", MFD_CLOEXEC);
	if (*fd < 0)
		return 1;
	if (write(*fd, buf, len) != len || lseek(*fd, 0, SEEK_SET) < 0) {
		close(*fd);
		*fd = -1;
		errno = EIO;
	}
	return 1;
}

/*
 * FAKECOUNT_CPUS: @path, or for a file of a CPU the machine lacks
 * (/sys/devices/system/cpu/cpuN/..., perf reads its topology) the same
 * file of CPU N % real CPUs, in @buf.
 */
static const char *cpu_path(const char *path, char *buf, size_t size)
{
	static const char dir[] = "/sys/devices/system/cpu/cpu";
	const char *end;
	long cpu;

	if (env_long("FAKECOUNT_CPUS", 0) <= 0 || !path ||
	    strncmp(path, dir, sizeof(dir) - 1))
		return path;
	cpu = parse_long(path + sizeof(dir) - 1, &end);
	if (end == path + sizeof(dir) - 1 || *end != '/' || cpu < real_cpus() ||
	    snprintf(buf, size, "%s%ld%s", dir, cpu % real_cpus(), end) >= (int)size)
		return path;
	return buf;
}

static int open_path(const char *path, int flags, mode_t mode)
{
	char buf[PATH_MAX];
	int fd;

	if (fake_cpu_list(path, &fd))
		return fd;
	return __open(cpu_path(path, buf, sizeof(buf)), flags, mode);
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (__OPEN_NEEDS_MODE(flags)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return open_path(path, flags, mode);
}
int open64(const char *path, int flags, ...) __attribute__((alias("open")));

/* _FORTIFY_SOURCE's open(2) without a mode */
int __open_2(const char *path, int flags)
{
	return open_path(path, flags, 0);
}
int __open64_2(const char *path, int flags) __attribute__((alias("__open_2")));

FILE *fopen(const char *path, const char *mode)
{
	char buf[PATH_MAX];
	FILE *f;
	int fd;

	if (fake_cpu_list(path, &fd)) {
		if (fd < 0)
			return NULL;
		f = fdopen(fd, mode);
		if (!f)
			close(fd);
		return f;
	}
	return _IO_fopen(cpu_path(path, buf, sizeof(buf)), mode);
}
FILE *fopen64(const char *path, const char *mode) __attribute__((alias("fopen")));

/* the cgroup2 mount point into @mnt, or "" */
static void cgroup2_mount(char mnt[PATH_MAX])
{
	char *line = NULL, *p;
	size_t len = 0;
	FILE *f;

	*mnt = 0;
	f = _IO_fopen("/proc/self/mountinfo", "re");
	if (!f)
		return;
	while (getline(&line, &len, f) > 0) {
		p = strstr(line, " - cgroup2 ");
		if (!p)
			continue;
		*p = 0;
		/* id parent major:minor root mount-point ... */
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			*mnt = 0;
		break;
	}
	free(line);
	fclose(f);
}

/*
 * The path of the cgroup whose directory @cgfd is open, relative to the
 * cgroup2 mount without a leading slash ("" for the root), into @rel:
 * -ENOENT if it is not under the mount.
 */
static int cgroup_rel(int cgfd, char rel[PATH_MAX])
{
	char mnt[PATH_MAX], link[64], path[PATH_MAX];
	ssize_t len;
	size_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", cgfd);
	len = readlink(link, path, sizeof(path) - 1);
	if (len <= 0)
		return -ENOENT;
	path[len] = 0;
	cgroup2_mount(mnt);
	n = strlen(mnt);
	if (!n || strncmp(path, mnt, n) || (path[n] && path[n] != '/'))
		return -ENOENT;
	snprintf(rel, PATH_MAX, "%s", path[n] ? path + n + 1 : "");
	return 0;
}

/*
 * The index (1..97) of the cgroup whose directory @cgfd is open: a hash of
 * its path under the cgroup2 mount ("/" for the root), so that it is the
 * same on every run and machine, unlike its id (inode number); 0 if the
 * path is unknown.  Per-cgroup events (the fd given to perf_event_open)
 * and attached ids (opened by handle) both come here, so a cgroup counts
 * the same in both modes.  perfx-golden-A is 32, perfx-golden-B 87, / 59:
 * other cgroups may share an index.
 */
static unsigned int cgroup_index(int cgfd)
{
	char rel[PATH_MAX + 1] = "/";
	__u32 hash = 2166136261u;	/* FNV-1a */
	const char *p;

	/* of the path with its leading slash: "/perfx-golden-A", "/" */
	if (cgroup_rel(cgfd, rel + 1))
		return 0;
	for (p = rel; *p; p++)
		hash = (hash ^ (unsigned char)*p) * 16777619u;
	return 1 + hash % 97;
}

/*
 * An event's count per unit of weight, unless FAKECOUNT_HW's tables give
 * one: config + 1 for a software event; another type's is 1000 * (type +
 * 1) more, so that types sharing a config differ.
 */
static __u64 unit(__u32 type, __u64 config)
{
	return config + 1 + (type == PERF_TYPE_SOFTWARE ? 0 : 1000ULL * (type + 1));
}

/*
 * The weight of @cpu (-1 for a task's event) and cgroup index @cgroup (0
 * for none): the first prime from 1000000 * (cpu + 2) + 10000 * cgroup on,
 * so CPUs and cgroups differ in the leading digits, and as the weights are
 * distinct primes above every unit, unit * weight never repeats for
 * another event, CPU or cgroup.
 */
static __u64 weight(int cpu, unsigned int cgroup)
{
	__u64 w = 1000000ULL * (__u64)(cpu + 2) + 10000ULL * cgroup, d;

	for (;; w++) {
		for (d = 2; d * d <= w && w % d; d++)
			;
		if (d * d > w)
			return w;
	}
}

/*
 * FAKECOUNT_HW's counts, in thousandths of a software unit: task-clock
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

static int is_hw(__u32 type)
{
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE;
}

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
	return is_hw(type) && (err == ENOENT || err == EOPNOTSUPP || err == ENODEV ||
			       err == ENXIO || err == EINVAL);
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

static void detach_cgroups(struct fake_fd *f)
{
	free(f->ids);
	free(f->index);
	f->ids = NULL;
	f->index = NULL;
	f->nr_cgroups = 0;
	f->share_reads = 0;
}

static long open_event(long (*real_syscall)(long, ...), long *a)
{
	/* the event asked for, even when a dummy or another CPU stands in */
	const struct perf_event_attr *attr = (const struct perf_event_attr *)a[0];
	int cpu = (int)a[2], hw = env_long("FAKECOUNT_HW", 0);
	struct fake_fd *f;
	long ret;

	if (is_hw(attr->type) && !hw) {
		errno = ENOENT;
		return -1;
	}
	if (env_long("FAKECOUNT_CPUS", 0) > 0 && cpu >= real_cpus())
		a[2] = cpu % real_cpus();
	ret = real_syscall(__NR_perf_event_open, a[0], a[1], a[2], a[3], a[4]);
	if (ret < 0 && hw && hw_refused(attr->type, errno))
		ret = open_as_software(real_syscall, a, errno);
	if (ret < 0 || ret >= MAX_FD)
		return ret;
	f = &fds[ret];
	/* the fd may have been closed without close(): close_range(), exec */
	detach_cgroups(f);
	f->used = 1;
	f->type = attr->type;
	f->config = attr->config;
	f->read_format = attr->read_format;
	f->cpu = cpu;
	f->group_fd = (int)a[3];
	f->pid = (int)a[1];
	f->inherit = attr->inherit;
	/* sample_freq shares sample_period's word */
	f->sampling = attr->sample_period != 0;
	f->cgroup = a[4] & PERF_FLAG_PID_CGROUP ? cgroup_index((int)a[1]) : 0;
	f->nreads = 0;
	f->share_eagain = 0;
	f->gen = nr_opens++;
	return ret;
}

long syscall(long nr, ...)
{
	long (*real_syscall)(long, ...) = syscall_shim__real();
	long a[6];

	SYSCALL_SHIM_ARGS(nr, a);
	if (nr == __NR_perf_event_open)
		return open_event(real_syscall, a);
	if (nr == __NR_bpf && !env_long("FAKECOUNT_BPF", 0)) {
		errno = ENOSYS;
		return -1;
	}
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

int close(int fd)
{
	static int (*real_close)(int);

	if (!real_close)
		real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
	if (fd >= 0 && fd < MAX_FD) {
		fds[fd].used = 0;
		detach_cgroups(&fds[fd]);
	}
	return real_close(fd);
}

/* @f's count at its @n-th read in the cgroup of index @cgroup */
static __u64 fake_count(struct fake_fd *f, unsigned int cgroup, __u64 n)
{
	__u64 w = weight(f->cpu, cgroup) * n * (n + 1) / 2;
	__u64 vary = 1, micro;

	/* FAKECOUNT_VARY=K: multiply by 1 + (K-th opens later ... ) for -r noise */
	if (env_long("FAKECOUNT_VARY", 0))
		vary = 10 + f->gen / (__u64)env_long("FAKECOUNT_VARY", 1) % 3;
	w *= (__u64)env_long("FAKECOUNT_SCALE", 1) * vary;
	micro = hw_micro(f->type, f->config);
	if (micro)
		return (__u64)((unsigned __int128)micro * w / 1000000);
	return unit(f->type, f->config) * w;
}

/* the cgroup ioctls are matched with the size bits masked, as the kernel does */
#define IOC_NOSIZE(req)	((req) & ~(unsigned long)IOCSIZE_MASK)

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
 * The values of @fd's @k-th attached cgroup for the @n-th read at v[i...]:
 * what read(2) below fakes for the same event (a group: { nr, [ena],
 * [run], { value, [id], [lost] }[nr] } through its leader, the members in
 * open order) opened for that cgroup.  A member opened after the attach
 * has no cgroups: 0.
 */
static int fake_values(int fd, __u64 k, __u64 n, __u64 *v, int i)
{
	struct fake_fd *f = &fds[fd];
	__u64 rf = f->read_format, *nr = NULL;
	unsigned int cgroup = f->index[k];
	int m;

	if (rf & PERF_FORMAT_GROUP) {
		nr = &v[i++];
		*nr = 0;
	} else {
		v[i++] = fake_count(f, cgroup, n);
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
		v[i++] = fds[m].nr_cgroups ? fake_count(&fds[m], cgroup, n) : 0;
		if (rf & PERF_FORMAT_ID)
			v[i++] = fake_id(m);
		if (rf & PERF_FORMAT_LOST)
			v[i++] = 0;
		(*nr)++;
	}
	return i;
}

/*
 * The kernel's perf_cgroup_table_qualifies(): only a counting (not
 * sampling), CPU-wide (pid -1: not a task's, not a cgroup event) event can
 * count per cgroup; inherit, meaningless CPU-wide, is taken (v4).
 */
static int qualifies(const struct fake_fd *f)
{
	return f->cpu >= 0 && f->pid == -1 && !f->sampling;
}

/*
 * FAKECOUNT_SHARE_REFUSE=CONFIG: the software event of that config stands
 * for one of a PMU that cannot count per cgroup (one that does not count
 * per task, as an uncore PMU), which the kernel refuses with EOPNOTSUPP
 */
static int refused(const struct fake_fd *f)
{
	long config = env_long("FAKECOUNT_SHARE_REFUSE", -1);

	return config >= 0 && f->type == PERF_TYPE_SOFTWARE && f->config == (__u64)config;
}

/* an id and its index in the ids given, sorted by id then index */
struct id_at {
	__u64 id;
	__u64 k;
};

static int cmp_id_at(const void *a, const void *b)
{
	const struct id_at *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/* dup[k] = 1 for each of the @nr @ids named at an earlier index; -ENOMEM */
static int find_dups(const __u64 *ids, __u64 nr, char *dup)
{
	struct id_at *s = calloc(nr + 1, sizeof(*s));
	__u64 k;

	if (!s)
		return -ENOMEM;
	for (k = 0; k < nr; k++)
		s[k] = (struct id_at){ ids[k], k };
	qsort(s, nr, sizeof(*s), cmp_id_at);
	for (k = 1; k < nr; k++)
		if (s[k].id == s[k - 1].id)
			dup[s[k].k] = 1;
	free(s);
	return 0;
}

/*
 * The cgroup of id @id (opened by handle from the cgroup2 mount @mfd: this
 * shim needs root) into *@index (its cgroup_index()): -ENOENT if it names
 * no live cgroup, -ENODEV if FAKECOUNT_SHARE_NODEV names it.
 */
static int resolve_cgroup(int mfd, __u64 id, unsigned int *index)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h = { .fh.handle_bytes = sizeof(__u64), .id = id };
	const char *nodev = getenv("FAKECOUNT_SHARE_NODEV");
	char rel[PATH_MAX];
	int cgfd, err = 0;

	/* cgroup2's file handle type (FILEID_KERNFS) */
	h.fh.handle_type = 0xfe;
	cgfd = mfd < 0 ? -1 : open_by_handle_at(mfd, &h.fh, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgfd < 0)
		return -ENOENT;
	*index = cgroup_index(cgfd);
	if (nodev && !cgroup_rel(cgfd, rel) && !strcmp(rel, nodev))
		err = -ENODEV;
	close(cgfd);
	return err;
}

/*
 * The cgroup_index() of each of the @nr @ids into @index, in the order
 * the kernel checks each: -ENOENT for an id naming no live cgroup,
 * -ENODEV for one without perf_event state, -EEXIST for one named at an
 * earlier index; *@err_index is then the index at fault.
 */
static int index_cgroups(const __u64 *ids, __u64 nr, unsigned int *index, __u32 *err_index)
{
	char mnt[PATH_MAX], *dup = calloc(nr + 1, 1);
	int mfd = -1, err;
	__u64 k;

	err = dup ? find_dups(ids, nr, dup) : -ENOMEM;
	if (!err) {
		cgroup2_mount(mnt);
		mfd = *mnt ? open(mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	}
	for (k = 0; k < nr && !err; k++) {
		err = resolve_cgroup(mfd, ids[k], &index[k]);
		if (!err && dup[k])
			err = -EEXIST;
		if (err)
			*err_index = k;
	}
	if (mfd >= 0)
		close(mfd);
	free(dup);
	return err;
}

/* give @f the @nr cgroup @ids and their @index (none if @nr is 0) */
static int set_cgroups(struct fake_fd *f, const __u64 *ids, __u64 nr,
		       const unsigned int *index)
{
	detach_cgroups(f);
	f->ids = malloc((nr + 1) * sizeof(*f->ids));
	f->index = malloc((nr + 1) * sizeof(*f->index));
	if (!f->ids || !f->index) {
		detach_cgroups(f);
		return -ENOMEM;
	}
	memcpy(f->ids, ids, nr * sizeof(*f->ids));
	memcpy(f->index, index, nr * sizeof(*f->index));
	f->nr_cgroups = nr;
	return 0;
}

/*
 * Copy the extensible argument @arg of the ioctl @req into @karg (@ksize
 * bytes) as the kernel does (copy_struct_from_user() of _IOC_SIZE(req)
 * bytes): -EINVAL for a size below @ver0 or a non-zero byte past what it
 * knows.
 */
static int copy_ext_arg(void *karg, size_t ksize, size_t ver0, unsigned long req,
			const void *arg)
{
	const unsigned char *p = arg;
	size_t size = _IOC_SIZE(req), i;

	if (size < ver0)
		return -EINVAL;
	for (i = ksize; i < size; i++)
		if (p[i])
			return -EINVAL;
	memset(karg, 0, ksize);
	memcpy(karg, arg, size < ksize ? size : ksize);
	return 0;
}

/* does the group led by @fd qualify for cgroups: 0 or -EOPNOTSUPP */
static int group_qualifies(int fd)
{
	int m;

	if (fds[fd].group_fd >= 0)
		return -EOPNOTSUPP;	/* a member: attach through the leader */
	for (m = next_member(fd, -1); m >= 0; m = next_member(fd, m))
		if (!qualifies(&fds[m]) || refused(&fds[m]))
			return -EOPNOTSUPP;
	return 0;
}

/*
 * PERF_EVENT_IOC_ATTACH_CGROUP @req on @fd with struct
 * perf_event_cgroup_attach at @arg, checked in the order the v5 kernel
 * checks: -EINVAL for the struct's size, flags or reserved field, -E2BIG
 * for too many ids, -EOPNOTSUPP through a group member or if the event or
 * a member does not qualify (before any id: no ids detach a leader
 * whatever it is), then each id in turn: -ENOENT naming no live cgroup,
 * -ENODEV without perf_event state, -EEXIST named before, with its index
 * written back to err_index.  Every member of the group gets the set.
 */
static int attach_cgroups(int fd, unsigned long req, void *arg)
{
	struct perf_event_cgroup_attach a;
	unsigned int *index = NULL;
	__u32 err_index = 0;
	const __u64 *ids;
	int m, err;
	__u64 nr;

	err = copy_ext_arg(&a, sizeof(a), PERF_CGROUP_ATTACH_SIZE_VER0, req, arg);
	if (err)
		return err;
	if (a.flags || a.reserved)
		return -EINVAL;
	nr = a.nr;
	ids = (const __u64 *)(uintptr_t)a.ids;
	if (nr > ATTACH_MAX)
		return -E2BIG;
	if (!nr && fds[fd].group_fd < 0) {
		for (m = next_member(fd, -1); m >= 0; m = next_member(fd, m))
			detach_cgroups(&fds[m]);
		return 0;
	}
	err = group_qualifies(fd);
	if (err)
		return err;
	index = calloc(nr + 1, sizeof(*index));
	err = index ? index_cgroups(ids, nr, index, &err_index) : -ENOMEM;
	if (err == -ENOENT || err == -ENODEV || err == -EEXIST)
		((struct perf_event_cgroup_attach *)arg)->err_index = err_index;
	for (m = next_member(fd, -1); !err && m >= 0; m = next_member(fd, m))
		err = set_cgroups(&fds[m], ids, nr, index);
	free(index);
	return err;
}

/*
 * FAKECOUNT_SHARE_EAGAIN: fail @f's first N READ_CGROUP calls with -EAGAIN,
 * garbage in the @size bytes at @buf, as the kernel leaves what it wrote
 * before it saw the set change
 */
static int read_eagain(struct fake_fd *f, void *buf, __u64 size)
{
	if (f->share_eagain >= (__u64)env_long("FAKECOUNT_SHARE_EAGAIN", 0))
		return 0;
	f->share_eagain++;
	memset(buf, 0xa5, size);
	return -EAGAIN;
}

/*
 * PERF_EVENT_IOC_READ_CGROUP @req of @fd with struct perf_event_cgroup_read
 * at @arg: the checks and the layouts of the kernel's
 * perf_cgroup_read_ioctl().  Returns the bytes written or -errno.
 */
static int read_cgroups(int fd, unsigned long req, struct perf_event_cgroup_read *arg)
{
	struct perf_event_cgroup_read r;
	struct fake_fd *f = &fds[fd];
	int i = 0, words, err;
	__u64 n, need, *v;

	err = copy_ext_arg(&r, sizeof(r), PERF_CGROUP_READ_SIZE_VER0, req, arg);
	if (err)
		return err;
	if (r.flags || r.reserved)
		return -EINVAL;
	/* a group is read as its leader's, whichever of its fds is asked */
	if (f->read_format & PERF_FORMAT_GROUP && f->group_fd >= 0 && f->group_fd < MAX_FD &&
	    fds[f->group_fd].used) {
		fd = f->group_fd;
		f = &fds[fd];
	}
	words = fake_values_words(fd);
	v = (__u64 *)(uintptr_t)r.buf;
	if (r.id == 0) {
		/* batch: { nr, { id, values... }[nr] } */
		need = 8 * (1 + f->nr_cgroups * (1 + words));
		if (r.buf_size < need) {
			arg->buf_size = need;
			return -ENOSPC;
		}
		err = read_eagain(f, v, need);
		if (err)
			return err;
		n = ++f->share_reads;
		v[i++] = f->nr_cgroups;
		for (__u64 k = 0; k < f->nr_cgroups; k++) {
			v[i++] = f->ids[k];
			i = fake_values(fd, k, n, v, i);
		}
		return i * 8;
	}
	for (n = 0; n < f->nr_cgroups && f->ids[n] != r.id; n++)
		;
	if (n == f->nr_cgroups)
		return -ENOENT;
	need = 8 * (__u64)words;
	if (r.buf_size < need) {
		arg->buf_size = need;
		return -ENOSPC;
	}
	err = read_eagain(f, v, need);
	if (err)
		return err;
	/* each cgroup is read once per interval */
	i = fake_values(fd, n, f->share_reads++ / f->nr_cgroups + 1, v, i);
	return i * 8;
}

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;
	int ret;

	if (!real_ioctl)
		real_ioctl = (int (*)(int, unsigned long, ...))dlsym(RTLD_NEXT, "ioctl");
	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (!env_long("FAKECOUNT_SHARE", 0) || fd < 0 || fd >= MAX_FD || !fds[fd].used)
		return real_ioctl(fd, req, arg);
	if (IOC_NOSIZE(req) == IOC_NOSIZE(PERF_EVENT_IOC_ATTACH_CGROUP))
		ret = attach_cgroups(fd, req, arg);
	else if (IOC_NOSIZE(req) == IOC_NOSIZE(PERF_EVENT_IOC_READ_CGROUP))
		ret = read_cgroups(fd, req, arg);
	else
		return real_ioctl(fd, req, arg);
	if (ret < 0) {
		errno = -ret;
		return -1;
	}
	return ret;
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
		for (int m = fd, k = 0; m >= 0 && (__u64)k < nr && (i + 1) * 8 <= (size_t)ret;
		     m = next_member(fd, m), k++) {
			v[i++] = fake_count(&fds[m], fds[m].cgroup, n);
			if (f->read_format & PERF_FORMAT_ID)
				i++;
			if (f->read_format & PERF_FORMAT_LOST)
				i++;
		}
		return ret;
	}
	v[i++] = fake_count(f, f->cgroup, n);
	if (f->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		v[i++] = ena;
	if (f->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		v[i++] = run;
	return ret;
}
