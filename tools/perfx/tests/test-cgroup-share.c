// SPDX-License-Identifier: GPL-2.0
/*
 * Proves the READ_CGROUP batch reply parser takes the kernel's layout in
 * any order, plain or a group's (PERF_FORMAT_GROUP: every counter of the
 * group for each cgroup), and refuses garbage (a wrong count of cgroups or
 * of a group's counters, unknown or repeated ids, a size that is not the
 * reply's) with the exact -errno, leaving the output alone; through a
 * fake ioctl(), that cgroup_share__read() and cgroup_share__attach() pass
 * the kernel the v5 structs it documents (the size in the ioctl number),
 * check its byte count, take err_index only where the kernel writes it and
 * in range, retry a read the kernel found changing (EAGAIN) a bounded
 * number of times and stop at EINTR; and each refusal's exact message,
 * naming the cgroup at fault.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
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

/* what the fake kernel does with the next READ_CGROUP and ATTACH calls */
static struct {
	int batch_errno;		/* the batch call fails with this */
	int nr_errno;			/* for this many calls (0: every call) */
	int failed;			/* calls failed with it so far */
	const __u64 *reply;		/* else: copied to buf */
	size_t words;
	int ret;			/* and this is returned */
	int calls;
	struct perf_event_cgroup_attach attach;	/* the last ATTACH's */
	int attach_errno;		/* ATTACH fails with this */
	__u32 err_index;		/* writing this back */
} fake;

int ioctl(int fd, unsigned long req, ...);

int ioctl(int fd, unsigned long req, ...)
{
	struct perf_event_cgroup_attach *attach;
	struct perf_event_cgroup_read *arg;
	va_list ap;

	(void)fd;
	va_start(ap, req);
	arg = va_arg(ap, struct perf_event_cgroup_read *);
	va_end(ap);
	fake.calls++;
	if (req == PERF_EVENT_IOC_ATTACH_CGROUP) {
		attach = (struct perf_event_cgroup_attach *)arg;
		memcpy(&fake.attach, attach, sizeof(fake.attach));
		if (!fake.attach_errno)
			return 0;
		/* the kernel writes err_index back on these only */
		if (fake.attach_errno == ENODEV || fake.attach_errno == ENOENT ||
		    fake.attach_errno == EEXIST)
			attach->err_index = fake.err_index;
		errno = fake.attach_errno;
		return -1;
	}
	/* only the batch form, of the documented struct, is used */
	if (req != PERF_EVENT_IOC_READ_CGROUP || arg->flags || arg->reserved || arg->id) {
		errno = EINVAL;
		return -1;
	}
	if (fake.batch_errno && (!fake.nr_errno || fake.failed < fake.nr_errno)) {
		fake.failed++;
		/* what an EAGAIN call leaves is incomplete: garbage */
		memset((void *)(uintptr_t)arg->buf, 0x5a, arg->buf_size);
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

/* -EAGAIN: read again, CGROUP_SHARE_READ_TRIES calls in all; -EINTR: stop */
static void test_read_retry(void)
{
	struct evsel_counts out[3] = { poison, poison, poison };
	unsigned long calls = 0;
	char got[256];
	int err;

	fake.reply = R(3, 11, 1, 2, 3, 22, 4, 5, 6, 33, 7, 8, 9);
	fake.words = 13;
	fake.ret = B(13);
	fake.batch_errno = EAGAIN;
	fake.nr_errno = 1;
	fake.failed = 0;
	err = cgroup_share__read(3, RF, 1, ids, 3, out, &calls);
	show(out, 3, got, sizeof(got));
	tap_ok(!err && calls == 2 && !strcmp(got, "1/2/3,4/5/6,7/8/9"),
	       "EAGAIN once: read again, the second call's counts (got %d, %lu calls, %s)",
	       err, calls, got);

	out[0] = out[1] = out[2] = poison;
	calls = 0;
	fake.nr_errno = CGROUP_SHARE_READ_TRIES - 1;
	fake.failed = 0;
	err = cgroup_share__read(3, RF, 1, ids, 3, out, &calls);
	show(out, 3, got, sizeof(got));
	tap_ok(!err && calls == CGROUP_SHARE_READ_TRIES && !strcmp(got, "1/2/3,4/5/6,7/8/9"),
	       "EAGAIN %d times: the last try reads (got %d, %lu calls, %s)",
	       CGROUP_SHARE_READ_TRIES - 1, err, calls, got);

	out[0] = out[1] = out[2] = poison;
	calls = 0;
	fake.nr_errno = 0;
	err = cgroup_share__read(3, RF, 1, ids, 3, out, &calls);
	tap_ok(err == -EAGAIN && calls == CGROUP_SHARE_READ_TRIES && untouched(out, 3),
	       "EAGAIN every time: -EAGAIN after %d calls, output untouched (got %d, %lu)",
	       CGROUP_SHARE_READ_TRIES, err, calls);

	calls = 0;
	fake.batch_errno = EINTR;
	err = cgroup_share__read(3, RF, 1, ids, 3, out, &calls);
	tap_ok(err == -EINTR && calls == 1 && untouched(out, 3),
	       "EINTR: no retry, -EINTR (got %d, %lu calls)", err, calls);
	fake.batch_errno = 0;
}

/* @what's message is @want */
static void check_msg(const char *what, const struct cgroup_share_refusal *r, const char *want)
{
	char buf[2 * PATH_MAX + 512];

	tap_str_eq(cgroup_share__strerror(r, buf, sizeof(buf)), want, what);
}

/* each refusal's message, naming the cgroup the kernel blamed */
static void test_strerror(void)
{
	struct cgroup a = { .name = (char *)"A", .path = (char *)"/sys/fs/cgroup/A" };
	struct cgroup b = { .name = (char *)"B/c", .path = (char *)"/sys/fs/cgroup/B/c" };
	struct cgroup a2 = { .name = (char *)"/A", .path = (char *)"/sys/fs/cgroup/A" };
	const char *mnt = "/sys/fs/cgroup";
	static const char fix[] = "the kernel gave it none; without the cgroup2 fix, cgroups get it once something writes the root's cgroup.subtree_control: enable a controller there (e.g. echo +pids > /sys/fs/cgroup/cgroup.subtree_control)";
	char want[1024];

	check_msg("ENOTTY: the fallback's words as before",
		  &(struct cgroup_share_refusal){ .err = -ENOTTY, .nr = 2, .mnt = mnt },
		  "the running kernel has no PERF_EVENT_IOC_ATTACH_CGROUP (ENOTTY): it needs the shared-cgroup perf series");
	check_msg("EINVAL: the kernel does not know the request",
		  &(struct cgroup_share_refusal){ .err = -EINVAL, .nr = 2, .mnt = mnt },
		  "the kernel does not take perfx's PERF_EVENT_IOC_ATTACH_CGROUP request (EINVAL): it follows another version of the shared-cgroup ABI");
	check_msg("E2BIG: how many, and the limit",
		  &(struct cgroup_share_refusal){ .err = -E2BIG, .nr = 65537, .mnt = mnt },
		  "too many cgroups for one event (E2BIG): 65537, the kernel takes at most 65536, and at most 524288 cgroups times the members of an event group");
	check_msg("EOPNOTSUPP: the event cannot be counted per cgroup",
		  &(struct cgroup_share_refusal){ .err = -EOPNOTSUPP, .nr = 2, .mnt = mnt },
		  "the event cannot be counted per cgroup (EOPNOTSUPP): its PMU does not count per task (an uncore or AUX PMU)");
	snprintf(want, sizeof(want),
		 "cgroup 'B/c' (/sys/fs/cgroup/B/c) has no perf_event controller state (ENODEV): %s",
		 fix);
	check_msg("ENODEV on cgroup2: the cgroup, and what to write where",
		  &(struct cgroup_share_refusal){ .err = -ENODEV, .nr = 2, .mnt = mnt, .cgrp = &b,
						  .ctrl = CGROUP_CONTROLLER_V2 }, want);
	snprintf(want, sizeof(want),
		 "cgroup 'B/c' (/sys/fs/cgroup/B/c) has no perf_event controller state (ENODEV): %s, or perf_event is bound to cgroup v1 or disabled",
		 fix);
	check_msg("ENODEV, /proc/cgroups unread: every cause",
		  &(struct cgroup_share_refusal){ .err = -ENODEV, .nr = 2, .mnt = mnt, .cgrp = &b,
						  .ctrl = CGROUP_CONTROLLER_UNKNOWN }, want);
	check_msg("ENODEV with perf_event on cgroup v1",
		  &(struct cgroup_share_refusal){ .err = -ENODEV, .nr = 2, .mnt = mnt, .cgrp = &a,
						  .ctrl = CGROUP_CONTROLLER_V1 },
		  "cgroup 'A' (/sys/fs/cgroup/A) has no perf_event controller state (ENODEV): the perf_event controller is bound to a cgroup v1 hierarchy: unmount it there to count cgroup2 cgroups");
	check_msg("ENODEV with perf_event disabled",
		  &(struct cgroup_share_refusal){ .err = -ENODEV, .nr = 2, .mnt = mnt, .cgrp = &a,
						  .ctrl = CGROUP_CONTROLLER_DISABLED },
		  "cgroup 'A' (/sys/fs/cgroup/A) has no perf_event controller state (ENODEV): the perf_event controller is disabled (cgroup_disable=perf_event on the kernel command line)");
	check_msg("ENOENT: the cgroup that vanished",
		  &(struct cgroup_share_refusal){ .err = -ENOENT, .nr = 2, .mnt = mnt, .cgrp = &b },
		  "cgroup 'B/c' (/sys/fs/cgroup/B/c) is gone or not visible here (ENOENT): it was removed after perfx found it, or is outside this cgroup namespace");
	check_msg("ENOENT without an index in range",
		  &(struct cgroup_share_refusal){ .err = -ENOENT, .nr = 2, .mnt = mnt },
		  "a cgroup is gone or not visible here (ENOENT): it was removed after perfx found it, or is outside this cgroup namespace");
	check_msg("EEXIST: a name given twice",
		  &(struct cgroup_share_refusal){ .err = -EEXIST, .nr = 2, .mnt = mnt, .cgrp = &a,
						  .first = &a },
		  "cgroup 'A' (/sys/fs/cgroup/A) is named twice (EEXIST): name each cgroup once");
	check_msg("EEXIST: two names of one cgroup",
		  &(struct cgroup_share_refusal){ .err = -EEXIST, .nr = 2, .mnt = mnt, .cgrp = &a2,
						  .first = &a },
		  "cgroup '/A' (/sys/fs/cgroup/A) is named twice (EEXIST): it is cgroup 'A', named before it; name each cgroup once");
	check_msg("another errno: its name",
		  &(struct cgroup_share_refusal){ .err = -EIO, .nr = 2, .mnt = mnt },
		  "the kernel refused to attach the cgroups: Input/output error (EIO)");
}

/* cgroup_share__attach() with the kernel failing with @err, err_index @at */
static int attach_fails(int err, __u32 at, int nr, int *idx)
{
	int ret;

	fake.attach_errno = err;
	fake.err_index = at;
	*idx = 77;
	ret = cgroup_share__attach(3, ids, nr, idx);
	fake.attach_errno = 0;
	return ret;
}

/* the kernel fails with @err, err_index @at: the index taken is @want */
static void check_attach(const char *what, int err, __u32 at, int want)
{
	int idx, ret = attach_fails(err, at, 3, &idx);

	tap_ok(ret == -err && idx == want, "%s: %d (got %d, %d)", what, want, ret, idx);
}

static void test_attach(void)
{
	int idx = 77;

	fake.calls = 0;
	tap_ok(!cgroup_share__attach(3, ids, 3, &idx) && fake.calls == 1 && idx == -1 &&
	       !fake.attach.flags && fake.attach.nr == 3 && !fake.attach.reserved &&
	       !fake.attach.err_index && fake.attach.ids == (uintptr_t)ids,
	       "an attach passes { 0, nr, ids, 0, 0 } in one call; no index blamed");
	tap_ok(_IOC_SIZE(PERF_EVENT_IOC_ATTACH_CGROUP) == PERF_CGROUP_ATTACH_SIZE_VER0 &&
	       sizeof(struct perf_event_cgroup_attach) == 24 &&
	       _IOC_DIR(PERF_EVENT_IOC_ATTACH_CGROUP) == (_IOC_READ | _IOC_WRITE) &&
	       _IOC_SIZE(PERF_EVENT_IOC_READ_CGROUP) == PERF_CGROUP_READ_SIZE_VER0 &&
	       sizeof(struct perf_event_cgroup_read) == 32,
	       "the structs are v5's (24, 32 bytes), their size in the _IOWR numbers");
	tap_ok(cgroup_share__attach(3, ids, -1, &idx) == -EINVAL && fake.calls == 1 && idx == -1,
	       "a negative cgroup count is -EINVAL, without a call");
	check_attach("ENODEV: the kernel's err_index", ENODEV, 2, 2);
	check_attach("ENOENT: the kernel's err_index 0", ENOENT, 0, 0);
	check_attach("EEXIST: the kernel's err_index", EEXIST, 1, 1);
	check_attach("an err_index past the ids is not taken", EEXIST, 3, -1);
	check_attach("nor is an err_index of 2^32 - 1", ENOENT, ~0U, -1);
	tap_ok(attach_fails(EOPNOTSUPP, 1, 3, &idx) == -EOPNOTSUPP && idx == -1 &&
	       attach_fails(E2BIG, 1, 3, &idx) == -E2BIG && idx == -1 &&
	       attach_fails(EINVAL, 1, 3, &idx) == -EINVAL && idx == -1 &&
	       attach_fails(ENOTTY, 1, 3, &idx) == -ENOTTY && idx == -1,
	       "EOPNOTSUPP, E2BIG, EINVAL and ENOTTY blame no cgroup");
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

/*
 * random refusals: the attach takes the kernel's err_index only for
 * ENODEV, ENOENT and EEXIST and only in range, and the message of any of
 * them names the cgroup it blamed, or "a cgroup"
 */
static void fuzz_attach(void)
{
	static const int errs[] = { ENODEV, ENOENT, EEXIST, EOPNOTSUPP, E2BIG, EINVAL, ENOTTY,
				    EFAULT, ENOMEM, EIO };
	struct cgroup cg[3] = {
		{ .name = (char *)"x", .path = (char *)"/m/x" },
		{ .name = (char *)"y", .path = (char *)"/m/y" },
		{ .name = (char *)"z", .path = (char *)"/m/z" },
	};
	unsigned int x = 4242;
	int i, bad = 0;

	for (i = 0; i < 3000; i++) {
		char buf[2 * PATH_MAX + 512], name[64];
		struct cgroup_share_refusal r = { .mnt = "/m" };
		int err, idx, want, nr = i % 4, named;
		__u32 at;

		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		err = errs[x % ARRAY_SIZE(errs)];
		at = x % 3 ? (x >> 4) % 5 : x;
		r.err = attach_fails(err, at, nr, &idx);
		named = err == ENODEV || err == ENOENT || err == EEXIST;
		want = named && at < (__u32)nr ? (int)at : -1;
		r.nr = nr;
		r.cgrp = idx >= 0 ? &cg[idx] : NULL;
		r.first = idx > 0 ? &cg[0] : NULL;
		r.ctrl = x % 4;
		cgroup_share__strerror(&r, buf, sizeof(buf));
		snprintf(name, sizeof(name), "cgroup '%s' (%s)", idx >= 0 ? cg[idx].name : "",
			 idx >= 0 ? cg[idx].path : "");
		if (r.err != -err || idx != want ||
		    (named && !strstr(buf, idx >= 0 ? name : "a cgroup ")) ||
		    !strstr(buf, strerrorname_np(err))) {
			if (!bad)
				printf("#   errno %d at %u of %d: %d, '%s'\n", err, at, nr, idx,
				       buf);
			bad++;
		}
	}
	tap_ok(!bad, "3000 random refusals: err_index taken only in range for ENODEV/ENOENT/EEXIST, the message names it and the errno, %d wrong",
	       bad);
}

int main(void)
{
	tap_start("cgroup-share");
	test_parse();
	test_parse_group();
	test_read();
	test_read_retry();
	test_read_group();
	test_attach();
	test_strerror();
	fuzz();
	fuzz_attach();
	return tap_done();
}
