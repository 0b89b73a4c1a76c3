// SPDX-License-Identifier: GPL-2.0
/* the ordered list of events, its per-cgroup expansion, and its counters. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "affinity.h"
#include "cgroup.h"
#include "cgroup-bpf.h"
#include "counter.h"
#include "cpumap.h"
#include "evlist.h"
#include "evsel.h"
#include "threadmap.h"

struct evlist *evlist__new(void)
{
	return calloc(1, sizeof(struct evlist));
}

static void evlist__delete_counters(struct evlist *evlist)
{
	int i;

	for (i = 0; i < evlist->nr_counters; i++) {
		free(evlist->counters[i].evsels);
		cgroup_bpf__put(evlist->counters[i].bpf);
	}
	free(evlist->counters);
	evlist->counters = NULL;
	evlist->nr_counters = 0;
}

void evlist__delete(struct evlist *evlist)
{
	int i;

	if (!evlist)
		return;
	evlist__close(evlist);
	evlist__delete_counters(evlist);
	for (i = 0; i < evlist->nr; i++)
		evsel__delete(evlist->entries[i]);
	free(evlist->entries);
	cpu_map__put(evlist->cpus);
	thread_map__put(evlist->threads);
	free(evlist);
}

int evlist__add(struct evlist *evlist, struct evsel *evsel)
{
	struct evsel **n = realloc(evlist->entries, (evlist->nr + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	evlist->entries = n;
	evsel->idx = evlist->nr;
	n[evlist->nr++] = evsel;
	return 0;
}

void evlist__set_maps(struct evlist *evlist, struct cpu_map *cpus, struct thread_map *threads)
{
	cpu_map__put(evlist->cpus);
	thread_map__put(evlist->threads);
	evlist->cpus = cpu_map__get(cpus);
	evlist->threads = thread_map__get(threads);
}

/* the leader entries[@i] and the members that follow it */
static int group_size(const struct evlist *evlist, int i)
{
	struct evsel *leader = evlist->entries[i];
	int n = 1;

	while (i + n < evlist->nr && evlist->entries[i + n]->leader == leader)
		n++;
	return n;
}

/*
 * A counter for the group led by entries[@first] of a list of @stride
 * events, whose copy for cgroup k starts at k * @stride + @first in @evlist.
 */
static int evlist__add_counter(struct evlist *evlist, int first, int size, int stride,
			       int nr_cgrps, const struct counter_ops *ops,
			       const struct counter_ops *const *fallback, struct cgroup_bpf *bpf)
{
	struct counter *n, *counter;
	int k, m;

	n = realloc(evlist->counters, (evlist->nr_counters + 1) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	evlist->counters = n;
	counter = &n[evlist->nr_counters];
	memset(counter, 0, sizeof(*counter));
	counter->evsels = calloc((size_t)nr_cgrps * size, sizeof(*counter->evsels));
	if (!counter->evsels)
		return -ENOMEM;
	evlist->nr_counters++;
	counter->ops = ops;
	counter->fallback = fallback;
	counter->bpf = cgroup_bpf__get(bpf);
	counter->nr_cgrps = nr_cgrps;
	counter->nr_members = size;
	for (k = 0; k < nr_cgrps; k++)
		for (m = 0; m < size; m++)
			counter->evsels[k * size + m] = evlist->entries[k * stride + first + m];
	return 0;
}

/* @evlist's groups, each copied @nr_cgrps times at a stride of @stride */
static int evlist__add_counters(struct evlist *evlist, int stride, int nr_cgrps,
				const struct counter_ops *ops,
				const struct counter_ops *const *fallback, struct cgroup_bpf *bpf)
{
	int i, size, err;

	for (i = 0; i < stride; i += size) {
		size = group_size(evlist, i);
		err = evlist__add_counter(evlist, i, size, stride, nr_cgrps, ops, fallback, bpf);
		if (err)
			return err;
	}
	return 0;
}

/* auto mode: the shared ioctls, else BPF, else per-cgroup events */
static const struct counter_ops *const auto_fallback[] = {
	&counter_bpf_ops, &counter_events_ops, NULL,
};

int evlist__expand_cgroups(struct evlist *evlist, struct cgroup **cgrps, int nr,
			   enum evlist_cgroup_mode mode, struct evlist **outp)
{
	const struct counter_ops *ops = &counter_share_ops, *const *fallback = NULL;
	struct evlist *out = evlist__new();
	struct cgroup_bpf *bpf = NULL;
	int c, i, err = -ENOMEM;

	if (!out)
		return -ENOMEM;
	for (c = 0; c < nr; c++) {
		int base = out->nr;

		for (i = 0; i < evlist->nr; i++) {
			struct evsel *orig = evlist->entries[i];
			struct evsel *copy = evsel__clone(orig, cgrps[c]);

			if (!copy)
				goto out_delete;
			err = evlist__add(out, copy);
			if (err) {
				evsel__delete(copy);
				goto out_delete;
			}
			copy->leader = out->entries[base + orig->leader->idx];
			err = -ENOMEM;
		}
	}
	if (mode == EVLIST_CGROUP_EVENTS)
		ops = &counter_events_ops;
	else if (mode == EVLIST_CGROUP_BPF)
		ops = &counter_bpf_ops;
	else if (mode == EVLIST_CGROUP_AUTO)
		fallback = auto_fallback;
	if (ops == &counter_bpf_ops || fallback) {
		err = cgroup_bpf__new(cgrps, nr, evlist->nr, &bpf);
		if (err)
			goto out_delete;
	}
	err = evlist__add_counters(out, evlist->nr, nr, ops, fallback, bpf);
	if (err)
		goto out_delete;
	cgroup_bpf__put(bpf);
	evlist__set_maps(out, evlist->cpus, evlist->threads);
	*outp = out;
	return 0;

out_delete:
	cgroup_bpf__put(bpf);
	evlist__delete(out);
	return err;
}

int evlist__set_cgroups(struct evlist *evlist, struct cgroup **cgrps, int nr)
{
	int i;

	if (nr > evlist->nr)
		return -E2BIG;
	for (i = 0; i < evlist->nr; i++) {
		struct cgroup *cgrp = nr == 1 ? cgrps[0] : i < nr ? cgrps[i] : NULL;

		evlist->entries[i]->cgrp = cgroup__get(cgrp);
	}
	return 0;
}

int evlist__unit_width(const struct evlist *evlist)
{
	int i, w = 4;

	for (i = 0; i < evlist->nr; i++) {
		int len = (int)strlen(evlist->entries[i]->unit);

		if (len > w)
			w = len;
	}
	return w;
}

int evlist__for_each_cpu(struct evlist *evlist, int (*fn)(struct evlist *evlist, int c,
							  void *arg), void *arg)
{
	struct affinity aff;
	int c, err = 0;

	affinity__setup(&aff);
	for (c = 0; c < evlist->cpus->nr && !err; c++) {
		affinity__set(&aff, evlist->cpus->map[c]);
		err = fn(evlist, c, arg);
	}
	affinity__exit(&aff);
	return err;
}

/* a list that was not expanded: each group counted by its own events */
static int evlist__init_counters(struct evlist *evlist)
{
	if (evlist->nr_counters)
		return 0;
	return evlist__add_counters(evlist, evlist->nr, 1, &counter_events_ops, NULL, NULL);
}

/* every event, however it is counted, has counts for each CPU */
static int evlist__prepare(struct evlist *evlist)
{
	struct evsel *evsel;
	int i, err;

	err = evlist__init_counters(evlist);
	if (err)
		return err;
	evlist__for_each(evlist, i, evsel) {
		err = evsel__prepare(evsel, evlist->cpus, evlist->threads);
		if (err)
			return err;
		/* as perf stat: a group is read in one go through its leader */
		if (group_size(evlist, evsel->leader->idx) > 1)
			evsel->attr.read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
	}
	return 0;
}

static int open_cpu(struct evlist *evlist, int c, void *arg)
{
	int i, err;

	for (i = 0; i < evlist->nr_counters; i++) {
		err = counter__open_cpu(&evlist->counters[i], c, arg);
		if (err)
			return err;
	}
	return 0;
}

int evlist__open(struct evlist *evlist, struct evsel **failed)
{
	int err;

	*failed = NULL;
	err = evlist__prepare(evlist);
	if (!err)
		err = evlist__for_each_cpu(evlist, open_cpu, failed);
	if (err)
		evlist__close(evlist);
	return err;
}

static int ioctl_cpu(struct evlist *evlist, int c, void *arg)
{
	unsigned long req = *(unsigned long *)arg;
	int i, err;

	for (i = 0; i < evlist->nr_counters; i++) {
		struct counter *counter = &evlist->counters[i];

		err = counter->ops->ioctl_cpu(counter, c, req);
		if (err)
			return err;
	}
	return 0;
}

int evlist__enable(struct evlist *evlist)
{
	unsigned long req = PERF_EVENT_IOC_ENABLE;

	return evlist__for_each_cpu(evlist, ioctl_cpu, &req);
}

int evlist__disable(struct evlist *evlist)
{
	unsigned long req = PERF_EVENT_IOC_DISABLE;

	return evlist__for_each_cpu(evlist, ioctl_cpu, &req);
}

static int read_cpu(struct evlist *evlist, int c, void *arg)
{
	int i, err;

	for (i = 0; i < evlist->nr_counters; i++) {
		struct counter *counter = &evlist->counters[i];

		err = counter->ops->read_cpu(counter, c, arg);
		if (err)
			return err;
	}
	return 0;
}

int evlist__read(struct evlist *evlist, struct evsel **failed)
{
	int err;

	*failed = NULL;
	err = evlist__init_counters(evlist);
	if (err)
		return err;
	return evlist__for_each_cpu(evlist, read_cpu, failed);
}

void evlist__close(struct evlist *evlist)
{
	int i;

	for (i = 0; i < evlist->nr_counters; i++)
		evlist->counters[i].ops->close(&evlist->counters[i]);
}

unsigned long evlist__nr_fds(const struct evlist *evlist)
{
	unsigned long nr = 0;
	int i;

	for (i = 0; i < evlist->nr_counters; i++)
		nr += evlist->counters[i].nr_fds;
	return nr;
}

unsigned long evlist__nr_reads(const struct evlist *evlist)
{
	unsigned long nr = 0;
	int i;

	for (i = 0; i < evlist->nr_counters; i++)
		nr += evlist->counters[i].nr_reads;
	return nr;
}
