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

FIXTURE(unplugged) {
	int cpu;
	bool offline;	/* the test took the CPU off line: bring it back */
};

FIXTURE_SETUP(unplugged)
{
	self->offline = false;
	self->cpu = hotpluggable_cpu();
	if (self->cpu < 0)
		SKIP(return, "no CPU can go offline (needs root and CONFIG_HOTPLUG_CPU)");
}

FIXTURE_TEARDOWN(unplugged)
{
	if (self->offline)
		set_online(self->cpu, true);
}

/*
 * Takes @cpu off and back on line: false if it cannot go offline, or if
 * it stayed offline (*@offline, for the teardown), the test then failed.
 */
static bool cycle_cpu(struct __test_metadata *_metadata, int cpu,
		      bool *offline)
{
	int ret = set_online(cpu, false);

	if (ret) {
		ksft_print_msg("CPU %d cannot go offline: %s\n", cpu,
			       strerror(-ret));
		return false;
	}
	*offline = true;
	EXPECT_EQ(0, set_online(cpu, true));
	*offline = !!_metadata->exit_code;
	return !*offline;
}

TEST_F(unplugged, leader_takes_no_member)
{
	int leader, member;

	leader = cpu_clock_open(self->cpu, -1);
	ASSERT_LE(0, leader);
	if (!cycle_cpu(_metadata, self->cpu, &self->offline)) {
		close(leader);
		if (!self->offline)
			SKIP(return, "CPU %d cannot go offline", self->cpu);
		return;
	}

	member = cpu_clock_open(self->cpu, leader);
	EXPECT_EQ(-1, member);
	if (member < 0) {
		EXPECT_EQ(ENODEV, errno);
	} else {
		/* a kernel that took it: the member goes first, still safely */
		close(member);
	}
	close(leader);
}

TEST_F(unplugged, new_leader_takes_members)
{
	int leader, member;

	if (!cycle_cpu(_metadata, self->cpu, &self->offline)) {
		if (!self->offline)
			SKIP(return, "CPU %d cannot go offline", self->cpu);
		return;
	}

	leader = cpu_clock_open(self->cpu, -1);
	ASSERT_LE(0, leader);
	member = cpu_clock_open(self->cpu, leader);
	EXPECT_LE(0, member);
	if (member >= 0)
		close(member);
	close(leader);
}

TEST_HARNESS_MAIN
