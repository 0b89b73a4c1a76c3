// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF backend's program (lib/cgroup-bpf.c loads it): it runs at every
 * cgroup switch on a CPU, in the outgoing task's context, reads that CPU's
 * counting events and adds what they counted since the previous switch to
 * the outgoing cgroup and to each of its ancestors that is counted.  A
 * read runs it on every CPU first (BPF_PROG_TEST_RUN) so that the time
 * since the last switch is in too.
 *
 * The kernel may skip it at a switch: bpf_overflow_handler() does while
 * another BPF program or a bpf() map operation holds bpf_prog_active on
 * that CPU, and some kernels run no BPF in the context of some tasks.
 * What the events counted since the last run then spans two cgroups'
 * time and cannot be split: the program sees that the cgroup-switches
 * event counted more switches than it ran for, drops that span and counts
 * the switches it missed, which the reader reports.
 *
 * No CO-RE and no kernel types: it needs bpf_loop() (5.17) and so the
 * BPF JIT (the interpreter refuses callbacks), the cgroup-switches
 * software event (5.13, CONFIG_CGROUP_PERF) and CONFIG_BPF_EVENTS, not
 * the kernel's BTF.  bpf_loop() bounds the loops
 * by counts set at load time, so neither the depth nor the number of
 * events has a limit of its own.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* set before loading: events per cgroup, cgroups, levels to walk */
const volatile __u32 nr_events = 1;
const volatile __u32 nr_cgrps = 1;
const volatile __u32 nr_levels = 1;

/* each CPU's cgroup-switches event, the one the program is attached to: [cpu] */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1);
} switches SEC(".maps");

/* the counting events: [cpu * nr_events + e] */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
	__uint(max_entries, 1);
} events SEC(".maps");

/* cgroup id -> index k of a counted cgroup */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u64);
	__type(value, __u32);
	__uint(max_entries, 1);
} cgrp_idx SEC(".maps");

/* what an event read at the last switch, and what it counted since: [cpu * nr_events + e] */
struct slot {
	struct bpf_perf_event_value prev;
	struct bpf_perf_event_value delta;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct slot);
	__uint(max_entries, 1);
} slots SEC(".maps");

/* the sums, mapped by the reader: [(cpu * nr_cgrps + k) * nr_events + e] */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct bpf_perf_event_value);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
} counts SEC(".maps");

/* per CPU, mapped by the reader: cgroup switches seen at the last run, and missed */
struct cpu_state {
	__u64 switches;
	__u64 missed;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, struct cpu_state);
	__uint(max_entries, 1);
	__uint(map_flags, BPF_F_MMAPABLE);
} cpu_state SEC(".maps");

struct walk {
	__u32 cpu;
	__u32 k;
};

static long read_event(__u32 e, struct walk *w)
{
	__u32 key = w->cpu * nr_events + e;
	struct bpf_perf_event_value now;
	struct slot *s;

	s = bpf_map_lookup_elem(&slots, &key);
	if (!s)
		return 1;
	/* no event there (not supported, or counted by another backend) */
	if (bpf_perf_event_read_value(&events, key, &now, sizeof(now))) {
		s->delta.counter = s->delta.enabled = s->delta.running = 0;
		return 0;
	}
	s->delta.counter = now.counter - s->prev.counter;
	s->delta.enabled = now.enabled - s->prev.enabled;
	s->delta.running = now.running - s->prev.running;
	s->prev = now;
	return 0;
}

static long add_event(__u32 e, struct walk *w)
{
	__u32 key = w->cpu * nr_events + e;
	struct bpf_perf_event_value *sum;
	struct slot *s;

	s = bpf_map_lookup_elem(&slots, &key);
	key = (w->cpu * nr_cgrps + w->k) * nr_events + e;
	sum = bpf_map_lookup_elem(&counts, &key);
	if (!s || !sum)
		return 1;
	sum->counter += s->delta.counter;
	sum->enabled += s->delta.enabled;
	sum->running += s->delta.running;
	return 0;
}

static long add_level(__u32 level, struct walk *w)
{
	__u64 id = bpf_get_current_ancestor_cgroup_id(level);
	__u32 *k;

	/* 0: deeper than the current cgroup */
	if (!id)
		return 1;
	k = bpf_map_lookup_elem(&cgrp_idx, &id);
	if (k) {
		w->k = *k;
		bpf_loop(nr_events, add_event, w, 0);
	}
	return 0;
}

/*
 * Cgroup switches on this CPU since the last run, beyond the @expected
 * one that runs it now: runs the kernel skipped.
 */
static __u64 missed_runs(__u32 cpu, __u64 expected)
{
	struct bpf_perf_event_value v;
	struct cpu_state *st;
	__u64 missed;

	st = bpf_map_lookup_elem(&cpu_state, &cpu);
	if (!st || bpf_perf_event_read_value(&switches, BPF_F_CURRENT_CPU, &v, sizeof(v)))
		return 0;
	missed = v.counter - st->switches - expected;
	st->switches = v.counter;
	st->missed += missed;
	return missed;
}

static int count_switch(__u64 expected)
{
	struct walk w = { .cpu = bpf_get_smp_processor_id() };
	__u64 missed = missed_runs(w.cpu, expected);

	bpf_loop(nr_events, read_event, &w, 0);
	/* what was counted since the last run is not all the current cgroup's */
	if (!missed)
		bpf_loop(nr_levels, add_level, &w, 0);
	return 0;
}

/* attached to each CPU's cgroup-switches event, which counted this switch */
SEC("perf_event")
int on_switch(void *ctx)
{
	return count_switch(1);
}

/* run by the reader on each CPU */
SEC("raw_tp")
int on_read(void *ctx)
{
	return count_switch(0);
}

char LICENSE[] SEC("license") = "GPL";
