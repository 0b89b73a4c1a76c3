// SPDX-License-Identifier: GPL-2.0
/*
 * The events backend: every copy of every event has its own fd per CPU and
 * task, or per CPU with PERF_FLAG_PID_CGROUP for a cgroup, as perf does.
 * A group is read through its leader in one read(2) per task, as perf
 * stat does.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counter.h"
#include "evsel-internal.h"
#include "threadmap.h"

static int events_open_cpu(struct counter *counter, int c, struct evsel **failed)
{
	int i, nr = counter->nr_cgrps * counter->nr_members, err;

	for (i = 0; i < nr; i++) {
		struct evsel *evsel = counter->evsels[i];

		/* already open: the copies that joined are opened as the rest were */
		if (!evsel->supported || evsel__fd(evsel, c, 0) >= 0)
			continue;
		err = evsel__open_cpu(evsel, c);
		if ((err == -EACCES || err == -EPERM) && evsel__fallback_user(evsel))
			err = evsel__open_cpu(evsel, c);
		if (!err) {
			counter->nr_fds += evsel->threads->nr;
			continue;
		}
		if (!counter->skip_unsupported || !counter__errno_unsupported(err)) {
			*failed = evsel;
			return err;
		}
		counter__mark_unsupported(counter, i / counter->nr_members,
					  i % counter->nr_members);
	}
	return 0;
}

/*
 * Read the group @copy[0..nr) on CPU index @c with one read(2) per task:
 * { nr, ena, run, { val, id }[nr] }, the leader first, then the members
 * that are open in the order they were opened, which is @copy's order.
 */
static int events_read_group(struct counter *counter, struct evsel **copy, int c)
{
	int nr = counter->nr_members, t, i, k, err = 0;
	struct evsel *leader = copy[0];
	size_t words = 3 + 2 * (size_t)nr;
	__u64 *buf;

	buf = calloc(words, sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		memset(&copy[i]->counts[c], 0, sizeof(struct evsel_counts));
	for (t = 0; t < leader->threads->nr && !err; t++) {
		int fd = evsel__fd(leader, c, t);
		ssize_t n;

		if (fd < 0)
			continue;
		n = read(fd, buf, words * sizeof(*buf));
		counter->nr_reads++;
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n < 3 * (ssize_t)sizeof(*buf) || buf[0] > (__u64)nr ||
		    (size_t)n != (3 + 2 * buf[0]) * sizeof(*buf)) {
			err = -EIO;
			break;
		}
		for (i = 0, k = 0; i < nr && !err; i++) {
			if (evsel__fd(copy[i], c, t) < 0)
				continue;
			if ((__u64)k == buf[0]) {
				err = -EIO;
				break;
			}
			copy[i]->counts[c].val += buf[3 + 2 * k];
			copy[i]->counts[c].ena += buf[1];
			copy[i]->counts[c].run += buf[2];
			k++;
		}
		if (!err && (__u64)k != buf[0])
			err = -EIO;
	}
	free(buf);
	return err;
}

static int events_read_cpu(struct counter *counter, int c, struct evsel **failed)
{
	int k, m, err;

	for (k = 0; k < counter->nr_cgrps; k++) {
		struct evsel **copy = &counter->evsels[k * counter->nr_members];

		if (copy[0]->attr.read_format & PERF_FORMAT_GROUP) {
			err = copy[0]->fds ? events_read_group(counter, copy, c) : 0;
			if (err) {
				*failed = copy[0];
				return err;
			}
			continue;
		}
		for (m = 0; m < counter->nr_members; m++) {
			if (!copy[m]->fds)
				continue;
			err = evsel__read_cpu(copy[m], c);
			counter->nr_reads += copy[m]->threads->nr;
			if (err) {
				*failed = copy[m];
				return err;
			}
		}
	}
	return 0;
}

/* as perf's evlist__enable(): the leaders; members follow them */
static int events_ioctl_cpu(struct counter *counter, int c, unsigned long req)
{
	int i, nr = counter->nr_cgrps * counter->nr_members, err;

	for (i = 0; i < nr; i += counter->nr_members) {
		err = evsel__ioctl_cpu(counter->evsels[i], c, req);
		if (err)
			return err;
	}
	return 0;
}

static void events_close(struct counter *counter)
{
	int i, nr = counter->nr_cgrps * counter->nr_members;

	for (i = 0; i < nr; i++)
		evsel__close(counter->evsels[i]);
	counter->nr_fds = 0;
}

const struct counter_ops counter_events_ops = {
	.name		= "per-cgroup",
	.open_cpu	= events_open_cpu,
	.read_cpu	= events_read_cpu,
	.update_cpu	= events_open_cpu,
	.ioctl_cpu	= events_ioctl_cpu,
	.close		= events_close,
};
