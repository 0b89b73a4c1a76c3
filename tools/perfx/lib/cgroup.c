// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup2 names to directory fds and ids, and the expansion of
 * --for-each-cgroup lists with perf's rules:
 *
 *  - a list without any of "{}[]()|*+?^$" is taken as is, in the given order;
 *  - otherwise every comma separated item is a POSIX basic regex (as perf compiles it) matched
 *    (unanchored) against every cgroup under the mount, named relative to it
 *    without a leading slash (the root is ""), and the matches are listed in
 *    the tree's walk order (directory order, parents before children);
 *    an item matching nothing is an error.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"

#define CGROUP_PATTERN_CHARS	"{}[]()|*+?^$"

int cgroup__find_mnt(const char *mountinfo, char *buf, size_t size)
{
	char line[PATH_MAX * 2];
	int err = -ENOENT;
	FILE *f;

	f = fopen(mountinfo ? mountinfo : "/proc/self/mountinfo", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char mnt[PATH_MAX], *sep;
		char fstype[64];

		/* id parent maj:min root mountpoint opts ... - fstype src sopts */
		if (sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1)
			continue;
		sep = strstr(line, " - ");
		if (!sep || sscanf(sep + 3, "%63s", fstype) != 1)
			continue;
		if (strcmp(fstype, "cgroup2"))
			continue;
		if (strlen(mnt) >= size) {
			err = -ENAMETOOLONG;
			break;
		}
		memcpy(buf, mnt, strlen(mnt) + 1);
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

int cgroup__path_id(const char *path, __u64 *id)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h;
	int mount_id;

	h.fh.handle_bytes = sizeof(h.id);
	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) < 0)
		return -errno;
	if (h.fh.handle_bytes != sizeof(__u64))
		return -EINVAL;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

int cgroup__new(const char *mnt, const char *name, struct cgroup **cgrpp)
{
	struct cgroup *cgrp;
	int err = -ENOMEM;

	cgrp = calloc(1, sizeof(*cgrp));
	if (!cgrp)
		return -ENOMEM;
	cgrp->refcnt = 1;
	cgrp->fd = -1;
	cgrp->name = strdup(name);
	if (!cgrp->name)
		goto out_free;
	if (asprintf(&cgrp->path, "%s%s%s", mnt,
		     name[0] == '/' || !name[0] ? "" : "/", name) < 0) {
		cgrp->path = NULL;
		goto out_free;
	}
	cgrp->fd = open(cgrp->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cgrp->fd < 0) {
		err = -errno;
		goto out_free;
	}
	err = cgroup__path_id(cgrp->path, &cgrp->id);
	if (err)
		goto out_free;
	*cgrpp = cgrp;
	return 0;

out_free:
	cgroup__put(cgrp);
	return err;
}

struct cgroup *cgroup__get(struct cgroup *cgrp)
{
	if (cgrp)
		cgrp->refcnt++;
	return cgrp;
}

void cgroup__put(struct cgroup *cgrp)
{
	if (!cgrp || --cgrp->refcnt)
		return;
	if (cgrp->fd >= 0)
		close(cgrp->fd);
	free(cgrp->path);
	free(cgrp->name);
	free(cgrp);
}

/* 0 while the directory still exists with the same id, -ENOENT once gone. */
int cgroup__check_alive(const struct cgroup *cgrp)
{
	__u64 id = 0;
	int err;

	err = cgroup__path_id(cgrp->path, &id);
	if (err)
		return err == -ENOENT ? -ENOENT : err;
	return id == cgrp->id ? 0 : -ENOENT;
}

int cgroup__has_pattern(const char *str)
{
	return strpbrk(str, CGROUP_PATTERN_CHARS) != NULL;
}

static int cgroup_names__add(struct cgroup_names *names, const char *name, size_t len)
{
	char **n = realloc(names->names, (names->nr + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	names->names = n;
	n[names->nr] = strndup(name, len);
	if (!n[names->nr])
		return -ENOMEM;
	names->nr++;
	return 0;
}

/* Pre-order walk in directory order, as nftw(3) does. */
static int cgroup_walk(const char *root, size_t root_len, const char *dir,
		       struct cgroup_names *all)
{
	struct dirent *d;
	int err = 0;
	DIR *dp;

	err = cgroup_names__add(all, dir[root_len] == '/' ? dir + root_len + 1 :
				dir + root_len, strlen(dir) - root_len);
	if (err)
		return err;
	dp = opendir(dir);
	if (!dp)
		return -errno;
	while (!err && (d = readdir(dp))) {
		char path[PATH_MAX];

		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") ||
		    !strcmp(d->d_name, ".."))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s", dir, d->d_name) >=
		    (int)sizeof(path)) {
			err = -ENAMETOOLONG;
			break;
		}
		err = cgroup_walk(root, root_len, path, all);
	}
	closedir(dp);
	return err;
}

void cgroup_names__exit(struct cgroup_names *names)
{
	int i;

	for (i = 0; i < names->nr; i++)
		free(names->names[i]);
	free(names->names);
	names->names = NULL;
	names->nr = 0;
}

int cgroup_names__expand(const char *mnt, const char *str, struct cgroup_names *names,
			 char *errbuf, size_t errlen)
{
	struct cgroup_names all = { 0, NULL };
	const char *s = str, *e;
	char *used = NULL;
	int err = 0, i;

	names->nr = 0;
	names->names = NULL;
	if (!str || !*str) {
		snprintf(errbuf, errlen, "empty cgroup list");
		return -EINVAL;
	}
	if (!cgroup__has_pattern(str)) {
		for (; !err; s = e + 1) {
			e = strchrnul(s, ',');
			if (e == s) {
				snprintf(errbuf, errlen, "empty cgroup name in '%s'", str);
				err = -EINVAL;
				break;
			}
			err = cgroup_names__add(names, s, e - s);
			if (!*e)
				break;
		}
		goto out;
	}

	err = cgroup_walk(mnt, strlen(mnt), mnt, &all);
	if (err) {
		snprintf(errbuf, errlen, "cannot walk the cgroup tree under %s", mnt);
		goto out;
	}
	used = calloc(all.nr ? all.nr : 1, 1);
	if (!used) {
		err = -ENOMEM;
		goto out;
	}
	for (; !err; s = e + 1) {
		regex_t re;
		char *pat;
		int matched = 0;

		e = strchrnul(s, ',');
		pat = strndup(s, e - s);
		if (!pat) {
			err = -ENOMEM;
			break;
		}
		if (regcomp(&re, pat, REG_NOSUB)) {
			snprintf(errbuf, errlen, "invalid cgroup pattern '%s'", pat);
			free(pat);
			err = -EINVAL;
			break;
		}
		for (i = 0; i < all.nr; i++) {
			if (!regexec(&re, all.names[i], 0, NULL, 0)) {
				used[i] = 1;
				matched = 1;
			}
		}
		regfree(&re);
		if (!matched) {
			snprintf(errbuf, errlen, "no cgroup matched: %s", pat);
			err = -ENOENT;
		}
		free(pat);
		if (!*e)
			break;
	}
	for (i = 0; !err && i < all.nr; i++)
		if (used[i])
			err = cgroup_names__add(names, all.names[i], strlen(all.names[i]));
out:
	free(used);
	cgroup_names__exit(&all);
	if (err)
		cgroup_names__exit(names);
	return err;
}
