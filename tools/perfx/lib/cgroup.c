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
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup.h"
#include "util.h"

#define CGROUP_PATTERN_CHARS	"{}[]()|*+?^$"

/*
 * The next space separated field of a mountinfo line, unescaped in place
 * (the kernel writes ' ', '\t', '\n' and '\\' as \ and three octal
 * digits); NULL at the end of the line.
 */
static char *mountinfo_field(char **sp)
{
	char *s = *sp, *field, *out;

	s += strspn(s, " ");
	if (!*s || *s == '\n')
		return NULL;
	field = out = s;
	while (*s && *s != ' ' && *s != '\n') {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 4;
			continue;
		}
		*out++ = *s++;
	}
	if (*s)
		s++;
	*out = '\0';
	*sp = s;
	return field;
}

/*
 * The first cgroup2 mount point in @mountinfo (NULL: /proc/self/mountinfo).
 * A line is "id parent maj:min root mountpoint opts [optional...] - fstype
 * source superopts"; lines not spelled so (fields missing, no " - ", a
 * mount point not absolute) are skipped.  -ENOENT when there is none,
 * -ENAMETOOLONG when it does not fit @size.
 */
int cgroup__find_mnt(const char *mountinfo, char *buf, size_t size)
{
	char *line = NULL;
	size_t cap = 0;
	int err = -ENOENT;
	FILE *f;

	f = fopen(mountinfo ? mountinfo : "/proc/self/mountinfo", "r");
	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *s = line, *field[6], *sep, *fstype;
		int i;

		for (i = 0; i < 6; i++) {
			field[i] = mountinfo_field(&s);
			if (!field[i] || !strcmp(field[i], "-"))
				break;
		}
		if (i < 6 || field[4][0] != '/')
			continue;
		/* optional fields up to the lone "-" */
		while ((sep = mountinfo_field(&s)) && strcmp(sep, "-"))
			;
		fstype = sep ? mountinfo_field(&s) : NULL;
		if (!fstype || strcmp(fstype, "cgroup2"))
			continue;
		if (strlen(field[4]) >= size) {
			err = -ENAMETOOLONG;
			break;
		}
		memcpy(buf, field[4], strlen(field[4]) + 1);
		err = 0;
		break;
	}
	free(line);
	fclose(f);
	return err;
}

/* The id of @path at @dirfd (with AT_EMPTY_PATH: of @dirfd itself) */
static int cgroup__id_at(int dirfd, const char *path, int flags, __u64 *id)
{
	struct {
		struct file_handle fh;
		__u64 id;
	} h;
	int mount_id;

	h.fh.handle_bytes = sizeof(h.id);
	if (name_to_handle_at(dirfd, path, &h.fh, &mount_id, flags) < 0)
		return -errno;
	if (h.fh.handle_bytes != sizeof(__u64))
		return -EINVAL;
	memcpy(id, h.fh.f_handle, sizeof(*id));
	return 0;
}

int cgroup__path_id(const char *path, __u64 *id)
{
	return cgroup__id_at(AT_FDCWD, path, 0, id);
}

/* Does @name leave the mount ("..", "A/../..") or is it not a path (a newline)? */
int cgroup__bad_name(const char *name)
{
	const char *s = name;

	if (strchr(name, '\n'))
		return 1;
	while (*s) {
		size_t len = strcspn(s, "/");

		if (len == 2 && !strncmp(s, "..", 2))
			return 1;
		s += len;
		s += strspn(s, "/");
	}
	return 0;
}

int cgroup__new(const char *mnt, const char *name, struct cgroup **cgrpp)
{
	struct cgroup *cgrp;
	struct stat st;
	int err = -ENOMEM;

	if (cgroup__bad_name(name))
		return -EINVAL;
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
	if (stat(cgrp->path, &st)) {
		err = -errno;
		goto out_free;
	}
	if (!S_ISDIR(st.st_mode)) {
		err = -ENOTDIR;
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

int cgroup__fd(struct cgroup *cgrp)
{
	__u64 id = 0;
	int fd, err;

	if (cgrp->fd >= 0)
		return cgrp->fd;
	fd = open(cgrp->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* made again under its name since it was looked up: another cgroup */
	err = cgroup__id_at(fd, "", AT_EMPTY_PATH, &id);
	if (!err && id != cgrp->id)
		err = -ENOENT;
	if (err) {
		close(fd);
		return err;
	}
	cgrp->fd = fd;
	return fd;
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

void cgroup__close(struct cgroup *cgrp)
{
	if (cgrp->fd >= 0)
		close(cgrp->fd);
	cgrp->fd = -1;
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

/*
 * /proc/cgroups: "name hierarchy num_cgroups enabled" a line, after a
 * "#subsys_name ..." header; a controller on cgroup2, or bound to none,
 * has hierarchy 0.
 */
enum cgroup_controller cgroup__controller(const char *proc_cgroups, const char *name)
{
	enum cgroup_controller ret = CGROUP_CONTROLLER_UNKNOWN;
	char *line = NULL, sub[64];
	unsigned int hier, nr, enabled;
	size_t len = 0;
	FILE *f;

	f = fopen(proc_cgroups ? proc_cgroups : "/proc/cgroups", "re");
	if (!f)
		return ret;
	while (getline(&line, &len, f) > 0) {
		if (sscanf(line, "%63s %u %u %u", sub, &hier, &nr, &enabled) != 4 ||
		    strcmp(sub, name))
			continue;
		if (!enabled)
			ret = CGROUP_CONTROLLER_DISABLED;
		else
			ret = hier ? CGROUP_CONTROLLER_V1 : CGROUP_CONTROLLER_V2;
		break;
	}
	free(line);
	fclose(f);
	return ret;
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

static int cgroup_walk(const char *dir, size_t root_len,
		       int (*fn)(const char *path, const char *name, void *arg), void *arg)
{
	struct dirent *d;
	int err = 0;
	DIR *dp;

	err = fn(dir, dir[root_len] == '/' ? dir + root_len + 1 : dir + root_len, arg);
	if (err)
		return err;
	dp = opendir(dir);
	/* a cgroup removed while the tree is walked is not an error */
	if (!dp)
		return errno == ENOENT && dir[root_len] ? 0 : -errno;
	while (!err && (d = readdir(dp))) {
		char *path;

		if (d->d_type != DT_DIR || !strcmp(d->d_name, ".") ||
		    !strcmp(d->d_name, ".."))
			continue;
		/* on the heap: a deep tree must not need PATH_MAX of stack a level */
		if (asprintf(&path, "%s/%s", dir, d->d_name) < 0) {
			err = -ENOMEM;
			break;
		}
		if (strlen(path) >= PATH_MAX)
			err = -ENAMETOOLONG;
		else
			err = cgroup_walk(path, root_len, fn, arg);
		free(path);
	}
	closedir(dp);
	return err;
}

int cgroup__walk(const char *mnt, const char *under,
		 int (*fn)(const char *path, const char *name, void *arg), void *arg)
{
	char *dir;
	int err;

	if (!under || !*under)
		return cgroup_walk(mnt, strlen(mnt), fn, arg);
	if (asprintf(&dir, "%s/%s", mnt, under) < 0)
		return -ENOMEM;
	err = cgroup_walk(dir, strlen(mnt), fn, arg);
	free(dir);
	return err;
}

static int cgroup_names__collect(const char *path __maybe_unused, const char *name, void *arg)
{
	return cgroup_names__add(arg, name, strlen(name));
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

void cgroup_pattern__exit(struct cgroup_pattern *pat)
{
	while (pat->nr--) {
		regfree(&pat->res[pat->nr]);
		free(pat->items[pat->nr]);
	}
	free(pat->res);
	free(pat->items);
	memset(pat, 0, sizeof(*pat));
}

int cgroup_pattern__init(struct cgroup_pattern *pat, const char *str, char *errbuf,
			 size_t errlen)
{
	const char *s = str, *e;
	int err = 0;

	memset(pat, 0, sizeof(*pat));
	for (; !err; s = e + 1) {
		regex_t *res = realloc(pat->res, (pat->nr + 1) * sizeof(*res));
		char **items = realloc(pat->items, (pat->nr + 1) * sizeof(*items));

		if (res)
			pat->res = res;
		if (items)
			pat->items = items;
		e = strchrnul(s, ',');
		if (!res || !items || !(items[pat->nr] = strndup(s, e - s))) {
			err = -ENOMEM;
			break;
		}
		if (regcomp(&res[pat->nr], items[pat->nr], REG_NOSUB)) {
			snprintf(errbuf, errlen, "invalid cgroup pattern '%s'", items[pat->nr]);
			free(items[pat->nr]);
			err = -EINVAL;
			break;
		}
		pat->nr++;
		if (!*e)
			break;
	}
	if (err)
		cgroup_pattern__exit(pat);
	return err;
}

int cgroup_pattern__match_item(const struct cgroup_pattern *pat, int i, const char *name)
{
	return !regexec(&pat->res[i], name, 0, NULL, 0);
}

int cgroup_pattern__match(const struct cgroup_pattern *pat, const char *name)
{
	int i;

	for (i = 0; i < pat->nr; i++)
		if (cgroup_pattern__match_item(pat, i, name))
			return 1;
	return 0;
}

/* @each: an item that matches nothing is an error (-ENOENT) */
static int cgroup_names__expand_items(const char *mnt, const char *str,
				      struct cgroup_names *names, bool each,
				      char *errbuf, size_t errlen)
{
	struct cgroup_names all = { 0, NULL };
	struct cgroup_pattern pat;
	const char *s = str, *e;
	char *used = NULL;
	int err = 0, i, j;

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

	err = cgroup_pattern__init(&pat, str, errbuf, errlen);
	if (err)
		goto out;
	err = cgroup__walk(mnt, NULL, cgroup_names__collect, &all);
	if (err) {
		snprintf(errbuf, errlen, "cannot walk the cgroup tree under %s", mnt);
		goto out_pattern;
	}
	used = calloc(all.nr ? all.nr : 1, 1);
	if (!used) {
		err = -ENOMEM;
		goto out_pattern;
	}
	for (j = 0; j < pat.nr; j++) {
		int matched = 0;

		for (i = 0; i < all.nr; i++) {
			if (cgroup_pattern__match_item(&pat, j, all.names[i])) {
				used[i] = 1;
				matched = 1;
			}
		}
		if (!matched && each) {
			snprintf(errbuf, errlen, "no cgroup matched: %s", pat.items[j]);
			err = -ENOENT;
			break;
		}
	}
	for (i = 0; !err && i < all.nr; i++)
		if (used[i])
			err = cgroup_names__add(names, all.names[i], strlen(all.names[i]));
out_pattern:
	cgroup_pattern__exit(&pat);
out:
	free(used);
	cgroup_names__exit(&all);
	if (err)
		cgroup_names__exit(names);
	return err;
}

int cgroup_names__expand(const char *mnt, const char *str, struct cgroup_names *names,
			 char *errbuf, size_t errlen)
{
	return cgroup_names__expand_items(mnt, str, names, true, errbuf, errlen);
}

int cgroup_names__match(const char *mnt, const char *str, struct cgroup_names *names,
			char *errbuf, size_t errlen)
{
	return cgroup_names__expand_items(mnt, str, names, false, errbuf, errlen);
}
