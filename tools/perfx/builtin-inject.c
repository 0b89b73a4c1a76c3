// SPDX-License-Identifier: GPL-2.0
/*
 * perfx inject [-b | --buildid-all] [-i IN] [-o OUT]
 *
 * Copies a perf.data stream (file or pipe, stdin by default) to a file or
 * a pipe (stdout by default), adding a HEADER_BUILD_ID record for each
 * DSO before the first sample that hits it (-b) or before its first
 * mapping (--buildid-all).  Nothing else in the stream changes.  A file
 * is written to a temporary name and renamed when complete (a signal
 * removes it); a FIFO gets a pipe's stream and a device (/dev/null) is
 * written in place (lib/perf-data.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/data.h"
#include "lib/debug.h"
#include "lib/header.h"
#include "lib/dso-hits.h"
#include "lib/feature.h"
#include "lib/parse-options.h"
#include "lib/perf-data.h"
#include "lib/session.h"

static const char * const inject_usage[] = {
	"perfx inject [<options>]",
	NULL
};

static const struct usage_option inject_options[] = {
	{ 'b', "build-ids", NULL, "Inject build-ids into the output stream", 0 },
	{ 'f', "force", NULL, "don't complain, do it", 0 },
	{ 'i', "input", "file", "input file name", 0 },
	{ 'o', "output", "file", "output file name", 0 },
	{ 'v', "verbose", NULL, "be more verbose (show build ids, etc)", 0 },
	{ 0, "buildid-all", NULL, "Inject build-ids of all DSOs into the output stream", 0, 'A' },
	{ 'h', "help", NULL, "show this help", USAGE_OPT_HIDDEN },
	{ 0, NULL, NULL, NULL, 0 }
};

void inject__usage(FILE *f)
{
	usage_with_options(f, inject_usage, inject_options);
}

struct inject {
	const char		*input_name;
	const char		*output_name;
	bool			build_ids;
	bool			build_id_all;
	int			verbose;
	struct perfx_session	session;
	struct perfx_data	data;		/* -o: the path, its fd and kind */
	struct perfx_writer	out;		/* buffered writes into data.fd */
	bool			out_pipe;	/* a pipe's stream: stdout or a FIFO */
	struct dso_hits		hits;
	struct feature_buf	aux_index;	/* file output's AUXTRACE index */
	struct feature_buf	bid_table;	/* file output's BUILD_ID feature */
	char			bid_rec[BUILD_ID_RECORD_MAX];
};

static int inject__add_bid_table(struct inject *inj, const void *rec, size_t size)
{
	feature_buf__write(&inj->bid_table, rec, size);
	return inj->bid_table.err;
}

/* a DSO's first hit: its build-id record, if it has a build-id */
static int inject__build_id(void *arg, struct dso *dso, __u16 cpumode)
{
	struct inject *inj = arg;
	char sbid[2 * BUILD_ID_SIZE + 1];
	size_t size;

	size = dso__build_id_record(dso, cpumode, inj->bid_rec);
	if (!size)
		return 0;
	if (inj->verbose) {
		build_id__snprintf(&dso->bid, sbid);
		pr_info("build-id %s %s\n", sbid, dso->name);
	}
	if (!inj->out_pipe && inject__add_bid_table(inj, inj->bid_rec, size))
		return -ENOMEM;
	return perfx_writer__write(&inj->out, inj->bid_rec, size);
}

/* a build-id record of the input, kept for a file's BUILD_ID table too */
static int inject__copy_build_id(struct inject *inj, const struct perf_event_header *ev,
				 __u64 pos)
{
	if (ev->size < PERFX_BUILD_ID_RECORD_MIN) {
		pr_err("%s: byte offset %llu: HEADER_BUILD_ID record of size %u: less than %d bytes (EINVAL)\n",
		       inj->session.name, (unsigned long long)pos, ev->size,
		       PERFX_BUILD_ID_RECORD_MIN);
		return -EINVAL;
	}
	if (inject__add_bid_table(inj, ev, ev->size))
		return -ENOMEM;
	return perfx_writer__write(&inj->out, ev, ev->size);
}

/*
 * An AUXTRACE record and the trace data after it; a file indexes it, as
 * perf's HEADER_AUXTRACE does: { nr, { offset, size }[nr] }.
 */
static int inject__auxtrace(struct inject *inj, const struct perf_event_header *ev)
{
	__u64 offset = inj->out.pos, size = ev->size + inj->session.payload_size;
	const void *p;
	int err, ret = 0;
	size_t n;

	err = perfx_writer__write(&inj->out, ev, ev->size);
	while (!err && (ret = perfx_session__payload(&inj->session, &p, &n)) > 0)
		err = perfx_writer__write(&inj->out, p, n);
	if (!err)
		err = ret;
	if (err || inj->out_pipe)
		return err;
	if (!inj->aux_index.len)
		feature_buf__u64(&inj->aux_index, 0);	/* nr, set at the end */
	feature_buf__u64(&inj->aux_index, offset);
	feature_buf__u64(&inj->aux_index, size);
	return inj->aux_index.err;
}

static int inject__record(struct inject *inj, const struct perf_event_header *ev, __u64 pos)
{
	int err = 0;

	if (inj->build_ids)
		err = dso_hits__record(&inj->hits, ev, pos);
	if (err)
		return err;
	if (!inj->out_pipe) {
		/* a file keeps attrs, features and tracing data in its header */
		if (ev->type == PERF_RECORD_HEADER_ATTR || ev->type == PERF_RECORD_HEADER_FEATURE ||
		    ev->type == PERF_RECORD_HEADER_TRACING_DATA)
			return 0;
		if (ev->type == PERF_RECORD_HEADER_BUILD_ID)
			return inject__copy_build_id(inj, ev, pos);
	}
	if (ev->type == PERF_RECORD_AUXTRACE)
		return inject__auxtrace(inj, ev);
	err = perfx_writer__write(&inj->out, ev, ev->size);
	if (!err && ev->type == PERF_RECORD_HEADER_TRACING_DATA && inj->session.header.pipe)
		err = perfx_writer__write(&inj->out, inj->session.header.feat[HEADER_TRACING_DATA],
					  inj->session.header.feat_size[HEADER_TRACING_DATA]);
	return err;
}

static int inject__open_output(struct inject *inj)
{
	int err;

	err = perfx_data__open_write(&inj->data, inj->output_name, PERFX_DATA_TEMP_RENAME);
	if (err)
		return err;
	perfx_data__discard_on_signals(&inj->data);
	inj->out_pipe = perfx_data__is_pipe(&inj->data);
	return perfx_writer__init(&inj->out, inj->data.fd,
				  inj->data.kind == PERFX_DATA_STDOUT ? "stdout" : inj->output_name);
}

/* the output's header; a file's BUILD_ID table starts with the input's */
static int inject__write_header(struct inject *inj)
{
	struct perfx_header *h = &inj->session.header;

	/* its offsets are the input's: a file gets a new one, a pipe none */
	perfx_header__clear_feature(h, HEADER_AUXTRACE);
	if (inj->out_pipe)
		return perfx_header__write_pipe(h, &inj->out, !h->pipe);
	if (h->feat[HEADER_BUILD_ID] &&
	    inject__add_bid_table(inj, h->feat[HEADER_BUILD_ID], h->feat_size[HEADER_BUILD_ID]))
		return -ENOMEM;
	return perfx_header__write_file_start(h, &inj->out);
}

static int inject__finish(struct inject *inj)
{
	struct perfx_header *h = &inj->session.header;
	int err;

	if (inj->out_pipe)
		return perfx_writer__flush(&inj->out);
	if (inj->bid_table.len) {
		err = feature_buf__commit(&inj->bid_table, h, HEADER_BUILD_ID);
		if (err)
			return err;
	}
	if (inj->aux_index.len) {
		__u64 nr = (inj->aux_index.len - sizeof(nr)) / (2 * sizeof(nr));

		memcpy(inj->aux_index.p, &nr, sizeof(nr));
		err = feature_buf__commit(&inj->aux_index, h, HEADER_AUXTRACE);
		if (err)
			return err;
	}
	err = perfx_header__write_file_finish(h, &inj->out, inj->out.pos - h->data.offset);
	if (err)
		pr_err("%s: cannot complete it: %s (%s)\n", inj->output_name, strerror(-err),
		       perfx__errname(err));
	return err;
}

static int inject__run(struct inject *inj)
{
	const struct perf_event_header *ev;
	__u64 pos;
	int ret;

	ret = inject__write_header(inj);
	while (!ret && (ret = perfx_session__next(&inj->session, &ev, &pos)) > 0)
		ret = inject__record(inj, ev, pos);
	return ret ? ret : inject__finish(inj);
}

/* A complete output takes the path's place; nothing half-written stays. */
static int inject__close_output(struct inject *inj, int err)
{
	perfx_data__discard_on_signals(NULL);
	if (err) {
		perfx_data__discard(&inj->data);
		return err;
	}
	return perfx_data__commit(&inj->data);
}

static void inject__cleanup(struct inject *inj)
{
	perfx_writer__exit(&inj->out);
	dso_hits__exit(&inj->hits);
	free(inj->aux_index.p);
	free(inj->bid_table.p);
}

static int inject__parse(struct inject *inj, int argc, char **argv)
{
	struct option_parser p;
	int c, err;

	err = option_parser__init(&p, inject_options, argc, argv);
	if (err) {
		fprintf(stderr, "perfx inject: %s\n", strerror(-err));
		return 1;
	}
	while (!err && (c = option_parser__next(&p)) != -1) {
		switch (c) {
		case 'b':
			inj->build_ids = true;
			break;
		case 'A':
			inj->build_ids = inj->build_id_all = true;
			break;
		case 'f':	/* perf's: nothing to force here */
			break;
		case 'i':
			inj->input_name = optarg;
			break;
		case 'o':
			inj->output_name = optarg;
			break;
		case 'v':
			inj->verbose++;
			break;
		case 'h':
			usage_with_options_argv(stderr, inject_usage, inject_options,
						argc - optind, argv + optind);
			err = USAGE_EXIT_STATUS;
			break;
		default:
			err = usage_getopt_error(stderr, inject_usage, inject_options,
						 optopt, argv[optind - 1]);
			break;
		}
	}
	option_parser__exit(&p);
	if (err)
		return err;
	if (optind < argc) {
		usage_with_options(stderr, inject_usage, inject_options);
		return USAGE_EXIT_STATUS;
	}
	return 0;
}

static int inject__open_input(struct inject *inj)
{
	int fd = STDIN_FILENO, err;

	if (strcmp(inj->input_name, "-")) {
		fd = open(inj->input_name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			err = -errno;
			pr_err("failed to open %s: %s (%s)\n", inj->input_name, strerror(errno),
			       perfx__errname(err));
			return err;
		}
	}
	err = perfx_session__open(&inj->session, fd, inj->input_name);
	if (err && fd != STDIN_FILENO)
		close(fd);
	return err;
}

int cmd_inject(int argc, char **argv)
{
	struct inject *inj;
	int ret;

	inj = calloc(1, sizeof(*inj));
	if (!inj)
		return 255;
	inj->input_name = "-";
	inj->output_name = "-";
	inj->out.fd = -1;
	inj->data.fd = -1;
	ret = inject__parse(inj, argc, argv);
	if (ret)
		goto out_free;
	perfx__setup_print(inj->verbose);
	ret = dso_hits__init(&inj->hits, &inj->session, inj->build_id_all, inject__build_id,
			     inj);
	if (!ret)
		ret = inject__open_input(inj);
	if (ret)
		goto out_cleanup;
	ret = inject__open_output(inj);
	if (!ret)
		ret = inject__run(inj);
	if (inj->data.path)
		ret = inject__close_output(inj, ret);
	if (inj->session.reader.fd != STDIN_FILENO)
		close(inj->session.reader.fd);
	perfx_session__close(&inj->session);
out_cleanup:
	inject__cleanup(inj);
	/* perf exits 255 for what it refuses */
	ret = ret ? 255 : 0;
out_free:
	free(inj);
	return ret;
}
