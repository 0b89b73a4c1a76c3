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
 * give "CPUs utilized", any other event measured beside a clock "/sec" (K,
 * M, G), cycles "GHz", instructions "insn per cycle" and, beside the
 * stalled-cycles events, "stalled cycles per insn" on a line of its own;
 * the stalled-cycles events "frontend/backend cycles idle", branch-misses
 * "of all branches", cache-misses "of all cache refs", the read misses of
 * L1-dcache, L1-icache, LLC, dTLB and iTLB "of all ... accesses".  Their
 * inputs are kept per (modifier context, CPU slot, cgroup), as perf keys
 * them; an input never counted leaves the metric's figure empty.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "cpumap.h"
#include "escape.h"
#include "evlist.h"
#include "evsel-internal.h"
#include "evsel-stat.h"
#include "stat-display.h"
#include "util.h"

#define METRIC_LEN	35
#define CNTR_NOT_SUPPORTED	"<not supported>"
#define CNTR_NOT_COUNTED	"<not counted>"

/* the metric inputs, perf's STAT_* */
enum shadow_kind {
	SHADOW_NSECS,
	SHADOW_CYCLES,
	SHADOW_STALLED_FRONT,
	SHADOW_STALLED_BACK,
	SHADOW_BRANCHES,
	SHADOW_CACHE_REFS,
	SHADOW_L1_DCACHE,
	SHADOW_L1_ICACHE,
	SHADOW_LL_CACHE,
	SHADOW_DTLB,
	SHADOW_ITLB,
};

/* perf's CTX_BIT_*: the modifiers a metric input is kept under */
enum {
	CTX_BIT_USER	= 1 << 0,
	CTX_BIT_KERNEL	= 1 << 1,
	CTX_BIT_HV	= 1 << 2,
	CTX_BIT_HOST	= 1 << 3,
	CTX_BIT_IDLE	= 1 << 4,
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

void stat_config__exit(struct stat_config *config)
{
	stat_shadow__exit(&config->shadow);
}

/*
 * Fill each event's aggr[] (evsel-stat.h) from the per-CPU counts (minus
 * the previous interval's with @delta): summed then scaled by ena/run, or
 * per CPU with -A.
 */
int stat__aggregate(struct evlist *evlist, struct stat_config *config, bool delta)
{
	struct evsel *evsel;
	int i;

	evlist__for_each(evlist, i, evsel) {
		int ncpus = evsel->cpus ? evsel->cpus->nr : 0, nr, c;
		struct evsel_stat *st = evsel_stat__get(evsel);

		if (!st)
			return -ENOMEM;
		nr = config->aggr == STAT_AGGR_NONE ? ncpus : 1;
		if (nr < 1)
			nr = 1;
		if (st->nr_aggr != nr) {
			free(st->aggr);
			st->aggr = calloc(nr, sizeof(*st->aggr));
			st->nr_aggr = st->aggr ? nr : 0;
			if (!st->aggr)
				return -ENOMEM;
		}
		memset(st->aggr, 0, nr * sizeof(*st->aggr));
		for (c = 0; evsel->counts && c < ncpus; c++) {
			struct evsel_counts *a = &st->aggr[nr == 1 ? 0 : c];
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
			struct evsel_counts *a = &st->aggr[c];

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
		if (evsel__nr_aggr(evsel))
			stats__update(&evsel__stat(evsel)->res_stats,
				      (double)evsel__stat(evsel)->aggr[0].val);
}

/*
 * perf's evsel_context(): a metric pairs events of the same modifiers only
 * (cycles:u gives instructions:u its "insn per cycle", not instructions).
 * The clocks are the exception, kept whatever the modifiers: task-clock:u
 * gives cs:k its "/sec".
 */
static int shadow_ctx(int kind, const struct evsel *evsel)
{
	const struct perf_event_attr *attr = &evsel->attr;

	if (kind == SHADOW_NSECS)
		return 0;
	return (attr->exclude_kernel ? CTX_BIT_KERNEL : 0) |
	       (attr->exclude_user ? CTX_BIT_USER : 0) |
	       (attr->exclude_hv ? CTX_BIT_HV : 0) |
	       (attr->exclude_host ? CTX_BIT_HOST : 0) |
	       (attr->exclude_idle ? CTX_BIT_IDLE : 0);
}

static struct stat_shadow_entry *shadow_find(struct stat_config *config, int kind,
					     const struct evsel *evsel, int slot)
{
	return stat_shadow__find(&config->shadow, kind, shadow_ctx(kind, evsel), slot,
				 evsel->cgrp);
}

#define CACHE_CONFIG(cache, op, result)					\
	(PERF_COUNT_HW_CACHE_##cache | PERF_COUNT_HW_CACHE_OP_##op << 8 |	\
	 PERF_COUNT_HW_CACHE_RESULT_##result << 16)

/* The events whose counts other events' metrics divide by. */
static const struct {
	__u32 type;
	__u64 config;
	int kind;
} shadow_events[] = {
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, SHADOW_CYCLES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, SHADOW_STALLED_FRONT },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, SHADOW_STALLED_BACK },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, SHADOW_BRANCHES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES, SHADOW_CACHE_REFS },
	/* the reads of each cache: L1-dcache-loads, ... */
	{ PERF_TYPE_HW_CACHE, CACHE_CONFIG(L1D, READ, ACCESS), SHADOW_L1_DCACHE },
	{ PERF_TYPE_HW_CACHE, CACHE_CONFIG(L1I, READ, ACCESS), SHADOW_L1_ICACHE },
	{ PERF_TYPE_HW_CACHE, CACHE_CONFIG(LL, READ, ACCESS), SHADOW_LL_CACHE },
	{ PERF_TYPE_HW_CACHE, CACHE_CONFIG(DTLB, READ, ACCESS), SHADOW_DTLB },
	{ PERF_TYPE_HW_CACHE, CACHE_CONFIG(ITLB, READ, ACCESS), SHADOW_ITLB },
};

/* The read misses of each cache, as a share of its reads. */
static const struct {
	__u64 config;
	int kind;
	const char *unit;
} cache_miss_metrics[] = {
	{ CACHE_CONFIG(L1D, READ, MISS), SHADOW_L1_DCACHE, "of all L1-dcache accesses" },
	{ CACHE_CONFIG(L1I, READ, MISS), SHADOW_L1_ICACHE, "of all L1-icache accesses" },
	{ CACHE_CONFIG(DTLB, READ, MISS), SHADOW_DTLB, "of all dTLB cache accesses" },
	{ CACHE_CONFIG(ITLB, READ, MISS), SHADOW_ITLB, "of all iTLB cache accesses" },
	{ CACHE_CONFIG(LL, READ, MISS), SHADOW_LL_CACHE, "of all LL-cache accesses" },
};

static int shadow_kind(const struct evsel *evsel)
{
	size_t i;

	if (evsel__is_clock(evsel))
		return SHADOW_NSECS;
	for (i = 0; i < ARRAY_SIZE(shadow_events); i++)
		if (evsel__match(evsel, shadow_events[i].type, shadow_events[i].config))
			return shadow_events[i].kind;
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
		for (s = 0; s < evsel__nr_aggr(evsel); s++) {
			struct stat_shadow_entry *e;

			e = stat_shadow__get(&config->shadow, kind, shadow_ctx(kind, evsel), s,
					     evsel->cgrp);
			if (!e)
				return -ENOMEM;
			stats__update(&e->stats, (double)evsel__stat(evsel)->aggr[s].val);
		}
	}
	return 0;
}

/* The mean of a metric input; *found: it was counted at all (perf's "n"). */
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

/* The line being printed: what perf's struct outstate holds. */
struct outstate {
	struct evsel *evsel;
	int slot;
	/* default layout: the next metric goes on a line of its own */
	bool newline;
};

static void print_prefix(struct stat_config *config, struct evsel *evsel, int slot);

/* A metric's own line in the default layout: indented under the metrics. */
static void do_new_line_std(struct stat_config *config, struct outstate *os)
{
	fputc('\n', config->out);
	print_prefix(config, os->evsel, os->slot);
	if (config->aggr == STAT_AGGR_NONE)
		fprintf(config->out, "%8s", "");
	fprintf(config->out, "%49s", "");
}

/*
 * A second metric of one event ("stalled cycles per insn" after "insn per
 * cycle") starts a line: in the default layout once it is printed, with -x
 * with the counter's fields left empty, with -j as an object of its own.
 */
static void new_line(struct stat_config *config, struct outstate *os)
{
	int i, nfields;

	switch (config->fmt) {
	case STAT_OUT_CSV:
		fputc('\n', config->out);
		print_prefix(config, os->evsel, os->slot);
		/* value, unit, event[, cgroup]; with -A one more, as perf counts them */
		nfields = 3 + (config->aggr == STAT_AGGR_NONE ? 1 : 0) + (os->evsel->cgrp ? 1 : 0);
		for (i = 0; i < nfields; i++)
			fputs(config->csv_sep, config->out);
		return;
	case STAT_OUT_JSON:
		fputc('\n', config->out);
		print_prefix(config, os->evsel, os->slot);
		return;
	case STAT_OUT_STD:
	default:
		os->newline = true;
		return;
	}
}

static void print_metric(struct stat_config *config, struct outstate *os,
			 const char *fmt, const char *unit, double val)
{
	FILE *out = config->out;
	bool newline = os->newline;
	char buf[64], *end;
	const char *vals;
	int n;

	os->newline = false;
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
		if (newline)
			do_new_line_std(config, os);
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

/* Misses as a share of what they missed of: branches, or a cache's reads. */
static void print_ratio_pct(struct stat_config *config, struct outstate *os, int kind,
			    double avg, const char *unit)
{
	double total, ratio = 0.0;
	bool found;

	total = shadow_avg(config, kind, os->evsel, os->slot, &found);
	if (!found) {
		print_metric(config, os, NULL, unit, 0);
		return;
	}
	if (total)
		ratio = avg / total * 100.0;
	print_metric(config, os, "%7.2f%%", unit, ratio);
}

static void print_instructions(struct stat_config *config, struct outstate *os, double avg)
{
	struct evsel *evsel = os->evsel;
	double total, stalled_back;
	bool found;

	total = shadow_avg(config, SHADOW_CYCLES, evsel, os->slot, &found);
	if (total)
		print_metric(config, os, "%7.2f ", "insn per cycle", avg / total);
	else
		print_metric(config, os, NULL, "insn per cycle", 0);
	total = shadow_avg(config, SHADOW_STALLED_FRONT, evsel, os->slot, &found);
	stalled_back = shadow_avg(config, SHADOW_STALLED_BACK, evsel, os->slot, &found);
	if (stalled_back > total)
		total = stalled_back;
	if (total && avg) {
		new_line(config, os);
		print_metric(config, os, "%7.2f ", "stalled cycles per insn", total / avg);
	}
}

/* perf stat 6.1's perf_stat__print_shadow_stats() for the events perfx knows */
static void print_shadow(struct stat_config *config, struct outstate *os, double avg)
{
	struct evsel *evsel = os->evsel;
	int slot = os->slot;
	double total, ratio = 0.0;
	bool found;
	size_t i;

	if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS)) {
		print_instructions(config, os, avg);
		return;
	}
	if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES)) {
		print_ratio_pct(config, os, SHADOW_BRANCHES, avg, "of all branches");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(cache_miss_metrics); i++) {
		if (evsel__match(evsel, PERF_TYPE_HW_CACHE, cache_miss_metrics[i].config)) {
			print_ratio_pct(config, os, cache_miss_metrics[i].kind, avg,
					cache_miss_metrics[i].unit);
			return;
		}
	}
	if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES)) {
		total = shadow_avg(config, SHADOW_CACHE_REFS, evsel, slot, &found);
		if (total)
			ratio = avg * 100 / total;
		if (found)
			print_metric(config, os, "%8.3f %%", "of all cache refs", ratio);
		else
			print_metric(config, os, NULL, "of all cache refs", 0);
	} else if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND)) {
		total = shadow_avg(config, SHADOW_CYCLES, evsel, slot, &found);
		if (total)
			ratio = avg / total * 100.0;
		/* as perf: no figure for none, but "0.00%" backend idle below */
		if (ratio)
			print_metric(config, os, "%7.2f%%", "frontend cycles idle", ratio);
		else
			print_metric(config, os, NULL, "frontend cycles idle", 0);
	} else if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND)) {
		total = shadow_avg(config, SHADOW_CYCLES, evsel, slot, &found);
		if (total)
			ratio = avg / total * 100.0;
		print_metric(config, os, "%7.2f%%", "backend cycles idle", ratio);
	} else if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)) {
		total = shadow_avg(config, SHADOW_NSECS, evsel, slot, &found);
		if (total)
			print_metric(config, os, "%8.3f", "GHz", avg / total);
		else
			print_metric(config, os, NULL, "Ghz", 0);
	} else if (evsel__is_clock(evsel)) {
		total = config->interval ? config->interval * 1000000.0 :
			stats__avg(&config->walltime);
		if (total)
			print_metric(config, os, "%8.3f", "CPUs utilized",
				     avg / (total * evsel->scale));
		else
			print_metric(config, os, NULL, "CPUs utilized", 0);
	} else if (shadow_avg(config, SHADOW_NSECS, evsel, slot, &found), found) {
		char unit = ' ', unit_buf[10] = "/sec";

		total = shadow_avg(config, SHADOW_NSECS, evsel, slot, &found);
		if (total)
			ratio = convert_unit_double(1000000000.0 * avg / total, &unit);
		if (unit != ' ')
			snprintf(unit_buf, sizeof(unit_buf), "%c/sec", unit);
		print_metric(config, os, "%8.3f", unit_buf, ratio);
	} else {
		print_metric(config, os, NULL, NULL, 0);
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
		const struct cpu_map *cpus = evsel->cpus;
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
	if (config->fmt == STAT_OUT_JSON) {
		fprintf(config->out, "\"cgroup\" : \"");
		escape__fputs_json(config->out, name);
		fprintf(config->out, "\", ");
		return;
	}
	fputs(config->csv_sep, config->out);
	if (config->fmt == STAT_OUT_CSV)
		escape__fputs_csv(config->out, name, config->csv_sep);
	else
		escape__fputs_ctrl(config->out, name);
}

/* "event" : "NAME", with NAME valid in a JSON string whatever it holds */
static void print_json_event(FILE *out, const struct evsel *evsel)
{
	fprintf(out, "\"event\" : \"");
	escape__fputs_json(out, evsel->name);
	fprintf(out, "\", ");
}

static void print_noise(struct stat_config *config, struct evsel *evsel, double avg)
{
	double pct;

	if (config->run_count == 1)
		return;
	pct = stats__rel(stats__stddev(&evsel__stat(evsel)->res_stats), avg);
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
	struct evsel_counts *c = &evsel__stat(evsel)->aggr[slot];
	double uval = (double)c->val * evsel->scale;
	bool integer = floor(evsel->scale) == evsel->scale;
	struct outstate os = { evsel, slot, false };
	FILE *out = config->out;

	print_prefix(config, evsel, slot);
	if (!evsel->supported || c->run == 0 || c->ena == 0) {
		const char *what = evsel->supported ? CNTR_NOT_COUNTED : CNTR_NOT_SUPPORTED;

		if (evsel->supported)
			config->free_counters_hint = true;
		if (config->fmt == STAT_OUT_JSON) {
			fprintf(out, "\"counter-value\" : \"%s\", ", what);
			fprintf(out, "\"unit\" : \"%s\", ", evsel->unit);
			print_json_event(out, evsel);
		} else {
			fprintf(out, "%*s%s", config->fmt == STAT_OUT_CSV ? 0 : 18, what,
				config->csv_sep);
			fprintf(out, "%-*s%s", config->fmt == STAT_OUT_CSV ? 0 : config->unit_width,
				evsel->unit, config->csv_sep);
			fprintf(out, "%*s", config->fmt == STAT_OUT_CSV ? 0 : -25, evsel->name);
		}
		print_cgroup(config, evsel);
		if (config->fmt == STAT_OUT_STD)
			print_metric(config, &os, NULL, "", 0);
		print_noise(config, evsel, (double)c->val);
		print_running(config, c->run, c->ena);
		if (config->fmt != STAT_OUT_STD)
			print_metric(config, &os, config->fmt == STAT_OUT_JSON ? "" : NULL, "", 0);
		fprintf(out, "\n");
		return;
	}

	if (config->fmt == STAT_OUT_JSON) {
		fprintf(out, "\"counter-value\" : \"%f\", ", uval);
		fprintf(out, "\"unit\" : \"%s\", ", evsel->unit);
		print_json_event(out, evsel);
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
		print_shadow(config, &os, uval);
		print_noise(config, evsel, (double)c->val);
		print_running(config, c->run, c->ena);
	} else {
		print_noise(config, evsel, (double)c->val);
		print_running(config, c->run, c->ena);
		print_shadow(config, &os, uval);
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
		for (s = 0; s < evsel__nr_aggr(evsel); s++)
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
