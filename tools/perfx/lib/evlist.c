// SPDX-License-Identifier: GPL-2.0
/* the ordered list of events, and its per-cgroup expansion. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "evlist.h"
#include "evsel.h"

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
