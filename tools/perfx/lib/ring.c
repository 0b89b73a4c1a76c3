// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a perf ring buffer, as perf's util/mmap.c does: the head is
 * read with acquire semantics before the data, the tail written with
 * release semantics after it (the kernel's side of the protocol is in
 * kernel/events/ring_buffer.c).
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "ring.h"

int perfx_ring__map(struct perfx_ring *m, int fd, unsigned int pages)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	void *base;

	if (!pages || (pages & (pages - 1)))
		return -EINVAL;
	base = mmap(NULL, (pages + 1) * page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		    fd, 0);
	if (base == MAP_FAILED) {
		m->base = NULL;
		return -errno;
	}
	perfx_ring__init(m, base, pages, fd);
	return 0;
}

void perfx_ring__init(struct perfx_ring *m, void *base, unsigned int pages, int fd)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	m->base = base;
	m->len = (pages + 1) * page;
	m->data = (char *)base + page;
	m->mask = pages * page - 1;
	m->fd = fd;
	m->start = m->end = 0;
}

void perfx_ring__unmap(struct perfx_ring *m)
{
	if (m->base)
		munmap(m->base, m->len);
	m->base = NULL;
}

__u64 perfx_ring__start_pass(struct perfx_ring *m)
{
	struct perf_event_mmap_page *pc = m->base;

	m->start = __atomic_load_n(&pc->data_tail, __ATOMIC_RELAXED);
	m->end = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	return m->end - m->start;
}

int perfx_ring__push(struct perfx_ring *m, int (*push)(void *arg, const void *p, size_t len),
		    void *arg)
{
	size_t from = m->start & m->mask, len = m->end - m->start;
	size_t first = len;
	int err;

	if (!len)
		return 0;
	if (from + len > m->mask + 1)
		first = m->mask + 1 - from;
	err = push(arg, m->data + from, first);
	if (!err && first < len)
		err = push(arg, m->data, len - first);
	return err;
}

void perfx_ring__consume(struct perfx_ring *m)
{
	struct perf_event_mmap_page *pc = m->base;

	__atomic_store_n(&pc->data_tail, m->end, __ATOMIC_RELEASE);
	m->start = m->end;
}
