// SPDX-License-Identifier: GPL-2.0
/*
 * NUMA nodes from sysfs; binding memory to a node and asking where pages
 * are, through the system calls themselves.
 */
#include <errno.h>
#include <linux/mempolicy.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "numa.h"
#include "sysfs.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE	23
#endif

/* a kernel without NUMA: one node 0 of every online CPU */
static int numa_topo__one_node(struct numa_topo *topo)
{
	int err = cpu_map__new_online(&topo->node_cpus[0]), c;

	if (err)
		return err;
	for (c = 0; c < topo->node_cpus[0]->nr; c++)
		topo->cpu_node[topo->node_cpus[0]->map[c]] = 0;
	topo->nr_nodes = 1;
	return 0;
}

/* each online node's CPUs; a node of memory only has none (and no map) */
static int numa_topo__read(struct numa_topo *topo, const char *dir,
			   const struct cpu_map *online)
{
	char path[4096], list[4096];
	int i, c, err;

	for (i = 0; i < online->nr; i++) {
		int node = online->map[i];
		struct cpu_map *cpus;

		snprintf(path, sizeof(path), "%s/node%d/cpulist", dir, node);
		err = sysfs__read(path, list, sizeof(list));
		if (!err && !list[0])
			continue;
		if (!err)
			err = cpu_map__parse(list, &cpus);
		if (err)
			return err;
		topo->node_cpus[node] = cpus;
		for (c = 0; c < cpus->nr; c++)
			topo->cpu_node[cpus->map[c]] = node;
	}
	topo->nr_nodes = online->nr;
	return 0;
}

int numa_topo__new(const char *dir, struct numa_topo **topop)
{
	struct cpu_map *online = NULL;
	struct numa_topo *topo;
	char path[4096];
	int i, err;

	topo = calloc(1, sizeof(*topo));
	if (!topo)
		return -ENOMEM;
	topo->cpu_node = malloc(CPU_MAP__MAX_CPU * sizeof(*topo->cpu_node));
	if (!topo->cpu_node) {
		err = -ENOMEM;
		goto out_delete;
	}
	for (i = 0; i < CPU_MAP__MAX_CPU; i++)
		topo->cpu_node[i] = -1;
	snprintf(path, sizeof(path), "%s/online", dir);
	err = cpu_map__new_online_from(path, &online);
	if (err && err != -ENOENT)
		goto out_delete;
	topo->max_node = online ? online->map[online->nr - 1] : 0;
	topo->node_cpus = calloc(topo->max_node + 1, sizeof(*topo->node_cpus));
	if (!topo->node_cpus) {
		err = -ENOMEM;
		goto out_delete;
	}
	err = online ? numa_topo__read(topo, dir, online) : numa_topo__one_node(topo);
	if (err)
		goto out_delete;
	cpu_map__put(online);
	*topop = topo;
	return 0;

out_delete:
	cpu_map__put(online);
	numa_topo__delete(topo);
	return err;
}

void numa_topo__delete(struct numa_topo *topo)
{
	int i;

	if (!topo)
		return;
	for (i = 0; topo->node_cpus && i <= topo->max_node; i++)
		cpu_map__put(topo->node_cpus[i]);
	free(topo->node_cpus);
	free(topo->cpu_node);
	free(topo);
}

int numa_topo__node_of(const struct numa_topo *topo, int cpu)
{
	if (cpu < 0 || cpu >= CPU_MAP__MAX_CPU || topo->cpu_node[cpu] < 0)
		return -ENOENT;
	return topo->cpu_node[cpu];
}

/*
 * The system calls themselves, not libnuma's wrappers: linking libnuma
 * runs its constructor, which reads sysfs, at every start of perfx.
 */
static long sys_mbind(void *addr, size_t len, int mode, const unsigned long *mask,
		      unsigned long maxnode)
{
	return syscall(SYS_mbind, addr, len, mode, mask, maxnode, 0);
}

static long sys_move_pages(unsigned long nr, void **pages, int *status)
{
	return syscall(SYS_move_pages, 0, nr, pages, NULL, status, 0);
}

int numa__bind(void *addr, size_t len, int node)
{
	unsigned long mask[NUMA_MAX_NODES / (8 * sizeof(long))] = { 0 };
	size_t page = (size_t)sysconf(_SC_PAGESIZE), off;
	unsigned long bits = 8 * sizeof(long);

	if (node < 0 || node >= NUMA_MAX_NODES)
		return -EINVAL;
	mask[node / bits] |= 1UL << (node % bits);
	/* maxnode counts one bit more than the kernel reads, as perf passes it */
	if (sys_mbind(addr, len, MPOL_BIND, mask, node + 2) && errno != ENOSYS)
		return -errno;
	if (!madvise(addr, len, MADV_POPULATE_WRITE))
		return 0;
	if (errno != EINVAL)
		return -errno;
	/* before Linux 5.14: fault the pages in by hand */
	for (off = 0; off < len; off += page)
		((char *)addr)[off] = 0;
	return 0;
}

int numa__page_nodes(const void *addr, size_t len, unsigned int *counts, int max_node,
		     unsigned int *absent)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), nr = len / page, i;
	void **pages = malloc(nr * sizeof(*pages));
	int *status = malloc(nr * sizeof(*status));
	int err = 0;

	if (!pages || !status) {
		err = -ENOMEM;
		goto out_free;
	}
	for (i = 0; i < nr; i++)
		pages[i] = (char *)addr + i * page;
	if (sys_move_pages(nr, pages, status)) {
		err = -errno;
		goto out_free;
	}
	memset(counts, 0, (max_node + 1) * sizeof(*counts));
	*absent = 0;
	for (i = 0; i < nr; i++) {
		if (status[i] >= 0 && status[i] <= max_node)
			counts[status[i]]++;
		else
			(*absent)++;
	}
out_free:
	free(pages);
	free(status);
	return err;
}
