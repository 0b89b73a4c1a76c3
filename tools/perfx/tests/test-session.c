// SPDX-License-Identifier: GPL-2.0
/*
 * Proves that the perf.data reader takes files and pipes, records split
 * across its blocks and at odd addresses, and rejects every malformed
 * input with an error naming the byte offset and the record, and its
 * errno; then that a few thousand random mutations of valid streams end
 * in a record or an error, never in a crash (ASan/UBSan build).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/data.h"
#include "lib/debug.h"
#include "lib/header.h"
#include "lib/session.h"
#include "tests/stream.h"
#include "tests/tap.h"

static char errbuf[4096];

static int capture(enum perfx_print_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(errbuf);

	(void)level;
	return vsnprintf(errbuf + len, sizeof(errbuf) - len, fmt, ap);
}

static const __u64 sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;

static void put_attr(struct buf *b)
{
	struct {
		struct perf_event_attr attr;
		__u64 id;
	} a = { .attr = { .size = sizeof(a.attr), .sample_type = sample_type }, .id = 7 };

	put_rec(b, PERF_RECORD_HEADER_ATTR, 0, &a, sizeof(a));
}

static void put_sample(struct buf *b, __u64 ip)
{
	__u64 s[3] = { ip, 42ULL << 32 | 42, 1000 };

	put_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, s, sizeof(s));
}

/* a pipe stream: header, attr, @n samples */
static struct buf pipe_stream(int n)
{
	struct perf_pipe_file_header ph = { PERF_MAGIC2, sizeof(ph) };
	struct buf b = { NULL, 0, 0 };
	int i;

	put(&b, &ph, sizeof(ph));
	put_attr(&b);
	for (i = 0; i < n; i++)
		put_sample(&b, 0x1000 + i);
	return b;
}

static char dir[PATH_MAX], path[PATH_MAX + 16];

static int write_file(const void *p, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || write(fd, p, len) != (ssize_t)len)
		abort();
	close(fd);
	return open(path, O_RDONLY);
}

/* Reads all of @fd: its -errno (0 at a clean end) and the record count. */
static int read_all(int fd, int *nr, __u64 *ip_sum)
{
	const struct perf_event_header *ev;
	struct perfx_session s;
	struct perfx_sample sample;
	__u64 pos;
	int ret;

	errbuf[0] = '\0';
	*nr = 0;
	*ip_sum = 0;
	ret = perfx_session__open(&s, fd, "in");
	if (ret)
		return ret;
	while ((ret = perfx_session__next(&s, &ev, &pos)) > 0) {
		(*nr)++;
		if (ev->type != PERF_RECORD_SAMPLE)
			continue;
		ret = perfx_session__parse_sample(&s, ev, pos, &sample);
		if (ret)
			break;
		*ip_sum += sample.ip;
	}
	perfx_session__close(&s);
	return ret;
}

/* @data as a file must fail with @err and exactly @msg */
static void expect_error(const void *data, size_t len, int err, const char *msg,
			 const char *what)
{
	int fd = write_file(data, len), nr, ret;
	__u64 sum;

	ret = read_all(fd, &nr, &sum);
	close(fd);
	tap_ok(ret == err, "%s: %s (got %d, want %d)", what, perfx__errname(err), ret, err);
	tap_str_eq(errbuf, msg, what);
}

static void test_pipe_ok(void)
{
	struct buf b = pipe_stream(20000);	/* 640 KB: records split across blocks */
	int fd = write_file(b.p, b.len), nr, ret;
	__u64 sum, want = 0;
	int i;

	for (i = 0; i < 20000; i++)
		want += 0x1000 + i;
	ret = read_all(fd, &nr, &sum);
	close(fd);
	tap_ok(!ret && nr == 20001 && sum == want,
	       "a 640 KB pipe stream in a file: every record, in place (ret %d, %d records)", ret, nr);
	free(b.p);
}

/* a real pipe written in 1000-byte pieces: short reads and split records */
static void test_real_pipe(void)
{
	struct buf b = pipe_stream(20000);
	int p[2], nr, ret, st;
	size_t off;
	pid_t pid;
	__u64 sum;

	if (pipe(p))
		abort();
	pid = fork();
	if (!pid) {
		close(p[0]);
		for (off = 0; off < b.len; off += 1000)
			if (write(p[1], b.p + off, b.len - off < 1000 ? b.len - off : 1000) < 0)
				_exit(1);
		_exit(0);
	}
	close(p[1]);
	ret = read_all(p[0], &nr, &sum);
	close(p[0]);
	waitpid(pid, &st, 0);
	tap_ok(!ret && nr == 20001, "a real pipe fed in 1000-byte writes (ret %d, %d records)",
	       ret, nr);
	free(b.p);
}

static void test_pipe_errors(void)
{
	struct buf b = pipe_stream(1);
	__u64 swapped[2] = { __builtin_bswap64(PERF_MAGIC2), __builtin_bswap64(16) };
	char odd[64];
	struct perf_event_header h;
	size_t good = b.len;
	__u64 feat[2] = { 0, 40 };

	expect_error("", 0, -EINVAL,
		     "in: byte offset 0: truncated header: 0 of 16 bytes (EINVAL)\n",
		     "empty input");
	expect_error(swapped, sizeof(swapped), -EOPNOTSUPP,
		     "in: byte offset 0: a big-endian perf.data (its magic is \"PERFILE2\" byte-swapped): perfx reads only little-endian ones, this machine's byte order (EOPNOTSUPP)\n",
		     "the other byte order");
	expect_error("PERFFILEPERFFILE", 16, -EINVAL,
		     "in: byte offset 0: not a perf.data file: magic 0x454c494646524550, expected 0x32454c4946524550 \"PERFILE2\" (EINVAL)\n",
		     "bad magic");
	put(&b, "\x09\0\0\0\0", 5);
	expect_error(b.p, b.len, -EINVAL,
		     "in: byte offset 192: truncated record header: 5 of 8 bytes (EINVAL)\n",
		     "a truncated record header");
	b.len = good;
	h = (struct perf_event_header){ PERF_RECORD_SAMPLE, 0, 0 };
	put(&b, &h, sizeof(h));
	expect_error(b.p, b.len, -EINVAL,
		     "in: byte offset 192: SAMPLE record (type 9) of size 0: less than its 8-byte header (EINVAL)\n",
		     "a record of size 0");
	b.len = good;
	h.size = 100;
	put(&b, &h, sizeof(h));
	put(&b, odd, 20);
	expect_error(b.p, b.len, -EINVAL,
		     "in: byte offset 192: truncated SAMPLE record (type 9): size 100, 28 bytes left (EINVAL)\n",
		     "a record past the end");
	b.len = good;
	put_rec(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, feat, 12);
	expect_error(b.p, b.len, -EINVAL,
		     "in: byte offset 192: SAMPLE record of size 20: too small for sample_type 0x7 (EINVAL)\n",
		     "a sample too small for its sample_type");
	b.len = 16;
	put_sample(&b, 0x1000);
	expect_error(b.p, b.len, -EINVAL,
		     "in: byte offset 16: SAMPLE record before any attr (EINVAL)\n",
		     "a sample before any attr");
	b.len = 16;
	put_rec(&b, PERF_RECORD_HEADER_ATTR, 0, feat, 16);
	expect_error(b.p, b.len, -EINVAL,
		     "in: byte offset 16: HEADER_ATTR record of size 24: too small for an attr of at least 64 bytes (EINVAL)\n",
		     "an attr record too small");
	b.len = 16;
	put_attr(&b);
	memcpy(b.p + 16 + 8 + offsetof(struct perf_event_attr, size), "\x08\0\0\0", 4);
	expect_error(b.p, b.len, -EINVAL,
		     "in: byte offset 16: HEADER_ATTR record of size 144: cannot read an attr.size of 8 (EINVAL)\n",
		     "an attr.size of 8 in a pipe");
	free(b.p);
}

/* a record of odd size puts the next at an odd address: still read safely */
static void test_odd_sizes(void)
{
	struct buf b = pipe_stream(0);
	int fd, nr, ret;
	__u64 sum;

	put_rec(&b, 99, 0, "abcde", 5);
	put_sample(&b, 0x1234);
	fd = write_file(b.p, b.len);
	ret = read_all(fd, &nr, &sum);
	close(fd);
	tap_ok(!ret && nr == 3 && sum == 0x1234,
	       "an unknown record of size 13, then a sample at an odd address (ret %d, %d records)", ret, nr);
	free(b.p);
}

/* @h written as a file (@pipe: a pipe with HEADER_ATTRs), then @data's records */
static struct buf write_header(struct perfx_header *h, bool pipe, const struct buf *data)
{
	size_t len = data ? data->len : 0;
	struct buf out = { NULL, 0, 0 };
	struct perfx_writer w;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0 || perfx_writer__init(&w, fd, "out") ||
	    (pipe ? perfx_header__write_pipe(h, &w, true) :
		    perfx_header__write_file_start(h, &w)) ||
	    (len && perfx_writer__write(&w, data->p, len)) ||
	    (pipe ? perfx_writer__flush(&w) : perfx_header__write_file_finish(h, &w, len)))
		abort();
	out.len = w.pos;
	out.p = malloc(out.len);
	if (!out.p || pread(fd, out.p, out.len, 0) != (ssize_t)out.len)
		abort();
	close(fd);
	perfx_writer__exit(&w);
	return out;
}

/* A file-mode perf.data through the writer: header, 1 attr, data, a feature. */
static struct buf file_stream(void)
{
	struct perfx_header h = { 0 };
	struct perfx_attr_init {
		struct perf_event_attr attr;
	} a = { { .size = sizeof(a.attr), .sample_type = sample_type } };
	struct buf data = { NULL, 0, 0 }, out;
	__u64 id = 7;

	put_sample(&data, 0x4000);
	put_sample(&data, 0x5000);
	if (perfx_header__add_attr(&h, &a, sizeof(a), &id, 1) ||
	    perfx_header__set_feature(&h, 3, "host\0\0\0\0", 8))
		abort();
	out = write_header(&h, false, &data);
	perfx_header__exit(&h);
	free(data.p);
	return out;
}

static void test_file(void)
{
	struct buf f = file_stream();
	struct perf_file_header fh;
	char *bad = malloc(f.len);
	int fd, nr, ret;
	__u64 sum;

	fd = write_file(f.p, f.len);
	ret = read_all(fd, &nr, &sum);
	close(fd);
	tap_ok(!ret && nr == 2 && sum == 0x9000, "a file written by the writer reads back (ret %d, %d records)",
	       ret, nr);
	memcpy(&fh, f.p, sizeof(fh));

#define MUTATE(field, val) do {						\
		struct perf_file_header m = fh;				\
		m.field = (val);					\
		memcpy(bad, f.p, f.len);				\
		memcpy(bad, &m, sizeof(m));				\
	} while (0)

	MUTATE(attr_size, 8);
	expect_error(bad, f.len, -EINVAL,
		     "in: byte offset 16: attr_size 8: cannot read attrs of that size, expected 80..4112 (EINVAL)\n",
		     "an attr size it cannot read");
	MUTATE(data.offset, fh.attrs.offset);
	expect_error(bad, f.len, -EINVAL,
		     "in: byte offset 112: sections overlap: attrs section [112, +144) and data section [112, +64) (EINVAL)\n",
		     "overlapping sections");
	MUTATE(data.size, 1 << 20);
	expect_error(bad, f.len, -EINVAL,
		     "in: byte offset 256: data section [256, +1048576) ends past the end of the file (344 bytes) (EINVAL)\n",
		     "a data section past the end");
	expect_error(f.p, 50, -EINVAL,
		     "in: byte offset 50: truncated file header: 50 of 104 bytes (EINVAL)\n",
		     "a truncated file header");
	/* found by the fuzzer: an attr.size below the first ABI's 64 bytes */
	memcpy(bad, f.p, f.len);
	memcpy(bad + fh.attrs.offset + offsetof(struct perf_event_attr, size), "\x08\0\0\0", 4);
	expect_error(bad, f.len, -EINVAL,
		     "in: byte offset 112: attr 0: attr.size 8: less than 64 bytes or more than the file's attr_size 144 allows (EINVAL)\n",
		     "an attr.size of 8 in a file");
	free(bad);
	free(f.p);
}

/* The features of @fd's header: 0 and *@h filled, or -errno. */
static int read_header(int fd, struct perfx_header *h)
{
	const struct perf_event_header *ev;
	struct perfx_session s;
	__u64 pos;
	int ret;

	errbuf[0] = '\0';
	memset(h, 0, sizeof(*h));
	ret = perfx_session__open(&s, fd, "in");
	if (ret)
		return ret;
	while ((ret = perfx_session__next(&s, &ev, &pos)) > 0)
		;
	*h = s.header;
	memset(&s.header, 0, sizeof(s.header));
	perfx_session__close(&s);
	return ret;
}

static bool has_host(const struct perfx_header *h)
{
	return h->feat_size[3] == 8 && !memcmp(h->feat[3], "host\0\0\0\0", 8);
}

/*
 * A later perf's header: bits 0 (reserved), 3 (HOSTNAME), 40 and 255 set,
 * a section each in the table; only HOSTNAME is read.
 */
static void test_later_features(void)
{
	struct buf f = file_stream(), g = { NULL, 0, 0 };
	static const char *bodies[] = { "zero", "host\0\0\0\0", "forty!", "last" };
	static const size_t sizes[] = { 4, 8, 6, 4 };
	struct perf_file_section table[4];
	struct perf_file_header fh;
	struct perfx_header h;
	__u64 pos;
	int i, fd, ret;

	memcpy(&fh, f.p, sizeof(fh));
	fh.adds_features[0] = 1ULL << 0 | 1ULL << 3 | 1ULL << 40;
	fh.adds_features[3] = 1ULL << 63;
	put(&g, &fh, sizeof(fh));
	put(&g, f.p + sizeof(fh), fh.data.offset + fh.data.size - sizeof(fh));
	pos = g.len + sizeof(table);
	for (i = 0; i < 4; i++) {
		table[i] = (struct perf_file_section){ pos, sizes[i] };
		pos += sizes[i];
	}
	put(&g, table, sizeof(table));
	for (i = 0; i < 4; i++)
		put(&g, bodies[i], sizes[i]);
	fd = write_file(g.p, g.len);
	ret = read_header(fd, &h);
	close(fd);
	tap_ok(!ret && has_host(&h) && h.nr_attrs == 1,
	       "a file with feature bits 0, 40 and 255 set: their sections skipped, HOSTNAME read (ret %d)",
	       ret);
	perfx_header__exit(&h);

	/* a pipe: HEADER_FEATUREs of ids 40 and 32 (a later perf's) around a HOSTNAME */
	free(g.p);
	g = pipe_stream(1);
	put_rec(&g, PERF_RECORD_HEADER_FEATURE, 0, "\x28\0\0\0\0\0\0\0forty!", 14);
	put_rec(&g, PERF_RECORD_HEADER_FEATURE, 0, "\x03\0\0\0\0\0\0\0host\0\0\0\0", 16);
	put_rec(&g, PERF_RECORD_HEADER_FEATURE, 0, "\x20\0\0\0\0\0\0\0", 8);
	fd = write_file(g.p, g.len);
	ret = read_header(fd, &h);
	close(fd);
	tap_ok(!ret && has_host(&h),
	       "a pipe's HEADER_FEATURE records of ids 40 and 32 skipped, HOSTNAME read (ret %d)", ret);
	perfx_header__exit(&h);
	free(g.p);
	free(f.p);
}

/* attrs are written at the size they were read, however large this build's are */
static void test_attr_size(void)
{
	struct perf_event_attr attr = { .size = PERF_ATTR_SIZE_VER5, .sample_type = sample_type };
	struct perfx_header h = { 0 };
	struct perf_event_header ev;
	struct perf_file_header fh;
	struct buf f, p;
	__u64 id = 7;
	__u32 size;

	if (perfx_header__add_attr(&h, &attr, PERF_ATTR_SIZE_VER5, &id, 1))
		abort();
	f = write_header(&h, false, NULL);
	memcpy(&fh, f.p, sizeof(fh));
	memcpy(&size, f.p + fh.attrs.offset + offsetof(struct perf_event_attr, size), 4);
	tap_ok(fh.attr_size == PERF_ATTR_SIZE_VER5 + 16 && size == PERF_ATTR_SIZE_VER5,
	       "a 112-byte attr is written in a 112-byte slot (attr_size %llu, attr.size %u)",
	       (unsigned long long)fh.attr_size, size);
	p = write_header(&h, true, NULL);
	memcpy(&ev, p.p + 16, sizeof(ev));
	memcpy(&size, p.p + 16 + 8 + offsetof(struct perf_event_attr, size), 4);
	tap_ok(ev.type == PERF_RECORD_HEADER_ATTR && ev.size == 8 + PERF_ATTR_SIZE_VER5 + 8 &&
	       size == PERF_ATTR_SIZE_VER5,
	       "a pipe's HEADER_ATTR keeps the 112-byte attr (record of %u bytes, attr.size %u)",
	       ev.size, size);
	free(f.p);
	free(p.p);
	perfx_header__exit(&h);
}

#define MANY_ATTRS	20000

/*
 * 20,000 attrs of two sample_types, an id each, and a sample of each id:
 * the layout is checked and each sample finds its attr in linear time
 * (0.2 s here under ASan; the quadratic reader took 3 minutes).
 */
static void test_many_attrs(void)
{
	struct perfx_header h = { 0 };
	struct perfx_writer w;
	struct buf data = { NULL, 0, 0 };
	struct timespec t0, t1;
	__u64 i, sum, want = 0;
	int fd, nr, ret;
	double secs;

	for (i = 0; i < MANY_ATTRS; i++) {
		struct perf_event_attr attr = {
			.size = sizeof(attr),
			.sample_type = sample_type | PERF_SAMPLE_IDENTIFIER |
				       (i % 2 ? PERF_SAMPLE_CPU : 0),
		};
		__u64 s[5] = { 1000 + i, 0x1000 + i, 42ULL << 32 | 42, 1000, 0 }, id = 1000 + i;

		if (perfx_header__add_attr(&h, &attr, sizeof(attr), &id, 1))
			abort();
		put_rec(&data, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, s, (4 + i % 2) * 8);
		want += 0x1000 + i;
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0 || perfx_writer__init(&w, fd, "out") ||
	    perfx_header__write_file_start(&h, &w) ||
	    perfx_writer__write(&w, data.p, data.len) ||
	    perfx_header__write_file_finish(&h, &w, data.len))
		abort();
	perfx_writer__exit(&w);
	close(fd);
	fd = open(path, O_RDONLY);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = read_all(fd, &nr, &sum);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	close(fd);
	secs = t1.tv_sec - t0.tv_sec + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	tap_ok(!ret && nr == MANY_ATTRS && sum == want && secs < 5,
	       "%d attrs and a sample of each id read in %.2f s, under 5 (ret %d, %d records)",
	       MANY_ATTRS, secs, ret, nr);
	perfx_header__exit(&h);
	free(data.p);
}

/*
 * Random truncations, flipped bytes and sizes: an error or records, no
 * crash.  The seed is fixed, so are the inputs: how many fail and how many
 * records the others hold are exact; a change in what the reader accepts
 * shows here.
 */
static void test_mutations(void)
{
	struct buf seeds[2] = { pipe_stream(50), file_stream() };
	unsigned int seed = 12, i, errors = 0, clean = 0, records = 0;
	char *m = malloc(seeds[0].len + seeds[1].len);

	for (i = 0; i < 3000; i++) {
		struct buf *s = &seeds[i % 2];
		size_t len = s->len;
		int k, fd, nr, ret;
		__u64 sum;

		memcpy(m, s->p, len);
		if (rand_r(&seed) % 3 == 0)
			len = rand_r(&seed) % len;
		for (k = rand_r(&seed) % 5; k >= 0 && len; k--)
			m[rand_r(&seed) % len] = rand_r(&seed);
		fd = write_file(m, len);
		ret = read_all(fd, &nr, &sum);
		close(fd);
		if (ret) {
			errors++;
		} else {
			clean++;
			records += nr;
		}
	}
	tap_ok(errors == 1891 && clean == 1109 && records == 41323,
	       "3000 mutated inputs: %u errors, %u read to the end holding %u records "
	       "(want 1891, 1109, 41323), no crash", errors, clean, records);
	free(m);
	free(seeds[0].p);
	free(seeds[1].p);
}

int main(void)
{
	tap_start("session");
	perfx__set_print(capture);
	if (!tap_ok(!tap_tmpdir(dir, sizeof(dir)), "a directory of its own"))
		return tap_done();
	snprintf(path, sizeof(path), "%s/test.data", dir);
	test_pipe_ok();
	test_real_pipe();
	test_pipe_errors();
	test_odd_sizes();
	test_file();
	test_later_features();
	test_attr_size();
	test_many_attrs();
	test_mutations();
	if (tap_rmdir(dir))
		tap_ok(0, "remove %s", dir);
	return tap_done();
}
