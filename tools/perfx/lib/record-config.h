/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_RECORD_CONFIG_H
#define __PERFX_RECORD_CONFIG_H

#include <linux/types.h>
#include <stdbool.h>

struct evlist;
struct evsel;

/* What perf record's command line says about the events' attrs. */
struct record_opts {
	unsigned int	freq;		/* -F, 4000 by default */
	__u64		period;		/* -c */
	bool		user_freq;	/* -F given */
	bool		user_period;	/* -c given */
	bool		callgraph;	/* -g: frame-pointer callchains */
	bool		no_inherit;	/* -i */
	bool		sample_cpu;	/* -a or -C: samples say their CPU */
	bool		enable_on_exec;	/* a workload is the target */
	bool		use_clockid;	/* -k */
	int		clockid;
	bool		no_lost;	/* the kernel has no PERF_FORMAT_LOST */
	bool		pipe;		/* -o -: samples carry their event's id */
};

#define RECORD_DEFAULT_FREQ	4000

/*
 * perf's evlist__config() for record: every event's sample_type, read
 * format and flags as perf sets them for the same command line; with
 * @opts->sample_cpu a tracking dummy event is appended first (perf's
 * "dummy:HG") to carry the side-band records, else the first event
 * carries them.  Samples get ID, or IDENTIFIER where sample_types differ;
 * a pipe's single event gets ID too, which its EVENT_UPDATE records name.
 */
int evlist__config_record(struct evlist *evlist, const struct record_opts *opts);
/* The trailer sample_id_all puts on non-sample records, for @sample_type. */
__u16 record__id_hdr_size(__u64 sample_type);

#endif /* __PERFX_RECORD_CONFIG_H */
