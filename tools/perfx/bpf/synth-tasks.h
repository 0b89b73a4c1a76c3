/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SYNTH_TASKS_H
#define __PERFX_SYNTH_TASKS_H

/*
 * The stream bpf/synth-tasks.bpf.c writes and lib/synthesize-bpf.c reads:
 * for each task of the reader's range of tgids, in the kernel's order of
 * thread ids, the VMA records of its maps if it leads a process with an mm,
 * then its task record, which counts them.  Native endianness, records
 * of fixed sizes that each start with their type.
 */
#include <linux/types.h>

#define SYNTH_BPF_TASK		1
#define SYNTH_BPF_VMA		2

/* task flags */
#define SYNTH_BPF_KTHREAD	0x1	/* PF_KTHREAD: no maps */
#define SYNTH_BPF_WQ_WORKER	0x8	/* a workqueue's: /proc adds the work to its name */
#define SYNTH_BPF_PARTIAL	0x2	/* its maps were not all walked */
#define SYNTH_BPF_GATE		0x4	/* /proc/PID/maps ends with the gate VMA */

/* the reader threads a stream can be split over */
#define SYNTH_BPF_SHARDS_MAX	64

/* A reader thread's part: the processes whose tgid is in [lo, hi) */
struct synth_bpf_reader {
	__u32	index;		/* < SYNTH_BPF_SHARDS_MAX */
	__s32	lo;
	__s32	hi;
};
/*
 * VMA records per task: a task's records must fit in the iterator's
 * buffer of 8 pages; a process with more maps is read from /proc
 */
#define SYNTH_BPF_VMAS_MAX	320

struct synth_bpf_task {
	__u32	type;		/* SYNTH_BPF_TASK */
	__u32	flags;
	__s32	tgid;
	__s32	tid;
	__s32	ppid;		/* its real parent's tgid */
	__u32	nr_vmas;	/* the VMA records just before it */
	char	comm[16];	/* task->comm as it is */
};

/* how /proc/PID/maps names a VMA (fs/proc/task_mmu.c: get_vma_name()) */
#define SYNTH_BPF_FILE		1	/* its file's path, or [anon_shmem:NAME] */
#define SYNTH_BPF_SPECIAL	2	/* vm_ops->name(): [vdso] and the like */
#define SYNTH_BPF_HEAP		3
#define SYNTH_BPF_STACK		4
#define SYNTH_BPF_ANON		5	/* no name */
#define SYNTH_BPF_NAMED		6	/* [anon:NAME] */

/* vm_flags bits that /proc/PID/maps shows (include/linux/mm.h) */
#define SYNTH_BPF_VM_READ	0x1
#define SYNTH_BPF_VM_WRITE	0x2
#define SYNTH_BPF_VM_EXEC	0x4
#define SYNTH_BPF_VM_MAYSHARE	0x80

struct synth_bpf_vma {
	__u32	type;		/* SYNTH_BPF_VMA */
	__u32	kind;
	__u32	vm_flags;	/* the SYNTH_BPF_VM_* bits */
	__u32	dev;		/* the file's s_dev, kernel encoding */
	__u64	start;
	__u64	end;
	__u64	pgoff;		/* in pages */
	__u64	ino;
	/*
	 * What its name depends on, for a cache of names: the file's
	 * (mnt, dentry) or the special mapping's (vm_ops, private data),
	 * and its anon_vma_name; with the inode's generation below
	 */
	__u64	key[3];
	__u32	generation;
	__u32	pad;
};

#endif /* __PERFX_SYNTH_TASKS_H */
