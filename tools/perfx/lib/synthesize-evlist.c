// SPDX-License-Identifier: GPL-2.0
/*
 * The records perf record writes before the tasks' to describe its
 * events: which ring, CPU and task each sample id belongs to (ID_INDEX),
 * the tasks (THREAD_MAP) and the CPUs (CPU_MAP), laid out as perf 6.1's
 * util/synthetic-events.c lays them out.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpumap.h"
#include "data.h"
#include "evlist-internal.h"
#include "event.h"
#include "evsel-internal.h"
#include "header.h"
#include "synthesize-evlist.h"
#include "threadmap.h"

/* as many entries as a record's u16 size allows */
#define ID_INDEX_MAX	((UINT16_MAX - sizeof(struct perf_event_header) - sizeof(__u64)) / \
			 sizeof(struct id_index_entry))

static int id_index__flush(struct perfx_writer *w, struct id_index_entry *e, __u64 nr)
{
	struct perf_event_header head = {
		.type = PERF_RECORD_ID_INDEX,
		.size = sizeof(head) + sizeof(nr) + nr * sizeof(*e),
	};
	int err;

	err = perfx_writer__write(w, &head, sizeof(head));
	if (!err)
		err = perfx_writer__write(w, &nr, sizeof(nr));
	return err ? err : perfx_writer__write(w, e, nr * sizeof(*e));
}

int synthesize__id_index(struct perfx_writer *w, const struct evlist *evlist,
			 const struct perfx_header *h)
{
	struct id_index_entry *e;
	struct evsel *evsel;
	__u64 nr = 0, total = 0;
	int i, c, t, err = 0;

	for (i = 0; i < h->nr_attrs; i++)
		total += h->attrs[i].nr_ids;
	if (!total || h->nr_attrs != evlist->nr)
		return 0;
	e = calloc(ID_INDEX_MAX, sizeof(*e));
	if (!e)
		return -ENOMEM;
	evlist__for_each(evlist, i, evsel) {
		const struct perfx_attr *a = &h->attrs[i];

		for (c = 0; c < evsel->cpus->nr && !err; c++) {
			for (t = 0; t < evsel->threads->nr && !err; t++) {
				__u32 j = c * evsel->threads->nr + t;

				if (j >= a->nr_ids)
					continue;
				e[nr++] = (struct id_index_entry){
					.id = a->ids[j],
					.idx = c,
					.cpu = (__u64)(__s64)evsel->cpus->map[c],
					.tid = (__u64)(__s64)evsel->threads->map[t],
				};
				total--;
				if (nr == ID_INDEX_MAX || !total) {
					err = id_index__flush(w, e, nr);
					nr = 0;
				}
			}
		}
	}
	free(e);
	return err;
}

int synthesize__thread_map(struct perfx_writer *w, const struct evlist *evlist)
{
	const struct thread_map *threads = evlist->threads;
	struct thread_map_entry e = { 0 };
	__u64 nr = threads->nr;
	struct perf_event_header head = {
		.type = PERF_RECORD_THREAD_MAP,
		.size = sizeof(head) + sizeof(nr) + nr * sizeof(e),
	};
	int i, err;

	if (head.size != sizeof(head) + sizeof(nr) + nr * sizeof(e))
		return -E2BIG;
	err = perfx_writer__write(w, &head, sizeof(head));
	if (!err)
		err = perfx_writer__write(w, &nr, sizeof(nr));
	for (i = 0; i < threads->nr && !err; i++) {
		e.pid = (__u64)(__s64)threads->map[i];
		err = perfx_writer__write(w, &e, sizeof(e));
	}
	return err;
}

static void put_u16(char *p, size_t off, __u16 v)
{
	memcpy(p + off, &v, sizeof(v));
}

/*
 * perf 6.1's cpu_map_data__alloc() choice: a range where the CPUs are
 * consecutive, else a list where "any CPU" (-1) is in it or a list is
 * smaller than a mask of 32-bit words, else the mask.
 */
static int cpu_map__type(const struct cpu_map *cpus, size_t *size)
{
	int any = cpus->map[0] == -1, nr = cpus->nr - any;
	int min = nr ? cpus->map[any] : 0, max = cpus->map[cpus->nr - 1];
	size_t size_cpus = 2 + 2 + cpus->nr * 2, size_mask = 2 + 2 + 2 + (max / 32 + 1) * 4;

	if (nr && max - min + 1 == nr) {
		*size = 8;
		return CPU_MAP_RANGE;
	}
	if (any || size_cpus < size_mask) {
		*size = (size_cpus + 7) & ~(size_t)7;
		return CPU_MAP_CPUS;
	}
	*size = (size_mask + 7) & ~(size_t)7;
	return CPU_MAP_MASK;
}

int synthesize__cpu_map(struct perfx_writer *w, const struct evlist *evlist)
{
	const struct cpu_map *cpus = evlist->cpus;
	struct perf_event_header head = { .type = PERF_RECORD_CPU_MAP };
	int type, i, err;
	size_t size;
	char *data;

	if (!cpus->nr)
		return 0;
	type = cpu_map__type(cpus, &size);
	data = calloc(1, size);
	if (!data)
		return -ENOMEM;
	put_u16(data, 0, type);
	if (type == CPU_MAP_RANGE) {
		int any = cpus->map[0] == -1;

		data[2] = any;
		put_u16(data, 4, cpus->map[any]);
		put_u16(data, 6, cpus->map[cpus->nr - 1]);
	} else if (type == CPU_MAP_CPUS) {
		put_u16(data, 2, cpus->nr);
		for (i = 0; i < cpus->nr; i++)
			put_u16(data, 4 + 2 * i, cpus->map[i]);
	} else {
		put_u16(data, 2, cpus->map[cpus->nr - 1] / 32 + 1);
		put_u16(data, 4, sizeof(__u32));
		for (i = 0; i < cpus->nr; i++) {
			char *p = data + 6 + cpus->map[i] / 32 * sizeof(__u32);
			__u32 word;

			memcpy(&word, p, sizeof(word));
			word |= 1U << (cpus->map[i] % 32);
			memcpy(p, &word, sizeof(word));
		}
	}
	head.size = sizeof(head) + size;
	err = perfx_writer__write(w, &head, sizeof(head));
	if (!err)
		err = perfx_writer__write(w, data, size);
	free(data);
	return err;
}

static int event_update__write(struct perfx_writer *w, __u64 type, __u64 id, const void *data,
			       size_t len)
{
	static const char zeros[EVENT_UPDATE_HEAD];
	size_t size = (EVENT_UPDATE_HEAD + len + 7) & ~(size_t)7;
	struct perf_event_header head = { .type = PERF_RECORD_EVENT_UPDATE, .size = size };
	int err;

	if (size > UINT16_MAX)
		return -E2BIG;
	err = perfx_writer__write(w, &head, sizeof(head));
	if (!err)
		err = perfx_writer__write(w, &type, sizeof(type));
	if (!err)
		err = perfx_writer__write(w, &id, sizeof(id));
	if (!err)
		err = perfx_writer__write(w, data, len);
	return err ? err : perfx_writer__write(w, zeros, size - 3 * sizeof(__u64) - len);
}

int synthesize__event_update(struct perfx_writer *w, const struct evlist *evlist,
			     const struct perfx_header *h, bool units, bool names)
{
	struct evsel *evsel;
	int i, err = 0;

	if (h->nr_attrs != evlist->nr)
		return 0;
	evlist__for_each(evlist, i, evsel) {
		__u64 id = h->attrs[i].nr_ids ? h->attrs[i].ids[0] : 0;

		if (!h->attrs[i].nr_ids)
			continue;
		if (!err && units && evsel->unit && *evsel->unit)
			err = event_update__write(w, EVENT_UPDATE_UNIT, id, evsel->unit,
						  strlen(evsel->unit) + 1);
		if (!err && units && evsel->scale != 1.0)
			err = event_update__write(w, EVENT_UPDATE_SCALE, id, &evsel->scale,
						  sizeof(evsel->scale));
		if (!err && names)
			err = event_update__write(w, EVENT_UPDATE_NAME, id, evsel->name,
						  strlen(evsel->name) + 1);
		if (err)
			break;
	}
	return err;
}
