// SPDX-License-Identifier: GPL-2.0
/*
 * Asynchronous writes of ring data at reserved file offsets, one writer
 * thread per NUMA node, from buffers bound to that node.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aio.h"
#include "cpumap.h"
#include "numa.h"
#include "util.h"

int aio_writer__init(struct aio_writer *w, int fd, const struct numa_topo *topo)
{
	int i;

	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->topo = topo;
	w->bad_off = ~0ULL;
	w->nodes = calloc(topo->max_node + 1, sizeof(*w->nodes));
	if (!w->nodes)
		return -ENOMEM;
	pthread_mutex_init(&w->err_lock, NULL);
	for (i = 0; i <= topo->max_node; i++) {
		struct aio_node *n = &w->nodes[i];

		n->w = w;
		n->node = i;
		pthread_mutex_init(&n->lock, NULL);
		pthread_cond_init(&n->work, NULL);
		pthread_cond_init(&n->done, NULL);
	}
	return 0;
}

/* The first failure stops all writes: bytes from @off on are not in the file. */
static void aio_writer__fail(struct aio_writer *w, int err, __u64 off)
{
	pthread_mutex_lock(&w->err_lock);
	if (!w->err)
		w->err = err;
	if (off < w->bad_off)
		w->bad_off = off;
	__atomic_store_n(&w->failed, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&w->err_lock);
}

int aio_writer__error(struct aio_writer *w, __u64 *bad_off)
{
	int err;

	pthread_mutex_lock(&w->err_lock);
	err = w->err;
	*bad_off = w->bad_off;
	pthread_mutex_unlock(&w->err_lock);
	return err;
}

/*
 * After a failure nothing more is written, so that the file has no
 * records past a hole: a skipped buffer counts as failed at its offset.
 */
static void aio_writer__write(struct aio_writer *w, const struct aio_buf *b)
{
	size_t done = 0;
	int err = -ECANCELED;

	if (__atomic_load_n(&w->failed, __ATOMIC_ACQUIRE))
		goto out_fail;
	while (done < b->len) {
		ssize_t n = pwrite(w->fd, b->data + done, b->len - done, b->off + done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n ? -errno : -EIO;
			goto out_fail;
		}
		done += n;
	}
	return;

out_fail:
	aio_writer__fail(w, err, b->off + done);
}

static void *aio_node__run(void *arg)
{
	struct aio_node *n = arg;

	pthread_mutex_lock(&n->lock);
	for (;;) {
		struct aio_buf *b = n->head;

		if (!b) {
			if (n->stop)
				break;
			pthread_cond_wait(&n->work, &n->lock);
			continue;
		}
		n->head = b->next;
		if (!n->head)
			n->tail = NULL;
		pthread_mutex_unlock(&n->lock);
		aio_writer__write(n->w, b);
		pthread_mutex_lock(&n->lock);
		b->busy = false;
		n->inflight--;
		pthread_cond_broadcast(&n->done);
	}
	pthread_mutex_unlock(&n->lock);
	return NULL;
}

/*
 * The node's thread runs on the node's CPUs, with every signal blocked:
 * SIGINT and friends are the reader's, which takes them in ppoll().
 */
static int aio_node__start(struct aio_node *n)
{
	const struct cpu_map *cpus = n->w->topo->node_cpus[n->node];
	sigset_t all, old;
	pthread_attr_t attr;
	struct cpu_mask set;
	char name[16];
	int i, err;

	if (n->started)
		return 0;
	err = cpu_mask__init(&set, 0);
	if (err)
		return err;
	err = -pthread_attr_init(&attr);
	if (err) {
		cpu_mask__exit(&set);
		return err;
	}
	for (i = 0; cpus && i < cpus->nr; i++)
		cpu_mask__set(&set, cpus->map[i]);
	if (cpu_mask__count(&set))
		err = -pthread_attr_setaffinity_np(&attr, set.size, set.bits);
	cpu_mask__exit(&set);
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (!err)
		err = -pthread_create(&n->thread, &attr, aio_node__run, n);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_attr_destroy(&attr);
	if (err)
		return err;
	snprintf(name, sizeof(name), "perfx-aio-%d", n->node);
	pthread_setname_np(n->thread, name);
	n->started = true;
	return 0;
}

/* Waits for the node's writes; returns how long it took. */
static __u64 aio_node__sync(struct aio_node *n)
{
	__u64 start = 0, waited = 0;

	pthread_mutex_lock(&n->lock);
	if (n->inflight)
		start = perfx__now_ns();
	while (n->inflight)
		pthread_cond_wait(&n->done, &n->lock);
	if (start)
		waited = perfx__now_ns() - start;
	pthread_mutex_unlock(&n->lock);
	return waited;
}

int aio_writer__sync(struct aio_writer *w)
{
	__u64 bad_off;
	int i;

	for (i = 0; i <= w->topo->max_node; i++)
		w->nodes[i].wait_ns += aio_node__sync(&w->nodes[i]);
	return aio_writer__error(w, &bad_off);
}

void aio_writer__exit(struct aio_writer *w)
{
	int i;

	if (!w->nodes)
		return;
	for (i = 0; i <= w->topo->max_node; i++) {
		struct aio_node *n = &w->nodes[i];

		if (n->started) {
			pthread_mutex_lock(&n->lock);
			n->stop = true;
			pthread_cond_signal(&n->work);
			pthread_mutex_unlock(&n->lock);
			pthread_join(n->thread, NULL);
		}
		pthread_mutex_destroy(&n->lock);
		pthread_cond_destroy(&n->work);
		pthread_cond_destroy(&n->done);
	}
	pthread_mutex_destroy(&w->err_lock);
	free(w->nodes);
	w->nodes = NULL;
}

int aio_map__init(struct aio_map *m, struct aio_writer *w, int node, unsigned int nr,
		  size_t size)
{
	unsigned int i;
	int err;

	memset(m, 0, sizeof(*m));
	if (node < 0 || node > w->topo->max_node || !nr)
		return -EINVAL;
	m->node = &w->nodes[node];
	m->bufs = calloc(nr, sizeof(*m->bufs));
	if (!m->bufs)
		return -ENOMEM;
	m->nr = nr;
	m->mem_len = nr * size;
	m->mem = mmap(NULL, m->mem_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		      -1, 0);
	if (m->mem == MAP_FAILED) {
		m->mem = NULL;
		return -errno;
	}
	for (i = 0; i < nr; i++)
		m->bufs[i].data = (char *)m->mem + i * size;
	err = numa__bind(m->mem, m->mem_len, node);
	return err ? err : aio_node__start(m->node);
}

void aio_map__exit(struct aio_map *m)
{
	if (m->mem)
		munmap(m->mem, m->mem_len);
	free(m->bufs);
	memset(m, 0, sizeof(*m));
}

struct aio_buf *aio_map__get(struct aio_map *m)
{
	struct aio_buf *b = &m->bufs[m->next];
	struct aio_node *n = m->node;

	pthread_mutex_lock(&n->lock);
	if (b->busy) {
		__u64 start = perfx__now_ns();

		while (b->busy)
			pthread_cond_wait(&n->done, &n->lock);
		n->wait_ns += perfx__now_ns() - start;
	}
	pthread_mutex_unlock(&n->lock);
	m->next = (m->next + 1) % m->nr;
	b->len = 0;
	return b;
}

void aio_map__submit(struct aio_map *m, struct aio_buf *b, __u64 off)
{
	struct aio_node *n = m->node;

	b->off = off;
	b->next = NULL;
	pthread_mutex_lock(&n->lock);
	b->busy = true;
	if (n->tail)
		n->tail->next = b;
	else
		n->head = b;
	n->tail = b;
	n->inflight++;
	pthread_cond_signal(&n->work);
	pthread_mutex_unlock(&n->lock);
}
