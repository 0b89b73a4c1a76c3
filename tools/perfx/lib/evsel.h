/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_EVSEL_H
#define __PERFX_EVSEL_H

#include <linux/perf_event.h>
#include <stdbool.h>

struct cgroup;
struct cpu_map;
struct thread_map;

struct evsel_counts {
	__u64 val;
	__u64 ena;
	__u64 run;
};

/*
 * One event as the user named it, or its copy for one cgroup.  Opened by
 * the events backend it has one fd per (CPU, thread); whatever backend
 * counts it (counter.h), counts[] holds the cumulative values per CPU
 * index summed over threads, prev[] the values at the previous interval.
 * What a command keeps beside (stat's aggregation: evsel-stat.h) hangs
 * off priv, freed with the event by priv_free.
 */
struct evsel {
	struct perf_event_attr attr;
	char *name;
	const char *unit;
	double scale;
	int idx;
	struct evsel *leader;
	int nr_members;
	struct cgroup *cgrp;
	struct cpu_map *cpus;
	struct thread_map *threads;
	int *fds;
	struct evsel_counts *counts;
	struct evsel_counts *prev;
	bool supported;
	/* its cgroup left: it counts no more, its counts are the last read */
	bool retired;
	/* its own modifier named G or H: a group's u or p leaves the guest be */
	bool exclude_gh;
	void *priv;
	void (*priv_free)(void *priv);
};

/* /proc/sys/kernel/perf_event_paranoid; 2, Debian's default, if unreadable */
int evsel__paranoid_level(void);
/*
 * As perf's fallback after EACCES or EPERM: where the paranoid level keeps
 * users out of the kernel (> 1), count user space only (exclude_kernel,
 * exclude_hv, the name gets "u").  False when there is no such fallback.
 */
bool evsel__fallback_user(struct evsel *evsel);
struct evsel *evsel__new(const struct perf_event_attr *attr, const char *name);
struct evsel *evsel__clone(const struct evsel *orig, struct cgroup *cgrp);
void evsel__delete(struct evsel *evsel);
bool evsel__is_clock(const struct evsel *evsel);
bool evsel__match(const struct evsel *evsel, __u32 type, __u64 config);
int evsel__alloc_counts(struct evsel *evsel, int ncpus);
int evsel__prepare(struct evsel *evsel, struct cpu_map *cpus, struct thread_map *threads);
int evsel__open_cpu(struct evsel *evsel, int cpu_idx);
void evsel__close(struct evsel *evsel);
void evsel__close_cpu(struct evsel *evsel, int cpu_idx);
int evsel__ioctl_cpu(struct evsel *evsel, int cpu_idx, unsigned long req);
int evsel__read_cpu(struct evsel *evsel, int cpu_idx);
int evsel__fd(const struct evsel *evsel, int cpu_idx, int thread_idx);
int evsel__nr_fds(const struct evsel *evsel);
int evsel__nr_open_fds(const struct evsel *evsel);
void evsel__save_prev(struct evsel *evsel);

#endif /* __PERFX_EVSEL_H */
