// SPDX-License-Identifier: GPL-2.0
/*
 * Controllers implicit on the default hierarchy (perf_event) have a css in
 * every cgroup from the moment it is created, without anything writing
 * cgroup.subtree_control.
 *
 * Before "cgroup: Compute the default root's subtree_ss_mask after
 * subsystem init", children of the root got no implicit css until the
 * root's cgroup.subtree_control had been written once.  The test can only
 * catch that where nothing has written it since boot (a minimal init, a
 * VM test bed); it therefore writes no controller itself and must run
 * before anything else does.
 */
#include <linux/limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "../kselftest.h"
#include "cgroup_util.h"

#define NR_PERF_EVENT "nr_subsys_perf_event "

/*
 * A child of the root and its child each have a perf_event css: the
 * child's cgroup.stat counts two live perf_event csses in its subtree,
 * the grandchild's one.
 */
static int test_implicit_css_on_new_cgroups(const char *root)
{
	char *parent = NULL, *child = NULL;
	long nr;
	int ret = KSFT_FAIL;

	parent = cg_name_indexed(root, "implicit_test", getpid());
	child = parent ? cg_name(parent, "child") : NULL;
	if (!child)
		goto cleanup;
	if (cg_create(parent) || cg_create(child))
		goto cleanup;

	nr = cg_read_key_long(parent, "cgroup.stat", NR_PERF_EVENT);
	if (nr != 2) {
		ksft_print_msg("%s: %s%ld, expected 2\n", parent, NR_PERF_EVENT, nr);
		goto cleanup;
	}
	nr = cg_read_key_long(child, "cgroup.stat", NR_PERF_EVENT);
	if (nr != 1) {
		ksft_print_msg("%s: %s%ld, expected 1\n", child, NR_PERF_EVENT, nr);
		goto cleanup;
	}
	ret = KSFT_PASS;

cleanup:
	if (child)
		cg_destroy(child);
	if (parent)
		cg_destroy(parent);
	free(child);
	free(parent);
	return ret;
}

#define T(x) { x, #x }
struct implicit_test {
	int (*fn)(const char *root);
	const char *name;
} tests[] = {
	T(test_implicit_css_on_new_cgroups),
};

#undef T

int main(int argc, char **argv)
{
	char root[PATH_MAX];

	ksft_print_header();
	ksft_set_plan(ARRAY_SIZE(tests));
	if (cg_find_unified_root(root, sizeof(root), NULL))
		ksft_exit_skip("cgroup v2 isn't mounted\n");

	/* cgroup.stat counts a controller's csses only while it is on v2 */
	if (cg_read_key_long(root, "cgroup.stat", NR_PERF_EVENT) < 0)
		ksft_exit_skip("perf_event controller isn't on cgroup v2\n");

	for (size_t i = 0; i < ARRAY_SIZE(tests); i++) {
		switch (tests[i].fn(root)) {
		case KSFT_PASS:
			ksft_test_result_pass("%s\n", tests[i].name);
			break;
		case KSFT_SKIP:
			ksft_test_result_skip("%s\n", tests[i].name);
			break;
		default:
			ksft_test_result_fail("%s\n", tests[i].name);
			break;
		}
	}

	ksft_finished();
}
