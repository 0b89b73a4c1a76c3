// SPDX-License-Identifier: GPL-2.0
/*
 * The tracing data that goes with tracepoint samples: the ring buffer's
 * page and event headers and the format of every recorded tracepoint,
 * read from tracefs, in perf's layout.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "feature.h"
#include "tracing-data.h"

#define TRACING_DATA_VERSION	"0.6"

/* @path's size in @size_bytes (0, 4 or 8), then its contents */
static int put_file(struct feature_buf *b, const char *path, size_t size_bytes)
{
	size_t at = b->len, n = 0;
	__u64 size = 0;
	char buf[8192];
	ssize_t r;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	feature_buf__write(b, &size, size_bytes);
	while ((r = read(fd, buf, sizeof(buf))) > 0) {
		feature_buf__write(b, buf, r);
		n += r;
	}
	close(fd);
	if (r < 0)
		return -errno;
	size = n;
	if (!b->err)
		memcpy(b->p + at, &size, size_bytes);	/* little-endian: the low bytes */
	return b->err;
}

static bool in_tps(const char *sys, const char *name, const char * const *tps, int nr)
{
	size_t len = strlen(sys);
	int i;

	for (i = 0; i < nr; i++) {
		if (strncmp(tps[i], sys, len) || tps[i][len] != ':')
			continue;
		/* "sys:name", or "sys:name:mods" */
		if (!name || (!strncmp(tps[i] + len + 1, name, strlen(name)) &&
			      strchr(":", tps[i][len + 1 + strlen(name)])))
			return true;
	}
	return false;
}

/* the count, then each recorded event's format, of system @sys */
static int put_system(struct feature_buf *b, const char *events, const char *sys,
		      const char * const *tps, int nr)
{
	char path[PATH_MAX];
	struct dirent *d;
	__u32 count = 0;
	int err = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/%s", events, sys);
	dir = opendir(path);
	if (!dir)
		return -errno;
	while ((d = readdir(dir)))
		count += d->d_type == DT_DIR && d->d_name[0] != '.' && in_tps(sys, d->d_name, tps, nr);
	feature_buf__u32(b, count);
	rewinddir(dir);
	while (!err && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.' || !in_tps(sys, d->d_name, tps, nr))
			continue;
		snprintf(path, sizeof(path), "%s/%s/%s/format", events, sys, d->d_name);
		err = put_file(b, path, 8);
	}
	closedir(dir);
	return err;
}

/* the systems other than ftrace that hold a recorded event */
static int put_systems(struct feature_buf *b, const char *events, const char * const *tps,
		       int nr)
{
	struct dirent *d;
	__u32 count = 0;
	int err = 0;
	DIR *dir;

	dir = opendir(events);
	if (!dir)
		return -errno;
	while ((d = readdir(dir)))
		count += d->d_type == DT_DIR && d->d_name[0] != '.' &&
			 strcmp(d->d_name, "ftrace") && in_tps(d->d_name, NULL, tps, nr);
	feature_buf__u32(b, count);
	rewinddir(dir);
	while (!err && (d = readdir(dir))) {
		if (d->d_type != DT_DIR || d->d_name[0] == '.' || !strcmp(d->d_name, "ftrace") ||
		    !in_tps(d->d_name, NULL, tps, nr))
			continue;
		feature_buf__write(b, d->d_name, strlen(d->d_name) + 1);
		err = put_system(b, events, d->d_name, tps, nr);
	}
	closedir(dir);
	return err;
}

/* a file of the tracefs root, or a size of 0 where it has none */
static int put_root_file(struct feature_buf *b, const char *events, const char *file,
			 size_t size_bytes)
{
	static const __u64 zero;
	char path[PATH_MAX];
	int err;

	snprintf(path, sizeof(path), "%s/../%s", events, file);
	err = put_file(b, path, size_bytes);
	if (err == -ENOENT) {
		feature_buf__write(b, &zero, size_bytes);
		err = b->err;
	}
	return err;
}

int tracing_data__build(struct feature_buf *b, const char *events, const char * const *tps,
			int nr)
{
	static const char magic[10] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	char path[PATH_MAX];
	int err;

	feature_buf__write(b, magic, sizeof(magic));
	feature_buf__write(b, TRACING_DATA_VERSION, sizeof(TRACING_DATA_VERSION));
	feature_buf__write(b, &(char){ __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ }, 1);
	feature_buf__write(b, &(char){ sizeof(long) }, 1);
	feature_buf__u32(b, (__u32)sysconf(_SC_PAGESIZE));
	feature_buf__write(b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/header_page", events);
	err = put_file(b, path, 8);
	if (err)
		return err;
	feature_buf__write(b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/header_event", events);
	err = put_file(b, path, 8);
	if (!err) {
		err = put_system(b, events, "ftrace", tps, nr);
		if (err == -ENOENT)	/* no ftrace events: none recorded */
			feature_buf__u32(b, 0);
		err = err == -ENOENT ? 0 : err;
	}
	if (!err)
		err = put_systems(b, events, tps, nr);
	/* kallsyms: none, as perf since 5.x */
	feature_buf__u32(b, 0);
	if (!err)
		err = put_root_file(b, events, "printk_formats", 4);
	if (!err)
		err = put_root_file(b, events, "saved_cmdlines", 8);
	return err ? err : b->err;
}
