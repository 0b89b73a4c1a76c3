// SPDX-License-Identifier: GPL-2.0
/*
 * Proves the formatter prints perf stat 6.1's exact bytes for known counts:
 * the expected lines are perf's own output for the same counts (captured
 * with tests/fakecount.so, see tests/golden/README).  The whole-output
 * comparisons against perf are tests/golden.sh and tests/interop.sh.
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cgroup.h"
#include "lib/cpumap.h"
#include "lib/evlist-internal.h"
#include "lib/evsel-internal.h"
#include "lib/stat-display.h"
#include "tests/tap.h"

static struct evsel *add(struct evlist *evlist, __u32 type, __u64 config, const char *name,
			 struct cgroup *cgrp, int ncpus)
{
	struct perf_event_attr attr = { .type = type, .config = config };
	struct evsel *evsel = evsel__new(&attr, name);

	evsel->cgrp = cgroup__get(cgrp);
	evsel__alloc_counts(evsel, ncpus);
	evsel->cpus = cpu_map__get((struct cpu_map *)NULL);
	evlist__add(evlist, evsel);
	return evsel;
}

static void set(struct evsel *evsel, int cpu, __u64 val, __u64 ena, __u64 run)
{
	evsel->counts[cpu].val = val;
	evsel->counts[cpu].ena = ena;
	evsel->counts[cpu].run = run;
}

static char *render(struct evlist *evlist, enum stat_output fmt, const char *sep,
		    enum stat_aggr aggr, struct cpu_map *cpus, double wall_ns, int header)
{
	struct stat_config *config = calloc(1, sizeof(*config));
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int i;

	stat_config__init(config, f);
	config->fmt = fmt;
	if (sep) {
		config->csv_sep = sep;
		config->big_num = false;
	}
	config->aggr = aggr;
	config->cpus = cpus;
	config->target = "'system wide'";
	for (i = 0; i < evlist->nr; i++) {
		struct evsel *e = evlist->entries[i];

		cpu_map__put(e->cpus);
		e->cpus = cpu_map__get(cpus);
		if (e->cgrp)
			config->has_cgroups = true;
	}
	config->unit_width = evlist__unit_width(evlist);
	stats__update(&config->walltime, wall_ns);
	stat__aggregate(evlist, config, false);
	stat_shadow__update(evlist, config);
	if (header)
		stat_display__header(config);
	stat_display__counters(config, evlist);
	if (header)
		stat_display__footer(config);
	fclose(f);
	stat_config__exit(config);
	free(config);
	return buf;
}

int main(void)
{
	struct cgroup cg_a = { .refcnt = 100, .name = (char *)"A", .fd = -1 };
	struct cpu_map *cpus = NULL;
	struct evlist *evlist;
	struct evsel *tc, *cs, *cy;
	char *out;

	tap_start("stat-display");
	setlocale(LC_ALL, "C");
	cpu_map__parse("0-1", &cpus);

	/* perf stat -a --for-each-cgroup A -e task-clock,context-switches,cycles */
	evlist = evlist__new();
	tc = add(evlist, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock", &cg_a, 2);
	cs = add(evlist, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches",
		 &cg_a, 2);
	cy = add(evlist, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles", &cg_a, 2);
	set(tc, 0, 4000012, 1000000000, 1000000000);
	set(tc, 1, 6000018, 1000000000, 1000000000);
	set(cs, 0, 8000024, 1000000000, 1000000000);
	set(cs, 1, 12000036, 1000000000, 1000000000);
	cy->supported = false;

	out = render(evlist, STAT_OUT_STD, NULL, STAT_AGGR_GLOBAL, cpus, 11125181, 1);
	tap_str_eq(out,
		   "\n Performance counter stats for 'system wide':\n\n"
		   "             10.00 msec task-clock                       A #    0.899 CPUs utilized          \n"
		   "          20000060      context-switches                 A #    2.000 G/sec                  \n"
		   "   <not supported>      cycles                    A                                   \n"
		   "\n       0.011125181 seconds time elapsed\n\n",
		   "default layout with a cgroup column");
	free(out);

	out = render(evlist, STAT_OUT_CSV, ";", STAT_AGGR_GLOBAL, cpus, 11125181, 1);
	tap_str_eq(out,
		   "10.00;msec;task-clock;A;2000000000;100.00;0.899;CPUs utilized\n"
		   "20000060;;context-switches;A;2000000000;100.00;2.000;G/sec\n"
		   "<not supported>;;cycles;A;0;100.00;;\n",
		   "-x';' layout with a cgroup field, no header or footer");
	free(out);

	out = render(evlist, STAT_OUT_JSON, NULL, STAT_AGGR_GLOBAL, cpus, 11125181, 1);
	tap_str_eq(out,
		   "{\"counter-value\" : \"10.000030\", \"unit\" : \"msec\", \"event\" : \"task-clock\", \"cgroup\" : \"A\", \"event-runtime\" : 2000000000, \"pcnt-running\" : 100.00, \"metric-value\" : 0.898864, \"metric-unit\" : \"CPUs utilized\"}\n"
		   "{\"counter-value\" : \"20000060.000000\", \"unit\" : \"\", \"event\" : \"context-switches\", \"cgroup\" : \"A\", \"event-runtime\" : 2000000000, \"pcnt-running\" : 100.00, \"metric-value\" : 2.000000, \"metric-unit\" : \"G/sec\"}\n"
		   "{\"counter-value\" : \"<not supported>\", \"unit\" : \"\", \"event\" : \"cycles\", \"cgroup\" : \"A\", \"event-runtime\" : 0, \"pcnt-running\" : 100.00, \"metric-value\" : 0.000000, \"metric-unit\" : \"\"}\n",
		   "-j layout");
	free(out);

	/* -A, no cgroups: per-CPU lines, event-major */
	cgroup__put(tc->cgrp);
	cgroup__put(cs->cgrp);
	cgroup__put(cy->cgrp);
	tc->cgrp = cs->cgrp = cy->cgrp = NULL;
	out = render(evlist, STAT_OUT_STD, NULL, STAT_AGGR_NONE, cpus, 11424388, 0);
	tap_str_eq(out,
		   "CPU0                     4.00 msec task-clock                       #    0.350 CPUs utilized          \n"
		   "CPU1                     6.00 msec task-clock                       #    0.525 CPUs utilized          \n"
		   "CPU0                  8000024      context-switches                 #    2.000 G/sec                  \n"
		   "CPU1                 12000036      context-switches                 #    2.000 G/sec                  \n"
		   "CPU0          <not supported>      cycles                                                      \n"
		   "CPU1          <not supported>      cycles                                                      \n",
		   "-A layout");
	free(out);

	/* multiplexed: scaled values and the running percentage */
	set(tc, 0, 4000012, 1000000000, 500000000);
	set(tc, 1, 6000018, 1000000000, 500000000);
	set(cs, 0, 8000024, 1000000000, 500000000);
	set(cs, 1, 12000036, 1000000000, 500000000);
	out = render(evlist, STAT_OUT_STD, NULL, STAT_AGGR_GLOBAL, cpus, 11458479, 0);
	tap_str_eq(out,
		   "             20.00 msec task-clock                       #    1.745 CPUs utilized            (50.00%)\n"
		   "          40000120      context-switches                 #    2.000 G/sec                    (50.00%)\n"
		   "   <not supported>      cycles                                                      \n",
		   "multiplexed counts are scaled and show (50.00%)");
	free(out);

	/* not counted: run == 0 */
	set(tc, 0, 0, 1000000000, 0);
	set(tc, 1, 0, 1000000000, 0);
	out = render(evlist, STAT_OUT_CSV, ",", STAT_AGGR_GLOBAL, cpus, 1000, 0);
	tap_ok(!strncmp(out, "<not counted>,msec,task-clock,0,0.00,,\n", 39),
	       "-x, prints <not counted> with 0.00%%");
	free(out);

	/* big numbers follow the locale; no clock: no metric, JSON "(null)" */
	evlist__delete(evlist);
	evlist = evlist__new();
	cs = add(evlist, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches",
		 NULL, 2);
	set(cs, 0, 8000024000ULL, 1000000000, 1000000000);
	out = render(evlist, STAT_OUT_STD, NULL, STAT_AGGR_GLOBAL, cpus, 1000, 0);
	tap_str_eq(out, "        8000024000      context-switches                                                   \n",
		   "no clock event: no metric, padded to 35");
	free(out);
	out = render(evlist, STAT_OUT_JSON, NULL, STAT_AGGR_GLOBAL, cpus, 1000, 0);
	tap_ok(strstr(out, "\"metric-value\" : 0.000000, \"metric-unit\" : \"(null)\"}") != NULL,
	       "no clock event in -j: perf 6.1's \"(null)\" metric unit");
	free(out);
	if (setlocale(LC_ALL, "en_US.UTF-8") || setlocale(LC_ALL, "C.UTF-8")) {
		out = render(evlist, STAT_OUT_STD, NULL, STAT_AGGR_GLOBAL, cpus, 1000, 0);
		tap_ok(strlen(out) > 18, "big numbers render in locale %s", setlocale(LC_ALL, NULL));
		free(out);
	}
	evlist__delete(evlist);
	cpu_map__put(cpus);
	return tap_done();
}
