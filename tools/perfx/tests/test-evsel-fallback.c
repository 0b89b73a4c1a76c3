// SPDX-License-Identifier: GPL-2.0
/*
 * perf's answers to a refused event, without a kernel: the default
 * cycles:P lowered one precise level per EOPNOTSUPP, then cpu-clock with
 * the modifiers perf names; cpu-clock for any cycles event where there
 * is no PMU (ENOENT, ENXIO, ENODEV), not for other events or errors;
 * PERF_FORMAT_LOST taken from the whole list once on EINVAL.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <linux/perf_event.h>

#include "lib/evlist.h"
#include "lib/evsel-internal.h"
#include "lib/util.h"
#include "tests/tap.h"

static struct evsel *new_event(__u32 type, __u64 config, const char *name)
{
	struct perf_event_attr attr = { .type = type, .config = config };

	return evsel__new(&attr, name);
}

static void test_default_cycles(void)
{
	struct evsel *evsel = evsel__new_cycles();
	const struct perf_event_attr *attr;
	int lowered = 0;
	bool ok;

	if (!tap_ok(evsel != NULL, "cycles:P: made"))
		return;
	attr = evsel__attr(evsel);
	tap_ok(attr->type == PERF_TYPE_HARDWARE && attr->config == PERF_COUNT_HW_CPU_CYCLES &&
	       attr->precise_ip == 3 && evsel->precise_max &&
	       !strcmp(evsel__name(evsel), "cycles:P"),
	       "cycles:P: hardware cycles, precise_ip 3, lowered on refusal (%s)",
	       evsel__name(evsel));
	while (attr->precise_ip && evsel__fallback(evsel, -EOPNOTSUPP))
		lowered++;
	tap_ok(lowered == 3 && attr->type == PERF_TYPE_HARDWARE,
	       "cycles:P: EOPNOTSUPP lowers precise_ip 3 -> 0, one level a time (%d)", lowered);
	ok = evsel__fallback(evsel, -EOPNOTSUPP);
	tap_ok(ok && attr->type == PERF_TYPE_SOFTWARE &&
	       attr->config == PERF_COUNT_SW_CPU_CLOCK &&
	       !strcmp(evsel__name(evsel), attr->exclude_guest ? "cpu-clock" : "cpu-clock:HG"),
	       "cycles:P: refused at precise_ip 0, cpu-clock (%s, exclude_guest %d)",
	       evsel__name(evsel), attr->exclude_guest);
	tap_ok(!evsel__fallback(evsel, -EOPNOTSUPP) && !evsel__fallback(evsel, -ENOENT),
	       "cpu-clock refused: nothing left to try");
	evsel__delete(evsel);
}

static void test_cycles(void)
{
	struct evsel *evsel = new_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles:k");
	struct perf_event_attr *attr;
	const int no_pmu[] = { -ENOENT, -ENXIO, -ENODEV };
	unsigned int i;
	bool ok;

	if (!tap_ok(evsel != NULL, "cycles:k: made"))
		return;
	attr = evsel__attr(evsel);
	attr->exclude_user = 1;
	attr->exclude_hv = 1;
	attr->precise_ip = 1;
	tap_ok(!evsel__fallback(evsel, -EOPNOTSUPP) && !evsel__fallback(evsel, -EINVAL) &&
	       attr->precise_ip == 1 && attr->type == PERF_TYPE_HARDWARE,
	       "cycles:k as the user gave it: EOPNOTSUPP and EINVAL are the user's");
	attr->precise_ip = 0;
	ok = evsel__fallback(evsel, -ENODEV);
	tap_ok(ok && attr->type == PERF_TYPE_SOFTWARE &&
	       !strcmp(evsel__name(evsel), "cpu-clock:k"),
	       "cycles:k without a PMU: cpu-clock:k (%s)", evsel__name(evsel));
	evsel__delete(evsel);
	for (i = 0; i < ARRAY_SIZE(no_pmu); i++) {
		evsel = new_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "cycles");
		if (!evsel)
			return;
		ok = evsel__fallback(evsel, no_pmu[i]);
		tap_ok(ok &&
		       evsel__attr(evsel)->config == PERF_COUNT_SW_CPU_CLOCK,
		       "cycles, error %d: cpu-clock", no_pmu[i]);
		evsel__delete(evsel);
	}
	evsel = new_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "instructions");
	if (!evsel)
		return;
	tap_ok(!evsel__fallback(evsel, -ENOENT) && !evsel__fallback(evsel, -EOPNOTSUPP) &&
	       evsel__attr(evsel)->type == PERF_TYPE_HARDWARE,
	       "instructions without a PMU: nothing to try");
	evsel__delete(evsel);
}

static void test_lost(void)
{
	struct evlist *evlist = evlist__new();
	struct evsel *a, *b;

	a = new_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "task-clock");
	b = new_event(PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "page-faults");
	if (!evlist || !a || !b || evlist__add(evlist, a) || evlist__add(evlist, b)) {
		tap_ok(0, "LOST: list made");
		return;
	}
	evsel__attr(a)->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	evsel__attr(b)->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	tap_ok(evlist__fallback(evlist, b, -EINVAL) &&
	       evsel__attr(a)->read_format == PERF_FORMAT_ID &&
	       evsel__attr(b)->read_format == PERF_FORMAT_ID,
	       "EINVAL: PERF_FORMAT_LOST taken from every event, ID kept");
	tap_ok(!evlist__fallback(evlist, b, -EINVAL),
	       "EINVAL again, no LOST left: nothing to try");
	evlist__delete(evlist);
}

int main(void)
{
	tap_start("evsel-fallback");
	test_default_cycles();
	test_cycles();
	test_lost();
	return tap_done();
}
