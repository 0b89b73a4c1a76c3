// SPDX-License-Identifier: GPL-2.0
/*
 * perfx record's command line (record-options.h): perf record's options,
 * their usage text and their checks, in perf's order and with its words,
 * into a struct record_args that builtin-record.c records with.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/debug.h"
#include "lib/parse-options.h"
#include "lib/sysfs.h"
#include "record-options.h"

static const char * const record_usage[] = {
	"perfx record [<options>] [<command>]",
	"perfx record [<options>] -- <command> [<options>]",
	NULL
};

enum {
	OPT_NUM_THREAD_SYNTH = 256,
	OPT_PROC_MAP_TIMEOUT,
	OPT_AFFINITY,
	OPT_AIO,
	OPT_MMAP_FLUSH,
	OPT_BUILDID_ALL,
	OPT_CALL_GRAPH,
	OPT_NAMESPACES,
	OPT_PHYS_DATA,
	OPT_SAMPLE_CPU,
	OPT_SWITCH_EVENTS,
};

#define CALL_GRAPH_HELP \
	"setup and enables call-graph (stack chain/backtrace):\n\n" \
	"\t\t\t\trecord_mode:\tcall graph recording mode (fp|dwarf|lbr)\n" \
	"\t\t\t\trecord_size:\tif record_mode is 'dwarf', max size of stack recording (<bytes>)\n" \
	"\t\t\t\t\t\tdefault: 8192 (bytes)\n\n" \
	"\t\t\t\tDefault: fp"

static int record__bad_value(const char *opt, const char *arg, const char *expected);

#define RECORD_AIO_MAX		4	/* perf's --aio buffers a ring, at most */

static int record_opt__events(void *p, const char *arg)
{
	struct record_args *args = p;

	if (args->nr_events == (int)ARRAY_SIZE(args->events))
		return record__bad_value("-e", arg, "at most 64 -e options");
	args->events[args->nr_events++] = arg;
	return 0;
}

static int max_sample_rate(unsigned long long *rate)
{
	char buf[32];

	if (sysfs__read("/proc/sys/kernel/perf_event_max_sample_rate", buf, sizeof(buf)) ||
	    perfx__parse_ull(buf, 0, 0, UINT_MAX, rate) || !*rate)
		return -EINVAL;
	return 0;
}

/* -F max: the kernel's perf_event_max_sample_rate */
static int record_args__max_freq(struct record_args *args)
{
	unsigned long long rate;

	if (max_sample_rate(&rate)) {
		fprintf(stderr, "perfx record: -F max: cannot read /proc/sys/kernel/perf_event_max_sample_rate\n");
		return 255;
	}
	args->opts.freq = rate;
	args->opts.user_freq = true;
	return 0;
}

/* as perf: above the kernel's limit the frequency is lowered, with its words */
void record_args__check_freq(struct record_args *args)
{
	unsigned long long rate;

	if (!args->opts.user_period && !max_sample_rate(&rate) && args->opts.freq > rate) {
		pr_warning("Maximum frequency rate (%llu Hz) exceeded, throttling from %u Hz to %llu Hz.\n"
			   "The limit can be raised via /proc/sys/kernel/perf_event_max_sample_rate.\n"
			   "The kernel will lower it when perf's interrupts take too long.\n",
			   rate, args->opts.freq, rate);
		args->opts.freq = rate;
	}
}

/* -k: perf's clock names, with or without CLOCK_, or a number */
static int record__parse_clockid(const char *arg, int *clockid)
{
	static const struct { const char *name; int id; } clocks[] = {
		{ "monotonic", CLOCK_MONOTONIC }, { "mono", CLOCK_MONOTONIC },
		{ "monotonic_raw", CLOCK_MONOTONIC_RAW }, { "raw", CLOCK_MONOTONIC_RAW },
		{ "realtime", CLOCK_REALTIME }, { "real", CLOCK_REALTIME },
		{ "boottime", CLOCK_BOOTTIME }, { "boot", CLOCK_BOOTTIME },
		{ "tai", CLOCK_TAI },
	};
	unsigned long long v;
	size_t i;

	if (!strncasecmp(arg, "CLOCK_", 6))
		arg += 6;
	for (i = 0; i < ARRAY_SIZE(clocks); i++) {
		if (!strcasecmp(arg, clocks[i].name)) {
			*clockid = clocks[i].id;
			return 0;
		}
	}
	if (perfx__parse_ull(arg, 0, 0, INT_MAX, &v))
		return -EINVAL;
	*clockid = (int)v;
	return 0;
}

/* perf's unit_number__scnprintf(): "16K", "2M", "1024B" */
static void record_args__print_pages(struct record_args *args, unsigned int pages)
{
	unsigned long long n = (unsigned long long)pages * sysconf(_SC_PAGESIZE);
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	if (!args->quiet)
		fprintf(stderr, "rounding mmap pages size to %llu%c (%u pages)\n", n, "BKMG"[i],
			pages);
}

/* -m pages[,pages]: the ring's data pages, and AUX pages perfx takes for perf's lines */
static int record_opt__mmap(void *p, const char *arg)
{
	struct record_args *args = p;
	unsigned long page = sysconf(_SC_PAGESIZE);
	const char *comma = strchr(arg, ',');
	unsigned int *pages[2] = { &args->mmap_pages, &args->aux_pages };
	char part[64];
	int i, len;

	for (i = 0; i < 2; i++) {
		const char *s = i ? comma + 1 : arg;
		bool rounded;

		if (i && !comma)
			break;
		len = i || !comma ? (int)strlen(s) : (int)(comma - arg);
		if (!i && !len && comma)	/* ",N": only the AUX part, as perf */
			continue;
		if (len < (int)sizeof(part)) {
			memcpy(part, s, len);
			part[len] = '\0';
		}
		if (len >= (int)sizeof(part) ||
		    record__parse_mmap_pages(part, page, pages[i], &rounded))
			return record__bad_value("-m", arg,
						 "pages or a size like 512K, and optionally ,AUX pages");
		if (rounded)
			record_args__print_pages(args, *pages[i]);
	}
	return 0;
}

/* perf's default ring size, from the locked-memory limit perf_event_mlock_kb */
static unsigned int record__default_pages(void)
{
	unsigned long long kb;
	char buf[32];

	if (sysfs__read("/proc/sys/kernel/perf_event_mlock_kb", buf, sizeof(buf)) ||
	    perfx__parse_ull(buf, 0, 0, LONG_MAX, &kb))
		return record__default_mmap_pages(-1, sysconf(_SC_PAGESIZE));
	return record__default_mmap_pages(kb, sysconf(_SC_PAGESIZE));
}

/* --call-graph; a depth the kernel's perf_event_max_stack does not exceed counts, as perf */
static int record_opt__callgraph(void *p, const char *arg)
{
	struct record_args *args = p;
	unsigned long long max;
	char buf[32];
	int err;

	err = record_opts__parse_callgraph(&args->opts, arg);
	if (err)
		return record__bad_value("--call-graph", arg, err == -ERANGE ?
					 "dwarf with a stack size of 1 to 65528 bytes" :
					 "fp[,depth], dwarf[,size] or lbr");
	if (args->opts.max_stack &&
	    (sysfs__read("/proc/sys/kernel/perf_event_max_stack", buf, sizeof(buf)) ||
	     perfx__parse_ull(buf, 0, 0, UINT_MAX, &max) || args->opts.max_stack >= max))
		args->opts.max_stack = 0;
	return 0;
}

/* the other options' callbacks: @p is the struct record_args */

static int record_opt__period(void *p, const char *arg)
{
	struct record_args *args = p;
	unsigned long long v;

	if (perfx__parse_ull(arg, 0, 0, ULLONG_MAX, &v) || !v)
		return record__bad_value("-c", arg, "a period above 0");
	args->opts.period = v;
	args->opts.user_period = true;
	return 0;
}

static int record_opt__freq(void *p, const char *arg)
{
	struct record_args *args = p;
	unsigned long long v;

	if (!strcmp(arg, "max"))
		return record_args__max_freq(args);
	if (perfx__parse_ull(arg, 0, 0, UINT_MAX, &v) || !v)
		return record__bad_value("-F", arg, "a frequency above 0 or 'max'");
	args->opts.freq = v;
	args->opts.user_freq = true;
	return 0;
}

/* -g: frame pointers, unless --call-graph chose */
static int record_opt__g(void *p, const char *arg __maybe_unused)
{
	struct record_args *args = p;

	if (!args->opts.callgraph)
		args->opts.callgraph = RECORD_CALLGRAPH_FP;
	return 0;
}

static int record_opt__clockid(void *p, const char *arg)
{
	struct record_args *args = p;

	if (record__parse_clockid(arg, &args->opts.clockid))
		return record__bad_value("-k", arg,
					 "a clock name (monotonic, monotonic_raw, realtime, boottime, tai) or number");
	args->opts.use_clockid = true;
	return 0;
}

static int record_opt__synth_threads(void *p, const char *arg)
{
	struct record_args *args = p;
	unsigned long long v;

	if (perfx__parse_ull(arg, 0, 0, 1024, &v))
		return record__bad_value("--num-thread-synthesize", arg, "0 to 1024 threads");
	/* perf's 0 is one thread, as its 1 */
	args->synth.nr_threads = v ? v : 1;
	return 0;
}

static int record_opt__proc_map_timeout(void *p, const char *arg)
{
	struct record_args *args = p;
	unsigned long long v;

	if (perfx__parse_ull(arg, 0, 0, UINT_MAX, &v))
		return record__bad_value("--proc-map-timeout", arg, "milliseconds");
	args->synth.proc_map_timeout_ms = v;
	return 0;
}

static int record_opt__affinity(void *p, const char *arg)
{
	struct record_args *args = p;

	if (read_affinity__parse(arg, &args->affinity))
		return record__bad_value("--affinity", arg, "node, cpu or sys");
	return 0;
}

static int record_opt__aio(void *p, const char *arg)
{
	struct record_args *args = p;
	unsigned long long v = 1;

	if (arg && (perfx__parse_ull(arg, 0, 0, RECORD_AIO_MAX, &v) || !v))
		return record__bad_value("--aio", arg, "1 to 4 buffers per ring");
	args->nr_aio = v;
	return 0;
}

static int record_opt__mmap_flush(void *p, const char *arg)
{
	struct record_args *args = p;
	bool unit;

	/* perf's 0 is its default, 1 */
	if (record__parse_size(arg, &args->mmap_flush, &unit))
		return record__bad_value("--mmap-flush", arg, "a number of bytes, or a size like 16K");
	return 0;
}

#define RA(field)	struct record_args, field

/* perf record's options that perfx has, as perf's OPT_* table */
static const struct usage_option record_options[] = {
	USAGE_BOOL('a', "all-cpus", "system-wide collection from all CPUs", RA(system_wide)),
	USAGE_BOOL('B', "no-buildid", "do not collect buildids in perf.data", RA(no_buildid)),
	USAGE_STRING('C', "cpu", "cpu", "list of cpus to monitor", RA(cpu_list)),
	USAGE_CALLBACK('c', "count", "n", "event period to sample", 0, 0, record_opt__period),
	USAGE_BOOL('d', "data", "Record the sample addresses", RA(opts.sample_address)),
	USAGE_CALLBACK('e', "event", "event",
		       "event selector. use 'perf list' to list available events", 0, 0,
		       record_opt__events),
	USAGE_CALLBACK('F', "freq", "freq or 'max'", "profile at this frequency", 0, 0,
		       record_opt__freq),
	USAGE_CALLBACK('g', NULL, NULL, "enables call-graph recording", 0, 0, record_opt__g),
	USAGE_BOOL('i', "no-inherit", "child tasks do not inherit counters", RA(opts.no_inherit)),
	USAGE_CALLBACK('k', "clockid", "clockid", "clockid to use for events, see clock_gettime()",
		       0, 0, record_opt__clockid),
	USAGE_CALLBACK('m', "mmap-pages", "pages[,pages]",
		       "number of mmap data pages and AUX area tracing mmap pages", 0, 0,
		       record_opt__mmap),
	/* perfx keeps no build-id cache */
	USAGE_NOOP('N', "no-buildid-cache", "do not update the buildid cache"),
	USAGE_STRING('o', "output", "file", "output file name", RA(output)),
	USAGE_BOOL('P', "period", "Record the sample period", RA(opts.sample_period)),
	USAGE_STRING('p', "pid", "pid", "record events on existing process id", RA(pid_list)),
	USAGE_BOOL('q', "quiet", "don't print any warnings or messages", RA(quiet)),
	USAGE_BOOL('R', "raw-samples", "collect raw sample records from all opened counters",
		   RA(opts.raw_samples)),
	USAGE_BOOL('s', "stat", "per thread counts", RA(opts.inherit_stat)),
	USAGE_STRING('t', "tid", "tid", "record events on existing thread id", RA(tid_list)),
	/* samples always have their time, as perf's for every target */
	USAGE_NOOP('T', "timestamp", "Record the sample timestamps"),
	USAGE_INCR('v', "verbose", "be more verbose (show counter open errors, etc)", RA(verbose)),
	USAGE_BOOL('W', "weight", "sample by weight (on special events only)",
		   RA(opts.sample_weight)),
	USAGE_BOOL_KEY("buildid-all", "Record build-id of all DSOs regardless of hits", 0,
		       OPT_BUILDID_ALL, RA(buildid_all)),
	USAGE_CALLBACK(0, "call-graph", "record_mode[,record_size]", CALL_GRAPH_HELP, 0,
		       OPT_CALL_GRAPH, record_opt__callgraph),
	USAGE_BOOL_KEY("namespaces", "Record namespaces events", 0, OPT_NAMESPACES,
		       RA(opts.namespaces)),
	USAGE_BOOL_KEY("phys-data", "Record the sample physical addresses", 0, OPT_PHYS_DATA,
		       RA(opts.sample_phys_addr)),
	USAGE_BOOL_KEY("sample-cpu", "Record the sample cpu", 0, OPT_SAMPLE_CPU,
		       RA(opts.sample_cpu)),
	USAGE_BOOL_KEY("switch-events", "Record context switch events", 0, OPT_SWITCH_EVENTS,
		       RA(opts.switch_events)),
	USAGE_CALLBACK(0, "num-thread-synthesize", "n",
		       "number of threads to run for event synthesis", 0, OPT_NUM_THREAD_SYNTH,
		       record_opt__synth_threads),
	USAGE_CALLBACK(0, "proc-map-timeout", "n", "per thread proc mmap processing timeout in ms",
		       0, OPT_PROC_MAP_TIMEOUT, record_opt__proc_map_timeout),
	USAGE_CALLBACK(0, "affinity", "node|cpu",
		       "Set affinity mask of trace reading thread to NUMA node cpu mask or cpu of processed mmap buffer",
		       0, OPT_AFFINITY, record_opt__affinity),
	USAGE_CALLBACK(0, "aio", "n",
		       "Use <n> control blocks in asynchronous trace writing mode (default: 1, max: 4)",
		       USAGE_OPT_OPTARG, OPT_AIO, record_opt__aio),
	USAGE_CALLBACK(0, "mmap-flush", "number",
		       "Minimal number of bytes that is extracted from mmap data pages (default: 1)",
		       0, OPT_MMAP_FLUSH, record_opt__mmap_flush),
	{ 'h', "help", NULL, "show this help", USAGE_OPT_HIDDEN },
	{ 0, NULL, NULL, NULL, 0 }
};
#undef RA

void record__usage(FILE *f)
{
	usage_with_options(f, record_usage, record_options);
}

int record__print_events_error(const char *events, const struct parse_events_error *perr,
			       int err)
{
	return parse_events__print_error(events, perr, err, record_usage, record_options);
}

static int record__bad_value(const char *opt, const char *arg, const char *expected)
{
	fprintf(stderr, "perfx record: %s '%s': expected %s (EINVAL)\n", opt, arg, expected);
	/* the usage of -x, or of a long option by its name */
	usage_with_options_names(stderr, record_usage, record_options,
				 strncmp(opt, "--", 2) ? opt : opt + 2);
	return USAGE_EXIT_STATUS;
}

bool record_args__task_target(const struct record_args *args)
{
	return args->pid_list || args->tid_list;
}

int record_args__parse(struct record_args *args, int argc, char **argv)
{
	int err;

	/* perf's defaults, which the options override */
	args->output = "perf.data";
	args->opts.freq = RECORD_DEFAULT_FREQ;
	args->synth.proc_map_timeout_ms = SYNTHESIZE_PROC_MAP_TIMEOUT;

	err = usage_options__parse(stderr, record_usage, record_options, argc, argv, args);
	if (err < 0) {
		fprintf(stderr, "perfx record: %s\n", strerror(-err));
		return 1;
	}
	if (err)
		return err;
	args->argc = argc - optind;
	args->argv = argv + optind;
	if (!args->mmap_pages)
		args->mmap_pages = record__default_pages();
	if (args->nr_aio && !strcmp(args->output, "-")) {
		fprintf(stderr, "perfx record: --aio writes at offsets in a file, not into a pipe (-o -) (EINVAL)\n");
		usage_with_options_names(stderr, record_usage, record_options, "aio -o");
		return USAGE_EXIT_STATUS;
	}
	/* as perf's target__validate(): a task target wins, with a warning */
	if (record_args__task_target(args) && (args->cpu_list || args->system_wide) && !args->quiet)
		fprintf(stderr, "Warning:\nPID/TID switch overriding %s\n",
			args->cpu_list ? "CPU" : "SYSTEM");
	/* nothing to run and no target: every CPU until SIGINT, as perf */
	if (!args->argc && !args->cpu_list && !record_args__task_target(args))
		args->system_wide = true;
	return 0;
}
