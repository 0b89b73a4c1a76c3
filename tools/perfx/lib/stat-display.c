// SPDX-License-Identifier: GPL-2.0
/*
 * print counts as the machine's perf stat (6.1) does, in
 * its three layouts, byte for byte for the same counts:
 *
 *   default  value (%18, thousands separators from the locale unless
 *            --no-big-num), unit (%-4s), event (%-32s, %-25s when not
 *            counted), " cgroup", " # metric" padded to 35, noise, "(pct%)"
 *   -x SEP   value,unit,event[,cgroup][,noise%],run,pct,metric,metric-unit
 *   -j       one JSON object per line
 *
 * The metrics are perf's shadow stats for the events perfx knows: clocks
 * give "CPUs utilized", any event measured beside a clock "/sec" (K, M, G),
 * cycles "GHz", instructions "insn per cycle", branch-misses "of all
 * branches", cache-misses "of all cache refs".  They are looked up per
 * (modifier context, CPU slot, cgroup), as perf keys them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "cpumap.h"
#include "evlist.h"
#include "evsel.h"
#include "stat-display.h"

#define METRIC_LEN	35
#define CNTR_NOT_SUPPORTED	"<not supported>"
#define CNTR_NOT_COUNTED	"<not counted>"

enum shadow_kind {
	SHADOW_NSECS,
	SHADOW_CYCLES,
	SHADOW_BRANCHES,
	SHADOW_CACHE_REFS,
};

void stat_config__init(struct stat_config *config, FILE *out)
{
	memset(config, 0, sizeof(*config));
	config->out = out;
	config->csv_sep = " ";
	config->big_num = true;
	config->run_count = 1;
	config->unit_width = 4;
	stats__init(&config->walltime);
}

/*
 * Fill evsel->aggr[] from the per-CPU counts (minus the previous interval's
 * with @delta): summed then scaled by ena/run, or per CPU with -A.
 */
int stat__aggregate(struct evlist *evlist, struct stat_config *config, bool delta)
{
	struct evsel *evsel;
	int i;

	evlist__for_each(evlist, i, evsel) {
		int ncpus = evsel->cpus ? evsel->cpus->nr : 0, nr, c;
		struct evsel *src = evsel->share ? evsel->share : evsel;

		if (evsel->share)
			ncpus = src->cpus ? src->cpus->nr : 0;
		nr = config->aggr == STAT_AGGR_NONE ? ncpus : 1;
		if (nr < 1)
			nr = 1;
		if (evsel->nr_aggr != nr) {
			free(evsel->aggr);
			evsel->aggr = calloc(nr, sizeof(*evsel->aggr));
			if (!evsel->aggr)
				return -ENOMEM;
			evsel->nr_aggr = nr;
		}
		memset(evsel->aggr, 0, nr * sizeof(*evsel->aggr));
		for (c = 0; evsel->counts && c < ncpus; c++) {
			struct evsel_counts *a = &evsel->aggr[nr == 1 ? 0 : c];
			struct evsel_counts v = evsel->counts[c];

			if (delta) {
				v.val -= evsel->prev[c].val;
				v.ena -= evsel->prev[c].ena;
				v.run -= evsel->prev[c].run;
			}
			a->val += v.val;
			a->ena += v.ena;
			a->run += v.run;
		}
		for (c = 0; c < nr; c++) {
			struct evsel_counts *a = &evsel->aggr[c];

			if (a->run == 0)
				a->val = 0;
			else if (a->run < a->ena)
				a->val = (__u64)((double)a->val * a->ena / a->run);
		}
	}
	return 0;
}

/* -r: remember each run's aggregated scaled count for the noise column. */
void stat__update_runs(struct evlist *evlist, struct stat_config *config)
{
	struct evsel *evsel;
	int i;

	(void)config;
	evlist__for_each(evlist, i, evsel)
		if (evsel->aggr)
			stats__update(&evsel->res_stats, (double)evsel->aggr[0].val);
}

/*
 * perf 6.1 keys its shadow stats by modifier context too, but in practice
 * task-clock:u still gives cs:k its "/sec": match what it prints.
 */
static int evsel__ctx(const struct evsel *evsel)
{
	(void)evsel;
	return 0;
}

static struct stat_shadow_entry *shadow_find(struct stat_config *config, int kind,
					     const struct evsel *evsel, int slot)
{
	int i, ctx = evsel__ctx(evsel);

	for (i = 0; i < config->nr_shadow; i++) {
		struct stat_shadow_entry *e = &config->shadow[i];

		if (e->kind == kind && e->ctx == ctx && e->slot == slot &&
		    e->cgrp == evsel->cgrp)
			return e;
	}
	return NULL;
}

void stat_shadow__reset(struct stat_config *config)
{
	config->nr_shadow = 0;
}

static int shadow_kind(const struct evsel *evsel)
{
	if (evsel__is_clock(evsel))
		return SHADOW_NSECS;
	if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES))
		return SHADOW_CYCLES;
	if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS))
		return SHADOW_BRANCHES;
	if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES))
		return SHADOW_CACHE_REFS;
	return -1;
}

/* Feed this run's (or interval's) values to the metric inputs. */
int stat_shadow__update(struct evlist *evlist, struct stat_config *config)
{
	struct evsel *evsel;
	int i, s;

	evlist__for_each(evlist, i, evsel) {
		int kind = shadow_kind(evsel);

		if (kind < 0 || !evsel->supported)
			continue;
		for (s = 0; s < evsel->nr_aggr; s++) {
			struct stat_shadow_entry *e = shadow_find(config, kind, evsel, s);

			if (!e) {
				if (config->nr_shadow == STAT_SHADOW_MAX)
					return -ENOSPC;
				e = &config->shadow[config->nr_shadow++];
				e->kind = kind;
				e->ctx = evsel__ctx(evsel);
				e->slot = s;
				e->cgrp = evsel->cgrp;
				stats__init(&e->stats);
			}
			stats__update(&e->stats, (double)evsel->aggr[s].val);
		}
	}
	return 0;
}

static double shadow_avg(struct stat_config *config, int kind,
			 const struct evsel *evsel, int slot, bool *found)
{
	struct stat_shadow_entry *e = shadow_find(config, kind, evsel, slot);

	*found = e && e->stats.n;
	return e ? stats__avg(&e->stats) : 0.0;
}

static const char *skip_spaces(const char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

static void print_metric(struct stat_config *config, const char *fmt,
			 const char *unit, double val)
{
	FILE *out = config->out;
	char buf[64], *end;
	const char *vals;
	int n;

	switch (config->fmt) {
	case STAT_OUT_JSON:
		fprintf(out, "\"metric-value\" : %f, ", val);
		/* perf 6.1 prints a NULL unit with %s: keep its "(null)" */
		fprintf(out, "\"metric-unit\" : \"%s\"", unit ? unit : "(null)");
		fprintf(out, "}");
		return;
	case STAT_OUT_CSV:
		if (!unit || !fmt) {
			fprintf(out, "%s%s", config->csv_sep, config->csv_sep);
			return;
		}
		snprintf(buf, sizeof(buf), fmt, val);
		vals = skip_spaces(buf);
		end = (char *)vals;
		while ((*end >= '0' && *end <= '9') || *end == '.')
			end++;
		*end = '\0';
		fprintf(out, "%s%s%s%s", config->csv_sep, vals, config->csv_sep,
			skip_spaces(unit));
		return;
	case STAT_OUT_STD:
	default:
		if (!unit || !fmt) {
			fprintf(out, "%-*s", METRIC_LEN, "");
			return;
		}
		n = fprintf(out, " # ");
		n += fprintf(out, fmt, val);
		fprintf(out, " %-*s", METRIC_LEN - n - 1, unit);
		return;
	}
}

static double convert_unit_double(double value, char *unit)
{
	*unit = ' ';
	if (value > 1000.0) {
		value /= 1000.0;
		*unit = 'K';
	}
	if (value > 1000.0) {
		value /= 1000.0;
		*unit = 'M';
	}
	if (value > 1000.0) {
		value /= 1000.0;
		*unit = 'G';
	}
	return value;
}

static void print_shadow(struct stat_config *config, struct evsel *evsel, int slot,
			 double avg)
{
	double total, wall;
	bool found;

	if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS)) {
		total = shadow_avg(config, SHADOW_CYCLES, evsel, slot, &found);
		if (total)
			print_metric(config, "%7.2f ", "insn per cycle", avg / total);
		else
			print_metric(config, NULL, "insn per cycle", 0);
	} else if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES) &&
		   (shadow_avg(config, SHADOW_BRANCHES, evsel, slot, &found), found)) {
		total = shadow_avg(config, SHADOW_BRANCHES, evsel, slot, &found);
		print_metric(config, "%7.2f%%", "of all branches",
			     total ? avg / total * 100.0 : 0);
	} else if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES) &&
		   (shadow_avg(config, SHADOW_CACHE_REFS, evsel, slot, &found), found)) {
		total = shadow_avg(config, SHADOW_CACHE_REFS, evsel, slot, &found);
		print_metric(config, "%8.3f %%", "of all cache refs",
			     total ? avg / total * 100.0 : 0);
	} else if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)) {
		total = shadow_avg(config, SHADOW_NSECS, evsel, slot, &found);
		if (total)
			print_metric(config, "%8.3f", "GHz", avg / total);
		else
			print_metric(config, NULL, "Ghz", 0);
	} else if (evsel__is_clock(evsel)) {
		wall = config->interval ? config->interval * 1000000.0 :
			stats__avg(&config->walltime);
		if (wall)
			print_metric(config, "%8.3f", "CPUs utilized",
				     avg / (wall * evsel->scale));
		else
			print_metric(config, NULL, "CPUs utilized", 0);
	} else if (shadow_avg(config, SHADOW_NSECS, evsel, slot, &found), found) {
		char unit = ' ', unit_buf[10] = "/sec";
		double ratio = 0;

		total = shadow_avg(config, SHADOW_NSECS, evsel, slot, &found);
		if (total)
			ratio = convert_unit_double(1000000000.0 * avg / total, &unit);
		if (unit != ' ')
			snprintf(unit_buf, sizeof(unit_buf), "%c/sec", unit);
		print_metric(config, "%8.3f", unit_buf, ratio);
	} else {
		print_metric(config, NULL, NULL, 0);
	}
}

static void print_prefix(struct stat_config *config, struct evsel *evsel, int slot)
{
	FILE *out = config->out;

	if (config->fmt == STAT_OUT_JSON)
		fprintf(out, "{");
	if (config->interval) {
		if (config->fmt == STAT_OUT_JSON)
			fprintf(out, "\"interval\" : %lu.%09lu, ",
				(unsigned long)config->interval_ts.tv_sec,
				(unsigned long)config->interval_ts.tv_nsec);
		else
			fprintf(out, "%6lu.%09lu%s", (unsigned long)config->interval_ts.tv_sec,
				(unsigned long)config->interval_ts.tv_nsec, config->csv_sep);
	}
	if (config->aggr == STAT_AGGR_NONE) {
		const struct cpu_map *cpus = evsel->share ? evsel->share->cpus : evsel->cpus;
		int cpu = cpus && slot < cpus->nr ? cpus->map[slot] : slot;

		if (config->fmt == STAT_OUT_JSON)
			fprintf(out, "\"cpu\" : \"%d\", ", cpu);
		else
			fprintf(out, "CPU%*d%s", config->fmt == STAT_OUT_CSV ? 0 : -7, cpu,
				config->csv_sep);
	}
}

static void print_cgroup(struct stat_config *config, struct evsel *evsel)
{
	const char *name;

	if (!config->has_cgroups)
		return;
	name = evsel->cgrp ? evsel->cgrp->name : "";
	if (config->fmt == STAT_OUT_JSON)
		fprintf(config->out, "\"cgroup\" : \"%s\", ", name);
	else
		fprintf(config->out, "%s%s", config->csv_sep, name);
}

static void print_noise(struct stat_config *config, struct evsel *evsel, double avg)
{
	double pct;

	if (config->run_count == 1)
		return;
	pct = stats__rel(stats__stddev(&evsel->res_stats), avg);
	if (config->fmt == STAT_OUT_JSON)
		fprintf(config->out, "\"variance\" : %.2f, ", pct);
	else if (config->fmt == STAT_OUT_CSV)
		fprintf(config->out, "%s%.2f%%", config->csv_sep, pct);
	else if (pct)
		fprintf(config->out, "  ( +-%6.2f%% )", pct);
}

static void print_running(struct stat_config *config, __u64 run, __u64 ena)
{
	double pct = 100;

	if (run != ena)
		pct = 100.0 * run / ena;
	if (config->fmt == STAT_OUT_JSON)
		fprintf(config->out, "\"event-runtime\" : %llu, \"pcnt-running\" : %.2f, ",
			(unsigned long long)run, pct);
	else if (config->fmt == STAT_OUT_CSV)
		fprintf(config->out, "%s%llu%s%.2f", config->csv_sep,
			(unsigned long long)run, config->csv_sep, pct);
	else if (run != ena)
		fprintf(config->out, "  (%.2f%%)", 100.0 * run / ena);
}

static void print_counter(struct stat_config *config, struct evsel *evsel, int slot)
{
	struct evsel_counts *c = &evsel->aggr[slot];
	double uval = (double)c->val * evsel->scale;
	bool integer = floor(evsel->scale) == evsel->scale;
	FILE *out = config->out;

	print_prefix(config, evsel, slot);
	if (!evsel->supported || c->run == 0 || c->ena == 0) {
		const char *what = evsel->supported ? CNTR_NOT_COUNTED : CNTR_NOT_SUPPORTED;

		if (evsel->supported)
			config->free_counters_hint = true;
		if (config->fmt == STAT_OUT_JSON) {
			fprintf(out, "\"counter-value\" : \"%s\", ", what);
			fprintf(out, "\"unit\" : \"%s\", ", evsel->unit);
			fprintf(out, "\"event\" : \"%s\", ", evsel->name);
		} else {
			fprintf(out, "%*s%s", config->fmt == STAT_OUT_CSV ? 0 : 18, what,
				config->csv_sep);
			fprintf(out, "%-*s%s", config->fmt == STAT_OUT_CSV ? 0 : config->unit_width,
				evsel->unit, config->csv_sep);
			fprintf(out, "%*s", config->fmt == STAT_OUT_CSV ? 0 : -25, evsel->name);
		}
		print_cgroup(config, evsel);
		if (config->fmt == STAT_OUT_STD)
			print_metric(config, NULL, "", 0);
		print_noise(config, evsel, (double)c->val);
		print_running(config, c->run, c->ena);
		if (config->fmt != STAT_OUT_STD)
			print_metric(config, config->fmt == STAT_OUT_JSON ? "" : NULL, "", 0);
		fprintf(out, "\n");
		return;
	}

	if (config->fmt == STAT_OUT_JSON) {
		fprintf(out, "\"counter-value\" : \"%f\", ", uval);
		fprintf(out, "\"unit\" : \"%s\", ", evsel->unit);
		fprintf(out, "\"event\" : \"%s\", ", evsel->name);
	} else {
		const char *fmt;

		if (config->fmt == STAT_OUT_CSV)
			fmt = integer ? "%.0f%s" : "%.2f%s";
		else if (config->big_num)
			fmt = integer ? "%'18.0f%s" : "%'18.2f%s";
		else
			fmt = integer ? "%18.0f%s" : "%18.2f%s";
		fprintf(out, fmt, uval, config->csv_sep);
		fprintf(out, "%-*s%s", config->fmt == STAT_OUT_CSV ? 0 : config->unit_width,
			evsel->unit, config->csv_sep);
		fprintf(out, "%-*s", config->fmt == STAT_OUT_CSV ? 0 : 32, evsel->name);
	}
	print_cgroup(config, evsel);
	if (config->fmt == STAT_OUT_STD) {
		print_shadow(config, evsel, slot, uval);
		print_noise(config, evsel, (double)c->val);
		print_running(config, c->run, c->ena);
	} else {
		print_noise(config, evsel, (double)c->val);
		print_running(config, c->run, c->ena);
		print_shadow(config, evsel, slot, uval);
	}
	fprintf(out, "\n");
}

static void print_interval_header(struct stat_config *config)
{
	FILE *out = config->out;

	if (config->fmt != STAT_OUT_STD)
		return;
	if (config->nr_intervals_printed == 0) {
		if (config->aggr == STAT_AGGR_NONE)
			fprintf(out, "#           time CPU                    counts %*s events\n",
				config->unit_width, "unit");
		else
			fprintf(out, "#           time             counts %*s events\n",
				config->unit_width, "unit");
	}
	if (++config->nr_intervals_printed == 25)
		config->nr_intervals_printed = 0;
}

void stat_display__counters(struct stat_config *config, struct evlist *evlist)
{
	struct evsel *evsel;
	int i, s;

	if (config->interval)
		print_interval_header(config);
	evlist__for_each(evlist, i, evsel)
		for (s = 0; s < evsel->nr_aggr; s++)
			print_counter(config, evsel, s);
}

void stat_display__header(struct stat_config *config)
{
	FILE *out = config->out;

	if (config->fmt != STAT_OUT_STD || config->interval)
		return;
	fprintf(out, "\n");
	fprintf(out, " Performance counter stats for %s", config->target);
	if (config->run_count > 1)
		fprintf(out, " (%d runs)", config->run_count);
	fprintf(out, ":\n\n");
}

static int get_precision(double num)
{
	if (num > 1)
		return 0;
	return (int)lround(ceil(-log10(num)));
}

void stat_display__footer(struct stat_config *config)
{
	double avg = stats__avg(&config->walltime) / 1e9;
	FILE *out = config->out;

	if (config->fmt != STAT_OUT_STD || config->interval)
		return;
	fprintf(out, "\n");
	if (config->run_count == 1) {
		fprintf(out, " %17.9f seconds time elapsed", avg);
		if (config->ru_display) {
			fprintf(out, "\n\n");
			fprintf(out, " %17.9f seconds user\n", config->ru_utime);
			fprintf(out, " %17.9f seconds sys\n", config->ru_stime);
		}
	} else {
		double sd = stats__stddev(&config->walltime) / 1e9, pct;
		int precision = sd > 0 ? get_precision(sd) + 2 : 9;

		fprintf(out, " %17.*f +- %.*f seconds time elapsed", precision, avg,
			precision, sd);
		pct = stats__rel(sd, avg);
		if (pct)
			fprintf(out, "  ( +-%6.2f%% )", pct);
	}
	fprintf(out, "\n\n");
	if (config->free_counters_hint && config->nmi_watchdog)
		fprintf(out,
			"Some events weren't counted. Try disabling the NMI watchdog:\n"
			"	echo 0 > /proc/sys/kernel/nmi_watchdog\n"
			"	perf stat ...\n"
			"	echo 1 > /proc/sys/kernel/nmi_watchdog\n");
}
