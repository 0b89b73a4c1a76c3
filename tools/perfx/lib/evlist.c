// SPDX-License-Identifier: GPL-2.0
/* the ordered list of events, its per-cgroup expansion, and its reading. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroup.h"
#include "evlist.h"
#include "evsel.h"
#include "threadmap.h"

struct evlist *evlist__new(void)
{
	return calloc(1, sizeof(struct evlist));
}

void evlist__delete(struct evlist *evlist)
{
	int i;

	if (!evlist)
		return;
	for (i = 0; i < evlist->nr; i++)
		evsel__delete(evlist->entries[i]);
	free(evlist->entries);
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

/*
 * As perf's --for-each-cgroup: a new list with a copy of every event for
 * each cgroup, cgroup-major, groups kept inside each copy.
 */
int evlist__expand_cgroups(struct evlist *evlist, struct cgroup **cgrps, int nr,
			   struct evlist **outp)
{
	struct evlist *out = evlist__new();
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
	out->nr_groups = evlist->nr_groups;
	*outp = out;
	return 0;

out_delete:
	evlist__delete(out);
	return err;
}

/*
 * As perf's -G: the i-th cgroup goes to the i-th event (a NULL entry skips
 * one); a single cgroup goes to every event.
 */
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

/*
 * Read the group led by entries[@lidx] on CPU index @c with one read(2) per
 * thread, as perf stat does: { nr, ena, run, { val, id }[nr] }, the leader
 * first, then the members that are open in the order they were opened,
 * which is evlist order (members follow their leader).  counts[c] of each
 * becomes the sum over the threads.
 */
static int evlist__read_group_cpu(struct evlist *evlist, int lidx, int c)
{
	struct evsel *leader = evlist->entries[lidx];
	size_t words = 3 + 2 * (size_t)leader->nr_members;
	int t, i, k, err = 0;
	__u64 *buf;

	buf = calloc(words, sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	for (i = lidx; i < evlist->nr && evlist->entries[i]->leader == leader; i++)
		memset(&evlist->entries[i]->counts[c], 0, sizeof(struct evsel_counts));
	for (t = 0; t < leader->threads->nr && !err; t++) {
		int fd = evsel__fd(leader, c, t);
		ssize_t n;

		if (fd < 0)
			continue;
		n = read(fd, buf, words * sizeof(*buf));
		if (n < 0) {
			err = -errno;
			break;
		}
		if (n < 3 * (ssize_t)sizeof(*buf) || buf[0] > (__u64)leader->nr_members ||
		    (size_t)n != (3 + 2 * buf[0]) * sizeof(*buf)) {
			err = -EIO;
			break;
		}
		k = 0;
		for (i = lidx; i < evlist->nr && evlist->entries[i]->leader == leader; i++) {
			struct evsel *member = evlist->entries[i];

			if (evsel__fd(member, c, t) < 0)
				continue;
			if ((__u64)k == buf[0]) {
				err = -EIO;
				break;
			}
			member->counts[c].val += buf[3 + 2 * k];
			member->counts[c].ena += buf[1];
			member->counts[c].run += buf[2];
			k++;
		}
		if (!err && (__u64)k != buf[0])
			err = -EIO;
	}
	free(buf);
	return err;
}

/*
 * Read every event of @evlist on CPU index @c: a group in one read through
 * its leader when opened with PERF_FORMAT_GROUP, any other event alone.
 */
int evlist__read_cpu(struct evlist *evlist, int c, struct evsel **failed)
{
	struct evsel *evsel;
	int i, err;

	evlist__for_each(evlist, i, evsel) {
		if (!(evsel->attr.read_format & PERF_FORMAT_GROUP))
			err = evsel__read_cpu(evsel, c);
		else if (evsel->leader == evsel && evsel->fds)
			err = evlist__read_group_cpu(evlist, i, c);
		else
			continue;	/* read with its leader */
		if (err) {
			*failed = evsel;
			return err;
		}
	}
	return 0;
}
