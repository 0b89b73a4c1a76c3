/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_AFFINITY_H
#define __PERFX_AFFINITY_H

#include <stdbool.h>

#include "cpumap.h"

/*
 * Run on the CPU whose events are being opened, enabled, read or closed,
 * so that the kernel does that work locally instead of by IPI: perf does
 * the same, and with thousands of CPU-wide fds it halves the setup time.
 */
struct affinity {
	struct cpu_mask orig;
	struct cpu_mask one;		/* the CPU it moves to */
	bool changed;
	bool ok;
};

void affinity__setup(struct affinity *a);
void affinity__set(struct affinity *a, int cpu);
/* Back to the CPUs it had; affinity__set() may move it again */
void affinity__cleanup(struct affinity *a);
/* Back, and its sets freed */
void affinity__exit(struct affinity *a);

#endif /* __PERFX_AFFINITY_H */
