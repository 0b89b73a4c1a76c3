/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_PARSE_EVENTS_H
#define __PERFX_PARSE_EVENTS_H

#include <linux/types.h>
#include <stddef.h>

struct evlist;

struct event_symbol {
	const char *name;
	const char *alias;
	__u32 type;
	__u64 config;
};

/* Where PMUs and tracepoints are looked up; NULL means the system's. */
struct parse_events_env {
	const char *pmu_root;
	const char *tracefs;
};

struct parse_events_error {
	int pos;
	char msg[256];
};

int parse_events(struct evlist *evlist, const char *str,
		 const struct parse_events_env *env, struct parse_events_error *error);
const struct event_symbol *parse_events__symbols(int *nr);
int parse_events__cache_event(int idx, char *buf, size_t size);
const char *parse_events__pmu_root(const struct parse_events_env *env);
const char *parse_events__tracefs(const struct parse_events_env *env);
/*
 * A PMU format file's text, "config1:0-3,8-11": the attr field (0 config,
 * 1 config1, 2 config2) and its bits, lowest value bit first; -EINVAL when
 * malformed.  @bits has room for 64.
 */
int parse_events__pmu_format(const char *fmt, int *field, int *bits, int *nr_bits);

#endif /* __PERFX_PARSE_EVENTS_H */
