// SPDX-License-Identifier: GPL-2.0
/*
 * perfx stat's command line (stat-options.h): perf stat's options and the
 * cgroup modes' own, one table with what each does, their usage text
 * and their checks, into a struct stat_opts that builtin-stat.c counts
 * with.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "lib/cgroup-share.h"
#include "lib/data.h"
#include "lib/escape.h"
#include "lib/parse-events.h"
#include "lib/parse-options.h"
#include "lib/util.h"
#include "stat-options.h"

static const char * const stat_usagestr[] = {
	"perfx stat [<options>] [<command>]",
	NULL
};

/* the keys of the options that have no short name */
enum {
	OPT_NO_BIG_NUM = 256,
	OPT_FOR_EACH_CGROUP,
	OPT_CGROUP_MODE,
	OPT_SERVE,
	OPT_FOLLOW_CGROUPS,
	OPT_MAX_CGROUPS,
};

/* --follow-cgroups counts this many cgroups at most, unless told */
#define STAT_MAX_CGROUPS	1024

static int stat_usage_error(const char *names, const char *fmt, ...) __printf(2, 3);
static int stat_value_error(const char *name, const char *fmt, ...) __printf(2, 3);

/* the options' callbacks: @p is the struct stat_opts */

static int stat_opt__event(void *p, const char *arg)
{
	struct stat_opts *opts = p;
	const char **n = realloc(opts->events, (opts->nr_events + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	n[opts->nr_events++] = arg;
	opts->events = n;
	return 0;
}

static int stat_opt__interval(void *p, const char *arg)
{
	struct stat_opts *opts = p;
	unsigned long long v;
	int err;

	/* as perf 6.1: 0 is no interval, below 10 ms is taken too */
	err = perfx__parse_ull(arg, 10, 0, UINT_MAX, &v);
	if (err)
		return stat_value_error("-I", "-I '%s': expected milliseconds from 0 (none) to %u (%s)",
					arg, UINT_MAX, perfx__errname(err));
	opts->interval = (unsigned int)v;
	return 0;
}

static int stat_opt__repeat(void *p, const char *arg)
{
	struct stat_opts *opts = p;
	unsigned long long v;
	int err;

	err = perfx__parse_ull(arg, 10, 1, INT_MAX, &v);
	if (err)
		return stat_value_error("-r", "-r '%s': expected a count from 1 to %d (%s)",
					arg, INT_MAX, perfx__errname(err));
	opts->repeat = (int)v;
	return 0;
}

static int stat_opt__big_num(void *p, const char *arg __maybe_unused)
{
	struct stat_opts *opts = p;

	opts->no_big_num = false;
	return 0;
}

static int stat_opt__cgroup(void *p, const char *arg)
{
	struct stat_opts *opts = p;

	if (!opts->events)
		return stat_usage_error("-G", "must define events before cgroups");
	opts->cgroup_list = arg;
	return 0;
}

static int stat_opt__cgroup_mode(void *p, const char *arg)
{
	static const struct { const char *name; enum evlist_cgroup_mode mode; } modes[] = {
		{ "auto", EVLIST_CGROUP_AUTO },
		{ "shared", EVLIST_CGROUP_SHARED },
		{ "bpf", EVLIST_CGROUP_BPF },
		{ "per-cgroup", EVLIST_CGROUP_EVENTS },
	};
	struct stat_opts *opts = p;
	size_t i;

	opts->cgroup_mode_given = true;
	for (i = 0; i < ARRAY_SIZE(modes); i++) {
		if (!strcmp(arg, modes[i].name)) {
			opts->cgroup_mode = modes[i].mode;
			return 0;
		}
	}
	return stat_value_error("cgroup-mode",
				"--cgroup-mode '%s': expected auto, shared, bpf or per-cgroup (EINVAL)",
				arg);
}

static int stat_opt__max_cgroups(void *p, const char *arg)
{
	struct stat_opts *opts = p;
	unsigned long long v;
	int err;

	err = perfx__parse_ull(arg, 10, 1, CGROUP_SHARE_ATTACH_MAX, &v);
	if (err)
		return stat_value_error("max-cgroups",
					"--max-cgroups '%s': expected a count from 1 to %d (%s)",
					arg, CGROUP_SHARE_ATTACH_MAX, perfx__errname(err));
	opts->max_cgroups = (int)v;
	return 0;
}

#define SO(field)	struct stat_opts, field

/* perf stat 6.1's words for the options it has too */
static const struct usage_option stat_options[] = {
	USAGE_CALLBACK('e', "event", "event", "event selector. use 'perfx list' to list available events",
		       0, 0, stat_opt__event),
	USAGE_BOOL('a', "all-cpus", "system-wide collection from all CPUs", SO(system_wide)),
	USAGE_STRING('C', "cpu", "cpu", "list of cpus to monitor in system-wide", SO(cpu_list)),
	USAGE_BOOL('A', "no-aggr", "disable CPU count aggregation", SO(no_aggr)),
	USAGE_STRING('p', "pid", "pid", "stat events on existing process id", SO(pid_list)),
	USAGE_STRING('t', "tid", "tid", "stat events on existing thread id", SO(tid_list)),
	USAGE_CALLBACK('I', "interval-print", "n",
		       "print counts at regular interval in ms (overhead is possible for values <= 100ms)",
		       0, 0, stat_opt__interval),
	USAGE_CALLBACK('r', "repeat", "n", "repeat command and print average + stddev", 0, 0,
		       stat_opt__repeat),
	USAGE_STRING('x', "field-separator", "separator", "print counts with custom separator",
		     SO(csv_sep)),
	USAGE_BOOL('j', "json-output", "print counts in JSON format", SO(json)),
	USAGE_STRING('o', "output", "file", "output file name", SO(output)),
	USAGE_CALLBACK('B', "big-num", NULL, "print large numbers with thousands' separators", 0,
		       0, stat_opt__big_num),
	USAGE_BOOL_KEY("no-big-num", "print numbers without thousands' separators",
		       USAGE_OPT_HIDDEN, OPT_NO_BIG_NUM, SO(no_big_num)),
	USAGE_CALLBACK('G', "cgroup", "name", "monitor event in cgroup name only", 0, 0,
		       stat_opt__cgroup),
	USAGE_STRING_KEY("for-each-cgroup", "name", "expand events for each cgroup", 0,
			 OPT_FOR_EACH_CGROUP, SO(for_each_cgroup)),
	USAGE_CALLBACK(0, "cgroup-mode", "auto|shared|bpf|per-cgroup",
		       "how --for-each-cgroup counts: shared (one event per CPU for all cgroups), bpf (one event per CPU read by BPF at cgroup switches), per-cgroup (one per cgroup, as perf) or auto (shared where the kernel has it, else bpf where it loads, else per-cgroup)",
		       0, OPT_CGROUP_MODE, stat_opt__cgroup_mode),
	USAGE_BOOL_KEY("follow-cgroups",
		       "with --for-each-cgroup: expand the list again whenever cgroups are made or removed, counting those that appear from then on and showing those that go once more",
		       0, OPT_FOLLOW_CGROUPS, SO(follow_cgroups)),
	USAGE_CALLBACK(0, "max-cgroups", "n",
		       "with --follow-cgroups: count at most n cgroups at once (default 1024)", 0,
		       OPT_MAX_CGROUPS, stat_opt__max_cgroups),
	USAGE_STRING_KEY("serve", "[addr:]port",
			 "instead of printing counts at exit, serve them to Prometheus on http://addr:port/metrics until SIGINT or SIGTERM (addr 127.0.0.1 if not given; with --for-each-cgroup)",
			 0, OPT_SERVE, SO(serve)),
	USAGE_INCR('v', "verbose", "be more verbose (show the cgroup mode, counter fds and times)",
		   SO(verbose)),
	{ 'h', "help", NULL, "show this help", USAGE_OPT_HIDDEN },
	{ 0 },
};

#undef SO

void stat__usage(FILE *f)
{
	usage_with_options(f, stat_usagestr, stat_options);
}

/*
 * As perf: what is wrong, then the usage line and the options involved
 * (@names, see usage_with_options_names()).
 */
static int stat_usage_error(const char *names, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	escape__vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (names)
		usage_with_options_names(stderr, stat_usagestr, stat_options, names);
	else
		usage_with_options(stderr, stat_usagestr, stat_options);
	return USAGE_EXIT_STATUS;
}

/* an option's value is wrong: perf's " Error: " layout */
static int stat_value_error(const char *name, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, " Error: ");
	va_start(ap, fmt);
	escape__vfprintf(stderr, fmt, ap);
	va_end(ap);
	usage_with_options_names(stderr, stat_usagestr, stat_options, name);
	return USAGE_EXIT_STATUS;
}

int stat_opts__print_events_error(const char *events, const struct parse_events_error *perr,
				  int err)
{
	return parse_events__print_error(events, perr, err, stat_usagestr, stat_options);
}

int stat_opts__parse(struct stat_opts *opts, int argc, char **argv)
{
	int err;

	opts->repeat = 1;
	opts->max_cgroups = STAT_MAX_CGROUPS;
	err = usage_options__parse(stderr, stat_usagestr, stat_options, argc, argv, opts);
	if (err)
		return err;
	opts->argc = argc - optind;
	opts->argv = argv + optind;
	if (opts->cgroup_list && opts->for_each_cgroup)
		return stat_usage_error("-G for-each-cgroup",
					"--cgroup and --for-each-cgroup cannot be used together");
	if (opts->csv_sep && opts->json)
		return stat_usage_error("-x -j", "-x and -j cannot be used together");
	if (opts->interval && opts->repeat > 1)
		return stat_usage_error("-I -r", "-I and -r cannot be used together");
	if ((opts->pid_list || opts->tid_list) && (opts->system_wide || opts->cpu_list))
		return stat_usage_error("-p -t -a -C", "-p/-t and -a/-C cannot be used together");
	if (opts->pid_list && opts->tid_list)
		return stat_usage_error("-p -t", "-p and -t cannot be used together");
	if ((opts->cgroup_list || opts->for_each_cgroup) && !opts->system_wide && !opts->cpu_list)
		return stat_usage_error("-G for-each-cgroup -a -C",
					"cgroup counting is only available system-wide (-a or -C)");
	if (!opts->argc && !opts->system_wide && !opts->cpu_list && !opts->pid_list &&
	    !opts->tid_list)
		return stat_usage_error(NULL, "nothing to count: give a command, -a, -C, -p or -t");
	if (opts->repeat > 1 && !opts->argc)
		return stat_usage_error("-r", "-r needs a command");
	if (opts->follow_cgroups && !opts->for_each_cgroup)
		return stat_usage_error("follow-cgroups for-each-cgroup",
					"--follow-cgroups needs --for-each-cgroup");
	if (opts->follow_cgroups && opts->repeat > 1)
		return stat_usage_error("follow-cgroups -r",
					"--follow-cgroups and -r cannot be used together");
	if (opts->max_cgroups != STAT_MAX_CGROUPS && !opts->follow_cgroups)
		return stat_usage_error("max-cgroups follow-cgroups",
					"--max-cgroups needs --follow-cgroups");
	if (opts->serve && !opts->for_each_cgroup)
		return stat_usage_error("serve for-each-cgroup", "--serve needs --for-each-cgroup");
	if (opts->serve && (opts->argc || opts->interval || opts->repeat > 1 || opts->no_aggr ||
			    opts->csv_sep || opts->json || opts->output))
		return stat_usage_error("serve -I -r -A -x -j -o",
					"--serve counts until SIGINT or SIGTERM and prints nothing: no command, -I, -r, -A, -x, -j or -o");
	return 0;
}
