/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_MACHINE_H
#define __PERFX_MACHINE_H

#include <linux/types.h>
#include <stdbool.h>

#include "dso.h"

/* An address range of a process or of the kernel, what is mapped there, since when. */
struct map {
	__u64		start;
	__u64		end;
	__u64		time;
	struct dso	*dso;
	bool		hidden;		/* by a later map over all of it */
};

/*
 * The maps in the order they came, those hidden by a later one kept for
 * older samples until hidden again: the newest covering an address at a
 * time wins.  Times let records come out of order, as perf record writes
 * each CPU's buffer in turn: a sample before the map it hit was older, a
 * child's exec before its FORK.
 */
struct maps {
	struct map	*v;
	int		nr;
	int		alloc;
	int		last;		/* the last lookup's hit */
};

struct thread_maps {
	__u32		pid;
	__u64		mntns;		/* its mount namespace, if not perfx's */
	struct maps	maps;
};

/* The host as the stream shows it: processes' maps, kernel maps, DSOs. */
struct machine {
	struct dsos		dsos;
	struct maps		kernel;
	struct thread_maps	*procs;		/* sorted by pid */
	int			nr_procs;
	int			alloc_procs;
	__u64			mntns;		/* perfx's mount namespace's inode */
};

int machine__init(struct machine *m);
void machine__exit(struct machine *m);
/*
 * An MMAP/MMAP2 of @cpumode at @time: kernel ones go to the kernel's maps
 * (named "[kernel.kallsyms]" whatever their suffix), user ones to @pid's.
 * *@dso is what got mapped, or NULL for a mode without DSOs.
 */
int machine__add_map(struct machine *m, __u16 cpumode, __u32 pid, __u64 start, __u64 len,
		     __u64 time, const char *name, size_t name_len, struct dso **dso);
/*
 * A new process at @time: its parent's maps of then, under those it made
 * after (whose records came first); older maps of @pid were another
 * process's.
 */
int machine__fork(struct machine *m, __u32 pid, __u32 ppid, __u64 time);
/*
 * The newest map of @ip made at or before @time, valid until the next
 * change of the maps; or NULL
 */
const struct map *machine__find_map(struct machine *m, __u16 cpumode, __u32 pid, __u64 ip,
				    __u64 time);

#endif /* __PERFX_MACHINE_H */
