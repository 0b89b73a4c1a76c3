// SPDX-License-Identifier: GPL-2.0
/* Move the caller to one CPU at a time, and back. */
#define _GNU_SOURCE
#include <sched.h>
#include <string.h>

#include "affinity.h"

void affinity__setup(struct affinity *a)
{
	memset(a, 0, sizeof(*a));
	if (cpu_mask__init(&a->orig, 0) || cpu_mask__init(&a->one, 0))
		return;
	a->ok = !cpu_mask__get_affinity(&a->orig);
}

/* Best effort: a CPU the caller may not run on is simply not moved to. */
void affinity__set(struct affinity *a, int cpu)
{
	if (!a->ok || cpu < 0 || cpu >= a->one.nr)
		return;
	CPU_ZERO_S(a->one.size, a->one.bits);
	cpu_mask__set(&a->one, cpu);
	if (!cpu_mask__set_affinity(&a->one))
		a->changed = true;
}

void affinity__cleanup(struct affinity *a)
{
	if (a->changed)
		cpu_mask__set_affinity(&a->orig);
	a->changed = false;
}

void affinity__exit(struct affinity *a)
{
	affinity__cleanup(a);
	cpu_mask__exit(&a->orig);
	cpu_mask__exit(&a->one);
	a->ok = false;
}
