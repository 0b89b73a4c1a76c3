// SPDX-License-Identifier: GPL-2.0
/*
 * perfx bench internals inject-build-id [-i N] [-m N] [-n N] [-v]
 *
 * perf's benchmark of the same name, on the same stream: a forked child
 * runs `inject -b` (then `inject -b --buildid-all`) between two pipes;
 * the parent writes a pipe-mode header, an attr, a FORK, and nr_mmaps
 * MMAP2 records of ELF files with build-ids found under /usr/lib, each
 * followed by nr_samples SAMPLEs in it, one write(2) per record as perf
 * does, and a FINISHED_ROUND every ten maps; a thread drains the output.
 * Prints the mean time, time per event and the child's max RSS.  With
 * --floor (perfx's) the child is cat: the cost of the stream itself.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <getopt.h>
#include <pthread.h>
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

static const char * const inject_bench_usage[] = {
	"perfx bench internals inject-build-id <options>",
	NULL
};

static const struct usage_option inject_bench_options[] = {
	{ 'i', "iterations", "n", "Number of iterations used to compute average (default: 100)", 0 },
	{ 'm', "nr-mmaps", "n", "Number of mmap events for each iteration (default: 100)", 0 },
	{ 'n', "nr-samples", "n", "Number of sample events per mmap event (default: 100)", 0 },
	{ 'v', "verbose", NULL, "be more verbose (show iteration count, DSO name, etc)", 0 },
	{ 0, "floor", NULL, "run cat instead of inject: what the stream and the pipes cost", 0,
	  'F' },
	{ 'h', "help", NULL, "show this help", USAGE_OPT_HIDDEN },
	{ 0, NULL, NULL, NULL, 0 }
};

struct inject_bench {
	unsigned int	iterations;
	unsigned int	nr_mmaps;
	unsigned int	nr_samples;
	int		verbose;
	bool		floor;		/* cat in inject's place */
	char		**dsos;
	unsigned int	nr_dsos;
	int		in;		/* the child's stdin, our end */
	int		out;		/* its stdout, our end */
	pid_t		pid;
};

/* nftw() has no argument for its callback */
static struct inject_bench *collecting;

static int add_dso(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	struct inject_bench *b = collecting;
	struct build_id bid;

	(void)sb;
	(void)ftw;
	if (type != FTW_F || build_id__read_elf(path, &bid))
		return 0;
	b->dsos[b->nr_dsos] = realpath(path, NULL);
	if (!b->dsos[b->nr_dsos])
		return 0;
	if (b->verbose > 1)
		fprintf(stderr, "  Adding DSO: %s\n", path);
	return ++b->nr_dsos == DSO_MMAP_RATIO * b->nr_mmaps;
}

static int collect_dsos(struct inject_bench *b)
{
	b->dsos = calloc((size_t)DSO_MMAP_RATIO * b->nr_mmaps, sizeof(*b->dsos));
	if (!b->dsos)
		return -ENOMEM;
	collecting = b;
	nftw("/usr/lib/", add_dso, 10, FTW_PHYS);
	if (b->verbose)
		printf("  Collected %u DSOs\n", b->nr_dsos);
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

/* One record: header, then the body in u64s. */
static int emit(struct inject_bench *b, __u32 type, __u16 misc, const void *body, size_t len)
{
	char buf[8192];
	struct perf_event_header h = { .type = type, .misc = misc, .size = sizeof(h) + len };

	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), body, len);
	return write_all(b->in, buf, sizeof(h) + len);
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
	__u32 body[(16 + 8 + BENCH_ID_HDR_SIZE) / 4] = { b->pid, 1, b->pid, 1 };

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
	__u32 ids[2] = { b->pid, b->pid }, maj = MMAP_DEV_MAJOR, prot = PROT_EXEC;
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
	__u64 body[4] = { 0, dso_addr(idx), (__u64)b->pid << 32 | (__u32)b->pid, time };

	return emit(b, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, body, sizeof(body));
}

static int write_stream(struct inject_bench *b)
{
	struct perf_pipe_file_header ph = { PERF_MAGIC2, sizeof(ph) };
	unsigned int i, k;

	if (write_all(b->in, &ph, sizeof(ph)) || emit_attr(b) || emit_fork(b))
		return -1;
	for (i = 0; i < b->nr_mmaps; i++) {
		unsigned int idx = rand() % b->nr_dsos;
		__u64 time = rand() % 1000000;

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
	return 0;
}

static void *drain(void *arg)
{
	struct inject_bench *b = arg;
	char buf[65536];

	while (read(b->out, buf, sizeof(buf)) > 0)
		;
	return NULL;
}

/* The child: inject (or cat) between the pipes, its stderr to /dev/null. */
static void run_child(int in, int out, int ready, bool all, bool floor)
{
	char *argv[] = { "inject", "-b", all ? "--buildid-all" : NULL, NULL };
	int null = open("/dev/null", O_WRONLY);

	if (dup2(in, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0 || null < 0 ||
	    dup2(null, STDERR_FILENO) < 0)
		_exit(1);
	close(ready);
	if (floor) {
		execlp("cat", "cat", (char *)NULL);
		_exit(127);
	}
	_exit(cmd_inject(all ? 3 : 2, argv));
}

static int start_child(struct inject_bench *b, bool all)
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
		run_child(in[0], out[1], ready[1], all, b->floor);
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

/* One iteration: microseconds and the child's max RSS in KB. */
static int inject_once(struct inject_bench *b, bool all, double *usec, double *rss)
{
	struct timeval t0, t1;
	struct rusage ru;
	pthread_t th;
	int status, err;

	err = start_child(b, all);
	if (err)
		return err;
	pthread_create(&th, NULL, drain, b);
	gettimeofday(&t0, NULL);
	err = write_stream(b) ? -EPIPE : 0;
	close(b->in);
	if (wait4(b->pid, &status, 0, &ru) < 0)
		err = -errno;
	gettimeofday(&t1, NULL);
	pthread_join(th, NULL);
	close(b->out);
	if (b->verbose)
		printf("   Child %d exited with %d\n", b->pid, status);
	*usec = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_usec - t0.tv_usec);
	*rss = ru.ru_maxrss;
	return err;
}

static void inject_loop(struct inject_bench *b, bool all)
{
	double events = (double)b->nr_mmaps * (b->nr_samples + 2), usec, rss;
	struct stats time_stats, mem_stats;
	unsigned int i;

	stats__init(&time_stats);
	stats__init(&mem_stats);
	if (b->verbose)
		printf("  Build-id%s injection benchmark\n", all ? "-all" : "");
	for (i = 0; i < b->iterations; i++) {
		if (b->verbose)
			printf("  Iteration #%u\n", i + 1);
		if (inject_once(b, all, &usec, &rss)) {
			printf("  Build-id injection failed\n");
			break;
		}
		stats__update(&time_stats, usec);
		stats__update(&mem_stats, rss);
	}
	printf("  Average build-id%s injection took: %.3f msec (+- %.3f msec)\n",
	       all ? "-all" : "", stats__avg(&time_stats) / 1e3,
	       stats__stddev(&time_stats) / 1e3);
	/* each mmap: its MMAP2, a BUILD_ID and its samples, as perf counts */
	printf("  Average time per event: %.3f usec (+- %.3f usec)\n",
	       stats__avg(&time_stats) / events, stats__stddev(&time_stats) / events);
	printf("  Average memory usage: %.0f KB (+- %.0f KB)\n",
	       stats__avg(&mem_stats), stats__stddev(&mem_stats));
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
		case 'F':
			b->floor = true;
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
	return err;
}

int bench_inject_build_id(int argc, char **argv)
{
	struct inject_bench b = { .iterations = 100, .nr_mmaps = 100, .nr_samples = 100 };
	unsigned int i;
	int ret;

	printf("# Running 'internals/inject-build-id' benchmark:\n");
	ret = inject_bench__parse(&b, argc, argv);
	if (ret)
		return ret;
	srand(time(NULL));
	if (collect_dsos(&b)) {
		printf("  Cannot collect DSOs for injection\n");
		free(b.dsos);
		return 1;
	}
	inject_loop(&b, false);
	inject_loop(&b, true);
	for (i = 0; i < b.nr_dsos; i++)
		free(b.dsos[i]);
	free(b.dsos);
	return 0;
}
