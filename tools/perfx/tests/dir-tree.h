/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dir-tree.h - directories made and removed under a unit test's own root
 * (tap_tmpdir(), or a cgroup), by paths relative to it.
 */
#ifndef __PERFX_TESTS_DIR_TREE_H
#define __PERFX_TESTS_DIR_TREE_H

#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

/* mkdir @root/@rel: 0 or -1 with errno */
static inline int tree__mkdir(const char *root, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return mkdir(path, 0755);
}

/* rmdir @root/@rel: 0 or -1 with errno */
static inline int tree__rmdir(const char *root, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	return rmdir(path);
}

#endif /* __PERFX_TESTS_DIR_TREE_H */
