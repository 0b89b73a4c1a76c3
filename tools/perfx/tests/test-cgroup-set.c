// SPDX-License-Identifier: GPL-2.0
/*
 * Proves cgroup_set on a directory tree of the test's own (ids from
 * name_to_handle_at() as on cgroup2): members in walk order, a mkdir that
 * matches joins at the end, an rmdir leaves (a member until removed), a
 * directory made again under a removed one's name is another member, the
 * cap keeps the excess out and counts it, a pattern that matches nothing
 * any more empties the set, and init refuses a list past the cap.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/cgroup.h"
#include "lib/cgroup-set.h"
#include "tests/dir-tree.h"
#include "tests/tap.h"

static char root[128];

/* the members' names, comma separated */
static const char *names(const struct cgroup_set *set)
{
	static char buf[512];
	size_t len = 0;
	int k;

	buf[0] = '\0';
	for (k = 0; k < set->nr; k++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%s", k ? "," : "",
				set->cgrps[k]->name);
	return buf;
}

/*
 * One update: it succeeds with @joined joined, @left left, @capped capped,
 * and the members are then @want (unless NULL)
 */
static void update(struct cgroup_set *set, int joined, int left, int capped,
		   const char *want, const char *what)
{
	struct cgroup_set_change ch;
	int err = cgroup_set__update(set, &ch);

	tap_ok(!err && ch.nr_joined == joined && ch.nr_left == left && ch.nr_capped == capped,
	       "%s: %d joined, %d left, %d capped (got %d: %d, %d, %d)", what, joined, left,
	       capped, err, ch.nr_joined, ch.nr_left, ch.nr_capped);
	while (!err && ch.nr_left--)
		cgroup_set__remove(set, ch.left[ch.nr_left]);
	if (want)
		tap_str_eq(names(set), want, what);
	cgroup_set_change__exit(&ch);
}

int main(void)
{
	struct cgroup_set set;
	char err[256] = "";
	__u64 old_id;
	int ret;

	tap_start("cgroup-set");
	if (!tap_ok(!tap_tmpdir(root, sizeof(root)), "a directory of its own"))
		return tap_done();
	tree__mkdir(root, "web1");
	tree__mkdir(root, "db");

	ret = cgroup_set__init(&set, root, "web.*", 3, err, sizeof(err));
	if (!tap_ok(!ret, "init 'web.*' (%d %s)", ret, err))
		return tap_done();
	tap_str_eq(names(&set), "web1", "web1 is the member");
	update(&set, 0, 0, 0, "web1", "nothing made");
	tree__mkdir(root, "web2");
	update(&set, 1, 0, 0, "web1,web2", "mkdir web2");
	tree__mkdir(root, "dbx");
	update(&set, 0, 0, 0, "web1,web2", "mkdir of a name the pattern does not match");
	tree__rmdir(root, "web1");
	update(&set, 0, 1, 0, "web2", "rmdir web1");
	old_id = set.cgrps[0]->id;
	tree__rmdir(root, "web2");
	tree__mkdir(root, "web2");
	update(&set, 1, 1, 0, "web2", "web2 made again: the old one left, the new one joined");
	tap_ok(set.nr == 1 && set.cgrps[0]->id != old_id, "the new web2 has another id");
	tree__mkdir(root, "web3");
	tree__mkdir(root, "web4");
	tree__mkdir(root, "web5");
	/* which two join is the walk's (directory) order */
	update(&set, 2, 0, 1, NULL, "3 made with room for 2 (cap 3)");
	tap_ok(set.nr == 3 && !strcmp(set.cgrps[0]->name, "web2"),
	       "web2 and two of the three: %s", names(&set));
	tree__rmdir(root, "web2");
	tree__rmdir(root, "web3");
	tree__rmdir(root, "web4");
	tree__rmdir(root, "web5");
	update(&set, 0, 3, 0, "", "every match removed: the set empties");
	tree__mkdir(root, "web6");
	update(&set, 1, 0, 0, "web6", "then one made");
	cgroup_set__exit(&set);

	tree__mkdir(root, "web7");
	tree__mkdir(root, "web8");
	ret = cgroup_set__init(&set, root, "web.*", 1, err, sizeof(err));
	tap_ok(ret == -E2BIG && strstr(err, "more than 1"), "init past the cap: -E2BIG, said (%d %s)",
	       ret, err);
	ret = cgroup_set__init(&set, root, "nomatch$", 4, err, sizeof(err));
	tap_ok(ret == 0 && set.nr == 0, "init of a pattern matching nothing: an empty set (%d, %d)",
	       ret, set.nr);
	cgroup_set__exit(&set);

	tree__rmdir(root, "web6");
	tree__rmdir(root, "web7");
	tree__rmdir(root, "web8");
	tree__rmdir(root, "db");
	tree__rmdir(root, "dbx");
	tap_rmdir(root);
	return tap_done();
}
