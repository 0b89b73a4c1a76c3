/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_CGROUP_H
#define __PERFX_CGROUP_H

#include <linux/types.h>
#include <regex.h>
#include <stddef.h>

/*
 * A cgroup2 directory named relative to the cgroup2 mount.  @id is the
 * 64-bit kernfs id name_to_handle_at() returns for it, the id
 * PERF_EVENT_IOC_ATTACH_CGROUP takes; @fd, -1 until cgroup__fd() opens
 * it, the directory fd perf_event_open() takes as pid with
 * PERF_FLAG_PID_CGROUP: only events of one cgroup need it, so a set of
 * thousands holds no fd for the others.
 */
struct cgroup {
	int refcnt;
	char *name;
	char *path;
	int fd;
	__u64 id;
};

int cgroup__find_mnt(const char *mountinfo, char *buf, size_t size);
int cgroup__bad_name(const char *name);
/* -ENOENT if there is no such directory, -ENOTDIR if it is not one; nothing opened */
int cgroup__new(const char *mnt, const char *name, struct cgroup **cgrpp);
/*
 * The directory's fd, opened at the first call: -errno, -ENOENT if the
 * directory under that name is no longer the cgroup of @cgrp->id.
 */
int cgroup__fd(struct cgroup *cgrp);
struct cgroup *cgroup__get(struct cgroup *cgrp);
void cgroup__put(struct cgroup *cgrp);
/*
 * Nothing is opened in the cgroup any more: its directory's fd goes, its
 * name and id stay (a removed cgroup's rows are printed once more).
 */
void cgroup__close(struct cgroup *cgrp);
int cgroup__path_id(const char *path, __u64 *id);
int cgroup__check_alive(const struct cgroup *cgrp);
/*
 * Call @fn on every directory under @mnt, or under @mnt/@under (NULL or
 * "": the whole tree), with its path and its name relative to @mnt (""
 * for @mnt itself): pre-order, in directory order, as nftw(3) walks.  A
 * directory removed meanwhile is skipped.  Stops at @fn's first non-zero
 * return and returns it; else 0 or -errno.
 */
int cgroup__walk(const char *mnt, const char *under,
		 int (*fn)(const char *path, const char *name, void *arg), void *arg);

/* Where a controller is, as /proc/cgroups says */
enum cgroup_controller {
	CGROUP_CONTROLLER_UNKNOWN,	/* no /proc/cgroups, or not listed in it */
	CGROUP_CONTROLLER_V2,		/* on cgroup2 (hierarchy 0), enabled */
	CGROUP_CONTROLLER_V1,		/* bound to a cgroup v1 hierarchy */
	CGROUP_CONTROLLER_DISABLED,	/* cgroup_disable= on the command line */
};

/* The state of controller @name in @proc_cgroups (NULL: /proc/cgroups) */
enum cgroup_controller cgroup__controller(const char *proc_cgroups, const char *name);

/* A list of cgroup names, as perf expands --for-each-cgroup. */
struct cgroup_names {
	int nr;
	char **names;
};

int cgroup_names__expand(const char *mnt, const char *str, struct cgroup_names *names,
			 char *errbuf, size_t errlen);
/*
 * As cgroup_names__expand(), but a pattern that matches nothing is no
 * error: what a followed list matches now, which may be nothing.
 */
int cgroup_names__match(const char *mnt, const char *str, struct cgroup_names *names,
			char *errbuf, size_t errlen);
void cgroup_names__exit(struct cgroup_names *names);
int cgroup__has_pattern(const char *str);

/*
 * The comma separated items of a --for-each-cgroup list with a pattern,
 * each compiled as perf compiles it (a POSIX basic regex, unanchored),
 * matched against names relative to the mount ("" for the root).
 */
struct cgroup_pattern {
	int nr;
	char **items;
	regex_t *res;
};

/* 0, -EINVAL with @errbuf naming the item that does not compile, -ENOMEM */
int cgroup_pattern__init(struct cgroup_pattern *pat, const char *str, char *errbuf,
			 size_t errlen);
void cgroup_pattern__exit(struct cgroup_pattern *pat);
/* Does item @i, or any item, match @name? */
int cgroup_pattern__match_item(const struct cgroup_pattern *pat, int i, const char *name);
int cgroup_pattern__match(const struct cgroup_pattern *pat, const char *name);

#endif /* __PERFX_CGROUP_H */
