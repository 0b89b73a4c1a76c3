// SPDX-License-Identifier: GPL-2.0
/*
 * What the counting backends share: marking events unsupported, the
 * carriers of the shared and BPF backends, falling back.
 */
#include <errno.h>
#include <stdlib.h>

#include "counter.h"
#include "cpumap.h"
#include "evsel-internal.h"

bool counter__errno_unsupported(int err)
{
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -ENXIO ||
	       err == -EINVAL;
}

static void counter__mark_one(struct counter *counter, struct evsel *evsel)
{
	counter->nr_fds -= evsel__nr_open_fds(evsel);
	evsel->supported = false;
	evsel__close(evsel);
}

void counter__mark_unsupported(struct counter *counter, int k, int m)
{
	struct evsel **copy = &counter->evsels[k * counter->nr_members];
	int i;

	counter__mark_one(counter, copy[m]);
	/* a group without its leader cannot count either */
	for (i = 1; !m && i < counter->nr_members; i++)
		counter__mark_one(counter, copy[i]);
}

void counter__delete_carriers(struct counter *counter, struct evsel **carriers)
{
	int m;

	for (m = 0; carriers && m < counter->nr_members; m++)
		evsel__delete(carriers[m]);
	free(carriers);
}

struct evsel **counter__new_carriers(struct counter *counter)
{
	int nm = counter->nr_members, m;
	struct evsel **carriers;

	carriers = calloc(nm, sizeof(*carriers));
	if (!carriers)
		return NULL;
	for (m = 0; m < nm; m++) {
		struct evsel *copy = counter->tmpl[m], *carrier;

		carrier = evsel__clone(copy, NULL);
		carriers[m] = carrier;
		if (!carrier)
			goto out_delete;
		carrier->leader = carriers[0];
		carrier->supported = copy->supported;
		if (evsel__prepare(carrier, copy->cpus, copy->threads))
			goto out_delete;
		carrier->attr.read_format = copy->attr.read_format;
	}
	return carriers;

out_delete:
	counter__delete_carriers(counter, carriers);
	return NULL;
}

void counter__mark_copies(struct counter *counter, struct evsel **carriers)
{
	int k, m;

	for (m = 0; m < counter->nr_members; m++) {
		if (carriers[m]->supported)
			continue;
		for (k = 0; k < counter->nr_cgrps; k++)
			counter->evsels[k * counter->nr_members + m]->supported = false;
	}
}

/* carrier @m is not supported: nor are its copies, nor what it leads */
static void counter__mark_carrier_unsupported(struct counter *counter, struct evsel **carriers,
					      int m)
{
	int k, last = m ? m : counter->nr_members - 1;

	for (k = 0; k < counter->nr_cgrps; k++)
		counter__mark_unsupported(counter, k, m);
	for (; m <= last; m++) {
		counter->nr_fds -= evsel__nr_open_fds(carriers[m]);
		evsel__close(carriers[m]);
		carriers[m]->supported = false;
	}
}

int counter__open_carriers_cpu(struct counter *counter, struct evsel **carriers, int c,
			       struct evsel **failed)
{
	int m, err;

	for (m = 0; m < counter->nr_members; m++) {
		if (!carriers[m]->supported)
			continue;
		err = evsel__open_cpu(carriers[m], c);
		if (!err) {
			counter->nr_fds++;
			continue;
		}
		if (!counter->skip_unsupported || !counter__errno_unsupported(err)) {
			*failed = counter->tmpl[m];
			return err;
		}
		counter__mark_carrier_unsupported(counter, carriers, m);
	}
	return 0;
}

int counter__ioctl_carriers_cpu(struct counter *counter, struct evsel **carriers, int c,
				unsigned long req)
{
	int m, err;

	for (m = 0; m < counter->nr_members; m++) {
		err = evsel__ioctl_cpu(carriers[m], c, req);
		if (err)
			return err;
	}
	return 0;
}

/* the kernel refused the backend itself, not an event */
static bool counter__refused(const struct counter *counter)
{
	if (counter->ops == &counter_share_ops)
		return counter->refused;
	return counter->ops == &counter_bpf_ops && counter->bpf_refused;
}

static int counter__fall_back(struct counter *counter, int c, struct evsel **failed)
{
	int err = 0, i;

	/*
	 * BPF stands in for the shared ioctls where the kernel lacks them:
	 * an event it refused to share (no task context, cgroup v1) is no
	 * better counted by BPF than by per-cgroup events.
	 */
	if (counter->ops == &counter_share_ops && counter->refused != -ENOTTY &&
	    *counter->fallback == &counter_bpf_ops)
		counter->fallback++;
	counter->ops->close(counter);
	counter->ops = *counter->fallback++;
	for (i = 0; i <= c && !err; i++)
		err = counter->ops->open_cpu(counter, i, failed);
	return err;
}

int counter__update_cpu(struct counter *counter, int c, struct evsel **failed)
{
	int err;

	err = counter->ops->update_cpu(counter, c, failed);
	while (err && err != -ENOENT && !counter->shared_some && counter__refused(counter) &&
	       counter->fallback && *counter->fallback)
		err = counter__fall_back(counter, counter->tmpl[0]->cpus->nr - 1, failed);
	return err;
}

int counter__open_cpu(struct counter *counter, int c, struct evsel **failed)
{
	int err;

	err = counter->ops->open_cpu(counter, c, failed);
	while (err && counter__refused(counter) && counter->fallback && *counter->fallback)
		err = counter__fall_back(counter, c, failed);
	return err;
}
