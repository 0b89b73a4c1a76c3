// SPDX-License-Identifier: GPL-2.0
/*
 * Usage texts laid out as perf's parse-options prints them (perf 6.1,
 * tools/lib/subcmd/parse-options.c): usage_with_options_internal(),
 * print_option_help(), option__cmp() and parse_options_usage().
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "parse-options.h"

static bool usage_option__end(const struct usage_option *opt)
{
	return !opt->short_name && !opt->long_name;
}

void usage_option__print(FILE *f, const struct usage_option *opt)
{
	int pos, pad;

	if (opt->flags & USAGE_OPT_HIDDEN)
		return;
	pos = fprintf(f, "    ");
	if (opt->short_name)
		pos += fprintf(f, "-%c", opt->short_name);
	else
		pos += fprintf(f, "    ");
	if (opt->long_name && opt->short_name)
		pos += fprintf(f, ", ");
	if (opt->long_name)
		pos += fprintf(f, "--%s", opt->long_name);
	if (opt->argh) {
		if (!(opt->flags & USAGE_OPT_OPTARG))
			pos += fprintf(f, " <%s>", opt->argh);
		else if (opt->long_name)
			pos += fprintf(f, "[=<%s>]", opt->argh);
		else
			pos += fprintf(f, "[<%s>]", opt->argh);
	}
	if (pos <= USAGE_OPTS_WIDTH) {
		pad = USAGE_OPTS_WIDTH - pos;
	} else {
		fputc('\n', f);
		pad = USAGE_OPTS_WIDTH;
	}
	fprintf(f, "%*s%s\n", pad + USAGE_GAP, "", opt->help);
}

/* by short name, case folded, long-only options last; then by long name */
static int usage_option__cmp(const void *va, const void *vb)
{
	const struct usage_option *a = *(const struct usage_option * const *)va;
	const struct usage_option *b = *(const struct usage_option * const *)vb;
	int sa = tolower(a->short_name), sb = tolower(b->short_name), ret;

	if (!sa)
		sa = 'z' + 1;
	if (!sb)
		sb = 'z' + 1;
	ret = sa - sb;
	if (!ret)
		ret = strcmp(a->long_name ? a->long_name : "", b->long_name ? b->long_name : "");
	return ret;
}

static void usage__print_head(FILE *f, const char * const *usagestr)
{
	fprintf(f, "\n Usage: %s\n", *usagestr++);
	while (*usagestr && **usagestr)
		fprintf(f, "    or: %s\n", *usagestr++);
	for (; *usagestr; usagestr++)
		fprintf(f, "%s%s\n", **usagestr ? "    " : "", *usagestr);
	fputc('\n', f);
}

/* does any of the words after -h name @opt? */
static bool usage_option__in_argv(const struct usage_option *opt, int argc,
				  char * const *argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (arg[0] != '-') {
			if (arg[0] && !arg[1]) {
				if (arg[0] == opt->short_name)
					return true;
				continue;
			}
			if (opt->long_name && !strcmp(opt->long_name, arg))
				return true;
			if (opt->help && strcasestr(opt->help, arg))
				return true;
			continue;
		}
		if (arg[1] == opt->short_name ||
		    (arg[1] == '-' && opt->long_name && !strcmp(opt->long_name, arg + 2)))
			return true;
	}
	return false;
}

void usage_with_options_argv(FILE *f, const char * const *usagestr,
			     const struct usage_option *opts, int argc,
			     char * const *argv)
{
	const struct usage_option **ordered;
	size_t nr = 0, i;

	usage__print_head(f, usagestr);
	while (!usage_option__end(&opts[nr]))
		nr++;
	ordered = calloc(nr ? nr : 1, sizeof(*ordered));
	if (ordered) {
		for (i = 0; i < nr; i++)
			ordered[i] = &opts[i];
		qsort(ordered, nr, sizeof(*ordered), usage_option__cmp);
	}
	/* unsorted if there is no memory to sort, as perf */
	for (i = 0; i < nr; i++) {
		const struct usage_option *opt = ordered ? ordered[i] : &opts[i];

		if (argc > 0 && !usage_option__in_argv(opt, argc, argv))
			continue;
		usage_option__print(f, opt);
	}
	fputc('\n', f);
	free(ordered);
}

void usage_with_options(FILE *f, const char * const *usagestr,
			const struct usage_option *opts)
{
	usage_with_options_argv(f, usagestr, opts, 0, NULL);
}

void usage_with_options_msg(FILE *f, const char * const *usagestr,
			    const struct usage_option *opts, const char *fmt, ...)
{
	va_list ap;

	fprintf(f, "  Error: ");
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fputc('\n', f);
	usage_with_options(f, usagestr, opts);
}

/* the option @optstr names: a letter, or every long name it begins */
static void usage_option_help(FILE *f, const struct usage_option *opts,
			      const char *optstr, bool short_opt)
{
	size_t len = strlen(optstr);

	for (; !usage_option__end(opts); opts++) {
		if (short_opt) {
			if (opts->short_name == *optstr) {
				usage_option__print(f, opts);
				break;
			}
			continue;
		}
		if (opts->long_name && !strncmp(opts->long_name, optstr, len))
			usage_option__print(f, opts);
	}
}

void usage_with_options_names(FILE *f, const char * const *usagestr,
			      const struct usage_option *opts, const char *names)
{
	const char *s = names;

	usage__print_head(f, usagestr);
	while (*s) {
		size_t len = strcspn(s, " ");
		char name[64];

		if (len && len < sizeof(name)) {
			memcpy(name, s, len);
			name[len] = '\0';
			if (name[0] == '-')
				usage_option_help(f, opts, name + 1, true);
			else
				usage_option_help(f, opts, name, false);
		}
		s += len;
		s += strspn(s, " ");
	}
}

static const struct usage_option *usage_option__find(const struct usage_option *opts,
						     int short_name, const char *long_name,
						     size_t len)
{
	for (; !usage_option__end(opts); opts++) {
		if (short_name && opts->short_name == short_name)
			return opts;
		if (long_name && opts->long_name && strlen(opts->long_name) == len &&
		    !strncmp(opts->long_name, long_name, len))
			return opts;
	}
	return NULL;
}

int usage_getopt_error(FILE *f, const char * const *usagestr,
		       const struct usage_option *opts, int optopt, const char *arg)
{
	const struct usage_option *opt, *o, *prev = NULL, *last = NULL;
	const char *name;
	char buf[64];
	size_t len;

	if (!arg || strncmp(arg, "--", 2) || !arg[2]) {
		/* a switch: unknown, or its value is missing */
		opt = optopt > 0 && optopt < 256 ? usage_option__find(opts, optopt, NULL, 0) : NULL;
		if (!opt) {
			usage_with_options_msg(f, usagestr, opts, "unknown switch '-%c'",
					       optopt > 0 && optopt < 256 ? optopt : '?');
			return USAGE_EXIT_STATUS;
		}
		fprintf(f, " Error: switch '-%c' requires a value", optopt);
		snprintf(buf, sizeof(buf), "-%c", optopt);
		usage_with_options_names(f, usagestr, opts, buf);
		return USAGE_EXIT_STATUS;
	}
	name = arg + 2;
	len = strcspn(name, "=");
	opt = usage_option__find(opts, 0, name, len);
	if (!opt) {
		for (o = opts; !usage_option__end(o); o++) {
			if (o->long_name && !strncmp(o->long_name, name, len)) {
				prev = last;
				last = o;
			}
		}
		if (!last) {
			usage_with_options_msg(f, usagestr, opts, "unknown option '%s'", arg);
			return USAGE_EXIT_STATUS;
		}
		if (prev) {
			/*
			 * perf names the last two it found, and quotes the
			 * argument with its "=value" ("--f=x": "f=x", which
			 * then names no option to show)
			 */
			fprintf(f, " Error: Ambiguous option: %s (could be --%s or --%s)\n",
				name, prev->long_name, last->long_name);
			usage_with_options_names(f, usagestr, opts, name);
			return USAGE_EXIT_STATUS;
		}
		opt = last;	/* an abbreviation getopt_long() took */
	}
	if (name[len] == '=' && !opt->argh)
		fprintf(f, " Error: option '--%s' takes no value", opt->long_name);
	else
		fprintf(f, " Error: option '--%s' requires a value", opt->long_name);
	usage_with_options_names(f, usagestr, opts, opt->long_name);
	return USAGE_EXIT_STATUS;
}

static int usage_option__key(const struct usage_option *opt)
{
	return opt->key ? opt->key : opt->short_name;
}

/* the option whose key is @key, or the table's end */
static const struct usage_option *usage_option__by_key(const struct usage_option *opts, int key)
{
	while (!usage_option__end(opts) && usage_option__key(opts) != key)
		opts++;
	return opts;
}

int option_parser__init(struct option_parser *p, const struct usage_option *opts,
			int argc, char **argv)
{
	size_t nr = 0, i, len = 0, l = 0;

	while (!usage_option__end(&opts[nr]))
		nr++;
	memset(p, 0, sizeof(*p));
	p->longopts = calloc(nr + 1, sizeof(*p->longopts));
	p->shortopts = malloc(2 + 3 * nr);
	if (!p->longopts || !p->shortopts) {
		option_parser__exit(p);
		return -ENOMEM;
	}
	p->shortopts[len++] = '+';
	for (i = 0; i < nr; i++) {
		const struct usage_option *opt = &opts[i];
		int has_arg = !opt->argh ? no_argument :
			      opt->flags & USAGE_OPT_OPTARG ? optional_argument :
			      required_argument;

		if (opt->short_name) {
			p->shortopts[len++] = opt->short_name;
			if (has_arg != no_argument)
				p->shortopts[len++] = ':';
			if (has_arg == optional_argument)
				p->shortopts[len++] = ':';
		}
		if (opt->long_name)
			p->longopts[l++] = (struct option){ opt->long_name, has_arg, NULL,
							    usage_option__key(opt) };
	}
	p->shortopts[len] = '\0';
	p->opts = opts;
	p->argc = argc;
	p->argv = argv;
	optind = 1;
	opterr = 0;
	return 0;
}

int option_parser__next(struct option_parser *p)
{
	return getopt_long(p->argc, p->argv, p->shortopts, p->longopts, NULL);
}

int option_parser__apply(const struct option_parser *p, int key, void *args, const char *arg)
{
	const struct usage_option *opt = usage_option__by_key(p->opts, key);
	char *field;

	if (usage_option__end(opt))
		return -EINVAL;
	field = (char *)args + opt->off;
	switch (opt->kind) {
	case USAGE_OPT_BOOL:
		*(bool *)field = true;
		return 0;
	case USAGE_OPT_STRING:
		*(const char **)field = arg;
		return 0;
	case USAGE_OPT_INCR:
		(*(int *)field)++;
		return 0;
	case USAGE_OPT_NOOP:
		return 0;
	case USAGE_OPT_CALLBACK:
		return opt->cb(args, arg);
	case USAGE_OPT_KEY:
		break;
	}
	return -EINVAL;
}

int usage_options__parse(FILE *f, const char * const *usagestr, const struct usage_option *opts,
			 int argc, char **argv, void *args)
{
	struct option_parser p;
	int c, err;

	err = option_parser__init(&p, opts, argc, argv);
	while (!err && (c = option_parser__next(&p)) != -1) {
		if (c == 'h') {	/* as perf: only the options named after -h */
			usage_with_options_argv(f, usagestr, opts, argc - optind, argv + optind);
			err = USAGE_EXIT_STATUS;
		} else if (c == '?' || c == ':') {
			err = usage_getopt_error(f, usagestr, opts, optopt, argv[optind - 1]);
		} else {
			err = option_parser__apply(&p, c, args, optarg);
		}
	}
	option_parser__exit(&p);
	return err;
}

void option_parser__exit(struct option_parser *p)
{
	free(p->longopts);
	free(p->shortopts);
	p->longopts = NULL;
	p->shortopts = NULL;
}

/* Did the user give option @opt by its long name, in @argv up to @optind? */
static bool usage_option__given_long(const struct usage_option *opt, char **argv,
				     int optind_now)
{
	int i;

	for (i = optind_now - 1; i >= 1 && i >= optind_now - 2; i--) {
		const char *a = argv[i];
		size_t len = strcspn(a + 2, "=");

		if (!strncmp(a, "--", 2) && len && opt->long_name &&
		    !strncmp(opt->long_name, a + 2, len))
			return true;
		if (a[0] == '-' && a[1] != '-')
			return false;
	}
	return false;
}

int usage_parse_uint(FILE *f, const char * const *usagestr, const struct usage_option *opts,
		     int key, char **argv, int optind_now, const char *arg, unsigned int *val)
{
	const struct usage_option *opt = usage_option__by_key(opts, key);
	const char *what = NULL;
	char names[64], *end;
	long v;

	/* perf's OPT_UINTEGER: no '-' anywhere, then strtol() to the end */
	if (strchr(arg, '-')) {
		what = "expects an unsigned numerical value";
	} else {
		v = strtol(arg, &end, 10);
		if (*end)
			what = "expects a numerical value";
		*val = (unsigned int)v;
	}
	if (!what)
		return 0;
	if (usage_option__given_long(opt, argv, optind_now) || !opt->short_name) {
		fprintf(f, " Error: option '%s' %s\n", opt->long_name, what);
		snprintf(names, sizeof(names), "%s", opt->long_name);
	} else {
		fprintf(f, " Error: switch '%c' %s\n", opt->short_name, what);
		snprintf(names, sizeof(names), "-%c", opt->short_name);
	}
	usage_with_options_names(f, usagestr, opts, names);
	return USAGE_EXIT_STATUS;
}
