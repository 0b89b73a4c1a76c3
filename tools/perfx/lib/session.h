/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SESSION_H
#define __PERFX_SESSION_H

#include "data.h"
#include "header.h"

/* An id of the attrs' hash table; an empty slot has no attr. */
struct perfx_session_id {
	__u64				id;
	const struct perfx_attr		*attr;
};

/*
 * A perf.data file or pipe being read: its header (attrs and features,
 * from the file header or from a pipe's HEADER_ATTR / HEADER_FEATURE
 * records as they pass) and its records, in place.
 */
struct perfx_session {
	const char		*name;
	struct perfx_reader	reader;
	struct perfx_header	header;
	int			sample_attrs;	/* attrs the sample layout is for */
	__u64			sample_type;	/* theirs, if they agree */
	bool			by_id;		/* else: find the attr by the sample's id */
	bool			id_all;		/* all have sample_id_all */
	struct perfx_session_id	*ids;		/* by_id: the attrs by id, hashed */
	size_t			ids_mask;
	/* a pipe's last TRACING_DATA record, its data in the header's feature */
	char			tracing_rec[PERFX_TRACING_DATA_RECORD] __attribute__((aligned(8)));
	/* the data after the last TRACING_DATA or AUXTRACE record: the record,
	 * what its data is, where it is, the data's size and what is unread */
	const char		*payload_rec;
	const char		*payload_what;
	__u64			payload_pos;
	__u64			payload_size;
	__u64			payload_left;
};

/* What inject needs of a sample: where and when it hit. */
struct perfx_sample {
	__u64	ip;
	__u64	time;		/* ~0 without PERF_SAMPLE_TIME: after everything */
	__u32	pid;
	__u32	tid;
	__u16	cpumode;
	bool	has_ip;
	/* PERF_SAMPLE_CALLCHAIN's u64s, in the record (at any alignment) */
	const void	*callchain;
	__u64		nr_callchain;
};

int perfx_session__open(struct perfx_session *s, int fd, const char *name);
/*
 * The records in [@start, @end) of a file being written, whose header is
 * not final yet: @h gives the attrs.
 */
int perfx_session__open_range(struct perfx_session *s, int fd, const char *name,
			      const struct perfx_header *h, __u64 start, __u64 end);
void perfx_session__close(struct perfx_session *s);
/*
 * As perfx_reader__next(), and a pipe's attrs and features are kept; so
 * is the tracing data that follows a pipe's TRACING_DATA record, whose
 * record *@ev then points to a copy of (the data is not in its size).
 * The trace data that follows an AUXTRACE record (not in its size either)
 * is read with perfx_session__payload(), or skipped by the next call.
 */
int perfx_session__next(struct perfx_session *s, const struct perf_event_header **ev,
			__u64 *pos);
/*
 * The next block of the data after the last AUXTRACE record, at *@p
 * (valid until the next call) for *@n bytes: 1; 0 once it is all read.
 * The AUXTRACE record perfx_session__next() gave is invalid after it.
 */
int perfx_session__payload(struct perfx_session *s, const void **p, size_t *n);
int perfx_session__parse_sample(struct perfx_session *s, const struct perf_event_header *ev,
				__u64 pos, struct perfx_sample *sample);
/*
 * The time in the sample_id fields of a kernel record other than a SAMPLE
 * (an MMAP, a FORK): 0 without sample_id_all or PERF_SAMPLE_TIME, as if
 * before everything, like perf's synthesized records.
 */
int perfx_session__record_time(struct perfx_session *s, const struct perf_event_header *ev,
			       __u64 pos, __u64 *time);

/* A u64 of a record at any alignment */
static inline __u64 perfx__get_u64(const void *p)
{
	__u64 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static inline __u32 perfx__get_u32(const void *p)
{
	__u32 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

#endif /* __PERFX_SESSION_H */
