/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_BUILD_ID_PASS_H
#define __PERFX_BUILD_ID_PASS_H

#include <linux/types.h>
#include <stdbool.h>

#include "dso-hits.h"

struct perfx_header;

/*
 * perf record's pass over the records it has just written (its
 * process_buildids()): the build-ids of the DSOs that samples hit, or of
 * every DSO mapped, become the BUILD_ID feature; the records, samples and
 * what was lost are counted, as perf's session counts them, and the first
 * and last sample times kept for HEADER_SAMPLE_TIME.
 */
struct build_id_pass {
	unsigned long long	nr_records;
	unsigned long long	nr_samples;
	unsigned long long	nr_lost;	/* LOST records */
	unsigned long long	lost_samples;	/* the sum of LOST_SAMPLES' */
	__u64			first_sample_time;
	__u64			last_sample_time;
};

/*
 * Walk the records at [@start, @end) of @fd, a perf.data file named
 * @path whose header is @header, and set @header's BUILD_ID feature if
 * any DSO has one (@all: every DSO mapped).  0 or -errno.
 */
int build_id_pass__run(struct build_id_pass *p, int fd, const char *path,
		       struct perfx_header *header, __u64 start, __u64 end, bool all);

#endif /* __PERFX_BUILD_ID_PASS_H */
