// SPDX-License-Identifier: GPL-2.0
/*
 * PERF_EVENT_IOC_ATTACH_CGROUP / PERF_EVENT_IOC_READ_CGROUP: one CPU-wide
 * counting event keeps separate counts for many cgroups.
 *
 * Workloads are children pinned to CPU 0, where the events count, placed
 * into their cgroup with clone3(CLONE_INTO_CGROUP) so that all of their
 * CPU time belongs to it.  The test itself runs on another CPU when there
 * is one.
 */
#include "cgroup_share_util.h"
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <linux/userfaultfd.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include "../kselftest_harness.h"

#define MS		1000000ULL
#define CPU		0

/*
 * count at most 2% + 5 ms below expect, at most 10% + 20 ms above it: see
 * task_clock_matches_cpu_time.  Falling short means counts were lost; a
 * count above the tasks' CPU time also holds the interrupts taken while
 * they ran, which under an emulator on a loaded host last long.
 */
static bool near(__u64 count, __u64 expect)
{
	return count + expect / 50 + 5 * MS >= expect &&
	       count <= expect + expect / 10 + 20 * MS;
}

/* EXPECT_TRUE(near()), with both values when they are not */
#define EXPECT_NEAR(count, expect) do {					\
	__u64 __count = (count), __expect = (expect);			\
									\
	if (!near(__count, __expect))					\
		TH_LOG("%s = %llu, %s = %llu", #count,			\
		       (unsigned long long)__count, #expect,		\
		       (unsigned long long)__expect);			\
	EXPECT_TRUE(near(__count, __expect));				\
} while (0)

FIXTURE(share) {
	const char *mnt;
	char dir[PATH_MAX];	/* test-private parent P */
	char a[PATH_MAX], a1[PATH_MAX], b[PATH_MAX], c[PATH_MAX];
	__u64 p_id, a_id, a1_id, b_id, c_id, root_id;
	bool mnt_is_root;	/* the cgroup2 mount is the system's root */
	int cpu1_online;	/* CPU 1's state before the test, -1: none */
	int fd;
};

FIXTURE_SETUP(share)
{
	const char *why;

	self->fd = -1;
	self->cpu1_online = cgs_cpu_online(1);
	why = cgs_private_parent("perf_share", &self->mnt, self->dir);
	if (why)
		SKIP(return, "%s", why);
	self->p_id = cgs_id(self->dir);
	self->a_id = cgs_mkdir(self->dir, "A", self->a);
	self->a1_id = cgs_mkdir(self->a, "A1", self->a1);
	self->b_id = cgs_mkdir(self->dir, "B", self->b);
	self->c_id = cgs_mkdir(self->dir, "C", self->c);
	self->root_id = cgs_id(self->mnt);
	self->mnt_is_root = cgs_is_root(self->mnt);
	ASSERT_NE(0ULL, self->p_id);
	ASSERT_NE(0ULL, self->a_id);
	ASSERT_NE(0ULL, self->a1_id);
	ASSERT_NE(0ULL, self->b_id);
	ASSERT_NE(0ULL, self->c_id);
	ASSERT_NE(0ULL, self->root_id);

	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		cgs_pin(1);

	self->fd = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	ASSERT_LE(0, self->fd);
}

FIXTURE_TEARDOWN(share)
{
	/* cpu_hotplug may have failed with CPU 1 offline: as it was found */
	if (self->cpu1_online == 1 && cgs_cpu_online(1) == 0)
		cgs_write("/sys/devices/system/cpu/cpu1", "online", "1");
	if (self->fd >= 0)
		close(self->fd);
	if (self->dir[0])
		cgs_rmtree(self->dir, self->mnt);
}

/* the ids attached to @fd in attach order, from a batch read */
static int attached_ids(int fd, __u64 *ids, int max)
{
	int words = 1 + 2 * max, n, i;
	__u64 *v = calloc(words, sizeof(*v));

	if (!v)
		return -ENOMEM;
	n = cgs_read(fd, 0, v, words);
	if (n >= 8) {
		n = v[0];
		for (i = 0; i < n && i < max; i++)
			ids[i] = v[1 + 2 * i];
	}
	free(v);
	return n;
}

/* A task in A counts in A; B, which has no task, reads exactly 0. */
TEST_F(share, idle_cgroup_reads_zero)
{
	__u64 ids[] = { self->a_id, self->b_id };

	ASSERT_EQ(0, cgs_attach(self->fd, ids, 2));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 50 * MS));
	EXPECT_GT(cgs_count(self->fd, self->a_id), 0);
	EXPECT_EQ(0, cgs_count(self->fd, self->b_id));
}

/*
 * task-clock counted for A matches the CPU time of the only task that ever
 * ran in A (its rusage, which covers its whole life): at most 2% + 5 ms
 * less, for the context switch paths at both ends, which one side counts
 * and the other does not, and clock reads under emulation (seen: 0.2%
 * under QEMU TCG); at most 10% + 20 ms more, as the count also holds the
 * interrupts the task took, which rusage may leave out (seen: 4.3% under
 * TCG on a loaded host).
 */
TEST_F(share, task_clock_matches_cpu_time)
{
	long long count;
	__u64 cpu;

	ASSERT_EQ(0, cgs_attach(self->fd, &self->a_id, 1));
	cpu = cgs_run_busy(self->a, CPU, 300 * MS);
	ASSERT_NE(0ULL, cpu);
	count = cgs_count(self->fd, self->a_id);
	TH_LOG("task-clock for A %lld ns, task CPU time %llu ns", count,
	       (unsigned long long)cpu);
	EXPECT_NEAR((__u64)count, cpu);
}

/* A task in A/A1 is counted in A1 and in A, which counts its subtree. */
TEST_F(share, hierarchy)
{
	__u64 ids[] = { self->a_id, self->a1_id, self->b_id };

	ASSERT_EQ(0, cgs_attach(self->fd, ids, 3));
	ASSERT_NE(0ULL, cgs_run_busy(self->a1, CPU, 50 * MS));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	EXPECT_GT(cgs_count(self->fd, self->a1_id), 0);
	/* nothing ran in A itself: the parent's count is its child's */
	EXPECT_EQ(cgs_count(self->fd, self->a1_id), cgs_count(self->fd, self->a_id));
	EXPECT_EQ(0, cgs_count(self->fd, self->b_id));
}

/*
 * Only the levels that attached cgroups occupy are looked up at a switch:
 * with P and A/A1 attached, a task in A (a level in between that has no
 * attached cgroup) still counts in P, and a later task in A1 counts in
 * both: P grows by exactly what A1 counts.
 */
TEST_F(share, levels_between_attached)
{
	__u64 ids[] = { self->p_id, self->a1_id };
	long long p1, p2, a1_1, a1_2;

	ASSERT_EQ(0, cgs_attach(self->fd, ids, 2));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 50 * MS));
	p1 = cgs_count(self->fd, self->p_id);
	a1_1 = cgs_count(self->fd, self->a1_id);
	ASSERT_NE(0ULL, cgs_run_busy(self->a1, CPU, 50 * MS));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	p2 = cgs_count(self->fd, self->p_id);
	a1_2 = cgs_count(self->fd, self->a1_id);
	EXPECT_GT(p1, 0);
	EXPECT_EQ(0, a1_1);
	EXPECT_GT(a1_2, 0);
	EXPECT_EQ(a1_2, p2 - p1);
}

/* A task deeper than every attached cgroup counts in its attached ancestor. */
TEST_F(share, task_below_attached_levels)
{
	long long count;
	__u64 cpu;

	ASSERT_EQ(0, cgs_attach(self->fd, &self->a_id, 1));
	cpu = cgs_run_busy(self->a1, CPU, 100 * MS);
	ASSERT_NE(0ULL, cpu);
	count = cgs_count(self->fd, self->a_id);
	TH_LOG("task-clock for A %lld ns, CPU time of a task in A/A1 %llu ns",
	       count, (unsigned long long)cpu);
	EXPECT_NEAR((__u64)count, cpu);
}

/*
 * Conservation: with tasks only in the leaves A and B of P, P's count and
 * times are exactly A's plus B's; the cgroup2 mount's cgroup, which holds
 * P, counts at least as much as P; and where that is the system's root
 * cgroup, where every task of the CPU lives, it counts exactly what the
 * event itself counted.  (In a cgroup namespace or a container the mount
 * is a subtree: tasks outside it count in the event, not in its root.)
 * For each way a switch reads an event (@config): cpu-clock and
 * task-clock brought up to the switch's clock reading, context-switches
 * not read at all (its count is in memory).  @ids: P, A, B and the mount.
 */
static void conservation(struct __test_metadata *_metadata,
			 const char *a_dir, const char *b_dir,
			 const __u64 ids[4], bool mnt_is_root, __u64 config)
{
	__u64 p[3], a[3], b[3], r[3], own[3];
	int fd, cga, cgb, status, i;
	pid_t pa, pb;

	/* attached before it counts anything, so it all lands in a cgroup */
	fd = cgs_open_times_disabled(CPU, PERF_TYPE_SOFTWARE, config);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, cgs_attach(fd, ids, 4));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));

	cga = open(a_dir, O_RDONLY | O_DIRECTORY);
	cgb = open(b_dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, cga);
	ASSERT_LE(0, cgb);
	pa = cgs_fork_into(cga);
	if (!pa) {
		cgs_pin(CPU);
		cgs_spin(60 * MS);
		_exit(0);
	}
	pb = cgs_fork_into(cgb);
	if (!pb) {
		cgs_pin(CPU);
		cgs_spin(60 * MS);
		_exit(0);
	}
	ASSERT_EQ(pa, waitpid(pa, &status, 0));
	ASSERT_EQ(pb, waitpid(pb, &status, 0));

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(24, cgs_read(fd, ids[0], p, 3));
	ASSERT_EQ(24, cgs_read(fd, ids[1], a, 3));
	ASSERT_EQ(24, cgs_read(fd, ids[2], b, 3));
	ASSERT_EQ(24, cgs_read(fd, ids[3], r, 3));
	ASSERT_EQ(24, read(fd, own, sizeof(own)));

	/* each task was switched out at least once: at its exit */
	EXPECT_GT(a[0], 0ULL);
	EXPECT_GT(b[0], 0ULL);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(a[i] + b[i], p[i]);
		EXPECT_LE(p[i], r[i]);
		if (mnt_is_root)
			EXPECT_EQ(own[i], r[i]);
	}
	close(cga);
	close(cgb);
	close(fd);
}

#define CONSERVATION(config)						\
	conservation(_metadata, self->a, self->b,			\
		     (__u64[]){ self->p_id, self->a_id, self->b_id,	\
				self->root_id },			\
		     self->mnt_is_root, config)

TEST_F(share, conservation)
{
	CONSERVATION(PERF_COUNT_SW_CPU_CLOCK);
}

TEST_F(share, conservation_task_clock)
{
	CONSERVATION(PERF_COUNT_SW_TASK_CLOCK);
}

TEST_F(share, conservation_context_switches)
{
	CONSERVATION(PERF_COUNT_SW_CONTEXT_SWITCHES);
}

/*
 * Per-cgroup times follow the event's own through switches at which it
 * stayed enabled and those at which it did not: the only task of B runs
 * while the event is disabled, so B reads exactly 0, and an event that is
 * never multiplexed runs whenever it is enabled, so each cgroup's
 * time_running is its time_enabled; where the mount is the system's root,
 * the root's values are exactly the event's own.
 */
TEST_F(share, times_follow_enable)
{
	__u64 ids[] = { self->a_id, self->b_id, self->root_id };
	__u64 a[3], b[3], r[3], own[3];
	int fd, i;

	fd = cgs_open_times_disabled(CPU, PERF_TYPE_SOFTWARE,
				     PERF_COUNT_SW_CPU_CLOCK);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, cgs_attach(fd, ids, 3));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 30 * MS));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_NE(0ULL, cgs_run_busy(self->b, CPU, 30 * MS));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 30 * MS));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_EQ(24, cgs_read(fd, self->a_id, a, 3));
	ASSERT_EQ(24, cgs_read(fd, self->b_id, b, 3));
	ASSERT_EQ(24, cgs_read(fd, self->root_id, r, 3));
	ASSERT_EQ(24, read(fd, own, sizeof(own)));
	TH_LOG("A %llu %llu %llu, root %llu %llu %llu, own %llu %llu %llu",
	       a[0], a[1], a[2], r[0], r[1], r[2], own[0], own[1], own[2]);

	EXPECT_GT(a[0], 0ULL);
	EXPECT_GT(a[1], 0ULL);
	EXPECT_EQ(a[1], a[2]);
	EXPECT_EQ(r[1], r[2]);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(0ULL, b[i]);
		EXPECT_LE(a[i], r[i]);
		if (self->mnt_is_root)
			EXPECT_EQ(own[i], r[i]);
	}
	close(fd);
}

/*
 * A task moved from A to B while it runs (from another CPU when there is
 * one): A counts what it ran before the move, which happened while the
 * test wrote cgroup.procs, so between the task's CPU time read just before
 * and just after that write (within 2% + 5 ms), and B counts the rest.
 */
TEST_F(share, migration_split)
{
	__u64 before, after, total;
	long long ca, cb;
	cpu_set_t mask;
	clockid_t clk;
	int cgfd, status;
	struct rusage ru;
	pid_t pid;

	ASSERT_EQ(0, cgs_attach(self->fd, (__u64[]){ self->a_id, self->b_id }, 2));
	cgfd = open(self->a, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, cgfd);
	/* born on CPU, so that all of its CPU time is the event's to count */
	ASSERT_EQ(0, sched_getaffinity(0, sizeof(mask), &mask));
	cgs_pin(CPU);
	pid = cgs_fork_into(cgfd);
	if (!pid) {
		cgs_spin(400 * MS);
		_exit(0);
	}
	sched_setaffinity(0, sizeof(mask), &mask);
	ASSERT_LT(0, pid);
	ASSERT_EQ(0, clock_getcpuclockid(pid, &clk));
	while (cgs_now_ns(clk) < 150 * MS)
		usleep(5000);
	before = cgs_now_ns(clk);
	ASSERT_EQ(0, cgs_move(self->b, pid));
	after = cgs_now_ns(clk);
	ASSERT_EQ(pid, wait4(pid, &status, 0, &ru));
	total = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
		(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;

	ca = cgs_count(self->fd, self->a_id);
	cb = cgs_count(self->fd, self->b_id);
	TH_LOG("A %lld B %lld; moved at %llu..%llu of %llu ns", ca, cb,
	       (unsigned long long)before, (unsigned long long)after,
	       (unsigned long long)total);
	/* the move happened somewhere in [before, after] */
	EXPECT_GE((__u64)ca + before / 50 + 5 * MS, before);
	EXPECT_LE((__u64)ca, after + after / 50 + 5 * MS);
	/* and B got the rest */
	EXPECT_NEAR((__u64)(ca + cb), total);
	close(cgfd);
}

/*
 * A group read through the leader: nr, the leader's times, then each
 * member's value and id, per cgroup; members are attached with the leader
 * and a member cannot be attached by itself (-EOPNOTSUPP).
 */
TEST_F(share, group_read)
{
	__u64 fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
		    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	__u64 ids[] = { self->a_id, self->b_id };
	__u64 lid, sid, v[7];
	int leader, sibling;

	leader = cgs_open_counter(CPU, PERF_COUNT_SW_CPU_CLOCK, fmt, -1);
	ASSERT_LE(0, leader);
	sibling = cgs_open_counter(CPU, PERF_COUNT_SW_CPU_CLOCK, fmt, leader);
	ASSERT_LE(0, sibling);
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_ID, &lid));
	ASSERT_EQ(0, ioctl(sibling, PERF_EVENT_IOC_ID, &sid));

	EXPECT_EQ(-EOPNOTSUPP, cgs_attach(sibling, ids, 2));
	ASSERT_EQ(0, cgs_attach(leader, ids, 2));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 50 * MS));

	/* too small for the group: nothing written, the size needed told */
	ASSERT_EQ(-ENOSPC, cgs_read(leader, self->a_id, v, 6));
	ASSERT_EQ(56, cgs_read(leader, self->a_id, v, 7));
	TH_LOG("A: nr %llu enabled %llu running %llu leader %llu sibling %llu",
	       (unsigned long long)v[0], (unsigned long long)v[1],
	       (unsigned long long)v[2], (unsigned long long)v[3],
	       (unsigned long long)v[5]);
	EXPECT_EQ(2ULL, v[0]);
	EXPECT_GT(v[1], 0ULL);
	EXPECT_GT(v[2], 0ULL);
	EXPECT_GT(v[3], 0ULL);
	EXPECT_EQ(lid, v[4]);
	EXPECT_GT(v[5], 0ULL);
	EXPECT_EQ(sid, v[6]);

	ASSERT_EQ(56, cgs_read(leader, self->b_id, v, 7));
	EXPECT_EQ(2ULL, v[0]);
	EXPECT_EQ(0ULL, v[1]);
	EXPECT_EQ(0ULL, v[3]);
	EXPECT_EQ(lid, v[4]);
	EXPECT_EQ(0ULL, v[5]);
	EXPECT_EQ(sid, v[6]);

	/* the member's own fd reads the same group */
	ASSERT_EQ(56, cgs_read(sibling, self->a_id, v, 7));
	EXPECT_EQ(2ULL, v[0]);
	EXPECT_EQ(lid, v[4]);
	close(sibling);
	close(leader);
}

/*
 * A single read returns one cgroup's values in read_format order; a batch
 * read (id 0) returns nr and then {id, values} for every attached cgroup,
 * in attach order, equal to the single reads.
 */
TEST_F(share, single_and_batch_read)
{
	__u64 fmt = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
		    PERF_FORMAT_ID | PERF_FORMAT_LOST;
	__u64 ids[] = { self->a_id, self->b_id, self->p_id };
	__u64 one[3][5], all[1 + 3 * 6], evid;
	int fd, i, j;

	fd = cgs_open_counter(CPU, PERF_COUNT_SW_CPU_CLOCK, fmt, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ID, &evid));
	ASSERT_EQ(0, cgs_attach(fd, ids, 3));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 30 * MS));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(40, cgs_read(fd, ids[i], one[i], 5));
		EXPECT_EQ(evid, one[i][3]);
		EXPECT_EQ(0ULL, one[i][4]);
	}
	EXPECT_GT(one[0][0], 0ULL);
	EXPECT_GE(one[0][1], one[0][2]);
	EXPECT_EQ(0ULL, one[1][0]);
	EXPECT_EQ(one[0][0], one[2][0]);

	/* exactly the size needed, and one word short of it */
	ASSERT_EQ(-ENOSPC, cgs_read(fd, 0, all, 1 + 3 * 6 - 1));
	ASSERT_EQ(8 * (1 + 3 * 6), cgs_read(fd, 0, all, 1 + 3 * 6));
	ASSERT_EQ(3ULL, all[0]);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(ids[i], all[1 + 6 * i]);
		for (j = 0; j < 5; j++)
			EXPECT_EQ(one[i][j], all[2 + 6 * i + j]);
	}
	close(fd);
}

/* Make cgroups gFROM to gN-1 in @dir, their ids in ids[FROM] to ids[N-1]. */
static int mkdir_g(const char *dir, __u64 *ids, int from, int n)
{
	char path[PATH_MAX], name[32];
	int i;

	for (i = from; i < n; i++) {
		snprintf(name, sizeof(name), "g%d", i);
		ids[i] = cgs_mkdir(dir, name, path);
		if (!ids[i])
			return -1;
	}
	return 0;
}

/* Open a group of @n task-clock counters on CPU, read as @fmt says. */
static int open_task_clock_group(int *fds, int n, __u64 fmt)
{
	int i;

	for (i = 0; i < n; i++) {
		/* one PMU: a cpu-clock member of a task-clock group counts 0 */
		fds[i] = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, fmt,
					  i ? fds[0] : -1);
		if (fds[i] < 0)
			return -1;
	}
	return 0;
}

/* Run a busy task for 20 ms on CPU in cgroup gN of @dir for each N of @busy. */
static int run_busy_in_g(const char *dir, const int *busy, int n)
{
	char path[PATH_MAX];
	int i;

	for (i = 0; i < n; i++) {
		if (snprintf(path, sizeof(path), "%s/g%d", dir, busy[i]) >=
		    (int)sizeof(path) || !cgs_run_busy(path, CPU, 20 * MS))
			return -1;
	}
	return 0;
}

/*
 * A batch read of a group with every read_format flag, 12 members (39
 * values a cgroup, more than the 32 the kernel otherwise copies per hold
 * of its lock) and 40 cgroups: every value equals the single read of that cgroup, which has
 * the group's layout: nr, the leader's times, then each member's value,
 * id and lost; only the cgroups that ran a task count.
 */
TEST_F(share, batch_read_group_every_value)
{
	__u64 fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
		    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	enum { MEMBERS = 12, N = 40, REC = 3 + 3 * MEMBERS };
	__u64 ids[N], evid[MEMBERS], one[REC], *all;
	int fds[MEMBERS], i, j, busy[] = { 3, 37 };

	ASSERT_EQ(0, mkdir_g(self->dir, ids, 0, N));
	ASSERT_EQ(0, open_task_clock_group(fds, MEMBERS, fmt));
	for (i = 0; i < MEMBERS; i++)
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_ID, &evid[i]));
	ASSERT_EQ(0, cgs_attach(fds[0], ids, N));
	ASSERT_EQ(0, run_busy_in_g(self->dir, busy, 2));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));

	all = calloc(1 + N * (1 + REC), sizeof(*all));
	ASSERT_NE(NULL, all);
	ASSERT_EQ(-ENOSPC, cgs_read(fds[0], 0, all, N * (1 + REC)));
	ASSERT_EQ(8 * (1 + N * (1 + REC)), cgs_read(fds[0], 0, all, 1 + N * (1 + REC)));
	ASSERT_EQ((__u64)N, all[0]);
	for (i = 0; i < N; i++) {
		__u64 *rec = all + 1 + i * (1 + REC);
		bool ran = i == busy[0] || i == busy[1];

		ASSERT_EQ(ids[i], rec[0]);
		ASSERT_EQ(8 * REC, cgs_read(fds[0], ids[i], one, REC));
		for (j = 0; j < REC; j++)
			EXPECT_EQ(one[j], rec[1 + j]);
		EXPECT_EQ((__u64)MEMBERS, one[0]);
		EXPECT_EQ(ran, one[1] != 0);
		EXPECT_GE(one[1], one[2]);
		for (j = 0; j < MEMBERS; j++) {
			EXPECT_EQ(ran, one[3 + 3 * j] != 0);
			EXPECT_EQ(evid[j], one[4 + 3 * j]);
			EXPECT_EQ(0ULL, one[5 + 3 * j]);
		}
	}
	/* a member's fd reads the same */
	memset(all, 0, 8 * (1 + N * (1 + REC)));
	ASSERT_EQ(8 * (1 + N * (1 + REC)),
		  cgs_read(fds[5], 0, all, 1 + N * (1 + REC)));
	ASSERT_EQ(ids[busy[1]], all[1 + busy[1] * (1 + REC)]);
	free(all);
	for (i = MEMBERS - 1; i >= 0; i--)
		close(fds[i]);
}

/*
 * Closing the leader of an attached group splits it: the member, its own
 * leader now, keeps its cgroups and their counts, which its own fd reads
 * (and detaches).
 */
TEST_F(share, close_leader_member_keeps_cgroups)
{
	__u64 fmt = PERF_FORMAT_GROUP, v[3];
	int leader, member;

	leader = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, fmt, -1);
	ASSERT_LE(0, leader);
	member = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, fmt, leader);
	ASSERT_LE(0, member);
	ASSERT_EQ(0, cgs_attach(leader, &self->a_id, 1));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 20 * MS));
	ASSERT_EQ(24, cgs_read(member, self->a_id, v, 3));
	EXPECT_GT(v[2], 0ULL);
	close(leader);

	ASSERT_EQ(16, cgs_read(member, self->a_id, v, 3));
	EXPECT_EQ(1ULL, v[0]);
	EXPECT_GT(v[1], 0ULL);
	EXPECT_EQ(0, cgs_attach(member, NULL, 0));
	EXPECT_EQ(-ENOENT, cgs_read(member, self->a_id, v, 3));
	close(member);
}

/*
 * Several events with cgroups on one CPU, each with its own set: each
 * counts its own cgroups, task-clock and cpu-clock both near the CPU time
 * of the task in A, context-switches at least one switch for B's task.
 */
TEST_F(share, several_events_one_cpu)
{
	int clk, sw, cgfd, status;
	__u64 cpu;
	pid_t pid;

	clk = cgs_open_counter(CPU, PERF_COUNT_SW_CPU_CLOCK, 0, -1);
	ASSERT_LE(0, clk);
	sw = cgs_open_counter(CPU, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, -1);
	ASSERT_LE(0, sw);
	ASSERT_EQ(0, cgs_attach(self->fd, (__u64[]){ self->a_id, self->b_id }, 2));
	ASSERT_EQ(0, cgs_attach(clk, &self->a_id, 1));
	ASSERT_EQ(0, cgs_attach(sw, (__u64[]){ self->b_id, self->a_id }, 2));

	cpu = cgs_run_busy(self->a, CPU, 100 * MS);
	ASSERT_NE(0ULL, cpu);
	cgfd = open(self->b, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, cgfd);
	pid = cgs_fork_into(cgfd);
	if (!pid) {
		cgs_pin(CPU);
		usleep(1000);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	close(cgfd);

	EXPECT_NEAR((__u64)cgs_count(self->fd, self->a_id), cpu);
	EXPECT_NEAR((__u64)cgs_count(clk, self->a_id), cpu);
	EXPECT_GT(cgs_count(self->fd, self->b_id), 0);
	EXPECT_EQ(-ENOENT, cgs_read(clk, self->b_id, &cpu, 1));
	EXPECT_GT(cgs_count(sw, self->a_id), 0);
	EXPECT_GT(cgs_count(sw, self->b_id), 0);
	close(sw);
	close(clk);
}

/*
 * The events of a CPU share one index of their cgroups: two events with
 * overlapping sets count the cgroups they share alike and each reads only
 * its own; a detach frees the slots no other event has, and a cgroup
 * attached next takes a freed one and starts at exactly 0, while the
 * other event's counts stay exactly as they were.
 */
TEST_F(share, events_share_cgroup_slots)
{
	__u64 cpu, b, c, d, v;
	char dpath[PATH_MAX];
	__u64 d_id;
	int other;

	d_id = cgs_mkdir(self->dir, "D", dpath);
	ASSERT_NE(0ULL, d_id);
	other = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, cgs_attach(self->fd, (__u64[]){ self->a_id, self->b_id, self->c_id }, 3));
	ASSERT_EQ(0, cgs_attach(other, (__u64[]){ self->c_id, self->b_id }, 2));

	cpu = cgs_run_busy(self->b, CPU, 60 * MS);
	ASSERT_NE(0ULL, cpu);
	ASSERT_NE(0ULL, cgs_run_busy(self->c, CPU, 30 * MS));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(other, PERF_EVENT_IOC_DISABLE, 0));
	b = cgs_count(other, self->b_id);
	c = cgs_count(other, self->c_id);
	EXPECT_NEAR((__u64)cgs_count(self->fd, self->b_id), cpu);
	EXPECT_NEAR(b, cpu);
	EXPECT_NEAR(c, (__u64)cgs_count(self->fd, self->c_id));
	EXPECT_NE(0ULL, c);
	EXPECT_EQ(0, cgs_count(self->fd, self->a_id));
	EXPECT_EQ(-ENOENT, cgs_read(other, self->a_id, &v, 1));

	/* A's slot is free now; D and A1 take new ones, at 0 */
	ASSERT_EQ(0, cgs_attach(self->fd, NULL, 0));
	ASSERT_EQ(0, cgs_attach(self->fd, (__u64[]){ d_id, self->a1_id }, 2));
	EXPECT_EQ(0, cgs_count(self->fd, d_id));
	EXPECT_EQ(0, cgs_count(self->fd, self->a1_id));
	EXPECT_EQ(-ENOENT, cgs_read(self->fd, self->b_id, &v, 1));
	EXPECT_EQ(-ENOENT, cgs_read(other, d_id, &v, 1));
	EXPECT_EQ((long long)b, cgs_count(other, self->b_id));
	EXPECT_EQ((long long)c, cgs_count(other, self->c_id));

	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_EQ(0, ioctl(other, PERF_EVENT_IOC_ENABLE, 0));
	cpu = cgs_run_busy(dpath, CPU, 40 * MS);
	ASSERT_NE(0ULL, cpu);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	d = cgs_count(self->fd, d_id);
	EXPECT_NEAR(d, cpu);
	EXPECT_EQ(0, cgs_count(self->fd, self->a1_id));
	/* no task ran in B or C since */
	EXPECT_EQ((long long)b, cgs_count(other, self->b_id));
	EXPECT_EQ((long long)c, cgs_count(other, self->c_id));

	/* the other event's slots go with it; a new event starts at 0 */
	close(other);
	EXPECT_EQ((long long)d, cgs_count(self->fd, d_id));
	other = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, cgs_attach(other, (__u64[]){ self->b_id, d_id }, 2));
	EXPECT_EQ(0, cgs_count(other, self->b_id));
	EXPECT_EQ(0, cgs_count(other, d_id));
	EXPECT_EQ((long long)d, cgs_count(self->fd, d_id));
	close(other);
}

struct thread_arg {
	const char *cg;		/* threaded cgroup to move into */
	__u64 spin;		/* CPU time spun in @cg, out */
	__u64 cpu;		/* the thread's whole CPU time, out */
	int err;
};

static void *thread_spin(void *p)
{
	struct thread_arg *arg = p;
	char tid[32];

	snprintf(tid, sizeof(tid), "%ld", (long)syscall(__NR_gettid));
	arg->err = cgs_write(arg->cg, "cgroup.threads", tid);
	if (!arg->err) {
		__u64 start = cgs_now_ns(CLOCK_THREAD_CPUTIME_ID);

		cgs_spin(60 * MS);
		arg->spin = cgs_now_ns(CLOCK_THREAD_CPUTIME_ID) - start;
		arg->cpu = cgs_now_ns(CLOCK_THREAD_CPUTIME_ID);
	}
	return NULL;
}

/*
 * Threaded cgroups: two threads of one process, each in its own threaded
 * cgroup T1, T2 of domain D, count in their own cgroup (at least what they
 * spun there, within 2% + 5 ms, and not what the other spun), and D
 * counts both.
 */
TEST_F(share, threaded_cgroups)
{
	char d[PATH_MAX], t1[PATH_MAX], t2[PATH_MAX];
	struct thread_arg *args;
	__u64 ids[3];
	int cgfd, status;
	pid_t pid;

	ids[0] = cgs_mkdir(self->dir, "D", d);
	ids[1] = cgs_mkdir(d, "T1", t1);
	ids[2] = cgs_mkdir(d, "T2", t2);
	ASSERT_NE(0ULL, ids[0]);
	ASSERT_NE(0ULL, ids[1]);
	ASSERT_NE(0ULL, ids[2]);
	if (cgs_write(t1, "cgroup.type", "threaded") ||
	    cgs_write(t2, "cgroup.type", "threaded"))
		SKIP(return, "no threaded cgroups");
	ASSERT_EQ(0, cgs_attach(self->fd, ids, 3));

	args = mmap(NULL, 2 * sizeof(*args), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, args);
	args[0].cg = t1;
	args[1].cg = t2;
	cgfd = open(d, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, cgfd);
	pid = cgs_fork_into(cgfd);
	if (!pid) {
		pthread_t th[2];

		cgs_pin(CPU);
		for (int i = 0; i < 2; i++)
			if (pthread_create(&th[i], NULL, thread_spin, &args[i]))
				_exit(1);
		for (int i = 0; i < 2; i++)
			pthread_join(th[i], NULL);
		_exit(0);
	}
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_EQ(0, status);
	close(cgfd);
	ASSERT_EQ(0, args[0].err);
	ASSERT_EQ(0, args[1].err);

	for (int i = 0; i < 2; i++) {
		__u64 count = cgs_count(self->fd, ids[1 + i]);

		TH_LOG("T%d %llu ns: spun %llu of %llu ns", i + 1,
		       (unsigned long long)count,
		       (unsigned long long)args[i].spin,
		       (unsigned long long)args[i].cpu);
		EXPECT_GE(count + args[i].spin / 50 + 5 * MS, args[i].spin);
		/* and not the other's: the exit path is slow under emulation */
		EXPECT_LE(count, args[i].cpu + args[i].cpu / 4 + 20 * MS);
	}
	EXPECT_GE(cgs_count(self->fd, ids[0]),
		  cgs_count(self->fd, ids[1]) + cgs_count(self->fd, ids[2]));
	munmap(args, 2 * sizeof(*args));
}

/* nr == 0 detaches every cgroup; detaching twice is fine. */
TEST_F(share, detach)
{
	__u64 ids[] = { self->a_id, self->b_id }, v[4];

	ASSERT_EQ(0, cgs_attach(self->fd, ids, 2));
	ASSERT_EQ(2, attached_ids(self->fd, v, 2));
	ASSERT_EQ(0, cgs_attach(self->fd, NULL, 0));
	EXPECT_EQ(-ENOENT, cgs_read(self->fd, self->a_id, v, 1));
	EXPECT_EQ(0, attached_ids(self->fd, v, 2));
	EXPECT_EQ(0, cgs_attach(self->fd, NULL, 0));
	/* and the event can be attached again */
	ASSERT_EQ(0, cgs_attach(self->fd, ids, 2));
	EXPECT_EQ(0, cgs_count(self->fd, self->a_id));
}

/*
 * Re-attaching keeps the counts of cgroups in both the old and the new
 * set, starts new ones at 0 and drops the others.
 */
TEST_F(share, reattach_keeps_counts)
{
	__u64 ids[] = { self->a_id, self->b_id };
	__u64 ids2[] = { self->c_id, self->a_id };
	long long a;
	__u64 v;

	ASSERT_EQ(0, cgs_attach(self->fd, ids, 2));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 30 * MS));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	a = cgs_count(self->fd, self->a_id);
	ASSERT_GT(a, 0);

	ASSERT_EQ(0, cgs_attach(self->fd, ids2, 2));
	EXPECT_EQ(a, cgs_count(self->fd, self->a_id));
	EXPECT_EQ(0, cgs_count(self->fd, self->c_id));
	EXPECT_EQ(-ENOENT, cgs_read(self->fd, self->b_id, &v, 1));

	/* and counting goes on from there */
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 20 * MS));
	EXPECT_GT(cgs_count(self->fd, self->a_id), a);
}

/*
 * A cgroup counts its attached subtree.  A re-attach that adds an ancestor
 * of a kept cgroup starts the ancestor at 0 and keeps the descendant's
 * count; one that drops the descendant keeps the ancestor's.  A second
 * event that has neither, only P, gets the counts of A1's tasks in P.
 */
TEST_F(share, reattach_hierarchy)
{
	__u64 a_a1[] = { self->a_id, self->a1_id };
	__u64 p_a[] = { self->p_id, self->a_id };
	long long a1, a1_2, a_2;
	int other;

	other = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	ASSERT_LE(0, other);
	ASSERT_EQ(0, cgs_attach(other, &self->p_id, 1));
	ASSERT_EQ(0, cgs_attach(self->fd, &self->a1_id, 1));
	ASSERT_NE(0ULL, cgs_run_busy(self->a1, CPU, 30 * MS));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	a1 = cgs_count(self->fd, self->a1_id);
	ASSERT_GT(a1, 0);

	ASSERT_EQ(0, cgs_attach(self->fd, a_a1, 2));
	EXPECT_EQ(0, cgs_count(self->fd, self->a_id));
	EXPECT_EQ(a1, cgs_count(self->fd, self->a1_id));

	/* from then on A counts what A1 does */
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_NE(0ULL, cgs_run_busy(self->a1, CPU, 30 * MS));
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	a1_2 = cgs_count(self->fd, self->a1_id);
	a_2 = cgs_count(self->fd, self->a_id);
	EXPECT_GT(a_2, 0);
	EXPECT_EQ(a_2, a1_2 - a1);

	ASSERT_EQ(0, cgs_attach(self->fd, p_a, 2));
	EXPECT_EQ(a_2, cgs_count(self->fd, self->a_id));
	EXPECT_EQ(0, cgs_count(self->fd, self->p_id));

	/* both runs, through neither A1 nor A */
	EXPECT_GT(cgs_count(other, self->p_id), a1);
	close(other);
}

/*
 * P's values are the sums of its 100 attached children's, exactly, for
 * the leader's times and each member's count of a group of 4: summed up
 * over more holds of the kernel's lock than one (64 counts each, 5 per
 * cgroup here), alike in a batch read and a single read of P.
 */
TEST_F(share, subtree_sums_span_holds)
{
	__u64 fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
		    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	enum { MEMBERS = 4, N = 101, REC = 3 + 2 * MEMBERS };
	__u64 ids[N], one[REC], sum[REC] = { 0 }, *all;
	int fds[MEMBERS], i, j, busy[] = { 10, 90 };

	ids[0] = self->p_id;
	ASSERT_EQ(0, mkdir_g(self->dir, ids, 1, N));
	ASSERT_EQ(0, open_task_clock_group(fds, MEMBERS, fmt));
	ASSERT_EQ(0, cgs_attach(fds[0], ids, N));
	ASSERT_EQ(0, run_busy_in_g(self->dir, busy, 2));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));

	all = calloc(1 + N * (1 + REC), sizeof(*all));
	ASSERT_NE(NULL, all);
	ASSERT_EQ(8 * (1 + N * (1 + REC)), cgs_read(fds[0], 0, all, 1 + N * (1 + REC)));
	for (i = 1; i < N; i++) {
		__u64 *rec = all + 1 + i * (1 + REC);

		for (j = 1; j < REC; j++)
			sum[j] += rec[1 + j];
	}
	ASSERT_EQ(8 * REC, cgs_read(fds[0], self->p_id, one, REC));
	EXPECT_GT(one[1], 0ULL);
	for (j = 1; j < 3; j++) {
		EXPECT_EQ(sum[j], one[j]);
		EXPECT_EQ(one[j], all[2 + j]);
	}
	for (j = 0; j < MEMBERS; j++) {
		EXPECT_GT(one[3 + 2 * j], 0ULL);
		EXPECT_EQ(sum[3 + 2 * j], one[3 + 2 * j]);
		EXPECT_EQ(one[3 + 2 * j], all[2 + 3 + 2 * j]);
	}
	free(all);
	for (i = MEMBERS - 1; i >= 0; i--)
		close(fds[i]);
}

struct group_reader {
	int fd;
	__u64 id, want[3];
	atomic_bool stop;
	atomic_long reads, wrong;
};

/* Group reads of one cgroup until told to stop: each must read want[]. */
static void *group_reader(void *arg)
{
	struct group_reader *r = arg;
	__u64 v[3];
	int ret;

	while (!atomic_load(&r->stop)) {
		ret = cgs_read(r->fd, r->id, v, 3);
		if (ret == -EAGAIN)
			continue;
		atomic_fetch_add(&r->reads, 1);
		if (ret != (int)sizeof(v) || memcmp(v, r->want, sizeof(v)))
			atomic_fetch_add(&r->wrong, 1);
	}
	return NULL;
}

/*
 * A re-attach carries a group's counts over table by table, one cgroup per
 * hold of the lock: group reads of a kept cgroup racing 50 re-attaches of
 * 200 cgroups, in turn in reverse order and without the last, read what
 * they read before, from every member, or fail with EAGAIN; they never see
 * a member whose counts are not carried over yet.
 */
TEST_F(share, group_read_during_reattach)
{
	enum { N = 200 };
	struct group_reader r = { .id = 0 };
	__u64 ids[N], rev[N];
	pthread_t th;
	int fds[2], i;

	ASSERT_EQ(0, mkdir_g(self->dir, ids, 0, N));
	for (i = 0; i < N; i++)
		rev[i] = ids[N - 1 - i];
	ASSERT_EQ(0, open_task_clock_group(fds, 2, PERF_FORMAT_GROUP));
	ASSERT_EQ(0, cgs_attach(fds[0], ids, N));
	ASSERT_EQ(0, run_busy_in_g(self->dir, (int[]){ 0 }, 1));
	ASSERT_EQ(0, ioctl(fds[0], PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(24, cgs_read(fds[0], ids[0], r.want, 3));
	ASSERT_NE(0ULL, r.want[1]);
	ASSERT_NE(0ULL, r.want[2]);

	r.fd = fds[0];
	r.id = ids[0];
	ASSERT_EQ(0, pthread_create(&th, NULL, group_reader, &r));
	for (i = 0; i < 50; i++) {
		if (cgs_attach(fds[0], i % 2 ? ids : rev, N - i % 2))
			break;
	}
	atomic_store(&r.stop, true);
	pthread_join(th, NULL);
	EXPECT_EQ(50, i);
	TH_LOG("%ld reads, %ld wrong", atomic_load(&r.reads), atomic_load(&r.wrong));
	EXPECT_GT(atomic_load(&r.reads), 0);
	EXPECT_EQ(0, atomic_load(&r.wrong));
	close(fds[1]);
	close(fds[0]);
}

/*
 * 1,000 cgroups on one event: one batch read returns them all; only the
 * one with a task counts.  Re-attached in reverse order, every cgroup
 * keeps its count: the counts are carried over and read back in batches.
 */
TEST_F(share, many_cgroups)
{
	const int n = 1000;
	__u64 *ids = calloc(n, sizeof(*ids));
	__u64 *v = calloc(1 + 2 * n, sizeof(*v));
	char path[PATH_MAX], name[32];
	int i, busy = n / 2;
	__u64 count;

	ASSERT_NE(NULL, ids);
	ASSERT_NE(NULL, v);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "m%d", i);
		ids[i] = cgs_mkdir(self->dir, name, path);
		ASSERT_NE(0ULL, ids[i]);
	}
	ASSERT_EQ(0, cgs_attach(self->fd, ids, n));
	ASSERT_GT((int)sizeof(path), snprintf(path, sizeof(path), "%s/m%d", self->dir, busy));
	ASSERT_NE(0ULL, cgs_run_busy(path, CPU, 20 * MS));

	ASSERT_EQ(8 * (1 + 2 * n), cgs_read(self->fd, 0, v, 1 + 2 * n));
	ASSERT_EQ((__u64)n, v[0]);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(ids[i], v[1 + 2 * i]);
		EXPECT_EQ(i == busy, v[2 + 2 * i] != 0);
	}
	count = v[2 + 2 * busy];

	/* nothing counts any more: the busy task is gone, the event is off */
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_DISABLE, 0));
	for (i = 0; i < n / 2; i++) {
		__u64 id = ids[i];

		ids[i] = ids[n - 1 - i];
		ids[n - 1 - i] = id;
	}
	ASSERT_EQ(0, cgs_attach(self->fd, ids, n));
	ASSERT_EQ(8 * (1 + 2 * n), cgs_read(self->fd, 0, v, 1 + 2 * n));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(ids[i], v[1 + 2 * i]);
		EXPECT_EQ(i == n - 1 - busy ? count : 0, v[2 + 2 * i]);
	}
	free(v);
	free(ids);
}

/* the largest struct size the tests pass: the ioctl number holds 14 bits */
#define EXT_MAX		(4096 + 64)

/*
 * ATTACH_CGROUP of @arg in a struct of @size bytes, the size the ioctl
 * number encodes (as a later header's would), whose bytes beyond @arg are
 * 0 but the one at offset @dirty, if not 0
 */
static int attach_sized(int fd, struct perf_event_cgroup_attach arg,
			__u32 size, __u32 dirty)
{
	static union {
		struct perf_event_cgroup_attach arg;
		__u8 bytes[EXT_MAX];
	} big;

	memset(&big, 0, sizeof(big));
	big.arg = arg;
	if (dirty)
		big.bytes[dirty] = 0xff;
	return cgs_ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, '$', 12, size), &big);
}

/* READ_CGROUP of @arg, likewise */
static int read_sized(int fd, struct perf_event_cgroup_read arg, __u32 size,
		      __u32 dirty)
{
	static union {
		struct perf_event_cgroup_read arg;
		__u8 bytes[EXT_MAX];
	} big;

	memset(&big, 0, sizeof(big));
	big.arg = arg;
	if (dirty)
		big.bytes[dirty] = 0xff;
	return cgs_ioctl(fd, _IOC(_IOC_READ | _IOC_WRITE, '$', 13, size), &big);
}

/*
 * Every ATTACH error leaves the attached set as it was: an unknown id and
 * a removed cgroup's id (-ENOENT), a duplicate (-EEXIST), each with the
 * index of the id at fault written back; a bad pointer to the struct or
 * to the ids (-EFAULT), more than the limit (-E2BIG).
 */
TEST_F(share, attach_errors)
{
	__u64 ids[] = { self->a_id, self->b_id }, got[4], gone;
	struct perf_event_cgroup_attach arg = { 0 };
	char path[PATH_MAX], *map;
	__u32 err_index;
	__u64 *unmapped;
	long page;

	gone = cgs_mkdir(self->dir, "gone", path);
	ASSERT_NE(0ULL, gone);
	ASSERT_EQ(0, rmdir(path));

	ASSERT_EQ(0, cgs_attach(self->fd, ids, 2));

	EXPECT_EQ(-ENOENT, cgs_attach_err(self->fd, (__u64[]){ self->c_id, ~0ULL >> 1 },
					  2, &err_index));
	EXPECT_EQ(1U, err_index);
	EXPECT_EQ(-ENOENT, cgs_attach_err(self->fd, (__u64[]){ gone }, 1, &err_index));
	EXPECT_EQ(0U, err_index);
	EXPECT_EQ(-EEXIST, cgs_attach_err(self->fd,
					  (__u64[]){ self->c_id, self->a_id, self->c_id },
					  3, &err_index));
	EXPECT_EQ(2U, err_index);
	EXPECT_EQ(-EFAULT, cgs_ioctl(self->fd, PERF_EVENT_IOC_ATTACH_CGROUP, (void *)8));
	/* one id readable, the next ones in an unmapped page */
	page = sysconf(_SC_PAGESIZE);
	map = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	ASSERT_EQ(0, munmap(map + page, page));
	unmapped = (__u64 *)(map + page) - 1;
	unmapped[0] = self->c_id;
	EXPECT_EQ(-EFAULT, cgs_attach(self->fd, unmapped, 4));
	munmap(map, page);
	arg.nr = CGS_ATTACH_MAX + 1;
	arg.ids = (uintptr_t)ids;
	EXPECT_EQ(-E2BIG, cgs_ioctl(self->fd, PERF_EVENT_IOC_ATTACH_CGROUP, &arg));

	ASSERT_EQ(2, attached_ids(self->fd, got, 4));
	EXPECT_EQ(self->a_id, got[0]);
	EXPECT_EQ(self->b_id, got[1]);
}

/* the argument of one case of errno_table */
struct attach_case {
	const char *cause;
	int fd;
	struct perf_event_cgroup_attach arg;
	int err;
	__u32 err_index;	/* ~0U: not one the kernel writes back */
};

/* the events and ids errno_table's cases use */
struct errno_args {
	int fd, per_task, sampling, cgroup_ev, member;
	__u64 a, b, c, gone;
	__u64 *bogus;		/* CGS_ATTACH_MAX + 1 ids of no cgroup */
};

static void errno_cases(struct __test_metadata *_metadata, const struct errno_args *e)
{
	__u64 a = e->a, b = e->b, c = e->c, gone = e->gone;
	struct attach_case cases[] = {
#define ONE_ID		.nr = 1, .ids = (uintptr_t)&c
#define IDS(...)	.nr = sizeof((__u64[]){ __VA_ARGS__ }) / sizeof(__u64),	\
			.ids = (uintptr_t)(__u64[]){ __VA_ARGS__ }
		{ "an unknown flag", e->fd, { .flags = 1, ONE_ID }, -EINVAL, ~0U },
		{ "a flag, the top bit", e->fd, { .flags = 1U << 31, ONE_ID }, -EINVAL, ~0U },
		{ "a reserved field", e->fd, { .reserved = 1, ONE_ID }, -EINVAL, ~0U },
		{ "nr above the limit", e->fd,
		  { .nr = CGS_ATTACH_MAX + 1, .ids = (uintptr_t)e->bogus }, -E2BIG, ~0U },
		{ "nr far above the limit", e->fd,
		  { .nr = ~0U, .ids = (uintptr_t)e->bogus }, -E2BIG, ~0U },
		{ "a per-task event", e->per_task, { ONE_ID }, -EOPNOTSUPP, ~0U },
		{ "a sampling event", e->sampling, { ONE_ID }, -EOPNOTSUPP, ~0U },
		{ "a cgroup event", e->cgroup_ev, { ONE_ID }, -EOPNOTSUPP, ~0U },
		{ "a group member", e->member, { ONE_ID }, -EOPNOTSUPP, ~0U },
		{ "a per-task event, 65536 bogus ids", e->per_task,
		  { .nr = CGS_ATTACH_MAX, .ids = (uintptr_t)e->bogus }, -EOPNOTSUPP, ~0U },
		{ "a sampling event, 65536 bogus ids", e->sampling,
		  { .nr = CGS_ATTACH_MAX, .ids = (uintptr_t)e->bogus }, -EOPNOTSUPP, ~0U },
		{ "a member, a removed cgroup's id", e->member, { IDS(a, gone) },
		  -EOPNOTSUPP, ~0U },
		{ "a removed cgroup's id", e->fd, { IDS(a, b, gone, c) }, -ENOENT, 2 },
		{ "an id of no cgroup", e->fd, { IDS(a, e->bogus[7], b) }, -ENOENT, 1 },
		{ "a duplicate id", e->fd, { IDS(c, a, b, a) }, -EEXIST, 3 },
		{ "a duplicate, next to it", e->fd, { IDS(b, b) }, -EEXIST, 1 },
		{ "ids not readable", e->fd, { .nr = 2, .ids = 8 }, -EFAULT, ~0U },
#undef IDS
#undef ONE_ID
	};
	int i, ret;

	for (i = 0; i < (int)ARRAY_SIZE(cases); i++) {
		struct attach_case *t = &cases[i];

		t->arg.err_index = ~0U;
		ret = cgs_ioctl(t->fd, PERF_EVENT_IOC_ATTACH_CGROUP, &t->arg);
		if (ret != t->err ||
		    (t->err_index != ~0U && t->arg.err_index != t->err_index))
			TH_LOG("%s: %s (%d), err_index %u; expected %s, %d",
			       t->cause, strerror(-ret), ret, t->arg.err_index,
			       strerror(-t->err), (int)t->err_index);
		EXPECT_EQ(t->err, ret);
		if (t->err_index != ~0U)
			EXPECT_EQ(t->err_index, t->arg.err_index);
	}
	/* sizes: the one the number encodes, with a dirty tail, or below VER0 */
	EXPECT_EQ(-EINVAL, attach_sized(e->fd, (struct perf_event_cgroup_attach){
					.nr = 1, .ids = (uintptr_t)&c }, 32, 31));
	EXPECT_EQ(-EINVAL, attach_sized(e->fd, (struct perf_event_cgroup_attach){
					.nr = 1, .ids = (uintptr_t)&c }, 16, 0));
}

/*
 * Each cause of an ATTACH failure has an errno of its own: what the kernel
 * does not know (a flag, a reserved field, a non-zero tail, a size below
 * the first version) -EINVAL, too many ids -E2BIG, an event that does not
 * qualify (per-task, sampling, a cgroup event, a group member)
 * -EOPNOTSUPP, an id of no or a removed cgroup -ENOENT, an id given twice
 * -EEXIST, ids that cannot be read -EFAULT.  -ENOENT and -EEXIST write
 * back err_index, the index of the id at fault: for a duplicate, its
 * second occurrence.  Whether an event qualifies is checked before any id
 * is looked at: 65536 ids that are all bogus on a per-task or sampling
 * event are -EOPNOTSUPP, not -ENOENT.  The set attached stays as it was.
 */
TEST_F(share, errno_table)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	struct errno_args e = {
		.fd = self->fd,
		.a = self->a_id,
		.b = self->b_id,
		.c = self->c_id,
	};
	char path[PATH_MAX];
	int leader, cgfd, i;
	__u64 got[4];

	e.gone = cgs_mkdir(self->dir, "gone", path);
	ASSERT_NE(0ULL, e.gone);
	ASSERT_EQ(0, rmdir(path));
	/* one more than the limit, as E2BIG's nr */
	e.bogus = calloc(CGS_ATTACH_MAX + 1, sizeof(*e.bogus));
	ASSERT_NE(NULL, e.bogus);
	/* far above any id a cgroup gets, all distinct */
	for (i = 0; i <= CGS_ATTACH_MAX; i++)
		e.bogus[i] = ~0ULL - i;

	e.per_task = cgs_perf_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, e.per_task);
	cgfd = open(self->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, cgfd);
	e.cgroup_ev = cgs_perf_open(&attr, cgfd, CPU, -1,
				    PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, e.cgroup_ev);
	attr.sample_period = 100000;
	e.sampling = cgs_perf_open(&attr, -1, CPU, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_LE(0, e.sampling);
	leader = cgs_open_counter(CPU, PERF_COUNT_SW_CPU_CLOCK, PERF_FORMAT_GROUP, -1);
	ASSERT_LE(0, leader);
	e.member = cgs_open_counter(CPU, PERF_COUNT_SW_CPU_CLOCK, PERF_FORMAT_GROUP,
				    leader);
	ASSERT_LE(0, e.member);

	ASSERT_EQ(0, cgs_attach(self->fd, (__u64[]){ e.a, e.b }, 2));
	errno_cases(_metadata, &e);
	ASSERT_EQ(2, attached_ids(self->fd, got, 4));
	EXPECT_EQ(e.a, got[0]);
	EXPECT_EQ(e.b, got[1]);

	close(e.member);
	close(leader);
	close(e.sampling);
	close(e.cgroup_ev);
	close(cgfd);
	close(e.per_task);
	free(e.bogus);
}

/*
 * One attach gives each member of the group a table: cgroups times
 * members is bounded too (8 members of 65536 cgroups), and checked before
 * any id is looked up.  A group of 9 with 65536 bogus ids is -E2BIG; with
 * one member fewer the same ids are looked up and the first is -ENOENT.
 */
TEST_F(share, group_entries_bounded)
{
	int fds[9], i;
	__u32 bad;
	__u64 *ids;

	ids = calloc(CGS_ATTACH_MAX, sizeof(*ids));
	ASSERT_NE(NULL, ids);
	for (i = 0; i < CGS_ATTACH_MAX; i++)
		ids[i] = ~0ULL - i;
	fds[0] = cgs_open_counter(CPU, PERF_COUNT_SW_CPU_CLOCK, 0, -1);
	ASSERT_LE(0, fds[0]);
	for (i = 1; i < 9; i++) {
		fds[i] = cgs_open_counter(CPU, PERF_COUNT_SW_CONTEXT_SWITCHES, 0,
					  fds[0]);
		ASSERT_LE(0, fds[i]);
	}

	EXPECT_EQ(-E2BIG, cgs_attach_err(fds[0], ids, CGS_ATTACH_MAX, &bad));
	EXPECT_EQ(~0U, bad);
	close(fds[8]);
	EXPECT_EQ(-ENOENT, cgs_attach_err(fds[0], ids, CGS_ATTACH_MAX, &bad));
	EXPECT_EQ(0U, bad);
	EXPECT_EQ(0, cgs_attach(fds[0], &self->a_id, 1));

	for (i = 0; i < 8; i++)
		close(fds[i]);
	free(ids);
}

/*
 * READ errors: an id not attached (-ENOENT), a buffer too small (-ENOSPC,
 * nothing written to it and the size needed stored in buf_size), a bad
 * pointer to the struct or to the buffer (-EFAULT).
 */
TEST_F(share, read_errors)
{
	struct perf_event_cgroup_read arg = { 0 };
	__u64 buf[8];

	ASSERT_EQ(0, cgs_attach(self->fd, &self->a_id, 1));
	EXPECT_EQ(-ENOENT, cgs_read(self->fd, self->b_id, buf, 1));

	memset(buf, 0xa5, sizeof(buf));
	arg.id = self->a_id;
	arg.buf = (uintptr_t)buf;
	arg.buf_size = 7;
	EXPECT_EQ(-ENOSPC, cgs_ioctl(self->fd, PERF_EVENT_IOC_READ_CGROUP, &arg));
	EXPECT_EQ(8ULL, arg.buf_size);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, buf[0]);
	arg.id = 0;
	arg.buf_size = 0;
	EXPECT_EQ(-ENOSPC, cgs_ioctl(self->fd, PERF_EVENT_IOC_READ_CGROUP, &arg));
	EXPECT_EQ(24ULL, arg.buf_size);
	EXPECT_EQ(0xa5a5a5a5a5a5a5a5ULL, buf[0]);

	EXPECT_EQ(-EFAULT, cgs_ioctl(self->fd, PERF_EVENT_IOC_READ_CGROUP, (void *)8));
	arg.buf = 8;
	EXPECT_EQ(-EFAULT, cgs_ioctl(self->fd, PERF_EVENT_IOC_READ_CGROUP, &arg));
	EXPECT_EQ(1, attached_ids(self->fd, buf, 1));
}

/*
 * The arguments are extensible structs: a flag this kernel does not know
 * is -EINVAL, for both ioctls and every undefined bit, and the set stays.
 */
TEST_F(share, ext_arg_unknown_flag)
{
	struct perf_event_cgroup_attach attach = {
		.nr = 1,
		.ids = (uintptr_t)&self->b_id,
	};
	struct perf_event_cgroup_read read = { 0 };
	__u64 got[2];
	int bit;

	ASSERT_EQ(0, cgs_attach(self->fd, &self->a_id, 1));
	read.id = self->a_id;
	read.buf = (uintptr_t)got;
	read.buf_size = sizeof(got);
	for (bit = 0; bit < 32; bit++) {
		attach.flags = 1U << bit;
		read.flags = 1U << bit;
		EXPECT_EQ(-EINVAL, cgs_ioctl(self->fd, PERF_EVENT_IOC_ATTACH_CGROUP,
					     &attach));
		EXPECT_EQ(-EINVAL, cgs_ioctl(self->fd, PERF_EVENT_IOC_READ_CGROUP,
					     &read));
	}
	ASSERT_EQ(1, attached_ids(self->fd, got, 2));
	EXPECT_EQ(self->a_id, got[0]);
}

/* A non-zero reserved field of either struct is -EINVAL, and the set stays. */
TEST_F(share, ext_arg_reserved_nonzero)
{
	struct perf_event_cgroup_attach attach = {
		.nr = 1,
		.ids = (uintptr_t)&self->b_id,
	};
	struct perf_event_cgroup_read read = { 0 };
	__u64 got[2];
	int bit;

	ASSERT_EQ(0, cgs_attach(self->fd, &self->a_id, 1));
	read.id = self->a_id;
	read.buf = (uintptr_t)got;
	read.buf_size = sizeof(got);
	for (bit = 0; bit < 32; bit++) {
		attach.reserved = 1U << bit;
		read.reserved = 1U << bit;
		EXPECT_EQ(-EINVAL, cgs_ioctl(self->fd, PERF_EVENT_IOC_ATTACH_CGROUP,
					     &attach));
		EXPECT_EQ(-EINVAL, cgs_ioctl(self->fd, PERF_EVENT_IOC_READ_CGROUP,
					     &read));
	}
	ASSERT_EQ(1, attached_ids(self->fd, got, 2));
	EXPECT_EQ(self->a_id, got[0]);
}

/*
 * A caller built against a later, larger struct (and so a larger size in
 * the ioctl number) is served when the fields this kernel does not know
 * are zero: the attach takes effect and the read returns the values.
 */
TEST_F(share, ext_arg_larger_zero_tail)
{
	struct perf_event_cgroup_attach attach = {
		.nr = 2,
		.ids = (uintptr_t)(__u64[]){ self->a_id, self->b_id },
	};
	struct perf_event_cgroup_read read = { .id = 0 };
	__u64 got[5] = { 0 };

	ASSERT_EQ(0, attach_sized(self->fd, attach, sizeof(attach) + 64, 0));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 20 * MS));
	read.buf = (uintptr_t)got;
	read.buf_size = sizeof(got);
	ASSERT_EQ(40, read_sized(self->fd, read, sizeof(read) + 64, 0));
	EXPECT_EQ(2ULL, got[0]);
	EXPECT_EQ(self->a_id, got[1]);
	EXPECT_LT(0ULL, got[2]);
	EXPECT_EQ(self->b_id, got[3]);
	EXPECT_EQ(0ULL, got[4]);
	/* what it returns for the smallest size too */
	read.buf_size = 8;
	read.id = self->b_id;
	EXPECT_EQ(8, read_sized(self->fd, read, PERF_CGROUP_READ_SIZE_VER0, 0));
	EXPECT_EQ(0ULL, got[0]);
}

/*
 * A larger struct (the size in the ioctl number) whose unknown tail is not
 * zero asks for something this kernel does not have: -EINVAL, for any
 * byte of the tail, the last one included, and nothing changes.  The same
 * byte beyond the size is not looked at.
 */
TEST_F(share, ext_arg_larger_nonzero_tail)
{
	struct perf_event_cgroup_attach attach = {
		.nr = 1,
		.ids = (uintptr_t)&self->b_id,
	};
	struct perf_event_cgroup_read read = { .id = 0 };
	__u64 got[3] = { 0 };
	__u32 extra, at;

	ASSERT_EQ(0, cgs_attach(self->fd, &self->a_id, 1));
	read.buf = (uintptr_t)got;
	read.buf_size = sizeof(got);
	for (extra = 1; extra <= 64; extra++) {
		for (at = 0; at < extra; at++) {
			EXPECT_EQ(-EINVAL, attach_sized(self->fd, attach,
							sizeof(attach) + extra,
							sizeof(attach) + at));
			EXPECT_EQ(-EINVAL, read_sized(self->fd, read,
						      sizeof(read) + extra,
						      sizeof(read) + at));
		}
	}
	ASSERT_EQ(1, attached_ids(self->fd, got, 1));
	EXPECT_EQ(self->a_id, got[0]);
	/* a dirty byte just past the size the number encodes */
	EXPECT_EQ(24, read_sized(self->fd, read, sizeof(read) + 8, sizeof(read) + 8));
	EXPECT_EQ(0, attach_sized(self->fd, attach, sizeof(attach) + 8,
				  sizeof(attach) + 8));
	ASSERT_EQ(1, attached_ids(self->fd, got, 1));
	EXPECT_EQ(self->b_id, got[0]);
}

/*
 * A size below the first version of the struct, in the ioctl number, is
 * -EINVAL, down to 0.
 */
TEST_F(share, ext_arg_too_small)
{
	struct perf_event_cgroup_attach attach = {
		.nr = 1,
		.ids = (uintptr_t)&self->b_id,
	};
	struct perf_event_cgroup_read read = { .id = 0 };
	__u64 got[3] = { 0 };
	__u32 size;

	ASSERT_EQ(0, cgs_attach(self->fd, &self->a_id, 1));
	read.buf = (uintptr_t)got;
	read.buf_size = sizeof(got);
	for (size = 0; size < PERF_CGROUP_ATTACH_SIZE_VER0; size++)
		EXPECT_EQ(-EINVAL, attach_sized(self->fd, attach, size, 0));
	for (size = 0; size < PERF_CGROUP_READ_SIZE_VER0; size++)
		EXPECT_EQ(-EINVAL, read_sized(self->fd, read, size, 0));
	ASSERT_EQ(1, attached_ids(self->fd, got, 1));
	EXPECT_EQ(self->a_id, got[0]);
}

/*
 * Only CPU-wide counting events qualify: a sampling event, a per-task
 * event and a cgroup event get -EOPNOTSUPP.  A detach and a batch read of
 * a per-task event, which has no CPU, find nothing: 0 and { nr = 0 }.
 */
TEST_F(share, event_must_qualify)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	__u64 nr = ~0ULL;
	int fd, cgfd;

	attr.sample_period = 100000;
	fd = cgs_perf_open(&attr, -1, CPU, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EOPNOTSUPP, cgs_attach(fd, &self->a_id, 1));
	close(fd);

	attr.sample_period = 0;
	fd = cgs_perf_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EOPNOTSUPP, cgs_attach(fd, &self->a_id, 1));
	/* an event of no CPU has nothing to detach or read (found by the fuzzer) */
	EXPECT_EQ(0, cgs_attach(fd, NULL, 0));
	EXPECT_EQ(8, cgs_read(fd, 0, &nr, 1));
	EXPECT_EQ(0ULL, nr);
	EXPECT_EQ(-ENOENT, cgs_read(fd, self->a_id, &nr, 1));
	close(fd);

	cgfd = open(self->dir, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, cgfd);
	fd = cgs_perf_open(&attr, cgfd, CPU, -1, PERF_FLAG_PID_CGROUP);
	ASSERT_LE(0, fd);
	EXPECT_EQ(-EOPNOTSUPP, cgs_attach(fd, &self->a_id, 1));
	close(fd);
	close(cgfd);
}

/*
 * An attached cgroup that is removed keeps its last counts readable until
 * it is detached; it cannot be attached anew; closing the event is fine.
 */
TEST_F(share, rmdir_then_read_and_close)
{
	__u64 ids[] = { self->a1_id, self->b_id };
	__u32 err_index;
	long long before;
	__u64 v;

	ASSERT_EQ(0, cgs_attach(self->fd, ids, 2));
	ASSERT_NE(0ULL, cgs_run_busy(self->a1, CPU, 20 * MS));
	before = cgs_count(self->fd, self->a1_id);
	ASSERT_GT(before, 0);
	ASSERT_EQ(0, rmdir(self->a1));
	EXPECT_EQ(before, cgs_count(self->fd, self->a1_id));
	/* re-attaching a set with the removed id fails and changes nothing */
	EXPECT_EQ(-ENOENT, cgs_attach_err(self->fd, ids, 2, &err_index));
	EXPECT_EQ(0U, err_index);
	EXPECT_EQ(before, cgs_count(self->fd, self->a1_id));
	/* dropping it works */
	EXPECT_EQ(0, cgs_attach(self->fd, &self->b_id, 1));
	EXPECT_EQ(-ENOENT, cgs_read(self->fd, self->a1_id, &v, 1));
	close(self->fd);
	self->fd = -1;
}

/* Closing an event with cgroups attached whose cgroups were all removed. */
TEST_F(share, close_after_rmdir)
{
	ASSERT_EQ(0, cgs_attach(self->fd, &self->c_id, 1));
	ASSERT_EQ(0, rmdir(self->c));
	EXPECT_EQ(0, cgs_count(self->fd, self->c_id));
	close(self->fd);
	self->fd = -1;
}

/*
 * A task in a cgroup namespace rooted at A can attach A and its
 * descendants but not B, which it cannot see (-ENOENT, err_index at B).
 */
TEST_F(share, cgroup_namespace_visibility)
{
	int status, cgfd;
	pid_t pid;

	cgfd = open(self->a, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, cgfd);
	pid = cgs_fork_into(cgfd);
	if (!pid) {
		__u32 i0 = 0, i1 = 0;
		int ok;

		if (unshare(CLONE_NEWCGROUP))
			_exit(2);
		ok = cgs_attach_err(self->fd, (__u64[]){ self->b_id }, 1, &i0) == -ENOENT &&
		     cgs_attach_err(self->fd, (__u64[]){ self->a_id, self->b_id }, 2,
				    &i1) == -ENOENT &&
		     i0 == 0 && i1 == 1 &&
		     cgs_attach(self->fd, (__u64[]){ self->a_id, self->a1_id }, 2) == 0;
		_exit(ok ? 0 : 1);
	}
	ASSERT_LT(0, pid);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	EXPECT_EQ(0, WEXITSTATUS(status));
	close(cgfd);
}

/*
 * PERF_EVENT_IOC_RESET zeroes the event's count, not the cgroups': they
 * keep what was counted before and go on counting.
 */
TEST_F(share, reset_keeps_cgroup_counts)
{
	long long a;

	ASSERT_EQ(0, cgs_attach(self->fd, &self->a_id, 1));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 20 * MS));
	a = cgs_count(self->fd, self->a_id);
	ASSERT_GT(a, 0);
	ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_RESET, 0));
	EXPECT_GE(cgs_count(self->fd, self->a_id), a);
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 20 * MS));
	EXPECT_GT(cgs_count(self->fd, self->a_id), a + 10 * (long long)MS);
}

/*
 * Detach always succeeds.  While the leader has cgroups, a member that
 * cannot be counted per cgroup (a sampling event) is refused by
 * perf_event_open(), and one that can joins with no cgroups (it reads 0);
 * once detached, the group takes any member, and a detach still succeeds
 * with it there while an attach is refused (-EOPNOTSUPP: the group does
 * not qualify).
 */
TEST_F(share, detach_with_late_members)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = 1000000,
	};
	__u64 fmt = PERF_FORMAT_GROUP;
	int leader, late, sampler;
	__u64 v[4];

	leader = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, fmt, -1);
	ASSERT_LE(0, leader);
	ASSERT_EQ(0, cgs_attach(leader, &self->a_id, 1));

	sampler = cgs_perf_open(&attr, -1, CPU, leader, 0);
	EXPECT_EQ(-1, sampler);
	/* perf_event_open()'s errno for a group it cannot take */
	EXPECT_EQ(EINVAL, errno);
	if (sampler >= 0)
		close(sampler);

	late = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, fmt, leader);
	ASSERT_LE(0, late);
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 20 * MS));
	ASSERT_EQ(24, cgs_read(leader, self->a_id, v, 3));
	EXPECT_EQ(2ULL, v[0]);
	EXPECT_GT(v[1], 0ULL);
	EXPECT_EQ(0ULL, v[2]);

	EXPECT_EQ(0, cgs_attach(leader, NULL, 0));
	sampler = cgs_perf_open(&attr, -1, CPU, leader, 0);
	ASSERT_LE(0, sampler);
	EXPECT_EQ(-EOPNOTSUPP, cgs_attach(leader, &self->a_id, 1));
	EXPECT_EQ(0, cgs_attach(leader, NULL, 0));
	EXPECT_EQ(-ENOENT, cgs_read(leader, self->a_id, v, 4));
	close(sampler);
	close(late);
	close(leader);
}

/*
 * attr.inherit means nothing for a CPU-wide event, and perf stat sets it
 * even with -a: such an event is attached and counts like any other.
 */
TEST_F(share, inherit_accepted)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_TASK_CLOCK,
		.inherit = 1,
	};
	long long count;
	__u64 cpu;
	int fd;

	fd = cgs_perf_open(&attr, -1, CPU, -1, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, cgs_attach(fd, &self->a_id, 1));
	cpu = cgs_run_busy(self->a, CPU, 50 * MS);
	ASSERT_NE(0ULL, cpu);
	count = cgs_count(fd, self->a_id);
	EXPECT_NEAR((__u64)count, cpu);
	close(fd);
}

/*
 * PERF_EVENT_IOC_RESET zeroes an event with cgroups once, together with
 * the point the next delta starts from, so that no switch in between can
 * lose counts.  Two context-switches events see the same switches of tasks
 * in A and B ping-ponging on the CPU, one reset over and over from another
 * CPU: the cgroups of both read exactly the same counts.
 */
TEST_F_TIMEOUT(share, reset_races_switches, 240)
{
	__u64 ids[] = { self->a_id, self->b_id, self->p_id };
	int ctl, cga, cgb, status, i;
	long resets = 0;
	pid_t pids[2];

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs a second CPU to reset from");
	close(self->fd);
	self->fd = cgs_open_counter(CPU, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, -1);
	ASSERT_LE(0, self->fd);
	ctl = cgs_open_counter(CPU, PERF_COUNT_SW_CONTEXT_SWITCHES, 0, -1);
	ASSERT_LE(0, ctl);
	ASSERT_EQ(0, cgs_attach(self->fd, ids, 3));
	ASSERT_EQ(0, cgs_attach(ctl, ids, 3));
	cga = open(self->a, O_RDONLY | O_DIRECTORY);
	cgb = open(self->b, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, cga);
	ASSERT_LE(0, cgb);

	ASSERT_EQ(0, cgs_ping_pong(cga, cgb, CPU, 20000, pids));
	while (waitpid(pids[0], &status, WNOHANG) == 0) {
		ASSERT_EQ(0, ioctl(self->fd, PERF_EVENT_IOC_RESET, 0));
		resets++;
	}
	EXPECT_EQ(0, status);
	ASSERT_EQ(pids[1], waitpid(pids[1], &status, 0));
	EXPECT_EQ(0, status);

	TH_LOG("%ld resets; A %lld/%lld B %lld/%lld", resets,
	       cgs_count(self->fd, self->a_id), cgs_count(ctl, self->a_id),
	       cgs_count(self->fd, self->b_id), cgs_count(ctl, self->b_id));
	EXPECT_GE(cgs_count(ctl, self->a_id), 20000);
	for (i = 0; i < 3; i++)
		EXPECT_EQ(cgs_count(ctl, ids[i]), cgs_count(self->fd, ids[i]));
	close(cga);
	close(cgb);
	close(ctl);
}

/*
 * Attached ids are cgroup2 ones: with the perf_event controller disabled
 * (cgroup_disable=perf_event) or bound to a v1 hierarchy, no cgroup has
 * perf_event state and ATTACH fails with -ENODEV, err_index 0, instead of
 * counting nothing; a detach still succeeds.
 * On a kernel booted with cgroup_disable=perf_event this checks the error
 * (the fixture of the other tests skips there).  The id attached is the
 * cgroup2 mount's, which needs no new cgroup.
 */
TEST(attach_needs_perf_event_on_cgroup2)
{
	const char *why = cgs_unsupported(), *mnt = cgs_cgroup2_mount();
	int hierarchy, enabled, fd, ret;
	__u32 err_index;
	__u64 id;

	if (why)
		SKIP(return, "%s", why);
	if (!mnt)
		SKIP(return, "no cgroup2 mount");
	id = cgs_id(mnt);
	ASSERT_NE(0ULL, id);
	ASSERT_EQ(0, cgs_perf_event_controller(&hierarchy, &enabled));
	TH_LOG("perf_event: hierarchy %d enabled %d", hierarchy, enabled);
	fd = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	ASSERT_LE(0, fd);
	ret = cgs_attach_err(fd, &id, 1, &err_index);
	EXPECT_EQ(!enabled || hierarchy ? -ENODEV : 0, ret);
	if (ret)
		EXPECT_EQ(0U, err_index);
	EXPECT_EQ(0, cgs_attach(fd, NULL, 0));
	close(fd);
}

/*
 * With perf_event bound to a v1 hierarchy (mounted in a private mount
 * namespace, so that it goes away with the child that mounted it), ATTACH
 * fails with -ENODEV and err_index 0, detaching works, and once the v1
 * hierarchy is gone attaching works again.
 */
TEST_F(share, attach_refused_with_v1_perf_event)
{
	int hierarchy, enabled, status, ret, i;
	char dir[] = "/tmp/perf_share_v1.XXXXXX";
	__u64 ids[] = { self->a_id, self->b_id };
	__u32 err_index;
	pid_t pid;

	ASSERT_EQ(0, cgs_perf_event_controller(&hierarchy, &enabled));
	if (!enabled || hierarchy)
		SKIP(return, "perf_event is not on cgroup2 to start with");
	ASSERT_NE(NULL, mkdtemp(dir));
	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		if (unshare(CLONE_NEWNS) ||
		    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
			_exit(2);
		if (mount("perf_share_v1", dir, "cgroup", 0, "perf_event"))
			_exit(3);
		if (cgs_perf_event_controller(&hierarchy, &enabled) || !hierarchy)
			_exit(4);
		if (cgs_attach_err(self->fd, ids, 2, &err_index) != -ENODEV ||
		    err_index)
			_exit(5);
		if (cgs_attach(self->fd, NULL, 0))
			_exit(6);
		umount(dir);
		_exit(0);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	rmdir(dir);
	if (WEXITSTATUS(status) == 3)
		SKIP(return, "cannot mount a v1 perf_event hierarchy");
	EXPECT_EQ(0, WEXITSTATUS(status));

	/* the v1 hierarchy is destroyed asynchronously */
	for (i = 0; i < 500; i++) {
		ASSERT_EQ(0, cgs_perf_event_controller(&hierarchy, &enabled));
		if (!hierarchy)
			break;
		usleep(10000);
	}
	ASSERT_EQ(0, hierarchy);
	/*
	 * /proc/cgroups says hierarchy 0 as soon as the controller's root
	 * changes; rebind_subsystems() then turns cgroup_subsys_on_dfl() on
	 * and gives the cgroups their perf_event state: until it has, the
	 * attach still fails with -ENODEV.
	 */
	for (i = 0; i < 500; i++) {
		ret = cgs_attach(self->fd, &self->a_id, 1);
		if (ret != -ENODEV)
			break;
		usleep(10000);
	}
	EXPECT_EQ(0, ret);
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 20 * MS));
	EXPECT_GT(cgs_count(self->fd, self->a_id), 0);
}

/*
 * CPU hotplug.  When CPU 1 goes offline, perf takes its events out of
 * their context and splits their groups: the events stop counting, their
 * cgroups keep the counts, readable while the CPU is offline (the read
 * then runs on the caller's CPU) and after it is back; each former member
 * keeps its own cgroups, reached (read, detached) through its own fd.
 * Reads racing with the hotplug never fail but with -EAGAIN (the group
 * changed during the call), and an event of CPU 0 counts on unaffected.
 */
TEST_F(share, cpu_hotplug)
{
	const char *cpu1 = "/sys/devices/system/cpu/cpu1";
	__u64 fmt = PERF_FORMAT_GROUP, v[3], leader_count, cpu;
	int leader, member, status;
	pid_t reader;

	if (self->cpu1_online != 1 || access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "CPU 1 is not online or cannot be taken offline");
	cgs_pin(0);
	leader = cgs_open_counter(1, PERF_COUNT_SW_TASK_CLOCK, fmt, -1);
	ASSERT_LE(0, leader);
	member = cgs_open_counter(1, PERF_COUNT_SW_TASK_CLOCK, fmt, leader);
	ASSERT_LE(0, member);
	ASSERT_EQ(0, cgs_attach(leader, &self->a_id, 1));
	ASSERT_EQ(0, cgs_attach(self->fd, &self->a_id, 1));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, 1, 30 * MS));
	ASSERT_EQ(24, cgs_read(leader, self->a_id, v, 3));
	EXPECT_EQ(2ULL, v[0]);
	EXPECT_GT(v[1], 0ULL);
	EXPECT_GT(v[2], 0ULL);
	leader_count = v[1];

	reader = fork();
	ASSERT_LE(0, reader);
	if (!reader) {
		for (;;) {
			int ret = cgs_read(leader, self->a_id, v, 3);

			if (ret != 24 && ret != 16 && ret != -EAGAIN)
				_exit(1);
		}
	}

	ASSERT_EQ(0, cgs_write(cpu1, "online", "0"));
	cpu = cgs_run_busy(self->a, 0, 50 * MS);
	ASSERT_NE(0ULL, cpu);
	EXPECT_NEAR((__u64)cgs_count(self->fd, self->a_id), cpu);
	/* the leader is alone in its group now, its count kept */
	ASSERT_EQ(16, cgs_read(leader, self->a_id, v, 3));
	EXPECT_EQ(1ULL, v[0]);
	EXPECT_EQ(leader_count, v[1]);
	ASSERT_EQ(0, cgs_write(cpu1, "online", "1"));

	ASSERT_NE(0ULL, cgs_run_busy(self->a, 1, 20 * MS));
	ASSERT_EQ(16, cgs_read(leader, self->a_id, v, 3));
	EXPECT_EQ(leader_count, v[1]);
	ASSERT_EQ(16, cgs_read(member, self->a_id, v, 3));
	EXPECT_EQ(1ULL, v[0]);
	EXPECT_GT(v[1], 0ULL);

	kill(reader, SIGKILL);
	ASSERT_EQ(reader, waitpid(reader, &status, 0));
	EXPECT_TRUE(WIFSIGNALED(status));

	EXPECT_EQ(0, cgs_attach(leader, NULL, 0));
	EXPECT_EQ(0, cgs_attach(member, NULL, 0));
	EXPECT_EQ(-ENOENT, cgs_read(member, self->a_id, v, 3));
	EXPECT_EQ(0, cgs_attach(member, &self->b_id, 1));
	close(member);
	close(leader);
}

/*
 * ATTACH refuses a cgroup that has no perf_event state of its own, where
 * nothing would count, with -ENODEV and err_index at it.  Kernels without
 * "cgroup: Compute the default root's subtree_ss_mask after subsystem
 * init" give new cgroups none until something wrote the root's
 * cgroup.subtree_control (scripts/vm --no-subtree-control boots so).  Each
 * cgroup is checked on its own, with a cgroup event opened on its
 * directory (-ENOENT without one): where they all have one, the attach
 * succeeds.  Not a fixture test, as the fixture skips where new cgroups
 * have no perf_event state.
 */
TEST(no_perf_event_css)
{
	const char *why = cgs_unsupported(), *mnt = cgs_cgroup2_mount();
	char dir[PATH_MAX], child[PATH_MAX];
	const char *paths[3];
	int i, err, fd, ret, expect = -1;
	__u32 err_index;
	__u64 ids[3], nr;

	if (why)
		SKIP(return, "%s", why);
	why = cgs_perf_event_not_on_cgroup2();
	if (why)
		SKIP(return, "%s", why);
	if (!mnt)
		SKIP(return, "no cgroup2 mount");
	err = cgs_mkdir_private(mnt, "perf_share_css", dir);
	if (err)
		SKIP(return, "cannot create a cgroup at %s or below this process's: %s",
		     mnt, strerror(-err));

	/* the fresh child in the middle: err_index must point at it */
	paths[0] = mnt;
	paths[1] = child;
	paths[2] = dir;
	if (!cgs_mkdir(dir, "fresh", child))
		child[0] = 0;
	fd = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	for (i = 0; i < 3 && child[0]; i++) {
		ids[i] = cgs_id(paths[i]);
		err = cgs_perf_event_css(paths[i]);
		TH_LOG("%s: id %llu, perf_event css: %s", paths[i],
		       (unsigned long long)ids[i], err ? strerror(-err) : "yes");
		EXPECT_NE(0ULL, ids[i]);
		EXPECT_TRUE(!err || err == -ENOENT);
		if (err && expect < 0)
			expect = i;
	}
	EXPECT_NE(0, child[0]);
	EXPECT_LE(0, fd);
	if (child[0] && fd >= 0) {
		ret = cgs_attach_err(fd, ids, 3, &err_index);
		if (expect < 0) {
			EXPECT_EQ(0, ret);
		} else {
			EXPECT_EQ(-ENODEV, ret);
			EXPECT_EQ((__u32)expect, err_index);
			/* and the event has no cgroup */
			EXPECT_EQ(8, cgs_read(fd, 0, &nr, 1));
			EXPECT_EQ(0ULL, nr);
		}
	}
	if (fd >= 0)
		close(fd);
	cgs_rmtree(dir, mnt);
}

/*
 * The kernel keeps no reference on attached cgroups: an attached cgroup
 * that is removed dies while the event is still attached (its parent's
 * nr_dying_descendants goes back to 0 within 10 s), and its id still
 * reads the counts it had, single and batch, until the event is closed.
 */
TEST_F_TIMEOUT(share, removed_cgroup_not_pinned, 60)
{
	__u64 r_id, v[5], end;
	char r[PATH_MAX];
	long long count;
	long dying;

	r_id = cgs_mkdir(self->dir, "R", r);
	ASSERT_NE(0ULL, r_id);
	ASSERT_EQ(0, cgs_attach(self->fd, (__u64[]){ self->a_id, r_id }, 2));
	ASSERT_NE(0ULL, cgs_run_busy(r, CPU, 20 * MS));
	count = cgs_count(self->fd, r_id);
	ASSERT_LT(0, count);
	ASSERT_EQ(0, cgs_cgroup_stat(self->dir, "nr_dying_descendants"));
	ASSERT_EQ(0, rmdir(r));

	end = cgs_now_ns(CLOCK_MONOTONIC) + 10000 * MS;
	do {
		dying = cgs_cgroup_stat(self->dir, "nr_dying_descendants");
		if (dying <= 0)
			break;
		usleep(20000);
	} while (cgs_now_ns(CLOCK_MONOTONIC) < end);
	TH_LOG("nr_dying_descendants %ld after the rmdir of an attached cgroup", dying);
	EXPECT_EQ(0, dying);

	EXPECT_EQ(count, cgs_count(self->fd, r_id));
	ASSERT_EQ(40, cgs_read(self->fd, 0, v, 5));
	EXPECT_EQ(2ULL, v[0]);
	EXPECT_EQ(self->a_id, v[1]);
	EXPECT_EQ(r_id, v[3]);
	EXPECT_EQ((__u64)count, v[4]);
	close(self->fd);
	self->fd = -1;
}

/* does any member's value in a group record @rec differ from the first's? */
static bool group_unequal(const __u64 *rec, int members)
{
	/* nr, enabled, running, then { value, id, lost } per member */
	for (int j = 1; j < members; j++) {
		if (rec[3 + 3 * j] != rec[3])
			return true;
	}
	return false;
}

/*
 * A cgroup's values, every member of a group included, are taken at one
 * point.  The 12 members of a group count context switches on CPU: with
 * every read_format flag that is 3 + 12 * 3 values a cgroup, more than v4
 * gathered in one hold of the CPU's lock.  Tasks of A and B ping-pong on
 * CPU (a cgroup switch at every pass) for 3 s while this test reads from
 * another CPU, batch and single, through the leader and the members: in
 * every read, the 12 values of a cgroup are equal.
 */
TEST_F_TIMEOUT(share, group_values_one_point, 120)
{
	__u64 fmt = PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_LOST |
		    PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	enum { MEMBERS = 12, REC = 3 + 3 * MEMBERS, ALL = 1 + 2 * (1 + REC) };
	__u64 ids[] = { self->a_id, self->b_id }, one[REC], all[ALL], end;
	int fds[MEMBERS], cga, cgb, i, status, ret = 0;
	long reads = 0, unequal = 0;
	pid_t pids[2];

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs a second CPU to read from");
	for (i = 0; i < MEMBERS; i++) {
		fds[i] = cgs_open_counter(CPU, PERF_COUNT_SW_CONTEXT_SWITCHES, fmt,
					  i ? fds[0] : -1);
		ASSERT_LE(0, fds[i]);
	}
	ASSERT_EQ(0, cgs_attach(fds[0], ids, 2));
	cga = open(self->a, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cgb = open(self->b, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, cga);
	ASSERT_LE(0, cgb);

	ASSERT_EQ(0, cgs_ping_pong(cga, cgb, CPU, INT_MAX, pids));
	end = cgs_now_ns(CLOCK_MONOTONIC) + 3000 * MS;
	while (cgs_now_ns(CLOCK_MONOTONIC) < end) {
		int fd = fds[reads % MEMBERS], c = reads % 2;

		ret = cgs_read(fd, 0, all, ALL);
		if (ret == 8 * ALL)
			ret = cgs_read(fd, ids[c], one, REC);
		if (ret != 8 * REC)
			break;
		for (i = 0; i < 2; i++) {
			const __u64 *rec = all + 1 + i * (1 + REC);

			if (rec[0] != ids[i] || group_unequal(rec + 1, MEMBERS))
				unequal++;
		}
		unequal += group_unequal(one, MEMBERS);
		reads++;
	}
	kill(pids[0], SIGKILL);
	kill(pids[1], SIGKILL);
	waitpid(pids[0], &status, 0);
	waitpid(pids[1], &status, 0);

	if (ret != 8 * REC)
		TH_LOG("read %ld failed: %d", reads, ret);
	EXPECT_EQ(8 * REC, ret);
	ASSERT_EQ(8 * REC, cgs_read(fds[0], self->a_id, one, REC));
	TH_LOG("%ld batch and single reads, %ld with unequal members; "
	       "A: %llu switches in each member", reads, unequal,
	       (unsigned long long)one[3]);
	EXPECT_EQ(0, unequal);
	EXPECT_LT(100, reads);
	/* the ping-pong ran: the test saw the counts move */
	EXPECT_LT(1000ULL, one[3]);
	EXPECT_FALSE(group_unequal(one, MEMBERS));
	close(cga);
	close(cgb);
	for (i = MEMBERS - 1; i >= 0; i--)
		close(fds[i]);
}

/* wait up to @ms for child @pid to exit; true if reaped, its status in @status */
static bool wait_exit(pid_t pid, int ms, int *status)
{
	__u64 end = cgs_now_ns(CLOCK_MONOTONIC) + ms * MS;

	do {
		if (waitpid(pid, status, WNOHANG) == pid)
			return true;
		usleep(10000);
	} while (cgs_now_ns(CLOCK_MONOTONIC) < end);
	return false;
}

/* what the reader of the userfaultfd test tells the test */
struct uffd_reader_info {
	int uffd;		/* its userfaultfd */
	__u64 missing;		/* where its buffer's missing pages start */
};

/*
 * The reader of read_into_userfaultfd_does_not_block_hotplug: a batch read
 * of @fd into a buffer of @len bytes registered with a userfaultfd of its
 * own (missing pages; not UFFD_USER_MODE_ONLY, so that the kernel's own
 * faults wait too) that nothing resolves.  Its first page is there, so
 * that the read faults in the middle of copying the values out, once past
 * it.  Tells the test what it needs through @wfd first; exits only if the
 * read returns.
 */
static void uffd_reader(int fd, int wfd, size_t len)
{
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct uffdio_api api = { .api = UFFD_API };
	long page = sysconf(_SC_PAGESIZE);
	struct uffd_reader_info info;
	char *buf;

	/* non-blocking: poll() of a blocking userfaultfd is POLLERR */
	info.uffd = syscall(__NR_userfaultfd, O_CLOEXEC | O_NONBLOCK);
	if (info.uffd < 0 || ioctl(info.uffd, UFFDIO_API, &api))
		_exit(10);
	len = (len + page - 1) / page * page;
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		_exit(11);
	memset(buf, 0, page);
	reg.range.start = (uintptr_t)buf;
	reg.range.len = len;
	if (ioctl(info.uffd, UFFDIO_REGISTER, &reg))
		_exit(12);
	info.missing = (uintptr_t)buf + page;
	if (write(wfd, &info, sizeof(info)) != sizeof(info))
		_exit(13);
	_exit(cgs_read(fd, 0, (__u64 *)buf, len / sizeof(__u64)) < 0 ? 14 : 15);
}

/*
 * A read copies the values out without holding what CPU hotplug needs:
 * while a batch read of an event of CPU 1 with 300 cgroups (4808 bytes)
 * waits forever on a userfaultfd fault in its buffer past the first page,
 * CPU 1 still goes offline (within 10 s; v4 held the context's mutex over
 * the copy, and the hotplug waited for it), and the reader dies of
 * SIGKILL within 10 s.  CPU 1 is put back online.
 */
TEST_F_TIMEOUT(share, read_into_userfaultfd_does_not_block_hotplug, 120)
{
	const char *cpu1 = "/sys/devices/system/cpu/cpu1";
	int fd, pfd[2], uffd, pidfd, puffd = -1, status, wstatus = 0, i;
	enum { N = 300, BYTES = 8 + N * 16 };
	struct uffd_reader_info info;
	char path[PATH_MAX], name[32];
	bool offline, reader_gone;
	pid_t reader, writer;
	struct uffd_msg msg;
	__u64 ids[N];

	if (self->cpu1_online != 1 || access("/sys/devices/system/cpu/cpu1/online", W_OK))
		SKIP(return, "CPU 1 is not online or cannot be taken offline");
	if (access("/proc/sys/vm/unprivileged_userfaultfd", F_OK))
		SKIP(return, "kernel without userfaultfd(2) (CONFIG_USERFAULTFD)");
	uffd = syscall(__NR_userfaultfd, O_CLOEXEC);
	if (uffd < 0)
		SKIP(return, "userfaultfd(2) for kernel faults: %s", strerror(errno));
	close(uffd);

	cgs_pin(0);
	fd = cgs_open_counter(1, PERF_COUNT_SW_TASK_CLOCK, 0, -1);
	ASSERT_LE(0, fd);
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "u%d", i);
		ids[i] = cgs_mkdir(self->dir, name, path);
		ASSERT_NE(0ULL, ids[i]);
	}
	ASSERT_EQ(0, cgs_attach(fd, ids, N));
	ASSERT_EQ(0, pipe2(pfd, O_CLOEXEC));
	reader = fork();
	ASSERT_LE(0, reader);
	if (!reader) {
		close(pfd[0]);
		uffd_reader(fd, pfd[1], BYTES);
	}
	close(pfd[1]);
	if (read(pfd[0], &info, sizeof(info)) != sizeof(info)) {
		waitpid(reader, &status, 0);
		ASSERT_EQ(0, WEXITSTATUS(status));
	}
	close(pfd[0]);

	/* the reader waits once its fault is queued on its userfaultfd */
	pidfd = syscall(__NR_pidfd_open, reader, 0);
	if (pidfd >= 0)
		puffd = syscall(__NR_pidfd_getfd, pidfd, info.uffd, 0);
	if (puffd >= 0) {
		struct pollfd p = { .fd = puffd, .events = POLLIN };

		EXPECT_EQ(1, poll(&p, 1, 10000));
		EXPECT_EQ(POLLIN, p.revents);
		if (p.revents == POLLIN) {
			EXPECT_EQ((ssize_t)sizeof(msg), read(puffd, &msg, sizeof(msg)));
			EXPECT_EQ(UFFD_EVENT_PAGEFAULT, msg.event);
			/* past the first page: in the middle of the values */
			EXPECT_EQ(info.missing, msg.arg.pagefault.address);
		}
	} else {
		TH_LOG("cannot reach the reader's userfaultfd (%s): 1 s for it to fault",
		       strerror(errno));
		sleep(1);
	}
	EXPECT_EQ(0, waitpid(reader, &status, WNOHANG));

	writer = fork();
	ASSERT_LE(0, writer);
	if (!writer)
		_exit(-cgs_write(cpu1, "online", "0"));
	offline = wait_exit(writer, 10000, &wstatus);
	TH_LOG("CPU 1 offline %s, writer status %#x",
	       offline ? "done" : "still waiting after 10 s", wstatus);

	kill(reader, SIGKILL);
	reader_gone = wait_exit(reader, 10000, &status);
	EXPECT_TRUE(reader_gone);
	if (reader_gone)
		EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
	/* a hotplug the read held up goes on once the reader is gone */
	if (!offline && wait_exit(writer, 30000, &wstatus))
		TH_LOG("CPU 1 offline done once the reader was killed");

	cgs_write(cpu1, "online", "1");
	EXPECT_EQ(1, cgs_cpu_online(1));
	if (puffd >= 0)
		close(puffd);
	if (pidfd >= 0)
		close(pidfd);
	close(fd);
	if (offline && WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == EBUSY)
		SKIP(return, "CPU 1 cannot be taken offline (EBUSY)");
	EXPECT_TRUE(offline);
	EXPECT_TRUE(WIFEXITED(wstatus) && !WEXITSTATUS(wstatus));
}

/*
 * A member added to the group after the attach has no cgroups: it reads 0
 * for them while the leader counts.  The next attach through the leader
 * gives it the set; from then on it counts for the cgroup what the leader
 * counts (both task-clock), and the leader keeps what it had counted.
 */
TEST_F(share, late_member_counts_after_reattach)
{
	__u64 fmt = PERF_FORMAT_GROUP, v[3], before;
	int leader, late;

	leader = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, fmt, -1);
	ASSERT_LE(0, leader);
	ASSERT_EQ(0, cgs_attach(leader, &self->a_id, 1));
	late = cgs_open_counter(CPU, PERF_COUNT_SW_TASK_CLOCK, fmt, leader);
	ASSERT_LE(0, late);

	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 30 * MS));
	/* through the member: a group's cgroups are the leader's */
	ASSERT_EQ(24, cgs_read(late, self->a_id, v, 3));
	EXPECT_EQ(2ULL, v[0]);
	EXPECT_LT(20 * MS, v[1]);
	EXPECT_EQ(0ULL, v[2]);
	before = v[1];

	ASSERT_EQ(0, cgs_attach(leader, &self->a_id, 1));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 30 * MS));
	ASSERT_EQ(24, cgs_read(leader, self->a_id, v, 3));
	EXPECT_LT(20 * MS, v[2]);
	TH_LOG("leader %llu ns before, %llu after; late member %llu",
	       (unsigned long long)before, (unsigned long long)v[1],
	       (unsigned long long)v[2]);
	EXPECT_NEAR(v[1] - before, v[2]);
	close(late);
	close(leader);
}

/*
 * The id of the root cgroup is 1 on a 64-bit kernel and (1 << 32) | 1 on a
 * 32-bit one (kernfs keeps a generation in the upper half of its ids
 * there), as the ABI document says; it attaches and counts like any other.
 * Only where the cgroup2 mount is the system's root.
 */
TEST_F(share, root_id_attaches)
{
	if (!self->mnt_is_root)
		SKIP(return, "the cgroup2 mount is not the root cgroup (namespace?)");
	TH_LOG("root cgroup id %#llx", (unsigned long long)self->root_id);
	EXPECT_TRUE(self->root_id == 1 || self->root_id == ((1ULL << 32) | 1));
	ASSERT_EQ(0, cgs_attach(self->fd, &self->root_id, 1));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 20 * MS));
	EXPECT_GT(cgs_count(self->fd, self->root_id), 0);
}

/*
 * A 32-bit process passes the same structs through the same ioctl numbers
 * as a 64-bit one, with 4-byte pointers stored in their __u64 fields, and
 * attaches, reads (single and batch, also with a larger struct whose size
 * the number encodes) and gets the same errors (EEXIST with err_index
 * written back, ENOSPC with the size needed, EINVAL for a flag): see
 * cgroup_share_compat32.c, which the test runs.  It skips when that
 * helper could not be built or the kernel runs no 32-bit programs.
 */
TEST_F(share, compat_32bit)
{
	char helper[PATH_MAX], id[32], *slash;
	ssize_t len;
	int status;
	pid_t pid;

	len = readlink("/proc/self/exe", helper, sizeof(helper) - 32);
	ASSERT_LT(0, len);
	helper[len] = 0;
	slash = strrchr(helper, '/');
	ASSERT_NE(NULL, slash);
	memcpy(slash + 1, "cgroup_share_compat32", sizeof("cgroup_share_compat32"));
	if (access(helper, X_OK))
		SKIP(return, "32-bit helper not built (no gcc -m32)");
	snprintf(id, sizeof(id), "%llu", (unsigned long long)self->a_id);

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		execl(helper, helper, id, (char *)NULL);
		_exit(errno == ENOEXEC ? 127 : 126);
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	if (WEXITSTATUS(status) == 127)
		SKIP(return, "kernel without 32-bit emulation");
	EXPECT_EQ(0, WEXITSTATUS(status));
}

TEST_HARNESS_MAIN
