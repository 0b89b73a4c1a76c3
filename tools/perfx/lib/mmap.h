/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_MMAP_H
#define __PERFX_MMAP_H

#include <linux/perf_event.h>
#include <stddef.h>

/*
 * One perf ring buffer: the control page and 2^n data pages the kernel
 * writes records into.  The reader takes [tail, head) in one pass: the
 * kernel only moves head past whole records, so a pass is whole records,
 * in at most two pieces where it wraps.
 */
struct perf_mmap {
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
int perf_mmap__map(struct perf_mmap *m, int fd, unsigned int pages);
/*
 * The ring mapped at @base, a control page and @pages data pages (a power
 * of 2): what perf_mmap__map() does once mmap() returned, and how the unit
 * tests read a ring they lay out themselves, without perf_event_open().
 * perf_mmap__unmap() munmap()s it.
 */
void perf_mmap__init(struct perf_mmap *m, void *base, unsigned int pages, int fd);
void perf_mmap__unmap(struct perf_mmap *m);
/* Start a pass over what the kernel wrote so far; returns its bytes. */
__u64 perf_mmap__read_init(struct perf_mmap *m);
/*
 * Hands the pass to @push in one or two pieces of whole records (two
 * where it wraps: then a record may be split between them).  Stops at
 * @push's first error, which is returned.
 */
int perf_mmap__push(struct perf_mmap *m, int (*push)(void *arg, const void *p, size_t len),
		    void *arg);
/* Give the pass's bytes back to the kernel. */
void perf_mmap__consume(struct perf_mmap *m);

#endif /* __PERFX_MMAP_H */
