// SPDX-License-Identifier: GPL-2.0
/*
 * The buffered reader and writer of perf.data files and pipes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data.h"
#include "debug.h"

static const char * const record_names[] = {
	[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST",
	[PERF_RECORD_COMM] = "COMM", [PERF_RECORD_EXIT] = "EXIT",
	[PERF_RECORD_THROTTLE] = "THROTTLE", [PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE",
	[PERF_RECORD_FORK] = "FORK", [PERF_RECORD_READ] = "READ",
	[PERF_RECORD_SAMPLE] = "SAMPLE", [PERF_RECORD_MMAP2] = "MMAP2",
	[PERF_RECORD_AUX] = "AUX", [PERF_RECORD_ITRACE_START] = "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES", [PERF_RECORD_SWITCH] = "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES] = "NAMESPACES", [PERF_RECORD_KSYMBOL] = "KSYMBOL",
	[PERF_RECORD_BPF_EVENT] = "BPF_EVENT", [PERF_RECORD_CGROUP] = "CGROUP",
	[PERF_RECORD_TEXT_POKE] = "TEXT_POKE", [PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[64] = "HEADER_ATTR", [65] = "HEADER_EVENT_TYPE", [66] = "HEADER_TRACING_DATA",
	[67] = "HEADER_BUILD_ID", [68] = "FINISHED_ROUND", [69] = "ID_INDEX",
	[70] = "AUXTRACE_INFO", [71] = "AUXTRACE", [72] = "AUXTRACE_ERROR",
	[73] = "THREAD_MAP", [74] = "CPU_MAP", [75] = "STAT_CONFIG", [76] = "STAT",
	[77] = "STAT_ROUND", [78] = "EVENT_UPDATE", [79] = "TIME_CONV",
	[80] = "HEADER_FEATURE", [81] = "COMPRESSED", [82] = "FINISHED_INIT",
};

const char *perfx_record__name(__u32 type)
{
	if (type < ARRAY_SIZE(record_names) && record_names[type])
		return record_names[type];
	return "unknown";
}

const char *perfx__errname(int err)
{
	const char *name = strerrorname_np(err < 0 ? -err : err);

	return name ? name : "?";
}

/*
 * A pipe's buffer of PERFX_PIPE_SIZE rather than the default 16 pages:
 * the other end then moves up to that much per wakeup, and at the rates
 * of a stream the wakeups are most of what a pipe costs.  Best effort:
 * fs.pipe-max-size and the user's pipe quota may refuse it, and a pipe
 * made larger elsewhere is left alone.
 */
static void pipe__grow(int fd)
{
	struct stat st;

	if (!fstat(fd, &st) && S_ISFIFO(st.st_mode) &&
	    fcntl(fd, F_GETPIPE_SZ) < PERFX_PIPE_SIZE &&
	    fcntl(fd, F_SETPIPE_SZ, PERFX_PIPE_SIZE) < 0)
		fcntl(fd, F_SETPIPE_SZ, PERFX_DATA_BLOCK);
}

/*
 * A block's buffer, its pages faulted in by one mmap(2): touched page by
 * page they cost a fault each, which is most of what a short stream costs
 */
static char *block__alloc(void)
{
	void *p = mmap(NULL, PERFX_DATA_BLOCK, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void block__free(char *p)
{
	if (p)
		munmap(p, PERFX_DATA_BLOCK);
}

int perfx_reader__init(struct perfx_reader *r, int fd, const char *name)
{
	*r = (struct perfx_reader){ .fd = fd, .name = name, .end = ~0ULL };
	pipe__grow(fd);
	r->buf = block__alloc();
	return r->buf ? 0 : -ENOMEM;
}

void perfx_reader__exit(struct perfx_reader *r)
{
	block__free(r->buf);
	free(r->scratch);
	r->buf = r->scratch = NULL;
}

/* Moves the unread bytes to the front and reads until @len are there. */
static int perfx_reader__fill(struct perfx_reader *r, size_t len)
{
	size_t have = r->tail - r->head;

	if (r->head) {
		memmove(r->buf, r->buf + r->head, have);
		r->head = 0;
		r->tail = have;
	}
	while (r->tail < len && !r->eof) {
		__u64 left = r->end - (r->pos + r->tail);
		size_t room = PERFX_DATA_BLOCK - r->tail;
		ssize_t n;

		if (room > left)
			room = left;
		if (!room) {
			r->eof = true;
			break;
		}
		n = read(r->fd, r->buf + r->tail, room);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			r->eof = true;
		r->tail += n;
	}
	return 0;
}

int perfx_reader__peek(struct perfx_reader *r, size_t len, const void **p, size_t *avail)
{
	int err;

	if (len > PERFX_DATA_BLOCK)
		return -E2BIG;
	if (r->tail - r->head < len) {
		err = perfx_reader__fill(r, len);
		if (err) {
			pr_err("%s: reading at byte offset %llu: %s (%s)\n", r->name,
			       (unsigned long long)(r->pos + r->tail - r->head),
			       strerror(-err), perfx__errname(err));
			return err;
		}
	}
	*avail = r->tail - r->head;
	if (*avail < len)
		return -ENODATA;
	*p = r->buf + r->head;
	return 0;
}

void perfx_reader__skip(struct perfx_reader *r, size_t len)
{
	r->head += len;
	r->pos += len;
}

int perfx_reader__seek(struct perfx_reader *r, __u64 pos, __u64 end)
{
	if (lseek(r->fd, pos, SEEK_SET) == (off_t)-1)
		return -errno;
	r->head = r->tail = 0;
	r->pos = pos;
	r->end = end;
	r->eof = false;
	return 0;
}

/*
 * perf writes records of any size that is a multiple of 4 (its build-id
 * records are 100 bytes), so their headers are 4-byte aligned and their
 * u64 fields are read with memcpy.  A record at an odd address (garbage,
 * or a tool that writes odd sizes) is copied to be read safely.
 */
static const struct perf_event_header *perfx_reader__aligned(struct perfx_reader *r,
							      const void *p, size_t size)
{
	if (!((unsigned long)p & 3))
		return p;
	if (!r->scratch) {
		r->scratch = malloc(0x10000);
		if (!r->scratch)
			return NULL;
	}
	memcpy(r->scratch, p, size);
	return r->scratch;
}

int perfx_reader__next(struct perfx_reader *r, const struct perf_event_header **ev,
		       __u64 *pos)
{
	const char *head = r->buf + r->head;
	size_t avail = r->tail - r->head;
	struct perf_event_header h;
	const void *p;
	int err;

	*pos = r->pos;
	/* most records: whole in the buffer, aligned, a sane size */
	if (avail >= sizeof(h) && !((unsigned long)head & 3)) {
		memcpy(&h, head, sizeof(h));
		if (h.size >= sizeof(h) && h.size <= avail) {
			*ev = (const struct perf_event_header *)head;
			perfx_reader__skip(r, h.size);
			return 1;
		}
	}
	err = perfx_reader__peek(r, sizeof(h), &p, &avail);
	if (err == -ENODATA && !avail)
		return 0;
	if (err == -ENODATA) {
		pr_err("%s: byte offset %llu: truncated record header: %zu of %zu bytes (EINVAL)\n",
		       r->name, (unsigned long long)*pos, avail, sizeof(h));
		return -EINVAL;
	}
	if (err)
		return err;
	memcpy(&h, p, sizeof(h));
	if (h.size < sizeof(h)) {
		pr_err("%s: byte offset %llu: %s record (type %u) of size %u: less than its %zu-byte header (EINVAL)\n",
		       r->name, (unsigned long long)*pos, perfx_record__name(h.type),
		       h.type, h.size, sizeof(h));
		return -EINVAL;
	}
	err = perfx_reader__peek(r, h.size, &p, &avail);
	if (err == -ENODATA) {
		pr_err("%s: byte offset %llu: truncated %s record (type %u): size %u, %zu bytes left (EINVAL)\n",
		       r->name, (unsigned long long)*pos, perfx_record__name(h.type),
		       h.type, h.size, avail);
		return -EINVAL;
	}
	if (err)
		return err;
	*ev = perfx_reader__aligned(r, p, h.size);
	if (!*ev)
		return -ENOMEM;
	perfx_reader__skip(r, h.size);
	return 1;
}

int perfx_writer__init(struct perfx_writer *w, int fd, const char *name)
{
	*w = (struct perfx_writer){ .fd = fd, .name = name };
	pipe__grow(fd);
	w->buf = block__alloc();
	return w->buf ? 0 : -ENOMEM;
}

void perfx_writer__exit(struct perfx_writer *w)
{
	block__free(w->buf);
	w->buf = NULL;
}

static int perfx_writer__error(struct perfx_writer *w, int err)
{
	pr_err("%s: write failed: %s (%s)\n", w->name, strerror(-err), perfx__errname(err));
	return err;
}

/* @len bytes at stream offset @pos: at the file's position, or at @pos */
static int perfx_writer__out(struct perfx_writer *w, const char *p, size_t len, __u64 pos)
{
	__u64 start = perfx__now_ns();
	int err = 0;

	while (len) {
		ssize_t n = w->offsets ? pwrite(w->fd, p, len, pos) : write(w->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n ? -errno : -EIO;
			break;
		}
		p += n;
		len -= n;
		pos += n;
	}
	w->write_ns += perfx__now_ns() - start;
	return err ? perfx_writer__error(w, err) : 0;
}

int perfx_writer__flush(struct perfx_writer *w)
{
	int err = perfx_writer__out(w, w->buf, w->len, w->pos - w->len);

	if (!err)
		w->len = 0;
	return err;
}

int perfx_writer__write(struct perfx_writer *w, const void *p, size_t len)
{
	int err;

	if (w->len + len > PERFX_DATA_BLOCK) {
		err = perfx_writer__flush(w);
		if (err)
			return err;
	}
	w->pos += len;
	if (len > PERFX_DATA_BLOCK)
		return perfx_writer__out(w, p, len, w->pos - len);
	memcpy(w->buf + w->len, p, len);
	w->len += len;
	return 0;
}

void perfx_writer__use_offsets(struct perfx_writer *w)
{
	w->offsets = true;
}

int perfx_writer__reserve(struct perfx_writer *w, size_t len, __u64 *off)
{
	int err = w->len ? perfx_writer__flush(w) : 0;

	if (err)
		return err;
	*off = w->pos;
	w->pos += len;
	return 0;
}

int perfx_writer__pwrite(struct perfx_writer *w, const void *p, size_t len, __u64 pos)
{
	ssize_t n;

	n = pwrite(w->fd, p, len, pos);
	if (n == (ssize_t)len)
		return 0;
	return perfx_writer__error(w, n < 0 ? -errno : -EIO);
}
