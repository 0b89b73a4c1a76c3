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
#include "evsel.h"

struct share {
	struct evsel **carriers;	/* [nr_members] */
	__u64 *ids;			/* [nr_cgrps] */
	struct evsel_counts *vals;	/* [nr_cgrps * nr_members] */
};

static void share__delete(struct share *share, struct counter *counter)
{
	counter__delete_carriers(counter, share->carriers);
	free(share->ids);
	free(share->vals);
	free(share);
}

static int share__new(struct counter *counter)
{
	int k;
	struct share *share;

	share = calloc(1, sizeof(*share));
	if (!share)
		return -ENOMEM;
	share->carriers = counter__new_carriers(counter);
	share->ids = calloc(counter->nr_cgrps, sizeof(*share->ids));
	share->vals = calloc((size_t)counter->nr_cgrps * counter->nr_members,
			     sizeof(*share->vals));
	if (!share->carriers || !share->ids || !share->vals) {
		share__delete(share, counter);
		return -ENOMEM;
	}
	for (k = 0; k < counter->nr_cgrps; k++)
		share->ids[k] = counter->evsels[k * counter->nr_members]->cgrp->id;
	counter->priv = share;
	return 0;
}

static int share_open_cpu(struct counter *counter, int c, struct evsel **failed)
{
	struct share *share = counter->priv;
	int err, idx;

	if (!share) {
		err = share__new(counter);
		if (err)
			return err;
		share = counter->priv;
	}
	err = counter__open_carriers_cpu(counter, share->carriers, c, failed);
	if (err)
		return err;
	if (!share->carriers[0]->fds)
		return 0;
	err = cgroup_share__attach(evsel__fd(share->carriers[0], c, 0), share->ids,
				   counter->nr_cgrps, &idx);
	if (err) {
		counter->refused = err;
		counter->refused_index = idx;
		*failed = counter->evsels[0];
	}
	return err;
}

static int share_read_cpu(struct counter *counter, int c, struct evsel **failed)
{
	struct share *share = counter->priv;
	struct evsel *leader = share->carriers[0];
	int nm = counter->nr_members, nr_cntr = 0, k, m, i, err;

	if (!leader->fds)
		return 0;
	for (m = 0; m < nm; m++)
		if (evsel__fd(share->carriers[m], c, 0) >= 0)
			nr_cntr++;
	if (!(leader->attr.read_format & PERF_FORMAT_GROUP))
		nr_cntr = 1;
	err = cgroup_share__read(evsel__fd(leader, c, 0), leader->attr.read_format, nr_cntr,
				 share->ids, counter->nr_cgrps, share->vals, &counter->nr_reads);
	if (err) {
		*failed = counter->evsels[0];
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
	.ioctl_cpu	= share_ioctl_cpu,
	.close		= share_close,
};
