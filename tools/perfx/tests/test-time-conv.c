// SPDX-License-Identifier: GPL-2.0
/*
 * Proves TIME_CONV against perf's layout on fabricated control pages:
 * every field at perf's offset with a value of its own, nothing written
 * where the kernel offers no conversion or there is no ring, and a page
 * whose seqlock never settles refused, not read torn.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/data.h"
#include "lib/time-conv.h"
#include "tests/tap.h"

/* synthesize__time_conv(@pc)'s return value, and its bytes in @out[@len] */
static int synth(const struct perf_event_mmap_page *pc, unsigned char *out, size_t *len)
{
	struct perfx_writer w;
	int fd = memfd_create("out", 0), ret = -EIO;
	off_t end;

	*len = 0;
	if (fd < 0 || perfx_writer__init(&w, fd, "out"))
		return ret;
	ret = synthesize__time_conv(&w, pc);
	if (ret >= 0 && perfx_writer__flush(&w))
		ret = -EIO;
	end = lseek(fd, 0, SEEK_END);
	if (end > 0 && end <= 64 && pread(fd, out, end, 0) == end)
		*len = end;
	perfx_writer__exit(&w);
	close(fd);
	return ret;
}

static __u64 u64_at(const unsigned char *p, size_t off)
{
	__u64 v;

	memcpy(&v, p + off, sizeof(v));
	return v;
}

static void fill(struct perf_event_mmap_page *pc)
{
	memset(pc, 0, sizeof(*pc));
	pc->lock = 6;
	pc->time_shift = 31;
	pc->time_mult = 0x12345678;
	pc->time_zero = 0x1111222233334444ULL;
	pc->time_cycles = 0x5555666677778888ULL;
	pc->time_mask = 0x00ffffffffffffffULL;
	pc->cap_user_time_zero = 1;
	pc->cap_user_time_short = 1;
}

static void test_record(void)
{
	struct perf_event_mmap_page pc;
	unsigned char out[64], zero[6] = { 0 };
	size_t len;
	int ret;

	fill(&pc);
	ret = synth(&pc, out, &len);
	tap_ok(ret == 1 && len == 56, "a page with cap_user_time_zero: one 56-byte record (%d, %zu)",
	       ret, len);
	if (len != 56)
		return;
	tap_ok(u64_at(out, 0) == (PERF_RECORD_TIME_CONV | 56ULL << 48),
	       "header: type 79, misc 0, size 56");
	tap_ok(u64_at(out, 8) == 31 && u64_at(out, 16) == 0x12345678,
	       "time_shift at 8, time_mult at 16");
	tap_ok(u64_at(out, 24) == 0x1111222233334444ULL && u64_at(out, 32) == 0x5555666677778888ULL,
	       "time_zero at 24, time_cycles at 32");
	tap_ok(u64_at(out, 40) == 0x00ffffffffffffffULL, "time_mask at 40");
	tap_ok(out[48] == 1 && out[49] == 1 && !memcmp(out + 50, zero, 6),
	       "cap_user_time_zero at 48, cap_user_time_short at 49, 6 zero bytes");

	pc.cap_user_time_short = 0;
	synth(&pc, out, &len);
	tap_ok(len == 56 && out[48] == 1 && out[49] == 0,
	       "cap_user_time_short clear: written as 0");
}

static void test_none(void)
{
	struct perf_event_mmap_page pc;
	unsigned char out[64];
	size_t len;
	int ret;

	fill(&pc);
	pc.cap_user_time_zero = 0;
	ret = synth(&pc, out, &len);
	tap_ok(ret == 0 && len == 0, "no cap_user_time_zero: nothing written, as perf (%d, %zu)",
	       ret, len);
	ret = synth(NULL, out, &len);
	tap_ok(ret == 0 && len == 0, "no ring: nothing written (%d, %zu)", ret, len);

	fill(&pc);
	pc.lock = 7;	/* a writer that never finishes */
	ret = synth(&pc, out, &len);
	tap_ok(ret == -EBUSY && len == 0, "a seqlock held odd: -EBUSY, nothing written (%d, %zu)",
	       ret, len);
}

int main(void)
{
	tap_start("time-conv");
	test_record();
	test_none();
	return tap_done();
}
