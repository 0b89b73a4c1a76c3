// SPDX-License-Identifier: GPL-2.0
/*
 * Synthesis of what already runs: perf's records for -p/-t and for a
 * forked workload from /proc (synthesize-proc.c), and for -a from /proc
 * or, where the kernel lets perfx load it and the machine runs enough
 * processes to pay for loading it, from a BPF task iterator
 * (synthesize-bpf.c), the same bytes either way.
 *
 * From /proc, synthesize__all splits the processes into chunks that
 * threads take in turn; each chunk's records go to its own buffer, and
 * chunks are written in /proc's order as they complete, so the bytes
 * written are the same for any number of threads.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "cpumap.h"
#include "data.h"
#include "debug.h"
#include "synthesize.h"
#include "synthesize-bpf.h"
#include "synthesize-proc.h"
#include "synthesize-record.h"
#include "threadmap.h"

/* processes per thread below which another thread costs more than it saves */
#define PROCS_PER_THREAD	64
/* chunks per thread: small enough to balance, large enough to be cheap */
#define CHUNKS_PER_THREAD	8
#define CHUNK_MAX		64
/*
 * Processes from which the BPF iterator is worth loading: loading it
 * costs what reading /proc costs for about that many
 */
#define BPF_MIN_PROCS		256
/* the same for another reader of its stream */
#define BPF_PROCS_PER_THREAD	256

/* Runs @fn over a fresh context and worker, then writes what it made. */
static int synth__run(struct perfx_writer *w, const struct synthesize_opts *opts,
		      int (*fn)(struct synth_worker *wk, const void *arg), const void *arg)
{
	struct synth_worker wk;
	struct synth_buf out;
	struct synth_ctx ctx;
	int err, nr;

	synth_buf__init(&out, opts->id_hdr_size);
	err = synth_worker__init(&wk, &ctx, &out);
	if (err)
		return err;
	err = synth_ctx__init(&ctx, opts, wk.maps_buf);
	if (err)
		goto out_worker;
	err = fn(&wk, arg);
	if (!err && out.len)
		err = perfx_writer__write(w, out.p, out.len);
	synth_ctx__exit(&ctx);
out_worker:
	synth_worker__exit(&wk);
	nr = out.nr;
	synth_buf__exit(&out);
	return err ? err : nr;
}

static int synth_comm(struct synth_worker *wk, const void *arg)
{
	pid_t tgid;

	return synth_worker__task(wk, *(const pid_t *)arg, false, &tgid);
}

int synthesize__comm(struct perfx_writer *w, pid_t pid, const struct synthesize_opts *opts)
{
	return synth__run(w, opts, synth_comm, &pid);
}

static bool thread_map__has(const struct thread_map *threads, pid_t pid)
{
	int i;

	for (i = 0; i < threads->nr; i++)
		if (threads->map[i] == pid)
			return true;
	return false;
}

static int synth_threads(struct synth_worker *wk, const void *arg)
{
	const struct thread_map *threads = arg;
	pid_t tgid, unused;
	int i, err = 0;

	for (i = 0; !err && i < threads->nr; i++) {
		err = synth_worker__task(wk, threads->map[i], true, &tgid);
		/* a thread whose leader is not followed brings it along */
		if (!err && tgid > 0 && tgid != threads->map[i] &&
		    !thread_map__has(threads, tgid))
			err = synth_worker__task(wk, tgid, true, &unused);
	}
	return err;
}

int synthesize__threads(struct perfx_writer *w, const struct thread_map *threads,
			const struct synthesize_opts *opts)
{
	return synth__run(w, opts, synth_threads, threads);
}

/* the CPUs this thread may run on */
static unsigned int nr_cpus(void)
{
	struct cpu_mask set;
	int nr = 0;

	if (cpu_mask__init(&set, 0))
		return 1;
	if (!cpu_mask__get_affinity(&set))
		nr = cpu_mask__count(&set);
	cpu_mask__exit(&set);
	return nr > 0 ? nr : 1;
}

/* @nr_procs over @per_thread each, at most a thread per CPU, at least one */
static unsigned int auto_threads(unsigned int nr_procs, unsigned int per_thread)
{
	unsigned int cpus = nr_cpus(), nr = nr_procs / per_thread;

	if (nr > cpus)
		nr = cpus;
	return nr ? nr : 1;
}

unsigned int synthesize__auto_threads(unsigned int nr_procs)
{
	return auto_threads(nr_procs, PROCS_PER_THREAD);
}

/* One chunk of processes and the records made for them */
struct synth_chunk {
	struct synth_buf	buf;
	bool			done;
};

struct synth_pool {
	const struct synth_ctx	*ctx;
	struct perfx_writer	*w;
	const pid_t		*pids;
	unsigned int		nr_pids;
	unsigned int		chunk_pids;
	struct synth_chunk	*chunks;
	unsigned int		nr_chunks;
	unsigned int		next;		/* the next chunk to take, atomic */
	unsigned int		written;	/* chunks written, under lock */
	unsigned int		nr_records;
	int			err;		/* the first error, under lock */
	pthread_mutex_t		lock;
};

/* Marks chunk @i done and writes every done chunk that is next in order. */
static void synth_pool__complete(struct synth_pool *pool, unsigned int i, int err)
{
	struct synth_chunk *c;

	pthread_mutex_lock(&pool->lock);
	pool->chunks[i].done = true;
	if (err && !pool->err)
		pool->err = err;
	while (!pool->err && pool->written < pool->nr_chunks &&
	       (c = &pool->chunks[pool->written])->done) {
		if (c->buf.len)
			pool->err = perfx_writer__write(pool->w, c->buf.p, c->buf.len);
		pool->nr_records += c->buf.nr;
		synth_buf__exit(&c->buf);
		pool->written++;
	}
	pthread_mutex_unlock(&pool->lock);
}

static bool synth_pool__failed(struct synth_pool *pool)
{
	return __atomic_load_n(&pool->err, __ATOMIC_RELAXED) != 0;
}

static int synth_pool__work(struct synth_pool *pool)
{
	struct synth_worker wk;
	unsigned int i, k;
	int err;

	err = synth_worker__init(&wk, pool->ctx, NULL);
	if (err) {
		pthread_mutex_lock(&pool->lock);
		pool->err = pool->err ?: err;
		pthread_mutex_unlock(&pool->lock);
	}
	while (!err && !synth_pool__failed(pool) &&
	       (i = __atomic_fetch_add(&pool->next, 1, __ATOMIC_RELAXED)) < pool->nr_chunks) {
		wk.out = &pool->chunks[i].buf;
		for (k = i * pool->chunk_pids;
		     !err && k < pool->nr_pids && k < (i + 1) * pool->chunk_pids; k++)
			err = synth_worker__process(&wk, pool->pids[k]);
		synth_pool__complete(pool, i, err);
	}
	synth_worker__exit(&wk);
	return err;
}

static void *synth_pool__thread(void *arg)
{
	synth_pool__work(arg);
	return NULL;
}

/* @nr threads (this one among them) over the chunks of @pool */
static int synth_pool__run(struct synth_pool *pool, unsigned int nr)
{
	pthread_t *threads = calloc(nr, sizeof(*threads));
	unsigned int i, started = 0;
	int err;

	if (!threads)
		return -ENOMEM;
	for (i = 1; i < nr; i++) {
		if (pthread_create(&threads[i], NULL, synth_pool__thread, pool))
			break;	/* fewer threads: the same records */
		started++;
	}
	synth_pool__work(pool);
	for (i = 1; i <= started; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	err = pool->err;
	return err;
}

/* From /proc, @nr_threads over @nr_pids processes @pids */
static int synth_proc__all(const struct synth_ctx *ctx, struct perfx_writer *w,
			   const pid_t *pids, unsigned int nr_pids, unsigned int nr_threads)
{
	struct synth_pool pool = {
		.ctx = ctx, .w = w, .pids = pids, .nr_pids = nr_pids,
		.lock = PTHREAD_MUTEX_INITIALIZER,
	};
	unsigned int i;
	int err;

	pool.chunk_pids = nr_pids / (nr_threads * CHUNKS_PER_THREAD);
	pool.chunk_pids = pool.chunk_pids < 1 ? 1 : pool.chunk_pids > CHUNK_MAX ?
			  CHUNK_MAX : pool.chunk_pids;
	pool.nr_chunks = (nr_pids + pool.chunk_pids - 1) / pool.chunk_pids;
	pool.chunks = calloc(pool.nr_chunks ?: 1, sizeof(*pool.chunks));
	if (!pool.chunks)
		return -ENOMEM;
	for (i = 0; i < pool.nr_chunks; i++)
		synth_buf__init(&pool.chunks[i].buf, ctx->opts->id_hdr_size);
	err = synth_pool__run(&pool, nr_threads);
	for (i = 0; i < pool.nr_chunks; i++)
		synth_buf__exit(&pool.chunks[i].buf);
	free(pool.chunks);
	return err ? err : (int)pool.nr_records;
}

/* The BPF iterator's records of @pids, or -errno; *@wrote when some reached @w */
static int synth_all_bpf(const struct synth_ctx *ctx, struct perfx_writer *w,
			 const pid_t *pids, unsigned int nr_pids, struct synthesize_used *used,
			 bool *wrote)
{
	const struct synthesize_opts *opts = ctx->opts;
	unsigned int nr_threads = opts->nr_threads ?: auto_threads(nr_pids, BPF_PROCS_PER_THREAD);
	int nr;

	nr = synth_bpf__all(ctx, w, pids, nr_pids, nr_threads, wrote);
	if (nr >= 0 && used)
		*used = (struct synthesize_used){ SYNTHESIZE_SOURCE_BPF, nr_threads };
	else if (nr < 0 && !*wrote)
		pr_debug("synthesis: no BPF task iterator here (%s): reading /proc\n",
			 perfx__errname(nr));
	return nr;
}

int synthesize__all(struct perfx_writer *w, const struct synthesize_opts *opts)
{
	enum synthesize_source source = opts->source;
	unsigned int nr_threads, nr_pids;
	struct synth_ctx ctx;
	pid_t *pids = NULL;
	bool wrote = false;
	char *buf;
	int nr;

	if (source == SYNTHESIZE_SOURCE_BPF && opts->root)
		return -EINVAL;
	buf = malloc(SYNTH_MAPS_BUF);
	if (!buf)
		return -ENOMEM;
	nr = synth_ctx__init(&ctx, opts, buf);
	free(buf);
	if (nr)
		return nr;
	nr = synth__list(ctx.procfd, ".", 0, &pids, &nr_pids);
	if (nr)
		goto out;
	if (source == SYNTHESIZE_SOURCE_AUTO && !opts->root && nr_pids >= BPF_MIN_PROCS)
		source = SYNTHESIZE_SOURCE_BPF;
	if (source == SYNTHESIZE_SOURCE_BPF) {
		nr = synth_all_bpf(&ctx, w, pids, nr_pids, opts->used, &wrote);
		if (nr >= 0 || wrote || opts->source == SYNTHESIZE_SOURCE_BPF)
			goto out;
	}
	nr_threads = opts->nr_threads ?: synthesize__auto_threads(nr_pids);
	if (nr_threads > nr_pids)
		nr_threads = nr_pids ?: 1;
	nr = synth_proc__all(&ctx, w, pids, nr_pids, nr_threads);
	if (nr >= 0 && opts->used)
		*opts->used = (struct synthesize_used){ SYNTHESIZE_SOURCE_PROC, nr_threads };
out:
	free(pids);
	synth_ctx__exit(&ctx);
	return nr;
}
