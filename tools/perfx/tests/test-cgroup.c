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
#include "tests/tap.h"

static char root[64];

static void mk(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdir(path, 0755);
}

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

int main(void)
{
	char mnt[256], buf[512], cmd[128];
	struct cgroup *cgrp;
	FILE *f;

	tap_start("cgroup");
	snprintf(root, sizeof(root), "/tmp/perfx-test-cg.%d", getpid());
	mkdir(root, 0755);
	mk("A");
	mk("A/sub");
	mk("B");
	mk("web");
	mk("web/x1");

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

	f = fopen("/tmp/perfx-test-mountinfo", "w");
	if (f) {
		fputs("22 1 0:21 / /proc rw - proc proc rw\n"
		      "30 25 0:26 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
		      "35 25 0:30 / /sys/fs/cgroup/unified rw,relatime shared:9 - cgroup2 cgroup2 rw\n",
		      f);
		fclose(f);
		tap_ok(!cgroup__find_mnt("/tmp/perfx-test-mountinfo", mnt, sizeof(mnt)) &&
		       !strcmp(mnt, "/sys/fs/cgroup/unified"),
		       "the cgroup2 mount is found in mountinfo, past cgroup v1 ones");
		unlink("/tmp/perfx-test-mountinfo");
	}
	tap_ok(cgroup__find_mnt("/nonexistent", mnt, sizeof(mnt)) == -ENOENT,
	       "a missing mountinfo is -ENOENT");

	tap_ok(cgroup__new(root, "nonexistent", &cgrp) == -ENOENT,
	       "a cgroup that does not exist is -ENOENT");
	if (cgroup__find_mnt(NULL, mnt, sizeof(mnt))) {
		tap_skip("cgroup ids from name_to_handle_at", "no cgroup2 mount");
	} else if (cgroup__new(mnt, "/", &cgrp)) {
		tap_skip("cgroup ids from name_to_handle_at", "cannot open the cgroup2 root");
	} else {
		tap_ok(cgrp->fd >= 0 && cgrp->id != 0 && !cgroup__check_alive(cgrp),
		       "the cgroup2 root has an fd and a non-zero id (%llu)",
		       (unsigned long long)cgrp->id);
		cgroup__put(cgrp);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		printf("# cannot remove %s\n", root);
	return tap_done();
}
