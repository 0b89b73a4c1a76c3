// SPDX-License-Identifier: GPL-2.0
/*
 * Proves that a group is read in one read(2) through its leader: the
 * PERF_FORMAT_GROUP reply { nr, ena, run, { val, id }[nr] } lands in the
 * leader and the open members in evlist order, summed over threads, an
 * unopened member is skipped, and a reply of the wrong size or count is
 * -EIO naming the leader.  The "kernel" is a pipe holding the reply; the
 * list is read through evlist__read() and the events backend.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "lib/cpumap.h"
#include "lib/evlist-internal.h"
#include "lib/evsel-internal.h"
#include "lib/threadmap.h"
#include "tests/tap.h"

#define GROUP_RF	(PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | \
			 PERF_FORMAT_ID | PERF_FORMAT_GROUP)

/* A pipe whose read end holds @words of reply, or -1. */
static int reply_fd(const __u64 *reply, size_t words)
{
	int p[2];

	if (pipe(p))
		return -1;
	if (write(p[1], reply, words * sizeof(*reply)) != (ssize_t)(words * sizeof(*reply))) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	close(p[1]);
	return p[0];
}

/* leader + two members, one CPU, @nthreads threads, fds all -1 */
static struct evlist *group_new(int nthreads)
{
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr) };
	struct evlist *evlist = evlist__new();
	struct thread_map *threads = NULL;
	struct cpu_map *cpus = NULL;
	char list[32];
	int i;

	/* two tasks that exist: this one and its parent */
	if (nthreads == 2)
		snprintf(list, sizeof(list), "%d,%d", getpid(), getppid());
	else
		snprintf(list, sizeof(list), "%d", getpid());
	if (!evlist || cpu_map__parse("0", &cpus) ||
	    thread_map__parse(list, 0, NULL, &threads))
		return NULL;
	for (i = 0; i < 3; i++) {
		struct evsel *evsel;

		attr.config = i;
		evsel = evsel__new(&attr, i ? "member" : "leader");
		if (!evsel || evlist__add(evlist, evsel) ||
		    evsel__prepare(evsel, cpus, threads))
			return NULL;
		evsel->leader = evlist->entries[0];
		evsel->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
					  PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
					  PERF_FORMAT_GROUP;
		/* what evsel__open_cpu() allocates, none open */
		evsel->fds = malloc(nthreads * sizeof(int));
		if (!evsel->fds)
			return NULL;
		memset(evsel->fds, -1, nthreads * sizeof(int));
	}
	evlist->entries[0]->nr_members = 3;
	evlist__set_maps(evlist, cpus, threads);
	cpu_map__put(cpus);
	thread_map__put(threads);
	return evlist;
}

/* a member gets a dummy fd, never read, so that it counts as open */
static int member_fd(void)
{
	return open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void open_members(struct evlist *evlist, int t, bool second)
{
	evlist->entries[1]->fds[t] = member_fd();
	if (second)
		evlist->entries[2]->fds[t] = member_fd();
}

static void test_one_thread(void)
{
	const __u64 reply[] = { 3, 1000, 500, 11, 101, 22, 102, 33, 103 };
	struct evlist *evlist = group_new(1);
	struct evsel *failed = NULL;
	int err;

	evlist->entries[0]->fds[0] = reply_fd(reply, 9);
	open_members(evlist, 0, true);
	err = evlist__read(evlist, &failed);
	tap_ok(!err, "a group reads in one read: %d", err);
	tap_ok(evlist->entries[0]->counts[0].val == 11 &&
	       evlist->entries[1]->counts[0].val == 22 &&
	       evlist->entries[2]->counts[0].val == 33,
	       "values go to the leader and its members in order");
	tap_ok(evlist->entries[2]->counts[0].ena == 1000 &&
	       evlist->entries[2]->counts[0].run == 500,
	       "every member gets the group's times");
	evlist__delete(evlist);	/* closes the fds */
}

static void test_threads_sum(void)
{
	const __u64 r0[] = { 3, 1000, 1000, 1, 101, 2, 102, 3, 103 };
	const __u64 r1[] = { 3, 2000, 1000, 10, 201, 20, 202, 30, 203 };
	struct evlist *evlist = group_new(2);
	struct evsel *failed = NULL;

	evlist->entries[0]->fds[0] = reply_fd(r0, 9);
	evlist->entries[0]->fds[1] = reply_fd(r1, 9);
	open_members(evlist, 0, true);
	open_members(evlist, 1, true);
	tap_ok(!evlist__read(evlist, &failed) &&
	       evlist->entries[1]->counts[0].val == 22 &&
	       evlist->entries[1]->counts[0].ena == 3000 &&
	       evlist->entries[1]->counts[0].run == 2000,
	       "two threads' group reads are summed per member");
	evlist__delete(evlist);	/* closes the fds */
}

static void test_unopened_member(void)
{
	const __u64 reply[] = { 2, 1000, 1000, 5, 101, 7, 103 };
	struct evlist *evlist = group_new(1);
	struct evsel *failed = NULL;

	evlist->entries[0]->fds[0] = reply_fd(reply, 7);
	evlist->entries[2]->fds[0] = member_fd();	/* member 1 did not open */
	tap_ok(!evlist__read(evlist, &failed) &&
	       evlist->entries[1]->counts[0].val == 0 &&
	       evlist->entries[2]->counts[0].val == 7,
	       "a member that is not open is skipped, the next one gets its value");
	evlist__delete(evlist);	/* closes the fds */
}

static void expect_eio(const char *what, const __u64 *reply, size_t words, bool second)
{
	struct evlist *evlist = group_new(1);
	struct evsel *failed = NULL;
	int err;

	evlist->entries[0]->fds[0] = reply_fd(reply, words);
	open_members(evlist, 0, second);
	err = evlist__read(evlist, &failed);
	tap_ok(err == -EIO && failed == evlist->entries[0],
	       "%s: -EIO naming the leader (got %d)", what, err);
	evlist__delete(evlist);	/* closes the fds */
}

static void test_garbage(void)
{
	const __u64 more[] = { 4, 1, 1, 1, 1, 2, 2, 3, 3, 4, 4 };
	const __u64 fewer[] = { 2, 1, 1, 1, 1, 2, 2 };
	const __u64 ragged[] = { 3, 1, 1, 1, 1, 2, 2 };
	const __u64 zero[] = { 0, 1, 1 };
	const __u64 huge[] = { (__u64)-1, 1, 1 };
	const __u64 header[] = { 3, 1 };

	expect_eio("more values than members", more, 11, true);
	expect_eio("fewer values than open members", fewer, 7, true);
	expect_eio("a size that does not match the count", ragged, 7, true);
	expect_eio("no values at all", zero, 3, true);
	expect_eio("a count of 2^64 - 1", huge, 3, true);
	expect_eio("a reply shorter than its header", header, 2, true);
	expect_eio("an empty reply", header, 0, true);
}

int main(void)
{
	tap_start("evlist-read");
	test_one_thread();
	test_threads_sum();
	test_unopened_member();
	test_garbage();
	return tap_done();
}
