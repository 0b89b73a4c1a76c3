// SPDX-License-Identifier: GPL-2.0
/*
 * Proves what the golden cases rely on in tests/fakecount.so: counts that
 * differ for every event, CPU, cgroup and read, the same for a cgroup in
 * both cgroup modes; the CPUs it fakes; and that its emulated
 * PERF_EVENT_IOC_ATTACH_CGROUP / READ_CGROUP refuse what the kernel series
 * refuses, with the kernel's errno, in the kernel's order (the kernel's
 * side: selftests/perf_events/cgroup_share.c).  Runs itself again with the
 * shim preloaded ($FAKECOUNT); the cgroup checks need root and cgroup2.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "lib/cgroup.h"
#include "lib/cgroup-share.h"
#include "tests/tap.h"

#define FAKE_CPUS	"5"	/* FAKECOUNT_CPUS: more than this machine has */
#define RF		(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)

/* a software counting event, changed by @how */
static int open_event(__u64 config, int pid, int cpu, int group, unsigned long flags,
		      void (*how)(struct perf_event_attr *))
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = config,
		.read_format = RF,
	};

	if (how)
		how(&attr);
	return (int)syscall(__NR_perf_event_open, &attr, pid, cpu, group, flags);
}

static void sampling(struct perf_event_attr *attr)
{
	attr->sample_period = 100000;
}

static void freq(struct perf_event_attr *attr)
{
	attr->freq = 1;
	attr->sample_freq = 1000;
}

static void inherit(struct perf_event_attr *attr)
{
	attr->inherit = 1;
}

static __u64 count(int fd)
{
	__u64 v[3] = { 0 };

	return read(fd, v, sizeof(v)) == sizeof(v) ? v[0] : 0;
}

/* ioctl(@fd, @req, @arg): what it returns, or -errno */
static int ioctl_err(int fd, unsigned long req, void *arg)
{
	int ret = ioctl(fd, req, arg);

	return ret < 0 ? -errno : ret;
}

/* the kernel's err_index of the last attach() (~0 where it wrote none) */
static __u32 err_index;

/* ATTACH_CGROUP of the @nr @ids to @fd: 0 or -errno */
static int attach(int fd, const __u64 *ids, __u32 nr)
{
	struct perf_event_cgroup_attach arg = {
		.nr = nr,
		.ids = (uintptr_t)ids,
		.err_index = ~0U,
	};
	int ret = ioctl_err(fd, PERF_EVENT_IOC_ATTACH_CGROUP, &arg);

	err_index = arg.err_index;
	return ret;
}

/*
 * READ_CGROUP of @id from @fd into @buf of @size bytes: bytes or -errno;
 * *@need is the buffer size the call left (the size needed on -ENOSPC)
 */
static int read_cgroup(int fd, __u64 id, __u64 *buf, __u64 size, __u64 *need)
{
	struct perf_event_cgroup_read arg = {
		.id = id,
		.buf = (uintptr_t)buf,
		.buf_size = size,
	};
	int ret = ioctl_err(fd, PERF_EVENT_IOC_READ_CGROUP, &arg);

	if (need)
		*need = arg.buf_size;
	return ret;
}

static int file_is(const char *path, const char *want)
{
	char buf[64] = "";
	FILE *f = fopen(path, "r");
	int ok;

	if (!f)
		return 0;
	ok = fgets(buf, sizeof(buf), f) && !strcmp(buf, want);
	fclose(f);
	return ok;
}

static void test_cpus(void)
{
	int fd = open_event(PERF_COUNT_SW_CPU_CLOCK, -1, 4, -1, 0, NULL);

	tap_ok(sysconf(_SC_NPROCESSORS_ONLN) == 5 && sysconf(_SC_NPROCESSORS_CONF) == 5,
	       "sysconf() says FAKECOUNT_CPUS CPUs");
	tap_ok(file_is("/sys/devices/system/cpu/online", "0-4\n") &&
	       file_is("/sys/devices/system/cpu/possible", "0-4\n") &&
	       file_is("/sys/devices/system/cpu/present", "0-4\n"),
	       "sysfs's CPU lists say 0-4");
	tap_ok(fd >= 0 && count(fd) > 0, "an event opens and counts on CPU 4");
	if (fd >= 0)
		close(fd);
}

/* every (event, CPU) counts differently; the n-th read 1 + ... + n units */
static void test_counts(void)
{
	__u64 v[2 * 5], first, second, third;
	int i, j, fd, distinct = 1;

	for (i = 0; i < 2 * 5; i++) {
		fd = open_event(i / 5, -1, i % 5, -1, 0, NULL);
		v[i] = fd >= 0 ? count(fd) : 0;
		if (fd >= 0)
			close(fd);
		distinct &= v[i] != 0;
		for (j = 0; j < i; j++)
			distinct &= v[i] != v[j];
	}
	tap_ok(distinct, "cpu-clock and task-clock count differently on each of 5 CPUs");

	fd = open_event(PERF_COUNT_SW_TASK_CLOCK, 0, -1, -1, 0, NULL);
	first = count(fd);
	second = count(fd);
	third = count(fd);
	tap_ok(fd >= 0 && first && second == 3 * first && third == 6 * first,
	       "the n-th read counts 1 + ... + n units: %llu %llu %llu",
	       (unsigned long long)first, (unsigned long long)second,
	       (unsigned long long)third);
	if (fd >= 0)
		close(fd);
}

/* what a per-cgroup event of @cgfd counts at its first read on CPU 0 */
static __u64 cgroup_count(int cgfd)
{
	int fd = open_event(PERF_COUNT_SW_TASK_CLOCK, cgfd, 0, -1, PERF_FLAG_PID_CGROUP, NULL);
	__u64 v = fd >= 0 ? count(fd) : 0;

	if (fd >= 0)
		close(fd);
	return v;
}

/* cgroups count differently, the same in per-cgroup and in shared mode */
static void test_cgroups(int fda, int fdb, __u64 ida, __u64 idb)
{
	__u64 a = cgroup_count(fda), b = cgroup_count(fdb), ids[] = { ida, idb };
	__u64 buf[1 + 2 * 4];
	int fd = open_event(PERF_COUNT_SW_TASK_CLOCK, -1, 0, -1, 0, NULL);
	__u64 none = count(fd);

	tap_ok(a && b && a != b && a != none && b != none,
	       "two cgroups and no cgroup count differently: %llu %llu %llu",
	       (unsigned long long)a, (unsigned long long)b, (unsigned long long)none);
	close(fd);
	fd = open_event(PERF_COUNT_SW_TASK_CLOCK, -1, 0, -1, 0, NULL);
	tap_ok(!attach(fd, ids, 2) && read_cgroup(fd, 0, buf, sizeof(buf), NULL) == 9 * 8 &&
	       buf[0] == 2 && buf[1] == ida && buf[2] == a && buf[5] == idb && buf[6] == b,
	       "an attached cgroup reads what its per-cgroup event reads");
	close(fd);
}

/* the ioctl @req with the struct of @size bytes its number encodes */
#define IOC_SIZED(req, size) \
	(((req) & ~(unsigned long)(_IOC_SIZEMASK << _IOC_SIZESHIFT)) | \
	 ((unsigned long)(size) << _IOC_SIZESHIFT))

/*
 * The extensible structs' rules on @fd, which has @id attached: the size
 * is the ioctl number's; a size below the first version, a flag, a
 * reserved field or a non-zero byte past the struct is EINVAL, a larger
 * struct whose tail is zero works
 */
static void test_ext_arg(int fd, __u64 id)
{
	struct {
		struct perf_event_cgroup_attach a;
		__u64 tail;
	} attach = { { .nr = 1, .ids = (uintptr_t)&id } };
	__u64 buf[3];
	struct {
		struct perf_event_cgroup_read r;
		__u64 tail;
	} read = { { .id = id, .buf = (uintptr_t)buf, .buf_size = sizeof(buf) } };
	unsigned long big_attach = IOC_SIZED(PERF_EVENT_IOC_ATTACH_CGROUP, sizeof(attach));
	unsigned long big_read = IOC_SIZED(PERF_EVENT_IOC_READ_CGROUP, sizeof(read));

	tap_ok(_IOC_SIZE(PERF_EVENT_IOC_ATTACH_CGROUP) == PERF_CGROUP_ATTACH_SIZE_VER0 &&
	       _IOC_SIZE(PERF_EVENT_IOC_READ_CGROUP) == PERF_CGROUP_READ_SIZE_VER0 &&
	       _IOC_DIR(PERF_EVENT_IOC_ATTACH_CGROUP) == (_IOC_READ | _IOC_WRITE) &&
	       _IOC_DIR(PERF_EVENT_IOC_READ_CGROUP) == (_IOC_READ | _IOC_WRITE),
	       "both ioctls are _IOWR of their first version's size (24, 32)");
	tap_ok(!ioctl_err(fd, big_attach, &attach) && ioctl_err(fd, big_read, &read) == 3 * 8,
	       "larger structs with a zero tail are taken");
	attach.tail = read.tail = 1;
	tap_ok(ioctl_err(fd, big_attach, &attach) == -EINVAL &&
	       ioctl_err(fd, big_read, &read) == -EINVAL,
	       "larger structs with a non-zero tail: EINVAL");
	attach.tail = read.tail = 0;
	tap_ok(ioctl_err(fd, IOC_SIZED(PERF_EVENT_IOC_ATTACH_CGROUP,
				       PERF_CGROUP_ATTACH_SIZE_VER0 - 1), &attach) == -EINVAL &&
	       ioctl_err(fd, IOC_SIZED(PERF_EVENT_IOC_READ_CGROUP,
				       PERF_CGROUP_READ_SIZE_VER0 - 1), &read) == -EINVAL,
	       "structs below their first version: EINVAL");
	attach.a.flags = read.r.flags = 1U << 31;
	tap_ok(ioctl_err(fd, PERF_EVENT_IOC_ATTACH_CGROUP, &attach) == -EINVAL &&
	       ioctl_err(fd, PERF_EVENT_IOC_READ_CGROUP, &read) == -EINVAL,
	       "an unknown flag: EINVAL");
	attach.a.flags = read.r.flags = 0;
	attach.a.reserved = read.r.reserved = 1;
	tap_ok(ioctl_err(fd, PERF_EVENT_IOC_ATTACH_CGROUP, &attach) == -EINVAL &&
	       ioctl_err(fd, PERF_EVENT_IOC_READ_CGROUP, &read) == -EINVAL,
	       "a non-zero reserved field: EINVAL");
	tap_ok(ioctl_err(fd, _IOW('$', 12, struct perf_event_cgroup_attach), &attach) == -ENOTTY,
	       "the v4 number (_IOW) is not the attach: ENOTTY");
}

/* ATTACH_CGROUP of @ids to @fd fails with @want, blaming ids[@at] */
static void check_refusal(int fd, const __u64 *ids, __u32 nr, int want, __u32 at,
			  const char *what)
{
	int ret = attach(fd, ids, nr);

	tap_ok(ret == want && err_index == at, "%s (got %d, err_index %u)", what, ret, err_index);
}

/* ATTACH_CGROUP's refusals, in the order the kernel checks */
static void test_attach(int fda, __u64 ida, __u64 idb)
{
	__u64 *many = calloc(65537, sizeof(*many)), ids[] = { ida, idb }, buf[8], need;
	__u64 bogus = ~0ULL >> 1;
	int fd = open_event(PERF_COUNT_SW_TASK_CLOCK, -1, 0, -1, 0, sampling);
	int lead, member, err;

	tap_ok(many && attach(fd, many, 65537) == -E2BIG,
	       "more than 65536 ids: E2BIG, checked first");
	tap_ok(many && attach(fd, many, 65536) == -EOPNOTSUPP,
	       "65536 bogus ids on a sampling event: EOPNOTSUPP, checked before any id");
	tap_ok(attach(fd, ids, 2) == -EOPNOTSUPP, "a sampling event: EOPNOTSUPP");
	close(fd);
	free(many);

	fd = open_event(PERF_COUNT_SW_TASK_CLOCK, -1, 0, -1, 0, freq);
	tap_ok(attach(fd, ids, 2) == -EOPNOTSUPP, "an event with a sample frequency: EOPNOTSUPP");
	close(fd);
	fd = open_event(PERF_COUNT_SW_TASK_CLOCK, -1, 0, -1, 0, inherit);
	tap_ok(attach(fd, ids, 2) == 0, "an inherited event is taken, as by the v4 kernel");
	close(fd);
	fd = open_event(PERF_COUNT_SW_TASK_CLOCK, 0, 0, -1, 0, NULL);
	tap_ok(attach(fd, ids, 2) == -EOPNOTSUPP, "a task's event on a CPU: EOPNOTSUPP");
	tap_ok(attach(fd, NULL, 0) == 0, "no ids on a task's event: nothing to detach, 0");
	close(fd);
	fd = open_event(PERF_COUNT_SW_TASK_CLOCK, 0, -1, -1, 0, NULL);
	tap_ok(attach(fd, ids, 2) == -EOPNOTSUPP, "a task's event on any CPU: EOPNOTSUPP");
	close(fd);
	fd = open_event(PERF_COUNT_SW_TASK_CLOCK, fda, 0, -1, PERF_FLAG_PID_CGROUP, NULL);
	tap_ok(attach(fd, ids, 2) == -EOPNOTSUPP, "a cgroup event: EOPNOTSUPP");
	close(fd);

	lead = open_event(PERF_COUNT_SW_TASK_CLOCK, -1, 0, -1, 0, NULL);
	member = open_event(PERF_COUNT_SW_CONTEXT_SWITCHES, -1, 0, lead, 0, NULL);
	tap_ok(attach(member, ids, 2) == -EOPNOTSUPP, "through a group member: EOPNOTSUPP");
	check_refusal(lead, (__u64[]){ bogus }, 1, -ENOENT, 0,
		      "an id naming no cgroup: ENOENT, err_index 0");
	check_refusal(lead, (__u64[]){ ida, bogus, idb }, 3, -ENOENT, 1,
		      "the second of three ids naming no cgroup: ENOENT, err_index 1");
	check_refusal(lead, (__u64[]){ ida, idb, ida }, 3, -EEXIST, 2,
		      "an id twice: EEXIST, err_index the second");
	check_refusal(lead, (__u64[]){ idb, idb, bogus }, 3, -EEXIST, 1,
		      "an id twice before a bogus one: EEXIST at 1, ids checked in order");
	err = attach(lead, ids, 2);
	tap_ok(!err && err_index == ~0U && read_cgroup(member, idb, buf, sizeof(buf), NULL) == 3 * 8,
	       "through the leader: the member counts for the cgroups too, err_index untouched");
	tap_ok(!attach(lead, ids, 1) && read_cgroup(lead, idb, buf, sizeof(buf), NULL) == -ENOENT,
	       "READ_CGROUP of a cgroup no longer attached: ENOENT");
	tap_ok(read_cgroup(lead, ida, buf, 2 * 8, &need) == -ENOSPC && need == 3 * 8,
	       "READ_CGROUP into too small a buffer: ENOSPC and the size needed");
	test_ext_arg(lead, ida);
	tap_ok(!attach(lead, NULL, 0) && read_cgroup(lead, ida, buf, sizeof(buf), NULL) == -ENOENT,
	       "no ids detach every cgroup");
	close(member);
	close(lead);

	lead = open_event(PERF_COUNT_SW_TASK_CLOCK, -1, 0, -1, 0, NULL);
	member = open_event(PERF_COUNT_SW_CONTEXT_SWITCHES, -1, 0, lead, 0, sampling);
	tap_ok(attach(lead, ids, 2) == -EOPNOTSUPP, "a group with a sampling member: EOPNOTSUPP");
	close(member);
	close(lead);
}

/*
 * FAKECOUNT_SHARE_NODEV=@nodev_rel (cgroup @idb): ENODEV at its index, after
 * the ENOENT of an id before it; FAKECOUNT_SHARE_EAGAIN=1: the first read
 * fails with EAGAIN, the next reads what it would have
 */
static void test_nodev_eagain(int fda, const char *nodev_rel, __u64 ida, __u64 idb)
{
	__u64 bogus = ~0ULL >> 1, buf[1 + 2 * 4], a = cgroup_count(fda);
	int fd = open_event(PERF_COUNT_SW_TASK_CLOCK, -1, 0, -1, 0, NULL), ret;

	setenv("FAKECOUNT_SHARE_NODEV", nodev_rel, 1);
	check_refusal(fd, (__u64[]){ ida, idb }, 2, -ENODEV, 1,
		      "a cgroup without perf_event state: ENODEV, err_index 1");
	check_refusal(fd, (__u64[]){ bogus, idb }, 2, -ENOENT, 0,
		      "ids checked in order: ENOENT at 0 before ENODEV at 1");
	check_refusal(fd, (__u64[]){ idb, ida, ida }, 3, -ENODEV, 0,
		      "ENODEV at 0 before EEXIST at 2");
	unsetenv("FAKECOUNT_SHARE_NODEV");

	setenv("FAKECOUNT_SHARE_EAGAIN", "1", 1);
	close(fd);
	fd = open_event(PERF_COUNT_SW_TASK_CLOCK, -1, 0, -1, 0, NULL);
	tap_ok(!attach(fd, (__u64[]){ ida }, 1) &&
	       read_cgroup(fd, 0, buf, sizeof(buf), NULL) == -EAGAIN && buf[0] != 1,
	       "FAKECOUNT_SHARE_EAGAIN=1: the first READ_CGROUP fails with EAGAIN");
	ret = read_cgroup(fd, 0, buf, sizeof(buf), NULL);
	tap_ok(ret == 5 * 8 && buf[0] == 1 && buf[1] == ida && buf[2] == a,
	       "the next reads the first read's counts: %llu, want %llu",
	       (unsigned long long)buf[2], (unsigned long long)a);
	unsetenv("FAKECOUNT_SHARE_EAGAIN");
	close(fd);
}

/* with the cgroups @name-A and @name-B under the cgroup2 mount */
static void test_with_cgroups(void)
{
	char mnt[PATH_MAX], a[PATH_MAX + 64], b[PATH_MAX + 64];
	int fda = -1, fdb = -1;
	__u64 ida, idb;

	if (geteuid() || cgroup__find_mnt(NULL, mnt, sizeof(mnt))) {
		tap_skip("the cgroup checks", "needs root and a cgroup2 mount");
		return;
	}
	snprintf(a, sizeof(a), "%s/perfx-fakecount-%d-A", mnt, (int)getpid());
	snprintf(b, sizeof(b), "%s/perfx-fakecount-%d-B", mnt, (int)getpid());
	if (mkdir(a, 0755) || mkdir(b, 0755) ||
	    (fda = open(a, O_RDONLY | O_DIRECTORY)) < 0 ||
	    (fdb = open(b, O_RDONLY | O_DIRECTORY)) < 0 ||
	    cgroup__path_id(a, &ida) || cgroup__path_id(b, &idb)) {
		tap_ok(0, "create the cgroups %s and %s: %s", a, b, strerror(errno));
		goto out;
	}
	test_cgroups(fda, fdb, ida, idb);
	test_attach(fda, ida, idb);
	test_nodev_eagain(fda, strrchr(b, '/') + 1, ida, idb);
out:
	if (fda >= 0)
		close(fda);
	if (fdb >= 0)
		close(fdb);
	rmdir(a);
	rmdir(b);
}

int main(int argc, char **argv)
{
	const char *shim = getenv("FAKECOUNT"), *asan = getenv("ASAN_OPTIONS");
	char opts[1024];

	(void)argc;
	tap_start("fakecount");
	if (!getenv("FAKECOUNT_SHARE")) {
		if (!shim) {
			tap_skip("the shim", "FAKECOUNT names no fakecount.so");
			return tap_done();
		}
		/* the shim before ASan: see golden.sh */
		snprintf(opts, sizeof(opts), "%s%sverify_asan_link_order=0", asan ? asan : "",
			 asan ? ":" : "");
		if (setenv("LD_PRELOAD", shim, 1) || setenv("ASAN_OPTIONS", opts, 1) ||
		    setenv("FAKECOUNT_SHARE", "1", 1) || setenv("FAKECOUNT_CPUS", FAKE_CPUS, 1)) {
			tap_ok(0, "set the environment: %s", strerror(errno));
			return tap_done();
		}
		execv("/proc/self/exe", argv);
		tap_ok(0, "run again under %s: %s", shim, strerror(errno));
		return tap_done();
	}
	test_cpus();
	test_counts();
	test_with_cgroups();
	return tap_done();
}
