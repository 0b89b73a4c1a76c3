// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data output: what its path names decides how it is written,
 * and nothing but a file created here is ever removed.  perf 6.1's
 * record opens any path with O_TRUNC; perfx's used to unlink it on an
 * early failure whatever it was, and so deleted /dev/full or a FIFO.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data.h"
#include "debug.h"
#include "perf-data.h"

static int data__fail(const struct perfx_data *data, const char *what, const char *other,
		      int err)
{
	pr_err("%s: %s%s: %s (%s)\n", data->path, what, other ? other : "", strerror(-err),
	       perfx__errname(err));
	return err;
}

/* A FIFO, a device: written where it is, never replaced or removed. */
static int data__open_in_place(struct perfx_data *data, enum perfx_data_kind kind)
{
	data->kind = kind;
	data->fd = open(data->path, O_WRONLY | O_CLOEXEC);
	if (data->fd < 0)
		return data__fail(data, "cannot open it for writing", NULL, -errno);
	return 0;
}

/* @name is made here, so that it may be removed again: it must not exist. */
static int data__note_written(struct perfx_data *data, const char *name)
{
	struct stat st;

	if (fstat(data->fd, &st))
		return -errno;
	data->written = strdup(name);
	if (!data->written)
		return -ENOMEM;
	data->dev = st.st_dev;
	data->ino = st.st_ino;
	return 0;
}

static int data__create(struct perfx_data *data)
{
	int err;

	data->fd = open(data->path, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
	if (data->fd < 0)
		return data__fail(data, "cannot create it", NULL, -errno);
	err = data__note_written(data, data->path);
	if (err) {
		close(data->fd);
		data->fd = -1;
		unlink(data->path);
	}
	return err;
}

static int data__create_temp(struct perfx_data *data)
{
	char *tmp;
	int err;

	if (asprintf(&tmp, "%s.perfx-XXXXXX", data->path) < 0)
		return -ENOMEM;
	data->fd = mkostemp(tmp, O_CLOEXEC);
	if (data->fd < 0) {
		err = data__fail(data, "cannot create a temporary file beside it", NULL, -errno);
		goto out_free;
	}
	err = data__note_written(data, tmp);
	if (err) {
		close(data->fd);
		data->fd = -1;
		unlink(tmp);
	}
out_free:
	free(tmp);
	return err;
}

/* As perf: FILE becomes FILE.old (replacing an older one), FILE is new. */
static int data__create_keeping_old(struct perfx_data *data)
{
	int err;

	if (asprintf(&data->old, "%s.old", data->path) < 0) {
		data->old = NULL;
		return -ENOMEM;
	}
	if (rename(data->path, data->old)) {
		err = data__fail(data, "cannot move it to ", data->old, -errno);
		goto out_free;
	}
	err = data__create(data);
	if (!err)
		return 0;
	rename(data->old, data->path);
out_free:
	free(data->old);
	data->old = NULL;
	return err;
}

static int data__open_file(struct perfx_data *data, const struct stat *st)
{
	data->kind = PERFX_DATA_FILE;
	if (data->replace == PERFX_DATA_TEMP_RENAME)
		return data__create_temp(data);
	if (st->st_size)
		return data__create_keeping_old(data);
	/* nothing to keep: written in place, and emptied again if discarded */
	data->fd = open(data->path, O_RDWR | O_CLOEXEC);
	if (data->fd < 0)
		return data__fail(data, "cannot open it for writing", NULL, -errno);
	data->emptied = true;
	return 0;
}

int perfx_data__open_write(struct perfx_data *data, const char *path,
			   enum perfx_data_replace replace)
{
	struct stat st;

	memset(data, 0, sizeof(*data));
	data->path = path;
	data->replace = replace;
	data->fd = -1;
	if (!strcmp(path, "-")) {
		data->kind = PERFX_DATA_STDOUT;
		data->fd = STDOUT_FILENO;
		return 0;
	}
	/* what a symlink names counts: /proc/self/fd/1 is a pipe, say */
	if (stat(path, &st)) {
		if (errno != ENOENT)
			return data__fail(data, "cannot look it up", NULL, -errno);
		data->kind = PERFX_DATA_FILE;
		return data->replace == PERFX_DATA_TEMP_RENAME ? data__create_temp(data) :
								  data__create(data);
	}
	switch (st.st_mode & S_IFMT) {
	case S_IFREG:
		return data__open_file(data, &st);
	case S_IFIFO:
		return data__open_in_place(data, PERFX_DATA_FIFO);
	case S_IFCHR:
	case S_IFBLK:
		return data__open_in_place(data, PERFX_DATA_DEVICE);
	case S_IFDIR:
		return data__fail(data, "expected a file, a FIFO or a device, not a directory",
				  NULL, -EISDIR);
	default:
		return data__fail(data, "expected a file, a FIFO or a device, not a socket",
				  NULL, -EINVAL);
	}
}

bool perfx_data__names_pipe(const char *path)
{
	struct stat st;

	return !strcmp(path, "-") || (!stat(path, &st) && S_ISFIFO(st.st_mode));
}

bool perfx_data__is_pipe(const struct perfx_data *data)
{
	return data->kind == PERFX_DATA_STDOUT || data->kind == PERFX_DATA_FIFO;
}

bool perfx_data__is_file(const struct perfx_data *data)
{
	return data->kind == PERFX_DATA_FILE;
}

int perfx_data__open_read(const struct perfx_data *data)
{
	char path[64];
	int fd;

	if (!perfx_data__is_file(data))
		return -ESPIPE;
	/* a description of its own: the writer's file position stays */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", data->fd);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* @data->written is still what this object made: only then is it removed */
static bool data__still_written(const struct perfx_data *data)
{
	struct stat st;

	return data->written && !lstat(data->written, &st) && S_ISREG(st.st_mode) &&
	       st.st_dev == data->dev && st.st_ino == data->ino;
}

static void data__release(struct perfx_data *data)
{
	char *written = data->written;

	if (data->fd >= 0 && data->kind != PERFX_DATA_STDOUT)
		close(data->fd);
	data->fd = -1;
	/* the signal handler sees NULL, never a freed name */
	data->written = NULL;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	free(written);
	free(data->old);
	data->old = NULL;
}

void perfx_data__discard(struct perfx_data *data)
{
	struct stat st;

	if (data->emptied && data->fd >= 0 && ftruncate(data->fd, 0))
		pr_warning("%s: cannot empty it again: %s\n", data->path, strerror(errno));
	if (data__still_written(data) && unlink(data->written))
		pr_warning("%s: cannot remove it: %s\n", data->written, strerror(errno));
	/* FILE.old comes back only where nothing has taken FILE's place */
	if (data->old && lstat(data->path, &st) && errno == ENOENT &&
	    rename(data->old, data->path))
		pr_warning("%s: cannot move it back to %s: %s\n", data->old, data->path,
			   strerror(errno));
	data__release(data);
}

void perfx_data__keep(struct perfx_data *data)
{
	data__release(data);
}

int perfx_data__commit(struct perfx_data *data)
{
	int err = 0;

	if (data->fd >= 0 && data->kind != PERFX_DATA_STDOUT && close(data->fd))
		err = -errno;
	data->fd = -1;
	if (!err && data->replace == PERFX_DATA_TEMP_RENAME && data__still_written(data) &&
	    rename(data->written, data->path))
		err = -errno;
	if (err) {
		data__fail(data, "cannot complete it", NULL, err);
		perfx_data__discard(data);
		return err;
	}
	data__release(data);
	return 0;
}

static struct perfx_data *signal_data;

static void data__signal(int sig)
{
	/* async-signal-safe: lstat and unlink only */
	if (signal_data && signal_data->replace == PERFX_DATA_TEMP_RENAME &&
	    data__still_written(signal_data))
		unlink(signal_data->written);
	raise(sig);	/* SA_RESETHAND: as if never caught */
}

void perfx_data__discard_on_signals(struct perfx_data *data)
{
	static const int sigs[] = { SIGHUP, SIGINT, SIGTERM, SIGPIPE };
	struct sigaction sa = {
		.sa_handler = data ? data__signal : SIG_DFL,
		.sa_flags = data ? SA_RESETHAND | SA_NODEFER : 0,
	};
	struct sigaction old;
	size_t i;

	signal_data = data;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		/* a signal ignored by who started us (nohup, a script's &) stays so */
		if (!sigaction(sigs[i], NULL, &old) && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
}
