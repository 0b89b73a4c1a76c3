// SPDX-License-Identifier: GPL-2.0
/*
 * perfx record [-e EVENTS] [-a | -C CPUS | -p PID | -t TID] [-o FILE] [-- COMMAND]
 *
 * Samples into a perf.data file or pipe that Linux perf reads: the
 * events get perf's attrs for the same command line, one ring buffer per
 * CPU takes every event of that CPU, and each pass over the buffers is
 * written through one buffered writer and closed by a FINISHED_ROUND.
 * Existing tasks are synthesized first; a file gets perf's header
 * features, the build-ids of the DSOs that samples hit among them.
 */
#define _GNU_SOURCE
#include <errno.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/cpumap.h"
#include "lib/data.h"
#include "lib/debug.h"
#include "lib/dso-hits.h"
#include "lib/evlist.h"
#include "lib/evsel.h"
#include "lib/feature.h"
#include "lib/header.h"
#include "lib/numa.h"
#include "lib/parse-events.h"
#include "lib/perf-data.h"
#include "lib/read-affinity.h"
#include "lib/record-config.h"
#include "lib/record-rings.h"
#include "lib/sample-id.h"
#include "lib/session.h"
#include "lib/synthesize.h"
#include "lib/synthesize-bpf-progs.h"
#include "lib/synthesize-evlist.h"
#include "lib/threadmap.h"
#include "lib/time-conv.h"
#include "lib/tracing-data.h"
#include "lib/workload.h"
#include "record-options.h"

struct record {
	struct record_args	args;		/* the command line */
	struct workload		work;
	int			workload_status;
	bool			workload_failed;	/* perf's message said why */

	struct evlist		*evlist;
	bool			default_event;
	struct numa_topo	*topo;
	struct record_rings	rings;
	struct perfx_header	header;
	struct perfx_data	data;		/* -o: the path, its fd and kind */
	struct perfx_writer	out;		/* buffered writes into data.fd */
	bool			pipe;		/* a pipe's stream: stdout or a FIFO */
	__u64			data_start;	/* where the records begin */
	unsigned long long	samples;
	/* what the walk for build-ids saw: every record, LOST ones, lost samples */
	unsigned long long	nr_records;
	unsigned long long	nr_lost;
	unsigned long long	lost_samples;
	__u64			first_sample_time;
	__u64			last_sample_time;
	unsigned long		waking;
	struct feature_buf	bid_table;	/* the BUILD_ID feature */
	char			bid_rec[BUILD_ID_RECORD_MAX];
};

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

static int record__setup_events(struct record *rec)
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

static bool record__cpu_target(const struct record *rec)
{
	return !record_args__task_target(&rec->args) &&
	       (rec->args.system_wide || rec->args.cpu_list);
}

/* One event per CPU always, as perf record: per task, or any task */
static int record__setup_maps(struct record *rec)
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
	const struct perf_event_attr *attr = &evsel->attr;
	bool excl_guest_default = false;
	char mods[16] = "", *m = mods;

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
	free(evsel->name);
	if (asprintf(&evsel->name, "%s%s%s", base, *mods ? ":" : "", mods) < 0) {
		evsel->name = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* perf's evsel__fallback(): what to change before trying again */
static bool record__fallback(struct record *rec, struct evsel *evsel, int err)
{
	struct perf_event_attr *attr = &evsel->attr;
	struct evsel *pos;
	int i;

	if (err == -EINVAL && !rec->args.opts.no_lost) {
		/* a kernel before PERF_FORMAT_LOST */
		rec->args.opts.no_lost = true;
		evlist__for_each(rec->evlist, i, pos)
			pos->attr.read_format &= ~(__u64)PERF_FORMAT_LOST;
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
		pr_err("Error:\nThe %s event is not supported.\n", evsel->name);
		return err;
	}
	if (err == -EOPNOTSUPP && (evsel->attr.sample_type & PERF_SAMPLE_BRANCH_STACK)) {
		/* --call-graph lbr without a PMU that has it */
		pr_err("Error:\n%s: PMU Hardware or event type doesn't support branch stack sampling.\n",
		       evsel->name);
		return err;
	}
	pr_err("Error:\nThe sys_perf_event_open() syscall returned with %d (%s) for event (%s) (%s).\n",
	       -err, strerror(-err), evsel->name, perfx__errname(err));
	if (err == -EACCES || err == -EPERM)
		pr_err("perf_event_paranoid is %d: see /proc/sys/kernel/perf_event_paranoid\n",
		       evsel__paranoid_level());
	return err;
}

/*
 * Open every event as stat does, again after each fallback (the list is
 * closed when an open fails); the header gets each event's attr and ids.
 */
static int record__open(struct record *rec)
{
	struct evsel *evsel, *failed;
	int i, j, err;

	do
		err = evlist__open(rec->evlist, &failed);
	while (err && failed && record__fallback(rec, failed, err));
	if (err)
		return record__open_error(failed, err);
	evlist__for_each(rec->evlist, i, evsel) {
		int nr = evsel__nr_fds(evsel);
		__u64 *ids = calloc(nr, sizeof(*ids));

		if (!ids)
			return -ENOMEM;
		for (j = 0, err = 0; j < nr && !err; j++)
			if (ioctl(evsel->fds[j], PERF_EVENT_IOC_ID, &ids[j]))
				err = -errno;
		if (!err)
			err = perfx_header__add_attr(&rec->header, &evsel->attr,
						     sizeof(evsel->attr), ids, nr);
		free(ids);
		if (err)
			return err;
	}
	return 0;
}

/* the ring of CPU index @c: the first fd maps it, the others write into it */
static int record__mmap_cpu(struct record *rec, int c)
{
	struct perf_mmap *m = &rec->rings.rings[c].mmap;
	struct evsel *evsel;
	int i, t, err;

	evlist__for_each(rec->evlist, i, evsel) {
		for (t = 0; t < evsel->threads->nr; t++) {
			int fd = evsel__fd(evsel, c, t);

			if (fd < 0)
				continue;
			if (!m->base) {
				err = record_rings__map(&rec->rings, c, fd);
				if (err)
					goto out_err;
				continue;
			}
			if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, m->fd)) {
				err = -errno;
				goto out_err;
			}
		}
	}
	return 0;

out_err:
	pr_err("mapping the ring buffer of CPU %d (%u pages): %s (%s)\n",
	       rec->evlist->cpus->map[c], rec->args.mmap_pages, strerror(-err),
	       perfx__errname(err));
	if (err == -EPERM)
		pr_err("the locked-memory limit is too small: see -m and /proc/sys/kernel/perf_event_mlock_kb\n");
	return err;
}

/* perf's --mmap-flush: 1 by default, at most a quarter of a ring */
static __u64 record__mmap_flush(struct record *rec)
{
	__u64 max = (__u64)rec->args.mmap_pages * sysconf(_SC_PAGESIZE) / 4;

	if (rec->args.mmap_flush > max)
		pr_debug("--mmap-flush %llu: lowered to a quarter of a ring, %llu bytes\n",
			 rec->args.mmap_flush, max);
	return rec->args.mmap_flush > max ? max : rec->args.mmap_flush ? rec->args.mmap_flush : 1;
}

static int record__mmap(struct record *rec)
{
	struct record_rings_opts opts = {
		.pages = rec->args.mmap_pages,
		.flush = record__mmap_flush(rec),
		.affinity = rec->args.affinity,
		.nr_aio = rec->args.nr_aio,
	};
	const struct cpu_map *cpus = rec->evlist->cpus;
	int c, err;

	err = numa_topo__new(NUMA_SYSFS, &rec->topo);
	if (err) {
		pr_err("%s: cannot read the NUMA nodes' CPUs: %s (%s)\n", NUMA_SYSFS,
		       strerror(-err), perfx__errname(err));
		return err;
	}
	err = record_rings__init(&rec->rings, &opts, rec->topo, &rec->out, cpus->map, cpus->nr);
	if (err)
		pr_err("cannot allocate the rings of %d CPUs: %s (%s)\n", cpus->nr, strerror(-err),
		       perfx__errname(err));
	for (c = 0; !err && c < cpus->nr; c++)
		err = record__mmap_cpu(rec, c);
	return err;
}

/* -vv: each ring, where its pages are, its --aio buffers */
static void record__report_ring(struct record *rec, const struct record_ring *ring)
{
	char aio[64] = "";

	if (rec->args.nr_aio)
		snprintf(aio, sizeof(aio), ", --aio buffers at %p bound to node %d",
			 ring->aio.mem, ring->node);
	if (ring->pages_here < 0)
		pr_debug("ring of CPU %d at %p: node %d%s\n", ring->cpu, ring->mmap.base,
			 ring->node, aio);
	else
		pr_debug("ring of CPU %d at %p: %d of %zu pages on its node %d%s\n", ring->cpu,
			 ring->mmap.base, ring->pages_here, ring->mmap.len / sysconf(_SC_PAGESIZE),
			 ring->node, aio);
}

/*
 * The kernel allocates a CPU's ring on the CPU's node, preferring it but
 * taking another node's pages when that one is short: -v says where they
 * are, and a ring not wholly on its node is worth a warning.
 */
static void record__report_rings(struct record *rec)
{
	size_t pages = rec->rings.rings[0].mmap.len / sysconf(_SC_PAGESIZE);
	char how[64] = "serially";
	int i;

	for (i = 0; i < rec->rings.nr; i++) {
		const struct record_ring *ring = &rec->rings.rings[i];

		record__report_ring(rec, ring);
		if (ring->pages_here >= 0 && (size_t)ring->pages_here < pages)
			pr_warning("the ring of CPU %d has %zu of its %zu pages off its node %d\n",
				   ring->cpu, pages - ring->pages_here, pages, ring->node);
	}
	if (rec->args.nr_aio)
		snprintf(how, sizeof(how), "into %u --aio buffers each", rec->args.nr_aio);
	pr_info("%d rings of %zu pages, %d NUMA node(s), read %s with --affinity=%s, --mmap-flush %llu\n",
		rec->rings.nr, pages, rec->topo->nr_nodes, how,
		read_affinity__name(rec->args.affinity), rec->rings.opts.flush);
}

/* After the output is open: --aio writes into it. */
static int record__start_rings(struct record *rec)
{
	int err, bad;

	err = record_rings__start(&rec->rings, &bad);
	if (err && bad >= 0)
		pr_err("--aio: the buffers of the ring of CPU %d on node %d: %s (%s)\n",
		       rec->rings.rings[bad].cpu, rec->rings.rings[bad].node, strerror(-err),
		       perfx__errname(err));
	else if (err)
		pr_err("--aio or --affinity: %s (%s)\n", strerror(-err), perfx__errname(err));
	else
		record__report_rings(rec);
	return err;
}

/*
 * As perf: an existing non-empty file becomes FILE.old; a FIFO gets a
 * pipe's stream; a device is written in place.
 */
static int record__open_output(struct record *rec)
{
	int err;

	err = perfx_data__open_write(&rec->data, rec->args.output, PERFX_DATA_KEEP_OLD);
	if (err)
		return err;
	rec->pipe = perfx_data__is_pipe(&rec->data);
	if (rec->pipe && rec->args.nr_aio) {
		pr_err("%s: --aio writes at offsets in a file, not into a FIFO (EINVAL)\n",
		       rec->args.output);
		perfx_data__discard(&rec->data);
		return -EINVAL;
	}
	err = perfx_writer__init(&rec->out, rec->data.fd,
				 rec->data.kind == PERFX_DATA_STDOUT ? "stdout" : rec->args.output);
	if (err)
		perfx_data__discard(&rec->data);
	return err;
}

/* TRACING_DATA: the formats of the tracepoints recorded, as "system:name" */
static int record__tracing_data(struct record *rec)
{
	struct feature_buf b = { 0 };
	struct evsel *evsel;
	int i, nr = 0, err;
	const char **tps;

	tps = calloc(rec->evlist->nr, sizeof(*tps));
	if (!tps)
		return -ENOMEM;
	evlist__for_each(rec->evlist, i, evsel)
		if (evsel->attr.type == PERF_TYPE_TRACEPOINT)
			tps[nr++] = evsel->name;
	if (!nr) {
		free(tps);
		return 0;
	}
	err = tracing_data__build(&b, parse_events__tracefs(NULL), tps, nr);
	if (err) {
		pr_err("tracing data: cannot read the tracepoints' formats in %s: %s (%s)\n",
		       parse_events__tracefs(NULL), strerror(-err), perfx__errname(err));
		b.err = err;
	}
	free(tps);
	return feature_buf__commit(&b, &rec->header, HEADER_TRACING_DATA);
}

/* GROUP_DESC, when an event group has more than one event */
static int record__group_desc(struct record *rec)
{
	struct feature_group *groups;
	struct evsel *evsel;
	int i, nr = 0, err;

	groups = calloc(rec->evlist->nr, sizeof(*groups));
	if (!groups)
		return -ENOMEM;
	evlist__for_each(rec->evlist, i, evsel) {
		if (evsel->leader != evsel || evsel->nr_members < 2)
			continue;
		groups[nr++] = (struct feature_group){
			.leader_idx = i,
			.nr_members = evsel->nr_members,
		};
	}
	err = nr ? feature__add_group_desc(&rec->header, groups, nr) : 0;
	free(groups);
	return err;
}

static int record__write_header(struct record *rec, int argc, const char **argv)
{
	struct evsel *evsel;
	const char **names;
	int i, err;

	names = calloc(rec->evlist->nr, sizeof(*names));
	if (!names)
		return -ENOMEM;
	err = feature__add_machine(&rec->header, PERFX_VERSION, argc, argv);
	if (!err && rec->args.opts.use_clockid)
		err = feature__add_clockid(&rec->header, rec->args.opts.clockid);
	if (!err && rec->args.opts.use_clockid)
		err = feature__add_clock_data(&rec->header, rec->args.opts.clockid);
	if (!err)
		err = record__tracing_data(rec);
	if (!err)
		err = record__group_desc(rec);
	/* a file's are known after the walk for build-ids */
	if (!err && rec->pipe)
		err = feature__add_sample_time(&rec->header, 0, 0);
	evlist__for_each(rec->evlist, i, evsel)
		names[i] = evsel->name;
	if (!err)
		err = feature__add_event_desc(&rec->header, names);
	free(names);
	if (err)
		return err;
	if (rec->pipe)
		err = perfx_header__write_pipe(&rec->header, &rec->out, true);
	else
		err = perfx_header__write_file_start(&rec->header, &rec->out);
	rec->data_start = rec->out.pos;
	return err;
}

static int record__write_marker(struct record *rec, __u32 type)
{
	struct perf_event_header h = { .type = type, .size = sizeof(h) };

	return perfx_writer__write(&rec->out, &h, sizeof(h));
}

/*
 * The BPF programs loaded now, as perf's: their KSYMBOLs and BPF_EVENTs,
 * and a file's BPF_PROG_INFO and BPF_BTF (a pipe's header, written
 * before, lists none, as perf's).  A walk the kernel refused (no
 * privilege, no BPF_PROG_GET_NEXT_ID) is silent, another that stopped
 * warns as perf does; -v says why.
 */
static int record__bpf_progs(struct record *rec)
{
	struct bpf_progs p;
	int ret;

	ret = bpf_progs__synthesize(&p, &rec->out, rec->args.synth.id_hdr_size,
				    rec->args.synth.root);
	if (ret < 0)
		goto out;
	if (p.err) {
		pr_info("bpf programs: %s (id %u): %s (%s)\n", p.err_what, p.err_id,
			strerror(-p.err), perfx__errname(p.err));
		if (!p.refused)
			pr_warning("Couldn't synthesize bpf events.\n");
	}
	if (p.images_err)
		pr_info("bpf images: cannot read kallsyms: %s\n", strerror(-p.images_err));
	pr_info("bpf programs: %zu synthesized, %zu BTFs, %zu gone before they were opened, %zu trampolines and dispatchers\n",
		p.nr_progs, p.nr_btfs, p.nr_vanished, p.nr_images);
	ret = rec->pipe ? 0 : feature__add_bpf_progs(&rec->header, &p);
out:
	bpf_progs__exit(&p);
	return ret;
}

/*
 * As perf's record__synthesize(): the first ring's TIME_CONV, the events'
 * ID_INDEX, the kernel's maps, the events' EVENT_UPDATEs, THREAD_MAP and
 * CPU_MAP, the BPF programs loaded, what already runs, then FINISHED_INIT,
 * before the ring buffers' records.
 */
static int record__synthesize(struct record *rec)
{
	struct perfx_writer *w = &rec->out;
	int err;

	rec->args.synth.id_hdr_size =
		sample_id__hdr_size(rec->evlist->entries[0]->attr.sample_type);
	err = synthesize__time_conv(w, rec->rings.nr ? rec->rings.rings[0].mmap.base : NULL);
	if (err >= 0)
		err = synthesize__id_index(w, rec->evlist, &rec->header);
	if (err)
		return err;
	err = synthesize__kernel(w, &rec->args.synth);
	if (err == -ENOENT || err == -EACCES) {
		pr_warning("Couldn't record kernel reference relocation symbol\n"
			   "Symbol resolution may be skewed if relocation was used (e.g. kexec).\n"
			   "Check /proc/kallsyms permission or run as root.\n");
		err = 0;
	}
	if (err < 0)
		return err;
	/* perf's default event has no unit */
	err = synthesize__event_update(w, rec->evlist, &rec->header, !rec->default_event,
				       rec->pipe);
	if (!err)
		err = synthesize__thread_map(w, rec->evlist);
	if (!err)
		err = synthesize__cpu_map(w, rec->evlist);
	if (!err)
		err = record__bpf_progs(rec);
	if (err)
		return err;
	if (record__cpu_target(rec))
		err = synthesize__all(w, &rec->args.synth);
	else if (record_args__task_target(&rec->args))
		err = synthesize__threads(w, rec->evlist->threads, &rec->args.synth);
	else
		err = synthesize__comm(w, rec->work.pid, &rec->args.synth);
	if (err < 0)
		return err;
	return record__write_marker(rec, PERF_RECORD_FINISHED_INIT);
}

static int record__ioctl(struct record *rec, unsigned long req)
{
	struct evsel *evsel;
	int i, c, err;

	evlist__for_each(rec->evlist, i, evsel) {
		if (evsel->leader != evsel)
			continue;
		for (c = 0; c < evsel->cpus->nr; c++) {
			err = evsel__ioctl_cpu(evsel, c, req);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * One pass over every ring (the last one takes what is below
 * --mmap-flush too), and a FINISHED_ROUND where record_rings__drain()
 * says one is due.
 */
static int record__drain(struct record *rec, bool last)
{
	bool round;
	__u64 bytes;
	int err;

	err = record_rings__drain(&rec->rings, last, &bytes, &round);
	if (err || !round)
		return err;
	return record__write_marker(rec, PERF_RECORD_FINISHED_ROUND);
}

/*
 * Rings whose events hung up (their tasks are gone) leave the poll set,
 * as perf's fdarray__filter(): ppoll() would return at once for them and
 * never let a pending signal in.  Returns how many are left.
 */
static int record__filter_hup(struct record *rec)
{
	struct pollfd *pollfd = rec->rings.pollfd;
	int i, left = 0;

	for (i = 0; i < rec->rings.nr; i++) {
		if (pollfd[i].revents & (POLLHUP | POLLERR))
			pollfd[i].fd = -1;
		left += pollfd[i].fd >= 0;
	}
	return left;
}

static bool record__workload_done(struct record *rec)
{
	if (!rec->work.pid || !perfx_child_exited)
		return false;
	perfx_child_exited = 0;
	if (waitpid(rec->work.pid, &rec->workload_status, WNOHANG) != rec->work.pid)
		return false;
	rec->work.pid = 0;
	return true;
}

static int record__loop(struct record *rec)
{
	bool finishing = false, targets_gone = false;
	sigset_t unblocked;
	int err;

	sigemptyset(&unblocked);
	for (;;) {
		err = record__drain(rec, finishing);
		if (err || finishing)
			return err;
		if (perfx_done || record__workload_done(rec) || targets_gone) {
			/* stop the events, then one last pass */
			record__ioctl(rec, PERF_EVENT_IOC_DISABLE);
			finishing = true;
			continue;
		}
		/*
		 * Wait for the kernel's wakeup (half a ring) even after a pass
		 * that found data: a trickle of records would else keep this
		 * thread draining a few at a time, sampling itself.
		 */
		if (ppoll(rec->rings.pollfd, rec->rings.nr, NULL, &unblocked) < 0 && errno != EINTR)
			return -errno;
		rec->waking++;
		/* -p/-t end when every task is gone */
		targets_gone = !record__filter_hup(rec) && record_args__task_target(&rec->args);
	}
}

/* perf's LOST_SAMPLES: what each event's read says the kernel dropped */
static int record__lost_samples(struct record *rec)
{
	struct {
		struct perf_event_header header;
		__u64 lost;
		__u64 trailer[6];
	} rec_lost;
	struct evsel *evsel;
	int i, j;

	if (rec->args.opts.no_lost)
		return 0;
	evlist__for_each(rec->evlist, i, evsel) {
		__u64 sample_type = evsel->attr.sample_type;
		__u16 id_size = sample_id__hdr_size(sample_type);

		/* value, [enabled, running (-s)], id, lost */
		int nr = 3 + !!(evsel->attr.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(evsel->attr.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);

		for (j = 0; j < evsel__nr_fds(evsel); j++) {
			__u64 v[5];
			int err;

			if (read(evsel->fds[j], v, nr * sizeof(*v)) != (ssize_t)(nr * sizeof(*v)) ||
			    !v[nr - 1])
				continue;
			memset(&rec_lost, 0, sizeof(rec_lost));
			rec_lost.header.type = PERF_RECORD_LOST_SAMPLES;
			rec_lost.header.size = sizeof(rec_lost.header) + 8 + id_size;
			rec_lost.lost = v[nr - 1];
			sample_id__put_id(rec_lost.trailer, sample_type, v[nr - 2]);
			err = perfx_writer__write(&rec->out, &rec_lost, rec_lost.header.size);
			if (err)
				return err;
		}
	}
	return 0;
}

static int record__add_build_id(void *arg, struct dso *dso, __u16 cpumode)
{
	struct record *rec = arg;
	size_t size = dso__build_id_record(dso, cpumode, rec->bid_rec);
	struct feature_buf *b = &rec->bid_table;

	if (size)
		feature_buf__write(b, rec->bid_rec, size);
	return b->err;
}

/* Counts @ev for record__warn_lost(), as perf's session counts it. */
static void record__count(struct record *rec, const struct perf_event_header *ev)
{
	rec->nr_records++;
	if (ev->type == PERF_RECORD_LOST)
		rec->nr_lost++;
	else if (ev->type == PERF_RECORD_LOST_SAMPLES && ev->size >= sizeof(*ev) + 8)
		rec->lost_samples += perfx__get_u64(ev + 1);
}

/* SAMPLE_TIME's bounds, as perf's process_sample_event() keeps them */
static int record__sample_time(struct record *rec, struct perfx_session *s,
			       const struct perf_event_header *ev, __u64 pos)
{
	struct perfx_sample sample;
	int err;

	if (ev->type != PERF_RECORD_SAMPLE)
		return 0;
	err = perfx_session__parse_sample(s, ev, pos, &sample);
	if (err || sample.time == ~0ULL)
		return err;
	if (!rec->first_sample_time)
		rec->first_sample_time = sample.time;
	rec->last_sample_time = sample.time;
	return 0;
}

/*
 * As perf's process_buildids(): a walk over the data just written finds
 * the DSOs that samples hit (or, with --buildid-all, every DSO mapped),
 * and counts the samples and what was lost.
 */
static int record__build_ids(struct record *rec)
{
	const struct perf_event_header *ev;
	struct perfx_session s;
	struct dso_hits hits;
	__u64 pos;
	int fd, err;

	fd = perfx_data__open_read(&rec->data);
	if (fd < 0)
		return fd;
	err = perfx_session__open_range(&s, fd, rec->args.output, &rec->header, rec->data_start,
					rec->out.pos);
	if (err)
		goto out_close;
	err = dso_hits__init(&hits, &s, rec->args.buildid_all, record__add_build_id, rec);
	while (!err && (err = perfx_session__next(&s, &ev, &pos)) > 0) {
		record__count(rec, ev);
		err = record__sample_time(rec, &s, ev, pos);
		if (!err)
			err = dso_hits__record(&hits, ev, pos);
	}
	rec->samples = hits.nr_samples;
	dso_hits__exit(&hits);
	perfx_session__close(&s);
	if (!err && rec->bid_table.len)
		err = feature_buf__commit(&rec->bid_table, &rec->header, HEADER_BUILD_ID);
out_close:
	close(fd);
	return err;
}

/*
 * A write failed (the disk is full, say): cut the file after the last
 * whole record that reached it (before @bad_off, the first byte an
 * asynchronous write did not write: later ones may have written past
 * it) and give it a header that says so, so that it reads up to there.
 * A failure in the features cuts no record: the walk stops at their
 * table, whose first offset reads as a record header of size 0.
 * Returns the records' bytes kept.
 */
static __u64 record__salvage(struct record *rec, __u64 bad_off)
{
	__u64 end = rec->data_start, size;
	struct perf_event_header h;
	struct stat st;

	if (fstat(rec->out.fd, &st))
		return 0;
	size = (__u64)st.st_size < bad_off ? (__u64)st.st_size : bad_off;
	while (end + sizeof(h) <= size &&
	       pread(rec->out.fd, &h, sizeof(h), end) == sizeof(h) &&
	       h.size >= sizeof(h) && end + h.size <= size)
		end += h.size;
	if (ftruncate(rec->out.fd, end) ||
	    perfx_header__write_file_cut(&rec->header, &rec->out, end - rec->data_start))
		return 0;
	return end - rec->data_start;
}

static int record__finish_file(struct record *rec)
{
	int err;

	err = perfx_writer__flush(&rec->out);
	/* a device is not read back: /dev/null has no records to walk */
	if (!err && !rec->args.no_buildid && perfx_data__is_file(&rec->data))
		err = record__build_ids(rec);
	/* 0 and 0 without the walk, as perf's */
	if (!err)
		err = feature__add_sample_time(&rec->header, rec->first_sample_time,
					       rec->last_sample_time);
	if (!err)
		err = perfx_header__write_file_finish(&rec->header, &rec->out,
						      rec->out.pos - rec->data_start);
	if (err)
		return err;
	return perfx_data__commit(&rec->data);
}

/*
 * perf's warnings after its walk for build-ids (perf_session__warn_about_errors()):
 * LOST records, and samples lost over 5% of those taken.
 */
static void record__warn_lost(struct record *rec)
{
	unsigned long long taken = rec->samples + rec->lost_samples;

	if (rec->nr_lost)
		fprintf(stderr, "Warning:\nProcessed %llu events and lost %llu chunks!\n\n"
			"Check IO/CPU overload!\n\n", rec->nr_records, rec->nr_lost);
	if (taken && (double)rec->lost_samples / taken > 0.05)
		fprintf(stderr, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
			taken, 100.0 * rec->lost_samples / taken);
}

static void record__report(struct record *rec)
{
	char samples[64] = "";

	if (rec->args.quiet)
		return;
	record__warn_lost(rec);
	if (rec->samples)
		snprintf(samples, sizeof(samples), " (%llu samples)", rec->samples);
	fprintf(stderr, "[ perf record: Captured and wrote %.3f MB %s%s ]\n",
		(rec->out.pos - rec->data_start) / 1024.0 / 1024.0,
		rec->data.kind == PERFX_DATA_STDOUT ? "-" : rec->args.output,
		samples);
}

/* -v: per node, what its rings gave and how long draining them waited */
static void record__report_nodes(struct record *rec)
{
	const struct record_node_stats *st = rec->rings.stats;
	char cpus[256];
	int node;

	for (node = 0; node <= rec->topo->max_node; node++) {
		if (!st[node].nr_rings)
			continue;
		if (rec->topo->node_cpus[node])
			cpu_map__snprint(rec->topo->node_cpus[node], cpus, sizeof(cpus));
		pr_info("node %d (CPUs %s): drained %llu bytes from %u rings, waited %.3f ms %s\n",
			node, rec->topo->node_cpus[node] ? cpus : "none", st[node].bytes,
			st[node].nr_rings, st[node].wait_ns / 1e6,
			rec->args.nr_aio ? "for free --aio buffers" : "in write(2)");
	}
	if (rec->args.affinity != READ_AFFINITY_SYS)
		pr_info("--affinity=%s: the reading thread moved %lu times%s\n",
			read_affinity__name(rec->args.affinity), rec->rings.aff.nr_moves,
			rec->rings.aff.nr_failed ? ", some moves were refused" : "");
}

/*
 * A recording that cannot be finished keeps what reached the file, cut
 * after its last whole record; a pipe, a FIFO or a device keeps what it
 * was sent.  Returns @err.
 */
static int record__cut_short(struct record *rec, int err, __u64 bad_off)
{
	__u64 kept;

	if (perfx_data__is_file(&rec->data) && rec->data.fd >= 0) {
		kept = record__salvage(rec, bad_off);
		pr_err("%s: not finished (%s): it holds the %llu bytes of records written before, without its features\n",
		       rec->args.output, perfx__errname(err), kept);
	}
	perfx_data__keep(&rec->data);
	return err;
}

static int record__finish(struct record *rec, int err)
{
	__u64 bad_off = ~0ULL;
	int aio_err;

	aio_err = record_rings__finish(&rec->rings, &bad_off);
	if (aio_err)
		pr_err("%s: write failed at byte offset %llu: %s (%s)\n", rec->args.output, bad_off,
		       strerror(-aio_err), perfx__errname(aio_err));
	if (!err)
		err = aio_err;
	record__report_nodes(rec);
	if (!err)
		err = record__lost_samples(rec);
	if (!rec->args.quiet)
		fprintf(stderr, "[ perf record: Woken up %lu times to write data ]\n", rec->waking);
	if (!err)
		err = rec->pipe ? perfx_writer__flush(&rec->out) : record__finish_file(rec);
	if (!err) {
		record__report(rec);
		return 0;
	}
	return record__cut_short(rec, err, bad_off);
}

/* the workload is told to stop if it still runs, and waited for */
static void record__stop_workload(struct record *rec)
{
	if (!rec->work.pid)
		return;
	kill(rec->work.pid, SIGTERM);
	waitpid(rec->work.pid, &rec->workload_status, 0);
	rec->work.pid = 0;
}

static int record__run(struct record *rec, int argc, const char **argv)
{
	bool workload = rec->args.argc;
	int err;

	/* what the output will be decides the attrs: a pipe's carry ids */
	rec->args.opts.pipe = perfx_data__names_pipe(rec->args.output);
	rec->args.opts.cpu_target = record__cpu_target(rec);
	rec->args.opts.enable_on_exec = workload && !rec->args.opts.cpu_target &&
					!record_args__task_target(&rec->args);
	record_args__check_freq(&rec->args);
	err = record__setup_events(rec);
	if (err)
		return err;
	if (workload) {
		err = workload__prepare(&rec->work, rec->args.argv);
		if (err) {
			pr_err("cannot fork the workload: %s (%s)\n", strerror(-err),
			       perfx__errname(err));
			return err;
		}
	}
	err = evlist__config_record(rec->evlist, &rec->args.opts);
	if (!err)
		err = record__setup_maps(rec);
	if (!err)
		err = record__open(rec);
	if (!err)
		err = record__mmap(rec);
	if (!err)
		err = record__open_output(rec);
	if (!err)
		err = record__start_rings(rec);
	if (!err)
		err = record__write_header(rec, argc, argv);
	if (err)
		goto out_discard;
	/* from here on, what was synthesized before a failure is kept */
	err = record__synthesize(rec);
	if (!err && !rec->args.opts.enable_on_exec)
		err = record__ioctl(rec, PERF_EVENT_IOC_ENABLE);
	if (err)
		return record__cut_short(rec, err, ~0ULL);
	if (workload) {
		err = workload__start(&rec->work);
		rec->workload_failed = err;
		if (err) {
			fprintf(stderr, "Failed to collect '%s' for the '%s' workload: %s\n",
				rec->evlist->entries[0]->name, rec->args.argv[0], strerror(-err));
			goto out_discard;
		}
	}
	err = record__loop(rec);
	record__stop_workload(rec);
	return record__finish(rec, err);

out_discard:
	/* nothing recorded: the path is as it was, FILE.old is FILE again */
	perfx_data__discard(&rec->data);
	return err;
}

static struct record *record__new(void)
{
	struct record *rec = calloc(1, sizeof(*rec));

	if (!rec)
		return NULL;
	rec->out.fd = -1;
	rec->data.fd = -1;
	return rec;
}

static void record__delete(struct record *rec)
{
	if (rec->work.pid) {
		kill(rec->work.pid, SIGKILL);
		waitpid(rec->work.pid, NULL, 0);
	}
	record_rings__exit(&rec->rings);
	numa_topo__delete(rec->topo);
	evlist__delete(rec->evlist);
	perfx_data__keep(&rec->data);
	perfx_writer__exit(&rec->out);
	perfx_header__exit(&rec->header);
	free(rec->bid_table.p);
	free(rec);
}

static void record__signals(void)
{
	struct sigaction sa = { .sa_handler = perfx__sig_handler };
	sigset_t set;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);
	/* delivered only inside ppoll(), so that none is missed */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, NULL);
}

/*
 * perf's exit: the workload's status, or its signal raised again; without
 * a workload, the signal that ended the recording raised again.
 */
static int record__exit_status(struct record *rec, int err)
{
	int st = rec->workload_status;

	if (err)
		return err > 0 ? err : 255;	/* a usage error's 129, or perf's 255 */
	if (!rec->args.argc) {
		if (perfx_done)
			perfx__raise(perfx_done);
		return 0;
	}
	if (WIFSIGNALED(st))
		perfx__raise(WTERMSIG(st));
	return WIFEXITED(st) ? WEXITSTATUS(st) : 255;
}

int cmd_record(int argc, char **argv)
{
	struct record *rec;
	int ret;

	rec = record__new();
	if (!rec)
		return 255;
	ret = record_args__parse(&rec->args, argc, argv);
	if (ret)
		goto out_delete;
	perfx__setup_print(rec->args.verbose);
	record__signals();
	ret = record__run(rec, argc, (const char **)argv);
	/* an error that nothing has reported yet (no memory, say) still gets its line */
	if (ret < 0 && !rec->workload_failed && !perfx__nr_errors())
		pr_err("record: %s (%s)\n", strerror(-ret), perfx__errname(ret));
	ret = record__exit_status(rec, ret);
out_delete:
	record__delete(rec);
	return ret;
}
