// SPDX-License-Identifier: GPL-2.0
/*
 * perfx record's events: those of -e or perf's default cycles, on every
 * CPU for each task of the target or any task, opened through the event
 * core (evlist__open(), as stat's) after each of perf's fallbacks, their
 * attrs and ids into the header.
 */
#define _GNU_SOURCE
#include <errno.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "lib/cpumap.h"
#include "lib/debug.h"
#include "lib/evlist.h"
#include "lib/evsel.h"
#include "lib/parse-events.h"
#include "lib/threadmap.h"
#include "record.h"

/*
 * perf 6.1 excludes the guest from its default cycles, but not on AMD,
 * whose precise cycles go through IBS, which cannot filter the guest out
 * (its arch_evsel__fixup_new_cycles()): the CPU vendor decides
 */
static bool record__default_exclude_guest(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int eax, ebx, ecx, edx;
	char vendor[13];

	if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
		memcpy(vendor, &ebx, 4);
		memcpy(vendor + 4, &edx, 4);
		memcpy(vendor + 8, &ecx, 4);
		vendor[12] = '\0';
		return strcmp(vendor, "AuthenticAMD");
	}
#endif
	return true;
}

/* perf's default: the most precise cycles, or cpu-clock without a PMU */
static int record__add_default_event(struct record *rec)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.precise_ip = 3,
		.exclude_guest = record__default_exclude_guest(),
	};
	struct evsel *evsel = evsel__new(&attr, "cycles:P");

	if (!evsel || evlist__add(rec->evlist, evsel)) {
		evsel__delete(evsel);
		return -ENOMEM;
	}
	rec->default_event = true;
	return 0;
}

int record__setup_events(struct record *rec)
{
	struct parse_events_error perr = { 0, "" };
	int i, err;

	rec->evlist = evlist__new();
	if (!rec->evlist)
		return -ENOMEM;
	if (!rec->args.nr_events)
		return record__add_default_event(rec);
	for (i = 0; i < rec->args.nr_events; i++) {
		err = parse_events(rec->evlist, rec->args.events[i], NULL, &perr);
		if (err == -ENOMEM)
			return err;
		if (err)
			return record__print_events_error(rec->args.events[i], &perr, err);
	}
	return 0;
}

bool record__cpu_target(const struct record *rec)
{
	return !record_args__task_target(&rec->args) &&
	       (rec->args.system_wide || rec->args.cpu_list);
}

/* One event per CPU always, as perf record: per task, or any task */
int record__setup_maps(struct record *rec)
{
	struct thread_map *threads = NULL;
	struct cpu_map *cpus = NULL;
	int err;

	if (rec->args.cpu_list && !record_args__task_target(&rec->args))
		err = cpu_map__parse(rec->args.cpu_list, &cpus);
	else
		err = cpu_map__new_online(&cpus);
	if (err) {
		pr_err("-C '%s': not a list of CPUs this machine has (%s)\n",
		       rec->args.cpu_list ? rec->args.cpu_list : "", perfx__errname(err));
		return err;
	}
	if (rec->args.pid_list || rec->args.tid_list) {
		const char *list = rec->args.pid_list ? rec->args.pid_list : rec->args.tid_list;

		err = thread_map__parse(list, !!rec->args.pid_list, NULL, &threads);
		if (err)
			pr_err("%s '%s': no such task (%s)\n", rec->args.pid_list ? "-p" : "-t",
			       list, perfx__errname(err));
	} else if (!record__cpu_target(rec)) {
		err = thread_map__new_pid(rec->work.pid, &threads);
	} else {
		threads = thread_map__new_any();
		err = threads ? 0 : -ENOMEM;
	}
	if (!err)
		evlist__set_maps(rec->evlist, cpus, threads);
	cpu_map__put(cpus);
	thread_map__put(threads);
	return err;
}

/* @base and the modifiers perf's evsel__add_modifiers() reads from the attr */
static int record__rename(struct evsel *evsel, const char *base)
{
	const struct perf_event_attr *attr = evsel__attr(evsel);
	bool excl_guest_default = false;
	char mods[16] = "", *m = mods, *name;
	int err;

	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		if (!attr->exclude_kernel)
			*m++ = 'k';
		if (!attr->exclude_user)
			*m++ = 'u';
		if (!attr->exclude_hv)
			*m++ = 'h';
		excl_guest_default = true;
	}
	if (attr->precise_ip) {
		m += sprintf(m, "%.*s", (int)attr->precise_ip, "ppp");
		excl_guest_default = true;
	}
	if (attr->exclude_host || attr->exclude_guest == excl_guest_default) {
		if (!attr->exclude_host)
			*m++ = 'H';
		if (!attr->exclude_guest)
			*m++ = 'G';
	}
	*m = '\0';
	if (asprintf(&name, "%s%s%s", base, *mods ? ":" : "", mods) < 0)
		return -ENOMEM;
	err = evsel__set_name(evsel, name);
	free(name);
	return err;
}

/* perf's evsel__fallback(): what to change before trying again */
static bool record__fallback(struct record *rec, struct evsel *evsel, int err)
{
	struct perf_event_attr *attr = evsel__attr(evsel);
	struct evsel *pos;
	int i;

	if (err == -EINVAL && !rec->args.opts.no_lost) {
		/* a kernel before PERF_FORMAT_LOST */
		rec->args.opts.no_lost = true;
		evlist__for_each(rec->evlist, i, pos)
			evsel__attr(pos)->read_format &= ~(__u64)PERF_FORMAT_LOST;
		return true;
	}
	if (attr->type == PERF_TYPE_HARDWARE && attr->config == PERF_COUNT_HW_CPU_CYCLES) {
		if (rec->default_event && err == -EOPNOTSUPP && attr->precise_ip) {
			attr->precise_ip--;
			return true;
		}
		/* no PMU (a VM, TCG): perf's hrtimer-based stand-in, any cycles event */
		if (err == -ENOENT || err == -ENXIO || err == -ENODEV ||
		    (rec->default_event && (err == -EOPNOTSUPP || err == -EINVAL))) {
			pr_info("Warning:\nThe cycles event is not supported, trying to fall back to cpu-clock-ticks\n");
			attr->type = PERF_TYPE_SOFTWARE;
			attr->config = PERF_COUNT_SW_CPU_CLOCK;
			return !record__rename(evsel, "cpu-clock");
		}
	}
	return (err == -EACCES || err == -EPERM) && evsel__fallback_user(evsel);
}

/* perf's evsel__open_strerror() for the event the kernel refused */
static int record__open_error(struct evsel *evsel, int err)
{
	if (!evsel)
		return err;	/* no event's fault: ENOMEM, reported by cmd_record() */
	if (err == -ENOENT) {
		/* perf's evsel__open_strerror(): an event this machine does not have */
		pr_err("Error:\nThe %s event is not supported.\n", evsel__name(evsel));
		return err;
	}
	if (err == -EOPNOTSUPP && (evsel__attr(evsel)->sample_type & PERF_SAMPLE_BRANCH_STACK)) {
		/* --call-graph lbr without a PMU that has it */
		pr_err("Error:\n%s: PMU Hardware or event type doesn't support branch stack sampling.\n",
		       evsel__name(evsel));
		return err;
	}
	pr_err("Error:\nThe sys_perf_event_open() syscall returned with %d (%s) for event (%s) (%s).\n",
	       -err, strerror(-err), evsel__name(evsel), perfx__errname(err));
	if (err == -EACCES || err == -EPERM)
		pr_err("perf_event_paranoid is %d: see /proc/sys/kernel/perf_event_paranoid\n",
		       evsel__paranoid_level());
	return err;
}

/*
 * Open every event as stat does, again after each fallback (the list is
 * closed when an open fails); the header gets each event's attr and ids.
 */
int record__open(struct record *rec)
{
	struct evsel *evsel, *failed;
	int i, j, err;

	do
		err = evlist__open(rec->evlist, &failed);
	while (err && failed && record__fallback(rec, failed, err));
	if (err)
		return record__open_error(failed, err);
	evlist__for_each(rec->evlist, i, evsel) {
		int nr = evsel__nr_fds(evsel), nt = evsel__threads(evsel)->nr;
		__u64 *ids = calloc(nr, sizeof(*ids));

		if (!ids)
			return -ENOMEM;
		/* the ids in the order of the fds: CPU-major, as evsel__fd() has them */
		for (j = 0, err = 0; j < nr && !err; j++)
			if (ioctl(evsel__fd(evsel, j / nt, j % nt), PERF_EVENT_IOC_ID, &ids[j]))
				err = -errno;
		if (!err)
			err = perfx_header__add_attr(&rec->header, evsel__attr(evsel),
						     sizeof(struct perf_event_attr), ids, nr);
		free(ids);
		if (err)
			return err;
	}
	return 0;
}
