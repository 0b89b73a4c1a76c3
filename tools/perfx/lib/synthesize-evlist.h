/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SYNTHESIZE_EVLIST_H
#define __PERFX_SYNTHESIZE_EVLIST_H

#include <stdbool.h>

struct evlist;
struct perfx_header;
struct perfx_writer;

/*
 * ID_INDEX: per sample id of @h's attrs (those of @evlist's events, in
 * order) its ring, CPU and task, in records of at most 64 KiB, as perf's
 * perf_event__synthesize_id_index() writes them.
 */
int synthesize__id_index(struct perfx_writer *w, const struct evlist *evlist,
			 const struct perfx_header *h);
/* THREAD_MAP: @evlist's tasks (-1 for all), each with an empty comm */
int synthesize__thread_map(struct perfx_writer *w, const struct evlist *evlist);
/* CPU_MAP: @evlist's CPUs as a range, a list or a mask, whichever perf 6.1 picks */
int synthesize__cpu_map(struct perfx_writer *w, const struct evlist *evlist);

/*
 * EVENT_UPDATE: per event of @evlist (its first sample id in @h), with
 * @units its unit and scale where it has them, with @names its name (a
 * pipe's, whose reader has no EVENT_DESC), as perf's
 * perf_event__synthesize_extra_attr() writes them.
 */
int synthesize__event_update(struct perfx_writer *w, const struct evlist *evlist,
			     const struct perfx_header *h, bool units, bool names);

#endif /* __PERFX_SYNTHESIZE_EVLIST_H */
