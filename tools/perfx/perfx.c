// SPDX-License-Identifier: GPL-2.0
/*
 * The command table: perfx <command> [<args>].
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "lib/debug.h"
#include "lib/util.h"

struct cmd_struct {
	const char *cmd;
	int (*fn)(int argc, char **argv);
	void (*usage)(FILE *f);
	const char *summary;
};

static void bench__usage(FILE *f)
{
	fputs(bench_usage, f);
}

static const struct cmd_struct commands[] = {
	{ "stat", cmd_stat, stat__usage, "count events, print totals as perf stat" },
	{ "list", cmd_list, list__usage, "list the events perfx knows" },
	{ "bench", cmd_bench, bench__usage, "benchmarks (sched pipe)" },
	{ "help", cmd_help, NULL, "show a command's usage" },
};

#define NR_COMMANDS	ARRAY_SIZE(commands)

static int verbosity;

int perfx__print_stderr(int level, const char *fmt, va_list ap)
{
	if (level > PERFX_WARN && level - PERFX_WARN > verbosity)
		return 0;
	fprintf(stderr, "perfx: ");
	return vfprintf(stderr, fmt, ap);
}

static int print_cb(enum perfx_print_level level, const char *fmt, va_list ap)
{
	return perfx__print_stderr((int)level, fmt, ap);
}

void perfx__setup_print(int verbose)
{
	verbosity = verbose;
	perfx__set_print(print_cb);
}

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "Usage: perfx <command> [<args>]\n\nCommands:\n");
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].cmd, commands[i].summary);
	fprintf(f, "\nSee 'perfx help <command>' or 'perfx <command> -h'.\n");
}

int cmd_help(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < NR_COMMANDS; i++) {
		if (!strcmp(argv[1], commands[i].cmd) && commands[i].usage) {
			commands[i].usage(stdout);
			return 0;
		}
	}
	fprintf(stderr, "perfx help: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return 1;
}

int main(int argc, char **argv)
{
	int ret = 1;
	size_t i;

	perfx__setup_print(0);
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? 1 : 0;
	}
	for (i = 0; i < NR_COMMANDS; i++) {
		if (!strcmp(argv[1], commands[i].cmd)) {
			ret = commands[i].fn(argc - 1, argv + 1);
			break;
		}
	}
	if (i == NR_COMMANDS) {
		fprintf(stderr, "perfx: unknown command '%s'\n\n", argv[1]);
		usage(stderr);
		return 1;
	}
	/* a full disk is an error, not silence */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "perfx: writing to stdout: %s\n", strerror(errno));
		return 1;
	}
	return ret;
}
