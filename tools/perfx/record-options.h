/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_RECORD_OPTIONS_H
#define __PERFX_RECORD_OPTIONS_H

#include <linux/types.h>
#include <stdbool.h>

#include "lib/read-affinity.h"
#include "lib/record-config.h"
#include "lib/synthesize.h"

struct parse_events_error;

/* What perfx record's command line asks for. */
struct record_args {
	struct record_opts	opts;
	const char		*events[64];
	int			nr_events;
	const char		*cpu_list;
	const char		*pid_list;
	const char		*tid_list;
	const char		*output;
	bool			system_wide;
	bool			no_buildid;
	bool			buildid_all;	/* of every DSO mapped, not only those hit */
	bool			quiet;
	int			verbose;
	unsigned int		mmap_pages;	/* 0: perf's default */
	unsigned int		aux_pages;	/* -m's second part: no AUX area here */
	__u64			mmap_flush;	/* --mmap-flush as given */
	enum read_affinity_mode	affinity;
	unsigned int		nr_aio;
	struct synthesize_opts	synth;
	int			argc;		/* the workload's, after the options */
	char			**argv;
};

/*
 * perf's defaults into @args (zeroed), then the options of @argv, checked
 * in perf's order: 0, or the exit status once what is wrong was printed
 * (129 for a usage error or -h).  @args->argv points into @argv, at the
 * workload.  With neither a workload nor -C, -p or -t, -a is implied.
 */
int record_args__parse(struct record_args *args, int argc, char **argv);
/* -p or -t: existing tasks are the target */
bool record_args__task_target(const struct record_args *args);
/* as perf: -F above the kernel's perf_event_max_sample_rate is lowered, with a warning */
void record_args__check_freq(struct record_args *args);
/* parse_events__print_error() for an -e of record, with its usage */
int record__print_events_error(const char *events, const struct parse_events_error *perr,
			       int err);

#endif /* __PERFX_RECORD_OPTIONS_H */
