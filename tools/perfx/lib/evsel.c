// SPDX-License-Identifier: GPL-2.0
/* one event: its attr, its fds per (CPU, thread), its counts. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cgroup.h"
#include "cpumap.h"
#include "evsel-internal.h"
#include "threadmap.h"

static int sys_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd, unsigned long flags)
{
	return (int)syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
}

bool evsel__match(const struct evsel *evsel, __u32 type, __u64 config)
{
	return evsel->attr.type == type && evsel->attr.config == config;
}

bool evsel__is_clock(const struct evsel *evsel)
{
	return evsel__match(evsel, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK) ||
	       evsel__match(evsel, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK);
}

struct evsel *evsel__new(const struct perf_event_attr *attr, const char *name)
{
	struct evsel *evsel = calloc(1, sizeof(*evsel));

	if (!evsel)
		return NULL;
	evsel->attr = *attr;
	evsel->attr.size = sizeof(evsel->attr);
	evsel->name = strdup(name);
	if (!evsel->name) {
		free(evsel);
		return NULL;
	}
	evsel->leader = evsel;
	evsel->supported = true;
	evsel->scale = 1.0;
	evsel->unit = "";
	/* as perf: msec for the clocks named so, not for software/config=1/ */
	if (evsel__is_clock(evsel) &&
	    (!strncmp(name, "task-clock", 10) || !strncmp(name, "cpu-clock", 9))) {
		evsel->unit = "msec";
		evsel->scale = 1e-6;
	}
	return evsel;
}

/* A copy for one cgroup; the leader is fixed up by the caller. */
struct evsel *evsel__clone(const struct evsel *orig, struct cgroup *cgrp)
{
	struct evsel *evsel = evsel__new(&orig->attr, orig->name);

	if (!evsel)
		return NULL;
	evsel->unit = orig->unit;
	evsel->scale = orig->scale;
	evsel->nr_members = orig->nr_members;
	evsel->exclude_gh = orig->exclude_gh;
	evsel->precise_max = orig->precise_max;
	evsel->cgrp = cgroup__get(cgrp);
	return evsel;
}

void evsel__close(struct evsel *evsel)
{
	int i;

	if (!evsel->fds)
		return;
	for (i = 0; i < evsel__nr_fds(evsel); i++)
		if (evsel->fds[i] >= 0)
			close(evsel->fds[i]);
	free(evsel->fds);
	evsel->fds = NULL;
	free(evsel->ids);
	evsel->ids = NULL;
}

void evsel__delete(struct evsel *evsel)
{
	if (!evsel)
		return;
	evsel__close(evsel);
	cpu_map__put(evsel->cpus);
	thread_map__put(evsel->threads);
	cgroup__put(evsel->cgrp);
	free(evsel->counts);
	free(evsel->prev);
	if (evsel->priv_free)
		evsel->priv_free(evsel->priv);
	free(evsel->name);
	free(evsel);
}

int evsel__nr_fds(const struct evsel *evsel)
{
	if (!evsel->cpus || !evsel->threads)
		return 0;
	return evsel->cpus->nr * evsel->threads->nr;
}

int evsel__read_ids(struct evsel *evsel)
{
	int j, nr = evsel__nr_fds(evsel), nt = evsel->threads->nr;
	__u64 *ids = calloc(nr, sizeof(*ids));

	if (!ids)
		return -ENOMEM;
	for (j = 0; j < nr; j++) {
		if (ioctl(evsel__fd(evsel, j / nt, j % nt), PERF_EVENT_IOC_ID, &ids[j])) {
			int err = -errno;

			free(ids);
			return err;
		}
	}
	free(evsel->ids);
	evsel->ids = ids;
	return 0;
}

const __u64 *evsel__ids(const struct evsel *evsel)
{
	return evsel->ids;
}

int evsel__nr_open_fds(const struct evsel *evsel)
{
	int i, nr = 0;

	for (i = 0; evsel->fds && i < evsel__nr_fds(evsel); i++)
		nr += evsel->fds[i] >= 0;
	return nr;
}

int evsel__fd(const struct evsel *evsel, int cpu_idx, int thread_idx)
{
	if (!evsel->fds)
		return -1;
	return evsel->fds[cpu_idx * evsel->threads->nr + thread_idx];
}

int evsel__alloc_counts(struct evsel *evsel, int ncpus)
{
	free(evsel->counts);
	free(evsel->prev);
	evsel->counts = calloc(ncpus, sizeof(*evsel->counts));
	evsel->prev = calloc(ncpus, sizeof(*evsel->prev));
	if (!evsel->counts || !evsel->prev)
		return -ENOMEM;
	return 0;
}

/*
 * Count on @cpus x @threads: counts per CPU, no fds yet.  The attr is the
 * command's (read_format included): only a fallback at open changes it.
 */
int evsel__prepare(struct evsel *evsel, struct cpu_map *cpus, struct thread_map *threads)
{
	if (evsel->fds)
		return -EBUSY;
	cpu_map__put(evsel->cpus);
	thread_map__put(evsel->threads);
	evsel->cpus = cpu_map__get(cpus);
	evsel->threads = thread_map__get(threads);
	return evsel__alloc_counts(evsel, cpus->nr);
}

static int evsel__alloc_fds(struct evsel *evsel)
{
	int i, nr = evsel__nr_fds(evsel);

	evsel->fds = malloc(nr * sizeof(int));
	if (!evsel->fds)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		evsel->fds[i] = -1;
	return 0;
}

/*
 * Open the fds of one CPU, one per thread; members of a group go to their
 * leader's fd on the same CPU and thread, which must be open already.
 * With a cgroup the "thread" is the cgroup directory.  Returns 0 or the
 * first -errno, leaving what this call opened closed.
 */
int evsel__open_cpu(struct evsel *evsel, int c)
{
	unsigned long flags = PERF_FLAG_FD_CLOEXEC;
	int t, err, cgrp_fd = -1;

	if (!evsel->fds && evsel__alloc_fds(evsel))
		return -ENOMEM;
	if (evsel->cgrp) {
		cgrp_fd = cgroup__fd(evsel->cgrp);
		if (cgrp_fd < 0)
			return cgrp_fd;
		flags |= PERF_FLAG_PID_CGROUP;
	}
	for (t = 0; t < evsel->threads->nr; t++) {
		int group_fd = -1, fd;
		pid_t pid = evsel->cgrp ? cgrp_fd : evsel->threads->map[t];

		if (evsel->leader != evsel) {
			group_fd = evsel__fd(evsel->leader, c, t);
			if (group_fd < 0) {
				err = -EBADF;
				goto out_close;
			}
		}
		fd = sys_perf_event_open(&evsel->attr, pid, evsel->cpus->map[c], group_fd,
					 flags);
		if (fd < 0) {
			err = -errno;
			goto out_close;
		}
		evsel->fds[c * evsel->threads->nr + t] = fd;
	}
	return 0;

out_close:
	evsel__close_cpu(evsel, c);
	return err;
}

void evsel__close_cpu(struct evsel *evsel, int c)
{
	int t;

	for (t = 0; evsel->fds && t < evsel->threads->nr; t++) {
		int *fd = &evsel->fds[c * evsel->threads->nr + t];

		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
}

int evsel__ioctl_cpu(struct evsel *evsel, int c, unsigned long req)
{
	int t;

	for (t = 0; evsel->fds && t < evsel->threads->nr; t++) {
		int fd = evsel__fd(evsel, c, t);

		if (fd >= 0 && ioctl(fd, req, 0) < 0)
			return -errno;
	}
	return 0;
}

static int read_values(int fd, struct evsel_counts *v)
{
	__u64 buf[3];
	ssize_t n;

	n = read(fd, buf, sizeof(buf));
	if (n < 0)
		return -errno;
	if (n != sizeof(buf))
		return -EIO;
	v->val = buf[0];
	v->ena = buf[1];
	v->run = buf[2];
	return 0;
}

/* Read one CPU's fds; counts[cpu] becomes the sum over the threads. */
int evsel__read_cpu(struct evsel *evsel, int c)
{
	struct evsel_counts sum = { 0, 0, 0 };
	int t, err;

	if (!evsel->fds)
		return 0;
	for (t = 0; t < evsel->threads->nr; t++) {
		struct evsel_counts v = { 0, 0, 0 };

		err = read_values(evsel__fd(evsel, c, t), &v);
		if (err)
			return err;
		sum.val += v.val;
		sum.ena += v.ena;
		sum.run += v.run;
	}
	evsel->counts[c] = sum;
	return 0;
}

void evsel__save_prev(struct evsel *evsel)
{
	if (evsel->counts && evsel->cpus)
		memcpy(evsel->prev, evsel->counts, evsel->cpus->nr * sizeof(*evsel->prev));
}

const char *evsel__name(const struct evsel *evsel)
{
	return evsel->name;
}

/* a copy of @name; on -ENOMEM the old one stays */
int evsel__set_name(struct evsel *evsel, const char *name)
{
	char *n = strdup(name);

	if (!n)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = n;
	return 0;
}

struct perf_event_attr *evsel__attr(struct evsel *evsel)
{
	return &evsel->attr;
}

int evsel__idx(const struct evsel *evsel)
{
	return evsel->idx;
}

struct evsel *evsel__leader(const struct evsel *evsel)
{
	return evsel->leader;
}

int evsel__nr_members(const struct evsel *evsel)
{
	return evsel->nr_members;
}

struct cgroup *evsel__cgroup(const struct evsel *evsel)
{
	return evsel->cgrp;
}

struct cpu_map *evsel__cpus(const struct evsel *evsel)
{
	return evsel->cpus;
}

struct thread_map *evsel__threads(const struct evsel *evsel)
{
	return evsel->threads;
}

bool evsel__is_supported(const struct evsel *evsel)
{
	return evsel->supported;
}
