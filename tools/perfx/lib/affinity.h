/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_AFFINITY_H
#define __PERFX_AFFINITY_H

#include <sched.h>
#include <stdbool.h>

/*
 * Run on the CPU whose events are being opened, enabled, read or closed,
 * so that the kernel does that work locally instead of by IPI: perf does
 * the same, and with thousands of CPU-wide fds it halves the setup time.
 */
struct affinity {
	cpu_set_t orig;
	bool changed;
	bool ok;
};

void affinity__setup(struct affinity *a);
void affinity__set(struct affinity *a, int cpu);
void affinity__cleanup(struct affinity *a);

#endif /* __PERFX_AFFINITY_H */
