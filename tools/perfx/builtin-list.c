// SPDX-License-Identifier: GPL-2.0
/*
 * perfx list: the events perfx can count, as perf list 6.1 prints them:
 * each kind sorted, "  %-50s [kind]", hardware and hardware cache events
 * only where they open (perf's is_event_supported()), and on a terminal a
 * header and a blank line after each kind, as perf prints into its pager.
 * Only what perfx's -e parses is listed: not perf's tool events
 * (duration_time...), breakpoints (mem:), SDT events, metrics or libpfm's.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "builtin.h"
#include "lib/evlist.h"
#include "lib/evsel.h"
#include "lib/parse-events.h"
#include "lib/parse-options.h"
#include "lib/util.h"

static const char * const list_usagestr[] = {
	"perfx list [hw|sw|cache|tracepoint|pmu|event_glob]",
	NULL
};

static const struct usage_option list_options[] = {
	{ 'h', "help", NULL, "show this help", USAGE_OPT_HIDDEN },
	{ 0 },
};

void list__usage(FILE *f)
{
	usage_with_options(f, list_usagestr, list_options);
}

/* perf list's words for what perfx cannot count */
static const struct {
	const char *arg;
	const char *what;
} list_unsupported[] = {
	{ "sdt", "SDT events (perf probe's)" },
	{ "metric", "metrics (perf stat -M)" },
	{ "metrics", "metrics (perf stat -M)" },
	{ "metricgroup", "metric groups (perf stat -M)" },
	{ "metricgroups", "metric groups (perf stat -M)" },
};

/* stdout is a terminal: the header and the blank lines of perf's pager output */
static bool list_tty;

struct name_list {
	char **names;
	size_t nr;
	size_t alloc;
	int err;
};

static void name_list__add(struct name_list *list, const char *fmt, ...)
	__printf(2, 3);

static void name_list__add(struct name_list *list, const char *fmt, ...)
{
	va_list ap;
	char *name;

	if (list->err)
		return;
	if (list->nr == list->alloc) {
		size_t alloc = list->alloc ? list->alloc * 2 : 64;
		char **names = realloc(list->names, alloc * sizeof(*names));

		if (!names) {
			list->err = -ENOMEM;
			return;
		}
		list->names = names;
		list->alloc = alloc;
	}
	va_start(ap, fmt);
	if (vasprintf(&name, fmt, ap) < 0)
		list->err = -ENOMEM;
	else
		list->names[list->nr++] = name;
	va_end(ap);
}

static void name_list__free(struct name_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		free(list->names[i]);
	free(list->names);
	memset(list, 0, sizeof(*list));
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static void name_list__sort(struct name_list *list)
{
	if (list->nr)
		qsort(list->names, list->nr, sizeof(*list->names), cmp_name);
}

/*
 * Print and free @list: sorted (unless @sorted says it is), duplicates
 * once, as "  %-50s [kind]", and a blank line after on a terminal.
 */
static int name_list__print(struct name_list *list, const char *kind, bool sorted)
{
	int err = list->err;
	size_t i;

	if (!err && !sorted)
		name_list__sort(list);
	for (i = 0; !err && i < list->nr; i++) {
		if (i && !strcmp(list->names[i], list->names[i - 1]))
			continue;
		printf("  %-50s [%s]\n", list->names[i], kind);
	}
	if (!err && list->nr && list_tty)
		printf("\n");
	name_list__free(list);
	return err;
}

static bool glob_match(const char *glob, const char *str, int flags)
{
	return !glob || !fnmatch(glob, str, flags);
}

/* Does perfx's -e take @name, as one event? */
static bool event_parses(const char *name, struct perf_event_attr *attr)
{
	struct evlist *evlist = evlist__new();
	bool ok;

	if (!evlist)
		return false;
	ok = !parse_events(evlist, name, NULL, NULL) && evlist__nr(evlist) == 1;
	if (ok && attr)
		*attr = *evsel__attr(evlist__entry(evlist, 0));
	evlist__delete(evlist);
	return ok;
}

/*
 * perf's is_event_supported(): the event opens, disabled, for this thread;
 * with EACCES (perf_event_paranoid) once more without the kernel.
 */
static bool event_opens(const char *name)
{
	struct perf_event_attr parsed, attr;
	int fd;

	if (!event_parses(name, &parsed))
		return false;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = parsed.type;
	attr.config = parsed.config;
	attr.disabled = 1;
	fd = (int)syscall(__NR_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0 && errno == EACCES) {
		attr.exclude_kernel = 1;
		fd = (int)syscall(__NR_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	}
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* "cpu-cycles OR cycles" [Hardware event], [Software event] */
static int list_symbols(__u32 type, const char *kind, const char *glob)
{
	const struct event_symbol *syms;
	struct name_list list = { 0 };
	int nr, i;

	syms = parse_events__symbols(&nr);
	for (i = 0; i < nr; i++) {
		if (syms[i].type != type)
			continue;
		if (glob && fnmatch(glob, syms[i].name, 0) &&
		    (!syms[i].alias || fnmatch(glob, syms[i].alias, 0)))
			continue;
		if (!event_opens(syms[i].name))
			continue;
		if (syms[i].alias)
			name_list__add(&list, "%s OR %s", syms[i].name, syms[i].alias);
		else
			name_list__add(&list, "%s", syms[i].name);
	}
	return name_list__print(&list, kind, false);
}

static int list_cache_events(const char *glob)
{
	struct name_list list = { 0 };
	char name[64];
	int i;

	for (i = 0; !parse_events__cache_event(i, name, sizeof(name)); i++) {
		if (glob_match(glob, name, 0) && event_opens(name))
			name_list__add(&list, "%s", name);
	}
	return name_list__print(&list, "Hardware cache event", false);
}

/* perf's pmu_alias_info_file(): what describes an event, not one */
static bool pmu_alias_info_file(const char *name)
{
	static const char *const suffixes[] = { ".unit", ".scale", ".per-pkg", ".snapshot" };
	size_t len = strlen(name), i;

	for (i = 0; i < ARRAY_SIZE(suffixes); i++) {
		size_t slen = strlen(suffixes[i]);

		if (len > slen && !strcmp(name + len - slen, suffixes[i]))
			return true;
	}
	return false;
}

/*
 * The named events of every PMU (its events/ directory) that perfx parses,
 * as pmu/name/; the CPU's first, as "name OR cpu/name/" (perf's
 * is_pmu_core(): "cpu", or a PMU with a cpus file as on arm and hybrids).
 * perf matches a glob against pmu/name/, and against the bare name
 * outside the CPU's PMU, without case.
 */
static int list_pmu_events(const char *glob)
{
	const char *root = parse_events__pmu_root(NULL);
	struct name_list cpu = { 0 }, other = { 0 };
	struct dirent *d, *e;
	DIR *dp, *ep;
	size_t i;

	dp = opendir(root);
	while (dp && (d = readdir(dp))) {
		char path[PATH_MAX], name[PATH_MAX];
		bool is_cpu;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/cpus", root, d->d_name);
		is_cpu = !strcmp(d->d_name, "cpu") || !access(path, F_OK);
		snprintf(path, sizeof(path), "%s/%s/events", root, d->d_name);
		ep = opendir(path);
		while (ep && (e = readdir(ep))) {
			if (e->d_name[0] == '.' || pmu_alias_info_file(e->d_name))
				continue;
			snprintf(name, sizeof(name), "%s/%s/", d->d_name, e->d_name);
			if (glob && fnmatch(glob, name, FNM_CASEFOLD) &&
			    (is_cpu || fnmatch(glob, e->d_name, FNM_CASEFOLD)))
				continue;
			if (!event_parses(name, NULL))
				continue;
			if (is_cpu)
				name_list__add(&cpu, "%s OR %s", e->d_name, name);
			else
				name_list__add(&other, "%s", name);
		}
		if (ep)
			closedir(ep);
	}
	if (dp)
		closedir(dp);
	/* one block: the CPU's events first (perf's cmp_sevent()), each sorted */
	name_list__sort(&cpu);
	name_list__sort(&other);
	for (i = 0; !other.err && i < other.nr; i++)
		name_list__add(&cpu, "%s", other.names[i]);
	if (other.err)
		cpu.err = other.err;
	name_list__free(&other);
	return name_list__print(&cpu, "Kernel PMU event", true);
}

/* sys:name for every event directory with an id, as perf's for_each_event() */
static int list_tracepoints(const char *sys_glob, const char *evt_glob)
{
	const char *root = parse_events__tracefs(NULL);
	struct name_list list = { 0 };
	struct dirent *d, *e;
	DIR *dp, *ep;

	dp = opendir(root);
	while (dp && (d = readdir(dp))) {
		char path[PATH_MAX];

		if (d->d_type != DT_DIR || d->d_name[0] == '.' || !glob_match(sys_glob, d->d_name, 0))
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, d->d_name);
		ep = opendir(path);
		while (ep && (e = readdir(ep))) {
			char id[NAME_MAX + 8];
			int fd;

			if (e->d_type != DT_DIR || e->d_name[0] == '.' ||
			    !glob_match(evt_glob, e->d_name, 0))
				continue;
			snprintf(id, sizeof(id), "%s/id", e->d_name);
			fd = openat(dirfd(ep), id, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				continue;
			close(fd);
			name_list__add(&list, "%s:%s", d->d_name, e->d_name);
		}
		if (ep)
			closedir(ep);
	}
	if (dp)
		closedir(dp);
	return name_list__print(&list, "Tracepoint event", false);
}

/* perf's print_events(): everything, in its order */
static int list_all(void)
{
	int err;

	err = list_symbols(PERF_TYPE_HARDWARE, "Hardware event", NULL);
	if (!err)
		err = list_symbols(PERF_TYPE_SOFTWARE, "Software event", NULL);
	if (!err)
		err = list_cache_events(NULL);
	if (!err)
		err = list_pmu_events(NULL);
	if (err)
		return err;
	printf("  %-50s [%s]\n", "rNNN", "Raw hardware event descriptor");
	printf("  %-50s [%s]\n", "cpu/t1=v1[,t2=v2,t3 ...]/modifier",
	       "Raw hardware event descriptor");
	if (list_tty)
		printf("   (see 'man perfx-list' on how to encode it)\n\n");
	return list_tracepoints(NULL, NULL);
}

/* perf list's event_glob: *arg* against every kind's names */
static int list_glob(const char *arg)
{
	char *glob;
	int err;

	if (asprintf(&glob, "*%s*", arg) < 0)
		return -ENOMEM;
	err = list_symbols(PERF_TYPE_HARDWARE, "Hardware event", glob);
	if (!err)
		err = list_symbols(PERF_TYPE_SOFTWARE, "Software event", glob);
	if (!err)
		err = list_cache_events(glob);
	if (!err)
		err = list_pmu_events(glob);
	if (!err)
		err = list_tracepoints(NULL, glob);
	free(glob);
	return err;
}

/* sys_glob:event_glob, for tracepoints only */
static int list_tracepoint_glob(const char *arg)
{
	char *sys = strdup(arg), *sep;
	int err;

	if (!sys)
		return -ENOMEM;
	sep = strchr(sys, ':');
	*sep++ = '\0';
	err = list_tracepoints(sys, sep);
	free(sys);
	return err;
}

static int list_arg(const char *arg)
{
	if (!strcmp(arg, "hw") || !strcmp(arg, "hardware"))
		return list_symbols(PERF_TYPE_HARDWARE, "Hardware event", NULL);
	if (!strcmp(arg, "sw") || !strcmp(arg, "software"))
		return list_symbols(PERF_TYPE_SOFTWARE, "Software event", NULL);
	if (!strcmp(arg, "cache") || !strcmp(arg, "hwcache"))
		return list_cache_events(NULL);
	if (!strcmp(arg, "pmu"))
		return list_pmu_events(NULL);
	if (!strcmp(arg, "tracepoint"))
		return list_tracepoints(NULL, NULL);
	if (strchr(arg, ':'))
		return list_tracepoint_glob(arg);
	return list_glob(arg);
}

int cmd_list(int argc, char **argv)
{
	struct option_parser p;
	int c, i, err;
	size_t j;

	err = option_parser__init(&p, list_options, argc, argv);
	if (err) {
		fprintf(stderr, "perfx list: %s\n", strerror(-err));
		return 1;
	}
	c = option_parser__next(&p);
	option_parser__exit(&p);
	if (c == 'h') {
		usage_with_options_argv(stderr, list_usagestr, list_options, argc - optind,
					argv + optind);
		return USAGE_EXIT_STATUS;
	}
	if (c != -1)
		return usage_getopt_error(stderr, list_usagestr, list_options, optopt,
					  argv[optind - 1]);
	/* perf takes these too, for what perfx cannot count: say so first */
	for (i = optind; i < argc; i++) {
		for (j = 0; j < ARRAY_SIZE(list_unsupported); j++) {
			if (strcmp(argv[i], list_unsupported[j].arg))
				continue;
			fprintf(stderr, "perfx list: '%s': perfx does not count %s\n", argv[i],
				list_unsupported[j].what);
			usage_with_options(stderr, list_usagestr, list_options);
			return USAGE_EXIT_STATUS;
		}
	}
	list_tty = isatty(STDOUT_FILENO);
	if (list_tty)
		printf("\nList of pre-defined events (to be used in -e):\n\n");
	if (optind == argc)
		err = list_all();
	for (i = optind; !err && i < argc; i++)
		err = list_arg(argv[i]);
	if (err) {
		fprintf(stderr, "perfx list: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}
