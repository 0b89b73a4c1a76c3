// SPDX-License-Identifier: GPL-2.0
/*
 * Synthesis of what already runs, as perf's synthetic-events.c does it,
 * with fewer syscalls: a process's stat gives its leader's comm, parent,
 * thread count and kernel-thread flag at once, so a single-threaded
 * process costs one small read and its maps, where perf lists the task
 * directory and reads a status file per thread.  Files are opened
 * relative to a /proc fd and read into per-thread buffers.
 *
 * synthesize__all splits /proc's processes into chunks that threads take
 * in turn; each chunk's records go to its own buffer, and chunks are
 * written in /proc's order as they complete, so the bytes written are the
 * same for any number of threads.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "data.h"
#include "debug.h"
#include "procfs.h"
#include "synthesize.h"
#include "synthesize-record.h"
#include "threadmap.h"

/* a read(2) of a maps file returns at most a page or so: this is plenty */
#define MAPS_BUF		(64 * 1024)
/* processes per thread below which another thread costs more than it saves */
#define PROCS_PER_THREAD	64
/* chunks per thread: small enough to balance, large enough to be cheap */
#define CHUNKS_PER_THREAD	8
#define CHUNK_MAX		64

/* What every thread of one synthesis shares, read-only */
struct synth_ctx {
	const struct synthesize_opts *opts;
	int		procfd;
	char		hugetlbfs[PATH_MAX];	/* perf's hugetlbfs__mountpoint() */
	size_t		hugetlbfs_len;
	__u64		timeout_ns;
};

/* One thread's buffers */
struct synth_worker {
	const struct synth_ctx	*ctx;
	struct synth_buf	*out;
	char			*maps_buf;
};

static __u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * The first hugetlbfs mount in <root>/proc/mounts, as perf finds it, and
 * as perf read once per tree: mounts are many lines to read per call.
 */
static void synth_ctx__hugetlbfs(struct synth_ctx *ctx, char *buf)
{
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	static char cached_root[PATH_MAX] = "\1", cached[PATH_MAX];
	const char *line, *dir, *type, *root = synth__root(ctx->opts);
	size_t len, dir_len, type_len;
	struct procfs_reader r;

	pthread_mutex_lock(&lock);
	if (strcmp(cached_root, root) &&
	    !procfs_reader__open(&r, ctx->procfd, "mounts", buf, MAPS_BUF)) {
		cached[0] = '\0';
		while (procfs_reader__line(&r, &line, &len) > 0) {
			if (procfs__parse_mount(line, len, &dir, &dir_len, &type, &type_len) ||
			    type_len != 9 || memcmp(type, "hugetlbfs", 9) || dir_len >= PATH_MAX)
				continue;
			memcpy(cached, dir, dir_len);
			cached[dir_len] = '\0';
			break;
		}
		procfs_reader__close(&r);
		snprintf(cached_root, sizeof(cached_root), "%s", root);
	}
	if (!strcmp(cached_root, root)) {
		strcpy(ctx->hugetlbfs, cached);
		ctx->hugetlbfs_len = strlen(cached);
	}
	pthread_mutex_unlock(&lock);
}

static int synth_ctx__init(struct synth_ctx *ctx, const struct synthesize_opts *opts,
			   char *buf)
{
	*ctx = (struct synth_ctx){ .opts = opts };
	if (!synth__opts_valid(opts))
		return -EINVAL;
	ctx->timeout_ns = opts->proc_map_timeout_ms * 1000000ULL;
	ctx->procfd = synth__open_proc(opts);
	if (ctx->procfd < 0)
		return ctx->procfd;
	synth_ctx__hugetlbfs(ctx, buf);
	return 0;
}

static void synth_ctx__exit(struct synth_ctx *ctx)
{
	close(ctx->procfd);
}

/* One MMAP2 per map line of @tgid's leader, by perf's rules. */
static int synth_worker__maps(struct synth_worker *wk, pid_t tgid)
{
	const struct synth_ctx *ctx = wk->ctx;
	struct synth_mmap mm = { .pid = tgid, .tid = tgid };
	struct procfs_reader r;
	struct procfs_map m;
	char path[32];
	const char *line;
	bool timeout = false;
	size_t len;
	__u64 t0;
	int err;

	snprintf(path, sizeof(path), "%d/maps", tgid);
	err = procfs_reader__open(&r, ctx->procfd, path, wk->maps_buf, MAPS_BUF);
	if (err) {
		pr_debug("couldn't open %s/proc/%s: %s\n", synth__root(ctx->opts), path,
			 perfx__errname(err));
		return 0;
	}
	t0 = now_ns();
	while (!timeout && (err = procfs_reader__line(&r, &line, &len)) > 0) {
		if (procfs__parse_map(line, len, &m))
			continue;
		timeout = now_ns() - t0 > ctx->timeout_ns;
		mm.misc = PERF_RECORD_MISC_USER;
		if (timeout) {
			/* perf writes the map it stopped at, whatever it is */
			pr_warning("Reading %s/proc/%d/task/%d/maps time out. You may want to increase the time limit by --proc-map-timeout\n",
				   synth__root(ctx->opts), tgid, tgid);
			mm.misc |= PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT;
		} else if (!(m.prot & PROT_EXEC)) {
			if (!ctx->opts->data_mmaps || !(m.prot & PROT_READ))
				continue;
			mm.misc |= PERF_RECORD_MISC_MMAP_DATA;
		}
		mm.start = m.start;
		mm.len = m.end - m.start;
		mm.pgoff = m.pgoff;
		mm.maj = m.maj;
		mm.min = m.min;
		mm.ino = m.ino;
		mm.prot = m.prot;
		mm.flags = m.flags;
		mm.name = m.path;
		mm.name_len = m.path_len;
		if (ctx->hugetlbfs_len && m.path_len >= ctx->hugetlbfs_len &&
		    !memcmp(m.path, ctx->hugetlbfs, ctx->hugetlbfs_len)) {
			mm.name_len = 0;
			mm.flags |= MAP_HUGETLB;
		}
		if (!mm.name_len) {
			mm.name = "//anon";
			mm.name_len = 6;
		}
		err = synth_buf__mmap2(wk->out, &mm);
		if (err)
			break;
	}
	procfs_reader__close(&r);
	if (err > 0 || err == -ENOMEM)
		return err > 0 ? 0 : err;
	if (err)	/* gone while we read it */
		pr_debug("reading %s/proc/%s: %s\n", synth__root(ctx->opts), path,
			 perfx__errname(err));
	return 0;
}

/* status' view of task @tid (perf reads /proc/TID/status for -p/-t) */
static int synth_worker__status(struct synth_worker *wk, pid_t tid, struct procfs_task *t)
{
	char path[32], buf[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "%d/status", tid);
	n = procfs__read_file(wk->ctx->procfd, path, buf, sizeof(buf));
	if (n < 0) {
		pr_debug("couldn't open %s/proc/%s: %s\n", synth__root(wk->ctx->opts), path,
			 perfx__errname(n));
		return n;
	}
	return procfs__parse_status(buf, n, t);
}

/* COMM of @tid, and MMAP2s if it leads its process: perf's thread-map way */
static int synth_worker__task(struct synth_worker *wk, pid_t tid, bool maps, pid_t *tgid)
{
	struct procfs_task t;
	int err;

	*tgid = -1;
	if (synth_worker__status(wk, tid, &t))
		return 0;	/* gone */
	err = synth_buf__comm(wk->out, t.tgid, tid, t.comm);
	if (err)
		return err;
	*tgid = t.tgid;
	if (maps && t.tgid == tid)
		return synth_worker__maps(wk, tid);
	return 0;
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

/*
 * The numeric entries of @dirfd's @path, ascending (as /proc lists them;
 * a fake tree's order is its filesystem's); reading stops once @expect
 * (if not 0) are seen: a task directory holds the threads stat counted,
 * and the getdents64 that would return 0 is a syscall per process.
 * -errno of open or getdents.
 */
static int synth__list(int dirfd, const char *path, unsigned int expect, pid_t **pidsp,
		       unsigned int *nrp)
{
	unsigned int nr = 0, cap = 0;
	pid_t *pids = NULL, *n;
	char buf[16384];
	long got = 0;
	int fd, err = 0;

	fd = openat(dirfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((!expect || nr < expect) &&
	       (got = syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		long off;

		for (off = 0; off < got; ) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			const char *s = d->d_name;
			long v = 0;

			off += d->d_reclen;
			for (; *s >= '0' && *s <= '9' && v <= INT_MAX; s++)
				v = v * 10 + (*s - '0');
			if (*s || s == d->d_name || v > INT_MAX)
				continue;
			if (nr == cap) {
				cap = cap ? cap * 2 : 64;
				n = realloc(pids, cap * sizeof(*pids));
				if (!n) {
					err = -ENOMEM;
					goto out;
				}
				pids = n;
			}
			pids[nr++] = v;
		}
	}
	if (got < 0)
		err = -errno;
out:
	close(fd);
	if (err) {
		free(pids);
		return err;
	}
	qsort(pids, nr, sizeof(*pids), cmp_pid);
	*pidsp = pids;
	*nrp = nr;
	return 0;
}

/* FORK and COMM of thread @tid of process @pid, which @leader describes */
static int synth_worker__thread(struct synth_worker *wk, pid_t pid, pid_t tid,
				const struct procfs_task *leader)
{
	char path[48], buf[128], comm[PROCFS_COMM_LEN];
	const char *name = leader->comm;
	ssize_t n;
	int err;

	if (tid != pid) {
		/* a thread's own directory is there, only not listed */
		snprintf(path, sizeof(path), "%d/comm", tid);
		n = procfs__read_file(wk->ctx->procfd, path, buf, sizeof(buf));
		if (n <= 0)
			return 0;	/* gone */
		procfs__comm(comm, buf, n - (buf[n - 1] == '\n'));
		name = comm;
	}
	/* perf: the leader's parent is its ppid, the other threads' the leader */
	err = synth_buf__fork(wk->out, pid, tid == pid ? leader->ppid : pid, tid,
			      tid == pid ? leader->ppid : pid);
	if (!err)
		err = synth_buf__comm(wk->out, pid, tid, name);
	if (!err && tid == pid && !leader->kernel)
		err = synth_worker__maps(wk, pid);
	return err;
}

/* Every thread of process @pid, perf's full way: FORK, COMM, the leader's maps */
static int synth_worker__process(struct synth_worker *wk, pid_t pid)
{
	struct procfs_task leader;
	unsigned int i, nr = 1;
	pid_t *tids = &pid;
	char path[32], buf[1024];
	ssize_t n;
	int err;

	snprintf(path, sizeof(path), "%d/stat", pid);
	n = procfs__read_file(wk->ctx->procfd, path, buf, sizeof(buf));
	if (n < 0 || procfs__parse_stat(buf, n, &leader)) {
		pr_debug("couldn't read %s/proc/%s\n", synth__root(wk->ctx->opts), path);
		return 0;	/* gone */
	}
	if (leader.nr_threads > 1) {
		snprintf(path, sizeof(path), "%d/task", pid);
		err = synth__list(wk->ctx->procfd, path, leader.nr_threads, &tids, &nr);
		if (err == -ENOMEM)
			return err;
		if (err)
			return 0;
	}
	/* the leader first, as /proc lists it */
	err = synth_worker__thread(wk, pid, pid, &leader);
	for (i = 0; !err && i < nr; i++)
		if (tids[i] != pid)
			err = synth_worker__thread(wk, pid, tids[i], &leader);
	if (tids != &pid)
		free(tids);
	return err;
}

static int synth_worker__init(struct synth_worker *wk, const struct synth_ctx *ctx,
			      struct synth_buf *out)
{
	*wk = (struct synth_worker){ .ctx = ctx, .out = out };
	wk->maps_buf = malloc(MAPS_BUF);
	return wk->maps_buf ? 0 : -ENOMEM;
}

static void synth_worker__exit(struct synth_worker *wk)
{
	free(wk->maps_buf);
}

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
	cpu_set_t set;
	int nr;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	nr = CPU_COUNT(&set);
	return nr > 0 ? nr : 1;
}

unsigned int synthesize__auto_threads(unsigned int nr_procs)
{
	unsigned int cpus = nr_cpus(), nr = nr_procs / PROCS_PER_THREAD;

	if (nr > cpus)
		nr = cpus;
	return nr ? nr : 1;
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

int synthesize__all(struct perfx_writer *w, const struct synthesize_opts *opts)
{
	struct synth_pool pool = { .w = w, .lock = PTHREAD_MUTEX_INITIALIZER };
	unsigned int nr_threads, i;
	struct synth_ctx ctx;
	pid_t *pids = NULL;
	char *buf;
	int err;

	buf = malloc(MAPS_BUF);
	if (!buf)
		return -ENOMEM;
	err = synth_ctx__init(&ctx, opts, buf);
	free(buf);
	if (err)
		return err;
	err = synth__list(ctx.procfd, ".", 0, &pids, &pool.nr_pids);
	if (err)
		goto out_ctx;
	nr_threads = opts->nr_threads ?: synthesize__auto_threads(pool.nr_pids);
	if (nr_threads > pool.nr_pids)
		nr_threads = pool.nr_pids ?: 1;
	pool.ctx = &ctx;
	pool.pids = pids;
	pool.chunk_pids = pool.nr_pids / (nr_threads * CHUNKS_PER_THREAD);
	pool.chunk_pids = pool.chunk_pids < 1 ? 1 : pool.chunk_pids > CHUNK_MAX ?
			  CHUNK_MAX : pool.chunk_pids;
	pool.nr_chunks = (pool.nr_pids + pool.chunk_pids - 1) / pool.chunk_pids;
	pool.chunks = calloc(pool.nr_chunks ?: 1, sizeof(*pool.chunks));
	if (!pool.chunks) {
		err = -ENOMEM;
		goto out_pids;
	}
	for (i = 0; i < pool.nr_chunks; i++)
		synth_buf__init(&pool.chunks[i].buf, opts->id_hdr_size);
	err = synth_pool__run(&pool, nr_threads);
	for (i = 0; i < pool.nr_chunks; i++)
		synth_buf__exit(&pool.chunks[i].buf);
	free(pool.chunks);
out_pids:
	free(pids);
out_ctx:
	synth_ctx__exit(&ctx);
	return err ? err : (int)pool.nr_records;
}
