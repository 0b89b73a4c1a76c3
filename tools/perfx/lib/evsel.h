/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_EVSEL_H
#define __PERFX_EVSEL_H

#include <linux/perf_event.h>
#include <stdbool.h>

struct cgroup;
struct cpu_map;
struct evsel;
struct thread_map;

struct evsel_counts {
	__u64 val;
	__u64 ena;
	__u64 run;
};

/*
 * One event as the user named it, or its copy for one cgroup: its layout
 * is the library's (evsel-internal.h), the commands read it through these.
 */
const char *evsel__name(const struct evsel *evsel);
int evsel__set_name(struct evsel *evsel, const char *name);
struct perf_event_attr *evsel__attr(struct evsel *evsel);
/* its place in its list (evlist__add()), kept when it is taken out retired */
int evsel__idx(const struct evsel *evsel);
/* itself if it leads a group or is in none; only the leader knows nr_members */
struct evsel *evsel__leader(const struct evsel *evsel);
int evsel__nr_members(const struct evsel *evsel);
struct cgroup *evsel__cgroup(const struct evsel *evsel);
/* what it counts on, once the list was opened (evsel__prepare()) */
struct cpu_map *evsel__cpus(const struct evsel *evsel);
struct thread_map *evsel__threads(const struct evsel *evsel);
/* false once the kernel said it has no such event (stat's <not supported>) */
bool evsel__is_supported(const struct evsel *evsel);

/* /proc/sys/kernel/perf_event_paranoid; 2, Debian's default, if unreadable */
int evsel__paranoid_level(void);
/*
 * As perf's fallback after EACCES or EPERM: where the paranoid level keeps
 * users out of the kernel (> 1), count user space only (exclude_kernel,
 * exclude_hv, the name gets "u").  False when there is no such fallback.
 */
bool evsel__fallback_user(struct evsel *evsel);
/* perf's default event: cycles, as precise as the PMU takes ("cycles:P") */
struct evsel *evsel__new_cycles(void);
/*
 * perf's evsel__fallback(): after the kernel refused @evsel with @err,
 * change it into what perf tries next (a lower precise level of the
 * default cycles, cpu-clock where no PMU counts cycles, user space only),
 * saying so; false when perf has nothing to try.
 */
bool evsel__fallback(struct evsel *evsel, int err);
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
/* each fd's kernel id (PERF_EVENT_IOC_ID), in the order of evsel__fd(): CPU-major */
int evsel__read_ids(struct evsel *evsel);
const __u64 *evsel__ids(const struct evsel *evsel);
void evsel__save_prev(struct evsel *evsel);

#endif /* __PERFX_EVSEL_H */
