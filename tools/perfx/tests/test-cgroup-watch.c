// SPDX-License-Identifier: GPL-2.0
/*
 * Proves cgroup_watch on a directory tree of the test's own (inotify
 * reports mkdir and rmdir the same way on any file system, cgroupfs
 * included): nothing pending reads 0; a directory made or removed at any
 * depth reads 1, once, and is named in order; a directory made inside a
 * new one before the watcher saw either is reported and watched after one
 * read; the removed directories leave the table of watches; files are not
 * cgroups; the fd polls readable only when something is pending; more
 * mkdirs than the kernel queues read as lost, with every directory
 * watched after.  On the cgroup2 mount, as root, a cgroup made and removed
 * are reported by name.  And the event
 * parser on hand-made buffers: events in order, names, the end, and
 * -EPROTO for a cut header, a name past the end and a name with no NUL.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cgroup.h"
#include "lib/cgroup-watch.h"
#include "lib/util.h"
#include "tests/dir-tree.h"
#include "tests/tap.h"

static char root[128];

static int readable(const struct cgroup_watch *w)
{
	struct pollfd p = { .fd = cgroup_watch__fd(w), .events = POLLIN };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/* the watches the kernel holds for @w, as /proc/self/fdinfo lists them */
static int kernel_watches(const struct cgroup_watch *w)
{
	char path[64], line[512];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", cgroup_watch__fd(w));
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += !strncmp(line, "inotify wd:", 11);
	fclose(f);
	return n;
}

/* the changes of one read as "+made,-removed" in order, "lost" if lost */
static const char *changes_str(const struct cgroup_watch_changes *ch)
{
	static char buf[512];
	size_t len = 0;
	int i;

	buf[0] = '\0';
	if (ch->lost)
		len += snprintf(buf, sizeof(buf), "lost");
	for (i = 0; i < ch->nr && len < sizeof(buf); i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%c%s", len ? "," : "",
				ch->changes[i].made ? '+' : '-', ch->changes[i].name);
	return buf;
}

/* @what changes the tree: one read reports @want, the next nothing */
static void expect(struct cgroup_watch *w, const char *want, const char *what)
{
	struct cgroup_watch_changes ch, again;
	int first = cgroup_watch__read(w, &ch);
	int second = cgroup_watch__read(w, &again);

	tap_ok(first == (*want != '\0') && second == 0 && !again.nr && !readable(w),
	       "%s: read %d then %d (want %d, 0)", what, first, second, *want != '\0');
	tap_str_eq(changes_str(&ch), want, what);
	cgroup_watch_changes__exit(&ch);
	cgroup_watch_changes__exit(&again);
}

/* changes to the tree after C was made, each read as one */
static const struct watch_step {
	bool remove;
	const char *dirs[2];
	const char *want;
	const char *what;
} steps[] = {
	{ false, { "A/a1/deep" }, "+A/a1/deep",
	  "mkdir two levels down, in a directory watched from the start" },
	{ false, { "C/c1" }, "+C/c1", "mkdir in C, watched since its mkdir was read" },
	/* D and D/d1 made before the watcher read D's mkdir */
	{ false, { "D", "D/d1" }, "+D,+D/d1", "mkdir D and D/d1 in a row" },
	{ false, { "D/d1/d2" }, "+D/d1/d2", "mkdir in D/d1, made before D's watch existed" },
	{ true, { "D/d1/d2" }, "-D/d1/d2", "rmdir D/d1/d2" },
	{ true, { "D/d1", "D" }, "-D/d1,-D", "rmdir D/d1 and D in a row" },
	{ true, { "C/c1", "C" }, "-C/c1,-C", "rmdir C/c1 and C" },
};

static void test_tree(void)
{
	struct cgroup_watch *w;
	struct cgroup_watch_changes ch;
	char file[256];
	size_t i;
	FILE *f;
	int err;

	tree__mkdir(root, "A");
	tree__mkdir(root, "A/a1");
	tree__mkdir(root, "B");
	err = cgroup_watch__new(root, &w);
	if (!tap_ok(!err, "watch a tree of 3 directories (%d)", err))
		return;
	tap_ok(cgroup_watch__nr_watched(w) == 4, "4 directories watched, the root's included (%d)",
	       cgroup_watch__nr_watched(w));
	tap_ok(!readable(w) && cgroup_watch__read(w, &ch) == 0 && !ch.nr && !ch.lost,
	       "nothing made yet: not readable, read 0, no change");
	cgroup_watch_changes__exit(&ch);

	tree__mkdir(root, "C");
	tap_ok(readable(w), "a mkdir at the top makes the fd readable");
	expect(w, "+C", "mkdir C");
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		const struct watch_step *st = &steps[i];
		int j;

		for (j = 0; j < 2 && st->dirs[j]; j++)
			(st->remove ? tree__rmdir : tree__mkdir)(root, st->dirs[j]);
		expect(w, st->want, st->what);
	}
	/* root, A, A/a1, A/a1/deep, B: C and D's watches went with them */
	tap_ok(cgroup_watch__nr_watched(w) == 5 && kernel_watches(w) == 5,
	       "after the rmdirs, 5 directories watched: none of the removed ones (%d, %d in the kernel)",
	       cgroup_watch__nr_watched(w), kernel_watches(w));

	snprintf(file, sizeof(file), "%s/A/not-a-cgroup", root);
	f = fopen(file, "w");
	if (f)
		fclose(f);
	unlink(file);
	expect(w, "", "a file made and removed");
	cgroup_watch__delete(w);
	tree__rmdir(root, "A/a1/deep");
	tree__rmdir(root, "A/a1");
	tree__rmdir(root, "A");
	tree__rmdir(root, "B");
}

/*
 * More directories made than the kernel queues events for: the read says
 * the events were lost, and the table is the tree's, the new ones watched.
 */
static void test_overflow(void)
{
	const char *what = "events lost to a full queue";
	struct cgroup_watch_changes ch;
	struct cgroup_watch *w;
	unsigned int max = 0;
	char name[32];
	int i, n, ret;
	FILE *f;

	f = fopen("/proc/sys/fs/inotify/max_queued_events", "r");
	if (f) {
		if (fscanf(f, "%u", &max) != 1)
			max = 0;
		fclose(f);
	}
	if (!max || max > 65536) {
		tap_skip(what, "max_queued_events is not known or above 65536");
		return;
	}
	if (!tap_ok(!tree__mkdir(root, "many") && !cgroup_watch__new(root, &w),
		    "%s: watch a tree", what))
		return;
	n = max + 16;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "many/d%d", i);
		if (tree__mkdir(root, name))
			break;
	}
	ret = cgroup_watch__read(w, &ch);
	tap_ok(i == n && ret == 1 && ch.lost, "%s: %d directories made, read %d, lost %d", what,
	       i, ret, ch.lost);
	tap_ok(cgroup_watch__nr_watched(w) == n + 2,
	       "%s: every directory of the tree watched after it (%d of %d)", what,
	       cgroup_watch__nr_watched(w), n + 2);
	cgroup_watch_changes__exit(&ch);
	while (i--) {
		snprintf(name, sizeof(name), "many/d%d", i);
		tree__rmdir(root, name);
	}
	tree__rmdir(root, "many");
	cgroup_watch__delete(w);
}

/* cgroupfs (kernfs) sends the same events as the test's own tree */
static void test_cgroupfs(void)
{
	const char *what = "cgroupfs: a cgroup made and removed is reported by name";
	struct cgroup_watch_changes made, removed = { 0 };
	struct cgroup_watch *w;
	char mnt[4096], path[4200], want[64];
	int ret, watched;

	if (geteuid() || cgroup__find_mnt("/proc/self/mountinfo", mnt, sizeof(mnt))) {
		tap_skip(what, "needs root and a cgroup2 mount");
		return;
	}
	snprintf(want, sizeof(want), "perfx-test-watch-%d", getpid());
	snprintf(path, sizeof(path), "%s/%s", mnt, want);
	if (cgroup_watch__new(mnt, &w)) {
		tap_ok(0, "%s: cannot watch %s", what, mnt);
		return;
	}
	watched = cgroup_watch__nr_watched(w);
	if (mkdir(path, 0755)) {
		tap_skip(what, "cannot make a cgroup");
		cgroup_watch__delete(w);
		return;
	}
	ret = cgroup_watch__read(w, &made);
	ret += rmdir(path) ? -100 : cgroup_watch__read(w, &removed);
	tap_ok(ret == 2 && made.nr == 1 && made.changes[0].made &&
	       !strcmp(made.changes[0].name, want) && removed.nr == 1 &&
	       !removed.changes[0].made && !strcmp(removed.changes[0].name, want),
	       "%s (%d)", what, ret);
	tap_ok(cgroup_watch__nr_watched(w) == watched && kernel_watches(w) == watched,
	       "cgroupfs: the removed cgroup's watch is removed at once, kernfs keeping its inode (%d in the table, %d in the kernel, %d before)",
	       cgroup_watch__nr_watched(w), kernel_watches(w), watched);
	cgroup_watch_changes__exit(&made);
	cgroup_watch_changes__exit(&removed);
	cgroup_watch__delete(w);
}

/* an event as the kernel lays it out, with @len bytes of name */
static size_t put_event(char *buf, int wd, unsigned int mask, const char *name, __u32 len)
{
	struct inotify_event ie = { .wd = wd, .mask = mask, .len = len };

	memcpy(buf, &ie, sizeof(ie));
	memset(buf + sizeof(ie), 0, len);
	if (name)
		memcpy(buf + sizeof(ie), name, strlen(name));
	return sizeof(ie) + len;
}

static void test_parser(void)
{
	char buf[256];
	struct cgroup_watch_event ev;
	size_t len, pos = 0;
	int r1, r2, r3;

	len = put_event(buf, 3, IN_CREATE | IN_ISDIR, "web-1", 16);
	len += put_event(buf + len, 7, IN_IGNORED, NULL, 0);
	r1 = cgroup_watch__next_event(buf, len, &pos, &ev);
	tap_ok(r1 == 1 && ev.wd == 3 && ev.mask == (IN_CREATE | IN_ISDIR) &&
	       !strcmp(ev.name, "web-1"), "first event: wd 3, IN_CREATE|IN_ISDIR, web-1");
	r2 = cgroup_watch__next_event(buf, len, &pos, &ev);
	tap_ok(r2 == 1 && ev.wd == 7 && ev.mask == IN_IGNORED && !strcmp(ev.name, ""),
	       "second event: wd 7, IN_IGNORED, no name");
	r3 = cgroup_watch__next_event(buf, len, &pos, &ev);
	tap_ok(r3 == 0 && pos == len, "then the end (%d)", r3);

	pos = 0;
	tap_ok(cgroup_watch__next_event(buf, sizeof(struct inotify_event) - 1, &pos, &ev) ==
	       -EPROTO, "a cut header: -EPROTO");
	pos = 0;
	tap_ok(cgroup_watch__next_event(buf, sizeof(struct inotify_event) + 15, &pos, &ev) ==
	       -EPROTO, "a name running past the end: -EPROTO");
	len = put_event(buf, 1, IN_DELETE | IN_ISDIR, "0123456789abcdef", 16);
	pos = 0;
	tap_ok(cgroup_watch__next_event(buf, len, &pos, &ev) == -EPROTO,
	       "a name with no NUL in its length: -EPROTO");
	{
		struct inotify_event ie = { .wd = 1, .mask = IN_DELETE, .len = 0xffffffffu };

		memcpy(buf, &ie, sizeof(ie));
	}
	pos = 0;
	tap_ok(cgroup_watch__next_event(buf, sizeof(buf), &pos, &ev) == -EPROTO,
	       "a length of 4 GiB: -EPROTO");
}

int main(void)
{
	tap_start("cgroup-watch");
	if (!tap_ok(!tap_tmpdir(root, sizeof(root)), "a directory of its own"))
		return tap_done();
	test_tree();
	test_overflow();
	test_cgroupfs();
	test_parser();
	tap_rmdir(root);
	return tap_done();
}
