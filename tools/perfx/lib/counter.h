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
 * Without cgroups @nr_cgrps is 1 and the copy is the event itself.  The
 * copies are made from @tmpl, the group as parsed: so are the carriers,
 * and the copies of cgroups that join while it counts.
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
	/*
	 * After copies joined or left: CPU index @c counts the copies there
	 * are now (opened as they were at open_cpu(), counting from now)
	 */
	int (*update_cpu)(struct counter *counter, int c, struct evsel **failed);
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
	/*
	 * The shared ioctls took a cgroup: a refusal now would lose what was
	 * counted, where one of an empty set's first cgroups may fall back
	 */
	bool shared_some;
	/* the kernel's refusal of the BPF counter (-errno), 0 if none */
	int bpf_refused;
	/* the BPF counter the list's counters share, if they may use it */
	struct cgroup_bpf *bpf;
	struct evsel **evsels;
	size_t alloc;			/* evsels' room */
	struct evsel **tmpl;		/* [nr_members] */
	int nr_cgrps;
	int nr_members;
	/* its list's skip_unsupported (evlist.h) */
	bool skip_unsupported;
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
 * ops->update_cpu().  Attaching no cgroup tells nothing of the event: in
 * auto mode, where the kernel refuses the first cgroups shared, fall back
 * as at open, every CPU opened with the next backend.  -ENOENT is a cgroup
 * removed since it joined, for the caller to drop before it tries again.
 */
int counter__update_cpu(struct counter *counter, int c, struct evsel **failed);
/*
 * Cgroup-less clones of the template, grouped as it is, on the same CPUs:
 * what the shared and BPF backends count every cgroup with.
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
/* Copies of what carriers the kernel does not have are not supported. */
void counter__mark_copies(struct counter *counter, struct evsel **carriers);
/* Mark @evsel and what it leads in the same copy as not supported. */
void counter__mark_unsupported(struct counter *counter, int k, int m);
/* A perf_event_open() errno that means "this event does not exist here". */
bool counter__errno_unsupported(int err);

#endif /* __PERFX_COUNTER_H */
