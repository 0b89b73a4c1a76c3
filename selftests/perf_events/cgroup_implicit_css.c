// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event is an implicit controller on cgroup2: every cgroup has a
 * perf_event css without anyone writing cgroup.subtree_control, so a
 * cgroup event can be opened on any cgroup right after boot.
 *
 * Before "cgroup: Compute the default root's subtree_ss_mask after
 * subsystem init", children of the root got no implicit css until the
 * root's cgroup.subtree_control had been written once, and
 * perf_event_open(PERF_FLAG_PID_CGROUP) on them failed with ENOENT.  The
 * test can only catch that on a system where nothing has written the
 * root's subtree_control since boot; elsewhere it passes either way.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"

/* where cgroup2 is mounted, or NULL */
static const char *cgroup2_mount(void)
{
	static char mnt[PATH_MAX];
	char line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (!f)
		return NULL;
	mnt[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		char *sep = strstr(line, " - ");

		if (!sep || strncmp(sep, " - cgroup2 ", 11))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) == 1)
			break;
		mnt[0] = 0;
	}
	fclose(f);
	return mnt[0] ? mnt : NULL;
}

/* a CPU-wide cpu-clock event on CPU 0 restricted to cgroup @dir, or -errno */
static int open_cgroup_event(const char *dir)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	int cgfd, fd;

	cgfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgfd < 0)
		return -errno;
	fd = syscall(__NR_perf_event_open, &attr, cgfd, 0, -1,
		     PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		fd = -errno;
	close(cgfd);
	return fd;
}

/* A cgroup event opens on a fresh child of the root and on its child. */
TEST(cgroup_event_on_new_cgroups)
{
	const char *mnt = cgroup2_mount();
	char top[PATH_MAX], sub[PATH_MAX];
	int fd;

	if (!mnt)
		SKIP(return, "no cgroup2 mount");
	fd = open_cgroup_event(mnt);
	if (fd < 0)
		SKIP(return, "no cgroup event on the root: %s", strerror(-fd));
	close(fd);

	ASSERT_GT((int)sizeof(top),
		  snprintf(top, sizeof(top), "%s/perf_implicit.%d", mnt, getpid()));
	ASSERT_GT((int)sizeof(sub), snprintf(sub, sizeof(sub), "%s/child", top));
	ASSERT_EQ(0, mkdir(top, 0755));
	ASSERT_EQ(0, mkdir(sub, 0755));

	fd = open_cgroup_event(top);
	EXPECT_LE(0, fd) TH_LOG("cgroup event on %s: %s", top, strerror(-fd));
	if (fd >= 0)
		close(fd);

	fd = open_cgroup_event(sub);
	EXPECT_LE(0, fd) TH_LOG("cgroup event on %s: %s", sub, strerror(-fd));
	if (fd >= 0)
		close(fd);

	rmdir(sub);
	rmdir(top);
}

TEST_HARNESS_MAIN
