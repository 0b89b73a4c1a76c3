/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_RECORD_H
#define __PERFX_RECORD_H

#include <linux/types.h>
#include <stdbool.h>

#include "lib/build-id-pass.h"
#include "lib/data.h"
#include "lib/header.h"
#include "lib/perf-data.h"
#include "lib/record-rings.h"
#include "lib/workload.h"
#include "record-options.h"

struct evlist;
struct numa_topo;

/*
 * One perfx record run, shared by the files of the command: its events
 * (record-events.c), their rings (record-mmap.c), the output
 * (record-output.c), and the run itself (builtin-record.c).
 */
struct record {
	struct record_args	args;		/* the command line */
	struct workload		work;
	int			workload_status;
	bool			workload_failed;	/* perf's message said why */

	struct evlist		*evlist;
	bool			default_event;
	struct numa_topo	*topo;
	struct record_rings	rings;
	struct perfx_header	header;
	struct perfx_data	data;		/* -o: the path, its fd and kind */
	struct perfx_writer	out;		/* buffered writes into data.fd */
	bool			pipe;		/* a pipe's stream: stdout or a FIFO */
	__u64			data_start;	/* where the records begin */
	unsigned long		waking;
	/* what the walk for build-ids saw: samples, records, what was lost */
	struct build_id_pass	pass;
};

/* -a or -C without -p or -t: every task on the CPUs */
bool record__cpu_target(const struct record *rec);
/* the events of -e, or perf's default; their CPUs and tasks; then open them */
int record__setup_events(struct record *rec);
int record__setup_maps(struct record *rec);
int record__open(struct record *rec);

/* each CPU's ring, all of that CPU's events into it; once the output is open, start them */
int record__mmap(struct record *rec);
int record__start_rings(struct record *rec);
/* -v: what each node's rings gave */
void record__report_nodes(struct record *rec);

/* -o as perf opens it; its header; a marker record (FINISHED_ROUND, _INIT) */
int record__open_output(struct record *rec);
int record__write_header(struct record *rec, int argc, const char **argv);
int record__write_marker(struct record *rec, __u32 type);
/*
 * The end of a run that got as far as writing: the rings drained, the
 * file finished (lost samples, build-ids, features) and perf's closing
 * lines, else what record__cut_short() keeps.  Returns @err, or the first
 * error of finishing.
 */
int record__finish(struct record *rec, int err);
/* what a run that cannot finish keeps of its output; returns @err */
int record__cut_short(struct record *rec, int err, __u64 bad_off);

#endif /* __PERFX_RECORD_H */
