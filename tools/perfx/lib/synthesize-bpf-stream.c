// SPDX-License-Identifier: GPL-2.0
/* The task iterator's stream (bpf/synth-tasks.h): checked, then sorted. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "synthesize-bpf-stream.h"

static bool vma_ok(const struct synth_bpf_vma *v)
{
	return v->type == SYNTH_BPF_VMA && v->start < v->end &&
	       v->kind >= SYNTH_BPF_FILE && v->kind <= SYNTH_BPF_NAMED &&
	       !(v->vm_flags & ~(SYNTH_BPF_VM_READ | SYNTH_BPF_VM_WRITE | SYNTH_BPF_VM_EXEC |
				 SYNTH_BPF_VM_MAYSHARE));
}

static bool task_ok(const struct synth_bpf_task *t, size_t nr_vmas)
{
	bool leader = t->tid == t->tgid;

	return t->tgid > 0 && t->tid > 0 && t->ppid >= 0 && t->nr_vmas == nr_vmas &&
	       !(t->flags & ~(SYNTH_BPF_KTHREAD | SYNTH_BPF_PARTIAL | SYNTH_BPF_GATE |
			      SYNTH_BPF_WQ_WORKER)) &&
	       (!(t->flags & SYNTH_BPF_WQ_WORKER) || (t->flags & SYNTH_BPF_KTHREAD)) &&
	       (!nr_vmas || (leader && !(t->flags & SYNTH_BPF_KTHREAD))) &&
	       (leader || !(t->flags & (SYNTH_BPF_PARTIAL | SYNTH_BPF_GATE)));
}

/* by tgid, the leader first, then by tid */
static int entry_cmp(const void *a, const void *b)
{
	const struct synth_bpf_task *x = ((const struct synth_bpf_entry *)a)->task;
	const struct synth_bpf_task *y = ((const struct synth_bpf_entry *)b)->task;
	bool xl = x->tid == x->tgid, yl = y->tid == y->tgid;

	if (x->tgid != y->tgid)
		return x->tgid < y->tgid ? -1 : 1;
	if (xl != yl)
		return xl ? -1 : 1;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int entries_add(struct synth_bpf_entry **e, size_t *nr, size_t *cap,
		       const struct synth_bpf_task *t, const struct synth_bpf_vma *vmas)
{
	struct synth_bpf_entry *n;

	if (*nr == *cap) {
		*cap = *cap ? *cap * 2 : 256;
		n = realloc(*e, *cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		*e = n;
	}
	(*e)[(*nr)++] = (struct synth_bpf_entry){ .task = t, .vmas = vmas };
	return 0;
}

int synth_bpf__parse(const void *buf, size_t len, struct synth_bpf_entry **entries,
		     size_t *nr, size_t *bad)
{
	const char *p = buf;
	size_t off = 0, first_vma = 0, nr_vmas = 0, cap = 0, i;
	struct synth_bpf_entry *e = NULL;
	__u32 type;
	int err = 0;

	*nr = 0;
	while (!err && off < len) {
		if (len - off < sizeof(type)) {
			err = -EINVAL;
			break;
		}
		memcpy(&type, p + off, sizeof(type));
		if (type == SYNTH_BPF_VMA && len - off >= sizeof(struct synth_bpf_vma) &&
		    vma_ok((const void *)(p + off))) {
			if (!nr_vmas++)
				first_vma = off;
			off += sizeof(struct synth_bpf_vma);
		} else if (type == SYNTH_BPF_TASK && len - off >= sizeof(struct synth_bpf_task) &&
			   task_ok((const void *)(p + off), nr_vmas)) {
			err = entries_add(&e, nr, &cap, (const void *)(p + off),
					  nr_vmas ? (const void *)(p + first_vma) : NULL);
			nr_vmas = 0;
			off += sizeof(struct synth_bpf_task);
		} else {
			err = -EINVAL;
		}
	}
	if (!err && nr_vmas) {		/* maps no task claims */
		err = -EINVAL;
		off = first_vma;
	}
	if (!err && *nr) {
		qsort(e, *nr, sizeof(*e), entry_cmp);
		for (i = 1; i < *nr && !err; i++)
			if (e[i].task->tid == e[i - 1].task->tid) {
				err = -EINVAL;
				off = (const char *)e[i].task - p;
			}
	}
	if (err) {
		free(e);
		*nr = 0;
		*bad = off;
		return err;
	}
	*entries = e;
	return 0;
}
