/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the PERF_EVENT_IOC_ATTACH_CGROUP / READ_CGROUP selftests:
 * a test-private cgroup2 directory, cgroup ids, tasks placed with
 * clone3(CLONE_INTO_CGROUP), CPU-wide counting events.
 */
#ifndef CGROUP_SHARE_UTIL_H
#define CGROUP_SHARE_UTIL_H

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <linux/sched.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>

/*
 * The host's uapi headers may predate the ioctls: the same as the uapi
 * (v5: no size field, the struct's size is the one the ioctl number
 * encodes, ATTACH writes err_index back)
 */
#ifndef PERF_CGROUP_ATTACH_SIZE_VER0
struct perf_event_cgroup_attach {
	__u32	flags;
	__u32	nr;
	__u64	ids;
	__u32	err_index;
	__u32	reserved;
};

#define PERF_CGROUP_ATTACH_SIZE_VER0	24

struct perf_event_cgroup_read {
	__u32	flags;
	__u32	reserved;
	__u64	id;
	__u64	buf;
	__u64	buf_size;
};

#define PERF_CGROUP_READ_SIZE_VER0	32
#define PERF_EVENT_IOC_ATTACH_CGROUP	_IOWR('$', 12, struct perf_event_cgroup_attach)
#define PERF_EVENT_IOC_READ_CGROUP	_IOWR('$', 13, struct perf_event_cgroup_read)
#endif
#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP		0x200000000ULL
#endif

/* The documented limit of cgroups attached to one event */
#define CGS_ATTACH_MAX			65536
/* cgroups times members of the group, in one attach */
#define CGS_ATTACH_ENTRIES		(8ULL * CGS_ATTACH_MAX)

static inline int cgs_perf_open(struct perf_event_attr *attr, pid_t pid,
				int cpu, int group_fd, unsigned long flags)
{
	return syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* a CPU-wide software counting event on @cpu */
static inline int cgs_open_counter(int cpu, __u64 config, __u64 read_format,
				   int group_fd)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = config,
		.read_format = read_format,
	};

	return cgs_perf_open(&attr, -1, cpu, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* a CPU-wide counting event on @cpu with both times, disabled */
static inline int cgs_open_times_disabled(int cpu, __u32 type, __u64 config)
{
	struct perf_event_attr attr = {
		.type = type,
		.size = sizeof(attr),
		.config = config,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
			       PERF_FORMAT_TOTAL_TIME_RUNNING,
		.disabled = 1,
	};

	return cgs_perf_open(&attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

/* ioctl(@fd, @cmd, @arg) as 0 or more, or -errno */
static inline int cgs_ioctl(int fd, unsigned long cmd, void *arg)
{
	int ret = ioctl(fd, cmd, arg);

	return ret < 0 ? -errno : ret;
}

/*
 * ATTACH_CGROUP of @ids[@nr]; returns 0 or -errno, and the err_index the
 * kernel wrote back in @err_index if not NULL (~0U if it wrote none)
 */
static inline int cgs_attach_err(int fd, const __u64 *ids, unsigned int nr,
				 __u32 *err_index)
{
	struct perf_event_cgroup_attach arg = {
		.nr = nr,
		.ids = (uintptr_t)ids,
		.err_index = ~0U,
	};
	int ret = cgs_ioctl(fd, PERF_EVENT_IOC_ATTACH_CGROUP, &arg);

	if (err_index)
		*err_index = arg.err_index;
	return ret;
}

/* ATTACH_CGROUP of @ids[@nr]; returns 0 or -errno */
static inline int cgs_attach(int fd, const __u64 *ids, unsigned int nr)
{
	return cgs_attach_err(fd, ids, nr, NULL);
}

/*
 * READ_CGROUP of @id (0: all) into @vals (@nvals words); returns the
 * number of bytes written, or -errno
 */
static inline int cgs_read(int fd, __u64 id, __u64 *vals, unsigned int nvals)
{
	struct perf_event_cgroup_read arg = {
		.id = id,
		.buf = (uintptr_t)vals,
		.buf_size = nvals * sizeof(*vals),
	};

	return cgs_ioctl(fd, PERF_EVENT_IOC_READ_CGROUP, &arg);
}

/* the count of cgroup @id, read_format 0; -1 on error */
static inline long long cgs_count(int fd, __u64 id)
{
	__u64 v[1] = { 0 };

	if (cgs_read(fd, id, v, 1) != sizeof(v))
		return -1;
	return v[0];
}

/*
 * Does this kernel have the ioctls?  0 if so, otherwise a reason for SKIP
 * (no CPU-wide perf events allowed, or ENOTTY from the ioctl: a kernel
 * without it, without CONFIG_CGROUP_PERF, or with an earlier ABI whose
 * ATTACH number was _IOW).
 */
static inline const char *cgs_unsupported(void)
{
	int fd = cgs_open_counter(0, PERF_COUNT_SW_CPU_CLOCK, 0, -1);
	int ret;

	if (fd < 0)
		return "cannot open a CPU-wide counting event (need CAP_PERFMON)";
	ret = cgs_attach(fd, NULL, 0);
	close(fd);
	if (ret == -ENOTTY)
		return "kernel without PERF_EVENT_IOC_ATTACH_CGROUP (v5) or CONFIG_CGROUP_PERF";
	if (ret)
		return "PERF_EVENT_IOC_ATTACH_CGROUP detach failed";
	return NULL;
}

/* where cgroup2 is mounted, or NULL */
static inline const char *cgs_cgroup2_mount(void)
{
	static char mnt[PATH_MAX];
	char line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (!f)
		return NULL;
	mnt[0] = 0;
	while (fgets(line, sizeof(line), f)) {
		char path[PATH_MAX], *sep = strstr(line, " - ");

		if (!sep || strncmp(sep, " - cgroup2 ", 11))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %4095s", path) == 1) {
			snprintf(mnt, sizeof(mnt), "%s", path);
			break;
		}
	}
	fclose(f);
	return mnt[0] ? mnt : NULL;
}

/* perf_event's line of /proc/cgroups: hierarchy (0: cgroup2) and enabled */
static inline int cgs_perf_event_controller(int *hierarchy, int *enabled)
{
	char line[256], name[64];
	int ret = -ENOENT, ncg;
	FILE *f = fopen("/proc/cgroups", "r");

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %d %d %d", name, hierarchy, &ncg,
			   enabled) == 4 && !strcmp(name, "perf_event")) {
			ret = 0;
			break;
		}
	}
	fclose(f);
	return ret;
}

/* NULL if perf_event is an enabled cgroup2 controller, else why not */
static inline const char *cgs_perf_event_not_on_cgroup2(void)
{
	int hierarchy, enabled;

	if (cgs_perf_event_controller(&hierarchy, &enabled))
		return "no perf_event controller in /proc/cgroups";
	if (!enabled)
		return "perf_event controller disabled (cgroup_disable=perf_event)";
	if (hierarchy)
		return "perf_event controller bound to a cgroup v1 hierarchy";
	return NULL;
}

/*
 * 0 if a cgroup event can be opened on the cgroup at @dir (it has a
 * perf_event css), else -errno: a kernel that gives new cgroups none until
 * something wrote the root's cgroup.subtree_control fails with ENOENT.
 */
static inline int cgs_perf_event_css(const char *dir)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
	};
	int cgfd, fd, ret = 0;

	cgfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgfd < 0)
		return -errno;
	fd = syscall(__NR_perf_event_open, &attr, cgfd, 0, -1,
		     PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		ret = -errno;
	else
		close(fd);
	close(cgfd);
	return ret;
}

/*
 * Is the cgroup2 directory @dir the system's root cgroup?  cgroup.type is
 * on every cgroup but that one: the root of a cgroup namespace or of a
 * container's mount has it.
 */
static inline bool cgs_is_root(const char *dir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/cgroup.type", dir);
	return access(path, F_OK) && errno == ENOENT;
}

/* the value of @key in @dir's cgroup.stat, or -1 */
static inline long cgs_cgroup_stat(const char *dir, const char *key)
{
	char path[PATH_MAX], line[256];
	size_t len = strlen(key);
	long val = -1;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/cgroup.stat", dir) >= (int)sizeof(path))
		return -1;
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, key, len) && line[len] == ' ') {
			val = atol(line + len + 1);
			break;
		}
	}
	fclose(f);
	return val;
}

/* 1 if CPU @cpu is online, 0 if offline, -1 if it cannot be told */
static inline int cgs_cpu_online(int cpu)
{
	char path[64], c = 0;
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (read(fd, &c, 1) != 1)
		c = 0;
	close(fd);
	return c == '1' ? 1 : c == '0' ? 0 : -1;
}

/* the cgroup2 id of directory @path (what name_to_handle_at returns), or 0 */
static inline __u64 cgs_id(const char *path)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h = { .fh.handle_bytes = sizeof(__u64) };
	int mount_id;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0))
		return 0;
	return h.id;
}

static inline int cgs_write(const char *dir, const char *file, const char *val)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	if (snprintf(path, sizeof(path), "%s/%s", dir, file) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, val, strlen(val)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* move process @pid into cgroup @dir */
static inline int cgs_move(const char *dir, pid_t pid)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%d", pid);
	return cgs_write(dir, "cgroup.procs", buf);
}

/* mkdir @parent/@name into @out; returns its id, 0 on error */
static inline __u64 cgs_mkdir(const char *parent, const char *name, char *out)
{
	if (snprintf(out, PATH_MAX, "%s/%s", parent, name) >= PATH_MAX)
		return 0;
	if (mkdir(out, 0755) && errno != EEXIST)
		return 0;
	return cgs_id(out);
}

/*
 * mkdir @prefix.PID, a cgroup of the test's own, into @out (PATH_MAX):
 * at the cgroup2 mount @mnt, or where that is not allowed (a delegated
 * subtree, a container) below this process's own cgroup, which a cgroup
 * namespace shows relative to its root.  0 or -errno.
 */
static inline int cgs_mkdir_private(const char *mnt, const char *prefix, char *out)
{
	char line[PATH_MAX], *own = NULL;
	int err;
	FILE *f;

	snprintf(out, PATH_MAX, "%s/%s.%d", mnt, prefix, getpid());
	if (!mkdir(out, 0755))
		return 0;
	err = -errno;
	if (err != -EACCES && err != -EPERM && err != -EROFS)
		return err;
	f = fopen("/proc/self/cgroup", "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "0::/", 4)) {
			line[strcspn(line, "\n")] = 0;
			own = line + 3;
			break;
		}
	}
	if (f)
		fclose(f);
	/* "/.." when the own cgroup is outside the namespace's root */
	if (!own || !strncmp(own, "/..", 3))
		return err;
	if (snprintf(out, PATH_MAX, "%s%s/%s.%d", mnt, strcmp(own, "/") ? own : "",
		     prefix, getpid()) >= PATH_MAX)
		return -ENAMETOOLONG;
	return mkdir(out, 0755) ? -errno : 0;
}

/* remove @dir and everything below it, moving stray tasks to @park */
static inline void cgs_rmtree(const char *dir, const char *park)
{
	char path[PATH_MAX], line[64];
	struct dirent *de;
	FILE *f;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) <
		    (int)sizeof(path))
			cgs_rmtree(path, park);
	}
	closedir(d);

	f = NULL;
	if (snprintf(path, sizeof(path), "%s/cgroup.procs", dir) < (int)sizeof(path))
		f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		pid_t pid = atoi(line);

		kill(pid, SIGKILL);
		cgs_move(park, pid);
	}
	if (f)
		fclose(f);
	for (int i = 0; i < 100 && rmdir(dir) && errno == EBUSY; i++)
		usleep(10000);
}

/*
 * A cgroup of the test's own to make its cgroups in, @prefix.PID into
 * @dir (PATH_MAX; see cgs_mkdir_private()), once the ioctls, perf_event
 * on cgroup2 and a cgroup2 mount are there: NULL, with the mount in
 * *@mnt, or why the test must skip, with @dir empty.  The cgroups made in
 * @dir get perf_event state of their own.
 */
static inline const char *cgs_private_parent(const char *prefix,
					     const char **mnt, char *dir)
{
	/* the size of the harness's reason for a SKIP */
	static char why[1024];
	const char *reason = cgs_unsupported();
	int err;

	dir[0] = 0;
	if (!reason)
		reason = cgs_perf_event_not_on_cgroup2();
	if (reason)
		return reason;
	*mnt = cgs_cgroup2_mount();
	if (!*mnt)
		return "no cgroup2 mount";
	err = cgs_mkdir_private(*mnt, prefix, dir);
	if (err) {
		dir[0] = 0;
		snprintf(why, sizeof(why),
			 "cannot create a cgroup at %s or below this process's: %s",
			 *mnt, strerror(-err));
		return why;
	}
	err = cgs_perf_event_css(dir);
	if (err) {
		cgs_rmtree(dir, *mnt);
		dir[0] = 0;
		snprintf(why, sizeof(why), "no perf_event state in a new cgroup: %s",
			 strerror(-err));
		return why;
	}
	return NULL;
}

/* fork a child directly into the cgroup open as @cgfd (clone3) */
static inline pid_t cgs_fork_into(int cgfd)
{
	struct clone_args args = {
		.flags = CLONE_INTO_CGROUP,
		.exit_signal = SIGCHLD,
		.cgroup = cgfd,
	};

	return syscall(__NR_clone3, &args, sizeof(args));
}

static inline void cgs_pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static inline __u64 cgs_now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* burn CPU for @ns of this thread's CPU time */
static inline void cgs_spin(__u64 ns)
{
	__u64 end = cgs_now_ns(CLOCK_THREAD_CPUTIME_ID) + ns;

	while (cgs_now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		;
}

/*
 * Run a child pinned to @cpu in the cgroup @dir that spins for @ns of CPU
 * time and exits; returns its total CPU time in ns (from its rusage,
 * which covers its whole life, all of it spent in @dir), or 0 on error.
 */
static inline __u64 cgs_run_busy(const char *dir, int cpu, __u64 ns)
{
	struct rusage ru;
	int cgfd, status;
	cpu_set_t mask;
	pid_t pid;

	cgfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgfd < 0)
		return 0;
	/* born on @cpu, so that none of its CPU time is spent elsewhere */
	sched_getaffinity(0, sizeof(mask), &mask);
	cgs_pin(cpu);
	pid = cgs_fork_into(cgfd);
	if (pid == 0) {
		cgs_spin(ns);
		_exit(0);
	}
	sched_setaffinity(0, sizeof(mask), &mask);
	close(cgfd);
	if (pid < 0 || wait4(pid, &status, 0, &ru) != pid || status)
		return 0;
	return (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000ULL +
	       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000ULL;
}

/*
 * Fork a task into each of the cgroups open as @cga and @cgb, both pinned
 * to @cpu, passing a byte back and forth through two pipes @rounds times:
 * a cgroup switch on @cpu at every pass.  Each keeps only its own two pipe
 * ends, so it sees EOF and exits if the other dies.  Their pids go to
 * @pids, for the caller to reap; -1 where none started.  Returns 0 once
 * both run, else -1 with the one that started killed.
 */
static inline int cgs_ping_pong(int cga, int cgb, int cpu, int rounds, pid_t pids[2])
{
	int ab[2], ba[2], i, ret = 0;

	pids[0] = -1;
	pids[1] = -1;
	if (pipe(ab))
		return -1;
	if (pipe(ba)) {
		close(ab[0]);
		close(ab[1]);
		return -1;
	}
	for (i = 0; i < 2 && !ret; i++) {
		pids[i] = cgs_fork_into(i ? cgb : cga);
		if (pids[i] == 0) {
			int rfd = i ? ab[0] : ba[0], wfd = i ? ba[1] : ab[1];
			char c = 0;

			close(i ? ab[1] : ba[1]);
			close(i ? ba[0] : ab[0]);
			cgs_pin(cpu);
			for (int n = 0; n < rounds; n++) {
				if (!i && write(wfd, &c, 1) != 1)
					_exit(1);
				if (read(rfd, &c, 1) != 1)
					_exit(1);
				if (i && write(wfd, &c, 1) != 1)
					_exit(1);
			}
			_exit(0);
		}
		ret = pids[i] < 0 ? -1 : 0;
	}
	if (ret && pids[0] > 0)
		kill(pids[0], SIGKILL);
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	return ret;
}

#endif /* CGROUP_SHARE_UTIL_H */
