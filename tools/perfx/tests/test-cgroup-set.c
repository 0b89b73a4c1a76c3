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
#include "lib/cgroup-watch.h"
#include "tests/dir-tree.h"
#include "tests/tap.h"

static char root[128];
/* when set, updates go through what it reports (cgroup_set__apply()) */
static struct cgroup_watch *watch;

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
	struct cgroup_watch_changes changes;
	struct cgroup_set_change ch = { 0 };
	int err;

	if (watch) {
		err = cgroup_watch__read(watch, &changes);
		if (err >= 0)
			err = cgroup_set__apply(set, &changes, &ch);
		cgroup_watch_changes__exit(&changes);
	} else {
		err = cgroup_set__update(set, &ch);
	}

	tap_ok(!err && ch.nr_joined == joined && ch.nr_left == left && ch.nr_capped == capped,
	       "%s: %d joined, %d left, %d capped (got %d: %d, %d, %d)", what, joined, left,
	       capped, err, ch.nr_joined, ch.nr_left, ch.nr_capped);
	while (!err && ch.nr_left--)
		cgroup_set__remove(set, ch.left[ch.nr_left]);
	if (want)
		tap_str_eq(names(set), want, what);
	cgroup_set_change__exit(&ch);
}

/* A followed set through the tree's changes; @how says how it looks */
static void test_follow(const char *how)
{
	struct cgroup_set set;
	char err[256] = "";
	__u64 old_id;
	int ret;

	printf("# updates %s\n", how);
	tree__mkdir(root, "web1");
	tree__mkdir(root, "db");

	ret = cgroup_set__init(&set, root, "web.*", 3, err, sizeof(err));
	if (!tap_ok(!ret, "init 'web.*' (%d %s)", ret, err))
		return;
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
	tree__rmdir(root, "web6");
	tree__rmdir(root, "db");
	tree__rmdir(root, "dbx");

}

/* what cgroup_set__apply() is told: made and removed names, or lost */
static void test_apply_changes(void)
{
	struct cgroup_watch_change c[3] = { { "web1", true }, { "web1", true }, { "web9", true } };
	struct cgroup_watch_changes changes = { 3, c, false };
	struct cgroup_set_change ch;
	struct cgroup_set set;
	char err[256] = "";
	int ret;

	tree__mkdir(root, "web0");
	ret = cgroup_set__init(&set, root, "web.*", 8, err, sizeof(err));
	if (!tap_ok(!ret && set.nr == 1, "init with web0 (%d %s)", ret, err))
		return;
	tree__mkdir(root, "web1");
	ret = cgroup_set__apply(&set, &changes, &ch);
	tap_ok(!ret && ch.nr_joined == 1 && ch.nr_left == 0,
	       "web1 reported made twice, web9 made and gone: web1 joins once (%d, %d)",
	       ch.nr_joined, ch.nr_left);
	tap_str_eq(names(&set), "web0,web1", "web0 and web1");
	cgroup_set_change__exit(&ch);

	/*
	 * web2's mkdir and rmdir reported together while it is there still
	 * (made again): the tree as it is decides, web2 joins
	 */
	tree__mkdir(root, "web2");
	c[0] = (struct cgroup_watch_change){ "web2", true };
	c[1] = (struct cgroup_watch_change){ "web2", false };
	c[2] = (struct cgroup_watch_change){ "db", true };
	ret = cgroup_set__apply(&set, &changes, &ch);
	tap_ok(!ret && ch.nr_joined == 1 && ch.nr_left == 0,
	       "web2 made, its rmdir still to come: joins (%d, %d)", ch.nr_joined, ch.nr_left);
	cgroup_set_change__exit(&ch);
	tree__rmdir(root, "web2");
	changes.changes = &c[1];
	changes.nr = 1;
	ret = cgroup_set__apply(&set, &changes, &ch);
	tap_ok(!ret && ch.nr_left == 1 && ch.left[0] == 2, "then its rmdir: it leaves (%d, %d)",
	       ch.nr_left, ch.nr_left ? ch.left[0] : -1);
	while (!ret && ch.nr_left--)
		cgroup_set__remove(&set, ch.left[ch.nr_left]);
	cgroup_set_change__exit(&ch);

	/* a removal reported for a name made again since: the member stays */
	changes.changes = &c[0];
	c[0] = (struct cgroup_watch_change){ "web1", false };
	ret = cgroup_set__apply(&set, &changes, &ch);
	tap_ok(!ret && !ch.nr_left && set.nr == 2,
	       "an rmdir of web1 while web1 is the member's still: nobody leaves");
	cgroup_set_change__exit(&ch);

	/* lost: the whole tree is looked at, whatever the list says */
	tree__mkdir(root, "web3");
	changes.nr = 0;
	changes.lost = true;
	ret = cgroup_set__apply(&set, &changes, &ch);
	tap_ok(!ret && ch.nr_joined == 1 && !strcmp(set.cgrps[2]->name, "web3"),
	       "events lost, nothing named: web3 is found all the same");
	cgroup_set_change__exit(&ch);
	cgroup_set__exit(&set);
	tree__rmdir(root, "web0");
	tree__rmdir(root, "web1");
	tree__rmdir(root, "web3");
}

/*
 * The cap, with a cgroup made reported before one removed: the room the
 * removal makes is there for it.  Removals reported in descending order
 * leave in ascending order.
 */
static void test_apply_order(void)
{
	struct cgroup_watch_change c[3];
	struct cgroup_watch_changes changes = { 2, c, false };
	struct cgroup_set_change ch;
	struct cgroup_set set;
	char err[256] = "";
	int ret;

	tree__mkdir(root, "web1");
	tree__mkdir(root, "web2");
	tree__mkdir(root, "web3");
	ret = cgroup_set__init(&set, root, "web.*", 3, err, sizeof(err));
	if (!tap_ok(!ret && set.nr == 3, "init with web1-3, cap 3 (%d %s)", ret, err))
		return;
	tree__mkdir(root, "web4");
	tree__rmdir(root, "web2");
	c[0] = (struct cgroup_watch_change){ "web4", true };
	c[1] = (struct cgroup_watch_change){ "web2", false };
	ret = cgroup_set__apply(&set, &changes, &ch);
	tap_ok(!ret && ch.nr_joined == 1 && ch.nr_left == 1 && !ch.nr_capped && !set.nr_capped,
	       "+web4 then -web2 at the cap: web4 joins in web2's room (%d, %d, %d)",
	       ch.nr_joined, ch.nr_left, ch.nr_capped);
	while (!ret && ch.nr_left--)
		cgroup_set__remove(&set, ch.left[ch.nr_left]);
	cgroup_set_change__exit(&ch);
	/* web1 and web3 in the walk's (directory) order, then web4 */
	tap_ok(set.nr == 3 && !strstr(names(&set), "web2") &&
	       !strcmp(set.cgrps[2]->name, "web4"), "web2 out, web4 last: %s", names(&set));

	tree__rmdir(root, "web4");
	tree__rmdir(root, "web3");
	tree__rmdir(root, "web1");
	c[0] = (struct cgroup_watch_change){ "web4", false };
	c[1] = (struct cgroup_watch_change){ "web3", false };
	c[2] = (struct cgroup_watch_change){ "web1", false };
	changes.nr = 3;
	ret = cgroup_set__apply(&set, &changes, &ch);
	tap_ok(!ret && ch.nr_left == 3 && ch.left[0] == 0 && ch.left[1] == 1 && ch.left[2] == 2,
	       "removals reported last member first leave in ascending order (%d: %d %d %d)",
	       ch.nr_left, ch.nr_left > 0 ? ch.left[0] : -1, ch.nr_left > 1 ? ch.left[1] : -1,
	       ch.nr_left > 2 ? ch.left[2] : -1);
	cgroup_set_change__exit(&ch);
	cgroup_set__exit(&set);

	/* prune: the members gone, found by id, whatever was reported */
	tree__mkdir(root, "web5");
	tree__mkdir(root, "web6");
	ret = cgroup_set__init(&set, root, "web.*", 3, err, sizeof(err));
	tree__rmdir(root, "web5");
	ret = ret ? ret : cgroup_set__prune(&set, -1, &ch);
	tap_ok(!ret && set.nr == 2 && ch.nr_left == 1 && !ch.nr_joined &&
	       !strcmp(set.cgrps[ch.left[0]]->name, "web5"),
	       "prune: web5 removed, its rmdir not read: it leaves, web6 stays (%d, %d)", ret,
	       ch.nr_left);
	cgroup_set_change__exit(&ch);
	/* web6, there still, refused by the kernel (in its rmdir): it leaves too */
	ret = cgroup_set__prune(&set, strcmp(set.cgrps[0]->name, "web6") ? 1 : 0, &ch);
	tap_ok(!ret && ch.nr_left == 2 && ch.left[0] == 0 && ch.left[1] == 1,
	       "prune with web6 refused by the kernel: it leaves too, its path there still");
	cgroup_set_change__exit(&ch);
	cgroup_set__exit(&set);
	tree__rmdir(root, "web6");
}

int main(void)
{
	struct cgroup_set set;
	char err[256] = "";
	int ret;

	tap_start("cgroup-set");
	if (!tap_ok(!tap_tmpdir(root, sizeof(root)), "a directory of its own"))
		return tap_done();
	test_follow("by expanding the list again");
	if (tap_ok(!cgroup_watch__new(root, &watch), "watch the tree")) {
		test_follow("by what the watch reports");
		cgroup_watch__delete(watch);
		watch = NULL;
	}
	test_apply_changes();
	test_apply_order();

	tree__mkdir(root, "web7");
	tree__mkdir(root, "web8");
	ret = cgroup_set__init(&set, root, "web.*", 1, err, sizeof(err));
	tap_ok(ret == -E2BIG && strstr(err, "more than 1"), "init past the cap: -E2BIG, said (%d %s)",
	       ret, err);
	ret = cgroup_set__init(&set, root, "nomatch$", 4, err, sizeof(err));
	tap_ok(ret == 0 && set.nr == 0, "init of a pattern matching nothing: an empty set (%d, %d)",
	       ret, set.nr);
	cgroup_set__exit(&set);

	tree__rmdir(root, "web7");
	tree__rmdir(root, "web8");
	tap_rmdir(root);
	return tap_done();
}
