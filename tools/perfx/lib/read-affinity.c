// SPDX-License-Identifier: GPL-2.0
/* The ring reader's CPUs under perf record's --affinity. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <strings.h>

#include "numa.h"
#include "read-affinity.h"
#include "util.h"

static const char * const mode_names[] = {
	[READ_AFFINITY_SYS] = "sys",
	[READ_AFFINITY_NODE] = "node",
	[READ_AFFINITY_CPU] = "cpu",
};

int read_affinity__parse(const char *name, enum read_affinity_mode *mode)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mode_names); i++) {
		if (!strcasecmp(name, mode_names[i])) {
			*mode = i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *read_affinity__name(enum read_affinity_mode mode)
{
	return mode_names[mode];
}

int read_affinity__init(struct read_affinity *a, enum read_affinity_mode mode)
{
	memset(a, 0, sizeof(*a));
	a->mode = mode;
	if (sched_getaffinity(0, sizeof(a->orig), &a->orig))
		return -errno;
	a->cur = a->orig;
	return 0;
}

void read_affinity__mask(const struct read_affinity *a, const struct numa_topo *topo,
			 int cpu, cpu_set_t *mask)
{
	int node = numa_topo__node_of(topo, cpu), i;

	CPU_ZERO(mask);
	if (a->mode == READ_AFFINITY_CPU && cpu >= 0 && cpu < CPU_SETSIZE) {
		CPU_SET(cpu, mask);
	} else if (a->mode == READ_AFFINITY_NODE && node >= 0) {
		const struct cpu_map *cpus = topo->node_cpus[node];

		for (i = 0; i < cpus->nr; i++)
			if (cpus->map[i] < CPU_SETSIZE)
				CPU_SET(cpus->map[i], mask);
	}
	CPU_AND(mask, mask, &a->orig);
	if (!CPU_COUNT(mask))
		*mask = a->orig;
}

void read_affinity__move(struct read_affinity *a, const cpu_set_t *mask)
{
	if (a->mode == READ_AFFINITY_SYS || CPU_EQUAL(mask, &a->cur))
		return;
	if (sched_setaffinity(0, sizeof(*mask), mask)) {
		if (!a->nr_failed++)
			a->err = -errno;
		return;
	}
	a->cur = *mask;
	a->nr_moves++;
}

void read_affinity__restore(struct read_affinity *a)
{
	if (!CPU_EQUAL(&a->cur, &a->orig) && !sched_setaffinity(0, sizeof(a->orig), &a->orig))
		a->cur = a->orig;
}
