// SPDX-License-Identifier: GPL-2.0
/*
 * The sample_id fields of records, by their sample_type (perf's
 * evsel__id_hdr_size(), perf_evsel__parse_id_sample() and
 * perf_event__synthesize_id_sample()).
 */
#include <errno.h>
#include <string.h>

#include "sample-id.h"
#include "util.h"

/* the trailer's fields, in the order the kernel writes them, each a u64 */
static const __u64 trailer_fields[] = {
	PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
	PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
};

/* a SAMPLE's u64 fields before READ, in the order the kernel writes them */
static const __u64 sample_fields[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME,
	PERF_SAMPLE_ADDR, PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
	PERF_SAMPLE_PERIOD,
};

/* 8 bytes per field of @type in @fields before @field (all when not there) */
static size_t fields__offset(const __u64 *fields, size_t nr, __u64 type, __u64 field)
{
	size_t i, off = 0;

	for (i = 0; i < nr && fields[i] != field; i++)
		off += type & fields[i] ? 8 : 0;
	return off;
}

size_t sample_id__offset(__u64 sample_type, __u64 field)
{
	return fields__offset(trailer_fields, ARRAY_SIZE(trailer_fields), sample_type, field);
}

__u16 sample_id__hdr_size(__u64 sample_type)
{
	return sample_id__offset(sample_type, 0);
}

size_t sample_id__sample_offset(__u64 sample_type, __u64 field)
{
	return fields__offset(sample_fields, ARRAY_SIZE(sample_fields), sample_type, field);
}

int sample_id__trailer(const struct perf_event_header *ev, __u64 sample_type,
		       const char **trailer)
{
	__u16 size = sample_id__hdr_size(sample_type);

	if (ev->size < sizeof(*ev) + size)
		return -EINVAL;
	*trailer = (const char *)ev + ev->size - size;
	return 0;
}

int sample_id__identifier(const struct perf_event_header *ev, __u64 *id)
{
	if (ev->size < sizeof(*ev) + sizeof(*id))
		return -EINVAL;
	memcpy(id, (const char *)ev + ev->size - sizeof(*id), sizeof(*id));
	return 0;
}

int sample_id__sample_identifier(const struct perf_event_header *ev, __u64 *id)
{
	if (ev->size < sizeof(*ev) + sizeof(*id))
		return -EINVAL;
	memcpy(id, ev + 1, sizeof(*id));
	return 0;
}

void sample_id__put_id(void *trailer, __u64 sample_type, __u64 id)
{
	__u64 field = sample_type & PERF_SAMPLE_IDENTIFIER ?: sample_type & PERF_SAMPLE_ID;

	if (field)
		memcpy((char *)trailer + sample_id__offset(sample_type, field), &id, sizeof(id));
}
