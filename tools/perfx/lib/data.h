/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_DATA_H
#define __PERFX_DATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * Buffered perf.data I/O for files and pipes.  Both move data in blocks
 * far larger than a record (a record's size is a u16, so at most 64 KiB):
 * no syscall per record, and every record the reader returns lies whole in
 * its buffer, where it is parsed in place.
 */
#define PERFX_DATA_BLOCK	(256 * 1024)
/* what the reader and the writer ask of a pipe's buffer (fs.pipe-max-size's default) */
#define PERFX_PIPE_SIZE		(1024 * 1024)

struct perfx_reader {
	int		fd;
	const char	*name;		/* for errors: the input's name */
	char		*buf;
	void		*scratch;	/* a record at an odd address */
	size_t		head;		/* next unread byte in buf */
	size_t		tail;		/* end of the valid bytes in buf */
	__u64		pos;		/* stream offset of buf[head] */
	__u64		end;		/* stream offset where the records end */
	bool		eof;
};

int perfx_reader__init(struct perfx_reader *r, int fd, const char *name);
void perfx_reader__exit(struct perfx_reader *r);
/*
 * Makes @len bytes at the current position available at *@p without
 * consuming them.  Returns 0, -ENODATA if the input ends first (*@avail
 * then says how many bytes there are), or the -errno of read(2).
 */
int perfx_reader__peek(struct perfx_reader *r, size_t len, const void **p, size_t *avail);
void perfx_reader__skip(struct perfx_reader *r, size_t len);
/* Reads records from @pos (lseek) up to @end only. */
int perfx_reader__seek(struct perfx_reader *r, __u64 pos, __u64 end);
/*
 * The next record, checked against the header's size rules and what is
 * left of the input; *@pos is its stream offset.  Returns 1 with a
 * record, 0 at the end, or -errno after reporting what is wrong and where.
 */
int perfx_reader__next(struct perfx_reader *r, const struct perf_event_header **ev,
		       __u64 *pos);

struct perfx_writer {
	int		fd;
	const char	*name;
	char		*buf;
	size_t		len;		/* bytes waiting in buf */
	__u64		pos;		/* stream offset of the next byte */
	bool		offsets;	/* flushes pwrite() at their stream offsets */
	__u64		write_ns;	/* time spent in write(2) and pwrite(2) */
};

int perfx_writer__init(struct perfx_writer *w, int fd, const char *name);
/*
 * From now on the writer writes at its stream offsets (pwrite), not at
 * the file's position, so that other writers can fill ranges of the
 * stream it skips: a regular file only.
 */
void perfx_writer__use_offsets(struct perfx_writer *w);
/*
 * Skips @len bytes of the stream for another writer to fill (perf record
 * --aio writes ring data asynchronously there), after flushing what is
 * buffered.  Returns 0 with the range's offset in *@off, or -errno.
 */
int perfx_writer__reserve(struct perfx_writer *w, size_t len, __u64 *off);
/* Frees the buffer; whatever was not flushed is dropped. */
void perfx_writer__exit(struct perfx_writer *w);
int perfx_writer__write(struct perfx_writer *w, const void *p, size_t len);
int perfx_writer__flush(struct perfx_writer *w);
/* Overwrites bytes already flushed, e.g. the file header at the end. */
int perfx_writer__pwrite(struct perfx_writer *w, const void *p, size_t len, __u64 pos);

/* "EINVAL" for -EINVAL: the errno name errors end with */
const char *perfx__errname(int err);
/* "SAMPLE" for 9, "HEADER_ATTR" for 64; "unknown" for what it does not know */
const char *perfx_record__name(__u32 type);

#endif /* __PERFX_DATA_H */
