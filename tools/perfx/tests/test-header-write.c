// SPDX-License-Identifier: GPL-2.0
/*
 * The bytes perfx record writes where perf's layouts are exact: a pipe's
 * HEADER_FEATURE records (only those perf has as records, none over the
 * u16 record size, then the HEADER_LAST_FEATURE mark), the GROUP_DESC
 * and SAMPLE_TIME bodies, and CPU_MAP's three encodings.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/cpumap.h"
#include "lib/data.h"
#include "lib/evlist-internal.h"
#include "lib/feature.h"
#include "lib/header.h"
#include "lib/synthesize-evlist.h"
#include "tests/tap.h"

/* what @fn wrote through a writer into a memfd, in a new buffer */
static size_t written(int (*fn)(struct perfx_writer *w, void *arg), void *arg, char **out)
{
	struct perfx_writer w;
	int fd = memfd_create("out", 0);
	off_t len = -1;

	*out = NULL;
	if (fd < 0 || perfx_writer__init(&w, fd, "out"))
		return 0;
	if (!fn(&w, arg) && !perfx_writer__flush(&w))
		len = lseek(fd, 0, SEEK_END);
	perfx_writer__exit(&w);
	*out = len > 0 ? malloc(len) : NULL;
	if (*out && pread(fd, *out, len, 0) != len)
		len = 0;
	close(fd);
	return len > 0 ? (size_t)len : 0;
}

static int write_pipe(struct perfx_writer *w, void *h)
{
	return perfx_header__write_pipe(h, w, true);
}

static void test_pipe_features(void)
{
	static char big[70000];
	struct perfx_header h = { .pipe = true };
	struct {
		__u64 magic, size;
		struct { __u32 type; __u16 misc, size; __u64 feat_id; char body[8]; } host;
		struct { __u32 type; __u16 misc, size; __u64 feat_id; } last;
	} __attribute__((packed)) want = {
		PERF_MAGIC2, 16,
		{ PERF_RECORD_HEADER_FEATURE, 0, 24, HEADER_HOSTNAME, "host" },
		{ PERF_RECORD_HEADER_FEATURE, 0, 16, HEADER_LAST_FEATURE },
	};
	char *out;
	size_t len;

	perfx_header__set_feature(&h, HEADER_HOSTNAME, "host\0\0\0", 8);
	perfx_header__set_feature(&h, HEADER_CMDLINE, big, sizeof(big));
	perfx_header__set_feature(&h, HEADER_CACHE, "\1\0\0\0\0\0\0\0", 8);
	len = written(write_pipe, &h, &out);
	tap_ok(len == sizeof(want) && !memcmp(out, &want, len),
	       "pipe: HOSTNAME, no CMDLINE of 70000 bytes, no CACHE, the end mark (%zu bytes)",
	       len);
	free(out);
	perfx_header__exit(&h);
}

static void test_bodies(void)
{
	struct feature_group g = { .leader_idx = 1, .nr_members = 2 };
	struct perfx_header h = { 0 };
	char want[4 + 4 + 64 + 8] = { 1, 0, 0, 0, 64 };
	__u64 times[2] = { 10, 20 };

	memcpy(want + 8, "{anon_group}", 12);
	want[72] = 1;
	want[76] = 2;
	tap_ok(!feature__add_group_desc(&h, &g, 1) && h.feat_size[HEADER_GROUP_DESC] == sizeof(want) &&
	       !memcmp(h.feat[HEADER_GROUP_DESC], want, sizeof(want)),
	       "GROUP_DESC: count, \"{anon_group}\" padded to 64, leader index, members");
	tap_ok(!feature__add_sample_time(&h, 10, 20) && h.feat_size[HEADER_SAMPLE_TIME] == 16 &&
	       !memcmp(h.feat[HEADER_SAMPLE_TIME], times, 16), "SAMPLE_TIME: first, last");
	perfx_header__exit(&h);
}

static int write_cpu_map(struct perfx_writer *w, void *evlist)
{
	return synthesize__cpu_map(w, evlist);
}

static void expect_cpu_map(const char *list, const void *data, size_t len, const char *how)
{
	struct evlist evlist = { 0 };
	struct perf_event_header head = { PERF_RECORD_CPU_MAP, 0, 8 + len };
	char *out;
	size_t n = 0;

	if (list ? !cpu_map__parse(list, &evlist.cpus) : !!(evlist.cpus = cpu_map__new_any()))
		n = written(write_cpu_map, &evlist, &out);
	tap_ok(n == 8 + len && !memcmp(out, &head, 8) && !memcmp(out + 8, data, len),
	       "CPU_MAP of %s: %s", list ? list : "any CPU", how);
	if (n)
		free(out);
	cpu_map__put(evlist.cpus);
}

static void test_cpu_map(void)
{
	static const __u16 range[] = { 2, 0, 1, 3 }, one[] = { 2, 0, 5, 5 };
	static const __u16 any[] = { 0, 1, 0xffff, 0 };
	static const __u16 list[] = { 0, 2, 0, 100 };
	static const __u8 mask[] = { 1, 0, 1, 0, 4, 0, 0x25, 0, 0, 0, 0, 0, 0, 0, 0, 0 };

	expect_cpu_map("1-3", range, sizeof(range), "a range");
	expect_cpu_map("5", one, sizeof(one), "a range of one");
	expect_cpu_map(NULL, any, sizeof(any), "a list of -1");
	expect_cpu_map("0,100", list, sizeof(list), "a list, smaller than a mask");
	expect_cpu_map("0,2,5", mask, sizeof(mask), "a mask of 32-bit words");
}

int main(void)
{
	tap_start("test-header-write");
	test_pipe_features();
	test_bodies();
	test_cpu_map();
	return tap_failed ? 1 : 0;
}
