/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_READ_AFFINITY_H
#define __PERFX_READ_AFFINITY_H

#include <stdbool.h>

#include "cpumap.h"

struct numa_topo;

/*
 * perf record --affinity: where the thread that drains the ring buffers
 * runs while it reads one.  SYS leaves it where the scheduler puts it;
 * NODE moves it to the CPUs of the ring's NUMA node, CPU to the ring's
 * CPU, so that it reads the ring (and copies it) from near its memory.
 * It moves only when the next ring needs another mask than the last one.
 */
enum read_affinity_mode {
	READ_AFFINITY_SYS,
	READ_AFFINITY_NODE,
	READ_AFFINITY_CPU,
};

struct read_affinity {
	enum read_affinity_mode	mode;
	struct cpu_mask		orig;		/* the CPUs it was given (not SYS) */
	struct cpu_mask		cur;		/* the CPUs it runs on now (not SYS) */
	unsigned long		nr_moves;
	unsigned long		nr_failed;	/* moves the kernel refused */
	int			err;		/* the first refusal's -errno */
};

/* perf's names, in any case: "sys", "node", "cpu"; else -EINVAL */
int read_affinity__parse(const char *name, enum read_affinity_mode *mode);
const char *read_affinity__name(enum read_affinity_mode mode);

/*
 * Remembers the CPUs the thread has now, in sets for every possible CPU
 * (none in SYS mode, which never moves); -ENOMEM, or -errno of
 * sched_getaffinity
 */
int read_affinity__init(struct read_affinity *a, enum read_affinity_mode mode);
/* Back to the CPUs it was given, and the sets freed. */
void read_affinity__exit(struct read_affinity *a);
/*
 * The mask for reading the ring of @cpu: its node's CPUs or @cpu, within
 * the CPUs the thread was given (perfx under taskset stays there); the
 * CPUs it was given when that leaves none, or in SYS mode.
 */
void read_affinity__mask(const struct read_affinity *a, const struct numa_topo *topo,
			 int cpu, struct cpu_mask *mask);
/*
 * Moves the thread to @mask unless it is there already.  A refused move
 * (a CPU gone offline) is counted, not fatal: the ring is read anyway.
 */
void read_affinity__move(struct read_affinity *a, const struct cpu_mask *mask);
/* Back to the CPUs it was given. */
void read_affinity__restore(struct read_affinity *a);

#endif /* __PERFX_READ_AFFINITY_H */
