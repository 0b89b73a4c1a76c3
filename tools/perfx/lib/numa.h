/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_NUMA_H
#define __PERFX_NUMA_H

#include <stddef.h>

#include "cpumap.h"

#define NUMA_SYSFS	"/sys/devices/system/node"
#define NUMA_MAX_NODES	1024	/* the kernel's largest MAX_NUMNODES */

/*
 * The machine's NUMA nodes and their CPUs, as sysfs lists them: node N's
 * CPUs in <dir>/nodeN/cpulist for every N of <dir>/online.  A kernel
 * without NUMA has no such directory: then it is one node 0 holding
 * every online CPU.
 */
struct numa_topo {
	int		nr_nodes;	/* online nodes */
	int		max_node;	/* the highest node number */
	struct cpu_map	**node_cpus;	/* [max_node + 1], NULL for an offline node */
	int		*cpu_node;	/* [CPU_MAP__MAX_CPU], -1 for a CPU of no node */
};

/* @dir: NUMA_SYSFS, or a fake tree's in tests */
int numa_topo__new(const char *dir, struct numa_topo **topop);
void numa_topo__delete(struct numa_topo *topo);
/* The node of @cpu, or -ENOENT */
int numa_topo__node_of(const struct numa_topo *topo, int cpu);

/*
 * Memory policy: bind [@addr, @addr + @len) to @node with mbind(2)
 * (libnuma's wrapper), then fault every page in, so that the pages exist
 * on @node before anything is copied into them: -errno of mbind, or of
 * madvise(MADV_POPULATE_WRITE) (-ENOMEM when the node is full).  A
 * kernel without NUMA (mbind's ENOSYS) has nothing to bind to: the pages
 * are only faulted in.
 */
int numa__bind(void *addr, size_t len, int node);
/*
 * Where the pages of [@addr, @addr + @len) are: @counts[n] gets the
 * number of pages on node n (n <= @max_node), *@absent those not in
 * memory or on no node counted.  move_pages(2) with no target nodes only
 * asks.  Returns 0 or -errno (-ENOSYS without NUMA).
 */
int numa__page_nodes(const void *addr, size_t len, unsigned int *counts, int max_node,
		     unsigned int *absent);

#endif /* __PERFX_NUMA_H */
