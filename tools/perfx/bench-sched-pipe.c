// SPDX-License-Identifier: GPL-2.0
/*
 * perfx bench sched pipe [-l N] [-T] [-G A,B]
 *
 * Two tasks ping-pong an int through two pipes: two processes, or with -T
 * two threads of one process.  With -G each task moves itself into its
 * cgroup (cgroup.procs, or cgroup.threads with -T: the cgroups must then be
 * threaded ones of the process's threaded domain) and both are pinned to
 * the parent's first allowed CPU so every switch is a cgroup switch.
 * Output as perf bench sched pipe prints it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/cgroup.h"
#include "lib/parse-options.h"

static const char * const sched_pipe_usage[] = {
	"perfx bench sched pipe <options>",
	"",
	"Two tasks ping-pong a word through two pipes and print the time per",
	"round trip as perf bench sched pipe.  With -T the cgroups of -G must be",
	"threaded ones: each thread enters through cgroup.threads.",
	NULL
};

static const struct usage_option sched_pipe_options[] = {
	{ 'G', "cgroups", "A,B", "Put the two tasks in cgroups A and B (under the cgroup2 mount, created if missing), both on one CPU", 0 },
	{ 'l', "loop", "n", "Specify number of loops", 0 },
	{ 'T', "threaded", NULL, "Specify threads/process based task setup", 0 },
	{ 'h', "help", NULL, "show this help", USAGE_OPT_HIDDEN },
	{ 0, NULL, NULL, NULL, 0 }
};

/* perfx help bench, and -h of perfx bench and perfx bench sched pipe */
void bench__usage(FILE *f)
{
	usage_with_options(f, sched_pipe_usage, sched_pipe_options);
}

static int bench_sched_pipe_usage(void)
{
	bench__usage(stderr);
	return USAGE_EXIT_STATUS;
}

/* a wrong value: perf's " Error: " line, then the usage of that option */
static int sched_pipe_value_error(const char *name, const char *fmt, const char *arg)
{
	fprintf(stderr, " Error: ");
	fprintf(stderr, fmt, arg);
	usage_with_options_names(stderr, sched_pipe_usage, sched_pipe_options, name);
	return USAGE_EXIT_STATUS;
}

/* One side of the ping-pong. */
struct pipe_task {
	int		rfd;
	int		wfd;
	long		loops;
	bool		first;		/* writes before it reads */
	const char	*mnt;		/* cgroup2 mount, or NULL without -G */
	const char	*cgroup;
	int		cpu;
	bool		threaded;
	int		err;		/* -errno of entering the cgroup */
};

/* Move the calling process (thread, with @threaded) into @mnt/@name. */
static int enter_cgroup(const char *mnt, const char *name, bool threaded)
{
	char path[PATH_MAX];
	int fd, len, err = 0;
	char id[32];

	snprintf(path, sizeof(path), "%s/%s/%s", mnt, name,
		 threaded ? "cgroup.threads" : "cgroup.procs");
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(id, sizeof(id), "%d\n", threaded ? gettid() : getpid());
	if (write(fd, id, len) != len)
		err = -errno;
	close(fd);
	return err;
}

static int pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

/* Returns 0, -errno of entering the cgroup, or -EPIPE if the peer went away. */
static int pipe_task__run(struct pipe_task *t)
{
	int v = 0;
	long i;

	if (t->mnt) {
		t->err = enter_cgroup(t->mnt, t->cgroup, t->threaded);
		if (!t->err)
			t->err = pin_to(t->cpu);
		if (t->err) {
			/* the peer blocks in read(): let it see EOF */
			close(t->wfd);
			t->wfd = -1;
			return t->err;
		}
	}
	for (i = 0; i < t->loops; i++) {
		if (t->first && write(t->wfd, &v, sizeof(v)) != sizeof(v))
			return -EPIPE;
		if (read(t->rfd, &v, sizeof(v)) != sizeof(v))
			return -EPIPE;
		if (!t->first && write(t->wfd, &v, sizeof(v)) != sizeof(v))
			return -EPIPE;
	}
	return 0;
}

static void *pipe_task__thread(void *arg)
{
	pipe_task__run(arg);
	return NULL;
}

/* -G A,B: two names under the cgroup2 mount, none leaving it */
static int parse_groups(const char *arg, char **groups, char *cg[2])
{
	free(*groups);
	*groups = strdup(arg);
	if (!*groups)
		return -ENOMEM;
	cg[0] = *groups;
	cg[1] = strchr(*groups, ',');
	if (!cg[1] || !cg[1][1] || cg[1] == cg[0] || strchr(cg[1] + 1, ',')) {
		sched_pipe_value_error("-G", "-G '%s': expected two cgroup names A,B (EINVAL)\n", arg);
		return USAGE_EXIT_STATUS;
	}
	*cg[1]++ = '\0';
	if (cgroup__bad_name(cg[0]) || cgroup__bad_name(cg[1])) {
		sched_pipe_value_error("-G", "-G '%s': expected names under the cgroup2 mount, not '..' or a newline (EINVAL)\n",
				       arg);
		return USAGE_EXIT_STATUS;
	}
	return 0;
}

/*
 * The cgroups of -G, and where this process was: what the run creates it
 * removes afterwards, once this process (or thread) is back where it was.
 */
struct bench_cgroups {
	char mnt[PATH_MAX];
	char home[PATH_MAX];
	bool created[2];
};

/* /proc/self/cgroup's "0::/path" line: this process's cgroup2 path */
static int own_cgroup(char *buf, size_t size)
{
	char line[PATH_MAX + 8];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int err = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		err = strlen(line + 3) < size ? 0 : -ENAMETOOLONG;
		if (!err)
			strcpy(buf, line + 3);
		break;
	}
	fclose(f);
	return err;
}

static int bench_cgroups__create(struct bench_cgroups *bc, char *cg[2])
{
	char path[PATH_MAX * 2];
	int i, err;

	err = cgroup__find_mnt(NULL, bc->mnt, sizeof(bc->mnt));
	if (err) {
		fprintf(stderr, "perfx bench: no cgroup2 mount: %s\n", strerror(-err));
		return err;
	}
	err = own_cgroup(bc->home, sizeof(bc->home));
	if (err) {
		fprintf(stderr, "perfx bench: /proc/self/cgroup: no cgroup2 path: %s\n",
			strerror(-err));
		return err;
	}
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/%s", bc->mnt, cg[i]);
		if (!mkdir(path, 0755)) {
			bc->created[i] = true;
		} else if (errno != EEXIST) {
			err = -errno;
			fprintf(stderr, "perfx bench: creating cgroup '%s' (%s): %s\n", cg[i], path,
				strerror(-err));
			snprintf(path, sizeof(path), "%s/%s", bc->mnt, cg[0]);
			if (i && bc->created[0])
				rmdir(path);
			return err;
		}
	}
	return 0;
}

/* back home, then remove what this run created; a failure is only said */
static void bench_cgroups__remove(struct bench_cgroups *bc, char *cg[2], bool threaded)
{
	char path[PATH_MAX * 2];
	int i, err;

	err = enter_cgroup(bc->mnt, bc->home, threaded);
	if (err)
		fprintf(stderr, "perfx bench: moving back to cgroup '%s': %s\n", bc->home,
			strerror(-err));
	for (i = 1; i >= 0; i--) {
		snprintf(path, sizeof(path), "%s/%s", bc->mnt, cg[i]);
		if (bc->created[i] && rmdir(path))
			fprintf(stderr, "perfx bench: removing cgroup '%s' (%s): %s\n", cg[i],
				path, strerror(errno));
	}
}

static int first_allowed_cpu(void)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set))
		return 0;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			return i;
	return 0;
}

/* Runs both sides; returns 0 or the first side's -errno. */
static int run_pair(struct pipe_task *t, bool threaded)
{
	pthread_t tid;
	pid_t child;
	int err, st;

	if (threaded) {
		err = pthread_create(&tid, NULL, pipe_task__thread, &t[1]);
		if (err)
			return -err;
		err = pipe_task__run(&t[0]);
		pthread_join(tid, NULL);
		return t[0].err ? t[0].err : t[1].err ? t[1].err : err;
	}
	child = fork();
	if (child < 0)
		return -errno;
	if (!child) {
		close(t[0].rfd);
		close(t[0].wfd);
		_exit(pipe_task__run(&t[1]) ? 3 : 0);
	}
	/* each side holds only its own ends: a failed peer shows as EOF */
	close(t[1].rfd);
	close(t[1].wfd);
	t[1].rfd = t[1].wfd = -1;
	err = pipe_task__run(&t[0]);
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st))
		return t[0].err ? t[0].err : -ECHILD;
	return err;
}

static void print_result(long loops, bool threaded, double sec)
{
	printf("# Running 'sched/pipe' benchmark:\n");
	printf("# Executed %ld pipe operations between two %s\n\n", loops,
	       threaded ? "threads" : "processes");
	printf("     Total time: %.3f [sec]\n\n", sec);
	printf(" %14lf usecs/op\n", sec * 1e6 / loops);
	printf(" %14d ops/sec\n", (int)(loops / sec));
}

/* the options: 0, or an exit status (reported) */
static int parse_options(int argc, char **argv, long *loops, bool *threaded, char **groups,
			 char *cg[2])
{
	struct option_parser p;
	int c, err;

	err = option_parser__init(&p, sched_pipe_options, argc, argv);
	if (err) {
		fprintf(stderr, "perfx bench: %s\n", strerror(-err));
		return 1;
	}
	while (!err && (c = option_parser__next(&p)) != -1) {
		char *end;

		switch (c) {
		case 'l':
			errno = 0;
			*loops = strtol(optarg, &end, 10);
			if (!*optarg || *end || *loops <= 0 || errno)
				err = sched_pipe_value_error("-l", "-l '%s': expected a positive count (EINVAL)\n",
							     optarg);
			break;
		case 'T':
			*threaded = true;
			break;
		case 'G':
			err = parse_groups(optarg, groups, cg);
			if (err == -ENOMEM) {
				fprintf(stderr, "perfx bench: %s\n", strerror(ENOMEM));
				err = 1;
			}
			break;
		case 'h':
			err = bench_sched_pipe_usage();
			break;
		default:
			err = usage_getopt_error(stderr, sched_pipe_usage, sched_pipe_options, optopt,
						 argv[optind - 1]);
			break;
		}
	}
	if (!err && optind < argc) {
		usage_with_options_msg(stderr, sched_pipe_usage, sched_pipe_options,
				       "unknown option '%s'", argv[optind]);
		err = USAGE_EXIT_STATUS;
	}
	option_parser__exit(&p);
	return err;
}

static void report_failure(struct pipe_task *t, char *cg[2], bool groups, bool threaded,
			   int err)
{
	int i = t[0].err ? 0 : 1;

	if (t[i].err && groups)
		fprintf(stderr, "perfx bench: %s cgroup '%s' on CPU %d: %s%s\n",
			threaded ? "moving a thread into" : "entering", cg[i], t[i].cpu,
			strerror(-t[i].err),
			threaded && t[i].err == -EOPNOTSUPP ?
			" (-T needs threaded cgroups in the process's threaded domain)" : "");
	else
		fprintf(stderr, "perfx bench: the %s failed: %s%s\n",
			threaded ? "thread" : "child", strerror(-err),
			groups && !threaded ? " (cannot enter its cgroup?)" : "");
}

int bench_sched_pipe(int argc, char **argv)
{
	char *cg[2] = { NULL, NULL }, *groups = NULL;
	struct bench_cgroups bc = { 0 };
	struct timespec t0, t1;
	struct pipe_task t[2];
	bool threaded = false;
	long loops = 1000000;
	int p1[2], p2[2], err, i, ret = 1;

	err = parse_options(argc, argv, &loops, &threaded, &groups, cg);
	if (err) {
		ret = err;
		goto out_free;
	}
	if (groups && bench_cgroups__create(&bc, cg))
		goto out_free;
	if (pipe2(p1, O_CLOEXEC) || pipe2(p2, O_CLOEXEC)) {
		perror("perfx bench: pipe");
		goto out_remove;
	}
	for (i = 0; i < 2; i++) {
		t[i] = (struct pipe_task){
			.rfd = i ? p1[0] : p2[0],
			.wfd = i ? p2[1] : p1[1],
			.loops = loops,
			.first = !i,
			.mnt = groups ? bc.mnt : NULL,
			.cgroup = cg[i],
			.cpu = groups ? first_allowed_cpu() : -1,
			.threaded = threaded,
		};
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	err = run_pair(t, threaded);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (i = 0; i < 2; i++) {
		if (t[i].rfd >= 0)
			close(t[i].rfd);
		if (t[i].wfd >= 0)
			close(t[i].wfd);
	}
	if (err) {
		report_failure(t, cg, groups, threaded, err);
		goto out_remove;
	}
	print_result(loops, threaded, (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	ret = 0;
out_remove:
	if (groups)
		bench_cgroups__remove(&bc, cg, threaded);
out_free:
	free(groups);
	return ret;
}
