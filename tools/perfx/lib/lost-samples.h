/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_LOST_SAMPLES_H
#define __PERFX_LOST_SAMPLES_H

struct evlist;
struct perfx_writer;

/*
 * As perf record at its end: a PERF_RECORD_LOST_SAMPLES for every fd of
 * @evlist whose PERF_FORMAT_LOST count is not 0, with the fd's id in its
 * sample_id, into @out.  0 or -errno of the write.
 */
int lost_samples__write(struct evlist *evlist, struct perfx_writer *out);

#endif /* __PERFX_LOST_SAMPLES_H */
