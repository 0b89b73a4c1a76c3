/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_EVLIST_H
#define __PERFX_EVLIST_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

struct cgroup;
struct counter;
struct cpu_map;
struct evsel;
struct thread_map;

/* how --for-each-cgroup counts each event group */
enum evlist_cgroup_mode {
	EVLIST_CGROUP_AUTO,		/* shared, else BPF, else events */
	EVLIST_CGROUP_SHARED,		/* shared or fail */
	EVLIST_CGROUP_BPF,		/* BPF or fail */
	EVLIST_CGROUP_EVENTS,		/* one event per cgroup, as perf */
};

/*
 * The ordered list of events as they are printed, and what counts them
 * (evlist-internal.h); a command walks it with evlist__for_each().
 */
struct evlist;

#define evlist__for_each(evlist, i, evsel) \
	for ((i) = 0; (i) < evlist__nr(evlist) && ((evsel) = evlist__entry(evlist, i)); (i)++)

int evlist__nr(const struct evlist *evlist);
struct evsel *evlist__entry(const struct evlist *evlist, int i);
/* an expanded list's events as parsed, what its cgroups' copies are made of; else NULL */
struct evlist *evlist__tmpl(const struct evlist *evlist);
/* set by evlist__set_maps() */
struct cpu_map *evlist__cpus(const struct evlist *evlist);
struct thread_map *evlist__threads(const struct evlist *evlist);
/* the counters (counter.h), made at evlist__open() or evlist__expand_cgroups() */
int evlist__nr_counters(const struct evlist *evlist);
struct counter *evlist__counter(const struct evlist *evlist, int i);
/*
 * perf stat's rule: an event the kernel cannot count (ENOENT, EOPNOTSUPP,
 * ...) is <not supported> and the rest count; else (record's)
 * evlist__open() fails on it
 */
void evlist__set_skip_unsupported(struct evlist *evlist, bool skip);
/*
 * perf stat's: the calls of each CPU's fds (open, read, ioctl) made from
 * that CPU, so that the kernel allocates an event on its node and reads
 * it without an IPI; else (record's, as perf record's) from where the
 * caller runs, which nothing moves
 */
void evlist__set_cpu_affinity(struct evlist *evlist, bool move);

struct evlist *evlist__new(void);
void evlist__delete(struct evlist *evlist);
int evlist__add(struct evlist *evlist, struct evsel *evsel);
/* Take references to the CPUs and tasks every event counts on. */
void evlist__set_maps(struct evlist *evlist, struct cpu_map *cpus, struct thread_map *threads);
/*
 * As perf's --for-each-cgroup: a new list with a copy of every event for
 * each cgroup, cgroup-major, groups kept inside each copy, and one counter
 * per event group for all its copies, counting as @mode says.  With
 * @max, up to that many cgroups may be counted at once as they come and
 * go (the BPF counter makes room for them all); with 0, the cgroups are
 * @cgrps for good.
 */
int evlist__expand_cgroups(struct evlist *evlist, struct cgroup **cgrps, int nr, int max,
			   enum evlist_cgroup_mode mode, struct evlist **outp);
/*
 * Following an expanded list's cgroups while it counts.  Cgroups join:
 * their copies are appended, cgroup-major as the others, and count once
 * evlist__update() opened them.  Cgroup @k (the k-th copy in the
 * counters) leaves: its copies keep their last counts, read before, and
 * stay in the list, retired, until evlist__take_retired() once they were
 * printed; the counters let go of them at evlist__update().  -E2BIG when
 * the BPF counter has no room for a cgroup, or it is too deep.
 */
int evlist__add_cgroups(struct evlist *evlist, struct cgroup **cgrps, int nr);
void evlist__retire_cgroup(struct evlist *evlist, int k);
/*
 * The cgroup (its copies' index) the kernel refused with ENOENT when
 * evlist__update() failed at @failed: one removed, or being removed, which
 * its path may still name for a while.  -1 if none.
 */
int evlist__refused_cgroup(const struct evlist *evlist, const struct evsel *failed);
int evlist__update(struct evlist *evlist, struct evsel **failed);
/*
 * Take the retired copies out of the list, the others keeping their order:
 * *@retiredp (theirs to evsel__delete(), and free) holds *@nrp of them,
 * in the order they had, each with the index it had (evsel->idx).
 */
int evlist__take_retired(struct evlist *evlist, struct evsel ***retiredp, int *nrp);
/* As perf's -G: the i-th cgroup to the i-th event, one cgroup to all. */
int evlist__set_cgroups(struct evlist *evlist, struct cgroup **cgrps, int nr);
int evlist__unit_width(const struct evlist *evlist);

/*
 * Call @fn for every CPU index of the list, running on that CPU meanwhile
 * (as perf does: the kernel then does the work locally, not by IPI), until
 * @fn returns non-zero, which is returned.
 */
int evlist__for_each_cpu(struct evlist *evlist, int (*fn)(struct evlist *evlist, int c,
							  void *arg), void *arg);
/*
 * Open every counter, CPU by CPU.  Events the kernel does not have are
 * marked not supported and skipped, as perf does; any other error closes
 * everything and is returned with *@failed the event that hit it.
 */
int evlist__open(struct evlist *evlist, struct evsel **failed);
/*
 * What to try after evlist__open() failed with @err at @failed: on a
 * kernel without PERF_FORMAT_LOST (before 6.0) none of the list asks for
 * it; else evsel__fallback() on @failed.  False: nothing left to try.
 */
bool evlist__fallback(struct evlist *evlist, struct evsel *failed, int err);
int evlist__enable(struct evlist *evlist);
int evlist__disable(struct evlist *evlist);
/* Every event's cumulative counts per CPU into evsel->counts[]. */
int evlist__read(struct evlist *evlist, struct evsel **failed);
void evlist__close(struct evlist *evlist);
/*
 * Rings, as libperf's perf_evlist__mmap_ops: for each CPU index @c, @map
 * maps one from the CPU's first fd (the events backend's, after
 * evlist__open()), and every other fd of the CPU sends its records there
 * (PERF_EVENT_IOC_SET_OUTPUT); the mapped fds make the poll set.  -errno,
 * *@bad_idx the CPU index at fault (-1: none, out of memory).  evlist__close()
 * empties the poll set.
 */
int evlist__mmap(struct evlist *evlist, int (*map)(void *arg, int c, int fd), void *arg,
		 int *bad_idx);
/* Waits for a ring's wakeup, or a signal @sigmask lets in (ppoll(2)) */
int evlist__poll(struct evlist *evlist, const sigset_t *sigmask);
/* The rings whose events hung up (their tasks are gone) leave the poll set: how many are left */
int evlist__filter_pollfd(struct evlist *evlist);
/* Counting fds open now; read syscalls made so far. */
unsigned long evlist__nr_fds(const struct evlist *evlist);
unsigned long evlist__nr_reads(const struct evlist *evlist);

#endif /* __PERFX_EVLIST_H */
