// SPDX-License-Identifier: GPL-2.0
/* The synthesized records' layouts (include/uapi/linux/perf_event.h). */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "synthesize-record.h"

#define ALIGN8(x)	(((x) + 7) & ~(size_t)7)

void synth_buf__init(struct synth_buf *b, __u16 id_hdr_size)
{
	*b = (struct synth_buf){ .id_hdr_size = id_hdr_size };
}

void synth_buf__exit(struct synth_buf *b)
{
	free(b->p);
	synth_buf__init(b, b->id_hdr_size);
}

void synth_buf__rewind(struct synth_buf *b, size_t len, unsigned int nr)
{
	b->len = len;
	b->nr = nr;
}

int synth_buf__reserve(struct synth_buf *b, size_t size)
{
	size_t cap = b->cap ? b->cap : 16384;
	unsigned long from, to;
	char *p;

	if (b->len + size <= b->cap)
		return 0;
	while (cap < b->len + size)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p)
		return -ENOMEM;
	/*
	 * The new pages in one call rather than a fault each as records
	 * reach them: in a VM a fault costs the hypervisor too, and the
	 * profile of synthesis put a twentieth of its time on the first
	 * write to each page (best effort: Linux 5.14)
	 */
	from = ((unsigned long)p + b->len + 4095) & ~4095UL;
	to = ((unsigned long)p + cap) & ~4095UL;
	if (to > from)
		madvise((void *)from, to - from, MADV_POPULATE_WRITE);
	b->p = p;
	b->cap = cap;
	return 0;
}

/*
 * A record of @body bytes after its header plus the trailer, its header
 * filled and all after the first @filled bytes of the body zeroed (the
 * caller writes those): where to write the body, or NULL without memory.
 */
static void *synth_buf__add(struct synth_buf *b, __u32 type, __u16 misc, size_t body,
			    size_t filled)
{
	struct perf_event_header h = { .type = type, .misc = misc };
	size_t size = sizeof(h) + body + b->id_hdr_size;
	char *p;

	if (synth_buf__reserve(b, size))
		return NULL;
	p = b->p + b->len;
	memset(p + sizeof(h) + filled, 0, size - sizeof(h) - filled);
	h.size = size;
	memcpy(p, &h, sizeof(h));
	b->len += size;
	b->nr++;
	return p + sizeof(h);
}

int synth_buf__comm(struct synth_buf *b, __u32 pid, __u32 tid, const char *comm)
{
	size_t len = strlen(comm) + 1;
	__u32 ids[2] = { pid, tid };
	char *p = synth_buf__add(b, PERF_RECORD_COMM, 0, sizeof(ids) + ALIGN8(len),
				 sizeof(ids) + len);

	if (!p)
		return -ENOMEM;
	memcpy(p, ids, sizeof(ids));
	memcpy(p + sizeof(ids), comm, len);
	return 0;
}

int synth_buf__fork(struct synth_buf *b, __u32 pid, __u32 ppid, __u32 tid, __u32 ptid)
{
	__u32 ids[4] = { pid, ppid, tid, ptid };
	char *p = synth_buf__add(b, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC,
				 sizeof(ids) + sizeof(__u64), sizeof(ids));

	if (!p)
		return -ENOMEM;
	memcpy(p, ids, sizeof(ids));
	return 0;
}

/* the name as the record holds it: cut to perf's field */
static size_t name_len(const struct synth_mmap *m)
{
	return m->name_len < SYNTH_NAME_MAX ? m->name_len : SYNTH_NAME_MAX;
}

/* an MMAP or MMAP2 record: @body, then @m's name padded to 8 bytes */
static int synth_buf__add_mmap(struct synth_buf *b, __u32 type, const struct synth_mmap *m,
			       const void *body, size_t size)
{
	char *p = synth_buf__add(b, type, m->misc, size + ALIGN8(name_len(m) + 1),
				 size + name_len(m));

	if (!p)
		return -ENOMEM;
	memcpy(p, body, size);
	memcpy(p + size, m->name, name_len(m));
	return 0;
}

int synth_buf__mmap2(struct synth_buf *b, const struct synth_mmap *m)
{
	struct {
		__u32 pid, tid;
		__u64 start, len, pgoff;
		__u32 maj, min;
		__u64 ino, ino_generation;
		__u32 prot, flags;
	} body = {
		m->pid, m->tid, m->start, m->len, m->pgoff, m->maj, m->min, m->ino, 0,
		m->prot, m->flags,
	};

	return synth_buf__add_mmap(b, PERF_RECORD_MMAP2, m, &body, sizeof(body));
}

int synth_buf__mmap(struct synth_buf *b, const struct synth_mmap *m)
{
	struct {
		__u32 pid, tid;
		__u64 start, len, pgoff;
	} body = { m->pid, m->tid, m->start, m->len, m->pgoff };

	return synth_buf__add_mmap(b, PERF_RECORD_MMAP, m, &body, sizeof(body));
}
