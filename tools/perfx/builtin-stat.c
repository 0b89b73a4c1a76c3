// SPDX-License-Identifier: GPL-2.0
/*
 * perfx stat: count events for a command, tasks, CPUs or
 * cgroups and print the totals as perf stat does.
 *
 * --for-each-cgroup has three modes that print the same thing:
 *   per-cgroup  one event per CPU per event per cgroup, opened with
 *               PERF_FLAG_PID_CGROUP (what perf does);
 *   shared      one event per CPU per event; the cgroup ids are attached to
 *               it with PERF_EVENT_IOC_ATTACH_CGROUP and read back with
 *               PERF_EVENT_IOC_READ_CGROUP (lib/cgroup-share.c);
 *   bpf         one event per CPU per event, read by a BPF program at each
 *               cgroup switch and summed per cgroup (lib/cgroup-bpf.c), as
 *               perf stat --bpf-counters does.
 * --cgroup-mode=auto (default) uses shared where the kernel has the ioctls,
 * else BPF where the kernel loads it, else per-cgroup events.
 * In shared mode a group {a,b} stays a group: the cgroups are attached
 * through its leader, and the group is read through it too, every member
 * for every cgroup in one batch READ_CGROUP per CPU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <locale.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/cgroup.h"
#include "lib/cgroup-bpf.h"
#include "lib/cgroup-share.h"
#include "lib/counter.h"
#include "lib/cpumap.h"
#include "lib/data.h"
#include "lib/debug.h"
#include "lib/evlist.h"
#include "lib/evsel.h"
#include "lib/evsel-stat.h"
#include "lib/openmetrics.h"
#include "lib/parse-events.h"
#include "lib/stat-display.h"
#include "lib/threadmap.h"
#include "lib/util.h"
#include "lib/workload.h"
#include "stat-follow.h"
#include "stat-options.h"
#include "stat-serve.h"

struct stat_ctx {
	struct stat_opts opts;
	struct stat_config config;
	struct cpu_map *cpus;
	struct thread_map *threads;
	struct evlist *evlist;		/* as printed: cgroup copies */
	struct cgroup **cgrps;
	int nr_cgrps;
	char cgroup_mnt[PATH_MAX];
	/* --follow-cgroups: the set, its watch; else NULL */
	struct stat_follow *follow;
	unsigned long nr_fds;
	double setup_ms;
	double read_ms;
	/* BPF mode: the missed cgroup switches warned about so far */
	unsigned long long bpf_missed;
	/*
	 * --serve: the server; the counts last served, one per entry of the
	 * list (a count must not go down); what the last scrape got, which
	 * names the copies of the cgroups that left, deleted at the next
	 */
	struct stat_serve *serve;
	struct openmetrics_count *served;
	int nr_served;
	/* room in served and scrape */
	int cap_served;
	struct openmetrics_count *scrape;
	struct evsel **gone;
	int nr_gone;
	pid_t child;
	bool workload_failed;
	struct workload work;
	char target[PATH_MAX];
};


/*
 * perf 6.1's default events: cpu-clock instead of task-clock when counting
 * CPUs, and the stalled-cycles events only where the cpu PMU names them in
 * sysfs (perf's pmu_have_event("cpu", ...)).  @buf gets the event list.
 */
static void default_events(const struct stat_opts *opts, const struct parse_events_env *env,
			   char *buf, size_t size)
{
	static const char *const stalled[] = {
		"stalled-cycles-frontend",
		"stalled-cycles-backend",
	};
	const char *root = parse_events__pmu_root(env);
	char path[PATH_MAX];
	size_t i, len;

	len = snprintf(buf, size, "%s,context-switches,cpu-migrations,page-faults,cycles",
		       opts->system_wide || opts->cpu_list ? "cpu-clock" : "task-clock");
	for (i = 0; i < ARRAY_SIZE(stalled) && len < size; i++) {
		snprintf(path, sizeof(path), "%s/cpu/events/%s", root, stalled[i]);
		if (!access(path, F_OK))
			len += snprintf(buf + len, size - len, ",%s", stalled[i]);
	}
	if (len < size)
		snprintf(buf + len, size - len, ",instructions,branches,branch-misses");
}

static int setup_cgroups(struct stat_ctx *ctx)
{
	const char *list = ctx->opts.for_each_cgroup ? ctx->opts.for_each_cgroup :
			   ctx->opts.cgroup_list;
	struct cgroup_names names = { 0, NULL };
	char errbuf[256] = "";
	int i, err;

	err = cgroup__find_mnt(NULL, ctx->cgroup_mnt, sizeof(ctx->cgroup_mnt));
	if (err) {
		pr_err("cannot find a cgroup2 mount in /proc/self/mountinfo: %s (%s)\n",
		       strerror(-err), perfx__errname(err));
		return err;
	}
	if (ctx->opts.follow_cgroups)
		return stat_follow__new(ctx->cgroup_mnt, list, ctx->opts.max_cgroups, &ctx->follow);
	if (ctx->opts.for_each_cgroup) {
		err = cgroup_names__expand(ctx->cgroup_mnt, list, &names, errbuf, sizeof(errbuf));
		if (err) {
			pr_err("--for-each-cgroup '%s': %s (%s)\n", list, errbuf, perfx__errname(err));
			return err;
		}
	} else {
		/* -G: positional, an empty name leaves that event without a cgroup */
		const char *s = list, *e;

		for (;; s = e + 1) {
			char **n = realloc(names.names, (names.nr + 1) * sizeof(*n));

			if (!n) {
				cgroup_names__exit(&names);
				return -ENOMEM;
			}
			names.names = n;
			e = strchrnul(s, ',');
			n[names.nr++] = strndup(s, e - s);
			if (!*e)
				break;
		}
	}
	ctx->cgrps = calloc(names.nr, sizeof(*ctx->cgrps));
	if (!ctx->cgrps) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < names.nr; i++) {
		int k = ctx->nr_cgrps, j;

		for (j = 0; j < i && names.names[i]; j++)
			if (names.names[j] && !strcmp(names.names[j], names.names[i]))
				break;
		/* --for-each-cgroup A,B,A: as perf, A is counted once */
		if (ctx->opts.for_each_cgroup && j < i)
			continue;
		ctx->nr_cgrps++;
		if (!names.names[i] || !names.names[i][0])
			continue;
		/*
		 * -G A,B,A: as perf, one cgroup for both A's, so that the
		 * third event's metrics find the first's counts
		 */
		if (j < i) {
			ctx->cgrps[k] = cgroup__get(ctx->cgrps[j]);
			continue;
		}
		err = cgroup__new(ctx->cgroup_mnt, names.names[i], &ctx->cgrps[k]);
		if (err) {
			pr_err("cgroup '%s': expected a directory under the cgroup2 mount %s: %s (%s)\n",
			       names.names[i], ctx->cgroup_mnt, strerror(-err), perfx__errname(err));
			goto out;
		}
	}
out:
	cgroup_names__exit(&names);
	return err;
}

static int parse_event_options(struct stat_ctx *ctx, struct evlist *evlist,
			       const struct parse_events_env *env)
{
	struct parse_events_error perr = { 0, "" };
	const char *events;
	char defaults[256];
	int i, err;

	if (!ctx->opts.nr_events) {
		default_events(&ctx->opts, env, defaults, sizeof(defaults));
		err = parse_events(evlist, defaults, env, &perr);
		if (err)
			pr_err("default events '%s': %s at offset %d (%s)\n", defaults,
			       perr.msg, perr.pos, perfx__errname(err));
		return err;
	}
	for (i = 0; i < ctx->opts.nr_events; i++) {
		events = ctx->opts.events[i];
		err = parse_events(evlist, events, env, &perr);
		if (err == -ENOMEM)
			return err;
		if (err)
			return stat_opts__print_events_error(events, &perr, err);
	}
	return 0;
}

/*
 * The events to print: as parsed, or a copy per cgroup.  Returns 0,
 * -errno, or an exit status (a syntax error, reported).
 */
static int setup_events(struct stat_ctx *ctx, const struct parse_events_env *env)
{
	struct evlist *parsed;
	int err;

	parsed = evlist__new();
	if (!parsed)
		return -ENOMEM;
	err = parse_event_options(ctx, parsed, env);
	if (err)
		goto out_delete;
	if (ctx->follow) {
		int nr;
		struct cgroup **cgrps = stat_follow__cgroups(ctx->follow, &nr);

		err = evlist__expand_cgroups(parsed, cgrps, nr, ctx->opts.max_cgroups,
					     ctx->opts.cgroup_mode, &ctx->evlist);
		goto out_delete;
	}
	if (ctx->opts.for_each_cgroup) {
		err = evlist__expand_cgroups(parsed, ctx->cgrps, ctx->nr_cgrps, 0,
					     ctx->opts.cgroup_mode, &ctx->evlist);
		goto out_delete;
	}
	ctx->evlist = parsed;
	if (ctx->opts.cgroup_list) {
		err = evlist__set_cgroups(ctx->evlist, ctx->cgrps, ctx->nr_cgrps);
		if (err)
			pr_err("-G '%s': %d cgroups for %d events: expected at most one per event\n",
			       ctx->opts.cgroup_list, ctx->nr_cgrps, evlist__nr(ctx->evlist));
	}
	return err;

out_delete:
	evlist__delete(parsed);
	return err;
}

/* Are existing tasks counted (-p, -t)? */
static bool counting_tasks(const struct stat_ctx *ctx)
{
	return ctx->opts.pid_list || ctx->opts.tid_list;
}

/* Is the forked command itself what is counted (not -a, -C, -p or -t)? */
static bool counting_child(const struct stat_ctx *ctx)
{
	return ctx->opts.argc && !ctx->opts.system_wide && !ctx->opts.cpu_list &&
	       !ctx->opts.pid_list && !ctx->opts.tid_list;
}

static void config_attr(struct stat_ctx *ctx, struct evsel *evsel)
{
	bool cpu_wide = ctx->opts.system_wide || ctx->opts.cpu_list;
	struct perf_event_attr *attr = evsel__attr(evsel);
	bool leader = evsel__leader(evsel) == evsel;

	/*
	 * As perf: only leaders start disabled (and wait for exec); members
	 * follow their leader.  A disabled member of a running group would
	 * stay off: enabled, never running, <not counted>.
	 */
	attr->disabled = leader;
	/* children of counted tasks; meaningless (and refused by shared mode) CPU-wide */
	attr->inherit = !cpu_wide;
	attr->enable_on_exec = leader && counting_child(ctx);
	/* counting, not sampling: a tracepoint's or period='s period goes */
	attr->sample_period = 0;
	attr->freq = 0;
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/* as perf stat: a group is read in one go through its leader */
	if (evsel__nr_members(evsel__leader(evsel)) > 1)
		attr->read_format |= PERF_FORMAT_ID | PERF_FORMAT_GROUP;
}

/*
 * As perf: when the counting fds (plus the cgroup directories and some
 * slack) would not fit, raise the soft RLIMIT_NOFILE to the hard limit.
 */
static void raise_nofile(struct stat_ctx *ctx, unsigned long need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return;
	need += (ctx->follow ? ctx->opts.max_cgroups : ctx->nr_cgrps) + 64;
	if (rl.rlim_cur >= need || rl.rlim_cur == rl.rlim_max)
		return;
	rl.rlim_cur = rl.rlim_max;
	if (setrlimit(RLIMIT_NOFILE, &rl))
		pr_debug("cannot raise RLIMIT_NOFILE to %llu\n", (unsigned long long)rl.rlim_max);
}

static int open_error(struct stat_ctx *ctx, struct evsel *evsel, int err)
{
	struct cgroup *cgrp = evsel__cgroup(evsel);
	struct rlimit rl = { 0, 0 };

	switch (-err) {
	case EACCES:
	case EPERM:
		pr_err("opening event '%s': %s (%s): counting %s needs CAP_PERFMON (or CAP_SYS_ADMIN) or kernel.perf_event_paranoid <= %d; it is %d\n",
		       evsel__name(evsel), strerror(-err), perfx__errname(err),
		       ctx->opts.system_wide || ctx->opts.cpu_list ? "CPUs" : "these tasks",
		       ctx->opts.system_wide || ctx->opts.cpu_list ? 0 : 1, evsel__paranoid_level());
		break;
	case EMFILE:
	case ENFILE:
		getrlimit(RLIMIT_NOFILE, &rl);
		pr_err("opening event '%s': %s (%s): %d counting events x %d CPUs x %d threads need more descriptors than the limit of %llu; raise 'ulimit -n'\n",
		       evsel__name(evsel), strerror(-err), perfx__errname(err),
		       evlist__nr(ctx->evlist), ctx->cpus->nr, ctx->threads->nr,
		       (unsigned long long)rl.rlim_cur);
		break;
	case ESRCH:
		pr_err("opening event '%s': the task to count does not exist (%s)\n",
		       evsel__name(evsel), perfx__errname(err));
		break;
	default:
		pr_err("opening event '%s'%s%s: %s (%s)\n", evsel__name(evsel),
		       cgrp ? " in cgroup " : "", cgrp ? cgrp->name : "",
		       strerror(-err), perfx__errname(err));
		break;
	}
	return err;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * Why the kernel refused to share @counter's cgroups, naming the cgroup
 * it blamed and, for a cgroup named twice, the name it had before.
 */
static const char *share_strerror(struct stat_ctx *ctx, const struct counter *counter,
				  char *buf, size_t size)
{
	struct cgroup_share_refusal r = {
		.err = counter->refused,
		.nr = counter->nr_cgrps,
		.mnt = ctx->cgroup_mnt,
	};
	int k = counter->refused_index, nm = counter->nr_members, j;

	if (k >= 0 && k < counter->nr_cgrps) {
		r.cgrp = evsel__cgroup(counter->evsels[k * nm]);
		for (j = 0; j < k && !r.first; j++)
			if (evsel__cgroup(counter->evsels[j * nm])->id == r.cgrp->id)
				r.first = evsel__cgroup(counter->evsels[j * nm]);
	}
	if (r.err == -ENODEV)
		r.ctrl = cgroup__controller(NULL, "perf_event");
	return cgroup_share__strerror(&r, buf, size);
}

/* -v: the events the kernel would not share or count with BPF, and why */
static void report_fallbacks(struct stat_ctx *ctx)
{
	char why[2 * PATH_MAX + 512];
	int i;

	for (i = 0; i < evlist__nr_counters(ctx->evlist); i++) {
		struct counter *counter = evlist__counter(ctx->evlist, i);
		const char *name = evsel__name(counter->tmpl[0]);

		if (counter->refused && counter->bpf_refused)
			pr_info("--for-each-cgroup: event '%s': %s; BPF: %s; using per-cgroup events\n",
				name, share_strerror(ctx, counter, why, sizeof(why)),
				cgroup_bpf__strerror(counter->bpf));
		else if (counter->refused)
			pr_info("--for-each-cgroup: event '%s': %s; using %s\n", name,
				share_strerror(ctx, counter, why, sizeof(why)),
				counter->ops == &counter_bpf_ops ? "BPF" : "per-cgroup events");
	}
}

/* what -v calls the way the cgroups were counted: "shared", "shared and per-cgroup" */
static void cgroup_mode_name(struct stat_ctx *ctx, char *buf, size_t size)
{
	static const struct counter_ops *const all[] = {
		&counter_share_ops, &counter_bpf_ops, &counter_events_ops,
	};
	size_t n, len = 0;
	int i, j;

	buf[0] = '\0';
	for (j = 0; j < (int)ARRAY_SIZE(all); j++) {
		for (i = 0; i < evlist__nr_counters(ctx->evlist); i++)
			if (evlist__counter(ctx->evlist, i)->ops == all[j])
				break;
		if (i == evlist__nr_counters(ctx->evlist))
			continue;
		n = snprintf(buf + len, size - len, "%s%s", len ? " and " : "", all[j]->name);
		len = n < size - len ? len + n : size - 1;
	}
}

/* Open, and note how long it took and how many fds it made (for -v). */
static int open_counters(struct stat_ctx *ctx)
{
	char why[2 * PATH_MAX + 512];
	struct evlist *tmpl = evlist__tmpl(ctx->evlist);
	struct evsel *evsel, *failed;
	double t0 = now_ms();
	unsigned long nr;
	int i, err;

	evlist__set_maps(ctx->evlist, ctx->cpus, ctx->threads);
	evlist__for_each(ctx->evlist, i, evsel)
		config_attr(ctx, evsel);
	/* what the carriers and the copies of cgroups that join are made of */
	if (tmpl)
		evlist__for_each(tmpl, i, evsel)
			config_attr(ctx, evsel);
	/* --follow-cgroups: as many as the cap lets in */
	nr = ctx->follow ? evlist__nr(tmpl) * ctx->opts.max_cgroups : evlist__nr(ctx->evlist);
	raise_nofile(ctx, nr * ctx->cpus->nr * ctx->threads->nr);
	evlist__set_skip_unsupported(ctx->evlist, true);
	evlist__set_cpu_affinity(ctx->evlist, true);
	err = evlist__open(ctx->evlist, &failed);
	ctx->setup_ms = now_ms() - t0;
	ctx->bpf_missed = 0;
	ctx->nr_fds = evlist__nr_fds(ctx->evlist);
	if (!err) {
		report_fallbacks(ctx);
		return 0;
	}
	if (!failed)
		return err;	/* no event's fault: ENOMEM, reported by the caller */
	for (i = 0; i < evlist__nr_counters(ctx->evlist); i++) {
		struct counter *counter = evlist__counter(ctx->evlist, i);

		if (counter->ops == &counter_bpf_ops && counter->bpf_refused) {
			pr_err("--cgroup-mode=bpf: %s\n", cgroup_bpf__strerror(counter->bpf));
			return err;
		}
		if (counter->ops == &counter_share_ops && counter->refused) {
			pr_err("--cgroup-mode=shared: event '%s': %s\n", evsel__name(failed),
			       share_strerror(ctx, counter, why, sizeof(why)));
			return err;
		}
	}
	return open_error(ctx, failed, err);
}

static int read_counters(struct stat_ctx *ctx)
{
	struct evsel *failed;
	int err;

	err = evlist__read(ctx->evlist, &failed);
	if (err == -EAGAIN)
		/* only READ_CGROUP says so: cgroup_share__read() retried it */
		pr_err("reading event '%s': its cgroups or its group kept changing during %d PERF_EVENT_IOC_READ_CGROUP calls (EAGAIN)\n",
		       evsel__name(failed), CGROUP_SHARE_READ_TRIES);
	else if (err)
		pr_err("reading event '%s': %s (%s)\n", evsel__name(failed), strerror(-err),
		       perfx__errname(err));
	return err;
}

/*
 * BPF mode: where the kernel did not run the program at a cgroup switch,
 * what was counted around it went to no cgroup (lib/cgroup-bpf.h).  Say
 * so when it happened since the last read, and where with -v.
 */
static void check_bpf_missed(struct stat_ctx *ctx)
{
	unsigned long long missed = 0, switches = 0;
	struct cgroup_bpf *bpf = NULL;
	int i, c;

	for (i = 0; i < evlist__nr_counters(ctx->evlist) && !bpf; i++)
		if (evlist__counter(ctx->evlist, i)->ops == &counter_bpf_ops)
			bpf = evlist__counter(ctx->evlist, i)->bpf;
	if (!bpf)
		return;
	for (c = 0; c < ctx->cpus->nr; c++) {
		missed += cgroup_bpf__cpu(bpf, c)->missed;
		switches += cgroup_bpf__cpu(bpf, c)->switches;
	}
	if (missed <= ctx->bpf_missed)
		return;
	pr_warning("--for-each-cgroup: the kernel did not run the BPF program at %llu of %llu cgroup switches: the counts are not exact\n",
		   missed, switches);
	for (c = 0; c < ctx->cpus->nr; c++) {
		const struct cgroup_bpf_cpu *cpu = cgroup_bpf__cpu(bpf, c);

		if (cpu->missed)
			pr_info("--for-each-cgroup: CPU %d: BPF missed %llu of %llu cgroup switches\n",
				ctx->cpus->map[c], (unsigned long long)cpu->missed,
				(unsigned long long)cpu->switches);
	}
	ctx->bpf_missed = missed;
}

static int check_cgroups_alive(struct stat_ctx *ctx)
{
	int i;

	for (i = 0; i < ctx->nr_cgrps; i++) {
		if (ctx->cgrps[i] && cgroup__check_alive(ctx->cgrps[i])) {
			pr_err("cgroup '%s' (%s) was removed while counting: its counts are incomplete\n",
			       ctx->cgrps[i]->name, ctx->cgrps[i]->path);
			return -ENOENT;
		}
	}
	return 0;
}

/* The copies of the cgroups that left: out of the list, deleted. */
static void delete_evsels(struct evsel **evsels, int nr)
{
	while (nr--)
		evsel__delete(evsels[nr]);
	free(evsels);
}

/*
 * --serve: room for a count per entry of the list, new ones zero; grown
 * by half again when short, so that cgroups joining at every scrape do
 * not reallocate both arrays at every scrape
 */
static int serve_grow(struct stat_ctx *ctx)
{
	size_t sz = sizeof(*ctx->served);
	int nr = evlist__nr(ctx->evlist), cap = nr + nr / 2;
	struct openmetrics_count *n;

	if (nr > ctx->cap_served) {
		n = realloc(ctx->served, cap * sz);
		if (!n)
			return -ENOMEM;
		ctx->served = n;
		n = realloc(ctx->scrape, cap * sz);
		if (!n)
			return -ENOMEM;
		ctx->scrape = n;
		ctx->cap_served = cap;
	}
	if (nr > ctx->nr_served) {
		memset(&ctx->served[ctx->nr_served], 0, (nr - ctx->nr_served) * sz);
		ctx->nr_served = nr;
	}
	return 0;
}

/*
 * --serve --follow-cgroups: the copies of the cgroups that left were
 * served a last time: out of the list and of the counts served (in
 * place: nothing the size of the list is allocated at every scrape),
 * deleted at the next scrape, once the server is done with their names.
 */
static int serve_retire(struct stat_ctx *ctx)
{
	int i, j = 0, n = 0, nr = evlist__nr(ctx->evlist), err;

	delete_evsels(ctx->gone, ctx->nr_gone);
	ctx->gone = NULL;
	ctx->nr_gone = 0;
	err = evlist__take_retired(ctx->evlist, &ctx->gone, &ctx->nr_gone);
	if (err)
		return err;
	/* the retired ones, in order, keep the index they had in the list */
	for (i = 0; i < nr; i++) {
		if (j < ctx->nr_gone && evsel__idx(ctx->gone[j]) == i)
			j++;
		else
			ctx->served[n++] = ctx->served[i];
	}
	ctx->nr_served = n;
	return 0;
}

/*
 * --serve's scrape: every counter read now, summed over CPUs and scaled as
 * at the end of a run, one count per event and cgroup it is supported in,
 * in the same order at every scrape.  A multiplexed count is an estimate
 * that may come out lower than the last one served: a counter must not
 * go down (OpenMetrics; Prometheus reads a decrease as a reset), so the
 * last is served again until the estimate passes it.  A cgroup removed
 * meanwhile is served with its last counts; with --follow-cgroups only
 * once, else at every scrape (its events count no more).
 */
static int serve_read(void *arg, const struct openmetrics_count **counts, int *nr)
{
	struct stat_ctx *ctx = arg;
	struct evsel *evsel;
	int i, n = 0, err;

	err = read_counters(ctx);
	if (err)
		return err;
	err = stat__aggregate(ctx->evlist, &ctx->config, false);
	if (!err)
		err = serve_grow(ctx);
	if (err) {
		pr_err("--serve: adding up the counts: %s (%s)\n", strerror(-err), perfx__errname(err));
		return err;
	}
	check_bpf_missed(ctx);
	evlist__for_each(ctx->evlist, i, evsel) {
		struct openmetrics_count *c = &ctx->served[i];
		const struct evsel_counts *aggr;

		if (!evsel__is_supported(evsel) || !evsel__cgroup(evsel))
			continue;
		c->cgroup = evsel__cgroup(evsel)->name;
		c->event = evsel__name(evsel);
		aggr = &evsel__stat(evsel)->aggr[0];
		if (aggr->val > c->val)
			c->val = aggr->val;
		c->ena = aggr->ena;
		c->run = aggr->run;
		ctx->scrape[n++] = *c;
	}
	err = ctx->follow ? serve_retire(ctx) : 0;
	if (err) {
		pr_err("--serve: dropping the cgroups that left: %s (%s)\n", strerror(-err),
		       perfx__errname(err));
		return err;
	}
	*counts = ctx->scrape;
	*nr = n;
	return 0;
}

static int start_workload(struct stat_ctx *ctx)
{
	int err = workload__start(&ctx->work);

	ctx->child = ctx->work.pid;
	if (err) {
		/* perf's words and exit status */
		fprintf(stderr, "Workload failed: %s\n", strerror(-err));
		ctx->workload_failed = true;
	}
	return err;
}

static double timeval_sec(const struct timeval *tv)
{
	return tv->tv_sec + tv->tv_usec / 1e6;
}

static void timespec_sub(struct timespec *r, const struct timespec *a,
			 const struct timespec *b)
{
	r->tv_sec = a->tv_sec - b->tv_sec;
	r->tv_nsec = a->tv_nsec - b->tv_nsec;
	if (r->tv_nsec < 0) {
		r->tv_sec--;
		r->tv_nsec += 1000000000L;
	}
}

static int print_interval(struct stat_ctx *ctx, const struct timespec *start)
{
	struct timespec now;
	struct evsel *evsel;
	int i, err;

	clock_gettime(CLOCK_MONOTONIC, &now);
	err = read_counters(ctx);
	if (err)
		return err;
	timespec_sub(&ctx->config.interval_ts, &now, start);
	err = stat__aggregate(ctx->evlist, &ctx->config, true);
	if (err)
		return err;
	stat_shadow__reset(&ctx->config.shadow);
	err = stat_shadow__update(ctx->evlist, &ctx->config);
	if (err)
		return err;
	stat_display__counters(&ctx->config, ctx->evlist);
	evlist__for_each(ctx->evlist, i, evsel)
		evsel__save_prev(evsel);
	check_bpf_missed(ctx);
	if (ctx->follow) {
		/* the cgroups that left got their last row */
		struct evsel **gone;
		int nr;

		err = evlist__take_retired(ctx->evlist, &gone, &nr);
		if (err)
			return err;
		delete_evsels(gone, nr);
	}
	return check_cgroups_alive(ctx);
}

static int read_counters_fn(void *arg)
{
	return read_counters(arg);
}

/*
 * --follow-cgroups: the cgroups made or removed since the last look join
 * or leave, those that leave read a last time first.
 */
static int follow_cgroups(struct stat_ctx *ctx)
{
	int err = stat_follow__update(ctx->follow, ctx->evlist, read_counters_fn, ctx);

	ctx->nr_fds = evlist__nr_fds(ctx->evlist);
	return err;
}

/* for stat_serve__watch() */
static int follow_cgroups_fn(void *arg)
{
	return follow_cgroups(arg);
}

/*
 * --follow-cgroups: until @deadline on CLOCK_MONOTONIC (NULL: none), or
 * SIGINT, SIGTERM or SIGCHLD, following the cgroups meanwhile.  The
 * signals get in only in ppoll(), so that one that came before is not
 * lost.
 */
static int follow_wait(struct stat_ctx *ctx, const struct timespec *deadline)
{
	struct pollfd pfd = { .fd = stat_follow__fd(ctx->follow), .events = POLLIN };
	sigset_t block, old;
	int err = 0;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (!err && !perfx_done && !perfx_child_exited) {
		struct timespec now, left, *tsp = NULL;

		if (deadline) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			timespec_sub(&left, deadline, &now);
			if (left.tv_sec < 0)
				break;
			tsp = &left;
		}
		if (ppoll(&pfd, 1, tsp, &old) < 0) {
			if (errno != EINTR)
				err = -errno;
			continue;
		}
		if (!pfd.revents)
			break;
		err = follow_cgroups(ctx);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}

/*
 * Until SIGINT or SIGTERM: blocked from before the last check of
 * perfx_done until sigsuspend() lets them in, so that one arriving in
 * between is not lost (pause() after the check would wait for another).
 */
static void wait_for_signal(void)
{
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (!perfx_done)
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static int run_once(struct stat_ctx *ctx, int *status)
{
	static const struct timespec task_poll = { 0, 100 * 1000 * 1000 };
	struct timespec t0, t1, next;
	struct rusage ru;
	int err, wst = 0;

	if (ctx->opts.argc) {
		err = workload__prepare(&ctx->work, ctx->opts.argv);
		ctx->child = ctx->work.pid;
		if (err) {
			pr_err("cannot fork: %s (%s)\n", strerror(-err), perfx__errname(err));
			return err;
		}
		if (counting_child(ctx)) {
			thread_map__put(ctx->threads);
			err = thread_map__new_pid(ctx->child, &ctx->threads);
			if (err)
				return err;
		}
	}
	err = open_counters(ctx);
	if (err)
		goto out_kill;
	if (!counting_child(ctx)) {
		err = evlist__enable(ctx->evlist);
		if (err) {
			pr_err("enabling the events: %s (%s)\n", strerror(-err), perfx__errname(err));
			goto out_kill;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ctx->opts.argc) {
		err = start_workload(ctx);
		if (err)
			goto out_close;
	}
	next = t0;
	while (!perfx_done) {
		/* as perf: -p/-t end when the tasks are gone */
		if (counting_tasks(ctx) && !ctx->child && !thread_map__alive(ctx->threads, NULL))
			break;
		if (ctx->child) {
			pid_t r = wait4(ctx->child, &wst,
					ctx->opts.interval || ctx->follow ? WNOHANG : 0, &ru);

			if (r == ctx->child) {
				ctx->child = 0;
				break;
			}
			if (r < 0 && errno != EINTR) {
				err = -errno;
				goto out_kill;
			}
		}
		if (ctx->opts.interval) {
			next.tv_nsec += (long)(ctx->opts.interval % 1000) * 1000000L;
			next.tv_sec += ctx->opts.interval / 1000 + next.tv_nsec / 1000000000L;
			next.tv_nsec %= 1000000000L;
			err = ctx->follow ? follow_wait(ctx, &next) : 0;
			if (err)
				goto out_kill;
			while (!ctx->follow && !perfx_done &&
			       clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR) {
				if (perfx_child_exited)
					break;
			}
			if (perfx_child_exited && ctx->child && waitpid(ctx->child, &wst, WNOHANG) == ctx->child) {
				getrusage(RUSAGE_CHILDREN, &ru);
				ctx->child = 0;
				err = print_interval(ctx, &t0);
				if (err)
					goto out_kill;
				break;
			}
			err = print_interval(ctx, &t0);
			if (err)
				goto out_kill;
		} else if (!ctx->child && counting_tasks(ctx)) {
			nanosleep(&task_poll, NULL);
		} else if (ctx->serve) {
			char mode[64];

			cgroup_mode_name(ctx, mode, sizeof(mode));
			pr_info("--serve: counting in %s mode, %lu counting fds, setup %.3f ms\n", mode,
				ctx->nr_fds, ctx->setup_ms);
			if (ctx->follow)
				stat_serve__watch(ctx->serve, stat_follow__fd(ctx->follow),
						  follow_cgroups_fn, ctx);
			err = stat_serve__run(ctx->serve);
			if (err)
				goto out_kill;
		} else if (ctx->follow) {
			err = follow_wait(ctx, NULL);
			if (err)
				goto out_kill;
		} else if (!ctx->child) {
			wait_for_signal();
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (ctx->child) {
		/* interrupted: let the command see the signal and finish */
		wait4(ctx->child, &wst, 0, &ru);
		ctx->child = 0;
	}
	evlist__disable(ctx->evlist);
	stats__update(&ctx->config.walltime,
		      (t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec));
	if (ctx->opts.argc) {
		ctx->config.ru_utime = timeval_sec(&ru.ru_utime);
		ctx->config.ru_stime = timeval_sec(&ru.ru_stime);
		/* as perf: the signal is named, the exit status is WEXITSTATUS()'s */
		if (WIFSIGNALED(wst))
			psignal(WTERMSIG(wst), ctx->opts.argv[0]);
		*status = WEXITSTATUS(wst);
	}
	if (!ctx->opts.interval && !ctx->serve) {
		double r0 = now_ms();
		unsigned long nr_reads = evlist__nr_reads(ctx->evlist);

		err = read_counters(ctx);
		ctx->read_ms = now_ms() - r0;
		if (err)
			goto out_close;
		if (ctx->opts.for_each_cgroup) {
			char mode[64];

			cgroup_mode_name(ctx, mode, sizeof(mode));
			pr_info("--for-each-cgroup: %s mode, %lu counting fds, setup %.3f ms, one read of all counts %.3f ms (%lu syscalls)\n",
				mode, ctx->nr_fds, ctx->setup_ms, ctx->read_ms,
				evlist__nr_reads(ctx->evlist) - nr_reads);
		}
		err = stat__aggregate(ctx->evlist, &ctx->config, false);
		if (err)
			goto out_close;
		if (ctx->opts.repeat > 1)
			stat__update_runs(ctx->evlist, &ctx->config);
		err = stat_shadow__update(ctx->evlist, &ctx->config);
		if (err)
			goto out_close;
		check_bpf_missed(ctx);
		err = check_cgroups_alive(ctx);
	}
out_close:
	evlist__close(ctx->evlist);
	return err;

out_kill:
	if (ctx->child > 0) {
		kill(ctx->child, SIGKILL);
		waitpid(ctx->child, NULL, 0);
		ctx->child = 0;
	}
	evlist__close(ctx->evlist);
	return err;
}

static void set_target(struct stat_ctx *ctx)
{
	size_t len = 0;
	int i;

	if (ctx->opts.system_wide)
		snprintf(ctx->target, sizeof(ctx->target), "'system wide'");
	else if (ctx->opts.cpu_list)
		snprintf(ctx->target, sizeof(ctx->target), "'CPU(s) %s'", ctx->opts.cpu_list);
	else if (ctx->opts.pid_list)
		snprintf(ctx->target, sizeof(ctx->target), "process id '%s'", ctx->opts.pid_list);
	else if (ctx->opts.tid_list)
		snprintf(ctx->target, sizeof(ctx->target), "thread id '%s'", ctx->opts.tid_list);
	else {
		len = snprintf(ctx->target, sizeof(ctx->target), "'%s", ctx->opts.argv[0]);
		for (i = 1; i < ctx->opts.argc && len < sizeof(ctx->target); i++)
			len += snprintf(ctx->target + len, sizeof(ctx->target) - len, " %s",
					ctx->opts.argv[i]);
		if (len < sizeof(ctx->target))
			snprintf(ctx->target + len, sizeof(ctx->target) - len, "'");
	}
	ctx->config.target = ctx->target;
}

/* -C names only online CPUs (perf 6.1 prints <not supported> for the rest) */
static int check_online(struct stat_ctx *ctx)
{
	struct cpu_map *online = NULL, *missing = NULL;
	char have[256], lack[256];
	int err;

	err = cpu_map__new_online(&online);
	if (err) {
		pr_err("%s: expected a CPU list like 0-3,6: %s (%s)\n", CPU_MAP__ONLINE,
		       strerror(-err), perfx__errname(err));
		return err;
	}
	err = cpu_map__missing(ctx->cpus, online, &missing);
	if (!err && missing->nr) {
		cpu_map__snprint(online, have, sizeof(have));
		cpu_map__snprint(missing, lack, sizeof(lack));
		pr_err("-C '%s': CPU%s %s %s not online (online: %s) (ENODEV)\n",
		       ctx->opts.cpu_list, missing->nr > 1 ? "s" : "", lack,
		       missing->nr > 1 ? "are" : "is", have);
		err = -ENODEV;
	}
	cpu_map__put(missing);
	cpu_map__put(online);
	return err;
}

static int setup_maps(struct stat_ctx *ctx)
{
	int err;

	if (ctx->opts.cpu_list) {
		err = cpu_map__parse(ctx->opts.cpu_list, &ctx->cpus);
		if (err) {
			pr_err("-C '%s': expected a CPU list like 0-3,6: %s (%s)\n",
			       ctx->opts.cpu_list, strerror(-err), perfx__errname(err));
			return err;
		}
		err = check_online(ctx);
		if (err)
			return err;
	} else if (ctx->opts.system_wide) {
		err = cpu_map__new_online(&ctx->cpus);
		if (err) {
			pr_err("%s: expected a CPU list like 0-3,6: %s (%s)\n", CPU_MAP__ONLINE,
			       strerror(-err), perfx__errname(err));
			return err;
		}
	} else {
		ctx->cpus = cpu_map__new_any();
		if (!ctx->cpus)
			return -ENOMEM;
	}
	if (ctx->opts.pid_list || ctx->opts.tid_list) {
		const char *list = ctx->opts.pid_list ? ctx->opts.pid_list : ctx->opts.tid_list;

		err = thread_map__parse(list, !!ctx->opts.pid_list, NULL, &ctx->threads);
		if (err) {
			pr_err("%s '%s': expected existing %s ids: %s (%s)\n",
			       ctx->opts.pid_list ? "-p" : "-t", list,
			       ctx->opts.pid_list ? "process" : "thread", strerror(-err),
			       perfx__errname(err));
			return err;
		}
	} else {
		ctx->threads = thread_map__new_any();
		if (!ctx->threads)
			return -ENOMEM;
	}
	return 0;
}

static void stat_ctx__exit(struct stat_ctx *ctx)
{
	int i;

	stat_serve__delete(ctx->serve);
	free(ctx->served);
	free(ctx->scrape);
	delete_evsels(ctx->gone, ctx->nr_gone);
	evlist__delete(ctx->evlist);
	stat_follow__delete(ctx->follow);
	for (i = 0; i < ctx->nr_cgrps; i++)
		cgroup__put(ctx->cgrps[i]);
	free(ctx->cgrps);
	cpu_map__put(ctx->cpus);
	thread_map__put(ctx->threads);
	free(ctx->opts.events);
}

static FILE *open_output(const char *path)
{
	FILE *f = fopen(path, "w");
	time_t now;

	if (!f)
		return NULL;
	now = time(NULL);
	fprintf(f, "# started on %s\n", ctime(&now));
	return f;
}

/* An error that nothing has reported yet still gets its line. */
static int stat_failed(struct stat_ctx *ctx, int err)
{
	if (!ctx->workload_failed && !perfx__nr_errors())
		pr_err("stat: %s (%s)\n", strerror(-err), perfx__errname(err));
	/* perf's status when the command cannot run */
	return ctx->workload_failed ? 255 : 1;
}

static void stat_config_setup(struct stat_ctx *ctx, bool no_aggr)
{
	FILE *nmi;

	stat_config__init(&ctx->config, stderr);
	ctx->config.aggr = no_aggr ? STAT_AGGR_NONE : STAT_AGGR_GLOBAL;
	if (ctx->opts.csv_sep) {
		ctx->config.fmt = STAT_OUT_CSV;
		ctx->config.csv_sep = ctx->opts.csv_sep;
		ctx->config.big_num = false;
	} else if (ctx->opts.json) {
		ctx->config.fmt = STAT_OUT_JSON;
	}
	if (ctx->opts.no_big_num)
		ctx->config.big_num = false;
	ctx->config.run_count = ctx->opts.repeat;
	ctx->config.interval = ctx->opts.interval;
	ctx->config.ru_display = counting_child(ctx) && ctx->opts.repeat == 1;
	nmi = fopen("/proc/sys/kernel/nmi_watchdog", "r");
	if (nmi) {
		ctx->config.nmi_watchdog = fgetc(nmi) == '1';
		fclose(nmi);
	}
}

/* maps, cgroups, events, output: 0, -errno or an exit status */
static int stat_setup(struct stat_ctx *ctx, const struct parse_events_env *env)
{
	int err;

	err = setup_maps(ctx);
	if (err)
		return err;
	ctx->config.cpus = ctx->cpus;
	if (ctx->opts.for_each_cgroup || ctx->opts.cgroup_list) {
		err = setup_cgroups(ctx);
		if (err)
			return err;
	}
	ctx->config.has_cgroups = ctx->nr_cgrps > 0 || ctx->follow;
	err = setup_events(ctx, env);
	if (err)
		return err;
	ctx->config.unit_width = evlist__unit_width(ctx->evlist);
	set_target(ctx);
	if (ctx->opts.serve) {
		err = serve_grow(ctx);
		if (err)
			return err;
		err = stat_serve__new(ctx->opts.serve, serve_read, ctx, &ctx->serve);
		if (err)
			return err;
	}
	if (ctx->opts.output) {
		ctx->config.out = open_output(ctx->opts.output);
		if (!ctx->config.out) {
			err = -errno;
			pr_err("-o '%s': cannot create the output file: %s (%s)\n",
			       ctx->opts.output, strerror(-err), perfx__errname(err));
			return err;
		}
	}
	return 0;
}

int cmd_stat(int argc, char **argv)
{
	struct parse_events_env env = { getenv("PERFX_PMU_ROOT"), getenv("PERFX_TRACEFS") };
	int ret, err, status = 0, run, raise_sig = 0;
	struct stat_ctx *ctx;
	struct sigaction sa;

	ctx = calloc(1, sizeof(*ctx));
	if (!ctx) {
		fprintf(stderr, "perfx: stat: %s (ENOMEM)\n", strerror(ENOMEM));
		return 1;
	}
	ret = stat_opts__parse(&ctx->opts, argc, argv);
	if (ret > 0)
		goto out;
	perfx__setup_print(ctx->opts.verbose);
	if (ret < 0) {
		ret = stat_failed(ctx, ret);
		goto out;
	}
	setlocale(LC_ALL, "");
	stat_config_setup(ctx, ctx->opts.no_aggr);
	if (ctx->opts.cgroup_mode_given && !ctx->opts.for_each_cgroup)
		pr_warning("--cgroup-mode has no effect without --for-each-cgroup\n");

	err = stat_setup(ctx, &env);
	if (err > 0) {
		ret = err;
		goto out_close;
	}
	if (err) {
		ret = stat_failed(ctx, err);
		goto out_close;
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = perfx__sig_handler;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/* the command's exit, not its stops: --follow-cgroups waits for that */
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);

	for (run = 0; run < ctx->opts.repeat && !perfx_done; run++) {
		perfx_child_exited = 0;
		err = run_once(ctx, &status);
		if (err) {
			ret = stat_failed(ctx, err);
			goto out_close;
		}
	}
	if (!ctx->opts.interval && !ctx->serve) {
		stat_display__header(&ctx->config);
		stat_display__counters(&ctx->config, ctx->evlist);
		stat_display__footer(&ctx->config);
	}
	ret = status;
	/* as perf: a run without a command of its own dies of what ended it */
	if (!ctx->opts.argc)
		raise_sig = perfx_done;
out_close:
	if (ctx->config.out && (fflush(ctx->config.out) || ferror(ctx->config.out))) {
		fprintf(stderr, "perfx: stat: writing the output: %s\n", strerror(errno));
		ret = 1;
	}
	if (ctx->config.out && ctx->config.out != stderr)
		fclose(ctx->config.out);
out:
	stat_config__exit(&ctx->config);
	stat_ctx__exit(ctx);
	free(ctx);
	if (raise_sig && !ret)
		perfx__raise(raise_sig);
	return ret;
}
