// SPDX-License-Identifier: GPL-2.0
/*
 * perfx bench internals inject-build-id [-i N] [-m N] [-n N] [-v]
 *	[--injector CMD]... [--floor] [--buffered] [--seed N]
 *
 * perf's benchmark of the same name, on the same stream: a forked child
 * runs `inject -b` (then `inject -b --buildid-all`) between two pipes;
 * the parent writes a pipe-mode header, an attr, a FORK, and nr_mmaps
 * MMAP2 records of ELF files with build-ids found under /usr/lib, each
 * followed by nr_samples SAMPLEs in it, one write(2) per record as perf
 * does, and a FINISHED_ROUND every ten maps; a thread drains the output.
 * Prints the mean time, time per event and the child's max RSS.
 *
 * perfx's own, to compare injectors and not the generator: --injector
 * CMD runs CMD (split at blanks; "-b" and "--buildid-all" are added) in
 * the child instead, as often as given, each iteration running every
 * injector in turn on the same stream (the same random choices); --floor
 * adds cat, which only moves the stream; --buffered writes the stream in
 * blocks of PIPE_BLOCK instead of a write(2) per record; --seed fixes
 * the random choices, so that another run gets the same streams.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/build-id.h"
#include "lib/header.h"
#include "lib/parse-options.h"
#include "lib/stat.h"

#define DSO_MMAP_RATIO	4
#define MMAP_DEV_MAJOR	8
#define BENCH_SAMPLE_TYPE	(PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | \
				 PERF_SAMPLE_TID | PERF_SAMPLE_TIME)
#define BENCH_ID_HDR_SIZE	32
/* --buffered's writes: a pipe buffer's default size, which every injector gets */
#define PIPE_BLOCK		65536
#define INJECTORS_MAX		8

static const char * const inject_bench_usage[] = {
	"perfx bench internals inject-build-id <options>",
	NULL
};

static const struct usage_option inject_bench_options[] = {
	{ 'i', "iterations", "n", "Number of iterations used to compute average (default: 100)", 0 },
	{ 'm', "nr-mmaps", "n", "Number of mmap events for each iteration (default: 100)", 0 },
	{ 'n', "nr-samples", "n", "Number of sample events per mmap event (default: 100)", 0 },
	{ 'v', "verbose", NULL, "be more verbose (show iteration count, DSO name, etc)", 0 },
	{ 0, "injector", "cmd", "run CMD -b [--buildid-all] (repeatable), not perfx's own", 0,
	  'I' },
	{ 0, "floor", NULL, "also run cat: what the stream and the pipes cost", 0, 'F' },
	{ 0, "buffered", NULL, "write the stream in 64 KiB blocks, not a write(2) per record", 0,
	  'B' },
	{ 0, "seed", "n", "seed of the random choices (default: the time)", 0, 'S' },
	{ 'h', "help", NULL, "show this help", USAGE_OPT_HIDDEN },
	{ 0, NULL, NULL, NULL, 0 }
};

/* What runs in the child: perfx's own inject (cmd NULL) or a command */
struct injector {
	const char	*cmd;
	bool		cat;		/* the floor: no -b */
	struct stats	time[2];	/* [buildid_all] */
	struct stats	mem[2];
	struct stats	cpu[2];		/* its user + sys: what the generator does not inflate */
};

struct inject_bench {
	unsigned int	iterations;
	unsigned int	nr_mmaps;
	unsigned int	nr_samples;
	unsigned int	seed;
	int		verbose;
	bool		buffered;
	bool		floor;
	bool		extended;	/* perfx's options: say which injector, and its CPU */
	struct injector	injectors[INJECTORS_MAX];
	unsigned int	nr_injectors;
	char		**dsos;
	size_t		max_dsos;	/* the room in dsos */
	size_t		nr_dsos;
	int		in;		/* the child's stdin, our end */
	int		out;		/* its stdout, our end */
	pid_t		pid;
	/*
	 * The stream's task: ours, not the child's as perf's, so that every
	 * injector and iteration gets the same bytes for the same seed
	 */
	pid_t		task;
	char		*wbuf;		/* --buffered's block */
	size_t		wlen;
};

/* nftw() has no argument for its callback */
static struct inject_bench *collecting;

static int add_dso(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	struct inject_bench *b = collecting;
	struct build_id bid;

	(void)sb;
	(void)ftw;
	if (b->nr_dsos >= b->max_dsos)
		return 1;
	if (type != FTW_F || build_id__read_elf(path, &bid))
		return 0;
	b->dsos[b->nr_dsos] = realpath(path, NULL);
	if (!b->dsos[b->nr_dsos])
		return 0;
	if (b->verbose > 1)
		fprintf(stderr, "  Adding DSO: %s\n", path);
	return ++b->nr_dsos == b->max_dsos;
}

static int collect_dsos(struct inject_bench *b)
{
	b->max_dsos = (size_t)DSO_MMAP_RATIO * b->nr_mmaps;
	b->dsos = calloc(b->max_dsos, sizeof(*b->dsos));
	if (!b->dsos)
		return -ENOMEM;
	collecting = b;
	nftw("/usr/lib/", add_dso, 10, FTW_PHYS);
	if (b->verbose)
		printf("  Collected %zu DSOs\n", b->nr_dsos);
	return b->nr_dsos ? 0 : -ENOENT;
}

static int write_all(int fd, const void *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p = (const char *)p + n;
		len -= n;
	}
	return 0;
}

/* Bytes of the stream: a write(2) each, or into --buffered's block */
static int put(struct inject_bench *b, const void *p, size_t len)
{
	if (!b->buffered)
		return write_all(b->in, p, len);
	if (b->wlen + len > PIPE_BLOCK) {
		if (write_all(b->in, b->wbuf, b->wlen))
			return -1;
		b->wlen = 0;
	}
	memcpy(b->wbuf + b->wlen, p, len);
	b->wlen += len;
	return 0;
}

static int put_flush(struct inject_bench *b)
{
	int err = b->wlen ? write_all(b->in, b->wbuf, b->wlen) : 0;

	b->wlen = 0;
	return err;
}

/* One record: header, then the body in u64s. */
static int emit(struct inject_bench *b, __u32 type, __u16 misc, const void *body, size_t len)
{
	char buf[8192];
	struct perf_event_header h = { .type = type, .misc = misc, .size = sizeof(h) + len };

	memcpy(buf, &h, sizeof(h));
	if (len)	/* a FINISHED_ROUND has no body, and no pointer to one */
		memcpy(buf + sizeof(h), body, len);
	return put(b, buf, sizeof(h) + len);
}

static int emit_attr(struct inject_bench *b)
{
	struct {
		struct perf_event_attr attr;
		__u64 id;
	} body = {
		.attr = {
			.type = PERF_TYPE_SOFTWARE,
			.size = sizeof(struct perf_event_attr),
			.config = PERF_COUNT_SW_TASK_CLOCK,
			.sample_type = BENCH_SAMPLE_TYPE,
			.exclude_kernel = 1,
			.sample_id_all = 1,
		},
	};

	return emit(b, PERF_RECORD_HEADER_ATTR, 0, &body, sizeof(body));
}

static int emit_fork(struct inject_bench *b)
{
	__u32 body[(16 + 8 + BENCH_ID_HDR_SIZE) / 4] = { b->task, 1, b->task, 1 };

	return emit(b, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC, body, sizeof(body));
}

static __u64 dso_addr(unsigned int idx)
{
	return 0x400000ULL + idx * 8192ULL;
}

static int emit_mmap(struct inject_bench *b, unsigned int idx, __u64 time)
{
	char body[4096 + 128] = { 0 };
	size_t name = strlen(b->dsos[idx]) + 1, len;
	__u64 v[3] = { dso_addr(idx), 4096, 0 };
	__u32 ids[2] = { b->task, b->task }, maj = MMAP_DEV_MAJOR, prot = PROT_EXEC;
	__u64 ino = idx;

	if (name > 4096)
		return 0;
	len = 64 + ((name + 7) & ~7UL);
	memcpy(body, ids, sizeof(ids));
	memcpy(body + 8, v, sizeof(v));
	memcpy(body + 32, &maj, sizeof(maj));
	memcpy(body + 40, &ino, sizeof(ino));
	memcpy(body + 56, &prot, sizeof(prot));
	memcpy(body + 64, b->dsos[idx], name);
	/* sample_id_all: the time is the id header's second u64 */
	memcpy(body + len + 8, &time, sizeof(time));
	return emit(b, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, body, len + BENCH_ID_HDR_SIZE);
}

static int emit_sample(struct inject_bench *b, unsigned int idx, __u64 time)
{
	__u64 body[4] = { 0, dso_addr(idx), (__u64)b->task << 32 | (__u32)b->task, time };

	return emit(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, body, sizeof(body));
}

/* The stream of iteration @iter: the same choices for every injector */
static int write_stream(struct inject_bench *b, unsigned int iter)
{
	struct perf_pipe_file_header ph = { PERF_MAGIC2, sizeof(ph) };
	unsigned int i, k, rnd = b->seed + iter;

	if (put(b, &ph, sizeof(ph)) || emit_attr(b) || emit_fork(b))
		return -1;
	for (i = 0; i < b->nr_mmaps; i++) {
		unsigned int idx = rand_r(&rnd) % b->nr_dsos;
		__u64 time = rand_r(&rnd) % 1000000;

		if (b->verbose > 1)
			fprintf(stderr, "   [%u] injecting: %s\n", i + 1, b->dsos[idx]);
		if (emit_mmap(b, idx, time))
			return -1;
		for (k = 0; k < b->nr_samples; k++)
			if (emit_sample(b, idx, time + k * 1000))
				return -1;
		if ((i + 1) % 10 == 0 && emit(b, PERF_RECORD_FINISHED_ROUND, 0, NULL, 0))
			return -1;
	}
	return put_flush(b);
}

static void *drain(void *arg)
{
	struct inject_bench *b = arg;
	char buf[65536];

	while (read(b->out, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

/* @inj's words, then -b and --buildid-all as @all says */
static void exec_injector(const struct injector *inj, bool all)
{
	char *words = strdup(inj->cmd), *argv[32], *save = NULL, *w;
	int argc = 0;

	for (w = strtok_r(words, " \t", &save); w && argc < 29; w = strtok_r(NULL, " \t", &save))
		argv[argc++] = w;
	if (!inj->cat) {
		argv[argc++] = "-b";
		if (all)
			argv[argc++] = "--buildid-all";
	}
	argv[argc] = NULL;
	if (argc)
		execvp(argv[0], argv);
	_exit(127);
}

/* The child: the injector between the pipes, its stderr to /dev/null. */
static void run_child(int in, int out, int ready, bool all, const struct injector *inj)
{
	char *argv[] = { "inject", "-b", all ? "--buildid-all" : NULL, NULL };
	int null = open("/dev/null", O_WRONLY);

	if (dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 || null < 0 ||
	    dup2(null, STDERR_FILENO) < 0)
		_exit(1);
	close(ready);
	if (inj->cmd)
		exec_injector(inj, all);
	_exit(cmd_inject(all ? 3 : 2, argv));
}

static int start_child(struct inject_bench *b, bool all, const struct injector *inj)
{
	int in[2], out[2], ready[2];
	char c;

	if (pipe2(in, O_CLOEXEC) || pipe2(out, O_CLOEXEC) || pipe2(ready, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	b->pid = fork();
	if (b->pid < 0)
		return -errno;
	if (!b->pid) {
		close(in[1]);
		close(out[0]);
		close(ready[0]);
		run_child(in[0], out[1], ready[1], all, inj);
	}
	close(in[0]);
	close(out[1]);
	close(ready[1]);
	b->in = in[1];
	b->out = out[0];
	if (read(ready[0], &c, 1) < 0)
		c = 0;
	close(ready[0]);
	return 0;
}

/* One iteration of one injector: microseconds, the child's CPU microseconds and max RSS in KB */
static int inject_once(struct inject_bench *b, bool all, const struct injector *inj,
		       unsigned int iter, double *usec, double *cpu, double *rss)
{
	struct timeval t0, t1;
	struct rusage ru;
	pthread_t th;
	int status, err;

	err = start_child(b, all, inj);
	if (err)
		return err;
	pthread_create(&th, NULL, drain, b);
	gettimeofday(&t0, NULL);
	err = write_stream(b, iter) ? -EPIPE : 0;
	close(b->in);
	if (wait4(b->pid, &status, 0, &ru) < 0)
		err = -errno;
	gettimeofday(&t1, NULL);
	pthread_join(th, NULL);
	close(b->out);
	if (b->verbose)
		printf("   Child %d exited with %d\n", b->pid, status);
	if (!err && !(WIFEXITED(status) && !WEXITSTATUS(status)))
		err = -ECHILD;	/* a stream the injector refused is no measure */
	*usec = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_usec - t0.tv_usec);
	*cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 + ru.ru_utime.tv_usec +
	       ru.ru_stime.tv_usec;
	*rss = ru.ru_maxrss;
	return err;
}

static void inject_report(const struct inject_bench *b, const struct injector *inj, bool all)
{
	double events = (double)b->nr_mmaps * (b->nr_samples + 2);

	printf("  Average build-id%s injection took: %.3f msec (+- %.3f msec)\n",
	       all ? "-all" : "", stats__avg(&inj->time[all]) / 1e3,
	       stats__stddev(&inj->time[all]) / 1e3);
	/* each mmap: its MMAP2, a BUILD_ID and its samples, as perf counts */
	printf("  Average time per event: %.3f usec (+- %.3f usec)\n",
	       stats__avg(&inj->time[all]) / events, stats__stddev(&inj->time[all]) / events);
	printf("  Average memory usage: %.0f KB (+- %.0f KB)\n",
	       stats__avg(&inj->mem[all]), stats__stddev(&inj->mem[all]));
	if (b->extended)
		printf("  Average injector CPU time per event: %.3f usec (+- %.3f usec)\n",
		       stats__avg(&inj->cpu[all]) / events, stats__stddev(&inj->cpu[all]) / events);
}

/* Every injector in turn each iteration, so that they share the machine's moods */
static int inject_loop(struct inject_bench *b, bool all)
{
	struct injector *inj;
	unsigned int i, k;
	double usec, cpu, rss;

	for (k = 0; k < b->nr_injectors; k++) {
		stats__init(&b->injectors[k].time[all]);
		stats__init(&b->injectors[k].mem[all]);
		stats__init(&b->injectors[k].cpu[all]);
	}
	if (b->verbose)
		printf("  Build-id%s injection benchmark\n", all ? "-all" : "");
	for (i = 0; i < b->iterations; i++) {
		if (b->verbose)
			printf("  Iteration #%u\n", i + 1);
		for (k = 0; k < b->nr_injectors; k++) {
			inj = &b->injectors[k];
			if (inject_once(b, all, inj, i, &usec, &cpu, &rss)) {
				printf("  Build-id injection failed%s%s\n", inj->cmd ? ": " : "",
				       inj->cmd ?: "");
				return -1;
			}
			stats__update(&inj->time[all], usec);
			stats__update(&inj->mem[all], rss);
			stats__update(&inj->cpu[all], cpu);
		}
	}
	for (k = 0; k < b->nr_injectors; k++) {
		if (b->extended)
			printf("  Injector: %s\n", b->injectors[k].cmd ?: "perfx inject (built in)");
		inject_report(b, &b->injectors[k], all);
	}
	return 0;
}

static int inject_bench__add(struct inject_bench *b, const char *cmd, bool cat)
{
	if (b->nr_injectors == INJECTORS_MAX) {
		fprintf(stderr, " Error: at most %d injectors (E2BIG)\n", INJECTORS_MAX);
		return USAGE_EXIT_STATUS;
	}
	b->injectors[b->nr_injectors++] = (struct injector){ .cmd = cmd, .cat = cat };
	return 0;
}

static int inject_bench__parse(struct inject_bench *b, int argc, char **argv)
{
	struct option_parser p;
	int c, err;

	err = option_parser__init(&p, inject_bench_options, argc, argv);
	if (err) {
		fprintf(stderr, "perfx bench: %s\n", strerror(-err));
		return 1;
	}
	while (!err && (c = option_parser__next(&p)) != -1) {
		switch (c) {
		case 'i':
			err = usage_parse_uint(stderr, inject_bench_usage, inject_bench_options, c,
					       argv, optind, optarg, &b->iterations);
			break;
		case 'm':
			err = usage_parse_uint(stderr, inject_bench_usage, inject_bench_options, c,
					       argv, optind, optarg, &b->nr_mmaps);
			break;
		case 'n':
			err = usage_parse_uint(stderr, inject_bench_usage, inject_bench_options, c,
					       argv, optind, optarg, &b->nr_samples);
			break;
		case 'v':
			b->verbose++;
			break;
		case 'I':
			err = inject_bench__add(b, optarg, false);
			break;
		case 'F':
			b->floor = true;
			break;
		case 'B':
			b->buffered = true;
			break;
		case 'S':
			err = usage_parse_uint(stderr, inject_bench_usage, inject_bench_options, c,
					       argv, optind, optarg, &b->seed);
			break;
		case 'h':
			usage_with_options(stderr, inject_bench_usage, inject_bench_options);
			err = USAGE_EXIT_STATUS;
			break;
		default:
			err = usage_getopt_error(stderr, inject_bench_usage, inject_bench_options,
						 optopt, argv[optind - 1]);
			break;
		}
	}
	option_parser__exit(&p);
	if (!err && optind < argc) {
		usage_with_options(stderr, inject_bench_usage, inject_bench_options);
		return 1;	/* perf: EXIT_FAILURE */
	}
	if (!err && !b->nr_mmaps) {
		/* no DSO to map, nothing to inject: perf's run crashes on it */
		fprintf(stderr, " Error: switch 'm' expects a number of mmaps above 0 (EINVAL)\n");
		usage_with_options_names(stderr, inject_bench_usage, inject_bench_options, "-m");
		return USAGE_EXIT_STATUS;
	}
	return err;
}

int bench_inject_build_id(int argc, char **argv)
{
	struct inject_bench b = {
		.iterations = 100, .nr_mmaps = 100, .nr_samples = 100, .seed = time(NULL),
		.task = getpid(),
	};
	unsigned int i;
	int ret;

	printf("# Running 'internals/inject-build-id' benchmark:\n");
	ret = inject_bench__parse(&b, argc, argv);
	if (!ret && !b.nr_injectors)
		ret = inject_bench__add(&b, NULL, false);
	if (!ret && b.floor)
		ret = inject_bench__add(&b, "cat", true);
	if (ret)
		return ret;
	b.extended = b.floor || b.buffered || b.nr_injectors > 1 || b.injectors[0].cmd;
	/* an injector that dies is a failed iteration, not a killed benchmark */
	signal(SIGPIPE, SIG_IGN);
	b.wbuf = b.buffered ? malloc(PIPE_BLOCK) : NULL;
	if (b.buffered && !b.wbuf)
		return 1;
	ret = collect_dsos(&b);
	if (ret)
		printf("  Cannot collect DSOs for injection\n");
	if (!ret)
		ret = inject_loop(&b, false);
	if (!ret)
		ret = inject_loop(&b, true);
	for (i = 0; i < b.nr_dsos; i++)
		free(b.dsos[i]);
	free(b.dsos);
	free(b.wbuf);
	return ret ? 1 : 0;
}
