// SPDX-License-Identifier: GPL-2.0
/*
 * Loading, attaching and reading the BPF cgroup counter
 * (bpf/cgroup-counter.bpf.c; cgroup-bpf.h says what it shares).  The
 * program finds a cgroup's index by its id and walks the outgoing task's
 * ancestors down to the deepest cgroup counted, so the cost of a switch
 * grows with that depth and with the number of events, not with the
 * number of cgroups.  Its sums are laid out [cpu][cgroup][event] in an
 * mmapped array: reading them takes no syscall, bringing them up to date
 * takes one BPF_PROG_TEST_RUN per CPU.  So are the switches it missed
 * (bpf/cgroup-counter.bpf.c says why it can).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "cgroup.h"
#include "cgroup-bpf.h"
#include "cpumap.h"
#include "data.h"
#include "debug.h"
#include "evsel.h"
#include "cgroup-counter.skel.h"

struct cgroup_bpf {
	int refcnt;
	int users;
	/* the cgroups counted, members k of the counters' lists, and room for max */
	int nr_cgrps;
	int max_cgrps;
	int nr_events;
	int nr_levels;
	__u64 *ids;		/* [max_cgrps] */
	/* the program's index of member k: a cgroup named twice counts once */
	int *slot;		/* [max_cgrps] */
	/* slots never used yet start at nr_used; freed ones wait in order */
	int nr_used;
	int *free;		/* [max_cgrps], a queue */
	int free_head;
	int nr_free;
	/* loaded state: */
	struct cgroup_counter_bpf *skel;
	struct cpu_map *cpus;
	int nr_cpus;			/* highest CPU number + 1 */
	struct evsel *switches;		/* cgroup-switches, one per CPU */
	struct bpf_perf_event_value *counts;
	size_t counts_len;
	/* what a reused slot held when its cgroup joined, as counts is laid out */
	struct bpf_perf_event_value *base;
	struct cgroup_bpf_cpu *cpu_state;	/* [cpu], mapped */
	size_t cpu_state_len;
	/* the kernel's refusal, kept: every counter asks */
	int refused;
	char why[256];
};

/* cgroup levels below the mount: "A/B" is at level 2 */
static int cgroup_level(const char *name)
{
	int level = 0;
	const char *p;

	for (p = name; *p; p++) {
		if (*p == '/' || (*p == '.' && (p[1] == '/' || !p[1])))
			continue;
		if (p == name || p[-1] == '/')
			level++;
	}
	return level;
}

/* the slot of a cgroup with @id, for member @k: a member's, else a new one */
static int cgroup_bpf__take_slot(struct cgroup_bpf *bpf, int k, __u64 id)
{
	int j, s;

	for (j = 0; j < bpf->nr_cgrps; j++)
		if (j != k && bpf->ids[j] == id)
			return bpf->slot[j];
	if (bpf->nr_used < bpf->max_cgrps)
		return bpf->nr_used++;
	if (!bpf->nr_free)
		return -E2BIG;
	s = bpf->free[bpf->free_head];
	bpf->free_head = (bpf->free_head + 1) % bpf->max_cgrps;
	bpf->nr_free--;
	return s;
}

int cgroup_bpf__new(struct cgroup **cgrps, int nr_cgrps, int max_cgrps, int nr_events,
		    struct cgroup_bpf **bpfp)
{
	struct cgroup_bpf *bpf;
	int k;

	if (nr_cgrps < 0 || max_cgrps < 0 || nr_cgrps > (max_cgrps ? max_cgrps : nr_cgrps) ||
	    nr_cgrps + max_cgrps < 1 || nr_events < 1)
		return -EINVAL;
	bpf = calloc(1, sizeof(*bpf));
	if (!bpf)
		return -ENOMEM;
	bpf->refcnt = 1;
	bpf->max_cgrps = max_cgrps ? max_cgrps : nr_cgrps;
	bpf->nr_events = nr_events;
	/* followed cgroups may come at any depth up to the bound */
	bpf->nr_levels = max_cgrps ? CGROUP_BPF_MAX_LEVELS : 1;
	bpf->ids = calloc(bpf->max_cgrps, sizeof(*bpf->ids));
	bpf->slot = calloc(bpf->max_cgrps, sizeof(*bpf->slot));
	bpf->free = calloc(bpf->max_cgrps, sizeof(*bpf->free));
	if (!bpf->ids || !bpf->slot || !bpf->free) {
		cgroup_bpf__put(bpf);
		return -ENOMEM;
	}
	for (k = 0; k < nr_cgrps; k++) {
		int level = cgroup_level(cgrps[k]->name);

		bpf->ids[k] = cgrps[k]->id;
		bpf->slot[k] = cgroup_bpf__take_slot(bpf, k, bpf->ids[k]);
		bpf->nr_cgrps++;
		if (level + 1 > bpf->nr_levels)
			bpf->nr_levels = level + 1;
	}
	*bpfp = bpf;
	return 0;
}

struct cgroup_bpf *cgroup_bpf__get(struct cgroup_bpf *bpf)
{
	if (bpf)
		bpf->refcnt++;
	return bpf;
}

void cgroup_bpf__put(struct cgroup_bpf *bpf)
{
	if (!bpf || --bpf->refcnt)
		return;
	free(bpf->ids);
	free(bpf->slot);
	free(bpf->free);
	free(bpf);
}

/* libbpf's messages, the verifier's log among them, are for -vv: a line each */
static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *msg, *line, *save = NULL;

	if (level == LIBBPF_DEBUG || vasprintf(&msg, fmt, ap) < 0)
		return 0;
	for (line = strtok_r(msg, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		pr_debug("%s\n", line);
	free(msg);
	return 0;
}

static int refuse(struct cgroup_bpf *bpf, int err, const char *what, const char *needs)
{
	bpf->refused = err;
	snprintf(bpf->why, sizeof(bpf->why), "%s: %s (%s)%s%s", what, strerror(-err),
		 perfx__errname(err), needs ? ": " : "", needs ? needs : "");
	return err;
}

/* the program's maps sized for this list and these CPUs */
static int cgroup_bpf__size(struct cgroup_bpf *bpf)
{
	struct cgroup_counter_bpf *skel = bpf->skel;
	unsigned long long slots = (unsigned long long)bpf->nr_cpus * bpf->nr_events;
	unsigned long long sums = slots * bpf->max_cgrps;

	if (sums > UINT32_MAX)
		return -E2BIG;
	skel->rodata->nr_events = bpf->nr_events;
	skel->rodata->nr_cgrps = bpf->max_cgrps;
	skel->rodata->nr_levels = bpf->nr_levels;
	if (bpf_map__set_max_entries(skel->maps.events, slots) ||
	    bpf_map__set_max_entries(skel->maps.slots, slots) ||
	    bpf_map__set_max_entries(skel->maps.counts, sums) ||
	    bpf_map__set_max_entries(skel->maps.switches, bpf->nr_cpus) ||
	    bpf_map__set_max_entries(skel->maps.cpu_state, bpf->nr_cpus) ||
	    bpf_map__set_max_entries(skel->maps.cgrp_idx, bpf->max_cgrps))
		return -EINVAL;
	bpf->counts_len = sums * sizeof(*bpf->counts);
	bpf->cpu_state_len = bpf->nr_cpus * sizeof(*bpf->cpu_state);
	return 0;
}

/* a BPF_F_MMAPABLE map read in place; NULL and errno set if it cannot be */
static void *map_mmap(const struct bpf_map *map, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, bpf_map__fd(map), 0);

	return p == MAP_FAILED ? NULL : p;
}

static void map_munmap(void **p, size_t len)
{
	if (*p)
		munmap(*p, len);
	*p = NULL;
}

/* the program counts member @k under its slot from now */
static int cgroup_bpf__map_cgroup(struct cgroup_bpf *bpf, int k)
{
	__u32 idx = bpf->slot[k];

	if (bpf_map_update_elem(bpf_map__fd(bpf->skel->maps.cgrp_idx), &bpf->ids[k], &idx,
				BPF_ANY))
		return -errno;
	return 0;
}

static int cgroup_bpf__fill(struct cgroup_bpf *bpf)
{
	int k, err;

	for (k = 0; k < bpf->nr_cgrps; k++) {
		err = cgroup_bpf__map_cgroup(bpf, k);
		if (err)
			return err;
	}
	bpf->counts = map_mmap(bpf->skel->maps.counts, bpf->counts_len);
	if (!bpf->counts)
		return -errno;
	bpf->base = calloc(1, bpf->counts_len);
	if (!bpf->base)
		return -ENOMEM;
	bpf->cpu_state = map_mmap(bpf->skel->maps.cpu_state, bpf->cpu_state_len);
	if (!bpf->cpu_state)
		return -errno;
	return 0;
}

static void cgroup_bpf__unload(struct cgroup_bpf *bpf)
{
	evsel__delete(bpf->switches);
	bpf->switches = NULL;
	map_munmap((void **)&bpf->counts, bpf->counts_len);
	free(bpf->base);
	bpf->base = NULL;
	map_munmap((void **)&bpf->cpu_state, bpf->cpu_state_len);
	cgroup_counter_bpf__destroy(bpf->skel);
	bpf->skel = NULL;
	cpu_map__put(bpf->cpus);
	bpf->cpus = NULL;
}

static int cgroup_bpf__load(struct cgroup_bpf *bpf, struct cpu_map *cpus,
			    struct thread_map *threads)
{
	static const struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_CGROUP_SWITCHES,
		/* every switch overflows, and runs the program */
		.sample_period = 1,
		/* until the program is attached: it must see every switch counted */
		.disabled = 1,
		/* as every counting event of stat's (the program reads all three) */
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING,
	};
	int err;

	if (cpus->map[0] < 0)
		return refuse(bpf, -EINVAL, "the BPF counter", "it counts CPUs, not tasks");
	libbpf_set_print(libbpf_print);
	bpf->cpus = cpu_map__get(cpus);
	bpf->nr_cpus = cpus->map[cpus->nr - 1] + 1;
	bpf->skel = cgroup_counter_bpf__open();
	if (!bpf->skel)
		return refuse(bpf, -errno, "opening the BPF object", NULL);
	err = cgroup_bpf__size(bpf);
	if (err)
		return refuse(bpf, err, "sizing the BPF maps", NULL);
	err = cgroup_counter_bpf__load(bpf->skel);
	if (err == -EPERM || err == -EACCES)
		return refuse(bpf, err, "loading the BPF program",
			      "it needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN");
	if (err == -ENOSYS)
		return refuse(bpf, err, "loading the BPF program",
			      "the kernel has no bpf() (CONFIG_BPF_SYSCALL)");
	if (err)
		return refuse(bpf, err, "loading the BPF program",
			      "it needs perf_event programs (CONFIG_BPF_EVENTS), bpf_loop() (5.17) and the BPF JIT (CONFIG_BPF_JIT: the interpreter refuses bpf_loop()'s callbacks); -vv shows the verifier's log");
	err = cgroup_bpf__fill(bpf);
	if (err)
		return refuse(bpf, err, "filling the BPF maps", NULL);
	bpf->switches = evsel__new(&attr, "cgroup-switches");
	if (!bpf->switches)
		return -ENOMEM;
	err = evsel__prepare(bpf->switches, cpus, threads);
	if (err)
		return err;
	return 0;
}

int cgroup_bpf__open(struct cgroup_bpf *bpf, struct cpu_map *cpus, struct thread_map *threads,
		     bool *leader)
{
	int err;

	*leader = !bpf->users;
	if (bpf->refused)
		return bpf->refused;
	if (bpf->users) {
		bpf->users++;
		return 0;
	}
	err = cgroup_bpf__load(bpf, cpus, threads);
	if (err) {
		cgroup_bpf__unload(bpf);
		return err;
	}
	bpf->users = 1;
	return 0;
}

int cgroup_bpf__open_cpu(struct cgroup_bpf *bpf, int c)
{
	__u32 cpu = bpf->cpus->map[c];
	int err, fd;

	if (evsel__fd(bpf->switches, c, 0) >= 0)
		return 0;
	err = evsel__open_cpu(bpf->switches, c);
	if (err)
		return refuse(bpf, err, "opening the cgroup-switches event",
			      "it needs Linux 5.13 with CONFIG_CGROUP_PERF");
	fd = evsel__fd(bpf->switches, c, 0);
	if (bpf_map_update_elem(bpf_map__fd(bpf->skel->maps.switches), &cpu, &fd, BPF_ANY))
		return refuse(bpf, -errno, "putting cgroup-switches in the BPF map", NULL);
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, bpf_program__fd(bpf->skel->progs.on_switch)))
		return refuse(bpf, -errno, "attaching the BPF program to cgroup-switches",
			      "it needs CONFIG_BPF_EVENTS");
	if (ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		return refuse(bpf, -errno, "enabling cgroup-switches", NULL);
	/* the reads need BPF_PROG_TEST_RUN on each CPU: try it now */
	err = cgroup_bpf__sync_cpu(bpf, c);
	if (err)
		return refuse(bpf, err, "running the BPF program on a CPU (BPF_PROG_TEST_RUN)",
			      "it needs Linux 5.10");
	return 0;
}

int cgroup_bpf__set_event(struct cgroup_bpf *bpf, int c, int e, int fd)
{
	__u32 key = (__u32)bpf->cpus->map[c] * bpf->nr_events + e;
	int map = bpf_map__fd(bpf->skel->maps.events), err;

	if (fd < 0)
		err = bpf_map_delete_elem(map, &key);
	else
		err = bpf_map_update_elem(map, &key, &fd, BPF_ANY);
	return err && errno != ENOENT ? -errno : 0;
}

int cgroup_bpf__sync_cpu(struct cgroup_bpf *bpf, int c)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.flags = BPF_F_TEST_RUN_ON_CPU,
		.cpu = bpf->cpus->map[c],
	);

	if (bpf_prog_test_run_opts(bpf_program__fd(bpf->skel->progs.on_read), &opts))
		return -errno;
	return 0;
}

/* where slot @s's sums of event @e on CPU index @c are */
static size_t cgroup_bpf__index(const struct cgroup_bpf *bpf, int c, int s, int e)
{
	return ((size_t)bpf->cpus->map[c] * bpf->max_cgrps + s) * bpf->nr_events + e;
}

void cgroup_bpf__counts(const struct cgroup_bpf *bpf, int c, int k, int e,
			struct bpf_perf_event_value *v)
{
	size_t i = cgroup_bpf__index(bpf, c, bpf->slot[k], e);

	v->counter = bpf->counts[i].counter - bpf->base[i].counter;
	v->enabled = bpf->counts[i].enabled - bpf->base[i].enabled;
	v->running = bpf->counts[i].running - bpf->base[i].running;
}

/* a slot taken again starts from what it holds now */
static void cgroup_bpf__set_base(struct cgroup_bpf *bpf, int s)
{
	int c, e;

	for (c = 0; c < bpf->cpus->nr; c++) {
		for (e = 0; e < bpf->nr_events; e++) {
			size_t i = cgroup_bpf__index(bpf, c, s, e);

			bpf->base[i] = bpf->counts[i];
		}
	}
}

/*
 * Member @k's slot, if no other member counts in it: out of the program's
 * map, and queued to be taken again after those freed before
 */
static void cgroup_bpf__free_slot(struct cgroup_bpf *bpf, int k)
{
	int s = bpf->slot[k], j;

	for (j = 0; j < bpf->nr_cgrps; j++)
		if (j != k && bpf->slot[j] == s)
			return;
	if (bpf->skel)
		bpf_map_delete_elem(bpf_map__fd(bpf->skel->maps.cgrp_idx), &bpf->ids[k]);
	bpf->free[(bpf->free_head + bpf->nr_free++) % bpf->max_cgrps] = s;
}

int cgroup_bpf__add_cgroup(struct cgroup_bpf *bpf, const struct cgroup *cgrp)
{
	int k = bpf->nr_cgrps, s, err;

	if (k == bpf->max_cgrps || cgroup_level(cgrp->name) >= bpf->nr_levels)
		return -E2BIG;
	s = cgroup_bpf__take_slot(bpf, k, cgrp->id);
	if (s < 0)
		return s;
	bpf->ids[k] = cgrp->id;
	bpf->slot[k] = s;
	if (bpf->skel) {
		cgroup_bpf__set_base(bpf, s);
		err = cgroup_bpf__map_cgroup(bpf, k);
		if (err) {
			cgroup_bpf__free_slot(bpf, k);
			return err;
		}
	}
	bpf->nr_cgrps++;
	return 0;
}

void cgroup_bpf__remove_cgroup(struct cgroup_bpf *bpf, int k)
{
	cgroup_bpf__free_slot(bpf, k);
	memmove(&bpf->ids[k], &bpf->ids[k + 1], (bpf->nr_cgrps - k - 1) * sizeof(*bpf->ids));
	memmove(&bpf->slot[k], &bpf->slot[k + 1], (bpf->nr_cgrps - k - 1) * sizeof(*bpf->slot));
	bpf->nr_cgrps--;
}

const struct cgroup_bpf_cpu *cgroup_bpf__cpu(const struct cgroup_bpf *bpf, int c)
{
	return &bpf->cpu_state[bpf->cpus->map[c]];
}

void cgroup_bpf__close(struct cgroup_bpf *bpf)
{
	if (bpf->users && !--bpf->users)
		cgroup_bpf__unload(bpf);
}

const char *cgroup_bpf__strerror(const struct cgroup_bpf *bpf)
{
	return bpf->why[0] ? bpf->why : "the BPF counter could not be set up";
}
