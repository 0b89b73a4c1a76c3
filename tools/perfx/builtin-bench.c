// SPDX-License-Identifier: GPL-2.0
/* perfx bench: the benchmark table (sched pipe is in bench-sched-pipe.c). */
#include <stdio.h>
#include <string.h>

#include "builtin.h"

int bench_sched_pipe(int argc, char **argv);

/* laid out as perf's parse-options prints perf bench sched pipe -h */
const char bench_usage[] =
"\n"
" Usage: perfx bench sched pipe <options>\n"
"\n"
"    Two tasks ping-pong a word through two pipes and print the time per\n"
"    round trip as perf bench sched pipe.  With -T the cgroups of -G must be\n"
"    threaded ones: each thread enters through cgroup.threads.\n"
"\n"
"    -G, --cgroups <A,B>   Put the two tasks in cgroups A and B (under the cgroup2 mount, created if missing), both on one CPU\n"
"    -l, --loop <n>        Specify number of loops\n"
"    -T, --threaded        Specify threads/process based task setup\n"
"\n";

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
