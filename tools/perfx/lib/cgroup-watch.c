// SPDX-License-Identifier: GPL-2.0
/*
 * cgroupfs reports mkdir and rmdir to inotify as any file system does:
 * IN_CREATE or IN_DELETE with IN_ISDIR, on the parent directory's watch
 * (cgroup2 has no rename: EPERM).
 * A read that saw a directory made walks the whole tree again to watch
 * it, and whatever was made in it before its watch was in place (adding
 * a watch that exists does nothing): no table of watches to keep, for a
 * walk that costs what the caller's own expansion of its pattern, which
 * walks the tree too, costs at each change.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdalign.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "cgroup.h"
#include "cgroup-watch.h"
#include "util.h"

#define CGROUP_WATCH_MASK	(IN_CREATE | IN_DELETE | IN_ONLYDIR | IN_DONT_FOLLOW)
#define CGROUP_WATCH_BUF	16384

struct cgroup_watch {
	int fd;
	char *mnt;
};

static int cgroup_watch__add(const char *path, const char *name __maybe_unused,
			     void *arg)
{
	struct cgroup_watch *w = arg;

	if (inotify_add_watch(w->fd, path, CGROUP_WATCH_MASK) >= 0)
		return 0;
	/* removed since it was listed: its parent's watch said so */
	return errno == ENOENT ? 0 : -errno;
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
	err = cgroup__walk(mnt, cgroup_watch__add, w);
	if (err)
		goto out_close;
	*wp = w;
	return 0;

out_close:
	close(w->fd);
out_free:
	free(w->mnt);
	free(w);
	return err;
}

void cgroup_watch__delete(struct cgroup_watch *w)
{
	if (!w)
		return;
	close(w->fd);
	free(w->mnt);
	free(w);
}

int cgroup_watch__fd(const struct cgroup_watch *w)
{
	return w->fd;
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

/* What the events of one read say: a directory made, removed, events lost */
static int cgroup_watch__scan(const char *buf, size_t len, bool *changed, bool *rewalk)
{
	struct cgroup_watch_event ev;
	size_t pos = 0;
	int ret;

	while ((ret = cgroup_watch__next_event(buf, len, &pos, &ev)) > 0) {
		if (ev.mask & (IN_Q_OVERFLOW | IN_UNMOUNT)) {
			*changed = *rewalk = true;
		} else if (ev.mask & IN_ISDIR) {
			if (ev.mask & IN_CREATE)
				*changed = *rewalk = true;
			else if (ev.mask & IN_DELETE)
				*changed = true;
		}
	}
	return ret;
}

int cgroup_watch__read(struct cgroup_watch *w)
{
	alignas(struct inotify_event) char buf[CGROUP_WATCH_BUF];
	bool changed = false, rewalk = false;
	ssize_t n;
	int err;

	for (;;) {
		n = read(w->fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0)
			return -errno;
		if (!n)
			break;
		err = cgroup_watch__scan(buf, n, &changed, &rewalk);
		if (err)
			return err;
	}
	if (rewalk) {
		err = cgroup__walk(w->mnt, cgroup_watch__add, w);
		if (err)
			return err;
	}
	return changed;
}
