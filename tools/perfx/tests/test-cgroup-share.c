// SPDX-License-Identifier: GPL-2.0
/*
 * Proves the READ_CGROUP batch reply parser takes the kernel's layout in
 * any order, plain or a group's (PERF_FORMAT_GROUP: every counter of the
 * group for each cgroup), and refuses garbage (a wrong count of cgroups or
 * of a group's counters, unknown or repeated ids, a size that is not the
 * reply's) with the exact -errno, leaving the output alone; and, through a
 * fake ioctl(), that cgroup_share__read() and cgroup_share__attach() pass
 * the kernel the structs it documents and check its byte count.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/perf_event.h>

#include "lib/cgroup-share.h"
#include "lib/evsel.h"
#include "lib/util.h"
#include "tests/tap.h"

#define RF	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING)
/* what perfx stat reads a group with */
#define GF	(RF | PERF_FORMAT_ID | PERF_FORMAT_GROUP)

/* what the fake kernel does with the next READ_CGROUP calls */
static struct {
	int batch_errno;		/* the batch call fails with this */
	const __u64 *reply;		/* else: copied to buf */
	size_t words;
	int ret;			/* and this is returned */
	int calls;
	struct perf_event_cgroup_attach attach;	/* the last ATTACH's */
} fake;

int ioctl(int fd, unsigned long req, ...);

int ioctl(int fd, unsigned long req, ...)
{
	struct perf_event_cgroup_read *arg;
	va_list ap;

	(void)fd;
	va_start(ap, req);
	arg = va_arg(ap, struct perf_event_cgroup_read *);
	va_end(ap);
	fake.calls++;
	if (req == PERF_EVENT_IOC_ATTACH_CGROUP) {
		memcpy(&fake.attach, arg, sizeof(fake.attach));
		return 0;
	}
	/* only the batch form, of the documented struct, is used */
	if (req != PERF_EVENT_IOC_READ_CGROUP || arg->size != sizeof(*arg) || arg->flags ||
	    arg->id) {
		errno = EINVAL;
		return -1;
	}
	if (fake.batch_errno) {
		errno = fake.batch_errno;
		return -1;
	}
	if (arg->buf_size < fake.words * sizeof(__u64)) {
		errno = ENOSPC;
		return -1;
	}
	memcpy((void *)(uintptr_t)arg->buf, fake.reply, fake.words * sizeof(__u64));
	return fake.ret;
}

static const __u64 ids[] = { 11, 22, 33 };

static const struct evsel_counts poison = { 0xdead, 0xdead, 0xdead };

#define NR_OUT	9	/* 3 cgroups x up to 3 counters */
#define POISONED	{ poison, poison, poison, poison, poison, poison, poison, poison, poison }

static int untouched(const struct evsel_counts *out, int nr)
{
	int i;

	for (i = 0; i < nr; i++)
		if (memcmp(&out[i], &poison, sizeof(poison)))
			return 0;
	return 1;
}

/* "val/ena/run,..." */
static void show(const struct evsel_counts *out, int nr, char *buf, size_t size)
{
	size_t len = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < nr && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%llu/%llu/%llu", i ? "," : "",
				(unsigned long long)out[i].val, (unsigned long long)out[i].ena,
				(unsigned long long)out[i].run);
}

static void check_group(const char *what, const __u64 *reply, size_t bytes, __u64 rf,
			int nr_cntr, int nr, int want_err, const char *want)
{
	struct evsel_counts out[NR_OUT] = POISONED;
	char why[128], got[512];
	int err;

	err = cgroup_share__parse_reply(reply, bytes, rf, nr_cntr, ids, nr, out, why,
					sizeof(why));
	if (want_err) {
		tap_ok(err == want_err && untouched(out, NR_OUT),
		       "%s: %d, output untouched (got %d)", what, want_err, err);
		tap_str_eq(why, want, what);
		return;
	}
	show(out, nr * nr_cntr, got, sizeof(got));
	tap_ok(!err && !strcmp(got, want) && untouched(out + nr * nr_cntr, NR_OUT - nr * nr_cntr),
	       "%s: %s (got %d, %s)", what, want, err, got);
}

static void check(const char *what, const __u64 *reply, size_t bytes, __u64 rf, int nr,
		  int want_err, const char *want)
{
	check_group(what, reply, bytes, rf, 1, nr, want_err, want);
}

#define R(...)	((const __u64[]){ __VA_ARGS__ })
#define B(n)	((n) * sizeof(__u64))

static void test_parse(void)
{
	check("in attach order", R(3, 11, 1, 2, 3, 22, 4, 5, 6, 33, 7, 8, 9), B(13), RF, 3, 0,
	      "1/2/3,4/5/6,7/8/9");
	check("in another order", R(3, 33, 7, 8, 9, 11, 1, 2, 3, 22, 4, 5, 6), B(13), RF, 3, 0,
	      "1/2/3,4/5/6,7/8/9");
	check("with the first of two missing", R(1, 22, 5), B(3), 0, 2, -ENOENT,
	      "cgroup id 11 is not in the reply");
	check("without times", R(3, 11, 1, 22, 2, 33, 3), B(7), 0, 3, 0, "1/0/0,2/0/0,3/0/0");
	check("with ids and lost counts", R(1, 11, 5, 6, 7, 99, 98), B(7),
	      RF | PERF_FORMAT_ID | PERF_FORMAT_LOST, 1, 0, "5/6/7");
	check("no cgroups attached, none replied", R(0), B(1), RF, 0, 0, "");
	check("with a count above the attached", R(4, 11, 1, 2, 3), B(5), RF, 3, -EPROTO,
	      "a reply for 4 cgroups, expected at most the 3 attached");
	check("with a count of 2^63", R(1ULL << 63, 11, 1, 2, 3), B(5), RF, 3, -EPROTO,
	      "a reply for 9223372036854775808 cgroups, expected at most the 3 attached");
	check("with a count below the attached", R(2, 11, 1, 2, 3, 22, 4, 5, 6), B(9), RF, 3,
	      -ENOENT, "cgroup id 33 is not in the reply");
	check("with an unknown id", R(2, 11, 1, 2, 3, 44, 4, 5, 6), B(9), RF, 2, -EPROTO,
	      "an unknown cgroup id 44 in the reply");
	check("with id 0", R(1, 0, 1, 2, 3), B(5), RF, 1, -EPROTO,
	      "an unknown cgroup id 0 in the reply");
	check("with an id twice", R(2, 11, 1, 2, 3, 11, 4, 5, 6), B(9), RF, 2, -EPROTO,
	      "a duplicate cgroup id 11 in the reply");
	check("short by a word", R(2, 11, 1, 2, 3, 22, 4, 5), B(8), RF, 2, -EPROTO,
	      "a reply of 64 bytes for 2 cgroups, expected 72");
	check("of no bytes", R(0), 0, RF, 1, -EPROTO,
	      "a reply of 0 bytes, expected a count and 4 words a cgroup");
	check("of 7 bytes", R(0), 7, RF, 1, -EPROTO,
	      "a reply of 7 bytes, expected a count and 4 words a cgroup");
	check("of a ragged size", R(1, 11, 1, 2, 3), B(5) - 3, RF, 1, -EPROTO,
	      "a reply of 37 bytes, expected a count and 4 words a cgroup");
	check("long by a word", R(1, 11, 1, 2, 3, 0), B(6), RF, 1, -EPROTO,
	      "a reply of 48 bytes for 1 cgroups, expected 40");
}

/*
 * A group's reply: per cgroup { id, nr, ena, run, { value, id }[nr] } with
 * GF; the members' values get the group's times.
 */
static void test_parse_group(void)
{
	struct evsel_counts out[NR_OUT] = POISONED;
	char why[128];

	check_group("a group in attach order",
		    R(3, 11, 2, 100, 50, 1, 901, 2, 902, 22, 2, 200, 100, 3, 901, 4, 902,
		      33, 2, 300, 150, 5, 901, 6, 902), B(25), GF, 2, 3, 0,
		    "1/100/50,2/100/50,3/200/100,4/200/100,5/300/150,6/300/150");
	check_group("a group in another order",
		    R(2, 22, 2, 200, 100, 3, 901, 4, 902, 11, 2, 100, 50, 1, 901, 2, 902),
		    B(17), GF, 2, 2, 0, "1/100/50,2/100/50,3/200/100,4/200/100");
	check_group("a group of three without times or ids", R(2, 11, 3, 1, 2, 3, 22, 3, 4, 5, 6),
		    B(11), PERF_FORMAT_GROUP, 3, 2, 0, "1/0/0,2/0/0,3/0/0,4/0/0,5/0/0,6/0/0");
	check_group("a group with ids and lost counts",
		    R(1, 11, 2, 7, 8, 1, 901, 0, 2, 902, 0), B(11), GF | PERF_FORMAT_LOST, 2, 1,
		    0, "1/7/8,2/7/8");
	check_group("a group whose members did not open: the leader alone",
		    R(1, 11, 1, 7, 8, 5, 901), B(7), GF, 1, 1, 0, "5/7/8");
	check_group("a group, none attached, none replied", R(0), B(1), GF, 2, 0, 0, "");
	check_group("a group with the first of two cgroups missing",
		    R(1, 22, 2, 7, 8, 1, 901, 2, 902), B(9), GF, 2, 2, -ENOENT,
		    "cgroup id 11 is not in the reply");
	check_group("a group of fewer counters than open",
		    R(1, 11, 1, 7, 8, 1, 901, 2, 902), B(9), GF, 2, 1, -EPROTO,
		    "a group of 1 counters for cgroup id 11, expected 2");
	check_group("a group of more counters than open",
		    R(1, 11, 3, 7, 8, 1, 901, 2, 902), B(9), GF, 2, 1, -EPROTO,
		    "a group of 3 counters for cgroup id 11, expected 2");
	check_group("a group of the wrong count in the second cgroup only",
		    R(2, 11, 2, 7, 8, 1, 901, 2, 902, 22, 0, 7, 8, 1, 901, 2, 902), B(17), GF, 2,
		    2, -EPROTO, "a group of 0 counters for cgroup id 22, expected 2");
	check_group("a group sized for three counters, two open",
		    R(1, 11, 3, 7, 8, 1, 901, 2, 902, 3, 903), B(11), GF, 2, 1, -EPROTO,
		    "a reply of 88 bytes for 1 cgroups, expected 72");
	check_group("a group reply short by a word",
		    R(2, 11, 2, 7, 8, 1, 901, 2, 902, 22, 2, 7, 8, 1, 901, 2), B(16), GF, 2, 2,
		    -EPROTO, "a reply of 128 bytes for 2 cgroups, expected 136");
	check_group("a group reply long by a word",
		    R(1, 11, 2, 7, 8, 1, 901, 2, 902, 0), B(10), GF, 2, 1, -EPROTO,
		    "a reply of 80 bytes for 1 cgroups, expected 72");
	check_group("a group reply of the plain layout",
		    R(2, 11, 1, 2, 3, 22, 4, 5, 6), B(9), GF, 2, 2, -EPROTO,
		    "a reply of 72 bytes for 2 cgroups, expected 136");
	check_group("a group reply with an unknown id",
		    R(1, 44, 2, 7, 8, 1, 901, 2, 902), B(9), GF, 2, 1, -EPROTO,
		    "an unknown cgroup id 44 in the reply");
	check_group("a group reply with an id twice",
		    R(2, 11, 2, 7, 8, 1, 901, 2, 902, 11, 2, 7, 8, 1, 901, 2, 902), B(17), GF, 2,
		    2, -EPROTO, "a duplicate cgroup id 11 in the reply");
	check_group("a group reply with a count above the attached",
		    R(3, 11, 2, 7, 8, 1, 901, 2, 902), B(9), GF, 2, 2, -EPROTO,
		    "a reply for 3 cgroups, expected at most the 2 attached");
	tap_ok(cgroup_share__parse_reply(R(0), B(1), GF, 0, ids, 1, out, why, sizeof(why)) ==
	       -EINVAL && untouched(out, NR_OUT), "a group of no counters is -EINVAL");
	tap_ok(cgroup_share__parse_reply(R(0), B(1), RF, 2, ids, 1, out, why, sizeof(why)) ==
	       -EINVAL && untouched(out, NR_OUT),
	       "two counters without PERF_FORMAT_GROUP is -EINVAL");
}

static void test_read(void)
{
	struct evsel_counts out[3] = { poison, poison, poison };
	unsigned long calls = 0;
	char got[256];
	int err;

	fake.batch_errno = 0;
	fake.reply = R(3, 11, 1, 2, 3, 22, 4, 5, 6, 33, 7, 8, 9);
	fake.words = 13;
	fake.ret = B(13);
	err = cgroup_share__read(3, RF, 1, ids, 3, out, &calls);
	show(out, 3, got, sizeof(got));
	tap_ok(!err && calls == 1 && !strcmp(got, "1/2/3,4/5/6,7/8/9"),
	       "a batch read: one call, every cgroup (got %d, %lu, %s)", err, calls, got);

	out[0] = out[1] = out[2] = poison;
	fake.ret = B(13) + 8;	/* past the buffer perfx gave */
	err = cgroup_share__read(3, RF, 1, ids, 3, out, NULL);
	tap_ok(err == -EPROTO && untouched(out, 3),
	       "a kernel claiming more bytes than the buffer holds is -EPROTO (got %d)", err);
	fake.ret = B(5);
	err = cgroup_share__read(3, RF, 1, ids, 3, out, NULL);
	tap_ok(err == -EPROTO && untouched(out, 3),
	       "a batch reply shorter than its count is -EPROTO (got %d)", err);

	fake.batch_errno = ENOENT;
	err = cgroup_share__read(3, RF, 1, ids, 3, out, NULL);
	tap_ok(err == -ENOENT && untouched(out, 3), "the kernel's -ENOENT is passed on (got %d)",
	       err);

	tap_ok(cgroup_share__read(3, RF, 1, ids, -1, out, NULL) == -EINVAL,
	       "a negative cgroup count is -EINVAL");
	fake.batch_errno = 0;
}

static void test_attach(void)
{
	fake.calls = 0;
	tap_ok(!cgroup_share__attach(3, ids, 3) && fake.calls == 1 &&
	       fake.attach.size == PERF_CGROUP_ATTACH_SIZE_VER0 && !fake.attach.flags &&
	       fake.attach.nr == 3 && !fake.attach.reserved &&
	       fake.attach.ids == (uintptr_t)ids,
	       "an attach passes { size, 0, nr, 0, ids } in one call");
	tap_ok(cgroup_share__attach(3, ids, -1) == -EINVAL && fake.calls == 1,
	       "a negative cgroup count is -EINVAL, without a call");
}

static void test_read_group(void)
{
	struct evsel_counts out[NR_OUT] = POISONED;
	unsigned long calls = 0;
	char got[512];
	int err;

	fake.batch_errno = 0;
	fake.reply = R(3, 11, 2, 100, 50, 1, 901, 2, 902, 22, 2, 200, 100, 3, 901, 4, 902,
		       33, 2, 300, 150, 5, 901, 6, 902);
	fake.words = 25;
	fake.ret = B(25);
	err = cgroup_share__read(3, GF, 2, ids, 3, out, &calls);
	show(out, 6, got, sizeof(got));
	tap_ok(!err && calls == 1 &&
	       !strcmp(got, "1/100/50,2/100/50,3/200/100,4/200/100,5/300/150,6/300/150"),
	       "a group's batch read: one call, every counter of every cgroup (got %d, %lu, %s)",
	       err, calls, got);

	memcpy(out, (struct evsel_counts[NR_OUT])POISONED, sizeof(out));
	fake.ret = B(25) + 8;
	err = cgroup_share__read(3, GF, 2, ids, 3, out, NULL);
	tap_ok(err == -EPROTO && untouched(out, NR_OUT),
	       "a group's reply past the buffer is -EPROTO (got %d)", err);
	err = cgroup_share__read(3, GF, 3, ids, 3, out, NULL);
	tap_ok(err == -EPROTO && untouched(out, NR_OUT),
	       "a group's reply for fewer counters than open is -EPROTO (got %d)", err);
	fake.batch_errno = ENOSPC;
	err = cgroup_share__read(3, GF, 2, ids, 3, out, NULL);
	tap_ok(err == -ENOSPC && untouched(out, NR_OUT),
	       "a group's -ENOSPC is passed on (got %d)", err);

	fake.batch_errno = 0;
}

/* random replies: never a crash, a result among the documented ones */
static void fuzz(void)
{
	unsigned int x = 77;
	int i, j, bad = 0, ok = 0;

	for (i = 0; i < 3000; i++) {
		struct evsel_counts out[NR_OUT] = POISONED;
		__u64 reply[16];
		char why[128];
		int err, words, nr = 1 + i % 3, nr_cntr = 1 + (i / 3) % 3;
		__u64 rf = i % 2 ? GF : RF;

		for (j = 0; j < 16; j++) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			/* mostly plausible counts and ids */
			reply[j] = x % 4 ? x % 5 : j % 4 == 1 ? ids[x % 3] : x;
			if (j % 4 == 1 && x % 3)
				reply[j] = ids[(x >> 3) % 3];
		}
		words = x % 17;
		if (rf == RF)
			nr_cntr = 1;
		err = cgroup_share__parse_reply(reply, B(words), rf, nr_cntr, ids, nr, out, why,
						sizeof(why));
		if (!err)
			ok++;
		if ((err && err != -EPROTO && err != -ENOENT) || (err && (!why[0] ||
		    !untouched(out, NR_OUT))) ||
		    (!err && !untouched(out + nr * nr_cntr, NR_OUT - nr * nr_cntr)))
			bad++;
	}
	tap_ok(!bad, "3000 random replies, plain and groups: %d parse, the rest -EPROTO/-ENOENT with a reason, %d wrong",
	       ok, bad);
}

int main(void)
{
	tap_start("cgroup-share");
	test_parse();
	test_parse_group();
	test_read();
	test_read_group();
	test_attach();
	fuzz();
	return tap_done();
}
