// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF backend's program (lib/cgroup-bpf.c loads it): it runs at every
 * cgroup switch on a CPU, in the outgoing task's context, reads that CPU's
 * counting events and adds what they counted since the previous switch to
 * the outgoing cgroup and to each of its ancestors that is counted.  A
 * read runs it on every CPU first (BPF_PROG_TEST_RUN) so that the time
 * since the last switch is in too.
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

static int count_switch(void)
{
	struct walk w = { .cpu = bpf_get_smp_processor_id() };

	bpf_loop(nr_events, read_event, &w, 0);
	bpf_loop(nr_levels, add_level, &w, 0);
	return 0;
}

/* attached to each CPU's cgroup-switches event */
SEC("perf_event")
int on_switch(void *ctx)
{
	return count_switch();
}

/* run by the reader on each CPU */
SEC("raw_tp")
int on_read(void *ctx)
{
	return count_switch();
}

char LICENSE[] SEC("license") = "GPL";
