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
 *                      (single and batch reads, the series' layout, at most
 *                      64 cgroups) on a kernel without them; a cgroup's
 *                      read returns what a per-cgroup event of the same
 *                      config on the same CPU would, so shared mode must
 *                      print exactly what per-cgroup mode prints
 *
 * count = (config + 1) * 1000003 * SCALE * (cpu + 2) * n, for the n-th read;
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
	if (nr == __NR_perf_event_open && ret >= 0 && ret < MAX_FD) {
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

	__u64 vary = 1;

	/* FAKECOUNT_VARY=K: multiply by 1 + (K-th opens later ... ) for -r noise */
	if (env_long("FAKECOUNT_VARY", 0))
		vary = 10 + f->gen / (__u64)env_long("FAKECOUNT_VARY", 1) % 3;
	return (f->config + 1) * 1000003ULL * (__u64)env_long("FAKECOUNT_SCALE", 1) *
	       (cpu + 2) * n * vary;
}

static int fake_values(struct fake_fd *f, __u64 n, __u64 *v, int i)
{
	v[i++] = fake_count(f, n);
	if (f->read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		v[i++] = 1000000000ULL * n;
	if (f->read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		v[i++] = 1000000000ULL * n * (__u64)env_long("FAKECOUNT_RUN_PCT", 100) / 100;
	return i;
}

#define FAKE_ATTACH	_IOW('$', 12, __u64 *)
#define FAKE_READ	_IOWR('$', 13, __u64 *)

int ioctl(int fd, unsigned long req, ...)
{
	static int (*real_ioctl)(int, unsigned long, ...);
	struct fake_fd *f;
	__u64 *v, n;
	va_list ap;
	void *arg;
	int i = 2;

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
	if (!f->nr_cgroups) {
		errno = ENOENT;
		return -1;
	}
	if (v[1] == 0) {
		/* batch: { nr, { id, values... }[nr] } after the header */
		n = ++f->share_reads;
		v[i++] = f->nr_cgroups;
		for (__u64 k = 0; k < f->nr_cgroups; k++) {
			v[i++] = f->ids[k];
			i = fake_values(f, n, v, i);
		}
		return (i - 2) * 8;
	}
	n = f->share_reads++ / f->nr_cgroups + 1;
	i = fake_values(f, n, v, i);
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
