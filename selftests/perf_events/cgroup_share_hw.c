// SPDX-License-Identifier: GPL-2.0
/*
 * Shared per-cgroup counting of hardware events: what only a real PMU
 * exercises - pmu::read() of a hardware counter at every cgroup switch,
 * more events than counters, hardware groups.  QEMU's arm64 TCG emulates
 * an Armv8 PMU (scripts/vm --arch arm64); x86 TCG has none, and there
 * every test skips, saying so.
 */
#include "cgroup_share_util.h"
#include "../kselftest_harness.h"

#define MS		1000000ULL
#define CPU		0
/* more than the 6 event counters and the cycle counter of QEMU's PMU */
#define NR_MUX		12

FIXTURE(hw) {
	const char *mnt;
	char dir[PATH_MAX];	/* test-private parent P */
	char a[PATH_MAX], b[PATH_MAX];
	__u64 p_id, a_id, b_id, root_id;
	bool mnt_is_root;
};

/*
 * A counting event of @type and @config on CPU: CPU-wide, or a cgroup
 * event of the cgroup open as @cgroup_fd if that is not -1
 */
static int hw_open(__u64 type, __u64 config, __u64 read_format, bool pinned,
		   int group_fd, int cgroup_fd)
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.config = config,
		.read_format = read_format,
		.pinned = pinned,
	};

	if (cgroup_fd >= 0)
		return cgs_perf_open(&attr, cgroup_fd, CPU, group_fd,
				     PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	return cgs_perf_open(&attr, -1, CPU, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* NULL if CPU-wide cycles can be counted, else why not */
static const char *hw_missing(void)
{
	static char why[128];
	int fd = hw_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, false,
			 -1, -1);

	if (fd >= 0) {
		close(fd);
		return NULL;
	}
	snprintf(why, sizeof(why),
		 "no hardware cycles counter (%s): x86 TCG has no PMU, the arm64 guest has QEMU's",
		 strerror(errno));
	return why;
}

/* @count is @ref within 2% + 2M: where the switch cuts differs */
static bool hw_near(__u64 count, __u64 ref)
{
	__u64 slack = ref / 50 + 2 * MS;

	return count + slack >= ref && count <= ref + slack;
}

#define EXPECT_HW_NEAR(count, ref) do {					\
	__u64 __count = (count), __ref = (ref);				\
									\
	if (!hw_near(__count, __ref))					\
		TH_LOG("%s = %llu, %s = %llu", #count,			\
		       (unsigned long long)__count, #ref,		\
		       (unsigned long long)__ref);			\
	EXPECT_TRUE(hw_near(__count, __ref));				\
} while (0)

FIXTURE_SETUP(hw)
{
	const char *why = hw_missing();

	self->dir[0] = 0;
	if (!why)
		why = cgs_private_parent("perf_share_hw", &self->mnt, self->dir);
	if (why)
		SKIP(return, "%s", why);
	self->p_id = cgs_id(self->dir);
	self->a_id = cgs_mkdir(self->dir, "A", self->a);
	self->b_id = cgs_mkdir(self->dir, "B", self->b);
	self->root_id = cgs_id(self->mnt);
	self->mnt_is_root = cgs_is_root(self->mnt);
	ASSERT_NE(0ULL, self->p_id);
	ASSERT_NE(0ULL, self->a_id);
	ASSERT_NE(0ULL, self->b_id);
	ASSERT_NE(0ULL, self->root_id);
	/* the test itself stays off the CPU it measures */
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		cgs_pin(1);
}

FIXTURE_TEARDOWN(hw)
{
	if (self->dir[0])
		cgs_rmtree(self->dir, self->mnt);
}

/*
 * A hardware event per cgroup, shared, against cgroup events of it: the
 * cgroup at @a_dir spins four times as long as the one at @b_dir, so that
 * A's count stays above B's by half even with each child's fork and exit
 * in it (up to 5M instructions on a debug kernel under -icount shift=3,
 * as much as B's 50 ms of spinning), and each agrees with its cgroup
 * event within 2% + 2M.
 */
static void hw_match_cgroup_events(struct __test_metadata *_metadata,
				   const char *a_dir, __u64 a_id,
				   const char *b_dir, __u64 b_id, __u64 config)
{
	int fd, cga, cgb, ea, eb;
	__u64 a, b;

	cga = open(a_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cgb = open(b_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, cga);
	ASSERT_LE(0, cgb);
	fd = hw_open(PERF_TYPE_HARDWARE, config, 0, false, -1, -1);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, cgs_attach(fd, (__u64[]){ a_id, b_id }, 2));
	ea = hw_open(PERF_TYPE_HARDWARE, config, 0, false, -1, cga);
	eb = hw_open(PERF_TYPE_HARDWARE, config, 0, false, -1, cgb);
	ASSERT_LE(0, ea);
	ASSERT_LE(0, eb);

	ASSERT_NE(0ULL, cgs_run_busy(a_dir, CPU, 200 * MS));
	ASSERT_NE(0ULL, cgs_run_busy(b_dir, CPU, 50 * MS));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(ea, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, ioctl(eb, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(8, read(ea, &a, sizeof(a)));
	ASSERT_EQ(8, read(eb, &b, sizeof(b)));

	EXPECT_GT(a, b + b / 2);
	EXPECT_HW_NEAR((__u64)cgs_count(fd, a_id), a);
	EXPECT_HW_NEAR((__u64)cgs_count(fd, b_id), b);
	close(eb);
	close(ea);
	close(fd);
	close(cgb);
	close(cga);
}

TEST_F(hw, cycles_match_cgroup_events)
{
	hw_match_cgroup_events(_metadata, self->a, self->a_id,
			       self->b, self->b_id, PERF_COUNT_HW_CPU_CYCLES);
}

TEST_F(hw, instructions_match_cgroup_events)
{
	int fd = hw_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0,
			 false, -1, -1);

	/* QEMU counts instructions only when its clock follows them */
	if (fd < 0 && (errno == ENOENT || errno == EOPNOTSUPP))
		SKIP(return, "no instructions counter (%s): QEMU needs -icount",
		     strerror(errno));
	ASSERT_LE(0, fd);
	close(fd);
	hw_match_cgroup_events(_metadata, self->a, self->a_id,
			       self->b, self->b_id, PERF_COUNT_HW_INSTRUCTIONS);
}

/*
 * NR_MUX shared cycles events on a PMU with fewer counters, beside a
 * pinned cgroup event of cycles for A: they take turns, so each one's
 * per-cgroup time_running is below its time_enabled, and its count scaled
 * by enabled / running is the pinned event's within 25%.
 */
TEST_F(hw, multiplexed_counts_scale)
{
	__u64 rf = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	int fds[NR_MUX], ref, cga, i, short_runs = 0;
	__u64 v[3], want;

	cga = open(self->a, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, cga);
	ref = hw_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0, true, -1, cga);
	ASSERT_LE(0, ref);
	for (i = 0; i < NR_MUX; i++) {
		fds[i] = hw_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, rf,
				 false, -1, -1);
		ASSERT_LE(0, fds[i]);
		ASSERT_EQ(0, cgs_attach(fds[i], &self->a_id, 1));
	}

	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 300 * MS));
	for (i = 0; i < NR_MUX; i++)
		ASSERT_EQ(0, ioctl(fds[i], PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(8, read(ref, &want, sizeof(want)));
	ASSERT_NE(0ULL, want);

	for (i = 0; i < NR_MUX; i++) {
		__u64 scaled;

		ASSERT_EQ(24, cgs_read(fds[i], self->a_id, v, 3));
		EXPECT_LE(v[2], v[1]);
		close(fds[i]);
		if (v[2] < v[1])
			short_runs++;
		if (!v[2])
			continue;
		scaled = (__u64)((double)v[0] * v[1] / v[2]);
		if (scaled < want - want / 4 || scaled > want + want / 4)
			TH_LOG("event %d: %llu x %llu / %llu = %llu, pinned %llu", i,
			       (unsigned long long)v[0], (unsigned long long)v[1],
			       (unsigned long long)v[2], (unsigned long long)scaled,
			       (unsigned long long)want);
		EXPECT_GE(scaled, want - want / 4);
		EXPECT_LE(scaled, want + want / 4);
	}
	/* all of them cannot have run all the time */
	EXPECT_GT(short_runs, 0);
	close(ref);
	close(cga);
}

/*
 * A hardware group (cycles, and cycles again as a raw event), attached
 * through its leader: a group read of A gives both members their cycles
 * in A, within 2% + 2M of each other, and B, where nothing ran, exactly
 * zeros.
 */
TEST_F(hw, group)
{
	__u64 rf = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
		   PERF_FORMAT_TOTAL_TIME_RUNNING;
	int leader, member;
	__u64 a[5], b[5];

	leader = hw_open(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, rf, false,
			 -1, -1);
	ASSERT_LE(0, leader);
	/* the Armv8 PMU's CPU_CYCLES, on an event counter */
	member = hw_open(PERF_TYPE_RAW, 0x11, rf, false, leader, -1);
	if (member < 0)
		SKIP(close(leader); return, "no raw event 0x11 (CPU_CYCLES): %s",
		     strerror(errno));
	ASSERT_EQ(0, cgs_attach(leader, (__u64[]){ self->a_id, self->b_id }, 2));

	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 100 * MS));
	ASSERT_EQ(0, ioctl(leader, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP));
	ASSERT_EQ(40, cgs_read(leader, self->a_id, a, 5));
	ASSERT_EQ(40, cgs_read(leader, self->b_id, b, 5));

	EXPECT_EQ(2ULL, a[0]);
	EXPECT_EQ(a[1], a[2]);	/* a group is scheduled as one */
	EXPECT_NE(0ULL, a[3]);
	EXPECT_HW_NEAR(a[4], a[3]);
	EXPECT_EQ(2ULL, b[0]);
	EXPECT_EQ(0ULL, b[3]);
	EXPECT_EQ(0ULL, b[4]);
	close(member);
	close(leader);
}

/*
 * Exact conservation with a hardware counter: attached before it counts
 * anything, P = A + B for count and both times (P has no task of its
 * own), P <= the root, and the root is the event's own count where the
 * cgroup2 mount is the system's root.
 */
TEST_F(hw, conservation)
{
	__u64 ids[] = { self->p_id, self->a_id, self->b_id, self->root_id };
	__u64 p[3], a[3], b[3], r[3], own[3];
	int fd, i;

	fd = cgs_open_times_disabled(CPU, PERF_TYPE_HARDWARE,
				     PERF_COUNT_HW_CPU_CYCLES);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, cgs_attach(fd, ids, 4));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	ASSERT_NE(0ULL, cgs_run_busy(self->a, CPU, 60 * MS));
	ASSERT_NE(0ULL, cgs_run_busy(self->b, CPU, 30 * MS));
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));

	ASSERT_EQ(24, cgs_read(fd, self->p_id, p, 3));
	ASSERT_EQ(24, cgs_read(fd, self->a_id, a, 3));
	ASSERT_EQ(24, cgs_read(fd, self->b_id, b, 3));
	ASSERT_EQ(24, cgs_read(fd, self->root_id, r, 3));
	ASSERT_EQ(24, read(fd, own, sizeof(own)));
	EXPECT_GT(a[0], b[0]);
	EXPECT_GT(b[0], 0ULL);
	for (i = 0; i < 3; i++) {
		EXPECT_EQ(a[i] + b[i], p[i]);
		EXPECT_LE(p[i], r[i]);
		if (self->mnt_is_root)
			EXPECT_EQ(own[i], r[i]);
	}
	close(fd);
}

TEST_HARNESS_MAIN
