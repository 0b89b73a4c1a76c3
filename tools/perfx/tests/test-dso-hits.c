// SPDX-License-Identifier: GPL-2.0
/*
 * Proves that the DSOs a stream's samples hit are found when perf record
 * wrote its records out of time order, one CPU's buffer after another: a
 * child's exec maps and samples before its FORK, a sample before the
 * older map it hit in the next round; and that a map newer than a
 * sample, one two rounds late, or an earlier process of the same pid
 * explains nothing.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/debug.h"
#include "lib/dso-hits.h"
#include "lib/header.h"
#include "lib/session.h"
#include "tests/stream.h"
#include "tests/tap.h"

#define PARENT	10
#define CHILD	11

static char errbuf[512];

static int capture(enum perfx_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	return vsnprintf(errbuf, sizeof(errbuf), fmt, ap);
}

#define TID_TIME (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME)

static void put_attr(struct buf *b, __u64 sample_type, __u64 id)
{
	struct {
		struct perf_event_attr attr;
		__u64 id;
	} a = { .attr = { .size = sizeof(a.attr), .sample_id_all = 1,
			  .sample_type = sample_type },
		.id = id };

	put_rec(b, PERF_RECORD_HEADER_ATTR, 0, &a, sizeof(a));
}

static struct buf stream_start(void)
{
	struct perf_pipe_file_header ph = { PERF_MAGIC2, sizeof(ph) };
	struct buf b = { NULL, 0, 0 };

	put(&b, &ph, sizeof(ph));
	return b;
}

/* every sample and every other kernel record says when, as perf record's do */
static struct buf stream_tid_time(void)
{
	struct buf b = stream_start();

	put_attr(&b, TID_TIME, 7);
	return b;
}

/* a record of @body and its sample_id fields @id */
static void put_kernel_rec(struct buf *b, __u32 type, __u16 misc, const void *body, size_t len,
			   const __u64 *id, size_t id_len)
{
	struct perf_event_header h = { type, misc, sizeof(h) + len + id_len };

	put(b, &h, sizeof(h));
	put(b, body, len);
	put(b, id, id_len);
}

static void put_mmap2_id(struct buf *b, __u32 pid, __u64 start, const char *name,
			 const __u64 *id, size_t id_len)
{
	struct {
		__u32 pid, tid;
		__u64 start, len, pgoff;
		__u32 maj, min;
		__u64 ino, ino_gen;
		__u32 prot, flags;
		char name[16];
	} r = { pid, pid, start, 0x1000, 0, 0, 0, 0, 0, PROT_EXEC, 0, "" };

	strncpy(r.name, name, sizeof(r.name) - 1);
	put_kernel_rec(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &r, sizeof(r), id, id_len);
}

static void put_mmap2(struct buf *b, __u32 pid, __u64 start, __u64 time, const char *name)
{
	__u64 id[2] = { (__u64)pid << 32 | pid, time };

	put_mmap2_id(b, pid, start, name, id, sizeof(id));
}

static void put_fork(struct buf *b, __u32 pid, __u32 ppid, __u64 time)
{
	struct {
		__u32 pid, ppid, tid, ptid;
		__u64 time;
	} r = { pid, ppid, pid, ppid, time };
	__u64 id[2] = { (__u64)ppid << 32 | ppid, time };

	put_kernel_rec(b, PERF_RECORD_FORK, 0, &r, sizeof(r), id, sizeof(id));
}

static void put_sample(struct buf *b, __u32 pid, __u64 ip, __u64 time)
{
	__u64 s[3] = { ip, (__u64)pid << 32 | pid, time };

	put_rec(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, s, sizeof(s));
}

static void put_round(struct buf *b)
{
	put_rec(b, PERF_RECORD_FINISHED_ROUND, 0, NULL, 0);
}

static int hit(void *arg, struct dso *dso, __u16 cpumode)
{
	char *hits = arg;

	(void)cpumode;
	snprintf(hits + strlen(hits), 256 - strlen(hits), "%s ", dso->name);
	return 0;
}

static unsigned long long last_unwaited;	/* the last stream's */

/* @b's DSOs hit, in the order they became hits, into @hits (256 bytes) */
static int stream_hits(struct buf *b, char *hits)
{
	const struct perf_event_header *ev;
	struct perfx_session s;
	struct dso_hits h;
	int fd, ret;
	__u64 pos;

	hits[0] = '\0';
	fd = memfd_create("stream", 0);
	if (fd < 0 || write(fd, b->p, b->len) != (ssize_t)b->len || lseek(fd, 0, SEEK_SET))
		abort();
	ret = perfx_session__open(&s, fd, "stream");
	if (ret)
		goto out_close;
	ret = dso_hits__init(&h, &s, false, hit, hits);
	while (!ret && (ret = perfx_session__next(&s, &ev, &pos)) > 0)
		ret = dso_hits__record(&h, ev, pos);
	last_unwaited = h.nr_unwaited;
	dso_hits__exit(&h);
	perfx_session__close(&s);
out_close:
	close(fd);
	free(b->p);
	return ret;
}

/* @b's hits must be @want, in that order */
static void expect_hits(struct buf *b, const char *want, const char *what)
{
	char hits[256];
	int ret = stream_hits(b, hits);

	tap_ok(!ret && !strcmp(hits, want), "%s (ret %d, hits %s)", what, ret, hits);
}

static void test_exec_before_fork(void)
{
	struct buf b = stream_tid_time();

	put_mmap2(&b, PARENT, 0x1000, 100, "/bin/sh");
	/* the child's CPU was written first: its exec's map, then the FORK */
	put_mmap2(&b, CHILD, 0x5000, 300, "/lib/libc.so");
	put_fork(&b, CHILD, PARENT, 200);
	put_sample(&b, CHILD, 0x5010, 310);
	put_sample(&b, CHILD, 0x1010, 320);
	put_round(&b);
	expect_hits(&b, "/lib/libc.so /bin/sh ", "a child's map before its FORK: kept, over the parent's");
}

static void test_sample_before_map(void)
{
	struct buf b = stream_tid_time();

	put_sample(&b, PARENT, 0x7010, 500);
	put_round(&b);
	put_mmap2(&b, PARENT, 0x7000, 450, "/lib/late.so");
	put_round(&b);
	put_sample(&b, PARENT, 0x8010, 600);
	put_round(&b);
	put_round(&b);
	put_mmap2(&b, PARENT, 0x8000, 550, "/lib/too-late.so");
	put_sample(&b, PARENT, 0x9010, 700);
	put_mmap2(&b, PARENT, 0x9000, 800, "/lib/newer.so");
	expect_hits(&b, "/lib/late.so ",
		    "a sample before its map: a hit in the next round, not two rounds late, not by a newer map");
}

static void test_pid_reused(void)
{
	struct buf b = stream_tid_time();

	put_mmap2(&b, PARENT, 0x1000, 100, "/bin/sh");
	put_mmap2(&b, CHILD, 0xa000, 150, "/bin/exited");
	put_fork(&b, CHILD, PARENT, 200);
	put_sample(&b, CHILD, 0xa010, 210);
	put_sample(&b, CHILD, 0x1010, 220);
	expect_hits(&b, "/bin/sh ", "a FORK of a pid seen before: the earlier process's maps are gone");
}

/* a map a later one hides whole is still the one of the samples older than that */
static void test_hidden_map(void)
{
	struct buf b = stream_tid_time();

	put_mmap2(&b, PARENT, 0x7000, 100, "/lib/first.so");
	put_mmap2(&b, PARENT, 0x7000, 200, "/lib/old.so");
	put_mmap2(&b, PARENT, 0x7000, 300, "/lib/new.so");
	/* another CPU's buffer, written after: samples of before and after */
	put_sample(&b, PARENT, 0x7010, 250);
	put_sample(&b, PARENT, 0x7020, 260);
	put_sample(&b, PARENT, 0x7010, 400);
	put_sample(&b, PARENT, 0x7010, 150);
	expect_hits(&b, "/lib/old.so /lib/new.so ",
		    "a map hidden by a later one: found by older samples; one hidden twice is gone");
}

/* samples waiting for their map: 4096 wait, the others are counted and said */
static void test_pending_cap(void)
{
	struct buf b = stream_tid_time();
	char hits[256];
	int i, ret;

	for (i = 0; i < 5000; i++)
		put_sample(&b, PARENT, 0x7010 + i, 500);
	put_mmap2(&b, PARENT, 0x7000, 100, "/lib/waited.so");
	errbuf[0] = '\0';
	ret = stream_hits(&b, hits);
	tap_ok(!ret && !strcmp(hits, "/lib/waited.so ") && last_unwaited == 904,
	       "5000 samples before their map: 4096 wait, 904 counted (ret %d, %llu, hits %s)",
	       ret, last_unwaited, hits);
	tap_str_eq(errbuf, "stream: byte offset 131232: over 4096 samples wait for the map they hit, this one and later ones are not looked up again: their DSOs may get no build-id\n",
		   "the first sample beyond them is said, with its offset");
}

/*
 * A callchain's DSOs are hits too, each ip in its context's mode, after
 * the PERIOD and a group's READ fields (read_format GROUP | ID).
 */
static void test_callchain(void)
{
	struct {
		struct perf_event_attr attr;
		__u64 id;
	} a = { .attr = { .size = sizeof(a.attr), .sample_id_all = 1,
			  .sample_type = TID_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ |
					 PERF_SAMPLE_CALLCHAIN,
			  .read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID },
		.id = 7 };
	__u64 s[] = { 0x1010, (__u64)PARENT << 32 | PARENT, 500, 1000, 1, 5, 7,
		      6, PERF_CONTEXT_KERNEL, 0x1020, PERF_CONTEXT_USER, 0x1010, 0x5010, 0x9010 };
	struct buf b = stream_start();

	put_rec(&b, PERF_RECORD_HEADER_ATTR, 0, &a, sizeof(a));
	put_mmap2(&b, PARENT, 0x1000, 100, "/bin/sh");
	put_mmap2(&b, PARENT, 0x5000, 100, "/lib/libc.so");
	put_mmap2(&b, PARENT, 0x9000, 600, "/lib/later.so");
	put_rec(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, s, sizeof(s));
	expect_hits(&b, "/bin/sh /lib/libc.so ",
		    "a callchain's user ips hit their DSOs; a kernel-context ip in a user map and a map newer than the sample do not");
}

/*
 * Attrs of different sample_types: IDENTIFIER says whose fields a record
 * has; 0 is a synthesized record's, laid out as the first attr's.
 */
static void test_by_id(void)
{
	__u64 synth[3] = { 0, 0, 0 }, unknown[3] = { 0, 0, 99 };
	__u64 sample[5] = { 8, 0x3010, (__u64)PARENT << 32 | PARENT, 100, 1 };
	struct buf b = stream_start();
	char hits[256];
	int ret;

	put_attr(&b, TID_TIME | PERF_SAMPLE_IDENTIFIER, 7);
	put_attr(&b, TID_TIME | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CPU, 8);
	put_mmap2_id(&b, PARENT, 0x3000, "/lib/synth.so", synth, sizeof(synth));
	put_rec(&b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sample, sizeof(sample));
	expect_hits(&b, "/lib/synth.so ",
		    "attrs told apart by IDENTIFIER: a synthesized map's id 0 is the first's");

	b = stream_start();
	put_attr(&b, TID_TIME | PERF_SAMPLE_IDENTIFIER, 7);
	put_attr(&b, TID_TIME | PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_CPU, 8);
	put_mmap2_id(&b, PARENT, 0x3000, "/lib/synth.so", unknown, sizeof(unknown));
	ret = stream_hits(&b, hits);
	tap_ok(ret == -EINVAL, "an id no attr has: EINVAL (ret %d)", ret);
	tap_str_eq(errbuf, "stream: byte offset 304: MMAP2 record of size 112: no attr has the id of its sample_id fields (EINVAL)\n",
		   "an id no attr has: the message names the offset, the record and the id");
}

int main(void)
{
	tap_start("dso-hits");
	perfx__set_print(capture);
	test_exec_before_fork();
	test_sample_before_map();
	test_pid_reused();
	test_hidden_map();
	test_pending_cap();
	test_callchain();
	test_by_id();
	return tap_done();
}
