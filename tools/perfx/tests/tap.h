/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - TAP-ish output for perfx's host unit tests: one "ok N - what" or
 * "not ok N - what" line per check, "ok N - what # SKIP why" for a check
 * that cannot run; tests/run-tests.sh counts them.  tap_tmpdir() and
 * tap_rmdir(): the test's own temporary directory.
 */
#ifndef __PERFX_TAP_H
#define __PERFX_TAP_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static int tap_nr, tap_failed;
static const char *tap_suite = "test";

static inline void tap_start(const char *suite)
{
	tap_suite = suite;
}

static inline int tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - %s: ", cond ? "" : "not ", ++tap_nr, tap_suite);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	return cond;
}

static inline void tap_skip(const char *what, const char *why)
{
	printf("ok %d - %s: %s # SKIP %s\n", ++tap_nr, tap_suite, what, why);
}

static inline int tap_str_eq(const char *got, const char *want, const char *what)
{
	int ok = got && want && !strcmp(got, want);

	tap_ok(ok, "%s", what);
	if (!ok)
		printf("#   got:  '%s'\n#   want: '%s'\n", got ? got : "(null)",
		       want ? want : "(null)");
	return ok;
}

/*
 * A directory of the test's own, by mkdtemp(): $TMPDIR/perfx-SUITE-XXXXXX
 * (/tmp without TMPDIR) in @dir[@len]; 0 or -errno.
 */
static inline int tap_tmpdir(char *dir, size_t len)
{
	const char *tmp = getenv("TMPDIR");

	if ((size_t)snprintf(dir, len, "%s/perfx-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp",
			     tap_suite) >= len)
		return -ENAMETOOLONG;
	return mkdtemp(dir) ? 0 : -errno;
}

/*
 * Writes @text to @root/@rel, making @rel's directory (one level) first:
 * a fake sysfs or procfs file; a failure shows as the reader's error.
 */
static inline void tap_put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX + 64], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	slash = strrchr(path, '/');
	*slash = '\0';
	mkdir(path, 0755);
	*slash = '/';
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* Removes what the directory @fd holds, and closes it; 0 or -1. */
static inline int tap_rm_at(int fd)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	int ret = 0, sub;

	if (!d) {
		close(fd);
		return -1;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    !unlinkat(dirfd(d), e->d_name, 0))
			continue;
		sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
		if (sub < 0 || tap_rm_at(sub) || unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR))
			ret = -1;
	}
	closedir(d);
	return ret;
}

/* Removes @dir, made by tap_tmpdir(), and what is left in it; 0 or -1. */
static inline int tap_rmdir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);

	if (fd < 0 || tap_rm_at(fd))
		return -1;
	return rmdir(dir);
}

static inline int tap_done(void)
{
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif /* __PERFX_TAP_H */
