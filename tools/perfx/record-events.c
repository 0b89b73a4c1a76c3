// SPDX-License-Identifier: GPL-2.0
/*
 * perfx record's events: those of -e or perf's default cycles, on every
 * CPU for each task of the target or any task, opened through the event
 * core (evlist__open(), as stat's) again after each of perf's fallbacks
 * (evlist__fallback()), their attrs and ids into the header.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "lib/cpumap.h"
#include "lib/debug.h"
#include "lib/evlist.h"
#include "lib/evsel.h"
#include "lib/parse-events.h"
#include "lib/threadmap.h"
#include "record.h"

/* perf's default: the most precise cycles, or cpu-clock without a PMU */
static int record__add_default_event(struct record *rec)
{
	struct evsel *evsel = evsel__new_cycles();

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
	int i, err;

	do
		err = evlist__open(rec->evlist, &failed);
	while (err && failed && evlist__fallback(rec->evlist, failed, err));
	if (err)
		return record__open_error(failed, err);
	/* the fallback took PERF_FORMAT_LOST away: no LOST_SAMPLES at the end */
	rec->args.opts.no_lost = !(evsel__attr(evlist__entry(rec->evlist, 0))->read_format &
				   PERF_FORMAT_LOST);
	evlist__for_each(rec->evlist, i, evsel) {
		err = evsel__read_ids(evsel);
		if (!err)
			err = perfx_header__add_attr(&rec->header, evsel__attr(evsel),
						     sizeof(struct perf_event_attr),
						     evsel__ids(evsel), evsel__nr_fds(evsel));
		if (err)
			return err;
	}
	return 0;
}
