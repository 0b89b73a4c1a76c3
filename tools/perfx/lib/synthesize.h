/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SYNTHESIZE_H
#define __PERFX_SYNTHESIZE_H

#include <linux/types.h>
#include <stdbool.h>
#include <sys/types.h>

struct perfx_writer;
struct thread_map;

/* perf's --proc-map-timeout default, in ms */
#define SYNTHESIZE_PROC_MAP_TIMEOUT	500

/* Where synthesize__all reads the tasks: the records are the same */
enum synthesize_source {
	SYNTHESIZE_SOURCE_AUTO,		/* BPF where it can load and pays, else /proc */
	SYNTHESIZE_SOURCE_PROC,		/* /proc's files */
	SYNTHESIZE_SOURCE_BPF,		/* a BPF task iterator (synthesize-bpf.h) */
};

/* What synthesize__all chose */
struct synthesize_used {
	enum synthesize_source	source;
	unsigned int		nr_threads;
};

/*
 * The records perf record writes before the ring buffers' for what already
 * runs, by perf's rules (tools/perf/util/synthetic-events.c): time 0, and
 * after each record id_hdr_size zero bytes where the kernel puts the
 * sample_id_all fields.  Each call writes whole records into @w only (no
 * syscall per record) and returns how many it wrote, or -errno: -ENOMEM, a
 * write error of @w (reported), -ENOENT/-EACCES for a missing or hidden
 * /proc/kallsyms.  A task that exits while it is read is skipped quietly.
 */
struct synthesize_opts {
	__u16		id_hdr_size;		/* the sample_id_all trailer */
	/*
	 * synthesize__all's threads (--num-thread-synthesize); each fills
	 * its own buffers, written in /proc's order, so the records are the
	 * same for any number.  0: chosen from the CPUs we may run on and
	 * the number of processes.
	 */
	unsigned int	nr_threads;
	/*
	 * Per process (--proc-map-timeout, SYNTHESIZE_PROC_MAP_TIMEOUT as
	 * perf; 0 stops after one map): past it, the map just read is
	 * written with PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT and the rest
	 * of that process's maps is dropped, with a warning, as perf does.
	 * Reading /proc only: the BPF iterator walks a process's maps in
	 * one go, with nothing that can stall on the text of one.
	 */
	unsigned int	proc_map_timeout_ms;
	/*
	 * synthesize__all's source: AUTO takes BPF from BPF_MIN_PROCS
	 * processes (synthesize.c) when it loads, else /proc; BPF fails
	 * where it cannot load
	 */
	enum synthesize_source source;
	/* if set, synthesize__all says there what it used */
	struct synthesize_used *used;
	/* readable non-executable maps too, misc MMAP_DATA (perf record -d) */
	bool		data_mmaps;
	/* NULL: the machine's; else a tree holding proc/ and lib/modules/ */
	const char	*root;
};

/*
 * MMAP of [kernel.kallsyms]_text (pid -1, from /proc/kallsyms' _text to
 * _edata), then one MMAP per module of /proc/modules, misc KERNEL.
 */
int synthesize__kernel(struct perfx_writer *w, const struct synthesize_opts *opts);
/* COMM of @pid only: what perf writes for a workload it has forked */
int synthesize__comm(struct perfx_writer *w, pid_t pid, const struct synthesize_opts *opts);
/*
 * -p/-t: COMM of each task of @threads, then MMAP2 of its maps if it
 * leads its process; a thread whose leader is not in @threads brings the
 * leader's COMM and MMAP2s too.
 */
int synthesize__threads(struct perfx_writer *w, const struct thread_map *threads,
			const struct synthesize_opts *opts);
/*
 * -a/-C: every process in /proc: per thread FORK (misc FORK_EXEC) and
 * COMM, then the leader's MMAP2s (none for kernel threads).  From the
 * source opts say.
 */
int synthesize__all(struct perfx_writer *w, const struct synthesize_opts *opts);
/* The threads synthesize__all uses from /proc for @nr_procs processes when opts say 0 */
unsigned int synthesize__auto_threads(unsigned int nr_procs);

#endif /* __PERFX_SYNTHESIZE_H */
