/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_DSO_H
#define __PERFX_DSO_H

#include <stdbool.h>
#include <stddef.h>

#include "build-id.h"

#define DSO_KERNEL_NAME		"[kernel.kallsyms]"
#define DSO_VDSO_NAME		"[vdso]"

/* A mapped object, by name; its build-id is looked up once. */
struct dso {
	struct dso	*next;		/* hash chain */
	struct build_id	bid;
	int		bid_err;	/* 0: bid is valid; -errno once looked up */
	bool		bid_read;
	bool		hit;		/* its build-id record was written */
	char		name[];
};

struct dsos {
	struct dso	**table;
	size_t		nr_buckets;
	size_t		nr;
};

int dsos__init(struct dsos *dsos);
void dsos__exit(struct dsos *dsos);
/* The dso named by @name (@len bytes, not NUL-terminated); -ENOMEM */
int dsos__findnew(struct dsos *dsos, const char *name, size_t len, struct dso **dso);
/* Reads the build-id the first time: kernel notes, an ELF file or nothing. */
int dso__read_build_id(struct dso *dso);
void dso__set_build_id(struct dso *dso, const void *data, size_t size);

#endif /* __PERFX_DSO_H */
