// SPDX-License-Identifier: GPL-2.0
/*
 * perfx bench internals synthesize [-s] [-t] [-m N] [-M N] [-i N] [-I N]
 *
 * perf's benchmark of the same name: -s synthesizes this process's
 * threads (-p's way) -i times, without and with data maps; -t every
 * process in /proc (-a's way) -I times with each thread count from -m to
 * -M.  The records go through the buffered writer to /dev/null; the mean
 * time, records and time per record are printed as perf prints them.
 * perfx's own: --source picks where -t reads the tasks (auto, proc or
 * bpf; auto as perfx record does), --auto-threads adds -t's run with the
 * thread count (and source) perfx chooses, --floor the least each source
 * costs: reading the files synthesis reads from /proc, and loading the
 * BPF iterator and reading its stream.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/data.h"
#include "lib/parse-options.h"
#include "lib/procfs.h"
#include "lib/stat.h"
#include "lib/synthesize.h"
#include "lib/synthesize-bpf.h"
#include "lib/threadmap.h"

static const char * const synth_bench_usage[] = {
	"perfx bench internals synthesize <options>",
	NULL
};

static const struct usage_option synth_bench_options[] = {
	{ 's', "st", NULL, "Run single threaded benchmark", 0 },
	{ 't', "mt", NULL, "Run multi-threaded benchmark", 0 },
	{ 'm', "min-threads", "n", "Minimum number of threads in multithreaded bench", 0 },
	{ 'M', "max-threads", "n", "Maximum number of threads in multithreaded bench", 0 },
	{ 'i', "single-iterations", "n",
	  "Number of iterations used to compute single-threaded average", 0 },
	{ 'I', "multi-iterations", "n",
	  "Number of iterations used to compute multi-threaded average", 0 },
	{ 0, "source", "src", "with -t, read tasks from: auto, proc or bpf", 0, 'S' },
	{ 0, "auto-threads", NULL, "with -t, also the thread count perfx chooses", 0, 'A' },
	{ 0, "floor", NULL, "with -t, also the least each source costs", 0, 'F' },
	{ 'h', "help", NULL, "show this help", USAGE_OPT_HIDDEN },
	{ 0, NULL, NULL, NULL, 0 }
};

struct synth_bench {
	bool			st, mt, auto_threads, floor;
	enum synthesize_source	source;
	unsigned int		min_threads, max_threads;
	unsigned int		single_iterations, multi_iterations;
	struct perfx_writer	w;
};

static double now_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* One timed run: its records (or -errno) and its time */
typedef int (*synth_run_fn)(struct synth_bench *b, const void *arg);

static int bench_loop(struct synth_bench *b, synth_run_fn fn, const void *arg,
		      unsigned int iterations, struct stats *time, struct stats *events)
{
	unsigned int i;
	double t0;
	int nr;

	stats__init(time);
	stats__init(events);
	for (i = 0; i < iterations; i++) {
		t0 = now_usec();
		nr = fn(b, arg);
		if (nr >= 0 && perfx_writer__flush(&b->w))
			nr = -EIO;
		if (nr < 0) {
			fprintf(stderr, "perfx bench: synthesis failed: %s (%s)\n",
				strerror(-nr), perfx__errname(nr));
			return nr;
		}
		stats__update(time, now_usec() - t0);
		stats__update(events, nr);
	}
	return 0;
}

static void print_stats(const char *indent, const char *what, const struct stats *time,
			const struct stats *events)
{
	printf("%sAverage %ssynthesis took: %.3f usec (+- %.3f usec)\n", indent, what,
	       stats__avg(time), stats__stddev(time));
	printf("%sAverage num. events: %.3f (+- %.3f)\n", indent, stats__avg(events),
	       stats__stddev(events));
	printf("%sAverage time per event %.3f usec\n", indent,
	       stats__avg(time) / stats__avg(events));
}

struct threads_run {
	struct synthesize_opts	opts;
	struct thread_map	*self;
};

static int run_threads(struct synth_bench *b, const void *arg)
{
	const struct threads_run *run = arg;

	return synthesize__threads(&b->w, run->self, &run->opts);
}

static int run_single_threaded(struct synth_bench *b)
{
	struct threads_run run = {
		.opts = { .proc_map_timeout_ms = SYNTHESIZE_PROC_MAP_TIMEOUT },
	};
	struct stats time, events;
	char pid[16];
	int err;

	/* perf's thread map: this process's threads, made before timing */
	snprintf(pid, sizeof(pid), "%d", getpid());
	err = thread_map__parse(pid, 1, NULL, &run.self);
	if (err)
		return err;
	puts("Computing performance of single threaded perf event synthesis by\n"
	     "synthesizing events on the perf process itself:");
	err = bench_loop(b, run_threads, &run, b->single_iterations, &time, &events);
	if (!err) {
		print_stats("  ", "", &time, &events);
		run.opts.data_mmaps = true;
		err = bench_loop(b, run_threads, &run, b->single_iterations, &time, &events);
	}
	if (!err)
		print_stats("  ", "data ", &time, &events);
	thread_map__put(run.self);
	return err;
}

static int run_all(struct synth_bench *b, const void *arg)
{
	return synthesize__all(&b->w, arg);
}

static const char *source_name(enum synthesize_source source)
{
	return source == SYNTHESIZE_SOURCE_BPF ? "bpf" : "proc";
}

/* -t with @nr_threads (0: perfx's choice, which the header line then says) */
static int run_multi(struct synth_bench *b, unsigned int nr_threads, struct stats *events)
{
	struct synthesize_used used = { 0 };
	struct synthesize_opts opts = {
		.nr_threads = nr_threads, .proc_map_timeout_ms = SYNTHESIZE_PROC_MAP_TIMEOUT,
		.source = b->source, .used = &used,
	};
	struct stats time;
	int err;

	err = bench_loop(b, run_all, &opts, b->multi_iterations, &time, events);
	if (err)
		return err;
	if (nr_threads)
		printf("  Number of synthesis threads: %u (%s)\n", nr_threads,
		       source_name(used.source));
	else
		printf("  Number of synthesis threads: auto (%u, %s)\n", used.nr_threads,
		       source_name(used.source));
	print_stats("    ", "", &time, events);
	return 0;
}

/* The files synthesize__all reads, in its order: a directory ends in '/' */
struct file_list {
	char		**paths;
	unsigned int	nr, cap;
};

static int file_list__add(struct file_list *l, const char *fmt, int a, int b)
{
	char path[64], **n;

	if (l->nr == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 1024;
		n = realloc(l->paths, l->cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		l->paths = n;
	}
	snprintf(path, sizeof(path), fmt, a, b);
	l->paths[l->nr] = strdup(path);
	return l->paths[l->nr++] ? 0 : -ENOMEM;
}

static void file_list__exit(struct file_list *l)
{
	while (l->nr)
		free(l->paths[--l->nr]);
	free(l->paths);
}

static bool is_pid(const char *s)
{
	if (*s < '1' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9')
		s++;
	return !*s;
}

/* A process's files: stat; its task directory and threads' comm; its maps */
static int file_list__add_process(struct file_list *l, int procfd, int pid)
{
	struct procfs_task t;
	struct dirent *d;
	char path[32], buf[1024];
	ssize_t n;
	DIR *dir;
	int err, fd;

	snprintf(path, sizeof(path), "%d/stat", pid);
	n = procfs__read_file(procfd, path, buf, sizeof(buf));
	if (n < 0 || procfs__parse_stat(buf, n, &t))
		return 0;
	err = file_list__add(l, "%d/stat", pid, 0);
	if (!err && t.nr_threads > 1) {
		err = file_list__add(l, "%d/task/", pid, 0);
		snprintf(path, sizeof(path), "%d/task", pid);
		fd = openat(procfd, path, O_RDONLY | O_DIRECTORY);
		dir = fd < 0 ? NULL : fdopendir(fd);
		while (!err && dir && (d = readdir(dir)))
			if (is_pid(d->d_name) && atoi(d->d_name) != pid)
				err = file_list__add(l, "%d/comm", atoi(d->d_name), 0);
		if (dir)
			closedir(dir);
	}
	if (!err && !t.kernel)
		err = file_list__add(l, "%d/maps", pid, 0);
	return err;
}

static int file_list__init(struct file_list *l, int procfd)
{
	struct dirent *d;
	DIR *dir;
	int err = 0;

	*l = (struct file_list){ 0 };
	dir = opendir("/proc");
	if (!dir)
		return -errno;
	while (!err && (d = readdir(dir)))
		if (is_pid(d->d_name))
			err = file_list__add_process(l, procfd, atoi(d->d_name));
	closedir(dir);
	return err;
}

/* Reads every file of the list whole, a directory with getdents64 */
static int run_floor(struct synth_bench *b, const void *arg)
{
	const struct file_list *l = arg;
	static char buf[64 * 1024];
	unsigned int i;
	int procfd, fd;

	(void)b;
	procfd = open("/proc", O_RDONLY | O_DIRECTORY);
	if (procfd < 0)
		return -errno;
	for (i = 0; i < l->nr; i++) {
		size_t len = strlen(l->paths[i]);
		bool is_dir = l->paths[i][len - 1] == '/';

		/* as synthesis reads them: one-record files by one read(2) */
		if (strcmp(l->paths[i] + len - 5, "/maps") && !is_dir) {
			procfs__read_file(procfd, l->paths[i], buf, sizeof(buf));
			continue;
		}
		fd = openat(procfd, l->paths[i], O_RDONLY | (is_dir ? O_DIRECTORY : 0));
		if (fd < 0)
			continue;
		if (is_dir)
			while (syscall(SYS_getdents64, fd, buf, sizeof(buf)) > 0)
				;
		else
			while (read(fd, buf, sizeof(buf)) > 0)
				;
		close(fd);
	}
	close(procfd);
	return l->nr;
}

/* A floor's run: @what, its time, how much it read, its time per synthesized record */
static void print_floor(const char *what, const struct stats *time, const char *read_what,
			double read, const struct stats *synth_events)
{
	printf("  %s:\n", what);
	printf("    Average reading took: %.3f usec (+- %.3f usec)\n",
	       stats__avg(time), stats__stddev(time));
	printf("    Average %s: %.3f\n", read_what, read);
	printf("    Average time per event %.3f usec\n", stats__avg(time) / stats__avg(synth_events));
}

static int run_multi_floor(struct synth_bench *b, const struct stats *synth_events)
{
	struct stats time, events;
	struct file_list l;
	int procfd, err;

	procfd = open("/proc", O_RDONLY | O_DIRECTORY);
	if (procfd < 0)
		return -errno;
	err = file_list__init(&l, procfd);
	close(procfd);
	if (!err)
		err = bench_loop(b, run_floor, &l, b->multi_iterations, &time, &events);
	if (!err)
		print_floor("Reading the same files without synthesis, 1 thread (floor, proc)",
			    &time, "num. files", stats__avg(&events), synth_events);
	file_list__exit(&l);
	return err;
}

static int run_bpf_floor(struct synth_bench *b, const void *arg)
{
	ssize_t n = synth_bpf__floor();

	(void)b;
	(void)arg;
	return n < 0 ? (int)n : (int)(n / 1024);
}

/* Loading the iterator and reading its stream, when it loads here */
static int run_multi_bpf_floor(struct synth_bench *b, const struct stats *synth_events)
{
	struct stats time, kbytes;
	ssize_t n = synth_bpf__floor();

	if (n < 0) {
		printf("  No BPF task iterator here (%s): no floor for it\n", perfx__errname(n));
		return 0;
	}
	if (bench_loop(b, run_bpf_floor, NULL, b->multi_iterations, &time, &kbytes))
		return -EIO;
	print_floor("Loading the BPF iterator and reading its stream, 1 thread (floor, bpf)",
		    &time, "stream KB", stats__avg(&kbytes), synth_events);
	return 0;
}

static int run_multi_threaded(struct synth_bench *b)
{
	struct stats events = { 0 };
	unsigned int n;
	int err = 0;

	if (b->max_threads == UINT_MAX)
		b->max_threads = sysconf(_SC_NPROCESSORS_ONLN);
	puts("Computing performance of multi threaded perf event synthesis by\n"
	     "synthesizing events on CPU 0:");
	for (n = b->min_threads; !err && n <= b->max_threads && n; n++)
		err = run_multi(b, n, &events);
	if (!err && b->auto_threads)
		err = run_multi(b, 0, &events);
	if (!err && b->floor)
		err = run_multi_floor(b, &events);
	if (!err && b->floor)
		err = run_multi_bpf_floor(b, &events);
	return err;
}

static int synth_bench__source(struct synth_bench *b, const char *arg)
{
	if (!strcmp(arg, "auto"))
		b->source = SYNTHESIZE_SOURCE_AUTO;
	else if (!strcmp(arg, "proc"))
		b->source = SYNTHESIZE_SOURCE_PROC;
	else if (!strcmp(arg, "bpf"))
		b->source = SYNTHESIZE_SOURCE_BPF;
	else {
		fprintf(stderr, " Error: --source '%s': expected auto, proc or bpf (EINVAL)\n", arg);
		usage_with_options_names(stderr, synth_bench_usage, synth_bench_options, "source");
		return USAGE_EXIT_STATUS;
	}
	return 0;
}

static int synth_bench__parse(struct synth_bench *b, int argc, char **argv)
{
	struct option_parser p;
	unsigned int *val;
	int c, err;

	err = option_parser__init(&p, synth_bench_options, argc, argv);
	if (err) {
		fprintf(stderr, "perfx bench: %s\n", strerror(-err));
		return 1;
	}
	while (!err && (c = option_parser__next(&p)) != -1) {
		val = NULL;
		switch (c) {
		case 's':
			b->st = true;
			break;
		case 't':
			b->mt = true;
			break;
		case 'A':
			b->auto_threads = true;
			break;
		case 'F':
			b->floor = true;
			break;
		case 'S':
			err = synth_bench__source(b, optarg);
			break;
		case 'm':
			val = &b->min_threads;
			break;
		case 'M':
			val = &b->max_threads;
			break;
		case 'i':
			val = &b->single_iterations;
			break;
		case 'I':
			val = &b->multi_iterations;
			break;
		case 'h':
			usage_with_options(stderr, synth_bench_usage, synth_bench_options);
			err = USAGE_EXIT_STATUS;
			break;
		default:
			err = usage_getopt_error(stderr, synth_bench_usage, synth_bench_options,
						 optopt, argv[optind - 1]);
			break;
		}
		if (val)
			err = usage_parse_uint(stderr, synth_bench_usage, synth_bench_options, c,
					       argv, optind, optarg, val);
	}
	option_parser__exit(&p);
	if (!err && optind < argc) {
		usage_with_options(stderr, synth_bench_usage, synth_bench_options);
		return USAGE_EXIT_STATUS;
	}
	return err;
}

int bench_synthesize(int argc, char **argv)
{
	struct synth_bench b = {
		.min_threads = 1, .max_threads = UINT_MAX,
		.single_iterations = 10000, .multi_iterations = 10,
	};
	int fd, err;

	printf("# Running 'internals/synthesize' benchmark:\n");
	fflush(stdout);
	err = synth_bench__parse(&b, argc, argv);
	if (err)
		return err;
	/* as perf: neither -s nor -t runs -s */
	if (!b.st && !b.mt)
		b.st = true;
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd < 0 || perfx_writer__init(&b.w, fd, "/dev/null")) {
		fprintf(stderr, "perfx bench: /dev/null: %s\n", strerror(fd < 0 ? errno : ENOMEM));
		return 1;
	}
	if (b.st)
		err = run_single_threaded(&b);
	if (!err && b.mt)
		err = run_multi_threaded(&b);
	perfx_writer__exit(&b.w);
	close(fd);
	return err ? 1 : 0;
}
