// SPDX-License-Identifier: GPL-2.0
/*
 * synth-population PROCS THREADS MAPS READY
 *
 * A still population for the synthesis tests and benchmark: PROCS
 * processes, each with THREADS threads (the leader included), MAPS
 * executable maps of this program's file and MAPS readable data maps
 * (alternately rw and r, so that none merge).  When all are in place,
 * their pids are in the file READY (written whole, then renamed there).
 * SIGTERM, SIGINT or the end of this process removes them all: each
 * child dies with its parent (PR_SET_PDEATHSIG).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static void child(int threads, int maps, int ready)
{
	pthread_attr_t attr;
	pthread_t th;
	int fd, i;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
		_exit(1);
	fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0)
		_exit(1);
	for (i = 0; i < maps; i++) {
		if (mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0) == MAP_FAILED ||
		    mmap(NULL, 4096, PROT_READ | (i & 1 ? 0 : PROT_WRITE),
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
			_exit(1);
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, PTHREAD_STACK_MIN > 65536 ? PTHREAD_STACK_MIN : 65536);
	for (i = 1; i < threads; i++)
		if (pthread_create(&th, &attr, sleeper, NULL))
			_exit(1);
	if (write(ready, "", 1) != 1)
		_exit(1);
	sleeper(NULL);
}

static void on_signal(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	int procs, threads, maps, pipefd[2], i, n = 0;
	char tmp[PATH_MAX], c;
	pid_t *pids;
	FILE *f;

	if (argc != 5 || (procs = atoi(argv[1])) < 1 || (threads = atoi(argv[2])) < 1 ||
	    (maps = atoi(argv[3])) < 0) {
		fprintf(stderr, "usage: synth-population PROCS THREADS MAPS READY\n");
		return 2;
	}
	pids = calloc(procs, sizeof(*pids));
	if (!pids || pipe(pipefd))
		return 1;
	signal(SIGTERM, on_signal);
	signal(SIGINT, on_signal);
	for (i = 0; i < procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0) {
			perror("synth-population: fork");
			break;
		}
		if (!pids[i]) {
			close(pipefd[0]);
			child(threads, maps, pipefd[1]);
		}
	}
	close(pipefd[1]);
	while (n < i && read(pipefd[0], &c, 1) == 1)
		n++;
	if (n == procs) {
		snprintf(tmp, sizeof(tmp), "%s.tmp", argv[4]);
		f = fopen(tmp, "w");
		for (i = 0; f && i < procs; i++)
			fprintf(f, "%d\n", pids[i]);
		if (!f || fclose(f) || rename(tmp, argv[4]))
			perror("synth-population: READY");
		else
			pause();
	} else {
		fprintf(stderr, "synth-population: %d of %d processes started\n", n, procs);
	}
	for (i = 0; i < procs && pids[i] > 0; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < procs && pids[i] > 0; i++)
		waitpid(pids[i], NULL, 0);
	return n == procs ? 0 : 1;
}
