/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_COUNTER_H
#define __PERFX_COUNTER_H

#include <linux/types.h>
#include <stdbool.h>

struct cgroup_bpf;
struct evsel;

/*
 * How one event group is counted, behind one small ops table as perf's
 * bpf_counter_ops: whatever the backend, it leaves its values in the
 * evsels' counts[] and the display code sees nothing else.
 *
 * A counter covers an event group (its leader and members) in @nr_cgrps
 * cgroup copies: evsels[k * nr_members + m] is member m for cgroup k.
 * Without cgroups @nr_cgrps is 1 and the copy is the event itself.
 *
 * The evlist drives every backend CPU by CPU (evlist__for_each_cpu()), so
 * that the work is done on the CPU it concerns.
 */
struct counter;

struct counter_ops {
	/* what -v calls the backend */
	const char *name;
	/* open CPU index @c's fds; *@failed names the event of a hard error */
	int (*open_cpu)(struct counter *counter, int c, struct evsel **failed);
	/* CPU index @c's values into counts[c] of every copy */
	int (*read_cpu)(struct counter *counter, int c, struct evsel **failed);
	/* PERF_EVENT_IOC_ENABLE / DISABLE on CPU index @c */
	int (*ioctl_cpu)(struct counter *counter, int c, unsigned long req);
	/* close every fd, free what open_cpu() made; the counter can reopen */
	void (*close)(struct counter *counter);
};

struct counter {
	const struct counter_ops *ops;
	/* auto mode: where to go, in order, when the kernel refuses @ops */
	const struct counter_ops *const *fallback;
	/* the kernel's refusal of the shared ioctls (-errno), 0 if none */
	int refused;
	/* the cgroup copy it blamed (ENODEV, ENOENT, EEXIST), else -1 */
	int refused_index;
	/* the kernel's refusal of the BPF counter (-errno), 0 if none */
	int bpf_refused;
	/* the BPF counter the list's counters share, if they may use it */
	struct cgroup_bpf *bpf;
	struct evsel **evsels;
	int nr_cgrps;
	int nr_members;
	/* backend state */
	void *priv;
	/* counting fds open now, read syscalls made: for -v */
	unsigned long nr_fds;
	unsigned long nr_reads;
};

/* One fd per event, CPU and task or cgroup: what perf does. */
extern const struct counter_ops counter_events_ops;
/* One fd per event and CPU for every cgroup: the shared-cgroup ioctls. */
extern const struct counter_ops counter_share_ops;
/* One fd per event and CPU, summed per cgroup at cgroup switches by BPF. */
extern const struct counter_ops counter_bpf_ops;

/*
 * ops->open_cpu(), and where the kernel refused the backend and a fallback
 * is set: close, switch to the next fallback and open CPU indexes 0..@c
 * with it; counter->refused and bpf_refused keep the reasons.
 */
int counter__open_cpu(struct counter *counter, int c, struct evsel **failed);
/*
 * Cgroup-less clones of cgroup 0's copies, grouped as they are, on the
 * same CPUs: what the shared and BPF backends count every cgroup with.
 */
struct evsel **counter__new_carriers(struct counter *counter);
void counter__delete_carriers(struct counter *counter, struct evsel **carriers);
/*
 * Open the carriers on CPU index @c.  A carrier the kernel does not have
 * is marked not supported, with its copies and what it leads.
 */
int counter__open_carriers_cpu(struct counter *counter, struct evsel **carriers, int c,
			       struct evsel **failed);
/* PERF_EVENT_IOC_ENABLE / DISABLE on the carriers of CPU index @c */
int counter__ioctl_carriers_cpu(struct counter *counter, struct evsel **carriers, int c,
				unsigned long req);
/* Mark @evsel and what it leads in the same copy as not supported. */
void counter__mark_unsupported(struct counter *counter, int k, int m);
/* A perf_event_open() errno that means "this event does not exist here". */
bool counter__errno_unsupported(int err);

#endif /* __PERFX_COUNTER_H */
