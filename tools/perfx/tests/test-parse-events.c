// SPDX-License-Identifier: GPL-2.0
/*
 * Proves that every event syntax perfx stat accepts turns into the right
 * attr and name, against a fake PMU and tracefs tree, and that malformed
 * lists are rejected with -EINVAL / -ENOENT and nothing leaks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/evlist.h"
#include "lib/evsel.h"
#include "lib/parse-events.h"
#include "tests/tap.h"

static char root[64];
static struct parse_events_env env;

static void put(const char *rel, const char *content)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(content, f);
		fclose(f);
	}
}

static void mk(const char *rel)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	mkdir(path, 0755);
}

static void setup(void)
{
	snprintf(root, sizeof(root), "/tmp/perfx-test-pe.%d", getpid());
	mkdir(root, 0755);
	mk("pmu");
	mk("pmu/cpu");
	mk("pmu/cpu/format");
	mk("pmu/cpu/events");
	put("pmu/cpu/type", "4\n");
	put("pmu/cpu/format/event", "config:0-7\n");
	put("pmu/cpu/format/umask", "config:8-15\n");
	put("pmu/cpu/format/edge", "config:18\n");
	put("pmu/cpu/format/cmask", "config:24-31\n");
	put("pmu/cpu/format/split", "config1:0-3,8-11\n");
	put("pmu/cpu/events/cycles-t", "event=0x3c,umask=0x1\n");
	mk("tp");
	mk("tp/sched");
	mk("tp/sched/sched_switch");
	put("tp/sched/sched_switch/id", "316\n");
	env.pmu_root = NULL;
	{
		static char pmu[96], tp[96];

		snprintf(pmu, sizeof(pmu), "%s/pmu", root);
		snprintf(tp, sizeof(tp), "%s/tp", root);
		env.pmu_root = pmu;
		env.tracefs = tp;
	}
}

struct want {
	const char *name;
	__u32 type;
	__u64 config;
	__u64 config1;
	int excl;	/* exclude_user | exclude_kernel << 1 | exclude_hv << 2 */
	int leader;	/* index of the leader */
};

static void check_ok(const char *str, int nr, const struct want *want)
{
	struct parse_events_error perr = { 0, "" };
	struct evlist *evlist = evlist__new();
	int err, i, good;

	err = parse_events(evlist, str, &env, &perr);
	good = !err && evlist->nr == nr;
	for (i = 0; good && i < nr; i++) {
		struct evsel *e = evlist->entries[i];
		int excl = e->attr.exclude_user | e->attr.exclude_kernel << 1 |
			   e->attr.exclude_hv << 2;

		good = !strcmp(e->name, want[i].name) && e->attr.type == want[i].type &&
		       e->attr.config == want[i].config && e->attr.config1 == want[i].config1 &&
		       excl == want[i].excl && e->leader == evlist->entries[want[i].leader];
		if (!good)
			printf("#   event %d: name %s type %u config %#llx config1 %#llx excl %d\n",
			       i, e->name, e->attr.type, (unsigned long long)e->attr.config,
			       (unsigned long long)e->attr.config1, excl);
	}
	tap_ok(good, "'%s' parses (err %d %s)", str, err, perr.msg);
	evlist__delete(evlist);
}

static void check_err(const char *str, int want_err)
{
	struct parse_events_error perr = { 0, "" };
	struct evlist *evlist = evlist__new();
	int err = parse_events(evlist, str, &env, &perr);

	tap_ok(err == want_err && perr.msg[0], "'%s' is rejected with %d (got %d: %s)",
	       str ? str : "(null)", want_err, err, perr.msg);
	evlist__delete(evlist);
}

#define W(...) ((const struct want[]){ __VA_ARGS__ })
#define HW	PERF_TYPE_HARDWARE
#define SW	PERF_TYPE_SOFTWARE
#define HWC	PERF_TYPE_HW_CACHE

int main(void)
{
	int nr;

	tap_start("parse-events");
	setup();
	check_ok("cycles", 1, W({ "cycles", HW, PERF_COUNT_HW_CPU_CYCLES, 0, 0, 0 }));
	check_ok("cpu-cycles,instructions", 2,
		 W({ "cpu-cycles", HW, 0, 0, 0, 0 }, { "instructions", HW, 1, 0, 0, 1 }));
	check_ok("branches,branch-misses,cache-references,cache-misses,bus-cycles,ref-cycles", 6,
		 W({ "branches", HW, 4, 0, 0, 0 }, { "branch-misses", HW, 5, 0, 0, 1 },
		   { "cache-references", HW, 2, 0, 0, 2 }, { "cache-misses", HW, 3, 0, 0, 3 },
		   { "bus-cycles", HW, 6, 0, 0, 4 }, { "ref-cycles", HW, 9, 0, 0, 5 }));
	check_ok("stalled-cycles-frontend,idle-cycles-backend", 2,
		 W({ "stalled-cycles-frontend", HW, 7, 0, 0, 0 },
		   { "idle-cycles-backend", HW, 8, 0, 0, 1 }));
	check_ok("cpu-clock,task-clock,context-switches,cpu-migrations", 4,
		 W({ "cpu-clock", SW, 0, 0, 0, 0 }, { "task-clock", SW, 1, 0, 0, 1 },
		   { "context-switches", SW, 3, 0, 0, 2 }, { "cpu-migrations", SW, 4, 0, 0, 3 }));
	check_ok("page-faults,minor-faults,major-faults,cgroup-switches", 4,
		 W({ "page-faults", SW, 2, 0, 0, 0 }, { "minor-faults", SW, 5, 0, 0, 1 },
		   { "major-faults", SW, 6, 0, 0, 2 }, { "cgroup-switches", SW, 11, 0, 0, 3 }));
	check_ok("cs,migrations,faults", 3,
		 W({ "cs", SW, 3, 0, 0, 0 }, { "migrations", SW, 4, 0, 0, 1 },
		   { "faults", SW, 2, 0, 0, 2 }));
	check_ok("cycles:u", 1, W({ "cycles:u", HW, 0, 0, 6, 0 }));
	check_ok("cycles:k", 1, W({ "cycles:k", HW, 0, 0, 5, 0 }));
	check_ok("cycles:h", 1, W({ "cycles:h", HW, 0, 0, 3, 0 }));
	check_ok("task-clock:uk", 1, W({ "task-clock:uk", SW, 1, 0, 4, 0 }));
	check_ok("r003c", 1, W({ "r003c", PERF_TYPE_RAW, 0x3c, 0, 0, 0 }));
	check_ok("rABCD:u", 1, W({ "rABCD:u", PERF_TYPE_RAW, 0xabcd, 0, 6, 0 }));
	check_ok("cpu/config=0x1234/", 1, W({ "cpu/config=0x1234/", 4, 0x1234, 0, 0, 0 }));
	check_ok("cpu/event=0x3c,umask=0x2/", 1,
		 W({ "cpu/event=0x3c,umask=0x2/", 4, 0x23c, 0, 0, 0 }));
	check_ok("cpu/event=1,edge,cmask=3/k", 1,
		 W({ "cpu/event=1,edge,cmask=3/k", 4, 0x3040001, 0, 5, 0 }));
	check_ok("cpu/event=1/:u", 1, W({ "cpu/event=1/:u", 4, 1, 0, 6, 0 }));
	check_ok("cpu/split=0xff,config1=0/", 1, W({ "cpu/split=0xff,config1=0/", 4, 0, 0, 0, 0 }));
	check_ok("cpu/split=0xff/", 1, W({ "cpu/split=0xff/", 4, 0, 0xf0f, 0, 0 }));
	check_ok("cpu/cycles-t/", 1, W({ "cpu/cycles-t/", 4, 0x13c, 0, 0, 0 }));
	check_ok("cpu/event=2,name=foo/", 1, W({ "cpu/event=2,name=foo/", 4, 2, 0, 0, 0 }));
	check_ok("sched:sched_switch", 1,
		 W({ "sched:sched_switch", PERF_TYPE_TRACEPOINT, 316, 0, 0, 0 }));
	check_ok("sched:sched_switch:k", 1,
		 W({ "sched:sched_switch:k", PERF_TYPE_TRACEPOINT, 316, 0, 5, 0 }));
	check_ok("{cycles,instructions}", 2,
		 W({ "cycles", HW, 0, 0, 0, 0 }, { "instructions", HW, 1, 0, 0, 0 }));
	check_ok("{cycles,instructions}:u,cs", 3,
		 W({ "cycles", HW, 0, 0, 6, 0 }, { "instructions", HW, 1, 0, 6, 0 },
		   { "cs", SW, 3, 0, 0, 2 }));
	check_ok("cs,{task-clock,cpu/event=1/,r1}:k", 4,
		 W({ "cs", SW, 3, 0, 0, 0 }, { "task-clock", SW, 1, 0, 5, 1 },
		   { "cpu/event=1/", 4, 1, 0, 5, 1 }, { "r1", PERF_TYPE_RAW, 1, 0, 5, 1 }));
	/* hardware cache events: cache | op << 8 | result << 16, as perf 6.1 */
	check_ok("L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses", 4,
		 W({ "L1-dcache-loads", HWC, 0, 0, 0, 0 },
		   { "L1-dcache-load-misses", HWC, 0x10000, 0, 0, 1 },
		   { "LLC-loads", HWC, 2, 0, 0, 2 }, { "LLC-load-misses", HWC, 0x10002, 0, 0, 3 }));
	check_ok("dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses", 4,
		 W({ "dTLB-loads", HWC, 3, 0, 0, 0 },
		   { "dTLB-load-misses", HWC, 0x10003, 0, 0, 1 },
		   { "iTLB-loads", HWC, 4, 0, 0, 2 },
		   { "iTLB-load-misses", HWC, 0x10004, 0, 0, 3 }));
	check_ok("L1-icache-load-misses,branch-loads,node-stores,L1-dcache-prefetches", 4,
		 W({ "L1-icache-load-misses", HWC, 0x10001, 0, 0, 0 },
		   { "branch-loads", HWC, 5, 0, 0, 1 }, { "node-stores", HWC, 0x106, 0, 0, 2 },
		   { "L1-dcache-prefetches", HWC, 0x200, 0, 0, 3 }));
	/* the aliases; no operation means reads, no result accesses */
	check_ok("l1d-loads,L1-data-misses,L2-speculative-read-miss,Data-TLB-write,l1i", 5,
		 W({ "l1d-loads", HWC, 0, 0, 0, 0 }, { "L1-data-misses", HWC, 0x10000, 0, 0, 1 },
		   { "L2-speculative-read-miss", HWC, 0x10202, 0, 0, 2 },
		   { "Data-TLB-write", HWC, 0x103, 0, 0, 3 }, { "l1i", HWC, 1, 0, 0, 4 }));
	check_ok("bpu-Reference,d-tlb-miss", 2,
		 W({ "bpu-Reference", HWC, 5, 0, 0, 0 }, { "d-tlb-miss", HWC, 0x10003, 0, 0, 1 }));
	check_ok("LLC-misses-loads", 1, W({ "LLC-misses-loads", HWC, 0x10002, 0, 0, 0 }));
	check_ok("L1-dcache-loads:u,{LLC-loads,LLC-load-misses}:k", 3,
		 W({ "L1-dcache-loads:u", HWC, 0, 0, 6, 0 }, { "LLC-loads", HWC, 2, 0, 5, 1 },
		   { "LLC-load-misses", HWC, 0x10002, 0, 5, 1 }));
	/* the hardware events' names stay theirs */
	check_ok("branches,branch-misses", 2,
		 W({ "branches", HW, 4, 0, 0, 0 }, { "branch-misses", HW, 5, 0, 0, 1 }));

	check_err(NULL, -EINVAL);
	check_err("", -EINVAL);
	check_err(",", -EINVAL);
	check_err("cycles,", -EINVAL);
	check_err(",cycles", -EINVAL);
	check_err("cycles,,instructions", -EINVAL);
	check_err("nosuchevent", -EINVAL);
	check_err("cycles:x", -EINVAL);
	check_err("cycles:", -EINVAL);
	check_err("cycles:uu:k", -EINVAL);
	check_err("r", -EINVAL);
	check_err("rXYZ", -EINVAL);
	check_err("r12345678901234567", -EINVAL);
	check_err("{cycles", -EINVAL);
	check_err("{cycles,{cs}}", -EINVAL);
	check_err("{}", -EINVAL);
	check_err("{cycles}:z", -EINVAL);
	check_err("cycles}", -EINVAL);
	check_err("nopmu/event=1/", -ENOENT);
	check_err("cpu/event=1", -EINVAL);
	check_err("cpu/nosuchterm=1/", -EINVAL);
	check_err("cpu/event=0x100/", -ERANGE);
	check_err("cpu/event=abc/", -EINVAL);
	check_err("cpu/event=-1/", -EINVAL);
	check_err("cpu/config/", -EINVAL);
	check_err("cpu/=1/", -EINVAL);
	check_err("cpu/event=1/x", -EINVAL);
	check_err("sched:nosuch", -ENOENT);
	check_err("nosys:sched_switch", -ENOENT);
	check_err("cycles instructions", -EINVAL);
	check_err("cycles;instructions", -EINVAL);
	check_err("\xff\xfe", -EINVAL);
	check_err("../../etc:passwd", -EINVAL);
	check_err("sched:..", -EINVAL);
	check_err(".:sched_switch", -EINVAL);
	/* operations a cache does not count, malformed cache names */
	check_err("L1-icache-stores", -EINVAL);
	check_err("iTLB-prefetches", -EINVAL);
	check_err("branch-store-misses", -EINVAL);
	check_err("LLC-loads-misses-refs", -EINVAL);
	check_err("LLC-bogus", -EINVAL);
	check_err("LLC-", -EINVAL);
	check_err("L1-dcache-load-misses:x", -EINVAL);
	check_err("node:nosuch", -EINVAL);

	nr = 0;
	if (parse_events__symbols(&nr))
		tap_ok(nr >= 20, "the symbol table has %d names", nr);
	/* every cache event perfx lists parses back to a distinct config */
	{
		struct evlist *evlist = evlist__new();
		char name[64];
		int i, j, good = 1;

		for (nr = 0; !parse_events__cache_event(nr, name, sizeof(name)); nr++)
			good &= !parse_events(evlist, name, &env, NULL);
		for (i = 0; good && i < evlist->nr; i++)
			for (j = 0; j < i; j++)
				good &= evlist->entries[i]->attr.config !=
					evlist->entries[j]->attr.config;
		tap_ok(good && nr == 32 && evlist->nr == nr,
		       "the %d listed cache events parse to distinct configs", nr);
		evlist__delete(evlist);
	}
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
		if (system(cmd))
			printf("# cannot remove %s\n", root);
	}
	return tap_done();
}
