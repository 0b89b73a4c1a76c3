// SPDX-License-Identifier: GPL-2.0
/* the metric inputs: a growing hash table of running statistics. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stat-shadow.h"

static unsigned int shadow_hash(int kind, int ctx, int slot, const void *cgrp)
{
	uint64_t h = (uint64_t)(uintptr_t)cgrp;

	h ^= ((uint64_t)(unsigned int)kind << 48) ^ ((uint64_t)(unsigned int)ctx << 40) ^
	     (unsigned int)slot;
	h *= 0x9e3779b97f4a7c15ULL;
	return (unsigned int)(h >> 32);
}

static bool entry_is(const struct stat_shadow_entry *e, int kind, int ctx, int slot,
		     const void *cgrp)
{
	return e->kind == kind && e->ctx == ctx && e->slot == slot && e->cgrp == cgrp;
}

/* the bucket holding the key, or the free one where it would go */
static unsigned int *shadow_bucket(const struct stat_shadow *shadow, int kind, int ctx,
				   int slot, const void *cgrp)
{
	unsigned int mask = shadow->nr_buckets - 1;
	unsigned int i = shadow_hash(kind, ctx, slot, cgrp) & mask;

	while (shadow->buckets[i] &&
	       !entry_is(&shadow->entries[shadow->buckets[i] - 1], kind, ctx, slot, cgrp))
		i = (i + 1) & mask;
	return &shadow->buckets[i];
}

struct stat_shadow_entry *stat_shadow__find(const struct stat_shadow *shadow, int kind,
					    int ctx, int slot, const void *cgrp)
{
	unsigned int *b;

	if (!shadow->nr_buckets)
		return NULL;
	b = shadow_bucket(shadow, kind, ctx, slot, cgrp);
	return *b ? &shadow->entries[*b - 1] : NULL;
}

/* room for one more entry, with the buckets at most half full */
static int shadow_grow(struct stat_shadow *shadow)
{
	unsigned int n, i;

	if (shadow->nr == shadow->alloc) {
		struct stat_shadow_entry *e;

		n = shadow->alloc ? shadow->alloc * 2 : 64;
		e = realloc(shadow->entries, n * sizeof(*e));
		if (!e)
			return -1;
		shadow->entries = e;
		shadow->alloc = n;
	}
	if (2 * (shadow->nr + 1) <= shadow->nr_buckets)
		return 0;
	n = shadow->nr_buckets ? shadow->nr_buckets * 2 : 128;
	free(shadow->buckets);
	shadow->buckets = calloc(n, sizeof(*shadow->buckets));
	shadow->nr_buckets = shadow->buckets ? n : 0;
	if (!shadow->buckets)
		return -1;
	for (i = 0; i < shadow->nr; i++) {
		struct stat_shadow_entry *e = &shadow->entries[i];

		*shadow_bucket(shadow, e->kind, e->ctx, e->slot, e->cgrp) = i + 1;
	}
	return 0;
}

struct stat_shadow_entry *stat_shadow__get(struct stat_shadow *shadow, int kind, int ctx,
					   int slot, const void *cgrp)
{
	struct stat_shadow_entry *e = stat_shadow__find(shadow, kind, ctx, slot, cgrp);

	if (e)
		return e;
	if (shadow_grow(shadow))
		return NULL;
	e = &shadow->entries[shadow->nr++];
	e->kind = kind;
	e->ctx = ctx;
	e->slot = slot;
	e->cgrp = cgrp;
	stats__init(&e->stats);
	*shadow_bucket(shadow, kind, ctx, slot, cgrp) = shadow->nr;
	return e;
}

void stat_shadow__reset(struct stat_shadow *shadow)
{
	shadow->nr = 0;
	if (shadow->buckets)
		memset(shadow->buckets, 0, shadow->nr_buckets * sizeof(*shadow->buckets));
}

void stat_shadow__exit(struct stat_shadow *shadow)
{
	free(shadow->entries);
	free(shadow->buckets);
	memset(shadow, 0, sizeof(*shadow));
}
