// SPDX-License-Identifier: GPL-2.0
/*
 * Proves perf's --for-each-cgroup expansion rules on a fake tree: plain
 * names kept as given and in order; patterns (basic regex, unanchored)
 * matched against names relative to the mount, listed in walk order with
 * parents first; a pattern matching nothing is -ENOENT.  Also the cgroup2
 * mount lookup from a mountinfo file, and names to ids on a real cgroup2
 * mount when there is one.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cgroup.h"
#include "lib/util.h"
#include "tests/dir-tree.h"
#include "tests/tap.h"

static char root[128];

static void join(const struct cgroup_names *n, char *buf, size_t size)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < n->nr && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? "," : "", n->names[i]);
}

static void check(const char *str, const char *want)
{
	struct cgroup_names n;
	char buf[512], err[256] = "";
	int ret = cgroup_names__expand(root, str, &n, err, sizeof(err));

	if (!tap_ok(!ret, "'%s' expands (err %d %s)", str, ret, err))
		return;
	join(&n, buf, sizeof(buf));
	tap_str_eq(buf, want, str);
	cgroup_names__exit(&n);
}

static void check_err(const char *str, int want)
{
	struct cgroup_names n;
	char err[256] = "";
	int ret = cgroup_names__expand(root, str, &n, err, sizeof(err));

	tap_ok(ret == want && err[0] && !n.nr, "'%s' fails with %d (got %d: %s)", str, want,
	       ret, err);
}

/* The order readdir gives, which is the order perf lists matches in. */
static int before(const char *dir, const char *a, const char *b)
{
	struct dirent *d;
	int ia = -1, ib = -1, i = 0;
	DIR *dp = opendir(dir);

	while (dp && (d = readdir(dp))) {
		if (!strcmp(d->d_name, a))
			ia = i;
		if (!strcmp(d->d_name, b))
			ib = i;
		i++;
	}
	if (dp)
		closedir(dp);
	return ia < ib;
}

/* cgroup__find_mnt() on a mountinfo holding @text: its -errno and mount */
static void check_mnt(const char *text, size_t size, int want_err, const char *want,
		      const char *what)
{
	char mnt[4096] = "", path[160];
	int err;
	FILE *f;

	snprintf(path, sizeof(path), "%s/mountinfo", root);
	f = fopen(path, "w");
	if (!f) {
		tap_skip(what, "cannot write a mountinfo file");
		return;
	}
	fputs(text, f);
	fclose(f);
	err = cgroup__find_mnt(path, mnt, size);
	if (want_err)
		tap_ok(err == want_err, "mountinfo %s: %d (got %d, '%s')", what, want_err, err,
		       err ? "" : mnt);
	else
		tap_ok(!err && !strcmp(mnt, want), "mountinfo %s: '%s' (got %d, '%s')", what, want,
		       err, mnt);
	unlink(path);
}

#define CG2	"35 25 0:30 / /sys/fs/cgroup/unified rw,relatime shared:9 - cgroup2 cgroup2 rw\n"

static void test_mountinfo(void)
{
	char *big;
	size_t i;

	check_mnt("", 4096, -ENOENT, NULL, "empty");
	check_mnt(CG2, 4096, 0, "/sys/fs/cgroup/unified", "one cgroup2 line");
	check_mnt("35 25 0:30 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw", 4096, 0,
		  "/sys/fs/cgroup/unified", "without a trailing newline");
	check_mnt("35 25 0:30 / /a rw shared:1 master:2 propagate_from:3 - cgroup2 none rw\n",
		  4096, 0, "/a", "with three optional fields");
	check_mnt("35 25 0:30 / /my\\040cg\\134x\\011 rw - cgroup2 none rw\n", 4096, 0,
		  "/my cg\\x\t", "with \\040, \\134 and \\011 escapes");
	check_mnt("35 25 0:30 / /a\\9z\\04 rw - cgroup2 none rw\n", 4096, 0, "/a\\9z\\04",
		  "with backslashes that are no escapes");
	check_mnt("1 2 - cgroup2 cgroup2 rw\n" CG2, 4096, 0, "/sys/fs/cgroup/unified",
		  "after a line with fields missing");
	check_mnt("1 2 3 4 - cgroup2 x y\n" CG2, 4096, 0, "/sys/fs/cgroup/unified",
		  "after a line whose mount point is the separator");
	check_mnt("1 2 0:3 / relative rw - cgroup2 x rw\n", 4096, -ENOENT, NULL,
		  "with a relative mount point only");
	check_mnt("1 2 0:3 / /a rw cgroup2 x rw\n", 4096, -ENOENT, NULL, "without the ' - '");
	check_mnt("1 2 0:3 / /a rw -\n", 4096, -ENOENT, NULL, "without a type after ' - '");
	check_mnt("1 2 0:3 / /a rw - cgroup2x x rw\n1 2 0:3 / /b rw - cgroup x rw\n", 4096,
		  -ENOENT, NULL, "with cgroup2x and cgroup (v1) only");
	check_mnt("\xff\xfe\x01 \x80\n\n\n" CG2, 4096, 0, "/sys/fs/cgroup/unified",
		  "after binary junk and blank lines");
	check_mnt(CG2 "36 25 0:31 / /second rw - cgroup2 cgroup2 rw\n", 4096, 0,
		  "/sys/fs/cgroup/unified", "with two cgroup2 mounts: the first");
	check_mnt(CG2, 10, -ENAMETOOLONG, NULL, "into a buffer of 10 bytes");

	/* a 20000-byte line whose tail looks like a cgroup2 line */
	big = malloc(20200);
	if (big) {
		size_t len = snprintf(big, 20200, "1 2 0:3 / /o rw - overlay overlay rw,lowerdir=");

		for (i = len; i < 16384 - 10; i++)
			big[i] = 'x';
		len = i + snprintf(big + i, 20200 - i,
				   " 9 9 9:9 / /evil rw - cgroup2 cgroup2 rw\n" CG2);
		check_mnt(big, 4096, 0, "/sys/fs/cgroup/unified",
			  "after a 16 KB line: its tail is no line of its own");
		/* a cgroup2 mount point of 5000 bytes */
		len = snprintf(big, 20200, "1 2 0:3 / /");
		for (i = 0; i < 5000; i++)
			big[len++] = 'm';
		snprintf(big + len, 20200 - len, " rw - cgroup2 x rw\n");
		check_mnt(big, 4096, -ENAMETOOLONG, NULL, "with a mount point of 5000 bytes");
		free(big);
	}
}

static void test_names(void)
{
	static const struct {
		const char *name;
		int bad;
	} names[] = {
		{ "A", 0 }, { "A/sub", 0 }, { "/", 0 }, { "", 0 }, { "..A", 0 }, { "A..", 0 },
		{ "a/.../b", 0 }, { "..", 1 }, { "../x", 1 }, { "A/../..", 1 }, { "A//..", 1 },
		{ "/..", 1 }, { "A/..", 1 }, { "a\nb", 1 },
	};
	struct cgroup *cgrp = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		tap_ok(cgroup__bad_name(names[i].name) == names[i].bad, "cgroup name '%s' is %s",
		       strcmp(names[i].name, "a\nb") ? names[i].name : "a\\nb",
		       names[i].bad ? "refused" : "taken");
	tap_ok(cgroup__new(root, "../..", &cgrp) == -EINVAL && !cgrp,
	       "a name leaving the mount is -EINVAL, nothing opened");
}

/* a 2000 levels deep tree walks to the end, with little stack a level */
static void test_deep(void)
{
	struct cgroup_names n;
	char err[256] = "", path[4200];
	int depth = 0, ret;
	size_t len;

	len = snprintf(path, sizeof(path), "%s/deep", root);
	mkdir(path, 0755);
	while (len + 2 < 4090 - 2 && depth < 2000) {
		len += snprintf(path + len, sizeof(path) - len, "/d");
		if (mkdir(path, 0755))
			break;
		depth++;
	}
	snprintf(path, sizeof(path), "%s/deep", root);
	ret = cgroup_names__expand(path, "d$", &n, err, sizeof(err));
	tap_ok(!ret && depth > 1500 && n.nr == depth,
	       "a tree %d levels deep: every level matches 'd$' (got %d, %d %s)", depth, ret,
	       ret ? 0 : n.nr, err);
	if (!ret)
		cgroup_names__exit(&n);
}

/* cgroup__controller() of perf_event in a /proc/cgroups holding @text */
static enum cgroup_controller controller_in(const char *text)
{
	char path[160];
	enum cgroup_controller c;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc-cgroups", root);
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	fclose(f);
	c = cgroup__controller(path, "perf_event");
	unlink(path);
	return c;
}

/* where /proc/cgroups says perf_event is: what an ENODEV message says */
static void test_controller(void)
{
	static const char head[] = "#subsys_name\thierarchy\tnum_cgroups\tenabled\n"
				   "cpuset\t0\t1\t1\ncpu\t3\t1\t1\n";
	char buf[256];

	snprintf(buf, sizeof(buf), "%sperf_event\t0\t12\t1\nhugetlb\t0\t1\t1\n", head);
	tap_ok(controller_in(buf) == CGROUP_CONTROLLER_V2, "perf_event at hierarchy 0: cgroup2");
	snprintf(buf, sizeof(buf), "%sperf_event\t7\t1\t1\n", head);
	tap_ok(controller_in(buf) == CGROUP_CONTROLLER_V1,
	       "perf_event at hierarchy 7: bound to cgroup v1");
	snprintf(buf, sizeof(buf), "%sperf_event\t0\t1\t0\n", head);
	tap_ok(controller_in(buf) == CGROUP_CONTROLLER_DISABLED,
	       "perf_event not enabled: disabled, whatever its hierarchy");
	tap_ok(controller_in(head) == CGROUP_CONTROLLER_UNKNOWN &&
	       controller_in("perf_event\t0\n") == CGROUP_CONTROLLER_UNKNOWN &&
	       controller_in("perf_event_x\t0\t1\t1\n") == CGROUP_CONTROLLER_UNKNOWN,
	       "perf_event not listed, or its line cut: unknown");
	tap_ok(cgroup__controller("/nonexistent", "perf_event") == CGROUP_CONTROLLER_UNKNOWN,
	       "no /proc/cgroups: unknown");
}

/* nothing opened until an fd is asked for, and then only the same cgroup's */
static void test_lazy_fd(void)
{
	struct cgroup *cgrp = NULL;
	char path[160];
	FILE *f;
	int fd;

	snprintf(path, sizeof(path), "%s/a-file", root);
	f = fopen(path, "w");
	if (f)
		fclose(f);
	tap_ok(cgroup__new(root, "a-file", &cgrp) == -ENOTDIR && !cgrp,
	       "a file is not a cgroup: -ENOTDIR");
	unlink(path);
	tree__mkdir(root, "lazy");
	if (!tap_ok(!cgroup__new(root, "lazy", &cgrp), "new 'lazy'"))
		return;
	tap_ok(cgrp->fd == -1, "no fd held after new");
	fd = cgroup__fd(cgrp);
	tap_ok(fd >= 0 && cgroup__fd(cgrp) == fd, "cgroup__fd opens it once (%d)", fd);
	cgroup__close(cgrp);
	tap_ok(cgrp->fd == -1, "closed by cgroup__close");
	tree__rmdir(root, "lazy");
	tap_ok(cgroup__fd(cgrp) == -ENOENT, "removed: cgroup__fd is -ENOENT");
	tree__mkdir(root, "lazy");
	fd = cgroup__fd(cgrp);
	tap_ok(fd == -ENOENT && cgrp->fd == -1,
	       "made again under its name: another directory, -ENOENT, nothing held (%d)", fd);
	cgroup__put(cgrp);
	tree__rmdir(root, "lazy");
}

int main(void)
{
	char mnt[256], buf[512], path[160];
	struct cgroup *cgrp;
	FILE *f;

	tap_start("cgroup");
	if (!tap_ok(!tap_tmpdir(root, sizeof(root)), "a directory of its own"))
		return tap_done();
	tree__mkdir(root, "A");
	tree__mkdir(root, "A/sub");
	tree__mkdir(root, "B");
	tree__mkdir(root, "web");
	tree__mkdir(root, "web/x1");

	check("A", "A");
	check("B,A", "B,A");
	check("/", "/");
	check("A/sub,nonexistent-is-fine-here", "A/sub,nonexistent-is-fine-here");
	check_err("", -EINVAL);
	check_err("A,,B", -EINVAL);
	check_err("A,", -EINVAL);
	check_err("zz.*", -ENOENT);
	check_err("^/A", -ENOENT);
	check_err("A.*,nomatch$", -ENOENT);
	check_err("[", -EINVAL);

	{
		struct cgroup_names n;
		char err[256];
		int ret = cgroup_names__expand(root, "A.*,B$", &n, err, sizeof(err));
		int ia = -1, is = -1, ib = -1, i;

		for (i = 0; !ret && i < n.nr; i++) {
			if (!strcmp(n.names[i], "A"))
				ia = i;
			if (!strcmp(n.names[i], "A/sub"))
				is = i;
			if (!strcmp(n.names[i], "B"))
				ib = i;
		}
		tap_ok(!ret && n.nr == 3 && ia >= 0 && is == ia + 1 && ib >= 0,
		       "'A.*,B$' gives A, A/sub (right after its parent) and B");
		snprintf(buf, sizeof(buf), "%s", root);
		tap_ok(!ret && (ia < ib) == before(buf, "A", "B"),
		       "matches come in directory order, not pattern order");
		if (!ret)
			cgroup_names__exit(&n);
		ret = cgroup_names__expand(root, ".*", &n, err, sizeof(err));
		tap_ok(!ret && n.nr == 6 && !strcmp(n.names[0], ""),
		       "'.*' gives the root (named \"\") and all 5 cgroups");
		if (!ret)
			cgroup_names__exit(&n);
		ret = cgroup_names__expand(root, "A|B", &n, err, sizeof(err));
		tap_ok(ret == -ENOENT, "'A|B' is a basic regex: '|' is literal, as in perf");
	}

	test_mountinfo();
	test_names();
	test_deep();
	test_controller();
	snprintf(path, sizeof(path), "%s/mountinfo", root);
	f = fopen(path, "w");
	if (f) {
		fputs("22 1 0:21 / /proc rw - proc proc rw\n"
		      "30 25 0:26 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
		      "35 25 0:30 / /sys/fs/cgroup/unified rw,relatime shared:9 - cgroup2 cgroup2 rw\n",
		      f);
		fclose(f);
		tap_ok(!cgroup__find_mnt(path, mnt, sizeof(mnt)) &&
		       !strcmp(mnt, "/sys/fs/cgroup/unified"),
		       "the cgroup2 mount is found in mountinfo, past cgroup v1 ones");
		unlink(path);
	}
	tap_ok(cgroup__find_mnt("/nonexistent", mnt, sizeof(mnt)) == -ENOENT,
	       "a missing mountinfo is -ENOENT");

	tap_ok(cgroup__new(root, "nonexistent", &cgrp) == -ENOENT,
	       "a cgroup that does not exist is -ENOENT");
	test_lazy_fd();
	if (cgroup__find_mnt(NULL, mnt, sizeof(mnt))) {
		tap_skip("cgroup ids from name_to_handle_at", "no cgroup2 mount");
	} else if (cgroup__new(mnt, "/", &cgrp)) {
		tap_skip("cgroup ids from name_to_handle_at", "cannot open the cgroup2 root");
	} else {
		int fd = cgroup__fd(cgrp);

		tap_ok(fd >= 0 && cgroup__fd(cgrp) == fd && cgrp->id != 0 &&
		       !cgroup__check_alive(cgrp),
		       "the cgroup2 root opens once and has a non-zero id (%d, %llu)", fd,
		       (unsigned long long)cgrp->id);
		cgroup__put(cgrp);
	}
	if (tap_rmdir(root))
		printf("# cannot remove %s\n", root);
	return tap_done();
}
