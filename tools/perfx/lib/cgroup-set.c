// SPDX-License-Identifier: GPL-2.0
/*
 * A followed --for-each-cgroup set.  Members are compared by id, not by
 * name: a cgroup made again under a removed one's name is another cgroup,
 * whose counts must not continue the old one's.  Plain names (a list
 * without a pattern) that are not there now are not members until they
 * are.  A change costs what it names: the directories made that the
 * pattern matches are looked up, the members named removed checked.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"
#include "cgroup-set.h"
#include "cgroup-watch.h"
#include "util.h"

/* the member with @id, or -1 */
static int cgroup_set__find(const struct cgroup_set *set, __u64 id)
{
	int k;

	for (k = 0; k < set->nr; k++)
		if (set->cgrps[k]->id == id)
			return k;
	return -1;
}

/*
 * The cgroups @names name now, each once, in order: what is gone since it
 * was listed is left out.  *@nr_capped counts those past @max.
 */
static int cgroup_set__resolve(const char *mnt, const struct cgroup_names *names, int max,
			       struct cgroup ***cgrpsp, int *nrp, int *nr_capped)
{
	struct cgroup **cgrps;
	int i, j, nr = 0, err = 0;

	*nr_capped = 0;
	cgrps = calloc(names->nr ? names->nr : 1, sizeof(*cgrps));
	if (!cgrps)
		return -ENOMEM;
	for (i = 0; i < names->nr; i++) {
		struct cgroup *cgrp;

		err = cgroup__new(mnt, names->names[i], &cgrp);
		if (err == -ENOENT || err == -ENOTDIR) {
			err = 0;
			continue;
		}
		if (err)
			goto out_put;
		for (j = 0; j < nr && cgrps[j]->id != cgrp->id; j++)
			;
		if (j < nr || nr == max) {
			*nr_capped += j == nr;
			cgroup__put(cgrp);
			continue;
		}
		cgrps[nr++] = cgrp;
	}
	*cgrpsp = cgrps;
	*nrp = nr;
	return 0;

out_put:
	while (nr--)
		cgroup__put(cgrps[nr]);
	free(cgrps);
	return err;
}

int cgroup_set__init(struct cgroup_set *set, const char *mnt, const char *list, int max,
		     char *errbuf, size_t errlen)
{
	struct cgroup_names names;
	int err, capped;

	memset(set, 0, sizeof(*set));
	set->max = max;
	set->mnt = strdup(mnt);
	set->list = strdup(list);
	if (!set->mnt || !set->list) {
		err = -ENOMEM;
		goto out_exit;
	}
	if (cgroup__has_pattern(list)) {
		err = cgroup_pattern__init(&set->pattern, list, errbuf, errlen);
		if (err)
			goto out_exit;
	}
	err = cgroup_names__match(mnt, list, &names, errbuf, errlen);
	if (err)
		goto out_exit;
	err = cgroup_set__resolve(mnt, &names, max, &set->cgrps, &set->nr, &capped);
	cgroup_names__exit(&names);
	if (!err && capped) {
		snprintf(errbuf, errlen, "'%s' names more than %d cgroups", list, max);
		err = -E2BIG;
	}
	if (err)
		goto out_exit;
	return 0;

out_exit:
	cgroup_set__exit(set);
	return err;
}

void cgroup_set__exit(struct cgroup_set *set)
{
	int k;

	for (k = 0; k < set->nr; k++)
		cgroup__put(set->cgrps[k]);
	free(set->cgrps);
	free(set->mnt);
	free(set->list);
	cgroup_pattern__exit(&set->pattern);
	memset(set, 0, sizeof(*set));
}

void cgroup_set_change__exit(struct cgroup_set_change *change)
{
	free(change->left);
	memset(change, 0, sizeof(*change));
}

/*
 * @now against the members: who left, and @now's cgroups that are new
 * appended (their references moved to the set); the others are dropped.
 * The cap counts the members that stay until they are removed.
 */
static int cgroup_set__merge(struct cgroup_set *set, struct cgroup **now, int nr_now,
			     struct cgroup_set_change *change)
{
	struct cgroup **cgrps;
	int i, k, room;

	change->left = calloc(set->nr ? set->nr : 1, sizeof(*change->left));
	cgrps = perfx__grow(set->cgrps, &set->alloc, set->nr + nr_now, sizeof(*cgrps));
	if (!change->left || !cgrps) {
		free(change->left);
		change->left = NULL;
		if (cgrps)
			set->cgrps = cgrps;
		return -ENOMEM;
	}
	set->cgrps = cgrps;
	for (k = 0; k < set->nr; k++) {
		for (i = 0; i < nr_now && now[i]->id != set->cgrps[k]->id; i++)
			;
		if (i == nr_now)
			change->left[change->nr_left++] = k;
	}
	/* those that leave make room: they are members until removed */
	room = set->max - set->nr + change->nr_left;
	for (i = 0; i < nr_now; i++) {
		if (cgroup_set__find(set, now[i]->id) >= 0) {
			cgroup__put(now[i]);
		} else if (room > 0) {
			set->cgrps[set->nr++] = now[i];
			change->nr_joined++;
			room--;
		} else {
			change->nr_capped++;
			cgroup__put(now[i]);
		}
	}
	return 0;
}

int cgroup_set__update(struct cgroup_set *set, struct cgroup_set_change *change)
{
	struct cgroup_names names;
	struct cgroup **now;
	char errbuf[256];
	int err, nr_now, i;

	memset(change, 0, sizeof(*change));
	err = cgroup_names__match(set->mnt, set->list, &names, errbuf, sizeof(errbuf));
	if (err)
		return err;
	err = cgroup_set__resolve(set->mnt, &names, names.nr, &now, &nr_now,
				  &change->nr_capped);
	cgroup_names__exit(&names);
	if (err)
		return err;
	err = cgroup_set__merge(set, now, nr_now, change);
	if (err) {
		for (i = 0; i < nr_now; i++)
			cgroup__put(now[i]);
	} else {
		set->nr_capped = change->nr_capped;
	}
	free(now);
	return err;
}

/* An empty change, with room for every member of @set to leave */
static int cgroup_set_change__init(struct cgroup_set_change *change,
				   const struct cgroup_set *set)
{
	memset(change, 0, sizeof(*change));
	change->left = calloc(set->nr ? set->nr : 1, sizeof(*change->left));
	return change->left ? 0 : -ENOMEM;
}

/* @name was made: a member if it is a cgroup still, new, and under the cap */
static int cgroup_set__made(struct cgroup_set *set, const char *name,
			    struct cgroup_set_change *change)
{
	struct cgroup **cgrps, *cgrp;
	int err;

	err = cgroup__new(set->mnt, name, &cgrp);
	/* removed again already */
	if (err == -ENOENT || err == -ENOTDIR)
		return 0;
	if (err)
		return err;
	/* a member already: made, removed and made again in this change */
	if (cgroup_set__find(set, cgrp->id) >= 0) {
		cgroup__put(cgrp);
		return 0;
	}
	if (set->nr - change->nr_left >= set->max) {
		change->nr_capped++;
		cgroup__put(cgrp);
		return 0;
	}
	cgrps = perfx__grow(set->cgrps, &set->alloc, set->nr + 1, sizeof(*cgrps));
	if (!cgrps) {
		cgroup__put(cgrp);
		return -ENOMEM;
	}
	set->cgrps = cgrps;
	cgrps[set->nr++] = cgrp;
	change->nr_joined++;
	return 0;
}

/* @name was removed: the member of that name, unless it is there again */
static void cgroup_set__removed(struct cgroup_set *set, const char *name,
				struct cgroup_set_change *change)
{
	int k, i;

	for (k = 0; k < set->nr; k++)
		if (!strcmp(set->cgrps[k]->name, name) && cgroup__check_alive(set->cgrps[k]))
			break;
	if (k == set->nr)
		return;
	for (i = 0; i < change->nr_left && change->left[i] != k; i++)
		;
	if (i < change->nr_left)
		return;
	/* ascending: the caller retires them from the last, so that indexes hold */
	while (i > 0 && change->left[i - 1] > k) {
		change->left[i] = change->left[i - 1];
		i--;
	}
	change->left[i] = k;
	change->nr_left++;
}

int cgroup_set__apply(struct cgroup_set *set, const struct cgroup_watch_changes *changes,
		      struct cgroup_set_change *change)
{
	int i, err = 0;

	if (changes->lost || !set->pattern.nr || set->nr_capped)
		return cgroup_set__update(set, change);
	if (cgroup_set_change__init(change, set))
		return -ENOMEM;
	/*
	 * Both passes look at the tree as it is now, not as each event
	 * saw it: those that left first, so that the room they make under
	 * the cap is there for those that joined, whatever the order
	 * they came in.
	 */
	for (i = 0; i < changes->nr; i++) {
		const struct cgroup_watch_change *c = &changes->changes[i];

		if (!c->made && cgroup_pattern__match(&set->pattern, c->name))
			cgroup_set__removed(set, c->name, change);
	}
	for (i = 0; !err && i < changes->nr; i++) {
		const struct cgroup_watch_change *c = &changes->changes[i];

		if (c->made && cgroup_pattern__match(&set->pattern, c->name))
			err = cgroup_set__made(set, c->name, change);
	}
	if (err) {
		/* as it was: those that joined out again */
		while (change->nr_joined--)
			cgroup_set__remove(set, set->nr - 1);
		cgroup_set_change__exit(change);
		return err;
	}
	set->nr_capped = change->nr_capped;
	return 0;
}

int cgroup_set__prune(struct cgroup_set *set, int refused, struct cgroup_set_change *change)
{
	int k;

	if (cgroup_set_change__init(change, set))
		return -ENOMEM;
	for (k = 0; k < set->nr; k++)
		if (k == refused || cgroup__check_alive(set->cgrps[k]) == -ENOENT)
			change->left[change->nr_left++] = k;
	change->nr_capped = set->nr_capped;
	return 0;
}

void cgroup_set__remove(struct cgroup_set *set, int k)
{
	cgroup__put(set->cgrps[k]);
	memmove(&set->cgrps[k], &set->cgrps[k + 1], (set->nr - k - 1) * sizeof(*set->cgrps));
	set->nr--;
}
