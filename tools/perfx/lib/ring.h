/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_RING_H
#define __PERFX_RING_H

#include <linux/perf_event.h>
#include <stddef.h>

/*
 * One perf ring buffer: the control page and 2^n data pages the kernel
 * writes records into.  The reader takes [tail, head) in one pass: the
 * kernel only moves head past whole records, so a pass is whole records,
 * in at most two pieces where it wraps.
 */
struct perfx_ring {
	void	*base;
	char	*data;		/* base + one page */
	size_t	len;		/* the mapping: control page + data */
	size_t	mask;		/* data size - 1 */
	int	fd;
	__u64	start;		/* this pass: from the tail... */
	__u64	end;		/* ...to the head read at its start */
};

/*
 * Map @fd's ring buffer of @pages data pages (a power of 2).  The kernel
 * allocates the pages in mmap() (on the node of the event's CPU); they are
 * mapped here at once (MAP_POPULATE), with page tables from the caller's
 * node, rather than by faults in the first passes over the ring.
 */
int perfx_ring__map(struct perfx_ring *m, int fd, unsigned int pages);
/*
 * The ring mapped at @base, a control page and @pages data pages (a power
 * of 2): what perfx_ring__map() does once mmap() returned, and how the unit
 * tests read a ring they lay out themselves, without perf_event_open().
 * perfx_ring__unmap() munmap()s it.
 */
void perfx_ring__init(struct perfx_ring *m, void *base, unsigned int pages, int fd);
void perfx_ring__unmap(struct perfx_ring *m);
/* Start a pass over what the kernel wrote so far; returns its bytes. */
__u64 perfx_ring__start_pass(struct perfx_ring *m);
/*
 * Hands the pass to @push in one or two pieces of whole records (two
 * where it wraps: then a record may be split between them).  Stops at
 * @push's first error, which is returned.
 */
int perfx_ring__push(struct perfx_ring *m, int (*push)(void *arg, const void *p, size_t len),
		    void *arg);
/* Give the pass's bytes back to the kernel. */
void perfx_ring__consume(struct perfx_ring *m);

#endif /* __PERFX_RING_H */
