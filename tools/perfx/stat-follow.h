/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_STAT_FOLLOW_H
#define __PERFX_STAT_FOLLOW_H

struct cgroup;
struct evlist;
struct stat_follow;

/*
 * perfx stat --follow-cgroups: the --for-each-cgroup list is expanded
 * again whenever a cgroup is made or removed under the mount, and the
 * counted set follows the tree: a cgroup that appears is counted from
 * then on, one that goes is read a last time, printed (or served) once
 * more and dropped.  At most @max cgroups are counted at once.  Each call
 * says what failed before it returns -errno.
 */
int stat_follow__new(const char *mnt, const char *list, int max, struct stat_follow **fp);
void stat_follow__delete(struct stat_follow *f);
/* the cgroups to count now, for evlist__expand_cgroups() */
struct cgroup **stat_follow__cgroups(const struct stat_follow *f, int *nr);
/* readable when cgroups were made or removed: for poll(2) */
int stat_follow__fd(const struct stat_follow *f);
/*
 * When cgroups were made or removed since the last call and the set
 * changed: @read(@arg) reads the counters if cgroups left (their last
 * counts), then @evlist retires the cgroups that left and adds and opens
 * those that joined.  0 or -errno (@read reports its own).
 */
int stat_follow__update(struct stat_follow *f, struct evlist *evlist, int (*read)(void *arg),
			void *arg);

#endif /* __PERFX_STAT_FOLLOW_H */
