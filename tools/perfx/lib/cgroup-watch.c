// SPDX-License-Identifier: GPL-2.0
/*
 * cgroupfs reports mkdir and rmdir to inotify as any file system does:
 * IN_CREATE or IN_DELETE with IN_ISDIR, on the parent directory's watch
 * (cgroup2 has no rename: EPERM).  A table of the watches, sorted by wd,
 * names the parent of each event, so that a change costs a lookup and,
 * for a mkdir, a walk of the new directory alone (what was made in it
 * before its watch was in place).  A removed directory's watch is removed
 * at its parent's IN_DELETE: kernfs keeps a removed cgroup's inode, and
 * the watch on it, until the inode is evicted, which may be never on a
 * host with memory to spare, so that waiting for IN_IGNORED would leave
 * the table, and the user's inotify watches, growing with the churn.
 * Only lost events (IN_Q_OVERFLOW, or a read that failed half way) walk
 * the whole tree again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "cgroup.h"
#include "cgroup-watch.h"
#include "util.h"

#define CGROUP_WATCH_MASK	(IN_CREATE | IN_DELETE | IN_ONLYDIR | IN_DONT_FOLLOW)
#define CGROUP_WATCH_BUF	16384

/* A watched directory, named relative to the mount ("" for the mount) */
struct cgroup_watch_dir {
	int wd;
	char *name;
};

struct cgroup_watch {
	int fd;
	char *mnt;
	/* sorted by wd */
	int nr, cap;
	struct cgroup_watch_dir *dirs;
	/* where a walk of new directories reports them; NULL at a full walk */
	struct cgroup_watch_changes *report;
	/* a read failed: the next one reports events lost */
	bool lost;
};

/* The index of @wd in the table, or where it would go (as a negative -i - 1) */
static int cgroup_watch__find(const struct cgroup_watch *w, int wd)
{
	int lo = 0, hi = w->nr;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (w->dirs[mid].wd == wd)
			return mid;
		if (w->dirs[mid].wd < wd)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -lo - 1;
}

static int cgroup_watch__insert(struct cgroup_watch *w, int wd, const char *name)
{
	int i = cgroup_watch__find(w, wd);
	char *copy;

	/* watched already: adding a watch that exists returns its wd */
	if (i >= 0)
		return 1;
	i = -i - 1;
	if (w->nr == w->cap) {
		int cap = w->cap ? 2 * w->cap : 64;
		struct cgroup_watch_dir *dirs = realloc(w->dirs, cap * sizeof(*dirs));

		if (!dirs)
			return -ENOMEM;
		w->dirs = dirs;
		w->cap = cap;
	}
	copy = strdup(name);
	if (!copy)
		return -ENOMEM;
	memmove(&w->dirs[i + 1], &w->dirs[i], (w->nr - i) * sizeof(*w->dirs));
	w->dirs[i].wd = wd;
	w->dirs[i].name = copy;
	w->nr++;
	return 0;
}

/* Entry @i out of the table */
static void cgroup_watch__forget(struct cgroup_watch *w, int i)
{
	free(w->dirs[i].name);
	memmove(&w->dirs[i], &w->dirs[i + 1], (w->nr - i - 1) * sizeof(*w->dirs));
	w->nr--;
}

/*
 * The directory @name is gone: its watch too, if it has one still.  A
 * scan of the names, where a change is otherwise a lookup: an rmdir is
 * rarer than the syscalls a table by name would save.
 */
static void cgroup_watch__unwatch(struct cgroup_watch *w, const char *name)
{
	int i;

	for (i = 0; i < w->nr; i++) {
		if (!strcmp(w->dirs[i].name, name)) {
			inotify_rm_watch(w->fd, w->dirs[i].wd);
			cgroup_watch__forget(w, i);
			return;
		}
	}
}

static int cgroup_watch__report(struct cgroup_watch_changes *changes, char *name, bool made)
{
	struct cgroup_watch_change *c;

	c = realloc(changes->changes, (changes->nr + 1) * sizeof(*c));
	if (!c) {
		free(name);
		return -ENOMEM;
	}
	changes->changes = c;
	c[changes->nr].name = name;
	c[changes->nr].made = made;
	changes->nr++;
	return 0;
}

/* cgroup__walk()'s callback: watch a directory, report it if it is new */
static int cgroup_watch__add(const char *path, const char *name, void *arg)
{
	struct cgroup_watch *w = arg;
	char *copy;
	int wd, err;

	wd = inotify_add_watch(w->fd, path, CGROUP_WATCH_MASK);
	if (wd < 0)
		/* removed since it was listed: its parent's watch says so */
		return errno == ENOENT ? 0 : -errno;
	err = cgroup_watch__insert(w, wd, name);
	/* watched already: the same directory, reported when it was */
	if (err || !w->report)
		return err < 0 ? err : 0;
	copy = strdup(name);
	return copy ? cgroup_watch__report(w->report, copy, true) : -ENOMEM;
}

static void cgroup_watch__clear(struct cgroup_watch *w)
{
	while (w->nr)
		free(w->dirs[--w->nr].name);
	free(w->dirs);
	w->dirs = NULL;
	w->cap = 0;
}

int cgroup_watch__new(const char *mnt, struct cgroup_watch **wp)
{
	struct cgroup_watch *w;
	int err;

	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->mnt = strdup(mnt);
	if (!w->mnt) {
		err = -ENOMEM;
		goto out_free;
	}
	w->fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (w->fd < 0) {
		err = -errno;
		goto out_free;
	}
	err = cgroup__walk(mnt, NULL, cgroup_watch__add, w);
	if (err)
		goto out_close;
	*wp = w;
	return 0;

out_close:
	close(w->fd);
out_free:
	cgroup_watch__clear(w);
	free(w->mnt);
	free(w);
	return err;
}

void cgroup_watch__delete(struct cgroup_watch *w)
{
	if (!w)
		return;
	close(w->fd);
	cgroup_watch__clear(w);
	free(w->mnt);
	free(w);
}

int cgroup_watch__fd(const struct cgroup_watch *w)
{
	return w->fd;
}

int cgroup_watch__nr_watched(const struct cgroup_watch *w)
{
	return w->nr;
}

void cgroup_watch_changes__exit(struct cgroup_watch_changes *changes)
{
	while (changes->nr--)
		free(changes->changes[changes->nr].name);
	free(changes->changes);
	memset(changes, 0, sizeof(*changes));
}

int cgroup_watch__next_event(const char *buf, size_t len, size_t *pos,
			     struct cgroup_watch_event *ev)
{
	struct inotify_event ie;
	size_t left;

	if (*pos >= len)
		return 0;
	left = len - *pos;
	if (left < sizeof(ie))
		return -EPROTO;
	memcpy(&ie, buf + *pos, sizeof(ie));
	if (ie.len > left - sizeof(ie))
		return -EPROTO;
	if (ie.len && !memchr(buf + *pos + sizeof(ie), '\0', ie.len))
		return -EPROTO;
	ev->wd = ie.wd;
	ev->mask = ie.mask;
	ev->name = ie.len ? buf + *pos + sizeof(ie) : "";
	*pos += sizeof(ie) + ie.len;
	return 1;
}

/* A directory made or removed in the one @ev's watch is on */
static int cgroup_watch__dir_event(struct cgroup_watch *w, const struct cgroup_watch_event *ev,
				   struct cgroup_watch_changes *changes)
{
	int i = cgroup_watch__find(w, ev->wd);
	const char *parent;
	char *name;
	int err;

	/* a watch this table does not know: what changed is not known */
	if (i < 0 || !*ev->name) {
		changes->lost = true;
		return 0;
	}
	parent = w->dirs[i].name;
	if (asprintf(&name, "%s%s%s", parent, *parent ? "/" : "", ev->name) < 0)
		return -ENOMEM;
	if (!(ev->mask & IN_CREATE)) {
		cgroup_watch__unwatch(w, name);
		return cgroup_watch__report(changes, name, false);
	}
	/* the new directory and what was made in it before its watch */
	w->report = changes;
	err = cgroup__walk(w->mnt, name, cgroup_watch__add, w);
	w->report = NULL;
	free(name);
	return err;
}

/* The events of one read, in order */
static int cgroup_watch__scan(struct cgroup_watch *w, const char *buf, size_t len,
			      struct cgroup_watch_changes *changes)
{
	struct cgroup_watch_event ev;
	size_t pos = 0;
	int ret, err = 0;

	while (!err && (ret = cgroup_watch__next_event(buf, len, &pos, &ev)) > 0) {
		/* once events are lost the tree is walked again: drain the rest */
		if (changes->lost)
			continue;
		if (ev.mask & (IN_Q_OVERFLOW | IN_UNMOUNT)) {
			changes->lost = true;
		} else if (ev.mask & IN_IGNORED) {
			int i = cgroup_watch__find(w, ev.wd);

			if (i >= 0)
				cgroup_watch__forget(w, i);
		} else if ((ev.mask & IN_ISDIR) && (ev.mask & (IN_CREATE | IN_DELETE))) {
			err = cgroup_watch__dir_event(w, &ev, changes);
		}
	}
	return err ? err : ret;
}

/*
 * Events were lost: the table made again from the tree as it is, which
 * watches what was made meanwhile (a directory still there keeps its
 * wd), and the watches of the directories removed meanwhile removed, as
 * their lost IN_DELETE would have.
 */
static int cgroup_watch__rewalk(struct cgroup_watch *w)
{
	struct cgroup_watch old = *w;
	int i, err;

	w->nr = w->cap = 0;
	w->dirs = NULL;
	err = cgroup__walk(w->mnt, NULL, cgroup_watch__add, w);
	for (i = 0; i < old.nr; i++) {
		if (!err && cgroup_watch__find(w, old.dirs[i].wd) < 0)
			inotify_rm_watch(w->fd, old.dirs[i].wd);
		free(old.dirs[i].name);
	}
	free(old.dirs);
	return err;
}

int cgroup_watch__read(struct cgroup_watch *w, struct cgroup_watch_changes *changes)
{
	alignas(struct inotify_event) char buf[CGROUP_WATCH_BUF];
	ssize_t n;
	int err = 0;

	memset(changes, 0, sizeof(*changes));
	/* the last read failed half way: what it did not report is not known */
	changes->lost = w->lost;
	while (!err) {
		n = read(w->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n <= 0) {
			err = n ? -errno : 0;
			break;
		}
		err = cgroup_watch__scan(w, buf, n, changes);
	}
	if (!err && changes->lost)
		err = cgroup_watch__rewalk(w);
	w->lost = err != 0;
	if (err)
		return err;
	return changes->lost || changes->nr;
}
