// SPDX-License-Identifier: GPL-2.0
/*
 * Finding the DSOs that a perf.data stream's samples hit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "dso-hits.h"
#include "event.h"

#define HOST_KERNEL_ID	(-1)
#define MAX_PENDING	4096

int dso_hits__init(struct dso_hits *h, struct perfx_session *s, bool all,
		   int (*hit)(void *arg, struct dso *dso, __u16 cpumode), void *arg)
{
	memset(h, 0, sizeof(*h));
	h->session = s;
	h->all = all;
	h->hit = hit;
	h->arg = arg;
	return machine__init(&h->machine);
}

void dso_hits__exit(struct dso_hits *h)
{
	machine__exit(&h->machine);
	free(h->pending);
	h->pending = NULL;
}

static int dso_hits__hit(struct dso_hits *h, struct dso *dso, __u16 cpumode)
{
	if (dso->hit)
		return 0;
	dso->hit = true;
	return h->hit(h->arg, dso, cpumode);
}

/* MMAP and MMAP2: the map, and with @all the DSO is a hit */
static int dso_hits__mmap(struct dso_hits *h, const struct perf_event_header *ev, __u64 pos)
{
	size_t off = ev->type == PERF_RECORD_MMAP ? 40 : 72;
	const char *p = (const char *)ev, *name = p + off;
	__u16 cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	struct dso *dso;
	__u64 time;
	int err;

	if (ev->size <= off) {
		pr_err("%s: byte offset %llu: %s record of size %u: too small for its %zu-byte fields and a name (EINVAL)\n",
		       h->session->name, (unsigned long long)pos, perfx_record__name(ev->type),
		       ev->size, off);
		return -EINVAL;
	}
	err = perfx_session__record_time(h->session, ev, pos, &time);
	if (!err)
		err = machine__add_map(&h->machine, cpumode, perfx__get_u32(p + 8),
				       perfx__get_u64(p + 16), perfx__get_u64(p + 24), time, name,
				       strnlen(name, ev->size - off), &dso);
	if (err || !dso)
		return err;
	if (ev->type == PERF_RECORD_MMAP2 && (ev->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) &&
	    !dso->bid_read)
		dso__set_build_id(dso, p + 44, p[40] < BUILD_ID_SIZE ? p[40] : BUILD_ID_SIZE);
	return h->all ? dso_hits__hit(h, dso, cpumode) : 0;
}

/*
 * A sample whose map is not known yet waits for it; past MAX_PENDING
 * such samples it is counted instead, and the first one said.
 */
static int dso_hits__wait(struct dso_hits *h, const struct perfx_sample *sample, __u64 pos)
{
	/* most streams never need it: allocated, and its pages touched, when one does */
	if (!h->pending) {
		h->pending = malloc(MAX_PENDING * sizeof(*h->pending));
		if (!h->pending)
			return -ENOMEM;
	}
	if (h->nr_pending < MAX_PENDING) {
		/* the ip waits, not the callchain: that is in the record */
		h->pending[h->nr_pending] = (struct dso_hits_pending){ *sample, h->round };
		h->pending[h->nr_pending].sample.callchain = NULL;
		h->pending[h->nr_pending++].sample.nr_callchain = 0;
		return 0;
	}
	if (!h->nr_unwaited++)
		pr_warning("%s: byte offset %llu: over %d samples wait for the map they hit, this one and later ones are not looked up again: their DSOs may get no build-id\n",
			   h->session->name, (unsigned long long)pos, MAX_PENDING);
	return 0;
}

/* the sample's own ip */
static int dso_hits__ip(struct dso_hits *h, const struct perfx_sample *sample, __u64 pos)
{
	const struct map *map;

	if (h->last.valid && sample->pid == h->last.pid && sample->cpumode == h->last.cpumode &&
	    sample->ip >= h->last.start && sample->ip < h->last.end &&
	    sample->time >= h->last.time)
		return 0;
	map = machine__find_map(&h->machine, sample->cpumode, sample->pid, sample->ip,
				sample->time);
	if (map) {
		/* a hidden map is only for the samples older than what hides it */
		h->last.valid = !map->hidden;
		h->last.start = map->start;
		h->last.end = map->end;
		h->last.time = map->time;
		h->last.pid = sample->pid;
		h->last.cpumode = sample->cpumode;
		return dso_hits__hit(h, map->dso, sample->cpumode);
	}
	return dso_hits__wait(h, sample, pos);
}

/*
 * The DSOs of a sample's callchain, as perf inject -b (6.12) counts them:
 * each ip in the mode its last context marker says, user to begin with
 * (perf's thread__resolve_callchain()); guest and hypervisor ones have no
 * DSO of ours.
 */
static int dso_hits__callchain(struct dso_hits *h, const struct perfx_sample *sample)
{
	__u16 cpumode = PERF_RECORD_MISC_USER;
	const struct map *map;
	__u64 i, ip;
	int err = 0;

	for (i = 0; i < sample->nr_callchain && !err; i++) {
		ip = perfx__get_u64((const char *)sample->callchain + 8 * i);
		if (ip >= PERF_CONTEXT_MAX) {
			if (ip == PERF_CONTEXT_KERNEL)
				cpumode = PERF_RECORD_MISC_KERNEL;
			else if (ip == PERF_CONTEXT_USER)
				cpumode = PERF_RECORD_MISC_USER;
			else
				cpumode = PERF_RECORD_MISC_HYPERVISOR;
			continue;
		}
		map = machine__find_map(&h->machine, cpumode, sample->pid, ip, sample->time);
		if (map)
			err = dso_hits__hit(h, map->dso, cpumode);
	}
	return err;
}

static int dso_hits__sample(struct dso_hits *h, const struct perf_event_header *ev, __u64 pos)
{
	struct perfx_sample sample;
	int err;

	h->nr_samples++;
	if (h->all)
		return 0;
	err = perfx_session__parse_sample(h->session, ev, pos, &sample);
	if (!err && sample.has_ip)
		err = dso_hits__ip(h, &sample, pos);
	return err ? err : dso_hits__callchain(h, &sample);
}

/* after a map or a fork: the earlier samples it now explains */
static int dso_hits__pending(struct dso_hits *h)
{
	int i, err = 0;

	for (i = 0; i < h->nr_pending && !err; i++) {
		struct perfx_sample *s = &h->pending[i].sample;
		const struct map *map = machine__find_map(&h->machine, s->cpumode, s->pid, s->ip,
							  s->time);

		if (!map)
			continue;
		err = dso_hits__hit(h, map->dso, s->cpumode);
		h->pending[i--] = h->pending[--h->nr_pending];
	}
	return err;
}

static int dso_hits__fork(struct dso_hits *h, const struct perf_event_header *ev, __u64 pos)
{
	const char *p = (const char *)ev;
	__u64 time;
	int err;

	if (ev->size < 24) {
		pr_err("%s: byte offset %llu: FORK record of size %u: less than 24 bytes (EINVAL)\n",
		       h->session->name, (unsigned long long)pos, ev->size);
		return -EINVAL;
	}
	err = perfx_session__record_time(h->session, ev, pos, &time);
	return err ? err : machine__fork(&h->machine, perfx__get_u32(p + 8),
					 perfx__get_u32(p + 12), time);
}

/* forgets the samples pending since before the last round */
static void dso_hits__round(struct dso_hits *h)
{
	int i, nr = 0;

	h->round++;
	for (i = 0; i < h->nr_pending; i++)
		if (h->pending[i].round + 1 >= h->round)
			h->pending[nr++] = h->pending[i];
	h->nr_pending = nr;
}

int dso_hits__record(struct dso_hits *h, const struct perf_event_header *ev, __u64 pos)
{
	int err;

	switch (ev->type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		h->last.valid = false;
		err = dso_hits__mmap(h, ev, pos);
		return err || !h->nr_pending ? err : dso_hits__pending(h);
	case PERF_RECORD_FORK:
		if (h->all)
			return 0;
		h->last.valid = false;
		err = dso_hits__fork(h, ev, pos);
		return err || !h->nr_pending ? err : dso_hits__pending(h);
	case PERF_RECORD_SAMPLE:
		return dso_hits__sample(h, ev, pos);
	case PERF_RECORD_FINISHED_ROUND:
		dso_hits__round(h);
		return 0;
	}
	return 0;
}

size_t dso__build_id_record(struct dso *dso, __u16 cpumode, void *buf)
{
	struct perf_record_header_build_id *b = buf;
	size_t len = strlen(dso->name), size;

	if (dso__read_build_id(dso))
		return 0;
	size = sizeof(*b) + ((len + NAME_ALIGN) & ~(size_t)(NAME_ALIGN - 1));
	if (size >= BUILD_ID_RECORD_MAX)
		return 0;	/* no record can hold the name */
	memset(b, 0, size);
	b->header.type = PERF_RECORD_HEADER_BUILD_ID;
	b->header.misc = cpumode | PERF_RECORD_MISC_BUILD_ID_SIZE;
	b->header.size = size;
	b->pid = HOST_KERNEL_ID;
	memcpy(b->build_id, dso->bid.data, dso->bid.size);
	b->size = dso->bid.size;
	memcpy(b->filename, dso->name, len);
	return size;
}
