/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SYNTHESIZE_BPF_STREAM_H
#define __PERFX_SYNTHESIZE_BPF_STREAM_H

#include <stddef.h>

#include "bpf/synth-tasks.h"

/* One task of a stream, its VMA records (a leader's maps) in place */
struct synth_bpf_entry {
	const struct synth_bpf_task	*task;
	const struct synth_bpf_vma	*vmas;		/* task->nr_vmas of them */
};

/*
 * Checks a stream of bpf/synth-tasks.bpf.c (bpf/synth-tasks.h says what
 * it holds) and sorts its tasks as /proc lists them: by tgid, a
 * process's leader first, then its threads by tid.  @buf must be 8-byte
 * aligned and outlive the entries.  0 with *@entries (the caller frees
 * it), -ENOMEM, or -EINVAL with *@bad the offset of the first record
 * that is not right: an unknown type, a record cut short, VMA records
 * that no leader with an mm claims, ids or addresses out of range, a
 * thread twice in one process.
 */
int synth_bpf__parse(const void *buf, size_t len, struct synth_bpf_entry **entries,
		     size_t *nr, size_t *bad);

#endif /* __PERFX_SYNTHESIZE_BPF_STREAM_H */
