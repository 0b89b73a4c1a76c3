// SPDX-License-Identifier: GPL-2.0
/*
 * perfx record's output: -o opened as perf opens it, perf's header and
 * features, and its end: the lost samples, the build-id pass, perf's
 * closing lines, or the records kept when it cannot be finished.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/debug.h"
#include "lib/evlist.h"
#include "lib/evsel.h"
#include "lib/feature.h"
#include "lib/lost-samples.h"
#include "lib/parse-events.h"
#include "lib/salvage.h"
#include "lib/synthesize-evlist.h"
#include "lib/tracing-data.h"
#include "record.h"

/*
 * As perf: an existing non-empty file becomes FILE.old; a FIFO gets a
 * pipe's stream; a device is written in place.
 */
int record__open_output(struct record *rec)
{
	int err;

	err = perfx_data__open_write(&rec->data, rec->args.output, PERFX_DATA_KEEP_OLD);
	if (err)
		return err;
	rec->pipe = perfx_data__is_pipe(&rec->data);
	if (rec->pipe && rec->args.nr_aio) {
		pr_err("%s: --aio writes at offsets in a file, not into a FIFO (EINVAL)\n",
		       rec->args.output);
		perfx_data__discard(&rec->data);
		return -EINVAL;
	}
	err = perfx_writer__init(&rec->out, rec->data.fd,
				 rec->data.kind == PERFX_DATA_STDOUT ? "stdout" : rec->args.output);
	if (err)
		perfx_data__discard(&rec->data);
	return err;
}

/* TRACING_DATA: the formats of the tracepoints recorded, as "system:name" */
static int record__tracing_data(struct record *rec)
{
	struct feature_buf b = { 0 };
	struct evsel *evsel;
	int i, nr = 0, err;
	const char **tps;

	tps = calloc(evlist__nr(rec->evlist), sizeof(*tps));
	if (!tps)
		return -ENOMEM;
	evlist__for_each(rec->evlist, i, evsel)
		if (evsel__attr(evsel)->type == PERF_TYPE_TRACEPOINT)
			tps[nr++] = evsel__name(evsel);
	if (!nr) {
		free(tps);
		return 0;
	}
	err = tracing_data__build(&b, parse_events__tracefs(NULL), tps, nr);
	if (err) {
		pr_err("tracing data: cannot read the tracepoints' formats in %s: %s (%s)\n",
		       parse_events__tracefs(NULL), strerror(-err), perfx__errname(err));
		b.err = err;
	}
	free(tps);
	return feature_buf__commit(&b, &rec->header, HEADER_TRACING_DATA);
}

/* GROUP_DESC, when an event group has more than one event */
static int record__group_desc(struct record *rec)
{
	struct feature_group *groups;
	struct evsel *evsel;
	int i, nr = 0, err;

	groups = calloc(evlist__nr(rec->evlist), sizeof(*groups));
	if (!groups)
		return -ENOMEM;
	evlist__for_each(rec->evlist, i, evsel) {
		if (evsel__leader(evsel) != evsel || evsel__nr_members(evsel) < 2)
			continue;
		groups[nr++] = (struct feature_group){
			.leader_idx = i,
			.nr_members = evsel__nr_members(evsel),
		};
	}
	err = nr ? feature__add_group_desc(&rec->header, groups, nr) : 0;
	free(groups);
	return err;
}

int record__write_header(struct record *rec, int argc, const char **argv)
{
	struct evsel *evsel;
	const char **names;
	int i, err;

	names = calloc(evlist__nr(rec->evlist), sizeof(*names));
	if (!names)
		return -ENOMEM;
	err = feature__add_machine(&rec->header, PERFX_VERSION, argc, argv);
	if (!err && rec->args.opts.use_clockid)
		err = feature__add_clockid(&rec->header, rec->args.opts.clockid);
	if (!err && rec->args.opts.use_clockid)
		err = feature__add_clock_data(&rec->header, rec->args.opts.clockid);
	if (!err)
		err = record__tracing_data(rec);
	if (!err)
		err = record__group_desc(rec);
	/* a file's are known after the walk for build-ids */
	if (!err && rec->pipe)
		err = feature__add_sample_time(&rec->header, 0, 0);
	evlist__for_each(rec->evlist, i, evsel)
		names[i] = evsel__name(evsel);
	if (!err)
		err = feature__add_event_desc(&rec->header, names);
	free(names);
	if (err)
		return err;
	if (rec->pipe)
		err = perfx_header__write_pipe(&rec->header, &rec->out, true);
	else
		err = perfx_header__write_file_start(&rec->header, &rec->out);
	rec->data_start = rec->out.pos;
	return err;
}

int record__write_marker(struct record *rec, __u32 type)
{
	struct perf_event_header h = { .type = type, .size = sizeof(h) };

	return perfx_writer__write(&rec->out, &h, sizeof(h));
}

/* the walk of perf's process_buildids() over the records just written */
static int record__build_ids(struct record *rec)
{
	int fd, err;

	fd = perfx_data__open_read(&rec->data);
	if (fd < 0)
		return fd;
	err = build_id_pass__run(&rec->pass, fd, rec->args.output, &rec->header,
				 rec->data_start, rec->out.pos, rec->args.buildid_all);
	close(fd);
	return err;
}

static int record__finish_file(struct record *rec)
{
	int err;

	err = perfx_writer__flush(&rec->out);
	/* a device is not read back: /dev/null has no records to walk */
	if (!err && !rec->args.no_buildid && perfx_data__is_file(&rec->data))
		err = record__build_ids(rec);
	/* 0 and 0 without the walk, as perf's */
	if (!err)
		err = feature__add_sample_time(&rec->header, rec->pass.first_sample_time,
					       rec->pass.last_sample_time);
	if (!err)
		err = perfx_header__write_file_finish(&rec->header, &rec->out,
						      rec->out.pos - rec->data_start);
	if (err)
		return err;
	return perfx_data__commit(&rec->data);
}

/*
 * perf's warnings after its walk for build-ids (perf_session__warn_about_errors()):
 * LOST records, and samples lost over 5% of those taken.
 */
static void record__warn_lost(struct record *rec)
{
	const struct build_id_pass *p = &rec->pass;
	unsigned long long taken = p->nr_samples + p->lost_samples;

	if (p->nr_lost)
		fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\n"
			"Check IO/CPU overload!\n\n", p->nr_records, p->nr_lost);
	if (taken && (double)p->lost_samples / taken > 0.05)
		fprintf(stderr, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
			taken, 100.0 * p->lost_samples / taken);
}

static void record__report(struct record *rec)
{
	char samples[64] = "";

	if (rec->args.quiet)
		return;
	record__warn_lost(rec);
	if (rec->pass.nr_samples)
		snprintf(samples, sizeof(samples), " (%llu samples)", rec->pass.nr_samples);
	fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s%s ]\n",
		(rec->out.pos - rec->data_start) / 1024.0 / 1024.0,
		rec->data.kind == PERFX_DATA_STDOUT ? "-" : rec->args.output,
		samples);
}

/*
 * A recording that cannot be finished keeps what reached the file, cut
 * after its last whole record; a pipe, a FIFO or a device keeps what it
 * was sent.  Returns @err.
 */
int record__cut_short(struct record *rec, int err, __u64 bad_off)
{
	__u64 kept;

	if (perfx_data__is_file(&rec->data) && rec->data.fd >= 0) {
		kept = salvage__cut(&rec->header, &rec->out, rec->data_start, bad_off);
		pr_err("%s: not finished (%s): it holds the %llu bytes of records written before, without its features\n",
		       rec->args.output, perfx__errname(err), kept);
	}
	perfx_data__keep(&rec->data);
	return err;
}

int record__finish(struct record *rec, int err)
{
	__u64 bad_off = ~0ULL;
	int aio_err;

	aio_err = record_rings__finish(&rec->rings, &bad_off);
	if (aio_err)
		pr_err("%s: write failed at byte offset %llu: %s (%s)\n", rec->args.output, bad_off,
		       strerror(-aio_err), perfx__errname(aio_err));
	if (!err)
		err = aio_err;
	record__report_nodes(rec);
	if (!err)
		err = rec->args.opts.no_lost ? 0 : lost_samples__write(rec->evlist, &rec->out);
	if (!rec->args.quiet)
		fprintf(stderr, "[ perf record: Woken up %lu times to write data ]\n", rec->waking);
	if (!err)
		err = rec->pipe ? perfx_writer__flush(&rec->out) : record__finish_file(rec);
	if (!err) {
		record__report(rec);
		return 0;
	}
	return record__cut_short(rec, err, bad_off);
}
