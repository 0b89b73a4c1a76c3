/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fake-ring.h - a perf ring buffer laid out as the kernel's (the control
 * page, struct perf_event_mmap_page, then 2^n data pages) in anonymous
 * memory, and written as the kernel writes it (kernel/events/ring_buffer.c):
 * records copied in at the head, wrapping at the end of the data, then
 * data_head published with release semantics; the free space is what
 * data_tail, read with acquire semantics, says the reader gave back.  The
 * reader's unit tests drive lib/ring.c and lib/record-rings.c on it,
 * without perf_event_open().
 *
 * Its records: a perf_event_header, a sequence number, and each byte after
 * it (seq + i) & 0xff, so that a record read torn, shifted or overwritten
 * shows.
 */
#ifndef __PERFX_FAKE_RING_H
#define __PERFX_FAKE_RING_H

#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/ring.h"

struct fake_ring {
	struct perf_event_mmap_page	*pc;
	char				*data;
	size_t				size;	/* data bytes */
	__u64				head;	/* written, published or not */
};

#define FAKE_RECORD_MIN	(sizeof(struct perf_event_header) + sizeof(__u64))

/*
 * A ring of @pages data pages whose head and tail are at @pos (a ring
 * that has carried @pos bytes so far), read by @m; NULL if mmap() fails.
 * perfx_ring__unmap(@m) unmaps it.
 */
static inline void *fake_ring__new(struct fake_ring *f, struct perfx_ring *m, unsigned int pages,
				   __u64 pos)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *base = mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (base == MAP_FAILED)
		return NULL;
	f->pc = base;
	f->data = (char *)base + page;
	f->size = pages * page;
	f->head = pos;
	f->pc->data_offset = page;
	f->pc->data_size = f->size;
	f->pc->data_head = f->pc->data_tail = pos;
	perfx_ring__init(m, base, pages, -1);
	return base;
}

/* The bytes the reader has not given back yet, as the kernel sees them. */
static inline __u64 fake_ring__used(const struct fake_ring *f)
{
	return f->head - __atomic_load_n(&f->pc->data_tail, __ATOMIC_ACQUIRE);
}

static inline void fake_ring__put(struct fake_ring *f, const void *p, size_t len)
{
	size_t from = f->head & (f->size - 1), first = len;

	if (from + len > f->size)
		first = f->size - from;
	memcpy(f->data + from, p, first);
	memcpy(f->data, (const char *)p + first, len - first);
	f->head += len;
}

/* A record of @size bytes (a multiple of 8, FAKE_RECORD_MIN at least) */
static inline void fake_ring__record(struct fake_ring *f, __u64 seq, size_t size)
{
	struct perf_event_header h = { .type = PERF_RECORD_SAMPLE, .size = size };
	unsigned char fill[256];
	size_t i, k, n;

	fake_ring__put(f, &h, sizeof(h));
	fake_ring__put(f, &seq, sizeof(seq));
	for (i = 0; i < size - FAKE_RECORD_MIN; i += n) {
		n = size - FAKE_RECORD_MIN - i;
		if (n > sizeof(fill))
			n = sizeof(fill);
		for (k = 0; k < n; k++)
			fill[k] = (seq + i + k) & 0xff;
		fake_ring__put(f, fill, n);
	}
}

/* What was written so far becomes the reader's: data before the head. */
static inline void fake_ring__publish(struct fake_ring *f)
{
	__atomic_store_n(&f->pc->data_head, f->head, __ATOMIC_RELEASE);
}

/*
 * Checks the record at @p, @len bytes left: its size, or 0 if it is not
 * whole, not record @seq, or a byte of it is wrong.
 */
static inline size_t fake_record__check(const void *p, size_t len, __u64 seq)
{
	const struct perf_event_header *h = p;
	const unsigned char *b = p;
	__u64 got;
	size_t i;

	if (len < FAKE_RECORD_MIN || h->size < FAKE_RECORD_MIN || h->size > len ||
	    h->type != PERF_RECORD_SAMPLE)
		return 0;
	memcpy(&got, b + sizeof(*h), sizeof(got));
	if (got != seq)
		return 0;
	for (i = 0; i < h->size - FAKE_RECORD_MIN; i++)
		if (b[FAKE_RECORD_MIN + i] != ((seq + i) & 0xff))
			return 0;
	return h->size;
}

/*
 * Checks that @p[@len] is records @seq, @seq + 1, ... exactly: how many,
 * or -1 at the first that is wrong.
 */
static inline int fake_records__check(const void *p, size_t len, __u64 seq)
{
	size_t off = 0, n;
	int nr = 0;

	while (off < len) {
		n = fake_record__check((const char *)p + off, len - off, seq + nr);
		if (!n)
			return -1;
		off += n;
		nr++;
	}
	return nr;
}

#endif /* __PERFX_FAKE_RING_H */
