// SPDX-License-Identifier: GPL-2.0
/* perf record's walk over what it wrote: build-ids, samples, what was lost */
#include <errno.h>
#include <stdlib.h>

#include "build-id-pass.h"
#include "feature.h"
#include "header.h"
#include "session.h"

/* the BUILD_ID feature being built, and one record's room */
struct build_id_table {
	struct feature_buf	body;
	char			rec[BUILD_ID_RECORD_MAX];
};

static int build_id_table__add(void *arg, struct dso *dso, __u16 cpumode)
{
	struct build_id_table *t = arg;
	size_t size = dso__build_id_record(dso, cpumode, t->rec);

	if (size)
		feature_buf__write(&t->body, t->rec, size);
	return t->body.err;
}

/* as perf's session counts what it reads */
static void build_id_pass__count(struct build_id_pass *p, const struct perf_event_header *ev)
{
	p->nr_records++;
	if (ev->type == PERF_RECORD_LOST)
		p->nr_lost++;
	else if (ev->type == PERF_RECORD_LOST_SAMPLES && ev->size >= sizeof(*ev) + 8)
		p->lost_samples += perfx__get_u64(ev + 1);
}

/* SAMPLE_TIME's bounds, as perf's process_sample_event() keeps them */
static int build_id_pass__sample_time(struct build_id_pass *p, struct perfx_session *s,
				      const struct perf_event_header *ev, __u64 pos)
{
	struct perfx_sample sample;
	int err;

	if (ev->type != PERF_RECORD_SAMPLE)
		return 0;
	err = perfx_session__parse_sample(s, ev, pos, &sample);
	if (err || sample.time == ~0ULL)
		return err;
	if (!p->first_sample_time)
		p->first_sample_time = sample.time;
	p->last_sample_time = sample.time;
	return 0;
}

int build_id_pass__run(struct build_id_pass *p, int fd, const char *path,
		       struct perfx_header *header, __u64 start, __u64 end, bool all)
{
	const struct perf_event_header *ev;
	struct build_id_table *table;
	struct perfx_session s;
	struct dso_hits hits;
	__u64 pos;
	int err;

	table = calloc(1, sizeof(*table));
	if (!table)
		return -ENOMEM;
	err = perfx_session__open_range(&s, fd, path, header, start, end);
	if (err)
		goto out_free;
	err = dso_hits__init(&hits, &s, all, build_id_table__add, table);
	while (!err && (err = perfx_session__next(&s, &ev, &pos)) > 0) {
		build_id_pass__count(p, ev);
		err = build_id_pass__sample_time(p, &s, ev, pos);
		if (!err)
			err = dso_hits__record(&hits, ev, pos);
	}
	p->nr_samples = hits.nr_samples;
	dso_hits__exit(&hits);
	perfx_session__close(&s);
	if (!err && table->body.len)
		err = feature_buf__commit(&table->body, header, HEADER_BUILD_ID);
out_free:
	free(table->body.p);
	free(table);
	return err;
}
