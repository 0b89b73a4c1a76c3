// SPDX-License-Identifier: GPL-2.0
/*
 * CPU hot-unplug takes the events of a CPU out of their context and their
 * groups.  A leader taken out so must refuse new members with ENODEV: one
 * it took stayed on its sibling list, which the member still pointed into
 * once the leader was freed.
 *
 * An event opened while its CPU comes back is refused or counts: one the
 * kernel accepted before the CPU could take the IPI that installs it never
 * counted, and closing such a cgroup event took the context's count of
 * cgroup events to -1, which stopped every later cgroup event on that CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>

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

/* The cgroup2 mount point into @buf, or NULL */
static char *cgroup2_mount(char *buf, size_t size)
{
	char line[4096], point[4096], *mnt = NULL;
	FILE *f = fopen("/proc/self/mountinfo", "re");

	while (f && !mnt && fgets(line, sizeof(line), f)) {
		/* fields: id parent major:minor root mount-point ... */
		if (strstr(line, " - cgroup2 ") &&
		    sscanf(line, "%*s %*s %*s %*s %4095s", point) == 1 &&
		    snprintf(buf, size, "%s", point) < (int)size)
			mnt = buf;
	}
	if (f)
		fclose(f);
	return mnt;
}

static int cgroup_event_open(int cgroup_fd, int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED,
	};

	return syscall(__NR_perf_event_open, &attr, cgroup_fd, cpu, -1,
		       PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
}

struct opener {
	int cgroup_fd;
	int cpu;
	bool stop;		/* atomic */
};

/* Open and close cgroup events of the CPU while it goes off and on line. */
static void *open_close(void *arg)
{
	struct opener *o = arg;
	int fd;

	while (!__atomic_load_n(&o->stop, __ATOMIC_RELAXED)) {
		fd = cgroup_event_open(o->cgroup_fd, o->cpu);
		if (fd >= 0)
			close(fd);
	}
	return NULL;
}

/* A child spinning on @cpu in the cgroup at @dir, or -1 */
static pid_t spin_in(const char *dir, int cpu)
{
	char path[352], pid[16];
	cpu_set_t set;
	pid_t child;
	int fd;

	child = fork();
	if (child)
		return child;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", getpid());
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, pid, strlen(pid)) < 0 ||
	    sched_setaffinity(0, sizeof(set), &set))
		_exit(1);
	for (;;)
		;
}

TEST_F(unplugged, cgroup_events_count_after_racing_opens)
{
	struct opener o = { .cpu = self->cpu };
	char mnt[256], dir[320];
	struct { __u64 count, enabled; } v;
	pthread_t thread;
	pid_t child;
	int i, fd;

	if (!cgroup2_mount(mnt, sizeof(mnt)))
		SKIP(return, "no cgroup2 mount");
	snprintf(dir, sizeof(dir), "%s/hotplug_group.%d", mnt, getpid());
	if (mkdir(dir, 0755))
		SKIP(return, "cannot create a cgroup in %s: %s", mnt, strerror(errno));
	o.cgroup_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, o.cgroup_fd);
	fd = cgroup_event_open(o.cgroup_fd, self->cpu);
	if (fd < 0) {
		rmdir(dir);
		SKIP(return, "no cgroup events: %s", strerror(errno));
	}
	close(fd);

	/* a race: it may be missed, but 20 cycles hit it every time here */
	ASSERT_EQ(0, pthread_create(&thread, NULL, open_close, &o));
	for (i = 0; i < 20 && !self->offline; i++) {
		if (!cycle_cpu(_metadata, self->cpu, &self->offline))
			break;
		usleep(50000);
	}
	__atomic_store_n(&o.stop, true, __ATOMIC_RELAXED);
	pthread_join(thread, NULL);
	if (i < 20) {
		close(o.cgroup_fd);
		rmdir(dir);
		if (!self->offline)
			SKIP(return, "CPU %d cannot go offline", self->cpu);
		return;
	}

	child = spin_in(dir, self->cpu);
	ASSERT_LT(0, child);
	fd = cgroup_event_open(o.cgroup_fd, self->cpu);
	EXPECT_LE(0, fd);
	usleep(200000);
	if (fd >= 0) {
		EXPECT_EQ((ssize_t)sizeof(v), read(fd, &v, sizeof(v)));
		/* the child had most of the CPU for 200 ms: at least 50 ms */
		EXPECT_LT(50000000ULL, v.enabled);
		EXPECT_LT(50000000ULL, v.count);
		close(fd);
	}
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
	close(o.cgroup_fd);
	rmdir(dir);
}

#define WINDOW_FDS	256

struct window_opener {
	int cpu;
	bool armed;		/* atomic: open events now */
	bool idle;		/* atomic: the opener saw !armed */
	bool stop;		/* atomic */
	int nr;			/* fds[] opened while armed */
	int refused;		/* opens that failed with ENODEV */
	int fds[WINDOW_FDS];
};

/* While armed, open cpu-clock events of the CPU, keeping the fds. */
static void *open_in_window(void *arg)
{
	struct window_opener *o = arg;
	int fd;

	while (!__atomic_load_n(&o->stop, __ATOMIC_ACQUIRE)) {
		if (!__atomic_load_n(&o->armed, __ATOMIC_ACQUIRE) ||
		    o->nr == WINDOW_FDS) {
			__atomic_store_n(&o->idle, true, __ATOMIC_RELEASE);
			usleep(1000);
			continue;
		}
		__atomic_store_n(&o->idle, false, __ATOMIC_RELEASE);
		fd = cpu_clock_open(o->cpu, -1);
		if (fd >= 0)
			o->fds[o->nr++] = fd;
		else if (errno == ENODEV)
			o->refused++;
	}
	return NULL;
}

/*
 * An event opened while its CPU comes back is either refused with ENODEV
 * or counts once the CPU is up: a CPU-wide cpu-clock event counts all the
 * time of its CPU.  One opened between CPUHP_PERF_PREPARE and the CPU
 * taking IPIs used to be accepted, never installed, and read 0 for ever.
 */
TEST_F(unplugged, events_opened_while_cpu_comes_up_count)
{
	struct window_opener o = { .cpu = self->cpu };
	int i, j, opened = 0, refused = 0, dead = 0;
	pthread_t thread;
	__u64 count;

	ASSERT_EQ(0, pthread_create(&thread, NULL, open_in_window, &o));
	for (i = 0; i < 20; i++) {
		if (set_online(self->cpu, false))
			break;
		self->offline = true;
		/* from here on, opens race with the CPU coming up */
		__atomic_store_n(&o.armed, true, __ATOMIC_RELEASE);
		EXPECT_EQ(0, set_online(self->cpu, true));
		if (_metadata->exit_code)
			break;
		self->offline = false;
		usleep(20000);
		__atomic_store_n(&o.idle, false, __ATOMIC_RELEASE);
		__atomic_store_n(&o.armed, false, __ATOMIC_RELEASE);
		while (!__atomic_load_n(&o.idle, __ATOMIC_ACQUIRE))
			usleep(1000);
		usleep(50000);
		for (j = 0; j < o.nr; j++) {
			count = 0;
			EXPECT_EQ((ssize_t)sizeof(count),
				  read(o.fds[j], &count, sizeof(count)));
			if (!count)
				dead++;
			close(o.fds[j]);
		}
		opened += o.nr;
		refused += o.refused;
		o.nr = 0;
		o.refused = 0;
	}
	__atomic_store_n(&o.stop, true, __ATOMIC_RELEASE);
	pthread_join(thread, NULL);
	for (j = 0; j < o.nr; j++)
		close(o.fds[j]);
	if (!i && !self->offline)
		SKIP(return, "CPU %d cannot go offline", self->cpu);
	ksft_print_msg("%d cycles: %d events opened, %d refused with ENODEV, %d never counted\n",
		       i, opened, refused, dead);
	EXPECT_EQ(0, dead);
}

TEST_HARNESS_MAIN
