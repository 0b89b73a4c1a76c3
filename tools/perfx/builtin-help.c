// SPDX-License-Identifier: GPL-2.0
/*
 * perfx help COMMAND: the command's man page, as perf help shows it, from
 * where make install put it beside the binary; its usage where there is
 * none (a build tree) or man cannot run.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/util.h"

/* PREFIX/share/man/man1/perfx-CMD.1[.gz] for the binary PREFIX/bin/perfx */
static int help__man_path(const char *cmd, char *path, size_t size)
{
	static const char *const suffixes[] = { "", ".gz" };
	char exe[PATH_MAX];
	char *slash;
	ssize_t len;
	size_t i;

	len = readlink("/proc/self/exe", exe, sizeof(exe));
	if (len < 0)
		return -errno;
	/* readlink() truncates silently: a full buffer may be a cut path */
	if (len == (ssize_t)sizeof(exe))
		return -ENAMETOOLONG;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		if (snprintf(path, size, "%s/../share/man/man1/perfx-%s.1%s",
			     exe, cmd, suffixes[i]) >= (int)size)
			return -ENAMETOOLONG;
		if (!access(path, R_OK))
			return 0;
	}
	return -ENOENT;
}

int help__show_man_page(const char *cmd)
{
	char path[PATH_MAX];
	int err;

	err = help__man_path(cmd, path, sizeof(path));
	if (err)
		return err;
	fflush(stdout);
	execlp("man", "man", "-l", path, (char *)NULL);
	return -errno;
}
