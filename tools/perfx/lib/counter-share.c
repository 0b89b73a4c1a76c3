// SPDX-License-Identifier: GPL-2.0
/*
 * The shared backend: one cgroup-less CPU-wide event per member of the
 * group and CPU (the carrier) has every cgroup's id attached with
 * PERF_EVENT_IOC_ATTACH_CGROUP, through the leader for the whole group,
 * and is read with one batch PERF_EVENT_IOC_READ_CGROUP per CPU, through
 * the leader for the whole group too (cgroup-share.c has the ABI).  A
 * cgroup's values go to that cgroup's copies: the same counts a per-cgroup
 * event would have, in far fewer fds.
 */
#include <errno.h>
#include <stdlib.h>

#include "cgroup.h"
#include "cgroup-share.h"
#include "counter.h"
#include "cpumap.h"
#include "evsel-internal.h"

struct share {
	struct evsel **carriers;	/* [nr_members] */
	int nr_ids;
	__u64 *ids;			/* [nr_ids]: the copies' cgroups */
	struct evsel_counts *vals;	/* [nr_ids * nr_members] */
	/* the ids' version, and the one attached on each CPU index */
	unsigned int gen;
	unsigned int *cpu_gen;
};

static void share__delete(struct share *share, struct counter *counter)
{
	counter__delete_carriers(counter, share->carriers);
	free(share->ids);
	free(share->vals);
	free(share->cpu_gen);
	free(share);
}

/* the ids of the copies' cgroups, as the copies are now: a new version if they changed */
static int share__set_ids(struct share *share, struct counter *counter)
{
	size_t nr = counter->nr_cgrps ? counter->nr_cgrps : 1;
	bool same = counter->nr_cgrps == share->nr_ids;
	struct evsel_counts *vals;
	__u64 *ids;
	int k;

	ids = realloc(share->ids, nr * sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	share->ids = ids;
	vals = realloc(share->vals, nr * counter->nr_members * sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	share->vals = vals;
	for (k = 0; k < counter->nr_cgrps; k++) {
		__u64 id = counter->evsels[k * counter->nr_members]->cgrp->id;

		same = same && share->ids[k] == id;
		share->ids[k] = id;
	}
	share->nr_ids = counter->nr_cgrps;
	share->gen += !same;
	return 0;
}

static int share__new(struct counter *counter)
{
	struct share *share;
	int err;

	share = calloc(1, sizeof(*share));
	if (!share)
		return -ENOMEM;
	share->carriers = counter__new_carriers(counter);
	share->cpu_gen = calloc(counter->tmpl[0]->cpus->nr, sizeof(*share->cpu_gen));
	err = share->carriers && share->cpu_gen ? share__set_ids(share, counter) : -ENOMEM;
	if (err) {
		share__delete(share, counter);
		return err;
	}
	counter->priv = share;
	return 0;
}

/* attach the ids through the leader's carrier on CPU index @c */
static int share_attach_cpu(struct counter *counter, int c, struct evsel **failed)
{
	struct share *share = counter->priv;
	int err, idx;

	if (!share->carriers[0]->fds)
		return 0;
	err = cgroup_share__attach(evsel__fd(share->carriers[0], c, 0), share->ids,
				   share->nr_ids, &idx);
	counter->shared_some |= !err && share->nr_ids;
	if (!err)
		share->cpu_gen[c] = share->gen;
	if (err) {
		counter->refused = err;
		counter->refused_index = idx;
		*failed = counter->tmpl[0];
	}
	return err;
}

static int share_open_cpu(struct counter *counter, int c, struct evsel **failed)
{
	struct share *share;
	int err;

	if (!counter->priv) {
		err = share__new(counter);
		if (err)
			return err;
	}
	share = counter->priv;
	err = counter__open_carriers_cpu(counter, share->carriers, c, failed);
	return err ? err : share_attach_cpu(counter, c, failed);
}

/*
 * Attaching again keeps the counts of the cgroups that stay (the kernel's
 * rule), starts those that join from zero and drops those that left.
 */
static int share_update_cpu(struct counter *counter, int c, struct evsel **failed)
{
	struct share *share = counter->priv;
	int err;

	err = share__set_ids(share, counter);
	if (err)
		return err;
	counter__mark_copies(counter, share->carriers);
	return share_attach_cpu(counter, c, failed);
}

static int share_read_cpu(struct counter *counter, int c, struct evsel **failed)
{
	struct share *share = counter->priv;
	struct evsel *leader = share->carriers[0];
	int nm = counter->nr_members, nr_cntr = 0, k, m, i, err;

	/*
	 * Nothing attached, or not yet the ids of now: an update failed on
	 * this CPU (a cgroup removed meanwhile) and is tried again; until
	 * then its copies keep their counts of the last read
	 */
	if (!leader->fds || !share->nr_ids || share->cpu_gen[c] != share->gen)
		return 0;
	for (m = 0; m < nm; m++)
		if (evsel__fd(share->carriers[m], c, 0) >= 0)
			nr_cntr++;
	if (!(leader->attr.read_format & PERF_FORMAT_GROUP))
		nr_cntr = 1;
	err = cgroup_share__read(evsel__fd(leader, c, 0), leader->attr.read_format, nr_cntr,
				 share->ids, share->nr_ids, share->vals, &counter->nr_reads);
	if (err) {
		*failed = counter->tmpl[0];
		return err;
	}
	/* a group's reply holds the counters that are open, in group order */
	for (m = 0, i = 0; m < nm && i < nr_cntr; m++) {
		if (evsel__fd(share->carriers[m], c, 0) < 0)
			continue;
		for (k = 0; k < counter->nr_cgrps; k++)
			counter->evsels[k * nm + m]->counts[c] =
				share->vals[(size_t)k * nr_cntr + i];
		i++;
	}
	return 0;
}

static int share_ioctl_cpu(struct counter *counter, int c, unsigned long req)
{
	struct share *share = counter->priv;

	return share ? counter__ioctl_carriers_cpu(counter, share->carriers, c, req) : 0;
}

static void share_close(struct counter *counter)
{
	if (!counter->priv)
		return;
	share__delete(counter->priv, counter);
	counter->priv = NULL;
	counter->nr_fds = 0;
}

const struct counter_ops counter_share_ops = {
	.name		= "shared",
	.open_cpu	= share_open_cpu,
	.read_cpu	= share_read_cpu,
	.update_cpu	= share_update_cpu,
	.ioctl_cpu	= share_ioctl_cpu,
	.close		= share_close,
};
