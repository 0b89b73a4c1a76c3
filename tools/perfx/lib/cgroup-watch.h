/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_CGROUP_WATCH_H
#define __PERFX_CGROUP_WATCH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Which cgroups come and go under a cgroup2 mount, so that a followed
 * --for-each-cgroup list looks at them, and only them: an inotify watch
 * on every directory of the tree reports its mkdir and rmdir, and the
 * directories made later are watched as they appear.  The caller polls
 * cgroup_watch__fd() and calls cgroup_watch__read() when it is readable.
 */
struct cgroup_watch;

/* A directory made or removed, named relative to the mount */
struct cgroup_watch_change {
	char *name;
	bool made;
};

/* What one cgroup_watch__read() saw, in the order it happened */
struct cgroup_watch_changes {
	int nr;
	struct cgroup_watch_change *changes;
	/*
	 * Events were lost (the kernel's queue overflowed): what changed is
	 * not known, the whole tree is to be looked at again
	 */
	bool lost;
};

/*
 * Watch every directory under @mnt: 0 or -errno, -ENOSPC where
 * fs.inotify.max_user_watches is below the number of cgroups.
 */
int cgroup_watch__new(const char *mnt, struct cgroup_watch **wp);
void cgroup_watch__delete(struct cgroup_watch *w);
/* readable when there are events: for poll(2), owned by @w */
int cgroup_watch__fd(const struct cgroup_watch *w);
/*
 * Drain the pending events into @changes, watching the directories made
 * meanwhile: one made with directories in it before its watch was in
 * place is reported with them.  1 if a cgroup was made or removed or
 * events were lost, 0 if not, -errno (ENOSPC: a new directory over
 * fs.inotify.max_user_watches); after an error the next read reports
 * events lost.  @changes is to be freed with cgroup_watch_changes__exit()
 * whatever it returns.
 */
int cgroup_watch__read(struct cgroup_watch *w, struct cgroup_watch_changes *changes);
void cgroup_watch_changes__exit(struct cgroup_watch_changes *changes);
/* Directories watched now: one a directory of the tree, none of the past */
int cgroup_watch__nr_watched(const struct cgroup_watch *w);

/* One inotify event, its name pointing into the buffer read */
struct cgroup_watch_event {
	int wd;
	unsigned int mask;
	const char *name;	/* "" when the event has none */
};

/*
 * The event at *@pos of what read(2) of an inotify fd gave, @buf[0..@len):
 * 1 with the event in @ev and *@pos past it, 0 at the end, -EPROTO for an
 * event that does not fit in @len or a name without its NUL.
 */
int cgroup_watch__next_event(const char *buf, size_t len, size_t *pos,
			     struct cgroup_watch_event *ev);

#endif /* __PERFX_CGROUP_WATCH_H */
