// SPDX-License-Identifier: GPL-2.0
/*
 * synthesize__all from one BPF task iterator instead of /proc's files.
 * Reading /proc costs a few opens and reads per process and the kernel's
 * formatting of every map as text, which perfx then parses; the iterator
 * (bpf/synth-tasks.bpf.c) hands over every task and every wanted map as
 * binary records in a few large reads.  What it cannot give is a map's
 * path (d_path() is not for a VMA's file in an iterator): the path
 * depends on the file's (mount, dentry), which the records carry, so each
 * pair is named once, by PROCMAP_QUERY on that process's maps, and the
 * name kept for the other maps of the same file, in every process.  A
 * file whose inode the query gives other than the record (an overlayfs
 * file, whose maps show the overlay's inode) is asked for every time.
 *
 * The records are perf's, byte for byte what synthesize-proc.c writes:
 * the same maps go through synth_worker__map(); workqueue workers (whose
 * names /proc makes up from more than task->comm: "kworker/0:1-events")
 * and processes the iterator could not walk whole come from /proc itself.
 * Other kernel threads' longer names (get_kthread_comm()) begin with
 * their comm, which is all perf keeps of them.
 *
 * Threads: reader k takes the k-th of as many runs of /proc's list of
 * processes as there are readers, reads the tasks of its run of tgids,
 * builds their records in tgid order in its own buffer with its own cache
 * of names; the buffers are written one after the other at the end, so
 * the bytes are the same for any number of readers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "data.h"
#include "debug.h"
#include "procfs.h"
#include "synthesize-bpf.h"
#include "synthesize-bpf-stream.h"
#include "synthesize-proc.h"
#include "synthesize-record.h"
#include "synth-tasks.lskel.h"

/* include/uapi/linux/fs.h of Linux 6.11, newer than the headers here */
#ifndef PROCMAP_QUERY
struct procmap_query {
	__u64	size;
	__u64	query_flags;
	__u64	query_addr;
	__u64	vma_start;
	__u64	vma_end;
	__u64	vma_flags;
	__u64	vma_page_size;
	__u64	vma_offset;
	__u64	inode;
	__u32	dev_major;
	__u32	dev_minor;
	__u32	vma_name_size;
	__u32	build_id_size;
	__u64	vma_name_addr;
	__u64	build_id_addr;
};
#define PROCMAP_QUERY		_IOWR('f', 17, struct procmap_query)
#endif

/* the kernel's dev_t (include/linux/kdev_t.h) */
#define KDEV_MAJOR(dev)		((dev) >> 20)
#define KDEV_MINOR(dev)		((dev) & 0xfffff)

/* a query's name: d_path()'s limit, PATH_MAX with its NUL */
#define NAME_MAX_QUERY		4096
/* the first read's buffer; it doubles as the stream needs */
#define STREAM_BUF		(256 * 1024)

struct synth_bpf {
	struct synth_tasks_bpf	*skel;
	const struct synth_ctx	*ctx;
	unsigned int		page_shift;
	struct procfs_map	gate;		/* the gate VMA as /proc/self/maps ends */
	char			gate_name[32];
	bool			has_gate;
};

/* A name of a (kind, key, inode) or a file to ask about each time */
struct name_slot {
	__u64		key[3];
	__u64		ino;
	__u32		dev;
	__u32		generation;
	__u32		kind;		/* 0: a free slot */
	bool		ask;		/* the query saw another inode */
	__u32		len;
	size_t		off;		/* in the arena */
};

/* One reader's names: open addressing, the strings in one growing buffer */
struct name_cache {
	struct name_slot	*slots;
	size_t			cap;		/* a power of 2 */
	size_t			nr;
	struct synth_buf	arena;
};

/* One reader: its part of the stream and the records made of it, in order */
struct synth_shard {
	struct synth_bpf	*b;
	const pid_t		*pids;		/* its part of /proc's processes */
	size_t			nr_pids;
	struct synth_bpf_reader	part;		/* tgids from pids[0] to the next part's */
	struct synth_buf	out;
	struct name_cache	names;
	char			name[NAME_MAX_QUERY * 4];	/* a mangled query */
	pid_t			self;		/* getpid(), which is a syscall */
	bool			saw_self;
	int			err;
};

static __u64 name_hash(const struct synth_bpf_vma *v)
{
	__u64 h = v->kind * 0x9e3779b97f4a7c15ULL;
	int i;

	for (i = 0; i < 3; i++)
		h = (h ^ v->key[i]) * 0xff51afd7ed558ccdULL;
	h = (h ^ v->ino ^ ((__u64)v->dev << 32 | v->generation)) * 0xc4ceb9fe1a85ec53ULL;
	return h ^ h >> 29;
}

static bool name_slot__is(const struct name_slot *s, const struct synth_bpf_vma *v)
{
	return s->kind == v->kind && !memcmp(s->key, v->key, sizeof(s->key)) &&
	       s->ino == v->ino && s->dev == v->dev && s->generation == v->generation;
}

static struct name_slot *name_cache__find(struct name_cache *c, const struct synth_bpf_vma *v)
{
	size_t i;

	if (!c->cap)
		return NULL;
	for (i = name_hash(v) & (c->cap - 1); c->slots[i].kind; i = (i + 1) & (c->cap - 1))
		if (name_slot__is(&c->slots[i], v))
			return &c->slots[i];
	return NULL;
}

static int name_cache__grow(struct name_cache *c)
{
	size_t cap = c->cap ? c->cap * 2 : 1024, i, k;
	struct name_slot *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (i = 0; i < c->cap; i++) {
		const struct name_slot *s = &c->slots[i];
		struct synth_bpf_vma v = { .kind = s->kind, .ino = s->ino, .dev = s->dev,
					   .generation = s->generation };

		if (!s->kind)
			continue;
		memcpy(v.key, s->key, sizeof(v.key));
		for (k = name_hash(&v) & (cap - 1); slots[k].kind; k = (k + 1) & (cap - 1))
			;
		slots[k] = *s;
	}
	free(c->slots);
	c->slots = slots;
	c->cap = cap;
	return 0;
}

/* Keeps @name (or that the file is to be asked about each time) for @v */
static int name_cache__add(struct name_cache *c, const struct synth_bpf_vma *v,
			   const char *name, size_t len, bool ask)
{
	struct name_slot *s;
	size_t i;
	int err;

	if ((c->nr + 1) * 2 > c->cap && (err = name_cache__grow(c)))
		return err;
	if (synth_buf__reserve(&c->arena, len))
		return -ENOMEM;
	for (i = name_hash(v) & (c->cap - 1); c->slots[i].kind; i = (i + 1) & (c->cap - 1))
		;
	s = &c->slots[i];
	*s = (struct name_slot){ .ino = v->ino, .dev = v->dev, .generation = v->generation,
				 .kind = v->kind, .ask = ask, .len = len, .off = c->arena.len };
	memcpy(s->key, v->key, sizeof(s->key));
	memcpy(c->arena.p + c->arena.len, name, len);
	c->arena.len += len;
	c->nr++;
	return 0;
}

static void name_cache__exit(struct name_cache *c)
{
	free(c->slots);
	synth_buf__exit(&c->arena);
}

/*
 * seq_path()'s escape of /proc/PID/maps (fs/seq_file.c: mangle_path()
 * with "\n"): the text has "\012" where the path has a newline
 */
static size_t mangle_path(char *dst, const char *src, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (src[i] != '\n') {
			dst[n++] = src[i];
			continue;
		}
		memcpy(dst + n, "\\012", 4);
		n += 4;
	}
	return n;
}

/*
 * Asks /proc/@tgid/maps (opened once per process, *@fd) for the VMA of
 * @v: its name into s->name, and the inode /proc shows.  -EAGAIN when the
 * process or that VMA changed or went since the iterator saw it, or the
 * name is longer than a query gives: the caller reads /proc instead.
 */
static int synth_shard__query(struct synth_shard *s, int *fd, pid_t tgid,
			      const struct synth_bpf_vma *v, size_t *len, __u32 *dev, __u64 *ino)
{
	char raw[NAME_MAX_QUERY], path[32];
	struct procmap_query q = {
		.size = sizeof(q), .query_addr = v->start,
		.vma_name_addr = (unsigned long)raw, .vma_name_size = sizeof(raw),
	};

	if (*fd < 0) {
		snprintf(path, sizeof(path), "%d/maps", tgid);
		*fd = openat(s->b->ctx->procfd, path, O_RDONLY | O_CLOEXEC);
		if (*fd < 0)
			return -EAGAIN;
	}
	if (ioctl(*fd, PROCMAP_QUERY, &q) || q.vma_start != v->start || q.vma_end != v->end)
		return -EAGAIN;
	*dev = q.dev_major << 20 | q.dev_minor;
	*ino = q.inode;
	*len = q.vma_name_size ? q.vma_name_size - 1 : 0;
	/* a path is escaped as the text escapes it; [anon_shmem:NAME] is not */
	if (v->kind == SYNTH_BPF_FILE && !v->key[2])
		*len = mangle_path(s->name, raw, *len);
	else
		memcpy(s->name, raw, *len);
	return 0;
}

/* The line /proc/@tgid/maps shows for @v, its name in the cache or s->name */
static int synth_shard__map(struct synth_shard *s, int *fd, pid_t tgid,
			    const struct synth_bpf_vma *v, struct procfs_map *m)
{
	struct name_slot *slot = NULL;
	__u32 dev = v->dev;
	__u64 ino = v->ino;
	size_t len = 0;
	int err;

	*m = (struct procfs_map){
		.start = v->start, .end = v->end, .path = s->name,
		.prot = (v->vm_flags & SYNTH_BPF_VM_READ ? PROT_READ : 0) |
			(v->vm_flags & SYNTH_BPF_VM_WRITE ? PROT_WRITE : 0) |
			(v->vm_flags & SYNTH_BPF_VM_EXEC ? PROT_EXEC : 0),
		.flags = v->vm_flags & SYNTH_BPF_VM_MAYSHARE ? MAP_SHARED : MAP_PRIVATE,
	};
	switch (v->kind) {
	case SYNTH_BPF_ANON:
		break;
	case SYNTH_BPF_HEAP:
	case SYNTH_BPF_STACK:
		m->path = v->kind == SYNTH_BPF_HEAP ? "[heap]" : "[stack]";
		len = strlen(m->path);
		break;
	case SYNTH_BPF_NAMED:
		err = synth_shard__query(s, fd, tgid, v, &len, &dev, &ino);
		if (err)
			return err;
		break;
	default:	/* a file or a special mapping: named once */
		slot = name_cache__find(&s->names, v);
		if (slot && !slot->ask) {
			m->path = s->names.arena.p + slot->off;
			len = slot->len;
			break;
		}
		err = synth_shard__query(s, fd, tgid, v, &len, &dev, &ino);
		if (!err && !slot)
			err = name_cache__add(&s->names, v, s->name, len,
					      dev != v->dev || ino != v->ino);
		if (err)
			return err;
		break;
	}
	m->path_len = len;
	if (v->kind == SYNTH_BPF_FILE) {
		m->pgoff = v->pgoff << s->b->page_shift;
		m->maj = KDEV_MAJOR(dev);
		m->min = KDEV_MINOR(dev);
		m->ino = ino;
	}
	return 0;
}

/* FORK and COMM of one task; perf's parent of a thread is its leader */
static int synth_shard__task(struct synth_shard *s, const struct synth_bpf_task *t,
			     const struct synth_bpf_task *leader)
{
	char comm[PROCFS_COMM_LEN];
	int ppid = t == leader ? leader->ppid : leader->tgid;
	int err;

	procfs__comm(comm, t->comm, strnlen(t->comm, sizeof(t->comm)));
	err = synth_buf__fork(&s->out, t->tgid, ppid, t->tid, ppid);
	return err ? err : synth_buf__comm(&s->out, t->tgid, t->tid, comm);
}

/* The leader's FORK, COMM and maps, as synth_worker__process() writes them */
static int synth_shard__leader(struct synth_shard *s, struct synth_worker *wk,
			       const struct synth_bpf_entry *e)
{
	const struct synth_bpf_task *t = e->task;
	struct procfs_map m;
	int err, fd = -1;
	__u32 i;

	err = synth_shard__task(s, t, t);
	for (i = 0; !err && i < t->nr_vmas; i++) {
		err = synth_shard__map(s, &fd, t->tgid, &e->vmas[i], &m);
		if (!err)
			err = synth_worker__map(wk, t->tgid, &m, false);
	}
	if (!err && (t->flags & SYNTH_BPF_GATE) && s->b->has_gate)
		err = synth_worker__map(wk, t->tgid, &s->b->gate, false);
	if (fd >= 0)
		close(fd);
	return err;
}

/* Process @e[0] (its leader, if it has one) and its threads @e[1..@nr) */
static int synth_shard__process(struct synth_shard *s, struct synth_worker *wk,
				const struct synth_bpf_entry *e, size_t nr)
{
	const struct synth_bpf_task *leader = e[0].task;
	size_t off = s->out.len, i;
	unsigned int nr_records = s->out.nr;
	int err = 0;

	s->saw_self |= leader->tgid == s->self;
	/* no leader in the stream: it has gone, yet /proc may show it */
	if (leader->tid != leader->tgid ||
	    (leader->flags & (SYNTH_BPF_WQ_WORKER | SYNTH_BPF_PARTIAL))) {
		err = synth_worker__process(wk, leader->tgid);
	} else {
		err = synth_shard__leader(s, wk, e);
		for (i = 1; !err && i < nr; i++)
			err = synth_shard__task(s, e[i].task, leader);
		if (err == -EAGAIN) {	/* it changed since: /proc's way */
			synth_buf__rewind(&s->out, off, nr_records);
			err = synth_worker__process(wk, leader->tgid);
		}
	}
	return err;
}

/* This thread's part of the stream: *@buf (the caller frees it) */
static int synth_shard__read(struct synth_shard *s, char **buf, size_t *len)
{
	struct synth_tasks_bpf *skel = s->b->skel;
	size_t cap = STREAM_BUF;
	int link, fd, err = 0;
	union bpf_attr attr;
	__u32 tid = gettid();
	ssize_t n;
	char *p;

	if (skel_map_update_elem(skel->maps.readers.map_fd, &tid, &s->part, BPF_ANY))
		return -errno;
	link = skel_link_create(skel->progs.synth_tasks.prog_fd, 0, BPF_TRACE_ITER);
	if (link < 0)
		return -errno;
	memset(&attr, 0, sizeof(attr));
	attr.iter_create.link_fd = link;
	fd = skel_sys_bpf(BPF_ITER_CREATE, &attr, sizeof(attr));
	if (fd < 0) {
		err = -errno;
		goto out_link;
	}
	*len = 0;
	*buf = malloc(cap);
	while (*buf) {
		if (*len == cap) {
			p = realloc(*buf, cap *= 2);
			if (!p)
				break;
			*buf = p;
		}
		n = read(fd, *buf + *len, cap - *len);
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			goto out_fd;
		}
		*len += n;
	}
	err = -ENOMEM;
out_fd:
	close(fd);
out_link:
	close(link);
	return err;
}

/*
 * This reader's processes of /proc's list, from the stream where it has
 * them and from /proc where it does not: the iterator may not show every
 * task /proc does (a kernel may hide some from it), and the records are
 * of what /proc lists, as synthesize-proc.c's are.
 */
static int synth_shard__walk(struct synth_shard *s, struct synth_worker *wk,
			     const struct synth_bpf_entry *e, size_t nr)
{
	size_t i = 0, k, p;
	int err = 0;

	for (p = 0; !err && p < s->nr_pids; p++) {
		pid_t pid = s->pids[p];

		while (i < nr && e[i].task->tgid < pid)
			i++;
		for (k = i; k < nr && e[k].task->tgid == pid; k++)
			;
		if (k > i)
			err = synth_shard__process(s, wk, e + i, k - i);
		else
			err = synth_worker__process(wk, pid);
		i = k;
	}
	return err;
}

static int synth_shard__run(struct synth_shard *s)
{
	struct synth_bpf_entry *e = NULL;
	struct synth_worker wk;
	size_t len, nr = 0, bad;
	char *buf = NULL;
	int err;

	err = synth_worker__init(&wk, s->b->ctx, &s->out);
	if (err)
		return err;
	err = synth_shard__read(s, &buf, &len);
	if (!err) {
		err = synth_bpf__parse(buf, len, &e, &nr, &bad);
		if (err == -EINVAL)
			pr_debug("synthesis: the BPF stream is wrong at byte %zu of %zu\n", bad, len);
	}
	/* about what the records take for what the stream holds: no regrowing */
	if (!err)
		err = synth_buf__reserve(&s->out, 2 * len);
	if (!err)
		err = synth_shard__walk(s, &wk, e, nr);
	free(e);
	free(buf);
	synth_worker__exit(&wk);
	return err;
}

static void *synth_shard__thread(void *arg)
{
	struct synth_shard *s = arg;

	s->err = synth_shard__run(s);
	return NULL;
}

static void synth_shard__exit(struct synth_shard *s)
{
	synth_buf__exit(&s->out);
	name_cache__exit(&s->names);
}

/* Writes the parts in order, which is /proc's: the records, or -errno */
static int synth_bpf__merge(struct synth_shard *shards, unsigned int nr,
			    struct perfx_writer *w, bool *wrote)
{
	unsigned int i, records = 0;
	int err = 0;

	for (i = 0; !err && i < nr; i++) {
		if (!shards[i].out.len)
			continue;
		*wrote = true;
		err = perfx_writer__write(w, shards[i].out.p, shards[i].out.len);
		records += shards[i].out.nr;
	}
	return err ? err : (int)records;
}

/* The last line of our own maps if it is the gate VMA, which every 64-bit process shows */
static int synth_bpf__find_gate(struct synth_bpf *b, char *buf)
{
	struct procfs_reader r;
	struct procfs_map m;
	const char *line;
	size_t len;
	int err;

	err = procfs_reader__open(&r, b->ctx->procfd, "self/maps", buf, SYNTH_MAPS_BUF);
	if (err)
		return err;
	while ((err = procfs_reader__line(&r, &line, &len)) > 0)
		if (!procfs__parse_map(line, len, &m) && m.path_len < sizeof(b->gate_name)) {
			memcpy(b->gate_name, m.path, m.path_len);
			b->gate = m;
			b->gate.path = b->gate_name;
		}
	procfs_reader__close(&r);
	b->has_gate = b->gate.path_len == 10 && !memcmp(b->gate_name, "[vsyscall]", 10);
	return err;
}

/* PROCMAP_QUERY on our own maps: -ENOTTY before Linux 6.11 */
static int synth_bpf__can_query(const struct synth_bpf *b)
{
	struct procmap_query q = {
		.size = sizeof(q), .query_addr = (unsigned long)synth_bpf__can_query,
	};
	int fd, err = 0;

	fd = openat(b->ctx->procfd, "self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, PROCMAP_QUERY, &q))
		err = -errno;
	close(fd);
	return err;
}

/* CAP_SYS_PTRACE: what lets /proc show every process's maps */
static bool may_read_all_maps(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[CAP_TO_INDEX(CAP_SYS_PTRACE)].effective & CAP_TO_MASK(CAP_SYS_PTRACE);
}

static void synth_bpf__exit(struct synth_bpf *b)
{
	synth_tasks_bpf__destroy(b->skel);
}

static int synth_bpf__init(struct synth_bpf *b, const struct synth_ctx *ctx, bool data_mmaps)
{
	char *buf;
	int err;

	*b = (struct synth_bpf){
		.ctx = ctx, .page_shift = __builtin_ctzl(sysconf(_SC_PAGESIZE)),
	};
	if (ctx->opts->root)
		return -EINVAL;		/* a fake tree has no tasks to iterate */
	if (!may_read_all_maps())
		return -EPERM;
	err = synth_bpf__can_query(b);
	if (err)
		return err;
	buf = malloc(SYNTH_MAPS_BUF);
	if (!buf)
		return -ENOMEM;
	err = synth_bpf__find_gate(b, buf);
	free(buf);
	if (err)
		return err;
	b->skel = synth_tasks_bpf__open();
	if (!b->skel)
		return -ENOMEM;
	if (synth_tasks_bpf__load(b->skel)) {
		err = -errno;
		synth_bpf__exit(b);
		return err ? err : -EINVAL;
	}
	b->skel->bss->data_mmaps = data_mmaps;
	return 0;
}

int synth_bpf__all(const struct synth_ctx *ctx, struct perfx_writer *w, const pid_t *pids,
		   size_t nr_pids, unsigned int nr_threads, bool *wrote)
{
	struct synth_shard *shards;
	pthread_t *threads;
	unsigned int i, started = 0;
	struct synth_bpf b;
	bool self = false;
	int err;

	*wrote = false;
	if (nr_threads > SYNTH_BPF_SHARDS_MAX)
		nr_threads = SYNTH_BPF_SHARDS_MAX;
	if (nr_threads > nr_pids)
		nr_threads = nr_pids ?: 1;
	err = synth_bpf__init(&b, ctx, ctx->opts->data_mmaps);
	if (err)
		return err;
	shards = calloc(nr_threads, sizeof(*shards));
	threads = calloc(nr_threads, sizeof(*threads));
	if (!shards || !threads) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr_threads; i++) {
		size_t from = nr_pids * i / nr_threads, to = nr_pids * (i + 1) / nr_threads;

		shards[i] = (struct synth_shard){
			.b = &b, .pids = pids + from, .nr_pids = to - from, .self = getpid(),
			.part = {
				.index = i, .lo = i ? pids[from] : 0,
				.hi = i + 1 < nr_threads ? pids[to] : INT_MAX,
			},
		};
		synth_buf__init(&shards[i].out, ctx->opts->id_hdr_size);
	}
	for (i = 1; i < nr_threads; i++) {
		if (pthread_create(&threads[i], NULL, synth_shard__thread, &shards[i])) {
			err = -EAGAIN;
			break;
		}
		started++;
	}
	if (!err)
		synth_shard__thread(&shards[0]);
	for (i = 1; i <= started; i++)
		pthread_join(threads[i], NULL);
	for (i = 0; !err && i < nr_threads; i++) {
		err = shards[i].err;
		self |= shards[i].saw_self;
	}
	/* not in the stream: another pid namespace's ids, which /proc does not show */
	if (!err && !self)
		err = -ESRCH;
	if (!err)
		err = synth_bpf__merge(shards, nr_threads, w, wrote);
out:
	for (i = 0; shards && i < nr_threads; i++)
		synth_shard__exit(&shards[i]);
	free(shards);
	free(threads);
	synth_bpf__exit(&b);
	return err;
}

ssize_t synth_bpf__floor(void)
{
	struct synthesize_opts opts = { 0 };
	struct synth_shard s = { .part = { .lo = 0, .hi = INT_MAX } };
	struct synth_ctx ctx = { .opts = &opts };
	struct synth_bpf b;
	size_t len = 0;
	char *buf = NULL;
	int err;

	ctx.procfd = synth__open_proc(&opts);
	if (ctx.procfd < 0)
		return ctx.procfd;
	err = synth_bpf__init(&b, &ctx, false);
	if (!err) {
		s.b = &b;
		err = synth_shard__read(&s, &buf, &len);
		free(buf);
		synth_bpf__exit(&b);
	}
	close(ctx.procfd);
	return err ? err : (ssize_t)len;
}
