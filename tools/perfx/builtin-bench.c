// SPDX-License-Identifier: GPL-2.0
/* perfx bench: the benchmark table (sched pipe is in bench-sched-pipe.c). */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "lib/parse-options.h"

int bench_sched_pipe(int argc, char **argv);
int bench_inject_build_id(int argc, char **argv);
int bench_synthesize(int argc, char **argv);

int cmd_bench(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "sched") && !strcmp(argv[2], "pipe"))
		return bench_sched_pipe(argc - 2, argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "internals") && !strcmp(argv[2], "inject-build-id"))
		return bench_inject_build_id(argc - 2, argv + 2);
	if (argc >= 3 && !strcmp(argv[1], "internals") && !strcmp(argv[2], "synthesize"))
		return bench_synthesize(argc - 2, argv + 2);
	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		bench__usage(stderr);
		return USAGE_EXIT_STATUS;
	}
	if (argc >= 2)
		fprintf(stderr, "Unknown collection: '%s'\n", argv[1]);
	else
		fprintf(stderr, "perfx bench: expected 'sched pipe'\n");
	return 1;
}
