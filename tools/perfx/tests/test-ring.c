// SPDX-License-Identifier: GPL-2.0
/*
 * Proves the ring reader (lib/ring.c) on rings laid out and written as the
 * kernel does (tests/fake-ring.h), without perf_event_open(): an empty
 * ring; a pass that is whole records, in one piece, or in two where it
 * wraps, a record split at the end read back whole; a pass that ends at
 * the head read at its start, whatever the kernel wrote meanwhile, and the
 * tail given back there; a full ring; the push callback's first error;
 * and a writer thread racing the reader through a one-page ring, every
 * record read once, whole and in order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include "lib/ring.h"
#include "tests/fake-ring.h"
#include "tests/tap.h"

/* What a pass handed over: its pieces, and their bytes one after the other. */
struct sink {
	char		buf[64 * 1024];
	size_t		len;
	const char	*piece[4];
	size_t		piece_len[4];
	int		nr;
	int		fail_at;	/* the piece to fail with -ENOSPC (1, 2), or 0 */
};

static int sink_push(void *arg, const void *p, size_t len)
{
	struct sink *s = arg;

	if (s->nr < 4) {
		s->piece[s->nr] = p;
		s->piece_len[s->nr] = len;
	}
	if (++s->nr == s->fail_at)
		return -ENOSPC;
	if (s->len + len > sizeof(s->buf))
		return -E2BIG;
	memcpy(s->buf + s->len, p, len);
	s->len += len;
	return 0;
}

static void sink_reset(struct sink *s)
{
	s->len = 0;
	s->nr = 0;
	s->fail_at = 0;
}

static struct sink sink;
static size_t page;

static void test_layout(void)
{
	struct fake_ring f;
	struct perfx_ring m;
	void *base = fake_ring__new(&f, &m, 4, 0);

	if (!tap_ok(base != NULL, "a fake ring of 4 data pages"))
		return;
	tap_ok(m.base == base && m.data == (char *)base + page && m.mask == 4 * page - 1 &&
	       m.len == 5 * page && m.fd == -1 && !m.start && !m.end,
	       "perfx_ring__init: the data one page in, the mask 4 pages - 1, the mapping 5 pages");
	perfx_ring__unmap(&m);
	tap_ok(m.base == NULL, "perfx_ring__unmap forgets the mapping");
}

static void test_empty(void)
{
	struct fake_ring f;
	struct perfx_ring m;
	__u64 n;
	int err;

	if (!fake_ring__new(&f, &m, 1, 3 * page + 40)) {
		tap_skip("an empty ring", "no memory");
		return;
	}
	sink_reset(&sink);
	n = perfx_ring__start_pass(&m);
	err = perfx_ring__push(&m, sink_push, &sink);
	perfx_ring__consume(&m);
	tap_ok(!n && !err && !sink.nr && f.pc->data_tail == 3 * page + 40,
	       "an empty ring: 0 bytes, nothing pushed, the tail stays (n %llu, %d pieces)",
	       (unsigned long long)n, sink.nr);
	perfx_ring__unmap(&m);
}

/* Records 1-3 of 24, 32 and 40 bytes: one piece, three records, the tail after them */
static void test_records(void)
{
	struct fake_ring f;
	struct perfx_ring m;
	__u64 n;
	int err, nr;

	if (!fake_ring__new(&f, &m, 1, 0)) {
		tap_skip("whole records", "no memory");
		return;
	}
	fake_ring__record(&f, 1, 24);
	fake_ring__record(&f, 2, 32);
	fake_ring__record(&f, 3, 40);
	fake_ring__publish(&f);
	sink_reset(&sink);
	n = perfx_ring__start_pass(&m);
	err = perfx_ring__push(&m, sink_push, &sink);
	nr = fake_records__check(sink.buf, sink.len, 1);
	tap_ok(n == 96 && !err && sink.nr == 1 && sink.piece[0] == m.data && nr == 3,
	       "three records in one piece at the data's start (n %llu, %d pieces, %d records)",
	       (unsigned long long)n, sink.nr, nr);
	tap_ok(f.pc->data_tail == 0, "the tail moves only when the pass is consumed");
	perfx_ring__consume(&m);
	tap_ok(f.pc->data_tail == 96 && m.start == 96, "consumed: the tail at 96 (%llu)",
	       (unsigned long long)f.pc->data_tail);
	sink_reset(&sink);
	tap_ok(!perfx_ring__start_pass(&m) && !perfx_ring__push(&m, sink_push, &sink) && !sink.nr,
	       "the next pass is empty");
	perfx_ring__unmap(&m);
}

/*
 * A ring that has carried 5 rings' worth and 16 bytes less: a record of 48
 * bytes is split 16 at the end, 32 at the start, and read back whole.
 */
static void test_wrap(void)
{
	__u64 pos, n;
	struct fake_ring f;
	struct perfx_ring m;
	int err, nr;

	pos = 5 * page - 16;
	if (!fake_ring__new(&f, &m, 1, pos)) {
		tap_skip("a wrapped record", "no memory");
		return;
	}
	fake_ring__record(&f, 7, 48);
	fake_ring__record(&f, 8, 24);
	fake_ring__publish(&f);
	sink_reset(&sink);
	n = perfx_ring__start_pass(&m);
	err = perfx_ring__push(&m, sink_push, &sink);
	tap_ok(n == 72 && !err && sink.nr == 2 && sink.piece[0] == m.data + page - 16 &&
	       sink.piece_len[0] == 16 && sink.piece[1] == m.data && sink.piece_len[1] == 56,
	       "a pass across the end: 16 bytes at the end, then 56 at the start (%d pieces: %zu, %zu)",
	       sink.nr, sink.piece_len[0], sink.nr > 1 ? sink.piece_len[1] : 0);
	nr = fake_records__check(sink.buf, sink.len, 7);
	tap_ok(nr == 2, "the record split at the end reads back whole, and the next one (%d)", nr);
	perfx_ring__consume(&m);
	tap_ok(f.pc->data_tail == pos + 72, "the tail given back past the end: %llu, want %llu",
	       (unsigned long long)f.pc->data_tail, (unsigned long long)(pos + 72));
	perfx_ring__unmap(&m);

	/* ending exactly at the end, then starting exactly at the start: no empty piece */
	pos = 2 * page - 48;
	if (!fake_ring__new(&f, &m, 1, pos))
		return;
	fake_ring__record(&f, 1, 48);
	fake_ring__publish(&f);
	sink_reset(&sink);
	perfx_ring__start_pass(&m);
	err = perfx_ring__push(&m, sink_push, &sink);
	perfx_ring__consume(&m);
	tap_ok(!err && sink.nr == 1 && sink.piece_len[0] == 48 &&
	       fake_records__check(sink.buf, sink.len, 1) == 1,
	       "a pass ending at the ring's last byte is one piece (%d)", sink.nr);
	fake_ring__record(&f, 2, 32);
	fake_ring__publish(&f);
	sink_reset(&sink);
	perfx_ring__start_pass(&m);
	err = perfx_ring__push(&m, sink_push, &sink);
	perfx_ring__consume(&m);
	tap_ok(!err && sink.nr == 1 && sink.piece[0] == m.data &&
	       fake_records__check(sink.buf, sink.len, 2) == 1 && f.pc->data_tail == 2 * page + 32,
	       "the next one starts at the data's first byte, one piece (%d)", sink.nr);
	perfx_ring__unmap(&m);
}

/* What the kernel writes during a pass is the next pass's. */
static void test_pass_is_head_at_start(void)
{
	struct fake_ring f;
	struct perfx_ring m;
	__u64 n, n2;
	int nr, nr2;

	if (!fake_ring__new(&f, &m, 2, 100 * page)) {
		tap_skip("a pass's end", "no memory");
		return;
	}
	fake_ring__record(&f, 1, 40);
	fake_ring__record(&f, 2, 40);
	fake_ring__publish(&f);
	sink_reset(&sink);
	n = perfx_ring__start_pass(&m);
	fake_ring__record(&f, 3, 64);
	fake_ring__publish(&f);
	perfx_ring__push(&m, sink_push, &sink);
	nr = fake_records__check(sink.buf, sink.len, 1);
	perfx_ring__consume(&m);
	tap_ok(n == 80 && nr == 2 && f.pc->data_tail == 100 * page + 80,
	       "a pass ends at the head read at its start, the tail given back there (%llu, %d records)",
	       (unsigned long long)n, nr);
	sink_reset(&sink);
	n2 = perfx_ring__start_pass(&m);
	perfx_ring__push(&m, sink_push, &sink);
	nr2 = fake_records__check(sink.buf, sink.len, 3);
	perfx_ring__consume(&m);
	tap_ok(n2 == 64 && nr2 == 1 && f.pc->data_tail == 100 * page + 144,
	       "the record written meanwhile is the next pass's (%llu, %d)", (unsigned long long)n2,
	       nr2);
	perfx_ring__unmap(&m);
}

/* A ring the kernel filled to its last byte, from the start and from the middle. */
static void test_full(void)
{
	struct fake_ring f;
	struct perfx_ring m;
	__u64 pos, n;
	int i, nr, err;

	for (pos = 0; pos <= page / 2; pos += page / 2) {
		if (!fake_ring__new(&f, &m, 1, pos))
			return;
		for (i = 0; i < (int)(page / 64); i++)
			fake_ring__record(&f, i, 64);
		fake_ring__publish(&f);
		sink_reset(&sink);
		n = perfx_ring__start_pass(&m);
		err = perfx_ring__push(&m, sink_push, &sink);
		nr = fake_records__check(sink.buf, sink.len, 0);
		perfx_ring__consume(&m);
		tap_ok(n == page && !err && sink.nr == (pos ? 2 : 1) && nr == (int)(page / 64) &&
		       fake_ring__used(&f) == 0,
		       "a full ring from offset %llu: all %zu bytes in %d pieces, %d records",
		       (unsigned long long)pos, page, sink.nr, nr);
		perfx_ring__unmap(&m);
	}
}

/* The callback's first error stops the pass and is returned. */
static void test_push_error(void)
{
	struct fake_ring f;
	struct perfx_ring m;
	int fail, err;

	if (!fake_ring__new(&f, &m, 1, page - 8))
		return;
	fake_ring__record(&f, 1, 32);
	fake_ring__publish(&f);
	perfx_ring__start_pass(&m);
	for (fail = 1; fail <= 2; fail++) {
		sink_reset(&sink);
		sink.fail_at = fail;
		err = perfx_ring__push(&m, sink_push, &sink);
		tap_ok(err == -ENOSPC && sink.nr == fail,
		       "an error from piece %d of 2 is returned, no piece after it (err %d, %d pieces)",
		       fail, err, sink.nr);
	}
	tap_ok(f.pc->data_tail == page - 8, "the tail stays where the failed pass began");
	perfx_ring__unmap(&m);
}

/*
 * A writer thread and the reader on a ring of one page: the writer waits
 * for space by the tail the reader gives back (acquire) and publishes its
 * records by the head (release); the reader reads the head (acquire) and
 * gives the tail back after copying (release).  Every record must come
 * out once, whole and in order: a record read before its bytes were
 * there, or overwritten before it was copied, shows in its bytes.
 */
#define RACE_RECORDS	20000

struct race {
	struct fake_ring	f;
	volatile int		stop;
};

static size_t race_size(__u64 seq)
{
	return FAKE_RECORD_MIN + (seq * 8) % 200;
}

static void *race_writer(void *arg)
{
	struct race *r = arg;
	__u64 seq;

	for (seq = 0; seq < RACE_RECORDS && !r->stop; seq++) {
		while (r->f.size - fake_ring__used(&r->f) < race_size(seq) && !r->stop)
			sched_yield();
		fake_ring__record(&r->f, seq, race_size(seq));
		/* now and then a head that covers several records */
		if (seq % 3 != 1)
			fake_ring__publish(&r->f);
	}
	fake_ring__publish(&r->f);
	return NULL;
}

static void test_race(void)
{
	static struct sink s;
	struct timespec t0, t;
	struct race r = { .stop = 0 };
	struct perfx_ring m;
	pthread_t thread;
	__u64 seq = 0, passes = 0;
	int nr, bad = 0;

	if (!fake_ring__new(&r.f, &m, 1, 0) || pthread_create(&thread, NULL, race_writer, &r)) {
		tap_skip("a writer racing the reader", "no memory or thread");
		return;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (seq < RACE_RECORDS && !bad) {
		sink_reset(&s);
		if (!perfx_ring__start_pass(&m)) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec > 60)
				break;
			sched_yield();
			continue;
		}
		passes++;
		perfx_ring__push(&m, sink_push, &s);
		nr = fake_records__check(s.buf, s.len, seq);
		if (nr <= 0)
			bad = 1;
		else
			seq += nr;
		perfx_ring__consume(&m);
	}
	r.stop = 1;
	pthread_join(thread, NULL);
	tap_ok(!bad && seq == RACE_RECORDS && !perfx_ring__start_pass(&m),
	       "a writer racing the reader: %llu of %d records read once, whole, in order, in %llu passes",
	       (unsigned long long)seq, RACE_RECORDS, (unsigned long long)passes);
	perfx_ring__unmap(&m);
}

int main(void)
{
	tap_start("ring");
	page = (size_t)sysconf(_SC_PAGESIZE);
	test_layout();
	test_empty();
	test_records();
	test_wrap();
	test_pass_is_head_at_start();
	test_full();
	test_push_error();
	test_race();
	return tap_done();
}
