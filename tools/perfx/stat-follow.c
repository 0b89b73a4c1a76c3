// SPDX-License-Identifier: GPL-2.0
/*
 * perfx stat --follow-cgroups (stat-follow.h): a cgroup_watch says which
 * directories came and went, a cgroup_set which cgroups of the list
 * joined and left, and the evlist's counters retire the copies of the
 * cgroups that left and open those of the ones that joined.  A cgroup's
 * index in the set is its copy's index in the counters: both append who
 * joins and remove who leaves.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cgroup.h"
#include "lib/cgroup-bpf.h"
#include "lib/cgroup-set.h"
#include "lib/cgroup-watch.h"
#include "lib/data.h"
#include "lib/debug.h"
#include "lib/evlist.h"
#include "lib/evsel.h"
#include "stat-follow.h"

struct stat_follow {
	struct cgroup_set set;
	struct cgroup_watch *watch;
	struct cgroup_set_change change;
	/* cgroups the cap kept out at the last look: warned about when it changes */
	int nr_capped;
	/*
	 * The last members of the set, added to the list but not counting
	 * yet: said to have appeared once they count
	 */
	int nr_unsaid;
};

/* what the kernel lacks where inotify fails */
static const char *stat_follow__watch_hint(int err)
{
	if (err == -ENOSPC)
		return ": fs.inotify.max_user_watches is below the number of cgroups";
	if (err == -EMFILE)
		return ": fs.inotify.max_user_instances is reached";
	if (err == -ENOSYS)
		return ": the kernel has no inotify (CONFIG_INOTIFY_USER)";
	return "";
}

int stat_follow__new(const char *mnt, const char *list, int max, struct stat_follow **fp)
{
	struct stat_follow *f;
	char errbuf[256] = "";
	int err;

	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	/* watched first: a cgroup made during the expansion is seen */
	err = cgroup_watch__new(mnt, &f->watch);
	if (err) {
		pr_err("--follow-cgroups: watching the cgroups under %s with inotify: %s (%s)%s\n",
		       mnt, strerror(-err), perfx__errname(err), stat_follow__watch_hint(err));
		goto out_delete;
	}
	err = cgroup_set__init(&f->set, mnt, list, max, errbuf, sizeof(errbuf));
	if (err) {
		pr_err("--for-each-cgroup '%s': %s (%s)%s\n", list,
		       errbuf[0] ? errbuf : strerror(-err), perfx__errname(err),
		       err == -E2BIG ? ": raise --max-cgroups" : "");
		goto out_delete;
	}
	if (!f->set.nr)
		pr_warning("--follow-cgroups: '%s' names no cgroup yet: counting from when one appears\n",
			   list);
	*fp = f;
	return 0;

out_delete:
	stat_follow__delete(f);
	return err;
}

void stat_follow__delete(struct stat_follow *f)
{
	if (!f)
		return;
	cgroup_set_change__exit(&f->change);
	cgroup_set__exit(&f->set);
	cgroup_watch__delete(f->watch);
	free(f);
}

struct cgroup **stat_follow__cgroups(const struct stat_follow *f, int *nr)
{
	*nr = f->set.nr;
	return f->set.cgrps;
}

int stat_follow__fd(const struct stat_follow *f)
{
	return cgroup_watch__fd(f->watch);
}

/*
 * The list looked at again where @changes says the tree changed (if NULL,
 * the members alone: which of them are gone, member @refused with them):
 * 1 if cgroups joined or left, 0 if not, -errno
 */
static int stat_follow__expand(struct stat_follow *f, const struct cgroup_watch_changes *changes,
			       int refused)
{
	int err;

	cgroup_set_change__exit(&f->change);
	err = changes ? cgroup_set__apply(&f->set, changes, &f->change) :
			cgroup_set__prune(&f->set, refused, &f->change);
	if (err) {
		pr_err("--follow-cgroups: expanding '%s' again: %s (%s)\n", f->set.list,
		       strerror(-err), perfx__errname(err));
		return err;
	}
	if (f->change.nr_capped != f->nr_capped) {
		f->nr_capped = f->change.nr_capped;
		if (f->nr_capped)
			pr_warning("--follow-cgroups: '%s' names %d cgroups more than --max-cgroups %d: they are not counted\n",
				   f->set.list, f->nr_capped, f->set.max);
	}
	return f->change.nr_joined || f->change.nr_left;
}

/* the cgroups that left, from the last, so that the indexes hold */
static void stat_follow__retire(struct stat_follow *f, struct evlist *evlist)
{
	int i;

	for (i = f->change.nr_left - 1; i >= 0; i--) {
		int k = f->change.left[i];

		if (k >= f->set.nr - f->nr_unsaid) {
			/* added in a round the kernel refused: it never counted */
			f->nr_unsaid--;
			pr_info("--follow-cgroups: cgroup '%s' is gone before it was counted\n",
				f->set.cgrps[k]->name);
		} else {
			pr_info("--follow-cgroups: cgroup '%s' is gone: its last counts are shown once more\n",
				f->set.cgrps[k]->name);
		}
		evlist__retire_cgroup(evlist, k);
		cgroup_set__remove(&f->set, k);
	}
}

/* The cgroups that joined, at the set's end: a copy each, in the same order. */
static int stat_follow__add(struct stat_follow *f, struct evlist *evlist)
{
	int k = f->set.nr - f->change.nr_joined, err;

	while (k < f->set.nr) {
		struct cgroup *cgrp = f->set.cgrps[k];

		err = evlist__add_cgroups(evlist, &cgrp, 1);
		if (err == -E2BIG) {
			pr_warning("--follow-cgroups: cgroup '%s' is not counted: the BPF counter walks %d levels (E2BIG)\n",
				   cgrp->name, CGROUP_BPF_MAX_LEVELS);
			cgroup_set__remove(&f->set, k);
			continue;
		}
		if (err) {
			pr_err("--follow-cgroups: adding cgroup '%s': %s (%s)\n", cgrp->name,
			       strerror(-err), perfx__errname(err));
			return err;
		}
		f->nr_unsaid++;
		k++;
	}
	return 0;
}

/* Retire the cgroups that left, add and open those that joined. */
static int stat_follow__apply(struct stat_follow *f, struct evlist *evlist,
			      struct evsel **failed)
{
	int k, err;

	stat_follow__retire(f, evlist);
	err = stat_follow__add(f, evlist);
	cgroup_set_change__exit(&f->change);
	if (!err)
		err = evlist__update(evlist, failed);
	/* from this line on, a task in one of them is counted */
	for (k = f->set.nr - f->nr_unsaid; !err && k < f->set.nr; k++)
		pr_info("--follow-cgroups: cgroup '%s' appeared: counted from now\n",
			f->set.cgrps[k]->name);
	if (!err)
		f->nr_unsaid = 0;
	return err;
}

int stat_follow__update(struct stat_follow *f, struct evlist *evlist, int (*read)(void *arg),
			void *arg)
{
	struct cgroup_watch_changes changes;
	struct evsel *failed = NULL;
	int err, changed;

	changed = cgroup_watch__read(f->watch, &changes);
	if (changed < 0) {
		pr_err("--follow-cgroups: reading what changed under %s: %s (%s)%s\n", f->set.mnt,
		       strerror(-changed), perfx__errname(changed),
		       stat_follow__watch_hint(changed));
		cgroup_watch_changes__exit(&changes);
		return changed;
	}
	if (changed)
		changed = stat_follow__expand(f, &changes, -1);
	cgroup_watch_changes__exit(&changes);
	for (err = 0; changed > 0;) {
		/* the last counts of those that leave */
		err = f->change.nr_left ? read(arg) : 0;
		if (err)
			return err;
		err = stat_follow__apply(f, evlist, &failed);
		/*
		 * The kernel would not take a cgroup removed since it was
		 * looked up (its rmdir not read yet): the one it named and
		 * the members gone leave, and the rest is attached again.
		 * Each round takes one out at least, or ends.
		 */
		if (err != -ENOENT)
			break;
		changed = stat_follow__expand(f, NULL, evlist__refused_cgroup(evlist, failed));
	}
	if (changed < 0)
		return changed;
	if (err && err != -ENOMEM)
		pr_err("--follow-cgroups: opening event '%s' for the cgroups that changed: %s (%s)\n",
		       failed ? evsel__name(failed) : "?", strerror(-err), perfx__errname(err));
	return err;
}
