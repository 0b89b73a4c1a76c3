/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_EVSEL_INTERNAL_H
#define __PERFX_EVSEL_INTERNAL_H

/*
 * struct evsel's layout, for lib/ (and the tests of its internals) only:
 * the commands see the event through evsel.h's accessors, as libperf's
 * users see perf_evsel, so that the library may change it behind them.
 */
#include "evsel.h"

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
	/* evsel__read_ids(): the kernel's id of each fd, in the fds' order */
	__u64 *ids;
	struct evsel_counts *counts;
	struct evsel_counts *prev;
	bool supported;
	/* its cgroup left: it counts no more, its counts are the last read */
	bool retired;
	/* its own modifier named G or H: a group's u or p leaves the guest be */
	bool exclude_gh;
	/* perf's default cycles: precise_ip lowered until the PMU takes it */
	bool precise_max;
	void *priv;
	void (*priv_free)(void *priv);
};

#endif /* __PERFX_EVSEL_INTERNAL_H */
