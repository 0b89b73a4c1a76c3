/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SYNTHESIZE_BPF_H
#define __PERFX_SYNTHESIZE_BPF_H

#include <stdbool.h>
#include <sys/types.h>

struct perfx_writer;
struct synth_ctx;

/*
 * synthesize__all's records, the same bytes, for the @nr_pids processes
 * @pids that /proc lists (ascending), from one BPF task iterator
 * (bpf/synth-tasks.bpf.c) split over @nr_threads readers instead of
 * /proc's files; workqueue workers, the processes it could not walk
 * whole and those it does not show come from /proc.  Needs the machine's
 * /proc, BTF, Linux 6.11's PROCMAP_QUERY, the right to load BPF and
 * CAP_SYS_PTRACE (without it /proc hides maps the iterator would show).
 * Returns the records written or -errno; *@wrote says whether any byte
 * reached @w: when none did, the caller may read /proc instead.
 */
int synth_bpf__all(const struct synth_ctx *ctx, struct perfx_writer *w, const pid_t *pids,
		   size_t nr_pids, unsigned int nr_threads, bool *wrote);

/*
 * The least the method costs, for benchmarks: loading the program and
 * reading its whole stream on one thread.  The stream's bytes, or -errno.
 */
ssize_t synth_bpf__floor(void);

#endif /* __PERFX_SYNTHESIZE_BPF_H */
