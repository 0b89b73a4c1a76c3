/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_RECORD_RINGS_H
#define __PERFX_RECORD_RINGS_H

#include <linux/types.h>
#include <sched.h>
#include <stdbool.h>

#include "aio.h"
#include "affinity.h"
#include "ring.h"
#include "read-affinity.h"

struct numa_topo;
struct perfx_writer;

/*
 * The ring buffers of perf record, one per CPU, and how a pass drains
 * them into the output: serially through its buffered writer, or (--aio)
 * through per-ring buffers bound to the ring's node and written at
 * offsets reserved in the output; the reading thread moving to the
 * ring's node or CPU first (--affinity).
 */
struct record_rings_opts {
	unsigned int		pages;		/* -m: data pages per ring */
	__u64			flush;		/* --mmap-flush: bytes a pass reads a ring from */
	enum read_affinity_mode	affinity;	/* --affinity */
	unsigned int		nr_aio;		/* --aio: buffers per ring; 0: serial */
};

struct record_ring {
	struct perfx_ring	ring;
	int			cpu;
	int			node;
	struct cpu_mask		mask;		/* the reader's CPUs reading it (not SYS) */
	struct aio_map		aio;
	/* where the kernel put the ring's pages (-1: unknown) */
	int			pages_here;	/* on the ring's node */
	int			pages_absent;	/* not mapped, or on no node */
};

/* Per node: what its rings gave, and what draining them waited for. */
struct record_node_stats {
	unsigned int	nr_rings;
	__u64		bytes;
	__u64		wait_ns;	/* in write(2) (serial), or for a free buffer (aio) */
};

struct record_rings {
	struct record_rings_opts	opts;
	const struct numa_topo		*topo;
	struct perfx_writer		*out;
	struct record_ring		*rings;		/* by CPU */
	int				*order;		/* drained by node, then CPU */
	int				nr;
	struct affinity			map_aff;	/* mapping each ring from its CPU */
	struct read_affinity		aff;
	struct aio_writer		aio;
	bool				aio_on;
	struct record_node_stats	*stats;		/* [topo->max_node + 1] */
	__u64				unmarked;	/* bytes read since the last round */
};

/* Rings for the CPUs @cpus[@nr], drained into @out. */
int record_rings__init(struct record_rings *r, const struct record_rings_opts *opts,
		       const struct numa_topo *topo, struct perfx_writer *out,
		       const int *cpus, int nr);
void record_rings__exit(struct record_rings *r);
/* Maps ring @idx from @fd, running on its CPU meanwhile. */
int record_rings__map(struct record_rings *r, int idx, int fd);
/*
 * After every ring is mapped: the thread back on its CPUs, where each
 * ring's pages are, the --aio buffers and threads, the drain's order and
 * masks.  -errno of the aio setup; *@bad_idx names the ring.
 */
int record_rings__start(struct record_rings *r, int *bad_idx);
/*
 * One pass: every ring holding at least --mmap-flush bytes (any bytes
 * with @all, for the last pass) is drained.  *@bytes: what it read;
 * *@round: a FINISHED_ROUND is due after it, closing the passes since the
 * last one: they read something, and this one left no ring holding bytes
 * (below --mmap-flush).  perf sorts by time the records of two rounds,
 * so a record held back must not miss the round it belongs to (perf
 * writes the marker anyway, and perf report then counts "out of order
 * events").  -errno of a write, or of an asynchronous write seen failed.
 */
int record_rings__drain(struct record_rings *r, bool all, __u64 *bytes, bool *round);
/*
 * Waits for every asynchronous write, and puts the thread back on its
 * CPUs.  Returns 0, or the first failed write's -errno with the first
 * byte it did not write in *@bad_off (~0 for none).
 */
int record_rings__finish(struct record_rings *r, __u64 *bad_off);

#endif /* __PERFX_RECORD_RINGS_H */
