// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF backend: as in the shared backend, one cgroup-less CPU-wide
 * event per member of the group and CPU (the carrier) counts for every
 * cgroup; here a BPF program run at each cgroup switch adds what they
 * counted to the outgoing cgroup and its counted ancestors
 * (cgroup-bpf.c).  One program serves every counter of the list: each
 * puts its carriers in the program's slots from its first event's index
 * on, and the first to open it brings the sums up to date at each read.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

#include "cgroup-bpf.h"
#include "counter.h"
#include "cpumap.h"
#include "evsel-internal.h"
#include "util.h"

struct bpf_counter {
	struct evsel **carriers;	/* [nr_members] */
	bool leader;
	bool opened;			/* cgroup_bpf__open() done */
};

/* the program's slot of member @m: events are numbered as parsed */
static int slot(const struct counter *counter, int m)
{
	return counter->tmpl[0]->idx + m;
}

static int bpf_refuse(struct counter *counter, int err, struct evsel **failed)
{
	if (err != -ENOMEM)
		counter->bpf_refused = err;
	*failed = counter->tmpl[0];
	return err;
}

static int bpf_open(struct counter *counter, struct evsel **failed)
{
	struct evsel *first = counter->tmpl[0];
	struct bpf_counter *bc;
	int err;

	bc = calloc(1, sizeof(*bc));
	if (!bc)
		return -ENOMEM;
	counter->priv = bc;
	bc->carriers = counter__new_carriers(counter);
	if (!bc->carriers)
		return -ENOMEM;
	err = cgroup_bpf__open(counter->bpf, first->cpus, first->threads, &bc->leader);
	if (err)
		return bpf_refuse(counter, err, failed);
	bc->opened = true;
	return 0;
}

static int bpf_open_cpu(struct counter *counter, int c, struct evsel **failed)
{
	struct bpf_counter *bc = counter->priv;
	int m, err;

	if (!bc) {
		err = bpf_open(counter, failed);
		if (err)
			return err;
		bc = counter->priv;
	}
	err = cgroup_bpf__open_cpu(counter->bpf, c);
	if (err)
		return bpf_refuse(counter, err, failed);
	err = counter__open_carriers_cpu(counter, bc->carriers, c, failed);
	for (m = 0; m < counter->nr_members && !err; m++) {
		int fd = evsel__fd(bc->carriers[m], c, 0);

		if (fd >= 0)
			err = cgroup_bpf__set_event(counter->bpf, c, slot(counter, m), fd);
		if (err)
			*failed = counter->tmpl[m];
	}
	return err;
}

static int bpf_read_cpu(struct counter *counter, int c, struct evsel **failed)
{
	struct bpf_counter *bc = counter->priv;
	int nm = counter->nr_members, k, m, err;

	if (bc->leader) {
		err = cgroup_bpf__sync_cpu(counter->bpf, c);
		counter->nr_reads++;
		if (err) {
			*failed = counter->tmpl[0];
			return err;
		}
	}
	for (m = 0; m < nm; m++) {
		if (evsel__fd(bc->carriers[m], c, 0) < 0)
			continue;
		for (k = 0; k < counter->nr_cgrps; k++) {
			struct evsel_counts *counts = &counter->evsels[k * nm + m]->counts[c];
			struct bpf_perf_event_value v;

			cgroup_bpf__counts(counter->bpf, c, k, slot(counter, m), &v);
			counts->val = v.counter;
			counts->ena = v.enabled;
			counts->run = v.running;
		}
	}
	return 0;
}

/* the evlist keeps the program's cgroups as the copies are */
static int bpf_update_cpu(struct counter *counter, int c __maybe_unused,
			  struct evsel **failed __maybe_unused)
{
	struct bpf_counter *bc = counter->priv;

	counter__mark_copies(counter, bc->carriers);
	return 0;
}

static int bpf_ioctl_cpu(struct counter *counter, int c, unsigned long req)
{
	struct bpf_counter *bc = counter->priv;

	return bc ? counter__ioctl_carriers_cpu(counter, bc->carriers, c, req) : 0;
}

static void bpf_close(struct counter *counter)
{
	struct bpf_counter *bc = counter->priv;
	int m, c;

	if (!bc)
		return;
	for (m = 0; bc->opened && m < counter->nr_members; m++) {
		struct evsel *carrier = bc->carriers[m];

		/* the program's map holds the events too: let go of them */
		for (c = 0; carrier->fds && c < carrier->cpus->nr; c++)
			if (evsel__fd(carrier, c, 0) >= 0)
				cgroup_bpf__set_event(counter->bpf, c, slot(counter, m), -1);
	}
	counter__delete_carriers(counter, bc->carriers);
	if (bc->opened)
		cgroup_bpf__close(counter->bpf);
	free(bc);
	counter->priv = NULL;
	counter->nr_fds = 0;
}

const struct counter_ops counter_bpf_ops = {
	.name		= "BPF",
	.open_cpu	= bpf_open_cpu,
	.read_cpu	= bpf_read_cpu,
	.update_cpu	= bpf_update_cpu,
	.ioctl_cpu	= bpf_ioctl_cpu,
	.close		= bpf_close,
};
