/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_AIO_H
#define __PERFX_AIO_H

#include <linux/types.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

struct numa_topo;

/*
 * perf record --aio: ring data is copied into one of a ring's buffers,
 * whose memory is bound to the ring's NUMA node, and written to the file
 * at an offset the reader reserved, while the reader goes on draining.
 *
 * perf queues the writes with POSIX aio_write(), which glibc hands to
 * helper threads that it creates as needed, with whatever CPUs the
 * reader had at that moment.  Here each node has one writer thread,
 * started on that node's CPUs: it copies the node's buffers into the
 * page cache from a CPU of their node, and its writes are in the order
 * they were queued.
 */
struct aio_buf {
	char		*data;
	size_t		len;		/* bytes to write */
	__u64		off;		/* where in the file */
	bool		busy;		/* queued or being written */
	struct aio_buf	*next;		/* in its node's queue */
};

struct aio_writer;

/* A node's writer thread and its queue. */
struct aio_node {
	struct aio_writer	*w;
	int			node;
	bool			started;
	pthread_t		thread;
	pthread_mutex_t		lock;
	pthread_cond_t		work;	/* a buffer was queued, or stop */
	pthread_cond_t		done;	/* a buffer was written */
	struct aio_buf		*head, *tail;
	unsigned int		inflight;	/* queued or being written */
	bool			stop;
	__u64			wait_ns;	/* the reader's time waiting for it */
};

struct aio_writer {
	int			fd;
	const struct numa_topo	*topo;
	struct aio_node		*nodes;		/* [topo->max_node + 1] */
	pthread_mutex_t		err_lock;
	int			err;		/* the first failed write's -errno */
	__u64			bad_off;	/* the first byte not written, or ~0 */
	bool			failed;		/* writes stop after a failure */
};

/* One ring's buffers: @nr of @size bytes, used in turn. */
struct aio_map {
	struct aio_node	*node;
	struct aio_buf	*bufs;
	void		*mem;		/* one mapping for all of them */
	size_t		mem_len;
	unsigned int	nr;
	unsigned int	next;
};

int aio_writer__init(struct aio_writer *w, int fd, const struct numa_topo *topo);
/* Waits for every queued write and stops the threads. */
void aio_writer__exit(struct aio_writer *w);
/*
 * Waits until every queued write is done; the time waited goes to each
 * node's wait_ns.  Returns 0, or the first failed write's -errno.
 */
int aio_writer__sync(struct aio_writer *w);
/* The first failed write's -errno (0: none); *@bad_off: where it failed */
int aio_writer__error(struct aio_writer *w, __u64 *bad_off);

/*
 * @nr buffers of @size bytes for a ring of @node, bound there with
 * mbind(2) and faulted in; the node's thread is started on its CPUs if it
 * is not yet.  -errno of mmap, mbind, madvise or pthread_create.
 */
int aio_map__init(struct aio_map *m, struct aio_writer *w, int node, unsigned int nr,
		  size_t size);
void aio_map__exit(struct aio_map *m);
/* The ring's next buffer, empty, once its last write is done. */
struct aio_buf *aio_map__get(struct aio_map *m);
/* Queues @b's bytes for writing at file offset @off. */
void aio_map__submit(struct aio_map *m, struct aio_buf *b, __u64 off);

#endif /* __PERFX_AIO_H */
