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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/debug.h"
#include "lib/evlist.h"
#include "lib/evsel.h"
#include "lib/feature.h"
#include "lib/numa.h"
#include "lib/sample-id.h"
#include "lib/synthesize.h"
#include "lib/synthesize-bpf-progs.h"
#include "lib/synthesize-evlist.h"
#include "lib/time-conv.h"
#include "record.h"

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
		sample_id__hdr_size(evsel__attr(evlist__entry(rec->evlist, 0))->sample_type);
	err = synthesize__time_conv(w, rec->rings.nr ? rec->rings.rings[0].ring.base : NULL);
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
		err = synthesize__threads(w, evlist__threads(rec->evlist), &rec->args.synth);
	else
		err = synthesize__comm(w, rec->work.pid, &rec->args.synth);
	if (err < 0)
		return err;
	return record__write_marker(rec, PERF_RECORD_FINISHED_INIT);
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
			evlist__disable(rec->evlist);
			finishing = true;
			continue;
		}
		/*
		 * Wait for the kernel's wakeup (half a ring) even after a pass
		 * that found data: a trickle of records would else keep this
		 * thread draining a few at a time, sampling itself.
		 */
		err = evlist__poll(rec->evlist, &unblocked);
		if (err)
			return err;
		rec->waking++;
		/* -p/-t end when every task is gone */
		targets_gone = !evlist__filter_pollfd(rec->evlist) &&
			       record_args__task_target(&rec->args);
	}
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
		err = evlist__enable(rec->evlist);
	if (err)
		return record__cut_short(rec, err, ~0ULL);
	if (workload) {
		err = workload__start(&rec->work);
		rec->workload_failed = err;
		if (err) {
			fprintf(stderr, "Failed to collect '%s' for the '%s' workload: %s\n",
				evsel__name(evlist__entry(rec->evlist, 0)), rec->args.argv[0],
				strerror(-err));
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
