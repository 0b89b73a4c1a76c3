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
#include "evlist-internal.h"
#include "evsel-internal.h"
#include "threadmap.h"
#include "util.h"

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
	evlist__delete(evlist->tmpl);
	cpu_map__put(evlist->cpus);
	thread_map__put(evlist->threads);
	free(evlist);
}

int evlist__add(struct evlist *evlist, struct evsel *evsel)
{
	struct evsel **n = perfx__grow(evlist->entries, &evlist->alloc, evlist->nr + 1, sizeof(*n));

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
 * A counter for the group led by @tmpl's entries[@first], whose copy for
 * cgroup k starts at k * @tmpl->nr + @first in @evlist.
 */
static int evlist__add_counter(struct evlist *evlist, struct evlist *tmpl, int first, int size,
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
	counter->evsels = calloc((size_t)(nr_cgrps ? nr_cgrps : 1) * size,
				 sizeof(*counter->evsels));
	if (!counter->evsels)
		return -ENOMEM;
	evlist->nr_counters++;
	counter->ops = ops;
	counter->fallback = fallback;
	counter->bpf = cgroup_bpf__get(bpf);
	counter->tmpl = &tmpl->entries[first];
	counter->nr_cgrps = nr_cgrps;
	counter->nr_members = size;
	for (k = 0; k < nr_cgrps; k++)
		for (m = 0; m < size; m++)
			counter->evsels[k * size + m] = evlist->entries[k * tmpl->nr + first + m];
	return 0;
}

/* @tmpl's groups, each copied @nr_cgrps times in @evlist */
static int evlist__add_counters(struct evlist *evlist, struct evlist *tmpl, int nr_cgrps,
				const struct counter_ops *ops,
				const struct counter_ops *const *fallback, struct cgroup_bpf *bpf)
{
	int i, size, err;

	for (i = 0; i < tmpl->nr; i += size) {
		size = group_size(tmpl, i);
		err = evlist__add_counter(evlist, tmpl, i, size, nr_cgrps, ops, fallback, bpf);
		if (err)
			return err;
	}
	return 0;
}

/* auto mode: the shared ioctls, else BPF, else per-cgroup events */
static const struct counter_ops *const auto_fallback[] = {
	&counter_bpf_ops, &counter_events_ops, NULL,
};

/* Drop the entries from @nr on. */
static void evlist__truncate(struct evlist *evlist, int nr)
{
	while (evlist->nr > nr)
		evsel__delete(evlist->entries[--evlist->nr]);
}

/* A copy of @from's events for @cgrp, groups kept, appended to @evlist. */
static int evlist__add_copy(struct evlist *evlist, const struct evlist *from,
			    struct cgroup *cgrp)
{
	int base = evlist->nr, i, err;

	for (i = 0; i < from->nr; i++) {
		struct evsel *orig = from->entries[i];
		struct evsel *copy = evsel__clone(orig, cgrp);

		err = copy ? evlist__add(evlist, copy) : -ENOMEM;
		if (err) {
			evsel__delete(copy);
			evlist__truncate(evlist, base);
			return err;
		}
		copy->leader = evlist->entries[base + orig->leader->idx];
	}
	return 0;
}

int evlist__expand_cgroups(struct evlist *evlist, struct cgroup **cgrps, int nr, int max,
			   enum evlist_cgroup_mode mode, struct evlist **outp)
{
	const struct counter_ops *ops = &counter_share_ops, *const *fallback = NULL;
	struct evlist *out = evlist__new();
	struct cgroup_bpf *bpf = NULL;
	int c, err = -ENOMEM;

	if (!out)
		return -ENOMEM;
	if (max && nr > max) {
		err = -E2BIG;
		goto out_delete;
	}
	out->tmpl = evlist__new();
	if (!out->tmpl)
		goto out_delete;
	err = evlist__add_copy(out->tmpl, evlist, NULL);
	for (c = 0; c < nr && !err; c++)
		err = evlist__add_copy(out, evlist, cgrps[c]);
	if (err)
		goto out_delete;
	if (mode == EVLIST_CGROUP_EVENTS)
		ops = &counter_events_ops;
	else if (mode == EVLIST_CGROUP_BPF)
		ops = &counter_bpf_ops;
	else if (mode == EVLIST_CGROUP_AUTO)
		fallback = auto_fallback;
	if (ops == &counter_bpf_ops || fallback) {
		err = cgroup_bpf__new(cgrps, nr, max, evlist->nr, &bpf);
		if (err)
			goto out_delete;
	}
	err = evlist__add_counters(out, out->tmpl, nr, ops, fallback, bpf);
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

/* the BPF counter of an expanded list, if it has one: its counters share it */
static struct cgroup_bpf *evlist__bpf(const struct evlist *evlist)
{
	return evlist->nr_counters ? evlist->counters[0].bpf : NULL;
}

/* the copy of @tmpl's group at @first that starts at entries[@base] joins @counter */
static int counter__add_copy(struct counter *counter, struct evlist *evlist, int base)
{
	int nm = counter->nr_members, first = counter->tmpl[0]->idx, m;
	struct evsel **n;

	n = perfx__grow(counter->evsels, &counter->alloc, (size_t)(counter->nr_cgrps + 1) * nm,
			sizeof(*n));
	if (!n)
		return -ENOMEM;
	counter->evsels = n;
	for (m = 0; m < nm; m++)
		n[counter->nr_cgrps * nm + m] = evlist->entries[base + first + m];
	counter->nr_cgrps++;
	return 0;
}

/* As evlist__prepare() does: counts per CPU; the template's support. */
static int evlist__prepare_copy(struct evlist *evlist, int base)
{
	int i, err;

	for (i = base; i < evlist->nr; i++) {
		struct evsel *copy = evlist->entries[i];
		const struct evsel *orig = evlist->tmpl->entries[i - base];

		err = evsel__prepare(copy, evlist->cpus, evlist->threads);
		if (err)
			return err;
		copy->supported = orig->supported;
		/* the list counts already: so does the copy, from its open */
		copy->attr.disabled = 0;
	}
	return 0;
}

static int evlist__add_cgroup(struct evlist *evlist, struct cgroup *cgrp)
{
	struct cgroup_bpf *bpf = evlist__bpf(evlist);
	int base = evlist->nr, i, err;

	err = evlist__add_copy(evlist, evlist->tmpl, cgrp);
	if (err)
		return err;
	err = evlist__prepare_copy(evlist, base);
	if (!err && bpf)
		err = cgroup_bpf__add_cgroup(bpf, cgrp);
	if (err) {
		evlist__truncate(evlist, base);
		return err;
	}
	for (i = 0; i < evlist->nr_counters; i++) {
		err = counter__add_copy(&evlist->counters[i], evlist, base);
		if (err)
			return err;
	}
	return 0;
}

int evlist__add_cgroups(struct evlist *evlist, struct cgroup **cgrps, int nr)
{
	int c, err;

	if (!evlist->tmpl)
		return -EINVAL;
	for (c = 0; c < nr; c++) {
		err = evlist__add_cgroup(evlist, cgrps[c]);
		if (err)
			return err;
	}
	return 0;
}

void evlist__retire_cgroup(struct evlist *evlist, int k)
{
	struct cgroup_bpf *bpf = evlist__bpf(evlist);
	int i, m;

	for (i = 0; i < evlist->nr_counters; i++) {
		struct counter *counter = &evlist->counters[i];
		int nm = counter->nr_members;
		struct evsel **copy = &counter->evsels[k * nm];

		for (m = 0; m < nm; m++) {
			counter->nr_fds -= evsel__nr_open_fds(copy[m]);
			evsel__close(copy[m]);
			cgroup__close(copy[m]->cgrp);
			copy[m]->retired = true;
		}
		memmove(copy, copy + nm, (size_t)(counter->nr_cgrps - k - 1) * nm * sizeof(*copy));
		counter->nr_cgrps--;
	}
	if (bpf)
		cgroup_bpf__remove_cgroup(bpf, k);
}

int evlist__take_retired(struct evlist *evlist, struct evsel ***retiredp, int *nrp)
{
	struct evsel **retired;
	int i, n = 0, nr = 0;

	for (i = 0; i < evlist->nr; i++)
		nr += evlist->entries[i]->retired;
	retired = calloc(nr ? nr : 1, sizeof(*retired));
	if (!retired)
		return -ENOMEM;
	nr = 0;
	for (i = 0; i < evlist->nr; i++) {
		struct evsel *evsel = evlist->entries[i];

		if (evsel->retired) {
			retired[nr++] = evsel;
			continue;
		}
		evsel->idx = n;
		evlist->entries[n++] = evsel;
	}
	evlist->nr = n;
	*retiredp = retired;
	*nrp = nr;
	return 0;
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

	/* an expanded list's copies have their template's units, even before they come */
	if (evlist->tmpl)
		evlist = evlist->tmpl;
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
	struct affinity aff = { .ok = false };
	int c, err = 0;

	if (evlist->cpu_affinity)
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
	return evlist__add_counters(evlist, evlist, 1, &counter_events_ops, NULL, NULL);
}

/* every event has counts for each CPU */
static int evlist__prepare_entries(struct evlist *evlist, struct cpu_map *cpus,
				   struct thread_map *threads)
{
	struct evsel *evsel;
	int i, err;

	evlist__for_each(evlist, i, evsel) {
		err = evsel__prepare(evsel, cpus, threads);
		if (err)
			return err;
	}
	return 0;
}

/* the copies, however they are counted, and the template of those to come */
static int evlist__prepare(struct evlist *evlist)
{
	int i, err;

	err = evlist__init_counters(evlist);
	for (i = 0; i < evlist->nr_counters; i++)
		evlist->counters[i].skip_unsupported = evlist->skip_unsupported;
	if (!err && evlist->tmpl)
		err = evlist__prepare_entries(evlist->tmpl, evlist->cpus, evlist->threads);
	if (!err)
		err = evlist__prepare_entries(evlist, evlist->cpus, evlist->threads);
	return err;
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

static int update_cpu(struct evlist *evlist, int c, void *arg)
{
	int i, err;

	for (i = 0; i < evlist->nr_counters; i++) {
		struct counter *counter = &evlist->counters[i];

		err = counter__update_cpu(counter, c, arg);
		if (err)
			return err;
	}
	return 0;
}

int evlist__refused_cgroup(const struct evlist *evlist, const struct evsel *failed)
{
	int i;

	for (i = 0; failed && i < evlist->nr_counters; i++) {
		const struct counter *counter = &evlist->counters[i];

		if (counter->tmpl[0] == failed && counter->refused == -ENOENT &&
		    counter->refused_index >= 0 && counter->refused_index < counter->nr_cgrps)
			return counter->refused_index;
	}
	return -1;
}

int evlist__update(struct evlist *evlist, struct evsel **failed)
{
	*failed = NULL;
	return evlist__for_each_cpu(evlist, update_cpu, failed);
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
	/* the poll set named the fds just closed */
	free(evlist->pollfd);
	evlist->pollfd = NULL;
	evlist->nr_pollfd = 0;
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

int evlist__nr(const struct evlist *evlist)
{
	return evlist->nr;
}

struct evsel *evlist__entry(const struct evlist *evlist, int i)
{
	return evlist->entries[i];
}

struct evlist *evlist__tmpl(const struct evlist *evlist)
{
	return evlist->tmpl;
}

struct cpu_map *evlist__cpus(const struct evlist *evlist)
{
	return evlist->cpus;
}

struct thread_map *evlist__threads(const struct evlist *evlist)
{
	return evlist->threads;
}

int evlist__nr_counters(const struct evlist *evlist)
{
	return evlist->nr_counters;
}

struct counter *evlist__counter(const struct evlist *evlist, int i)
{
	return &evlist->counters[i];
}

void evlist__set_skip_unsupported(struct evlist *evlist, bool skip)
{
	evlist->skip_unsupported = skip;
}

void evlist__set_cpu_affinity(struct evlist *evlist, bool move)
{
	evlist->cpu_affinity = move;
}
