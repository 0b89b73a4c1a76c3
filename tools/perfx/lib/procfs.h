/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_PROCFS_H
#define __PERFX_PROCFS_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Reading /proc files without stdio: one read(2) per buffer of the
 * caller's, lines handed out in place.  A seq_file read returns at most
 * a page or so, so files are read until read(2) returns 0.
 */
struct procfs_reader {
	int	fd;
	char	*buf;
	size_t	size;
	size_t	head;		/* next unread byte */
	size_t	tail;		/* end of the bytes read */
	bool	eof;
	bool	skip;		/* dropping the rest of a line longer than buf */
};

/* Opens @path relative to @dirfd; -errno of openat(2) */
int procfs_reader__open(struct procfs_reader *r, int dirfd, const char *path,
			char *buf, size_t size);
void procfs_reader__close(struct procfs_reader *r);
/*
 * The next line without its '\n' at *@line (not NUL-terminated; a line
 * longer than the buffer is cut to its first bytes).  Returns 1, 0 at the
 * end, or the -errno of read(2).
 */
int procfs_reader__line(struct procfs_reader *r, const char **line, size_t *len);
/*
 * A whole small file into @buf (at most @size - 1 bytes, NUL-terminated):
 * its length, or -errno.  For the one-record files of /proc (stat,
 * status, comm): a read that ends a line and leaves room ends the file.
 */
ssize_t procfs__read_file(int dirfd, const char *path, char *buf, size_t size);

/* perf's comm: TASK_COMM_LEN with its NUL */
#define PROCFS_COMM_LEN		16

/* One line of /proc/PID/maps */
struct procfs_map {
	__u64		start;
	__u64		end;
	__u64		pgoff;
	__u64		ino;
	__u32		maj;
	__u32		min;
	__u32		prot;		/* PROT_READ | PROT_WRITE | PROT_EXEC */
	__u32		flags;		/* MAP_SHARED or MAP_PRIVATE */
	const char	*path;		/* in the line; "" for none */
	size_t		path_len;
};

/* "start-end rwxp pgoff maj:min inode   path": 0 or -EINVAL */
int procfs__parse_map(const char *line, size_t len, struct procfs_map *m);

/* What perf takes from a task's status file, or from stat and comm */
struct procfs_task {
	char	comm[PROCFS_COMM_LEN];	/* as status' Name: shows it, cut */
	int	tgid;
	int	ppid;
	int	nr_threads;
	bool	kernel;			/* no mm: nothing in its maps */
};

/*
 * /proc/PID/status as perf reads it: Name:, then Tgid:, PPid:, and a
 * kernel thread is one with Threads: but no VmPeak:.  0 or -EINVAL when
 * there is no Name: or Tgid:.
 */
int procfs__parse_status(const char *buf, size_t len, struct procfs_task *t);
/*
 * /proc/PID/stat: comm (put as status shows it), ppid, flags
 * (PF_KTHREAD), num_threads; tgid is not in it.  0 or -EINVAL.
 */
int procfs__parse_stat(const char *buf, size_t len, struct procfs_task *t);
/*
 * A raw comm (/proc/.../comm, stat's) as status' Name: shows it and perf
 * keeps it: '\n' and '\\' escaped, leading blanks dropped (perf's
 * skip_spaces()), cut to PROCFS_COMM_LEN - 1 bytes.
 */
void procfs__comm(char *dst, const char *raw, size_t len);

/* "ffffffff81000000 T _text": 0 or -EINVAL; *name is in the line */
int procfs__parse_kallsyms(const char *line, size_t len, __u64 *addr, char *type,
			   const char **name, size_t *name_len);
/* "name size refcnt deps state 0xaddr": 0 or -EINVAL; *name is in the line */
int procfs__parse_module(const char *line, size_t len, const char **name,
			 size_t *name_len, __u64 *start, __u64 *size);
/* "dev dir type opts 0 0": the mount point and type, in the line */
int procfs__parse_mount(const char *line, size_t len, const char **dir, size_t *dir_len,
			const char **type, size_t *type_len);

#endif /* __PERFX_PROCFS_H */
