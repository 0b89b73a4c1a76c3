// SPDX-License-Identifier: GPL-2.0
/* perfx bench: the benchmark table (sched pipe is in bench-sched-pipe.c). */
#include <stdio.h>
#include <string.h>

#include "builtin.h"

int bench_sched_pipe(int argc, char **argv);

const char bench_usage[] =
"Usage: perfx bench sched pipe [-l N] [-T] [-G A,B]\n"
"\n"
"Two tasks ping-pong a word through two pipes N times (-l, default\n"
"1000000), each in its own cgroup with -G (names under the cgroup2\n"
"mount, created if missing), both pinned to one CPU so that every\n"
"switch crosses cgroups.  -T uses two threads of one process instead\n"
"of two processes (no address-space switch); with -G the threads enter\n"
"through cgroup.threads, so the cgroups must be threaded ones.  Prints\n"
"the total time and usec/op as perf bench sched pipe does.\n";

int cmd_bench(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "sched") && !strcmp(argv[2], "pipe"))
		return bench_sched_pipe(argc - 2, argv + 2);
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		fputs(bench_usage, stdout);
		return 0;
	}
	fprintf(stderr, "perfx bench: expected 'sched pipe'\n\n%s", bench_usage);
	return 1;
}
