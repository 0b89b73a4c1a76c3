// SPDX-License-Identifier: GPL-2.0
/*
 * Synthesis's view of every task in one read (lib/synthesize-bpf.c loads
 * it as a light skeleton and reads it): a task iterator that writes, per
 * task, what /proc/PID/stat and /proc/PID/comm would give, and for a
 * process's leader the maps /proc/PID/maps would show, as binary records
 * (bpf/synth-tasks.h), so that no file is opened and no text is made or
 * parsed.  Names of maps are not here: a path is d_path()'s, which an
 * iterator cannot call on a VMA's file; the reader names each (file,
 * dentry) once through PROCMAP_QUERY and keeps the name.
 *
 * Readers split the tasks by tgid: the readers map gives each reader
 * thread's range of tgids by its tid, the program writes the processes in
 * that range, and nothing for a thread it does not know (one in another
 * pid namespace, say).
 *
 * CO-RE through the local types below (no vmlinux.h to build it), and
 * the open-coded task_vma iterator: Linux 6.7 or later with BTF.  Pointers
 * are read with BPF_CORE_READ(), not followed as BTF pointers: the
 * verifier looks each such load up by name in the kernel's BTF, which
 * made loading the program cost 20 ms more.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "synth-tasks.h"

#define PF_WQ_WORKER		0x00000020
#define PF_KTHREAD		0x00200000
#define MM_CONTEXT_HAS_VSYSCALL	1	/* arch/x86/include/asm/mmu.h, a bit number */

struct vm_area_struct;

#pragma clang attribute push (__attribute__((preserve_access_index)), apply_to = record)
struct super_block {
	unsigned int		s_dev;
};

struct inode {
	unsigned long		i_ino;
	struct super_block	*i_sb;
	unsigned int		i_generation;
};

struct path {
	struct vfsmount		*mnt;
	struct dentry		*dentry;
};

struct file {
	struct path		f_path;
	struct inode		*f_inode;
};

struct vm_operations_struct {
	const char		*(*name)(struct vm_area_struct *vma);
};

struct vm_area_struct {
	unsigned long		vm_start;
	unsigned long		vm_end;
	unsigned long		vm_flags;
	unsigned long		vm_pgoff;
	struct file		*vm_file;
	const struct vm_operations_struct *vm_ops;
	void			*vm_private_data;
	struct anon_vma_name	*anon_name;	/* CONFIG_ANON_VMA_NAME */
};

typedef struct {
	unsigned long		flags;		/* x86 */
} mm_context_t;

struct mm_struct {
	unsigned long		start_brk;
	unsigned long		brk;
	unsigned long		start_stack;
	mm_context_t		context;
};

struct task_struct {
	unsigned int		flags;
	int			pid;
	int			tgid;
	struct task_struct	*real_parent;
	struct mm_struct	*mm;
	char			comm[16];
};

struct seq_file;

struct bpf_iter_meta {
	struct seq_file		*seq;
};

struct bpf_iter__task {
	struct bpf_iter_meta	*meta;
	struct task_struct	*task;
};
#pragma clang attribute pop

struct bpf_iter_task_vma {
	__u64 __opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_task_vma_new(struct bpf_iter_task_vma *it, struct task_struct *task,
				 __u64 addr) __ksym;
extern struct vm_area_struct *bpf_iter_task_vma_next(struct bpf_iter_task_vma *it) __ksym;
extern void bpf_iter_task_vma_destroy(struct bpf_iter_task_vma *it) __ksym;

char LICENSE[] SEC("license") = "GPL";

/* a reader thread's tid -> its part, set before it reads */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct synth_bpf_reader);
	__uint(max_entries, SYNTH_BPF_SHARDS_MAX);
} readers SEC(".maps");

/* set before reading */
__u32 data_mmaps;	/* readable maps too, not only executable ones */
/*
 * Each reader's count of the VMA records of the task at hand: in memory
 * the verifier knows nothing of, so that it sees every turn of the loop
 * over the maps as the same state and not 320 different ones
 */
__u32 nr_vmas[SYNTH_BPF_SHARDS_MAX];

/* the reading thread's index if @tgid is in its part, else -1 */
static __always_inline int reader_shard(int tgid)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct synth_bpf_reader *r = bpf_map_lookup_elem(&readers, &tid);

	if (!r || tgid < r->lo || tgid >= r->hi)
		return -1;
	return r->index & (SYNTH_BPF_SHARDS_MAX - 1);
}

static __always_inline void vma_record(struct synth_bpf_vma *v, struct vm_area_struct *vma,
				       struct mm_struct *mm)
{
	struct file *file = BPF_CORE_READ(vma, vm_file);
	const struct vm_operations_struct *ops;

	v->start = vma->vm_start;
	v->end = vma->vm_end;
	if (bpf_core_field_exists(vma->anon_name))
		v->key[2] = (__u64)BPF_CORE_READ(vma, anon_name);
	if (file) {
		struct inode *inode = BPF_CORE_READ(file, f_inode);

		v->kind = SYNTH_BPF_FILE;
		v->pgoff = vma->vm_pgoff;
		v->ino = BPF_CORE_READ(inode, i_ino);
		v->dev = BPF_CORE_READ(inode, i_sb, s_dev);
		v->generation = BPF_CORE_READ(inode, i_generation);
		v->key[0] = (__u64)BPF_CORE_READ(file, f_path.mnt);
		v->key[1] = (__u64)BPF_CORE_READ(file, f_path.dentry);
		return;
	}
	ops = BPF_CORE_READ(vma, vm_ops);
	if (ops && BPF_CORE_READ(ops, name)) {
		v->kind = SYNTH_BPF_SPECIAL;
		v->key[0] = (__u64)ops;
		v->key[1] = (__u64)BPF_CORE_READ(vma, vm_private_data);
	} else if (vma->vm_start < BPF_CORE_READ(mm, brk) &&
		   vma->vm_end > BPF_CORE_READ(mm, start_brk)) {
		v->kind = SYNTH_BPF_HEAP;
	} else if (vma->vm_start <= BPF_CORE_READ(mm, start_stack) &&
		   vma->vm_end >= BPF_CORE_READ(mm, start_stack)) {
		v->kind = SYNTH_BPF_STACK;
	} else {
		v->kind = v->key[2] ? SYNTH_BPF_NAMED : SYNTH_BPF_ANON;
	}
}

/* The leader's maps as VMA records: how many, or -1 when the buffer is full */
static __always_inline int write_vmas(struct seq_file *seq, struct task_struct *task,
				      struct mm_struct *mm, int shard, __u32 *flags)
{
	__u32 want = SYNTH_BPF_VM_EXEC | (data_mmaps ? SYNTH_BPF_VM_READ : 0);
	__u32 *nr = &nr_vmas[shard];
	struct bpf_iter_task_vma it;
	struct vm_area_struct *vma;
	int ret = 0;

	*nr = 0;

	if (bpf_iter_task_vma_new(&it, task, 0)) {
		*flags |= SYNTH_BPF_PARTIAL;	/* its mmap_lock is taken: /proc waits */
		goto out;
	}
	while ((vma = bpf_iter_task_vma_next(&it))) {
		struct synth_bpf_vma v = { .type = SYNTH_BPF_VMA };

		v.vm_flags = vma->vm_flags & (SYNTH_BPF_VM_READ | SYNTH_BPF_VM_WRITE |
					      SYNTH_BPF_VM_EXEC | SYNTH_BPF_VM_MAYSHARE);
		if (!(v.vm_flags & want))
			continue;
		if (*nr >= SYNTH_BPF_VMAS_MAX) {
			*flags |= SYNTH_BPF_PARTIAL;
			break;
		}
		vma_record(&v, vma, mm);
		if (bpf_seq_write(seq, &v, sizeof(v))) {
			ret = -1;	/* the iterator shows this task again */
			break;
		}
		(*nr)++;
	}
out:
	bpf_iter_task_vma_destroy(&it);
	return ret ? ret : (int)*nr;
}

SEC("iter/task")
int synth_tasks(struct bpf_iter__task *ctx)
{
	struct seq_file *seq = ctx->meta->seq;
	struct task_struct *task = ctx->task;
	struct synth_bpf_task t = { .type = SYNTH_BPF_TASK };
	struct mm_struct *mm;
	int shard, nr;

	if (!task)
		return 0;
	shard = reader_shard(task->tgid);
	if (shard < 0)
		return 0;
	t.tgid = task->tgid;
	t.tid = task->pid;
	t.ppid = BPF_CORE_READ(task, real_parent, tgid);
	bpf_probe_read_kernel(t.comm, sizeof(t.comm), task->comm);
	mm = BPF_CORE_READ(task, mm);
	if (task->flags & PF_KTHREAD) {
		t.flags |= SYNTH_BPF_KTHREAD;
		if (task->flags & PF_WQ_WORKER)
			t.flags |= SYNTH_BPF_WQ_WORKER;
	} else if (t.tid == t.tgid && mm) {
		nr = write_vmas(seq, task, mm, shard, &t.flags);
		if (nr < 0)
			return 0;
		t.nr_vmas = nr;
		if (bpf_core_field_exists(mm->context.flags) &&
		    (BPF_CORE_READ(mm, context.flags) & (1UL << MM_CONTEXT_HAS_VSYSCALL)))
			t.flags |= SYNTH_BPF_GATE;
	}
	bpf_seq_write(seq, &t, sizeof(t));
	return 0;
}
