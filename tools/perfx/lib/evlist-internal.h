/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_EVLIST_INTERNAL_H
#define __PERFX_EVLIST_INTERNAL_H

/*
 * struct evlist's layout, for lib/ (and the tests of its internals) only:
 * the commands see the list through evlist.h's accessors, as libperf's
 * users see perf_evlist, so that the library may change it behind them.
 */
#include <poll.h>

#include "evlist.h"

/*
 * The ordered list of events as they are printed.  It owns the CPUs and
 * tasks they count on, and the counters (counter.h) that open, enable,
 * read and close them: one per event group, or per event group across its
 * cgroup copies after evlist__expand_cgroups().
 */
struct evlist {
	int nr;
	struct evsel **entries;
	size_t alloc;
	/* an expanded list's events as parsed: what a cgroup's copy is made of */
	struct evlist *tmpl;
	struct cpu_map *cpus;
	struct thread_map *threads;
	int nr_counters;
	struct counter *counters;
	/*
	 * perf stat's rule: an event the kernel cannot count (ENOENT,
	 * EOPNOTSUPP, ...) is <not supported> and the rest count; else
	 * (record's) evlist__open() fails on it
	 */
	bool skip_unsupported;
	/* evlist__set_cpu_affinity() */
	bool cpu_affinity;
	/* evlist__mmap(): each CPU's ring fd, -1 once it hung up */
	struct pollfd *pollfd;
	int nr_pollfd;
};

#endif /* __PERFX_EVLIST_INTERNAL_H */
