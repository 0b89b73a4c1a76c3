// SPDX-License-Identifier: GPL-2.0
/*
 * The attrs perf record gives events (util/record.c's evlist__config()
 * and util/evsel.c's evsel__config() in perf 6.1), checked against
 * `perf evlist -v` of perf's own files in tests/record.sh.
 */
#include <errno.h>
#include <string.h>

#include "evlist.h"
#include "evsel.h"
#include "record-config.h"

static void evsel__config_period(struct evsel *evsel, const struct record_opts *opts)
{
	struct perf_event_attr *attr = &evsel->attr;

	/* an event's own period (tracepoints: 1) yields only to -F and -c */
	if (attr->sample_period && !opts->user_freq && !opts->user_period)
		return;
	if (opts->user_period) {
		attr->freq = 0;
		attr->sample_period = opts->period;
	} else {
		attr->freq = 1;
		attr->sample_freq = opts->freq;
	}
}

static void evsel__config_tracking(struct evsel *evsel)
{
	struct perf_event_attr *attr = &evsel->attr;

	attr->mmap = attr->mmap2 = 1;
	attr->comm = attr->comm_exec = 1;
	attr->task = 1;
	attr->ksymbol = attr->bpf_event = 1;
}

static void evsel__config_record(struct evsel *evsel, const struct record_opts *opts,
				 bool tracking)
{
	struct perf_event_attr *attr = &evsel->attr;
	bool dummy = attr->type == PERF_TYPE_SOFTWARE && attr->config == PERF_COUNT_SW_DUMMY;

	attr->size = sizeof(*attr);
	attr->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	if (attr->type == PERF_TYPE_TRACEPOINT)
		attr->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	evsel__config_period(evsel, opts);
	if (attr->freq)
		attr->sample_type |= PERF_SAMPLE_PERIOD;
	if (opts->sample_cpu)
		attr->sample_type |= PERF_SAMPLE_CPU;
	/* the tracking dummy too, as perf's evsel__config() gives it */
	if (opts->callgraph)
		attr->sample_type |= PERF_SAMPLE_CALLCHAIN;
	attr->read_format = PERF_FORMAT_ID | (opts->no_lost ? 0 : PERF_FORMAT_LOST);
	attr->inherit = !opts->no_inherit;
	attr->sample_id_all = 1;
	if (opts->use_clockid) {
		attr->use_clockid = 1;
		attr->clockid = opts->clockid;
	}
	if (!dummy && evsel->leader == evsel) {
		attr->disabled = 1;
		attr->enable_on_exec = opts->enable_on_exec;
	}
	if (tracking)
		evsel__config_tracking(evsel);
}

__u16 record__id_hdr_size(__u64 sample_type)
{
	static const __u64 bits[] = {
		PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
		PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
	};
	__u16 size = 0;
	size_t i;

	for (i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		size += sample_type & bits[i] ? 8 : 0;
	return size;
}

/* perf's evlist__add_aux_dummy(): counts nothing, sees guest and host */
static int evlist__add_tracking_dummy(struct evlist *evlist)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.sample_period = 1,
	};
	struct evsel *evsel = evsel__new(&attr, "dummy:HG");

	if (!evsel)
		return -ENOMEM;
	if (evlist__add(evlist, evsel)) {
		evsel__delete(evsel);
		return -ENOMEM;
	}
	return 0;
}

int evlist__config_record(struct evlist *evlist, const struct record_opts *opts)
{
	bool differ = false;
	struct evsel *evsel;
	__u64 id_bit;
	int i, err;

	if (opts->sample_cpu) {
		err = evlist__add_tracking_dummy(evlist);
		if (err)
			return err;
	}
	evlist__for_each(evlist, i, evsel) {
		bool dummy = opts->sample_cpu && i == evlist->nr - 1;

		evsel__config_record(evsel, opts, opts->sample_cpu ? dummy : i == 0);
		differ |= evsel->attr.sample_type != evlist->entries[0]->attr.sample_type;
	}
	if (evlist->nr < 2 && !opts->pipe)
		return 0;
	id_bit = differ ? PERF_SAMPLE_IDENTIFIER : PERF_SAMPLE_ID;
	evlist__for_each(evlist, i, evsel)
		evsel->attr.sample_type |= id_bit;
	return 0;
}
