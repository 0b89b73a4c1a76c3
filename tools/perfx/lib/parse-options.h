/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_PARSE_OPTIONS_H
#define __PERFX_PARSE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "util.h"

/*
 * What option_parser__apply() does with an option, to the field at off
 * in the command's struct of arguments, as perf's OPT_BOOLEAN, OPT_STRING,
 * OPT_INCR and OPT_CALLBACK; KEY: nothing, the command's own loop does it
 */
enum usage_option_kind {
	USAGE_OPT_KEY,		/* 0: the tables that say nothing more */
	USAGE_OPT_BOOL,		/* bool = true */
	USAGE_OPT_STRING,	/* const char * = the argument */
	USAGE_OPT_INCR,		/* int++ */
	USAGE_OPT_NOOP,		/* accepted, as perf's, and nothing to do */
	USAGE_OPT_CALLBACK,	/* cb(args, argument): 0, an exit status or -errno */
};

/*
 * A command's options, one table for both the usage text and the parsing.
 * The usage texts are perf's parse-options' (tools/lib/subcmd): the
 * options sorted by short name, 4-space indent, "-a, --all-cpus", the
 * argument in <angle brackets>, the help from column USAGE_OPTS_WIDTH +
 * USAGE_GAP, or on the next line when the names are wider.  The parsing
 * is getopt_long()'s, with tables option_parser__init() makes from it.
 */
struct usage_option {
	int short_name;			/* 0: long only */
	const char *long_name;		/* NULL: short only */
	const char *argh;		/* " <argh>"; NULL: no argument */
	const char *help;
	unsigned int flags;
	int key;			/* what the parser returns; 0: short_name */
	enum usage_option_kind kind;
	size_t off;
	int (*cb)(void *args, const char *arg);
};

/*
 * Where @field of @type is, checked at build time to be of @ftype, the
 * type option_parser__apply() writes there (as perf's check_vtype())
 */
#define USAGE_OFF(type, field, ftype)							\
	(offsetof(type, field) +							\
	 0 * sizeof(char[__builtin_types_compatible_p(__typeof__(((type *)0)->field),	\
						      ftype) ? 1 : -1]))

/*
 * A table's entries, into a field of the struct of arguments: @tf is
 * "type, field", which a command's own macro makes (as perf's OPT_*)
 */
#define USAGE_BOOL(s, l, h, tf)	__USAGE_ENTRY(s, l, NULL, h, 0, 0, USAGE_OPT_BOOL, bool, tf)
#define USAGE_STRING(s, l, a, h, tf) \
	__USAGE_ENTRY(s, l, a, h, 0, 0, USAGE_OPT_STRING, const char *, tf)
#define USAGE_INCR(s, l, h, tf)	__USAGE_ENTRY(s, l, NULL, h, 0, 0, USAGE_OPT_INCR, int, tf)
#define USAGE_NOOP(s, l, h)	{ s, l, NULL, h, .kind = USAGE_OPT_NOOP }
/* the same for an option with no short name: its key, and flags */
#define USAGE_BOOL_KEY(l, h, fl, k, tf) \
	__USAGE_ENTRY(0, l, NULL, h, fl, k, USAGE_OPT_BOOL, bool, tf)
#define USAGE_STRING_KEY(l, a, h, fl, k, tf) \
	__USAGE_ENTRY(0, l, a, h, fl, k, USAGE_OPT_STRING, const char *, tf)
/* @tf was expanded into two arguments by now */
#define __USAGE_ENTRY(s, l, a, h, fl, k, kd, ft, type, field)				\
	{ .short_name = s, .long_name = l, .argh = a, .help = h, .flags = fl, .key = k,	\
	  .kind = kd, .off = USAGE_OFF(type, field, ft) }
#define USAGE_CALLBACK(s, l, a, h, fl, k, fn) \
	{ s, l, a, h, fl, k, .kind = USAGE_OPT_CALLBACK, .cb = (fn) }

#define USAGE_OPT_OPTARG	(1U << 0)	/* the argument is optional */
#define USAGE_OPT_HIDDEN	(1U << 1)	/* accepted, not shown */

#define USAGE_OPTS_WIDTH	24
#define USAGE_GAP		2

/* perf's exit status after -h and after a usage error */
#define USAGE_EXIT_STATUS	129

/*
 * usagestr: the first line follows " Usage: ", the next non-empty ones
 * "    or: "; after an empty string, each line is printed indented by four
 * (an empty one as a blank line).  NULL-terminated, as are the options
 * (an entry with neither name).
 */
void usage_with_options(FILE *f, const char * const *usagestr,
			const struct usage_option *opts);
/*
 * -h's text: with words after the -h, only the options they name (perf's
 * option__in_argv(): "-x", "--long", a lone letter, a long name, or a word
 * in the help).
 */
void usage_with_options_argv(FILE *f, const char * const *usagestr,
			     const struct usage_option *opts, int argc,
			     char * const *argv);
/* "  Error: <msg>" and the whole usage, as perf's usage_with_options_msg() */
void usage_with_options_msg(FILE *f, const char * const *usagestr,
			    const struct usage_option *opts, const char *fmt, ...)
	__printf(4, 5);
/*
 * The usage line(s) and only the options @names names, space separated
 * ("-x" for a short option, or a long name, which also shows the options
 * it begins): what perf prints after an error in their values.
 */
void usage_with_options_names(FILE *f, const char * const *usagestr,
			      const struct usage_option *opts, const char *names);
/*
 * What perf says when its parser rejects an argument, for getopt_long()'s
 * '?' (with opterr 0): @optopt and @arg (argv[optind - 1]) tell an unknown
 * switch or option, a missing or unexpected value, an ambiguous
 * abbreviation.  Returns USAGE_EXIT_STATUS.
 */
int usage_getopt_error(FILE *f, const char * const *usagestr,
		       const struct usage_option *opts, int optopt, const char *arg);
/*
 * An unsigned value of the option whose key is @key, as perf's
 * OPT_UINTEGER reads it (any '-' refused, strtol() to the end); after a
 * bad one, perf's error naming the switch or option as the user gave it
 * (@argv up to getopt's @optind_now tells) and that option's usage.
 * Returns 0 or USAGE_EXIT_STATUS.
 */
int usage_parse_uint(FILE *f, const char * const *usagestr, const struct usage_option *opts,
		     int key, char **argv, int optind_now, const char *arg, unsigned int *val);
struct option;

/* getopt_long() over a usage_option table: "+": options end at a command */
struct option_parser {
	const struct usage_option *opts;
	struct option *longopts;
	char *shortopts;
	int argc;
	char **argv;
};

int option_parser__init(struct option_parser *p, const struct usage_option *opts,
			int argc, char **argv);
/*
 * The next option's key (optarg holds its value), -1 after the last one
 * (optind is then the first argument), '?' for what getopt_long() rejects
 * (optopt and argv[optind - 1] tell usage_getopt_error() what).
 */
int option_parser__next(struct option_parser *p);
/*
 * What the table says option @key does, done to @args with @arg: 0, a
 * callback's exit status, or -EINVAL for a key the table has not or
 * leaves to the caller (USAGE_OPT_KEY).
 */
int option_parser__apply(const struct option_parser *p, int key, void *args, const char *arg);
void option_parser__exit(struct option_parser *p);
/*
 * As perf's parse_options(): every option of @argv done to @args as
 * @opts says, -h's usage and getopt_long()'s errors printed on @f.  0
 * (optind is then the first argument), the exit status once printed
 * (USAGE_EXIT_STATUS, or a callback's), or -errno.
 */
int usage_options__parse(FILE *f, const char * const *usagestr, const struct usage_option *opts,
			 int argc, char **argv, void *args);

/* One option's line(s), as in the usage text. */
void usage_option__print(FILE *f, const struct usage_option *opt);

#endif /* __PERFX_PARSE_OPTIONS_H */
