// SPDX-License-Identifier: GPL-2.0
/*
 * perfx bench sched pipe [-l N] [-G A,B]
 *
 * Two processes ping-pong an int through two pipes; with -G each moves
 * itself into its cgroup (cgroup.procs under the cgroup2 mount) and both are
 * pinned to the parent's first allowed CPU so every switch is a cgroup
 * switch.  Output as perf bench sched pipe prints it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/cgroup.h"

static int enter_cgroup(const char *mnt, const char *name)
{
	char path[PATH_MAX];
	int fd, len, err = 0;
	char pid[32];

	snprintf(path, sizeof(path), "%s/%s", mnt, name);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/%s/cgroup.procs", mnt, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	len = snprintf(pid, sizeof(pid), "%d\n", getpid());
	if (write(fd, pid, len) != len)
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

static void loop(int rfd, int wfd, long loops, int first)
{
	int v = 0;
	long i;

	for (i = 0; i < loops; i++) {
		if (first && write(wfd, &v, sizeof(v)) != sizeof(v))
			_exit(2);
		if (read(rfd, &v, sizeof(v)) != sizeof(v))
			_exit(2);
		if (!first && write(wfd, &v, sizeof(v)) != sizeof(v))
			_exit(2);
	}
}

int bench_sched_pipe(int argc, char **argv)
{
	char mnt[PATH_MAX], *cg[2] = { NULL, NULL }, *groups = NULL;
	int p1[2], p2[2], cpu = -1, err, i, st;
	struct timespec t0, t1;
	long loops = 1000000;
	pid_t child;
	double sec;
	cpu_set_t set;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-l") && i + 1 < argc) {
			char *end;

			loops = strtol(argv[++i], &end, 10);
			if (*end || loops <= 0) {
				fprintf(stderr, "perfx bench: -l '%s': expected a positive count\n", argv[i]);
				return 1;
			}
		} else if (!strcmp(argv[i], "-G") && i + 1 < argc) {
			groups = strdup(argv[++i]);
			if (!groups)
				return 1;
			cg[0] = groups;
			cg[1] = strchr(groups, ',');
			if (!cg[1] || !cg[1][1] || cg[1] == cg[0]) {
				fprintf(stderr, "perfx bench: -G '%s': expected two cgroup names A,B\n",
					argv[i]);
				free(groups);
				return 1;
			}
			*cg[1]++ = '\0';
		} else {
			fprintf(stderr, "perfx bench sched pipe: unknown argument '%s'\n", argv[i]);
			free(groups);
			return 1;
		}
	}
	if (groups) {
		err = cgroup__find_mnt(NULL, mnt, sizeof(mnt));
		if (err) {
			fprintf(stderr, "perfx bench: no cgroup2 mount: %s\n", strerror(-err));
			free(groups);
			return 1;
		}
		if (!sched_getaffinity(0, sizeof(set), &set))
			for (i = 0; i < CPU_SETSIZE && cpu < 0; i++)
				if (CPU_ISSET(i, &set))
					cpu = i;
	}
	if (pipe(p1) || pipe(p2)) {
		perror("perfx bench: pipe");
		free(groups);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	child = fork();
	if (child < 0) {
		perror("perfx bench: fork");
		free(groups);
		return 1;
	}
	if (!child) {
		if (groups && (enter_cgroup(mnt, cg[1]) || pin_to(cpu)))
			_exit(3);
		loop(p1[0], p2[1], loops, 0);
		_exit(0);
	}
	if (groups) {
		err = enter_cgroup(mnt, cg[0]);
		if (!err)
			err = pin_to(cpu);
		if (err) {
			fprintf(stderr, "perfx bench: entering cgroup '%s' on CPU %d: %s\n", cg[0],
				cpu, strerror(-err));
			kill(child, SIGKILL);
			waitpid(child, NULL, 0);
			free(groups);
			return 1;
		}
	}
	loop(p2[0], p1[1], loops, 1);
	if (waitpid(child, &st, 0) != child || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "perfx bench: the child failed (status %d)%s\n", st,
			groups ? ": cannot enter its cgroup?" : "");
		free(groups);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	free(groups);
	sec = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("# Running 'sched/pipe' benchmark:\n");
	printf("# Executed %ld pipe operations between two processes\n\n", loops);
	printf("     %14s: %.3f [sec]\n\n", "Total time", sec);
	printf(" %14lf usecs/op\n", sec * 1e6 / loops);
	printf(" %14d ops/sec\n", (int)(loops / sec));
	return 0;
}
