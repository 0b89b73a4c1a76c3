/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_EVSEL_STAT_H
#define __PERFX_EVSEL_STAT_H

#include "evsel.h"
#include "stat.h"

/*
 * stat's extension of an event: its counts aggregated for display and,
 * with -r, the statistics of its runs.  Made at the event's first
 * aggregation and freed with the event (its priv, evsel-internal.h).
 */
struct evsel_stat {
	/* values to print: one per CPU with -A, else one; scaled by ena/run */
	struct evsel_counts *aggr;
	int nr_aggr;
	/* -r: statistics of the aggregated scaled count over runs */
	struct stats res_stats;
};

/* @evsel's extension, made if it has none; NULL without memory. */
struct evsel_stat *evsel_stat__get(struct evsel *evsel);

/* The extension once @evsel was aggregated; else NULL. */
struct evsel_stat *evsel__stat(const struct evsel *evsel);
/* the aggregated values of @evsel: none before its first aggregation */
int evsel__nr_aggr(const struct evsel *evsel);

#endif /* __PERFX_EVSEL_STAT_H */
