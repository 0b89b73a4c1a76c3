// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event is an implicit controller on cgroup2: every cgroup has a
 * perf_event css without anyone writing cgroup.subtree_control, so a
 * cgroup event can be opened on any cgroup right after boot.
 *
 * Before "cgroup: Compute the default root's subtree_ss_mask after
 * subsystem init", children of the root got no implicit css until the
 * root's cgroup.subtree_control had been written once, and
 * perf_event_open(PERF_FLAG_PID_CGROUP) failed with ENOENT.  The test can
 * only catch that on a system where nothing has written the root's
 * subtree_control since boot (scripts/vm --no-subtree-control); elsewhere
 * it passes either way.
 */
#include "cgroup_share_util.h"
#include "kselftest_harness.h"

/* A cgroup event opens on a fresh child of the root and on its child. */
TEST(cgroup_event_on_new_cgroups)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	char top[PATH_MAX], sub[PATH_MAX];
	const char *mnt = cgs_cgroup2_mount();
	int fd, cgfd, probe;

	if (!mnt)
		SKIP(return, "no cgroup2 mount");
	probe = cgs_open_counter(0, PERF_COUNT_SW_CPU_CLOCK, 0, -1);
	if (probe < 0)
		SKIP(return, "cannot open a CPU-wide event (need CAP_PERFMON)");
	close(probe);

	ASSERT_GT((int)sizeof(top),
		  snprintf(top, sizeof(top), "%s/perf_implicit.%d", mnt, getpid()));
	ASSERT_EQ(0, mkdir(top, 0755));
	ASSERT_NE(0ULL, cgs_mkdir(top, "child", sub));

	cgfd = open(top, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, cgfd);
	fd = cgs_perf_open(&attr, cgfd, 0, -1, PERF_FLAG_PID_CGROUP);
	EXPECT_LE(0, fd) TH_LOG("cgroup event on %s: %s", top, strerror(errno));
	if (fd >= 0)
		close(fd);
	close(cgfd);

	cgfd = open(sub, O_RDONLY | O_DIRECTORY);
	ASSERT_LE(0, cgfd);
	fd = cgs_perf_open(&attr, cgfd, 0, -1, PERF_FLAG_PID_CGROUP);
	EXPECT_LE(0, fd) TH_LOG("cgroup event on %s: %s", sub, strerror(errno));
	if (fd >= 0)
		close(fd);
	close(cgfd);

	rmdir(sub);
	rmdir(top);
}

TEST_HARNESS_MAIN
