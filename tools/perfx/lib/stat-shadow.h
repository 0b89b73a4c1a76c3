/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_STAT_SHADOW_H
#define __PERFX_STAT_SHADOW_H

#include "stat.h"

/*
 * The metric inputs (perf's "shadow" stats): the counts of clocks,
 * cycles, branches, cache reads... that other events' metrics divide by,
 * one entry per (kind, context, CPU slot, cgroup).  A hash table that
 * grows: -A with thousands of cgroups on many CPUs has millions.
 */
struct stat_shadow_entry {
	int kind;
	int ctx;
	int slot;
	const void *cgrp;
	struct stats stats;
};

struct stat_shadow {
	struct stat_shadow_entry *entries;
	unsigned int nr;
	unsigned int alloc;
	/* open addressing: entry index + 1, 0 for a free bucket */
	unsigned int *buckets;
	unsigned int nr_buckets;
};

void stat_shadow__exit(struct stat_shadow *shadow);
void stat_shadow__reset(struct stat_shadow *shadow);
struct stat_shadow_entry *stat_shadow__find(const struct stat_shadow *shadow, int kind,
					    int ctx, int slot, const void *cgrp);
/* The entry for the key, added (with empty stats) if missing; NULL: -ENOMEM. */
struct stat_shadow_entry *stat_shadow__get(struct stat_shadow *shadow, int kind, int ctx,
					   int slot, const void *cgrp);

#endif /* __PERFX_STAT_SHADOW_H */
