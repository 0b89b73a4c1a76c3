// SPDX-License-Identifier: GPL-2.0
/*
 * The usage printer against the bytes perf 6.1's parse-options prints:
 * the column, the wrap when the names pass it, <argh> and [=<argh>], the
 * order, the usage lines, -h's filter and the errors after getopt_long().
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/parse-options.h"
#include "tests/tap.h"

static char *buf;
static size_t len;
static FILE *f;

static void out_open(void)
{
	f = open_memstream(&buf, &len);
}

static const char *out_close(void)
{
	fclose(f);
	return buf;
}

static const char * const usagestr[] = {
	"perfx test [<options>]",
	"perfx test -x",
	"",
	"Some text.",
	NULL
};

static const char * const one[] = { "perfx test [<options>]", NULL };

static const struct usage_option opts[] = {
	{ 'x', "field-separator", "separator", "print counts with custom separator" },
	{ 0, "for-each-cgroup", "name", "expand events for each cgroup" },
	{ 'a', "all-cpus", NULL, "system-wide collection from all CPUs" },
	{ 'A', "no-aggr", NULL, "disable CPU count aggregation" },
	{ 0, "iostat", "default", "measure I/O", USAGE_OPT_OPTARG },
	{ 'C', "cpu", "cpu", "list of cpus to monitor in system-wide" },
	{ 'q', NULL, NULL, "quiet" },
	{ 0, "log-fd", "n", "log output to fd, instead of stderr" },
	{ 'h', "help", NULL, "show this help", USAGE_OPT_HIDDEN },
	{ 0 },
};

static void test_layout(void)
{
	static char * const argv[] = { (char *)"-x", (char *)"cgroup" };

	out_open();
	usage_with_options(f, usagestr, opts);
	tap_str_eq(out_close(),
		   "\n"
		   " Usage: perfx test [<options>]\n"
		   "    or: perfx test -x\n"
		   "\n"
		   "    Some text.\n"
		   "\n"
		   "    -a, --all-cpus        system-wide collection from all CPUs\n"
		   "    -A, --no-aggr         disable CPU count aggregation\n"
		   "    -C, --cpu <cpu>       list of cpus to monitor in system-wide\n"
		   "    -q                    quiet\n"
		   "    -x, --field-separator <separator>\n"
		   "                          print counts with custom separator\n"
		   "        --for-each-cgroup <name>\n"
		   "                          expand events for each cgroup\n"
		   "        --iostat[=<default>]\n"
		   "                          measure I/O\n"
		   "        --log-fd <n>      log output to fd, instead of stderr\n"
		   "\n",
		   "sorted as perf, help at column 26 or on the next line, no hidden option");
	free(buf);

	out_open();
	usage_with_options_argv(f, usagestr, opts, 2, argv);
	tap_str_eq(out_close(),
		   "\n"
		   " Usage: perfx test [<options>]\n"
		   "    or: perfx test -x\n"
		   "\n"
		   "    Some text.\n"
		   "\n"
		   "    -x, --field-separator <separator>\n"
		   "                          print counts with custom separator\n"
		   "        --for-each-cgroup <name>\n"
		   "                          expand events for each cgroup\n"
		   "\n",
		   "-h -x cgroup: the option -x and those whose help says cgroup");
	free(buf);

	out_open();
	usage_with_options_names(f, one, opts, "-C for");
	tap_str_eq(out_close(),
		   "\n"
		   " Usage: perfx test [<options>]\n"
		   "\n"
		   "    -C, --cpu <cpu>       list of cpus to monitor in system-wide\n"
		   "        --for-each-cgroup <name>\n"
		   "                          expand events for each cgroup\n",
		   "the options named, a long name by its beginning");
	free(buf);
}

static void test_errors(void)
{
	/* prefix: the whole usage follows, compare only the start */
	static const struct {
		int optopt;
		const char *arg;
		const char *want;
		bool prefix;
	} cases[] = {
		{ 'z', "-z", "  Error: unknown switch '-z'\n\n Usage: perfx test [<options>]\n", true },
		{ 0, "--bogus", "  Error: unknown option '--bogus'\n\n Usage: perfx test [<options>]\n",
		  true },
		{ 'C', "-C", " Error: switch '-C' requires a value\n Usage: perfx test [<options>]\n"
			     "\n    -C, --cpu <cpu>       list of cpus to monitor in system-wide\n" },
		{ 'C', "--cpu", " Error: option '--cpu' requires a value\n"
				" Usage: perfx test [<options>]\n"
				"\n    -C, --cpu <cpu>       list of cpus to monitor in system-wide\n" },
		{ 'a', "--all-cpus=1", " Error: option '--all-cpus' takes no value\n"
				       " Usage: perfx test [<options>]\n"
				       "\n    -a, --all-cpus        system-wide collection from all CPUs\n" },
		{ 0, "--f", " Error: Ambiguous option: f (could be --field-separator or --for-each-cgroup)\n"
			    "\n Usage: perfx test [<options>]\n"
			    "\n    -x, --field-separator <separator>\n"
			    "                          print counts with custom separator\n"
			    "        --for-each-cgroup <name>\n"
			    "                          expand events for each cgroup\n" },
		/* garbage: perf quotes what follows "--", "=value" and all */
		{ 0, "--f=x", " Error: Ambiguous option: f=x (could be --field-separator or --for-each-cgroup)\n"
			      "\n Usage: perfx test [<options>]\n\n" },
		{ 0, "--=x", " Error: Ambiguous option: =x (could be --log-fd or --help)\n"
			     "\n Usage: perfx test [<options>]\n\n" },
		{ 0, "---", "  Error: unknown option '---'\n\n Usage: perfx test [<options>]\n", true },
		{ 0, "--\xff\xfe", "  Error: unknown option '--\xff\xfe'\n\n Usage: perfx test [<options>]\n",
		  true },
		{ 0, "-", "  Error: unknown switch '-?'\n\n Usage: perfx test [<options>]\n", true },
		{ 300, "-", "  Error: unknown switch '-?'\n\n Usage: perfx test [<options>]\n", true },
		{ -1, NULL, "  Error: unknown switch '-?'\n\n Usage: perfx test [<options>]\n", true },
		{ 0, "--", "  Error: unknown switch '-?'\n\n Usage: perfx test [<options>]\n", true },
		{ 0, "--log", " Error: option '--log-fd' requires a value\n"
			      " Usage: perfx test [<options>]\n"
			      "\n        --log-fd <n>      log output to fd, instead of stderr\n" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int ret;

		out_open();
		ret = usage_getopt_error(f, one, opts, cases[i].optopt, cases[i].arg);
		out_close();
		if (cases[i].prefix && strlen(cases[i].want) < len)
			buf[strlen(cases[i].want)] = '\0';
		tap_ok(ret == USAGE_EXIT_STATUS, "%s: exit %d", cases[i].arg ? cases[i].arg : "(null)",
		       ret);
		tap_str_eq(buf, cases[i].want, cases[i].arg ? cases[i].arg : "(null)");
		free(buf);
	}
}

/* a 10000-byte unknown option is quoted whole, a long -h word matches nothing */
static void test_long(void)
{
	static char arg[10003], word[5000];
	char *argv[] = { word };
	int ret;

	memset(arg, 'z', sizeof(arg) - 1);
	arg[0] = arg[1] = '-';
	out_open();
	ret = usage_getopt_error(f, one, opts, 0, arg);
	out_close();
	tap_ok(ret == USAGE_EXIT_STATUS && len > sizeof(arg) &&
	       !strncmp(buf + 25 + sizeof(arg) - 1, "'\n", 2),
	       "a 10000-byte unknown option is quoted whole (%zu bytes out)", len);
	free(buf);
	memset(word, 'q', sizeof(word) - 1);
	out_open();
	usage_with_options_argv(f, one, opts, 1, argv);
	tap_str_eq(out_close(), "\n Usage: perfx test [<options>]\n\n\n",
		   "-h with a 4999-byte word shows no option");
	free(buf);
	out_open();
	usage_with_options_names(f, one, opts, word);
	tap_str_eq(out_close(), "\n Usage: perfx test [<options>]\n\n",
		   "a 4999-byte option name shows no option");
	free(buf);
}

/* a table's actions, each on its own field, run by option_parser__apply() */
struct apply_args {
	bool all;
	const char *cpus;
	int verbose;
	int calls;
	const char *last;
};

static int apply_cb(void *p, const char *arg)
{
	struct apply_args *args = p;

	args->calls++;
	args->last = arg;
	return arg && !strcmp(arg, "bad") ? USAGE_EXIT_STATUS : 0;
}

#define AA(field)	struct apply_args, field

static const struct usage_option apply_opts[] = {
	USAGE_BOOL('a', "all-cpus", "all", AA(all)),
	USAGE_STRING('C', "cpu", "cpu", "cpus", AA(cpus)),
	USAGE_INCR('v', "verbose", "more", AA(verbose)),
	USAGE_NOOP('N', "no-cache", "nothing"),
	USAGE_CALLBACK(0, "cb", "x", "call", USAGE_OPT_OPTARG, 300, apply_cb),
	{ 'h', "help", NULL, "show this help", USAGE_OPT_HIDDEN },
	{ 0 },
};

static void test_apply(void)
{
	char *argv[] = { (char *)"t", (char *)"-a", (char *)"-vv", (char *)"--cpu=1-3",
			 (char *)"-N", (char *)"--cb", (char *)"--cb=y", (char *)"-v",
			 (char *)"--cb=bad", (char *)"-h", (char *)"--", (char *)"cmd", NULL };
	struct apply_args args = { 0 };
	struct option_parser p;
	int c, ret, n = 0, rets[ARRAY_SIZE(argv)] = { 0 };

	if (option_parser__init(&p, apply_opts, ARRAY_SIZE(argv) - 1, argv)) {
		tap_ok(0, "apply: init");
		return;
	}
	while ((c = option_parser__next(&p)) != -1 && n < (int)ARRAY_SIZE(rets))
		rets[n++] = option_parser__apply(&p, c, &args, optarg);
	ret = optind;
	option_parser__exit(&p);
	tap_ok(n == 10, "apply: 10 options before --, %d", n);
	tap_ok(args.all && args.verbose == 3 && args.cpus && !strcmp(args.cpus, "1-3"),
	       "apply: -a set, -v counted 3 times, --cpu=1-3 kept (%d, %d, %s)", args.all,
	       args.verbose, args.cpus ? args.cpus : "(null)");
	tap_ok(args.calls == 3 && rets[5] == 0 && rets[6] == 0 && rets[8] == USAGE_EXIT_STATUS &&
	       args.last && !strcmp(args.last, "bad"),
	       "apply: the callback ran 3 times, its exit status returned (%d: %d %d %d)",
	       args.calls, rets[5], rets[6], rets[8]);
	tap_ok(rets[4] == 0 && rets[9] == -EINVAL && ret == 11,
	       "apply: -N does nothing, -h is the caller's (%d, %d), the command at argv[%d]",
	       rets[4], rets[9], ret);
}

int main(void)
{
	tap_start("parse-options");
	test_layout();
	test_errors();
	test_long();
	test_apply();
	return tap_done();
}
