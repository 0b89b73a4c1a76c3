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
#include "lib/escape.h"
#include "lib/parse-options.h"
#include "lib/util.h"

struct cmd_struct {
	const char *cmd;
	int (*fn)(int argc, char **argv);
	void (*usage)(FILE *f);
	const char *help;
};

static int cmd_version(int argc, char **argv);

static void version__usage(FILE *f)
{
	fprintf(f, "\n usage: perfx version\n\n");
}

/* perf's command-list.txt words, in its (alphabetical) order */
static const struct cmd_struct commands[] = {
	{ "bench", cmd_bench, bench__usage, "General framework for benchmark suites" },
	{ "inject", cmd_inject, inject__usage, "Filter to augment the events stream with additional information" },
	{ "list", cmd_list, list__usage, "List all symbolic event types" },
	{ "record", cmd_record, record__usage, "Run a command and record its profile into perf.data" },
	{ "stat", cmd_stat, stat__usage, "Run a command and gather performance counter statistics" },
	{ "version", cmd_version, version__usage, "display the version of perfx binary" },
	{ "help", cmd_help, NULL, NULL },
};

#define NR_COMMANDS	ARRAY_SIZE(commands)

static int verbosity;

volatile sig_atomic_t perfx_done;
volatile sig_atomic_t perfx_child_exited;

void perfx__sig_handler(int sig)
{
	if (sig == SIGCHLD)
		perfx_child_exited = 1;
	else
		perfx_done = sig;
}

void perfx__raise(int sig)
{
	sigset_t set;

	signal(sig, SIG_DFL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
}

int perfx__print_stderr(int level, const char *fmt, va_list ap)
{
	if (level > PERFX_WARN && level - PERFX_WARN > verbosity)
		return 0;
	fprintf(stderr, "perfx: ");
	return escape__vfprintf(stderr, fmt, ap);
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

/* perf's text for 'perf', 'perf --help' and 'perf help' */
static void usage(FILE *f)
{
	size_t i, longest = 0;

	fprintf(f, "\n usage: perfx [--help] COMMAND [ARGS]\n\n");
	for (i = 0; i < NR_COMMANDS; i++) {
		if (commands[i].help && strlen(commands[i].cmd) > longest)
			longest = strlen(commands[i].cmd);
	}
	fprintf(f, " The most commonly used perfx commands are:\n");
	for (i = 0; i < NR_COMMANDS; i++) {
		if (commands[i].help)
			fprintf(f, "   %-*s   %s\n", (int)longest, commands[i].cmd,
				commands[i].help);
	}
	fprintf(f, "\n See 'perfx help COMMAND' for more information on a specific command.\n\n");
}

/*
 * perfx help [COMMAND]: the command's man page, as perf shows it; its
 * usage on stdout where no page was installed beside perfx
 */
int cmd_help(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stdout);
		return 0;
	}
	for (i = 0; i < NR_COMMANDS; i++) {
		if (!strcmp(argv[1], commands[i].cmd) && commands[i].usage) {
			help__show_man_page(argv[1]);
			commands[i].usage(stdout);
			return 0;
		}
	}
	fprintf(stderr, "perfx help: unknown command '%s'. See 'perfx --help'.\n", argv[1]);
	return 1;
}

/* perf version, perf --version, perf -v: one line on stdout */
static int cmd_version(int argc, char **argv)
{
	if (argc > 1) {
		fprintf(stderr, "perfx version: unexpected argument '%s' (EINVAL)\n", argv[1]);
		version__usage(stderr);
		return USAGE_EXIT_STATUS;
	}
	printf("perfx version %s\n", PERFX_VERSION);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = 1;
	size_t i;

	perfx__setup_print(0);
	/* as perf: no command is an error, --help and -h are 'help' */
	if (argc < 2) {
		usage(stdout);
		ret = 1;
		goto out_flush;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		ret = 0;
		goto out_flush;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v")) {
		ret = cmd_version(1, argv + 1);
		goto out_flush;
	}
	for (i = 0; i < NR_COMMANDS; i++) {
		if (!strcmp(argv[1], commands[i].cmd)) {
			ret = commands[i].fn(argc - 1, argv + 1);
			break;
		}
	}
	if (i == NR_COMMANDS) {
		fprintf(stderr, "perfx: unknown command '%s'. See 'perfx --help'.\n", argv[1]);
		return 1;
	}
out_flush:
	/* a full disk is an error, not silence */
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "perfx: writing to stdout: %s\n", strerror(errno));
		return 1;
	}
	return ret;
}
