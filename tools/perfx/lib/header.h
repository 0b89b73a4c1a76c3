/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_HEADER_H
#define __PERFX_HEADER_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

#include "event.h"

/* perf.data's layout (perf's util/header.h); its records' are in event.h */
#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" */

struct perf_file_section {
	__u64 offset;
	__u64 size;
};

#define HEADER_FEAT_BITS	256

struct perf_file_header {
	__u64 magic;
	__u64 size;
	__u64 attr_size;	/* one attr and its ids' section */
	struct perf_file_section attrs;
	struct perf_file_section data;
	struct perf_file_section event_types;
	__u64 adds_features[HEADER_FEAT_BITS / 64];
};

struct perf_pipe_file_header {
	__u64 magic;
	__u64 size;
};

/* perf's header feature ids (util/header.h); lib/feature.c's table describes each */
enum {
	HEADER_TRACING_DATA	= 1,
	HEADER_BUILD_ID		= 2,
	HEADER_HOSTNAME		= 3,
	HEADER_OSRELEASE	= 4,
	HEADER_VERSION		= 5,
	HEADER_ARCH		= 6,
	HEADER_NRCPUS		= 7,
	HEADER_CPUDESC		= 8,
	HEADER_CPUID		= 9,
	HEADER_TOTAL_MEM	= 10,
	HEADER_CMDLINE		= 11,
	HEADER_EVENT_DESC	= 12,
	HEADER_CPU_TOPOLOGY	= 13,
	HEADER_NUMA_TOPOLOGY	= 14,
	HEADER_BRANCH_STACK	= 15,
	HEADER_PMU_MAPPINGS	= 16,
	HEADER_GROUP_DESC	= 17,
	HEADER_AUXTRACE		= 18,	/* an index of the AUXTRACE records */
	HEADER_STAT		= 19,
	HEADER_CACHE		= 20,
	HEADER_SAMPLE_TIME	= 21,
	HEADER_MEM_TOPOLOGY	= 22,
	HEADER_CLOCKID		= 23,
	HEADER_DIR_FORMAT	= 24,
	HEADER_BPF_PROG_INFO	= 25,
	HEADER_BPF_BTF		= 26,
	HEADER_COMPRESSED	= 27,
	HEADER_CPU_PMU_CAPS	= 28,
	HEADER_CLOCK_DATA	= 29,
	HEADER_HYBRID_TOPOLOGY	= 30,
	HEADER_PMU_CAPS		= 31,
	HEADER_LAST_FEATURE	= 32,	/* the first id perf 6.1 and 6.12 do not know */
};

#define PERF_ATTR_MIN_SIZE		64	/* PERF_ATTR_SIZE_VER0 */
#define PERF_ATTR_MAX_SIZE		4096	/* bigger is garbage, not a newer ABI */

/* One event: its perf_event_attr as read (attr.size bytes) and its ids. */
struct perfx_attr {
	void	*attr;
	__u32	size;
	__u64	*ids;
	__u32	nr_ids;
};

struct perfx_header {
	bool			pipe;
	struct perfx_attr	*attrs;
	int			nr_attrs;
	int			alloc_attrs;
	void			*feat[HEADER_LAST_FEATURE];	/* feature bodies, */
	size_t			feat_size[HEADER_LAST_FEATURE];	/* as written */
	struct perf_file_section data;				/* file mode */
	struct perf_file_section attrs_sec;	/* file mode: attrs written at the start */
	__u64			attr_size;
};

void perfx_header__exit(struct perfx_header *h);
/* copies the attr and its ids */
int perfx_header__add_attr(struct perfx_header *h, const void *attr, __u32 size,
			   const __u64 *ids, __u32 nr_ids);
/* takes a copy; an id perf does not know is an error */
int perfx_header__set_feature(struct perfx_header *h, __u64 id, const void *data,
			      size_t size);
/* Drops feature @id, if the header has it. */
void perfx_header__clear_feature(struct perfx_header *h, __u64 id);
int perfx_header__attr_sample_type(const struct perfx_attr *attr, __u64 *sample_type);
/*
 * Checks @fh (read from @name, @file_size bytes) and reads the attrs, ids
 * and features it points to with pread(2) from @fd.  Errors name the
 * input, the byte offset and what was expected.
 */
int perfx_header__read_file(struct perfx_header *h, int fd, const char *name,
			    const struct perf_file_header *fh, __u64 file_size);
/* A HEADER_ATTR or HEADER_FEATURE record of a pipe, @pos its offset. */
int perfx_header__read_record(struct perfx_header *h, const char *name,
			      const struct perf_event_header *ev, __u64 pos);

struct perfx_writer;
/*
 * File mode: _start writes a header with the attrs known so far and a data
 * size of 0 (what perf reads as "not properly terminated"), the data
 * follows; _finish writes the features after @data_size bytes of records,
 * then the attrs if _start had none (a pipe's are known only at its end),
 * then the final header.
 */
int perfx_header__write_file_start(struct perfx_header *h, struct perfx_writer *w);
int perfx_header__write_file_finish(struct perfx_header *h, struct perfx_writer *w,
				    __u64 data_size);
/*
 * File mode, when the data could not all be written: the header of
 * _start, saying there are @data_size bytes of records and no features.
 */
int perfx_header__write_file_cut(struct perfx_header *h, struct perfx_writer *w,
				 __u64 data_size);
/*
 * Pipe mode: the pipe header and, if @synth, HEADER_ATTR and HEADER_FEATURE
 * records (those perf has as records, each under 64 KiB, then its end mark),
 * the tracing data and build-ids
 */
int perfx_header__write_pipe(struct perfx_header *h, struct perfx_writer *w, bool synth);

#endif /* __PERFX_HEADER_H */
