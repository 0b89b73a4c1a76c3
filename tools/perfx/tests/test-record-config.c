// SPDX-License-Identifier: GPL-2.0
/*
 * Proves perf record's option values as perfx reads them: --call-graph's
 * modes and sizes (perf's rounding and limits, garbage refused), -m's
 * pages and sizes rounded up to a power of two (a space or a suffix
 * after the number refused, where strtoul() once stopped), and the
 * default ring perf derives from perf_event_mlock_kb for any page size.
 */
#include <errno.h>
#include <string.h>

#include "lib/record-config.h"
#include "tests/tap.h"

static void check_callgraph(const char *arg, int want_err, enum record_callgraph mode,
			    unsigned int size, unsigned int depth)
{
	struct record_opts opts;
	int err;

	memset(&opts, 0, sizeof(opts));
	err = record_opts__parse_callgraph(&opts, arg);
	if (want_err) {
		tap_ok(err == want_err, "--call-graph '%s': refused (%d, want %d)", arg, err,
		       want_err);
		return;
	}
	tap_ok(!err && opts.callgraph == mode && opts.dump_size == size &&
	       opts.max_stack == depth && opts.sample_address == (mode == RECORD_CALLGRAPH_DWARF),
	       "--call-graph '%s': mode %d, dump size %u, depth %u (got %d, %d, %u, %u)", arg,
	       mode, size, depth, err, opts.callgraph, opts.dump_size, opts.max_stack);
}

static void check_pages(const char *arg, unsigned long page, int want_err, unsigned int want,
			bool want_rounded)
{
	unsigned int pages = 0;
	bool rounded = false;
	int err = record__parse_mmap_pages(arg, page, &pages, &rounded);

	if (want_err)
		tap_ok(err == -EINVAL, "-m '%s': refused (%d)", arg, err);
	else
		tap_ok(!err && pages == want && rounded == want_rounded,
		       "-m '%s' with %lu-byte pages: %u pages%s (got %d, %u)", arg, page, want,
		       want_rounded ? ", rounded up" : "", err, pages);
}

int main(void)
{
	tap_start("record-config");
	check_callgraph("fp", 0, RECORD_CALLGRAPH_FP, 0, 0);
	check_callgraph("fp,100", 0, RECORD_CALLGRAPH_FP, 0, 100);
	check_callgraph("fp,", 0, RECORD_CALLGRAPH_FP, 0, 0);
	check_callgraph("dwarf", 0, RECORD_CALLGRAPH_DWARF, 8192, 0);
	check_callgraph("dwarf,100", 0, RECORD_CALLGRAPH_DWARF, 104, 0);
	check_callgraph("dwarf,65528", 0, RECORD_CALLGRAPH_DWARF, 65528, 0);
	check_callgraph("lbr", 0, RECORD_CALLGRAPH_LBR, 0, 0);
	check_callgraph("dwarf,0", -ERANGE, 0, 0, 0);
	check_callgraph("dwarf,65529", -ERANGE, 0, 0, 0);
	check_callgraph("dwarf,4294967295", -ERANGE, 0, 0, 0);
	check_callgraph("dwarf,1k", -ERANGE, 0, 0, 0);
	check_callgraph("fp,x", -EINVAL, 0, 0, 0);
	check_callgraph("fp,-1", -EINVAL, 0, 0, 0);
	check_callgraph("", -EINVAL, 0, 0, 0);
	check_callgraph("fpx", -EINVAL, 0, 0, 0);
	check_callgraph("lbr,1", -EINVAL, 0, 0, 0);
	check_callgraph("DWARF", -EINVAL, 0, 0, 0);

	check_pages("4", 4096, 0, 4, false);
	check_pages("3", 4096, 0, 4, true);
	check_pages("129", 4096, 0, 256, true);
	check_pages("16K", 4096, 0, 4, false);
	check_pages("5K", 4096, 0, 2, false);
	check_pages("5k", 4096, 0, 2, false);
	check_pages("1M", 65536, 0, 16, false);
	check_pages("1B", 65536, 0, 1, false);
	check_pages("2147483648", 4096, 0, 2147483648U, false);
	check_pages("2147483649", 4096, 1, 0, false);
	check_pages("0", 4096, 1, 0, false);
	check_pages("0K", 4096, 1, 0, false);
	check_pages("1 ", 4096, 1, 0, false);
	check_pages(" 1", 4096, 1, 0, false);
	check_pages("-1", 4096, 1, 0, false);
	check_pages("1T", 4096, 1, 0, false);
	check_pages("1KB", 4096, 1, 0, false);
	check_pages("", 4096, 1, 0, false);

	tap_ok(record__default_mmap_pages(516, 4096) == 128,
	       "default ring: perf_event_mlock_kb 516, 4 KiB pages: 128 pages (%u)",
	       record__default_mmap_pages(516, 4096));
	tap_ok(record__default_mmap_pages(516, 65536) == 4,
	       "default ring: perf_event_mlock_kb 516, 64 KiB pages: 4 pages (%u)",
	       record__default_mmap_pages(516, 65536));
	tap_ok(record__default_mmap_pages(2052, 4096) == 512,
	       "default ring: perf_event_mlock_kb 2052: 512 pages (%u)",
	       record__default_mmap_pages(2052, 4096));
	tap_ok(record__default_mmap_pages(100, 4096) == 16,
	       "default ring: perf_event_mlock_kb 100: rounded down to 16 pages (%u)",
	       record__default_mmap_pages(100, 4096));
	tap_ok(record__default_mmap_pages(-1, 16384) == 32,
	       "default ring: no perf_event_mlock_kb: 512 KiB, 32 pages of 16 KiB (%u)",
	       record__default_mmap_pages(-1, 16384));
	tap_ok(record__default_mmap_pages(0, 4096) == 1,
	       "default ring: perf_event_mlock_kb 0: one page (%u)",
	       record__default_mmap_pages(0, 4096));
	return tap_done();
}
