/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_PERF_DATA_H
#define __PERFX_PERF_DATA_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * A perf.data output, as perf's struct perf_data: the path, the fd and
 * what the path is.  One policy for every command that writes one: a
 * regular file is replaced (kept as FILE.old, or written to a temporary
 * file renamed over it once complete), a FIFO, a device or stdout is
 * written in place, and only a regular file this object created is ever
 * removed - never what the path named before.
 */
enum perfx_data_kind {
	PERFX_DATA_STDOUT,	/* "-": pipe format */
	PERFX_DATA_FIFO,	/* a named pipe: pipe format, as perf writes it */
	PERFX_DATA_DEVICE,	/* a character or block device, /dev/null say */
	PERFX_DATA_FILE,	/* a regular file */
};

enum perfx_data_replace {
	/* perf record: a non-empty FILE becomes FILE.old, FILE is written */
	PERFX_DATA_KEEP_OLD,
	/* perf inject: FILE.perfx-XXXXXX is written, renamed over FILE at the end */
	PERFX_DATA_TEMP_RENAME,
};

struct perfx_data {
	const char		*path;
	int			fd;
	enum perfx_data_kind	kind;
	enum perfx_data_replace	replace;
	char			*written;	/* the regular file this object created */
	char			*old;		/* FILE.old, while FILE's content is there */
	dev_t			dev;		/* and what @written is, so that */
	ino_t			ino;		/* nothing else is removed by its name */
	bool			emptied;	/* an empty FILE written in place */
};

/*
 * Opens @path ("-" for stdout) for writing, by @replace for a regular
 * file.  Returns 0, or -errno after saying what it could not do: the
 * path is then as it was.  A directory or a socket is refused (-EISDIR,
 * -EINVAL).
 */
int perfx_data__open_write(struct perfx_data *data, const char *path,
			   enum perfx_data_replace replace);
/* @path will get a pipe's stream once opened: "-" or a FIFO */
bool perfx_data__names_pipe(const char *path);
/* A pipe's stream goes there (stdout or a FIFO): no header to rewrite. */
bool perfx_data__is_pipe(const struct perfx_data *data);
/* The output can be read back from its start (a regular file). */
bool perfx_data__is_file(const struct perfx_data *data);
/* A second, read-only description of the output, for a walk over it. */
int perfx_data__open_read(const struct perfx_data *data);
/*
 * The output is complete: closes it, renames a temporary file over the
 * path; FILE.old stays.  Returns 0 or -errno (then as __discard()).
 */
int perfx_data__commit(struct perfx_data *data);
/*
 * Nothing is to be kept: removes the file this object created (if the
 * path is still that file), brings FILE.old back, empties an empty file
 * again.  A FIFO, a device or stdout is only closed.
 */
void perfx_data__discard(struct perfx_data *data);
/* What is written so far stays (a recording cut short): closes only. */
void perfx_data__keep(struct perfx_data *data);
/*
 * SIGHUP, SIGINT, SIGTERM and SIGPIPE discard @data's temporary file and
 * then kill as they would have: a command whose output is complete or
 * nothing, and that does not catch those itself.  One output at a time;
 * NULL turns it off.
 */
void perfx_data__discard_on_signals(struct perfx_data *data);

#endif /* __PERFX_PERF_DATA_H */
