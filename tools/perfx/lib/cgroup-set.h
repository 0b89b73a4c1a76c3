/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_CGROUP_SET_H
#define __PERFX_CGROUP_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "cgroup.h"

struct cgroup_watch_changes;

/*
 * The cgroups a --for-each-cgroup list names, followed as the tree
 * changes: the directories cgroup_watch reports made or removed are
 * matched against the list and compared with the set by id, so that a
 * cgroup removed and made again under its name leaves and joins.  Members
 * keep their order: those that join are appended, those that leave are
 * taken out by the caller once it has read them a last time
 * (cgroup_set__remove()).
 */
struct cgroup_set {
	char *mnt;
	char *list;
	/* the list's pattern; no items for a list of plain names */
	struct cgroup_pattern pattern;
	/* the cap: members at most */
	int max;
	/* cgroups the list named that the cap kept out, at the last look */
	int nr_capped;
	int nr;
	struct cgroup **cgrps;
	size_t alloc;			/* cgrps' room */
};

/* What one cgroup_set__update() or cgroup_set__apply() found. */
struct cgroup_set_change {
	/* members cgrps[nr - nr_joined .. nr - 1] joined */
	int nr_joined;
	/* the indexes of the members that left, ascending, still in the set */
	int *left;
	int nr_left;
	/* cgroups the list names that the cap kept out */
	int nr_capped;
};

/*
 * The members of @list under @mnt now, at most @max (more is -E2BIG),
 * none if it matches nothing yet; @errbuf says what is wrong with @list.
 */
int cgroup_set__init(struct cgroup_set *set, const char *mnt, const char *list, int max,
		     char *errbuf, size_t errlen);
void cgroup_set__exit(struct cgroup_set *set);
/*
 * Expand the list again and compare: @change says who joined (appended
 * to the set, counted from now) and who left (still members until
 * cgroup_set__remove()).  A list that now matches nothing is no error: the
 * set empties.  0 or -errno; on error the set is as it was.
 */
int cgroup_set__update(struct cgroup_set *set, struct cgroup_set_change *change);
/*
 * As cgroup_set__update(), looking at the directories @changes names
 * alone: a cgroup is looked up only if it was made and the list matches
 * it.  The whole list is expanded again where that cannot tell (events
 * lost, a list of plain names, cgroups kept out by the cap that a
 * removal may let in).
 */
int cgroup_set__apply(struct cgroup_set *set, const struct cgroup_watch_changes *changes,
		      struct cgroup_set_change *change);
/*
 * The members removed from the tree by now, and member @refused (-1:
 * none), as leaving: what is left to do when the kernel would not take a
 * member (ENOENT), its rmdir not read yet.  The kernel refuses a cgroup
 * from the start of its rmdir, while its path still names it: @refused
 * is the one it named.  Looks at the members alone (an id lookup each),
 * not at the tree.
 */
int cgroup_set__prune(struct cgroup_set *set, int refused, struct cgroup_set_change *change);
void cgroup_set_change__exit(struct cgroup_set_change *change);
/* Take member @k out, the members after it moving down one. */
void cgroup_set__remove(struct cgroup_set *set, int k);

#endif /* __PERFX_CGROUP_SET_H */
