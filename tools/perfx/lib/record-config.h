/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_RECORD_CONFIG_H
#define __PERFX_RECORD_CONFIG_H

#include <linux/types.h>
#include <stdbool.h>

struct evlist;
struct evsel;

/* perf's --call-graph record modes; -g is fp unless one was chosen */
enum record_callgraph {
	RECORD_CALLGRAPH_NONE,
	RECORD_CALLGRAPH_FP,
	RECORD_CALLGRAPH_DWARF,
	RECORD_CALLGRAPH_LBR,
};

#define RECORD_DWARF_DUMP_SIZE	8192	/* perf's default user stack copy */
#define RECORD_DWARF_DUMP_MAX	65528	/* USHRT_MAX rounded down to a u64 */

/* What perf record's command line says about the events' attrs. */
struct record_opts {
	unsigned int	freq;		/* -F, 4000 by default */
	__u64		period;		/* -c */
	bool		user_freq;	/* -F given */
	bool		user_period;	/* -c given */
	enum record_callgraph callgraph;	/* -g, --call-graph */
	unsigned int	dump_size;	/* --call-graph dwarf,SIZE, a multiple of 8 */
	unsigned int	max_stack;	/* --call-graph fp,DEPTH; 0: the kernel's */
	bool		no_inherit;	/* -i */
	bool		cpu_target;	/* -a, -C: a tracking dummy, samples' CPU */
	bool		sample_cpu;	/* --sample-cpu */
	bool		sample_address;	/* -d, or dwarf callchains */
	bool		sample_phys_addr;	/* --phys-data */
	bool		sample_period;	/* -P */
	bool		sample_weight;	/* -W */
	bool		raw_samples;	/* -R */
	bool		inherit_stat;	/* -s */
	bool		switch_events;	/* --switch-events */
	bool		namespaces;	/* --namespaces */
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
 * @opts->cpu_target a tracking dummy event is appended first (perf's
 * "dummy:HG") to carry the side-band records, else the first event
 * carries them.  Samples get ID, or IDENTIFIER where sample_types differ;
 * a pipe's single event gets ID too, which its EVENT_UPDATE records name.
 */
int evlist__config_record(struct evlist *evlist, const struct record_opts *opts);
/*
 * --call-graph's value, as perf's parse_callchain_record(): "fp[,depth]",
 * "dwarf[,bytes]" or "lbr".  -EINVAL for an unknown mode, -ERANGE for a
 * dwarf size that is not 1 to RECORD_DWARF_DUMP_MAX.
 */
int record_opts__parse_callgraph(struct record_opts *opts, const char *arg);
/*
 * A number of bytes: digits and an optional B, K, M or G (any case);
 * *@unit says whether a suffix was there.  The digits stay below 2^32.
 */
int record__parse_size(const char *s, unsigned long long *bytes, bool *unit);
/*
 * -m's data or AUX part, as perf's parse_pages_arg(): pages, or a size
 * rounded up to pages of @page_size, then up to a power of two (which
 * *@rounded says: perf tells the user).  -EINVAL for 0 or above UINT_MAX
 * pages, or anything but a number.
 */
int record__parse_mmap_pages(const char *s, unsigned long page_size, unsigned int *pages,
			     bool *rounded);
/*
 * perf's default ring: perf_event_mlock_kb (@mlock_kb, < 0 when it cannot
 * be read: then 512 KiB) less one page for the control page, in pages of
 * @page_size, rounded down to a power of two; at least one.
 */
unsigned int record__default_mmap_pages(long mlock_kb, unsigned long page_size);

#endif /* __PERFX_RECORD_CONFIG_H */
