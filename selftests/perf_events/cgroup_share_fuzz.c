// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz PERF_EVENT_IOC_ATTACH_CGROUP / READ_CGROUP for a bounded time:
 * threads issue both ioctls with random struct sizes (the size the ioctl
 * number encodes, which is the struct's), tails beyond the struct, flags,
 * reserved fields, counts, ids, buffer sizes and pointers (valid, NULL,
 * unmapped, kernel addresses) on random file descriptors
 * (CPU-wide counting events and groups, sampling, per-task and cgroup
 * events, a pipe, a cgroup directory, closed ones), while cgroups are
 * created and removed, tasks migrate between them and, when asked with
 * CGS_FUZZ_HOTPLUG=1 and where the kernel lets it, CPU 1 goes off and on
 * line.
 *
 * Every call must succeed or fail with an errno the v5 ABI documents for
 * some input (a read racing an attach, or an attach racing its group's
 * changes, may fail with EAGAIN), and what can be told from the input
 * alone must hold: a struct the kernel cannot know (a flag, a reserved
 * field, a non-zero tail, a size below the first version) is never taken
 * nor its ids looked at; E2BIG is for nr, or nr times the members of a
 * group, above the limits only; err_index, written back with ENOENT, EEXIST and ENODEV,
 * is an index into ids, and with EEXIST one whose id came earlier; a read
 * does not claim more bytes than its buffer holds, and with ENOSPC tells
 * a larger size than it had.  The kernel side (lockdep, KASAN, KFENCE,
 * WARN) is checked by whoever runs it, e.g. scripts/vm, which fails on
 * any report.  The duration is
 * CGS_FUZZ_SECONDS (default 5, at most 1800).
 */
#include "cgroup_share_util.h"
#include "../kselftest_harness.h"
#include <pthread.h>
#include <stdatomic.h>
#include <sys/mman.h>

#define NR_FDS		16
#define NR_CG		6
#define NR_THREADS	4
#define FUZZ_TIMEOUT	1900
#define FUZZ_MAX	1800

enum { OP_ATTACH, OP_READ, OP_OPEN, OP_CG, OP_MOVE, OP_HOTPLUG, NR_OPS };

static const char * const op_names[NR_OPS] = {
	"attach", "read", "open/close", "cgroup mkdir/rmdir", "migration",
	"CPU off/online",
};

static struct {
	char dir[PATH_MAX];
	char cg[NR_CG][PATH_MAX];
	__u64 id[NR_CG];		/* __atomic_*(): 0 while removed */
	__u64 gone;			/* a removed cgroup's id */
	int fds[NR_FDS];		/* __atomic_*() */
	pid_t spinner;
	int ncpus;
	char *unmapped;			/* a page that is not mapped */
	atomic_bool stop;
	atomic_long ops[NR_OPS], bad;
} fz;

static unsigned int rnd(unsigned int *seed, unsigned int n)
{
	return rand_r(seed) % n;
}

static __u64 rnd64(unsigned int *seed)
{
	return (__u64)rand_r(seed) << 42 ^ (__u64)rand_r(seed) << 21 ^ rand_r(seed);
}

/* errnos the v5 ABI documents for some input, or that a bad fd gives */
static bool allowed(int err, bool read)
{
	switch (err) {
	case EINVAL:
	case ENOENT:
	case EFAULT:
	case ENOTTY:
	case EBADF:
	case ENOMEM:
		return true;
	case E2BIG:
	case EOPNOTSUPP:
	case ENODEV:
	case EEXIST:
		return !read;
	case EAGAIN:
	case EINTR:
		return true;
	case ENOSPC:
		return read;
	}
	return false;
}

/* count a call and whether it went as @ok says; @why if it did not */
static void check(bool read, bool ok, int ret, int err, const char *why)
{
	atomic_fetch_add(&fz.ops[read ? OP_READ : OP_ATTACH], 1);
	if (ok)
		return;
	atomic_fetch_add(&fz.bad, 1);
	fprintf(stderr, "# %s returned %d (%s): %s\n", read ? "read" : "attach", ret,
		ret < 0 ? strerror(err) : "success", why);
}

/* a user pointer: mostly @good, else NULL, a low one, an unmapped or a kernel one */
static __u64 pointer(unsigned int *seed, void *good)
{
	switch (rnd(seed, 16)) {
	case 0:
		return 0;
	case 1:
		return 8;
	case 2:
		return (uintptr_t)fz.unmapped;
	case 3:
		return 0xffffffff81000000ULL;
	case 4:
		return rnd64(seed);
	}
	return (uintptr_t)good;
}

/*
 * a struct size for the ioctl number: mostly the right one, else below it,
 * a bit or a page or more above it, up to the largest the number holds
 */
static __u32 size_of(unsigned int *seed, __u32 size)
{
	switch (rnd(seed, 10)) {
	case 0:
		return rnd(seed, size);
	case 1:
		return size + 1 + rnd(seed, 64);
	case 2:
		return 4096 + rnd(seed, 8192);
	case 3:
		return rnd(seed, _IOC_SIZEMASK + 1);
	}
	return size;
}

/* an id: an attached-able cgroup, a removed one, the root, 0 or garbage */
static __u64 some_id(unsigned int *seed)
{
	switch (rnd(seed, 8)) {
	case 0:
		return fz.gone;
	case 1:
		return 1;
	case 2:
		return rnd(seed, 2) ? 0 : rnd64(seed);
	}
	return __atomic_load_n(&fz.id[rnd(seed, NR_CG)], __ATOMIC_RELAXED);
}

/* the ioctl number of @cmd for a struct of @size bytes */
static unsigned long cmd_sized(unsigned long cmd, __u32 size)
{
	return (cmd & ~(unsigned long)IOCSIZE_MASK) |
	       ((unsigned long)size << _IOC_SIZESHIFT);
}

/*
 * The struct passed, of up to the largest size an ioctl number holds, so
 * that the kernel never reads past it: zero but for the fields set and,
 * sometimes, one byte of the tail (beyond the struct's size this kernel
 * knows; maybe beyond the size passed too, where it must not matter).
 */
union ext_arg {
	struct perf_event_cgroup_attach a;
	struct perf_event_cgroup_read r;
	__u8 bytes[_IOC_SIZEMASK + 1];
};

/* dirty one byte of @arg's tail beyond @known bytes; is it within @size? */
static bool dirty_tail(unsigned int *seed, union ext_arg *arg, __u32 known,
		       __u32 size)
{
	__u32 at = known + rnd(seed, size > known && rnd(seed, 2) ? size - known : 64);

	arg->bytes[at] = 1 + rnd(seed, 255);
	return at < size;
}

/* Did the kernel take a struct it cannot know, or look at its ids? */
static bool unknown_taken(int ret, int err)
{
	return !ret || (ret < 0 && (err == ENOENT || err == EEXIST || err == ENODEV));
}

static void fuzz_attach(unsigned int *seed, int fd)
{
	static __thread union ext_arg arg;
	__u32 size = size_of(seed, sizeof(arg.a)), nr;
	unsigned int i, n = rnd(seed, 16);
	bool ours = rnd(seed, 32), unknown;
	__u64 ids[16];
	int ret, err;

	memset(&arg, 0, sizeof(arg));
	for (i = 0; i < n; i++)
		ids[i] = some_id(seed);
	arg.a.flags = rnd(seed, 8) ? 0 : 1U << rnd(seed, 32);
	arg.a.reserved = rnd(seed, 8) ? 0 : rand_r(seed);
	arg.a.nr = rnd(seed, 16) ? n : rnd(seed, 2) ? 65537 + rnd(seed, 100) :
		   (__u32)rand_r(seed);
	arg.a.ids = pointer(seed, ids);
	arg.a.err_index = ~0U;
	unknown = size < PERF_CGROUP_ATTACH_SIZE_VER0 || arg.a.flags || arg.a.reserved;
	if (!rnd(seed, 8))
		unknown |= dirty_tail(seed, &arg, sizeof(arg.a), size);
	nr = arg.a.nr;

	ret = ioctl(fd, cmd_sized(PERF_EVENT_IOC_ATTACH_CGROUP, size),
		    ours ? (void *)&arg : (void *)(uintptr_t)pointer(seed, &arg));
	err = errno;
	if (ret < 0 && !allowed(err, false)) {
		check(false, false, ret, err, "an errno ATTACH does not have");
	} else if (ret > 0) {
		check(false, false, ret, err, "a positive return");
	} else if (ours && unknown && unknown_taken(ret, err)) {
		check(false, false, ret, err, "a struct it cannot know was taken");
	} else if (ours && ret < 0 && err == E2BIG && nr <= CGS_ATTACH_MAX &&
		   (__u64)nr * NR_FDS <= CGS_ATTACH_ENTRIES) {
		/* a group has at most NR_FDS members */
		check(false, false, ret, err, "E2BIG is for nr above the limits only");
	} else if (ours && ret < 0 && (err == ENOENT || err == EEXIST || err == ENODEV) &&
		   arg.a.err_index >= nr) {
		fprintf(stderr, "# err_index %u of %u ids\n", arg.a.err_index, nr);
		check(false, false, ret, err, "err_index beyond the ids");
	} else if (ours && ret < 0 && err == EEXIST && arg.a.ids == (uintptr_t)ids &&
		   arg.a.err_index < n) {
		for (i = 0; i < arg.a.err_index && ids[i] != ids[arg.a.err_index]; i++)
			;
		check(false, i < arg.a.err_index, ret, err,
		      "EEXIST at an id that did not come earlier");
	} else {
		check(false, true, ret, err, NULL);
	}
}

static void fuzz_read(unsigned int *seed, int fd)
{
	static __thread union ext_arg arg;
	__u32 size = size_of(seed, sizeof(arg.r));
	bool ours = rnd(seed, 32), unknown;
	__u64 buf[256], buf_size;
	int ret, err;

	memset(&arg, 0, sizeof(arg));
	arg.r.flags = rnd(seed, 8) ? 0 : 1U << rnd(seed, 32);
	arg.r.reserved = rnd(seed, 8) ? 0 : rand_r(seed);
	arg.r.id = rnd(seed, 3) ? 0 : some_id(seed);
	arg.r.buf = pointer(seed, buf);
	arg.r.buf_size = rnd(seed, 8) ? rnd(seed, sizeof(buf) + 1) : rnd64(seed);
	if (arg.r.buf == (uintptr_t)buf && arg.r.buf_size > sizeof(buf))
		arg.r.buf_size = sizeof(buf);
	unknown = size < PERF_CGROUP_READ_SIZE_VER0 || arg.r.flags || arg.r.reserved;
	if (!rnd(seed, 8))
		unknown |= dirty_tail(seed, &arg, sizeof(arg.r), size);
	buf_size = arg.r.buf_size;

	ret = ioctl(fd, cmd_sized(PERF_EVENT_IOC_READ_CGROUP, size),
		    ours ? (void *)&arg : (void *)(uintptr_t)pointer(seed, &arg));
	err = errno;
	if (ret < 0 && !allowed(err, true))
		check(true, false, ret, err, "an errno READ does not have");
	else if (ret >= 0 && ((__u64)ret > buf_size || ret % 8 || ret < 8))
		check(true, false, ret, err, "more bytes than the buffer, or not values");
	else if (ours && unknown && (ret >= 0 || err == ENOSPC))
		check(true, false, ret, err, "a struct it cannot know was taken");
	else if (ours && ret < 0 && err == ENOSPC && arg.r.buf_size <= buf_size)
		check(true, false, ret, err, "ENOSPC without a larger size");
	else
		check(true, true, ret, err, NULL);
}

/* a new fd of a random kind for slot @i (the old one is closed) */
static void reopen(unsigned int *seed, int i)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = rnd(seed, 2) ? PERF_COUNT_SW_TASK_CLOCK : PERF_COUNT_SW_CPU_CLOCK,
		.read_format = rand_r(seed) & (PERF_FORMAT_GROUP | PERF_FORMAT_ID |
					       PERF_FORMAT_LOST |
					       PERF_FORMAT_TOTAL_TIME_ENABLED |
					       PERF_FORMAT_TOTAL_TIME_RUNNING),
		.inherit = rnd(seed, 2),
	};
	int cpu = rnd(seed, fz.ncpus), fd, old, leader, cgfd;

	switch (rnd(seed, 8)) {
	case 0:
		attr.sample_period = 100000;
		fd = cgs_perf_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		break;
	case 1:
		fd = cgs_perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		break;
	case 2:
		cgfd = open(fz.cg[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		fd = cgs_perf_open(&attr, cgfd, cpu, -1,
				   PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
		close(cgfd);
		break;
	case 3:
		fd = rnd(seed, 2) ? open(fz.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) :
				    open("/dev/null", O_RDONLY | O_CLOEXEC);
		break;
	case 4:
		/* a member of another slot's event, maybe of a group with cgroups */
		leader = __atomic_load_n(&fz.fds[rnd(seed, NR_FDS)], __ATOMIC_RELAXED);
		fd = cgs_perf_open(&attr, -1, cpu, leader, PERF_FLAG_FD_CLOEXEC);
		break;
	default:
		fd = cgs_perf_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		break;
	}
	atomic_fetch_add(&fz.ops[OP_OPEN], 1);
	old = __atomic_exchange_n(&fz.fds[i], fd, __ATOMIC_RELAXED);
	/* another thread may still use the old number: it then gets EBADF or a new fd */
	if (old >= 0)
		close(old);
}

static void *fuzzer(void *arg)
{
	unsigned int seed = (unsigned int)(long)arg;

	while (!atomic_load(&fz.stop)) {
		int i = rnd(&seed, NR_FDS), fd;

		if (!rnd(&seed, 16)) {
			reopen(&seed, i);
			continue;
		}
		fd = __atomic_load_n(&fz.fds[i], __ATOMIC_RELAXED);
		if (!rnd(&seed, 64))
			fd = rnd(&seed, 2) ? -1 : 9999;
		if (rnd(&seed, 2))
			fuzz_attach(&seed, fd);
		else
			fuzz_read(&seed, fd);
	}
	return NULL;
}

/* remove and create the cgroups, move the spinner between them */
static void *churner(void *arg)
{
	unsigned int seed = (unsigned int)(long)arg;

	while (!atomic_load(&fz.stop)) {
		int i = 1 + rnd(&seed, NR_CG - 1);

		if (rnd(&seed, 2)) {
			cgs_move(fz.cg[rnd(&seed, NR_CG)], fz.spinner);
			atomic_fetch_add(&fz.ops[OP_MOVE], 1);
		} else if (__atomic_load_n(&fz.id[i], __ATOMIC_RELAXED)) {
			if (!rmdir(fz.cg[i])) {
				fz.gone = __atomic_exchange_n(&fz.id[i], 0, __ATOMIC_RELAXED);
				atomic_fetch_add(&fz.ops[OP_CG], 1);
			}
		} else {
			char name[16], dir[PATH_MAX];

			snprintf(name, sizeof(name), "cg%d", i);
			/* cgs_mkdir() writes fz.cg[i]: not from fz itself */
			memcpy(dir, fz.dir, sizeof(dir));
			__atomic_store_n(&fz.id[i], cgs_mkdir(dir, name, fz.cg[i]),
					 __ATOMIC_RELAXED);
			atomic_fetch_add(&fz.ops[OP_CG], 1);
		}
		usleep(1000);
	}
	return NULL;
}

/*
 * take CPU 1 off and on line, if there is one the kernel lets go; only
 * when asked (CGS_FUZZ_HOTPLUG=1, as the test bed's stress run does), and
 * left online as it was found
 */
static void *hotplugger(void *arg)
{
	const char *cpu1 = "/sys/devices/system/cpu/cpu1";
	int on = 1;

	while (!atomic_load(&fz.stop)) {
		usleep(200000);
		if (cgs_write(cpu1, "online", on ? "0" : "1"))
			break;
		on = !on;
		atomic_fetch_add(&fz.ops[OP_HOTPLUG], 1);
	}
	if (!on)
		cgs_write(cpu1, "online", "1");
	return NULL;
}

FIXTURE(fuzz) {
};

FIXTURE_SETUP(fuzz)
{
}

FIXTURE_TEARDOWN(fuzz)
{
}

TEST_F_TIMEOUT(fuzz, run, FUZZ_TIMEOUT)
{
	const char *env = getenv("CGS_FUZZ_SECONDS"), *why, *mnt;
	int seconds = env ? atoi(env) : 5, i, nthreads = 0, cgfd;
	pthread_t threads[NR_THREADS + 2];
	long total = 0;
	char name[16];

	/* as the share fixture: else every attach of a new cgroup is ENODEV */
	why = cgs_private_parent("perf_fuzz", &mnt, fz.dir);
	if (why)
		SKIP(return, "%s", why);
	if (seconds < 1 || seconds > FUZZ_MAX)
		seconds = seconds < 1 ? 1 : FUZZ_MAX;
	fz.ncpus = sysconf(_SC_NPROCESSORS_CONF);

	fz.unmapped = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, fz.unmapped);
	ASSERT_EQ(0, munmap(fz.unmapped, 4096));
	for (i = 0; i < NR_CG; i++) {
		snprintf(name, sizeof(name), "cg%d", i);
		fz.id[i] = cgs_mkdir(fz.dir, name, fz.cg[i]);
		ASSERT_NE(0ULL, fz.id[i]);
	}
	fz.gone = fz.id[NR_CG - 1];
	ASSERT_EQ(0, rmdir(fz.cg[NR_CG - 1]));
	fz.id[NR_CG - 1] = 0;

	cgfd = open(fz.cg[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, cgfd);
	fz.spinner = cgs_fork_into(cgfd);
	if (!fz.spinner)
		for (;;)
			usleep(100);
	ASSERT_LT(0, fz.spinner);
	close(cgfd);

	for (i = 0; i < NR_FDS; i++)
		fz.fds[i] = cgs_open_counter(i % fz.ncpus, PERF_COUNT_SW_TASK_CLOCK,
					     0, -1);

	for (i = 0; i < NR_THREADS; i++)
		ASSERT_EQ(0, pthread_create(&threads[nthreads++], NULL, fuzzer,
					    (void *)(long)(i + 1)));
	ASSERT_EQ(0, pthread_create(&threads[nthreads++], NULL, churner, (void *)11L));
	env = getenv("CGS_FUZZ_HOTPLUG");
	if (env && !strcmp(env, "1") && cgs_cpu_online(1) == 1)
		ASSERT_EQ(0, pthread_create(&threads[nthreads++], NULL, hotplugger, NULL));

	sleep(seconds);
	atomic_store(&fz.stop, true);
	for (i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);

	kill(fz.spinner, SIGKILL);
	waitpid(fz.spinner, NULL, 0);
	for (i = 0; i < NR_FDS; i++)
		if (fz.fds[i] >= 0)
			close(fz.fds[i]);
	cgs_rmtree(fz.dir, mnt);

	for (i = 0; i < NR_OPS; i++) {
		TH_LOG("%s: %ld", op_names[i], atomic_load(&fz.ops[i]));
		total += atomic_load(&fz.ops[i]);
	}
	TH_LOG("%ld operations in %d s, %ld unexpected", total, seconds,
	       atomic_load(&fz.bad));
	EXPECT_EQ(0, atomic_load(&fz.bad));
	EXPECT_LT(100, atomic_load(&fz.ops[OP_ATTACH]));
	EXPECT_LT(100, atomic_load(&fz.ops[OP_READ]));
}

TEST_HARNESS_MAIN
