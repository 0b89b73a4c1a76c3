// SPDX-License-Identifier: GPL-2.0
/*
 * /proc without stdio: a buffered line reader, and the parsers of the
 * lines perf's synthesis reads (maps, stat, status, kallsyms, modules,
 * mounts), all bounded by the length they are given.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "procfs.h"

#define PF_KTHREAD	0x00200000	/* include/linux/sched.h */

int procfs_reader__open(struct procfs_reader *r, int dirfd, const char *path,
			char *buf, size_t size)
{
	*r = (struct procfs_reader){ .buf = buf, .size = size };
	r->fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	return r->fd < 0 ? -errno : 0;
}

void procfs_reader__close(struct procfs_reader *r)
{
	if (r->fd >= 0)
		close(r->fd);
	r->fd = -1;
}

static int procfs_reader__fill(struct procfs_reader *r)
{
	ssize_t n;

	if (r->head) {
		memmove(r->buf, r->buf + r->head, r->tail - r->head);
		r->tail -= r->head;
		r->head = 0;
	}
	do {
		n = read(r->fd, r->buf + r->tail, r->size - r->tail);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (!n)
		r->eof = true;
	r->tail += n;
	return 0;
}

int procfs_reader__line(struct procfs_reader *r, const char **line, size_t *len)
{
	size_t scanned = 0;
	char *nl;
	int err;

	for (;;) {
		nl = memchr(r->buf + r->head + scanned, '\n', r->tail - r->head - scanned);
		if (nl || r->eof || r->tail - r->head == r->size)
			break;
		scanned = r->tail - r->head;
		err = procfs_reader__fill(r);
		if (err)
			return err;
	}
	*line = r->buf + r->head;
	*len = nl ? (size_t)(nl - *line) : r->tail - r->head;
	r->head += *len + !!nl;
	if (r->skip) {			/* the tail of a line cut before */
		r->skip = !nl && !r->eof;
		return procfs_reader__line(r, line, len);
	}
	if (!nl && !*len)
		return 0;
	r->skip = !nl && !r->eof;
	return 1;
}

ssize_t procfs__read_file(int dirfd, const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n = 0;
	int fd;

	fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += n;
		/*
		 * stat, status and comm are one seq_file record: a read that
		 * leaves room and ends a line has it all, saving the read(2)
		 * that would return 0
		 */
		if (len < size - 1 && buf[len - 1] == '\n')
			break;
	}
	if (n < 0)
		n = -errno;
	close(fd);
	buf[len] = '\0';
	return n < 0 ? n : (ssize_t)len;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Hex digits at *@p, then @sep: 0 or -EINVAL (none, too many, no @sep) */
static int get_hex(const char **p, const char *end, char sep, __u64 *v)
{
	const char *s = *p;
	int d;

	*v = 0;
	for (; s < end && (d = hexval(*s)) >= 0; s++) {
		if (*v >> 60)
			return -EINVAL;
		*v = *v << 4 | d;
	}
	if (s == *p || s == end || *s != sep)
		return -EINVAL;
	*p = s + 1;
	return 0;
}

static int get_dec(const char **p, const char *end, __u64 *v)
{
	const char *s = *p;

	*v = 0;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (*v > (~0ULL - 9) / 10)
			return -EINVAL;
		*v = *v * 10 + (*s - '0');
	}
	if (s == *p)
		return -EINVAL;
	*p = s;
	return 0;
}

static int get_flag(const char **p, const char *end, char set, __u32 bit, __u32 *v)
{
	if (*p == end || (**p != set && **p != '-'))
		return -EINVAL;
	if (*(*p)++ == set)
		*v |= bit;
	return 0;
}

int procfs__parse_map(const char *line, size_t len, struct procfs_map *m)
{
	const char *p = line, *end = line + len, *nul;
	__u64 maj, min;

	*m = (struct procfs_map){ .path = "" };
	if (get_hex(&p, end, '-', &m->start) || get_hex(&p, end, ' ', &m->end) ||
	    m->end < m->start ||
	    get_flag(&p, end, 'r', PROT_READ, &m->prot) ||
	    get_flag(&p, end, 'w', PROT_WRITE, &m->prot) ||
	    get_flag(&p, end, 'x', PROT_EXEC, &m->prot) || p == end)
		return -EINVAL;
	if (*p == 's')
		m->flags = MAP_SHARED;
	else if (*p == 'p')
		m->flags = MAP_PRIVATE;
	else
		return -EINVAL;
	p++;
	if (p == end || *p++ != ' ' || get_hex(&p, end, ' ', &m->pgoff) ||
	    get_hex(&p, end, ':', &maj) || get_hex(&p, end, ' ', &min) ||
	    maj > ~0U || min > ~0U || get_dec(&p, end, &m->ino))
		return -EINVAL;
	m->maj = maj;
	m->min = min;
	if (p == end)
		return 0;
	if (*p != ' ')
		return -EINVAL;
	while (p < end && *p == ' ')
		p++;
	/* as perf, the name ends at a NUL too */
	nul = memchr(p, '\0', end - p);
	m->path = p;
	m->path_len = (nul ? nul : end) - p;
	return 0;
}

/* perf's skip_spaces(): isspace() without the locale */
static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

void procfs__comm(char *dst, const char *raw, size_t len)
{
	size_t i, n = 0;
	bool lead = true;

	for (i = 0; i < len && n < PROCFS_COMM_LEN - 1; i++) {
		char c = raw[i], esc = c == '\n' ? 'n' : c == '\\' ? '\\' : 0;

		if (lead && is_space(c) && c != '\n')
			continue;
		lead = false;
		if (!esc) {
			dst[n++] = c;
			continue;
		}
		dst[n++] = '\\';
		if (n < PROCFS_COMM_LEN - 1)
			dst[n++] = esc;
	}
	dst[n] = '\0';
}

/* a decimal as atoi() reads one: blanks, a sign, digits; 0 for none */
static int get_int(const char *p, const char *end)
{
	long v = 0;
	int neg = 0;

	while (p < end && is_space(*p))
		p++;
	if (p < end && (*p == '-' || *p == '+'))
		neg = *p++ == '-';
	for (; p < end && *p >= '0' && *p <= '9' && v < 1L << 32; p++)
		v = v * 10 + (*p - '0');
	return (int)(neg ? -v : v);
}

static const char *find(const char *from, const char *end, const char *what)
{
	return memmem(from, end - from, what, strlen(what));
}

int procfs__parse_status(const char *buf, size_t len, struct procfs_task *t)
{
	const char *end = buf + len, *name, *tgid, *ppid, *vmpeak, *threads = NULL;

	name = find(buf, end, "Name:");
	tgid = find(name ?: buf, end, "Tgid:");
	ppid = find(tgid ?: buf, end, "PPid:");
	vmpeak = find(ppid ?: buf, end, "VmPeak:");
	if (!vmpeak)
		threads = find(ppid ?: buf, end, "Threads:");
	*t = (struct procfs_task){ .tgid = -1, .ppid = -1, .kernel = !vmpeak && threads };
	if (name) {
		const char *s = name + 5;

		while (s < end && is_space(*s))
			s++;
		/* already escaped: only cut, at the line's end or a NUL as perf */
		for (len = 0; s + len < end && s[len] != '\n' && s[len] &&
			      len < PROCFS_COMM_LEN - 1; len++)
			t->comm[len] = s[len];
		t->comm[len] = '\0';
	}
	if (tgid)
		t->tgid = get_int(tgid + 5, end);
	if (ppid)
		t->ppid = get_int(ppid + 5, end);
	if (threads)
		t->nr_threads = get_int(threads + 8, end);
	return t->tgid < 0 ? -EINVAL : 0;
}

int procfs__parse_stat(const char *buf, size_t len, struct procfs_task *t)
{
	const char *end = buf + len, *open = memchr(buf, '(', len), *close = NULL, *p;
	__u64 v, flags = 0;
	int field;

	for (p = end; p > buf; p--)
		if (p[-1] == ')') {
			close = p - 1;
			break;
		}
	if (!open || !close || close < open || end - close < 4 || close[1] != ' ')
		return -EINVAL;
	*t = (struct procfs_task){ .tgid = -1, .ppid = -1 };
	procfs__comm(t->comm, open + 1, close - open - 1);
	/* from field 3 (the state) on, one blank apart */
	p = close + 2;
	for (field = 3; field <= 20; field++) {
		if (field > 3 && (p == end || *p++ != ' '))
			return -EINVAL;
		if (field == 3) {
			p++;
			continue;
		}
		if (p < end && *p == '-')
			p++;
		if (get_dec(&p, end, &v))
			return -EINVAL;
		if (field == 4)
			t->ppid = v > 0x7fffffff ? -1 : (int)v;
		else if (field == 9)
			flags = v;
		else if (field == 20)
			t->nr_threads = v > 0x7fffffff ? 0 : (int)v;
	}
	t->kernel = flags & PF_KTHREAD;
	return 0;
}

int procfs__parse_kallsyms(const char *line, size_t len, __u64 *addr, char *type,
			   const char **name, size_t *name_len)
{
	const char *p = line, *end = line + len;

	if (get_hex(&p, end, ' ', addr) || end - p < 2 || p[1] != ' ')
		return -EINVAL;
	*type = p[0];
	*name = p + 2;
	*name_len = end - *name;
	return 0;
}

int procfs__parse_module(const char *line, size_t len, const char **name,
			 size_t *name_len, __u64 *start, __u64 *size)
{
	const char *end = line + len, *x = NULL, *sp = memchr(line, ' ', len), *p;
	int d;

	/* perf's modules__parse(): the address follows the last 'x' */
	for (p = line; p < end; p++)
		if (*p == 'x')
			x = p;
	if (!x || !sp)
		return -EINVAL;
	for (*start = 0, p = x + 1; p < end && (d = hexval(*p)) >= 0; p++)
		*start = *start << 4 | d;
	p = sp + 1;
	if (p < end && p[0] == '0' && p + 1 < end && (p[1] == 'x' || p[1] == 'X')) {
		for (*size = 0, p += 2; p < end && (d = hexval(*p)) >= 0; p++)
			*size = *size << 4 | d;
	} else if (get_dec(&p, end, size)) {
		return -EINVAL;
	}
	if (p == end || (*p != ' ' && *p != '\t'))
		return -EINVAL;
	*name = line;
	*name_len = sp - line;
	return 0;
}

int procfs__parse_mount(const char *line, size_t len, const char **dir, size_t *dir_len,
			const char **type, size_t *type_len)
{
	const char *end = line + len, *p = memchr(line, ' ', len), *q;

	if (!p)
		return -EINVAL;
	*dir = ++p;
	q = memchr(p, ' ', end - p);
	if (!q)
		return -EINVAL;
	*dir_len = q - p;
	*type = ++q;
	p = memchr(q, ' ', end - q);
	*type_len = (p ?: end) - q;
	return 0;
}
