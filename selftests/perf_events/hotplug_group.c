// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hot-unplug takes the events of a CPU out of their context and their
 * groups.  A leader taken out so must refuse new members with ENODEV: one
 * it took stayed on its sibling list, which the member still pointed into
 * once the leader was freed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"

static int cpu_clock_open(int cpu, int group_fd)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};

	return syscall(__NR_perf_event_open, &attr, -1, cpu, group_fd,
		       PERF_FLAG_FD_CLOEXEC);
}

static void online_path(char *path, size_t size, int cpu)
{
	snprintf(path, size, "/sys/devices/system/cpu/cpu%d/online", cpu);
}

/* 0, or -errno of the write to the CPU's online file */
static int set_online(int cpu, bool on)
{
	char path[64];
	int fd, ret = 0;

	online_path(path, sizeof(path), cpu);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, on ? "1" : "0", 1) != 1)
		ret = -errno;
	close(fd);
	return ret;
}

/* An online CPU that can be taken offline (CPU 0 often cannot), or -1 */
static int hotpluggable_cpu(void)
{
	long cpu, nr = sysconf(_SC_NPROCESSORS_CONF);
	char path[64], state;
	int fd;

	for (cpu = 1; cpu < nr; cpu++) {
		online_path(path, sizeof(path), cpu);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (read(fd, &state, 1) == 1 && state == '1') {
			close(fd);
			return cpu;
		}
		close(fd);
	}
	return -1;
}

TEST(unplugged_leader_takes_no_member)
{
	int cpu = hotpluggable_cpu(), leader, member;

	if (cpu < 0)
		SKIP(return, "no CPU can go offline (root and CONFIG_HOTPLUG_CPU)");
	leader = cpu_clock_open(cpu, -1);
	if (leader < 0)
		SKIP(return, "perf_event_open: %s", strerror(errno));

	ASSERT_EQ(0, set_online(cpu, false));
	ASSERT_EQ(0, set_online(cpu, true));

	member = cpu_clock_open(cpu, leader);
	EXPECT_EQ(-1, member);
	EXPECT_EQ(ENODEV, errno);
	/* on a kernel that took it: the member goes first, still safely */
	if (member >= 0)
		close(member);
	close(leader);
}

TEST(new_leader_takes_members_after_unplug)
{
	int cpu = hotpluggable_cpu(), leader, member;

	if (cpu < 0)
		SKIP(return, "no CPU can go offline (root and CONFIG_HOTPLUG_CPU)");
	ASSERT_EQ(0, set_online(cpu, false));
	ASSERT_EQ(0, set_online(cpu, true));

	leader = cpu_clock_open(cpu, -1);
	if (leader < 0)
		SKIP(return, "perf_event_open: %s", strerror(errno));
	member = cpu_clock_open(cpu, leader);
	EXPECT_LE(0, member);
	if (member >= 0)
		close(member);
	close(leader);
}

TEST_HARNESS_MAIN
