/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_STAT_OPTIONS_H
#define __PERFX_STAT_OPTIONS_H

#include <stdbool.h>

#include "lib/evlist.h"

struct parse_events_error;

/* What perfx stat's command line asks for. */
struct stat_opts {
	/* each -e, parsed on its own as perf does */
	const char **events;
	int nr_events;
	bool system_wide;
	const char *cpu_list;
	const char *pid_list;
	const char *tid_list;
	bool no_aggr;
	unsigned int interval;
	int repeat;
	const char *csv_sep;
	bool json;
	const char *output;
	bool no_big_num;
	const char *cgroup_list;
	const char *for_each_cgroup;
	enum evlist_cgroup_mode cgroup_mode;
	bool cgroup_mode_given;
	bool follow_cgroups;
	int max_cgroups;
	/* --serve's address: counts are served, not printed */
	const char *serve;
	int verbose;
	char **argv;
	int argc;
};

/*
 * perf stat's defaults into @opts (zeroed), then the options of @argv and
 * their combinations checked: 0, an exit status once what is wrong was
 * printed (129 for a usage error or -h), or -errno.
 * @opts->argv points into @argv, at the command.
 */
int stat_opts__parse(struct stat_opts *opts, int argc, char **argv);
/* parse_events__print_error() for an -e of stat, with its usage */
int stat_opts__print_events_error(const char *events, const struct parse_events_error *perr,
				  int err);

#endif /* __PERFX_STAT_OPTIONS_H */
