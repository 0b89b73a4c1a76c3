/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_OPENMETRICS_H
#define __PERFX_OPENMETRICS_H

#include <linux/types.h>
#include <stddef.h>

/*
 * Per-cgroup counts as Prometheus scrapes them, with cAdvisor's metric
 * names and labels where cAdvisor has them (perfx-stat(1), --serve):
 *
 *   container_perf_events_total{cpu="",event="E",id="/CG"}         counter
 *   container_perf_events_scaling_ratio{cpu="",event="E",id="/CG"} gauge
 *   perfx_perf_events_time_enabled_seconds_total{...}              counter
 *   perfx_perf_events_time_running_seconds_total{...}              counter
 *
 * Counts are summed over CPUs as cAdvisor's aggregated perf metrics are
 * (their cpu label is empty), then scaled as perf stat scales them.
 */

enum openmetrics_format {
	/* Prometheus's text exposition format 0.0.4 */
	OPENMETRICS_TEXT_0_0_4,
	/* OpenMetrics 1.0.0 */
	OPENMETRICS_1_0_0,
};

/* One event in one cgroup, summed over CPUs */
struct openmetrics_count {
	/* the cgroup's path under the cgroup2 mount ("A/b"; "/" or "" the root) */
	const char *cgroup;
	const char *event;
	/* the count scaled by @ena / @run (perf stat's), time enabled and running in ns */
	__u64 val;
	__u64 ena;
	__u64 run;
};

/*
 * The format to answer a request whose Accept header is @accept (NULL
 * when it has none): the one of the highest quality, the text format
 * when nothing names OpenMetrics 1.0.0 above it (client_golang's default).
 */
enum openmetrics_format openmetrics__negotiate(const char *accept);
/* The Content-Type of @fmt */
const char *openmetrics__content_type(enum openmetrics_format fmt);
/*
 * @nr counts in @fmt into @buf, NUL-terminated if @size > 0.  Returns the
 * length of the whole exposition, as snprintf(): when it is @size or more,
 * @buf holds only its start and the caller retries with a larger one.
 */
size_t openmetrics__render(const struct openmetrics_count *counts, int nr,
			   enum openmetrics_format fmt, char *buf, size_t size);

#endif /* __PERFX_OPENMETRICS_H */
