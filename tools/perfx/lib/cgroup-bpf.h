/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_CGROUP_BPF_H
#define __PERFX_CGROUP_BPF_H

#include <linux/bpf.h>
#include <linux/types.h>
#include <stdbool.h>

struct cgroup;
struct cpu_map;
struct thread_map;

/*
 * The BPF program that counts cgroups on kernels without the shared
 * ioctls (bpf/cgroup-counter.bpf.c), shared by every counter of a list:
 * one cgroup-switches event per CPU carries it; each counter puts its
 * counting events in the program's event array, slots [0, nr_events) of
 * a cgroup copy, and reads its cgroups' sums back from a mapped array.
 * Nothing is pinned: closing the last user frees everything.
 */
struct cgroup_bpf;

/* the deepest level a followed cgroup may be at (the root's is 0) */
#define CGROUP_BPF_MAX_LEVELS	64

/*
 * For the @nr_cgrps cgroups @cgrps, members 0..@nr_cgrps - 1.  With
 * @max_cgrps, room for that many, so that cgroups may join
 * (cgroup_bpf__add_cgroup()) and leave while it counts, at any level
 * below CGROUP_BPF_MAX_LEVELS; with 0, the set is @cgrps for good and
 * the program walks no deeper than the deepest of them.
 */
int cgroup_bpf__new(struct cgroup **cgrps, int nr_cgrps, int max_cgrps, int nr_events,
		    struct cgroup_bpf **bpfp);
struct cgroup_bpf *cgroup_bpf__get(struct cgroup_bpf *bpf);
void cgroup_bpf__put(struct cgroup_bpf *bpf);
/*
 * Load the program for @cpus (the first open) or take another reference
 * to the loaded one; -errno when the kernel refuses, which
 * cgroup_bpf__strerror() then explains.  *@leader is set for the first
 * user: the one whose reads bring every counter up to date.
 */
int cgroup_bpf__open(struct cgroup_bpf *bpf, struct cpu_map *cpus, struct thread_map *threads,
		     bool *leader);
/* The cgroup-switches event of CPU index @c, with the program attached. */
int cgroup_bpf__open_cpu(struct cgroup_bpf *bpf, int c);
/* Count event slot @e on CPU index @c with the perf event @fd; -1 empties it. */
int cgroup_bpf__set_event(struct cgroup_bpf *bpf, int c, int e, int fd);
/* Add what CPU index @c counted since its last cgroup switch. */
int cgroup_bpf__sync_cpu(struct cgroup_bpf *bpf, int c);
/* The sums of event slot @e for member @k on CPU index @c since it joined. */
void cgroup_bpf__counts(const struct cgroup_bpf *bpf, int c, int k, int e,
			struct bpf_perf_event_value *v);
/*
 * @cgrp joins as the last member, counted from now: 0, or -E2BIG when the
 * room is full or @cgrp is deeper than the program walks.
 */
int cgroup_bpf__add_cgroup(struct cgroup_bpf *bpf, const struct cgroup *cgrp);
/*
 * Member @k leaves, the members after it moving down one: its slot is
 * taken again only after the slots never used and those freed before.
 */
void cgroup_bpf__remove_cgroup(struct cgroup_bpf *bpf, int k);
/*
 * What the program saw on a CPU: the cgroup switches counted there, and
 * those it did not run at (the kernel skipped it), whose counts it could
 * not give to a cgroup: while @missed is 0 the sums are exact.  Laid out
 * as the program's struct cpu_state.
 */
struct cgroup_bpf_cpu {
	__u64 switches;
	__u64 missed;
};

/* CPU index @c's, up to the last cgroup_bpf__sync_cpu() or switch. */
const struct cgroup_bpf_cpu *cgroup_bpf__cpu(const struct cgroup_bpf *bpf, int c);
/* Drop a reference taken by cgroup_bpf__open(); the last one unloads. */
void cgroup_bpf__close(struct cgroup_bpf *bpf);
/* Why the kernel refused the program, and what it needs. */
const char *cgroup_bpf__strerror(const struct cgroup_bpf *bpf);

#endif /* __PERFX_CGROUP_BPF_H */
