// SPDX-License-Identifier: GPL-2.0
/* Move the caller to one CPU at a time, and back. */
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>

#include "affinity.h"

void affinity__setup(struct affinity *a)
{
	memset(a, 0, sizeof(*a));
	a->ok = !sched_getaffinity(0, sizeof(a->orig), &a->orig);
}

/* Best effort: a CPU the caller may not run on is simply not moved to. */
void affinity__set(struct affinity *a, int cpu)
{
	cpu_set_t set;

	if (!a->ok || cpu < 0 || cpu >= CPU_SETSIZE)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (!sched_setaffinity(0, sizeof(set), &set))
		a->changed = true;
}

void affinity__cleanup(struct affinity *a)
{
	if (a->changed)
		sched_setaffinity(0, sizeof(a->orig), &a->orig);
	a->changed = false;
}
