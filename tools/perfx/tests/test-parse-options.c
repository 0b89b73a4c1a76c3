// SPDX-License-Identifier: GPL-2.0
/*
 * The usage printer against the bytes perf 6.1's parse-options prints:
 * the column, the wrap when the names pass it, <argh> and [=<argh>], the
 * order, the usage lines, -h's filter and the errors after getopt_long().
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

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

int main(void)
{
	tap_start("parse-options");
	test_layout();
	test_errors();
	test_long();
	return tap_done();
}
