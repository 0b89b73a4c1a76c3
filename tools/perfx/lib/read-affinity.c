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
	int err;

	memset(a, 0, sizeof(*a));
	a->mode = mode;
	if (mode == READ_AFFINITY_SYS)
		return 0;
	err = cpu_mask__init(&a->orig, 0);
	if (!err)
		err = cpu_mask__init(&a->cur, a->orig.nr);
	if (!err)
		err = cpu_mask__get_affinity(&a->orig);
	if (err) {
		read_affinity__exit(a);
		return err;
	}
	cpu_mask__copy(&a->cur, &a->orig);
	return 0;
}

void read_affinity__mask(const struct read_affinity *a, const struct numa_topo *topo,
			 int cpu, struct cpu_mask *mask)
{
	int node = numa_topo__node_of(topo, cpu), i;

	CPU_ZERO_S(mask->size, mask->bits);
	if (a->mode == READ_AFFINITY_CPU) {
		cpu_mask__set(mask, cpu);
	} else if (a->mode == READ_AFFINITY_NODE && node >= 0) {
		const struct cpu_map *cpus = topo->node_cpus[node];

		for (i = 0; i < cpus->nr; i++)
			cpu_mask__set(mask, cpus->map[i]);
	}
	cpu_mask__and(mask, &a->orig);
	if (!cpu_mask__count(mask))
		cpu_mask__copy(mask, &a->orig);
}

void read_affinity__move(struct read_affinity *a, const struct cpu_mask *mask)
{
	int err;

	if (a->mode == READ_AFFINITY_SYS || cpu_mask__equal(mask, &a->cur))
		return;
	err = cpu_mask__set_affinity(mask);
	if (err) {
		if (!a->nr_failed++)
			a->err = err;
		return;
	}
	cpu_mask__copy(&a->cur, mask);
	a->nr_moves++;
}

void read_affinity__restore(struct read_affinity *a)
{
	if (a->mode != READ_AFFINITY_SYS && a->cur.bits && !cpu_mask__equal(&a->cur, &a->orig) &&
	    !cpu_mask__set_affinity(&a->orig))
		cpu_mask__copy(&a->cur, &a->orig);
}

void read_affinity__exit(struct read_affinity *a)
{
	if (a->orig.bits)
		read_affinity__restore(a);
	cpu_mask__exit(&a->orig);
	cpu_mask__exit(&a->cur);
}
