/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SAMPLE_ID_H
#define __PERFX_SAMPLE_ID_H

/*
 * The sample_id fields: what sample_id_all appends to every record but a
 * SAMPLE (TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER: the "trailer"), and
 * a SAMPLE's own u64 fields before READ, by a sample_type.
 */
#include <linux/perf_event.h>
#include <stddef.h>

/* The trailer's size for @sample_type. */
__u16 sample_id__hdr_size(__u64 sample_type);
/*
 * The byte offset of @field (one PERF_SAMPLE_* bit) in the trailer of
 * @sample_type, or its size when @field is not one of the trailer's.
 */
size_t sample_id__offset(__u64 sample_type, __u64 field);
/*
 * The byte offset of @field in a SAMPLE's body of @sample_type, counting
 * the u64 fields before it (IDENTIFIER to PERIOD); READ's for READ and
 * CALLCHAIN, whatever follows it.
 */
size_t sample_id__sample_offset(__u64 sample_type, __u64 field);

/*
 * The trailer of @ev, a non-sample record of @sample_type: 0 and its
 * start in *@trailer, or -EINVAL when @ev is too small to hold it.
 */
int sample_id__trailer(const struct perf_event_header *ev, __u64 sample_type,
		       const char **trailer);
/* IDENTIFIER's id, the last u64 of @ev, a non-sample record: 0 or -EINVAL */
int sample_id__identifier(const struct perf_event_header *ev, __u64 *id);
/* IDENTIFIER's id, the first u64 of @ev, a SAMPLE: 0 or -EINVAL */
int sample_id__sample_identifier(const struct perf_event_header *ev, __u64 *id);

/*
 * Writes @id into @trailer, a synthesized record's zeroed trailer of
 * @sample_type: at IDENTIFIER, else at ID, else nowhere.
 */
void sample_id__put_id(void *trailer, __u64 sample_type, __u64 id);

#endif /* __PERFX_SAMPLE_ID_H */
