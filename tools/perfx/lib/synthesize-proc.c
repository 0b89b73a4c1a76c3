// SPDX-License-Identifier: GPL-2.0
/*
 * Synthesis from /proc's files, as perf's synthetic-events.c reads them,
 * with fewer syscalls: a process's stat gives its leader's comm, parent,
 * thread count and kernel-thread flag at once, so a single-threaded
 * process costs one small read and its maps, where perf lists the task
 * directory and reads a status file per thread.  Files are opened
 * relative to a /proc fd and read into per-thread buffers.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
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
#include "synthesize-proc.h"
#include "synthesize-record.h"
#include "util.h"

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
	    !procfs_reader__open(&r, ctx->procfd, "mounts", buf, SYNTH_MAPS_BUF)) {
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

int synth_ctx__init(struct synth_ctx *ctx, const struct synthesize_opts *opts, char *buf)
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

void synth_ctx__exit(struct synth_ctx *ctx)
{
	close(ctx->procfd);
}

int synth_worker__map(struct synth_worker *wk, pid_t tgid, const struct procfs_map *m,
		      bool timeout)
{
	const struct synth_ctx *ctx = wk->ctx;
	struct synth_mmap mm = {
		.misc = PERF_RECORD_MISC_USER, .pid = tgid, .tid = tgid,
		.start = m->start, .len = m->end - m->start, .pgoff = m->pgoff,
		.maj = m->maj, .min = m->min, .ino = m->ino, .prot = m->prot, .flags = m->flags,
		.name = m->path, .name_len = m->path_len,
	};

	if (timeout) {
		/* perf writes the map it stopped at, whatever it is */
		mm.misc |= PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT;
	} else if (!(m->prot & PROT_EXEC)) {
		if (!ctx->opts->data_mmaps || !(m->prot & PROT_READ))
			return 0;
		mm.misc |= PERF_RECORD_MISC_MMAP_DATA;
	}
	if (ctx->hugetlbfs_len && m->path_len >= ctx->hugetlbfs_len &&
	    !memcmp(m->path, ctx->hugetlbfs, ctx->hugetlbfs_len)) {
		mm.name_len = 0;
		mm.flags |= MAP_HUGETLB;
	}
	if (!mm.name_len) {
		mm.name = "//anon";
		mm.name_len = 6;
	}
	return synth_buf__mmap2(wk->out, &mm);
}

/* One MMAP2 per map line of @tgid's leader, by perf's rules. */
static int synth_worker__maps(struct synth_worker *wk, pid_t tgid)
{
	const struct synth_ctx *ctx = wk->ctx;
	struct procfs_reader r;
	struct procfs_map m;
	char path[32];
	const char *line;
	bool timeout = false;
	size_t len;
	__u64 t0;
	int err;

	snprintf(path, sizeof(path), "%d/maps", tgid);
	err = procfs_reader__open(&r, ctx->procfd, path, wk->maps_buf, SYNTH_MAPS_BUF);
	if (err) {
		pr_debug("couldn't open %s/proc/%s: %s\n", synth__root(ctx->opts), path,
			 perfx__errname(err));
		return 0;
	}
	t0 = perfx__now_ns();
	while (!timeout && (err = procfs_reader__line(&r, &line, &len)) > 0) {
		if (procfs__parse_map(line, len, &m))
			continue;
		timeout = perfx__now_ns() - t0 > ctx->timeout_ns;
		if (timeout)
			pr_warning("Reading %s/proc/%d/task/%d/maps time out. You may want to increase the time limit by --proc-map-timeout\n",
				   synth__root(ctx->opts), tgid, tgid);
		err = synth_worker__map(wk, tgid, &m, timeout);
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

int synth_worker__task(struct synth_worker *wk, pid_t tid, bool maps, pid_t *tgid)
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
 * As /proc lists them (a fake tree's order is its filesystem's): a task
 * directory holds the threads stat counted, and the getdents64 that would
 * return 0 is a syscall per process.
 */
int synth__list(int dirfd, const char *path, unsigned int expect, pid_t **pidsp,
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

int synth_worker__process(struct synth_worker *wk, pid_t pid)
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

int synth_worker__init(struct synth_worker *wk, const struct synth_ctx *ctx,
		       struct synth_buf *out)
{
	*wk = (struct synth_worker){ .ctx = ctx, .out = out };
	wk->maps_buf = malloc(SYNTH_MAPS_BUF);
	return wk->maps_buf ? 0 : -ENOMEM;
}

void synth_worker__exit(struct synth_worker *wk)
{
	free(wk->maps_buf);
}
