/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_TRACING_DATA_H
#define __PERFX_TRACING_DATA_H

struct feature_buf;

/*
 * perf's tracing data (util/trace-event-info.c, version 0.6): what
 * perf script needs to print tracepoint fields.  @events is the tracefs
 * events directory, @tps the recorded tracepoints as "system:name".
 * Returns 0 or the -errno of a file it could not read.
 */
int tracing_data__build(struct feature_buf *b, const char *events, const char * const *tps,
			int nr);

#endif /* __PERFX_TRACING_DATA_H */
