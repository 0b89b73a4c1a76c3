/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_CGROUP_WATCH_H
#define __PERFX_CGROUP_WATCH_H

#include <stddef.h>

/*
 * When cgroups come and go under a cgroup2 mount, so that a
 * --for-each-cgroup pattern is expanded again then, and only then: an
 * inotify watch on every directory of the tree reports its mkdir and
 * rmdir, and the directories made later are watched as they appear.
 * The caller polls cgroup_watch__fd() and calls cgroup_watch__read()
 * when it is readable.
 */
struct cgroup_watch;

/*
 * Watch every directory under @mnt: 0 or -errno, -ENOSPC where
 * fs.inotify.max_user_watches is below the number of cgroups.
 */
int cgroup_watch__new(const char *mnt, struct cgroup_watch **wp);
void cgroup_watch__delete(struct cgroup_watch *w);
/* readable when there are events: for poll(2), owned by @w */
int cgroup_watch__fd(const struct cgroup_watch *w);
/*
 * Drain the pending events, watching the directories made meanwhile (and
 * those made in them before their watch was in place): 1 if a cgroup was
 * made or removed, or events were lost (the caller expands again either
 * way), 0 if not, -errno.
 */
int cgroup_watch__read(struct cgroup_watch *w);

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
