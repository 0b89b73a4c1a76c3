/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stream.h - perf.data streams built record by record in memory, for the
 * unit tests of what reads them.
 */
#ifndef __PERFX_TESTS_STREAM_H
#define __PERFX_TESTS_STREAM_H

#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

/* A growing byte buffer the streams are built in. */
struct buf {
	char	*p;
	size_t	len;
	size_t	alloc;
};

static inline void put(struct buf *b, const void *p, size_t len)
{
	if (!len)
		return;
	if (b->len + len > b->alloc) {
		b->alloc = 2 * (b->len + len);
		b->p = realloc(b->p, b->alloc);
	}
	if (!b->p)
		abort();
	memcpy(b->p + b->len, p, len);
	b->len += len;
}

static inline void put_rec(struct buf *b, __u32 type, __u16 misc, const void *body, size_t len)
{
	struct perf_event_header h = { type, misc, sizeof(h) + len };

	put(b, &h, sizeof(h));
	put(b, body, len);
}

#endif /* __PERFX_TESTS_STREAM_H */
