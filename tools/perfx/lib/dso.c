// SPDX-License-Identifier: GPL-2.0
/*
 * The DSOs a stream maps, hashed by name, each with its build-id cached.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dso.h"

#define DSOS_MIN_BUCKETS	256

int dsos__init(struct dsos *dsos)
{
	dsos->nr = 0;
	dsos->nr_buckets = DSOS_MIN_BUCKETS;
	dsos->table = calloc(dsos->nr_buckets, sizeof(*dsos->table));
	return dsos->table ? 0 : -ENOMEM;
}

void dsos__exit(struct dsos *dsos)
{
	size_t i;

	for (i = 0; dsos->table && i < dsos->nr_buckets; i++) {
		while (dsos->table[i]) {
			struct dso *next = dsos->table[i]->next;

			free(dsos->table[i]);
			dsos->table[i] = next;
		}
	}
	free(dsos->table);
	dsos->table = NULL;
}

/* FNV-1a */
static size_t name_hash(const char *name, size_t len)
{
	size_t h = 14695981039346656037ULL, i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ULL;
	return h;
}

/* Doubles the table when it holds twice as many DSOs as buckets. */
static void dsos__grow(struct dsos *dsos)
{
	size_t nr = dsos->nr_buckets * 2, i;
	struct dso **table = calloc(nr, sizeof(*table));

	if (!table)
		return;		/* longer chains, still correct */
	for (i = 0; i < dsos->nr_buckets; i++) {
		while (dsos->table[i]) {
			struct dso *dso = dsos->table[i];
			size_t b = name_hash(dso->name, strlen(dso->name)) & (nr - 1);

			dsos->table[i] = dso->next;
			dso->next = table[b];
			table[b] = dso;
		}
	}
	free(dsos->table);
	dsos->table = table;
	dsos->nr_buckets = nr;
}

int dsos__findnew_ns(struct dsos *dsos, const char *name, size_t len, __u64 mntns, int pid,
		     struct dso **out)
{
	size_t b = name_hash(name, len) & (dsos->nr_buckets - 1);
	struct dso *dso;

	for (dso = dsos->table[b]; dso; dso = dso->next) {
		if (!strncmp(dso->name, name, len) && !dso->name[len] && dso->mntns == mntns) {
			*out = dso;
			return 0;
		}
	}
	dso = calloc(1, sizeof(*dso) + len + 1);
	if (!dso)
		return -ENOMEM;
	dso->mntns = mntns;
	dso->pid = pid;
	memcpy(dso->name, name, len);
	dso->next = dsos->table[b];
	dsos->table[b] = dso;
	if (++dsos->nr > 2 * dsos->nr_buckets)
		dsos__grow(dsos);
	*out = dso;
	return 0;
}

int dsos__findnew(struct dsos *dsos, const char *name, size_t len, struct dso **out)
{
	return dsos__findnew_ns(dsos, name, len, 0, 0, out);
}

/* A file of another mount namespace: through its process's root, else here. */
static int dso__read_build_id_ns(struct dso *dso)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "/proc/%d/root%s", dso->pid, dso->name) < (int)sizeof(path) &&
	    !build_id__read_elf(path, &dso->bid))
		return 0;
	return build_id__read_elf(dso->name, &dso->bid);
}

void dso__set_build_id(struct dso *dso, const void *data, size_t size)
{
	if (size > BUILD_ID_SIZE)
		size = BUILD_ID_SIZE;
	memset(&dso->bid, 0, sizeof(dso->bid));
	memcpy(dso->bid.data, data, size);
	dso->bid.size = size;
	dso->bid_err = size ? 0 : -ENOENT;
	dso->bid_read = true;
}

int dso__read_build_id(struct dso *dso)
{
	if (dso->bid_read)
		return dso->bid_err;
	dso->bid_read = true;
	if (!strcmp(dso->name, DSO_KERNEL_NAME))
		dso->bid_err = build_id__read_notes("/sys/kernel/notes", &dso->bid);
	else if (!strcmp(dso->name, DSO_VDSO_NAME))
		dso->bid_err = build_id__read_vdso(&dso->bid);
	else if (dso->name[0] == '/' && dso->mntns)
		dso->bid_err = dso__read_build_id_ns(dso);
	else if (dso->name[0] == '/')
		dso->bid_err = build_id__read_elf(dso->name, &dso->bid);
	else
		dso->bid_err = -ENOENT;	/* [stack], //anon-like names */
	return dso->bid_err;
}
