// SPDX-License-Identifier: GPL-2.0
/*
 * perf record's ring buffers, drained in passes: serially, or into
 * node-bound buffers written asynchronously (--aio), with the reading
 * thread near each ring (--affinity).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data.h"
#include "numa.h"
#include "record-rings.h"

int record_rings__init(struct record_rings *r, const struct record_rings_opts *opts,
		       const struct numa_topo *topo, struct perfx_writer *out,
		       const int *cpus, int nr)
{
	int i, node;

	memset(r, 0, sizeof(*r));
	r->opts = *opts;
	r->topo = topo;
	r->out = out;
	r->rings = calloc(nr, sizeof(*r->rings));
	r->order = calloc(nr, sizeof(*r->order));
	r->stats = calloc(topo->max_node + 1, sizeof(*r->stats));
	if (!r->rings || !r->order || !r->stats)
		return -ENOMEM;
	r->nr = nr;
	for (i = 0; i < nr; i++) {
		node = numa_topo__node_of(topo, cpus[i]);
		r->rings[i].cpu = cpus[i];
		/* a CPU that sysfs puts in no node: the first node's, as the kernel's fallback */
		r->rings[i].node = node < 0 ? 0 : node;
		r->rings[i].pages_here = -1;
		r->rings[i].pages_absent = -1;
		r->order[i] = i;
		r->stats[r->rings[i].node].nr_rings++;
	}
	affinity__setup(&r->map_aff);
	return 0;
}

void record_rings__exit(struct record_rings *r)
{
	int i;

	if (r->aio_on)
		aio_writer__exit(&r->aio);
	for (i = 0; r->rings && i < r->nr; i++) {
		perfx_ring__unmap(&r->rings[i].ring);
		aio_map__exit(&r->rings[i].aio);
	}
	affinity__exit(&r->map_aff);
	read_affinity__exit(&r->aff);
	for (i = 0; r->rings && i < r->nr; i++)
		cpu_mask__exit(&r->rings[i].mask);
	free(r->rings);
	free(r->order);
	free(r->stats);
	memset(r, 0, sizeof(*r));
}

int record_rings__map(struct record_rings *r, int idx, int fd)
{
	struct record_ring *ring = &r->rings[idx];

	affinity__set(&r->map_aff, ring->cpu);
	return perfx_ring__map(&ring->ring, fd, r->opts.pages);
}

/* Where the kernel put the ring's pages, control page included. */
static void record_ring__placement(struct record_ring *ring, int max_node)
{
	unsigned int *counts = calloc(max_node + 1, sizeof(*counts)), absent;

	if (counts && !numa__page_nodes(ring->ring.base, ring->ring.len, counts, max_node,
					&absent)) {
		ring->pages_here = counts[ring->node];
		ring->pages_absent = absent;
	}
	free(counts);
}

static int ring_cmp(const void *a, const void *b, void *arg)
{
	const struct record_rings *r = arg;
	const struct record_ring *x = &r->rings[*(const int *)a];
	const struct record_ring *y = &r->rings[*(const int *)b];

	if (x->node != y->node)
		return x->node - y->node;
	return x->cpu - y->cpu;
}

/* The --aio buffers of every ring, on its node; the output at offsets. */
static int record_rings__start_aio(struct record_rings *r, int *bad_idx)
{
	size_t size = r->rings[0].ring.mask + 1;
	int i, err;

	err = aio_writer__init(&r->aio, r->out->fd, r->topo);
	if (err)
		return err;
	r->aio_on = true;
	for (i = 0; i < r->nr; i++) {
		struct record_ring *ring = &r->rings[i];

		err = aio_map__init(&ring->aio, &r->aio, ring->node, r->opts.nr_aio, size);
		if (err) {
			*bad_idx = i;
			return err;
		}
	}
	perfx_writer__use_offsets(r->out);
	return 0;
}

int record_rings__start(struct record_rings *r, int *bad_idx)
{
	int i, err;

	affinity__cleanup(&r->map_aff);
	*bad_idx = -1;
	for (i = 0; i < r->nr && r->topo->nr_nodes > 1; i++)
		record_ring__placement(&r->rings[i], r->topo->max_node);
	/* one move per node a pass, not per ring, however the CPUs are numbered */
	qsort_r(r->order, r->nr, sizeof(*r->order), ring_cmp, r);
	err = read_affinity__init(&r->aff, r->opts.affinity);
	if (err)
		return err;
	for (i = 0; i < r->nr && r->opts.affinity != READ_AFFINITY_SYS; i++) {
		err = cpu_mask__init(&r->rings[i].mask, r->aff.orig.nr);
		if (err)
			return err;
		read_affinity__mask(&r->aff, r->topo, r->rings[i].cpu, &r->rings[i].mask);
	}
	return r->opts.nr_aio ? record_rings__start_aio(r, bad_idx) : 0;
}

static int push_out(void *arg, const void *p, size_t len)
{
	return perfx_writer__write(arg, p, len);
}

static int push_aio(void *arg, const void *p, size_t len)
{
	struct aio_buf *b = arg;

	memcpy(b->data + b->len, p, len);
	b->len += len;
	return 0;
}

/* Serially: the time the writer spent in write(2) is what the drain waited. */
static int record_rings__push(struct record_rings *r, struct record_ring *ring)
{
	__u64 before = r->out->write_ns;
	int err = perfx_ring__push(&ring->ring, push_out, r->out);

	r->stats[ring->node].wait_ns += r->out->write_ns - before;
	if (!err)
		perfx_ring__consume(&ring->ring);
	return err;
}

/*
 * The ring's bytes are copied to a buffer and given back to the kernel at
 * once; the buffer is written at the offset reserved for it meanwhile.
 */
static int record_rings__push_aio(struct record_rings *r, struct record_ring *ring, __u64 n)
{
	struct aio_buf *b = aio_map__get(&ring->aio);
	__u64 off;
	int err;

	perfx_ring__push(&ring->ring, push_aio, b);
	perfx_ring__consume(&ring->ring);
	err = perfx_writer__reserve(r->out, n, &off);
	if (!err)
		aio_map__submit(&ring->aio, b, off);
	return err;
}

int record_rings__drain(struct record_rings *r, bool all, __u64 *bytes, bool *round)
{
	bool whole = true;
	__u64 bad_off;
	int i, err;

	*bytes = 0;
	*round = false;
	for (i = 0; i < r->nr; i++) {
		struct record_ring *ring = &r->rings[r->order[i]];
		__u64 n = perfx_ring__start_pass(&ring->ring);

		if (!n)
			continue;
		if (n < r->opts.flush && !all) {
			whole = false;
			continue;
		}
		read_affinity__move(&r->aff, &ring->mask);
		if (r->aio_on)
			err = record_rings__push_aio(r, ring, n);
		else
			err = record_rings__push(r, ring);
		if (err)
			return err;
		r->stats[ring->node].bytes += n;
		*bytes += n;
	}
	err = r->aio_on ? aio_writer__error(&r->aio, &bad_off) : 0;
	if (err)
		return err;
	r->unmarked += *bytes;
	if (r->unmarked && whole) {
		r->unmarked = 0;
		*round = true;
	}
	return 0;
}

int record_rings__finish(struct record_rings *r, __u64 *bad_off)
{
	int i, err = 0;

	*bad_off = ~0ULL;
	read_affinity__restore(&r->aff);
	if (!r->aio_on)
		return 0;
	err = aio_writer__sync(&r->aio);
	aio_writer__error(&r->aio, bad_off);
	for (i = 0; i <= r->topo->max_node; i++)
		r->stats[i].wait_ns += r->aio.nodes[i].wait_ns;
	return err;
}
