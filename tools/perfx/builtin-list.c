// SPDX-License-Identifier: GPL-2.0
/* perfx list: the events perfx can name. */
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "lib/parse-events.h"
#include <linux/perf_event.h>

const char list_usage[] =
"Usage: perfx list [hw|sw|cache|pmu|tracepoint]\n"
"\n"
"List the hardware, software and hardware cache event names, the PMUs under\n"
"/sys/bus/event_source/devices (with their format terms and named events)\n"
"and the tracepoints (sys:name).  Whether an event can count on this\n"
"machine is for 'perfx stat' to find out.\n";

static void list_symbols(__u32 type, const char *desc)
{
	const struct event_symbol *syms;
	int nr, i;

	syms = parse_events__symbols(&nr);
	for (i = 0; i < nr; i++) {
		char buf[64];

		if (syms[i].type != type)
			continue;
		if (syms[i].alias)
			snprintf(buf, sizeof(buf), "%s OR %s", syms[i].name, syms[i].alias);
		else
			snprintf(buf, sizeof(buf), "%s", syms[i].name);
		printf("  %-50s [%s]\n", buf, desc);
	}
}

static void list_cache_events(void)
{
	char name[64];
	int i;

	for (i = 0; !parse_events__cache_event(i, name, sizeof(name)); i++)
		printf("  %-50s [Hardware cache event]\n", name);
}

/* dirs_only: a tracefs subsystem also holds its enable and filter files */
static void list_dir(const char *dir, const char *fmt, const char *pmu, bool dirs_only)
{
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		if (d->d_name[0] == '.' || (dirs_only && d->d_type != DT_DIR))
			continue;
		printf(fmt, pmu, d->d_name);
	}
	closedir(dp);
}

static void list_pmus(void)
{
	const char *root = parse_events__pmu_root(NULL);
	struct dirent *d;
	DIR *dp = opendir(root);

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		char path[PATH_MAX];

		if (d->d_name[0] == '.')
			continue;
		printf("  %s/<terms>/%*s[Kernel PMU]\n", d->d_name,
		       (int)(42 - strlen(d->d_name)) > 0 ? (int)(42 - strlen(d->d_name)) : 1, "");
		snprintf(path, sizeof(path), "%s/%s/format", root, d->d_name);
		list_dir(path, "      %s term: %s\n", d->d_name, false);
		snprintf(path, sizeof(path), "%s/%s/events", root, d->d_name);
		list_dir(path, "    %s/%s/\n", d->d_name, false);
	}
	closedir(dp);
}

static void list_tracepoints(void)
{
	const char *root = parse_events__tracefs(NULL);
	struct dirent *d;
	DIR *dp = opendir(root);

	if (!dp)
		return;
	while ((d = readdir(dp))) {
		char path[PATH_MAX];

		if (d->d_type != DT_DIR || d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, d->d_name);
		list_dir(path, "  %s:%s  [Tracepoint event]\n", d->d_name, true);
	}
	closedir(dp);
}

int cmd_list(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "all";
	bool all = !strcmp(what, "all");

	if (!strcmp(what, "-h") || !strcmp(what, "--help")) {
		fputs(list_usage, stdout);
		return 0;
	}
	if (!all && strcmp(what, "hw") && strcmp(what, "sw") && strcmp(what, "cache") &&
	    strcmp(what, "pmu") && strcmp(what, "tracepoint")) {
		fprintf(stderr,
			"perfx list: unknown class '%s': expected hw, sw, cache, pmu or tracepoint\n",
			what);
		return 1;
	}
	printf("\nList of pre-defined events (to be used in -e):\n\n");
	if (all || !strcmp(what, "hw"))
		list_symbols(PERF_TYPE_HARDWARE, "Hardware event");
	if (all || !strcmp(what, "sw"))
		list_symbols(PERF_TYPE_SOFTWARE, "Software event");
	if (all || !strcmp(what, "cache"))
		list_cache_events();
	if (all || !strcmp(what, "pmu")) {
		printf("  %-50s [Raw hardware event descriptor]\n", "rNNN");
		list_pmus();
	}
	if (all || !strcmp(what, "tracepoint"))
		list_tracepoints();
	return 0;
}
