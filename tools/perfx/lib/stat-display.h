/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_STAT_DISPLAY_H
#define __PERFX_STAT_DISPLAY_H

#include <stdbool.h>
#include <stdio.h>
#include <time.h>

#include "stat.h"
#include "stat-shadow.h"

struct cpu_map;
struct evlist;
struct evsel;

enum stat_output {
	STAT_OUT_STD,
	STAT_OUT_CSV,
	STAT_OUT_JSON,
};

enum stat_aggr {
	STAT_AGGR_GLOBAL,
	STAT_AGGR_NONE,
};

/*
 * How to print, in perf stat 6.1's layouts (default, -x SEP, -j).  The
 * caller fills the times: @walltime (ns, one update per run), the rusage
 * times, and for -I the interval's timestamp.
 */
struct stat_config {
	FILE *out;
	enum stat_output fmt;
	const char *csv_sep;
	bool big_num;
	enum stat_aggr aggr;
	int run_count;
	unsigned int interval;
	struct timespec interval_ts;
	int nr_intervals_printed;
	bool has_cgroups;
	int unit_width;
	struct stats walltime;
	bool ru_display;
	double ru_utime;
	double ru_stime;
	const char *target;
	const struct cpu_map *cpus;
	bool free_counters_hint;
	bool nmi_watchdog;
	/* metric inputs: clocks, cycles, ... per (ctx, slot, cgroup) */
	struct stat_shadow shadow;
};

void stat_config__init(struct stat_config *config, FILE *out);
void stat_config__exit(struct stat_config *config);
int stat__aggregate(struct evlist *evlist, struct stat_config *config, bool delta);
void stat__update_runs(struct evlist *evlist, struct stat_config *config);
int stat_shadow__update(struct evlist *evlist, struct stat_config *config);
void stat_display__header(struct stat_config *config);
void stat_display__counters(struct stat_config *config, struct evlist *evlist);
void stat_display__footer(struct stat_config *config);

#endif /* __PERFX_STAT_DISPLAY_H */
