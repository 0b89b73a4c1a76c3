// SPDX-License-Identifier: GPL-2.0
/*
 * Proves the exposition --serve answers with: the exact bytes of both
 * formats for 2 cgroups x 2 events whose every number differs (a cgroup
 * or event mixed up, a time in the wrong family, fails), label values
 * and bytes that are not UTF-8 escaped as the specs say, a buffer too
 * small told by the length, and the format chosen for Accept headers
 * (Prometheus's own, text only, none, garbage, quality values).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/openmetrics.h"
#include "tests/tap.h"

static const struct openmetrics_count counts[] = {
	{ "A", "task-clock", 1000000001, 2000000002, 1000000001 },
	{ "A", "context-switches", 11, 3000000003, 3000000003 },
	{ "/B/sub", "task-clock", 5000000005, 6000000006, 6000000006 },
	{ "/B/sub", "context-switches", 0, 7000000007, 0 },
};

#define LABELS(ev, cg) "{cpu=\"\",event=\"" ev "\",id=\"" cg "\"}"

#define SAMPLES(name, v1, v2, v3, v4) \
	name LABELS("task-clock", "/A") " " v1 "\n" \
	name LABELS("context-switches", "/A") " " v2 "\n" \
	name LABELS("task-clock", "/B/sub") " " v3 "\n" \
	name LABELS("context-switches", "/B/sub") " " v4 "\n"

#define HELP_EVENTS "Perf event count, summed over CPUs and scaled by time enabled / time running as perf stat scales it."
#define HELP_RATIO "Perf event time running / time enabled, summed over CPUs: below 1 the count is estimated."
#define HELP_ENABLED "Time the perf event was enabled, summed over CPUs."
#define HELP_RUNNING "Time the perf event was counting on the PMU, summed over CPUs."

static const char want_text[] =
	"# HELP container_perf_events_total " HELP_EVENTS "\n"
	"# TYPE container_perf_events_total counter\n"
	SAMPLES("container_perf_events_total", "1000000001", "11", "5000000005", "0")
	"# HELP container_perf_events_scaling_ratio " HELP_RATIO "\n"
	"# TYPE container_perf_events_scaling_ratio gauge\n"
	SAMPLES("container_perf_events_scaling_ratio", "0.500000", "1.000000", "1.000000",
		"0.000000")
	"# HELP perfx_perf_events_time_enabled_seconds_total " HELP_ENABLED "\n"
	"# TYPE perfx_perf_events_time_enabled_seconds_total counter\n"
	SAMPLES("perfx_perf_events_time_enabled_seconds_total", "2.000000002", "3.000000003",
		"6.000000006", "7.000000007")
	"# HELP perfx_perf_events_time_running_seconds_total " HELP_RUNNING "\n"
	"# TYPE perfx_perf_events_time_running_seconds_total counter\n"
	SAMPLES("perfx_perf_events_time_running_seconds_total", "1.000000001", "3.000000003",
		"6.000000006", "0.000000000");

static const char want_om[] =
	"# HELP container_perf_events " HELP_EVENTS "\n"
	"# TYPE container_perf_events counter\n"
	SAMPLES("container_perf_events_total", "1000000001", "11", "5000000005", "0")
	"# HELP container_perf_events_scaling_ratio " HELP_RATIO "\n"
	"# TYPE container_perf_events_scaling_ratio gauge\n"
	SAMPLES("container_perf_events_scaling_ratio", "0.500000", "1.000000", "1.000000",
		"0.000000")
	"# HELP perfx_perf_events_time_enabled_seconds " HELP_ENABLED "\n"
	"# TYPE perfx_perf_events_time_enabled_seconds counter\n"
	"# UNIT perfx_perf_events_time_enabled_seconds seconds\n"
	SAMPLES("perfx_perf_events_time_enabled_seconds_total", "2.000000002", "3.000000003",
		"6.000000006", "7.000000007")
	"# HELP perfx_perf_events_time_running_seconds " HELP_RUNNING "\n"
	"# TYPE perfx_perf_events_time_running_seconds counter\n"
	"# UNIT perfx_perf_events_time_running_seconds seconds\n"
	SAMPLES("perfx_perf_events_time_running_seconds_total", "1.000000001", "3.000000003",
		"6.000000006", "0.000000000")
	"# EOF\n";

static char *render(const struct openmetrics_count *c, int nr, enum openmetrics_format fmt)
{
	size_t len = openmetrics__render(c, nr, fmt, NULL, 0);
	char *buf = malloc(len + 1);

	if (buf && openmetrics__render(c, nr, fmt, buf, len + 1) != len) {
		free(buf);
		return NULL;
	}
	return buf;
}

static void test_formats(void)
{
	char *got, small[40];
	size_t len;

	got = render(counts, 4, OPENMETRICS_TEXT_0_0_4);
	tap_str_eq(got, want_text, "text 0.0.4: 2 cgroups x 2 events, byte for byte");
	free(got);
	got = render(counts, 4, OPENMETRICS_1_0_0);
	tap_str_eq(got, want_om, "OpenMetrics 1.0.0: 2 cgroups x 2 events, byte for byte");
	free(got);

	len = openmetrics__render(counts, 4, OPENMETRICS_1_0_0, small, sizeof(small));
	tap_ok(len == strlen(want_om) && strlen(small) == sizeof(small) - 1 &&
	       !strncmp(small, want_om, sizeof(small) - 1),
	       "a buffer too small: its start, NUL-terminated, and the whole length (%zu)", len);

	got = render(counts, 0, OPENMETRICS_1_0_0);
	tap_ok(got && !strncmp(got, "# HELP container_perf_events ", 29) &&
	       strlen(got) > 6 && !strcmp(got + strlen(got) - 6, "# EOF\n") &&
	       !strstr(got, "{"), "no counts: the metadata and # EOF only");
	free(got);
}

static void test_escaping(void)
{
	/* a quote, a backslash, a newline, a byte that is not UTF-8, real UTF-8 */
	static const struct openmetrics_count odd[] = {
		{ "//x\"y\\z\nw\xff\xc3\xa9", "cpu/name=\"q\"/", 1, 2, 2 },
	};
	const char *want_sample =
		"container_perf_events_total{cpu=\"\",event=\"cpu/name=\\\"q\\\"/\","
		"id=\"/x\\\"y\\\\z\\nw\xef\xbf\xbd\xc3\xa9\"} 1\n";
	char *got;
	int f;

	for (f = OPENMETRICS_TEXT_0_0_4; f <= OPENMETRICS_1_0_0; f++) {
		got = render(odd, 1, f);
		tap_ok(got && strstr(got, want_sample) != NULL,
		       "%s: \\, \" and newline escaped in label values, a non-UTF-8 byte as U+FFFD, the root's slashes once",
		       f == OPENMETRICS_1_0_0 ? "OpenMetrics" : "text");
		if (got && !strstr(got, want_sample))
			printf("#   got:  '%s'\n", got);
		free(got);
	}
}

static void test_negotiate(void)
{
	static const struct {
		const char *accept;
		enum openmetrics_format want;
		const char *what;
	} cases[] = {
		{ "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
		  OPENMETRICS_1_0_0, "Prometheus 2's Accept" },
		{ "application/openmetrics-text;version=1.0.0;escaping=allow-utf-8,application/openmetrics-text;version=0.0.1;q=0.9,text/plain;version=1.0.0;escaping=allow-utf-8;q=0.8,text/plain;version=0.0.4;q=0.5,*/*;q=0.1",
		  OPENMETRICS_1_0_0, "Prometheus 3's Accept" },
		{ "text/plain;version=0.0.4;q=1,*/*;q=0.1", OPENMETRICS_TEXT_0_0_4,
		  "Prometheus's text-only Accept" },
		{ "text/plain", OPENMETRICS_TEXT_0_0_4, "text/plain" },
		{ NULL, OPENMETRICS_TEXT_0_0_4, "no Accept" },
		{ "", OPENMETRICS_TEXT_0_0_4, "an empty Accept" },
		{ "*/*", OPENMETRICS_TEXT_0_0_4, "*/*" },
		{ "\x01garbage;;==,,\"", OPENMETRICS_TEXT_0_0_4, "garbage" },
		{ "application/openmetrics-text;version=1.0.0;q=2", OPENMETRICS_TEXT_0_0_4,
		  "q=2 is no qvalue: the range is ignored" },
		{ "application/openmetrics-text;q=0.1234", OPENMETRICS_TEXT_0_0_4,
		  "q with 4 decimals is no qvalue" },
		{ "application/openmetrics-text;version=0.0.1", OPENMETRICS_TEXT_0_0_4,
		  "OpenMetrics 0.0.1 only: not served" },
		{ "application/openmetrics-text", OPENMETRICS_1_0_0, "OpenMetrics without a version" },
		{ " APPLICATION/OpenMetrics-Text ; Version=\"1.0.0\" ; Q=1.000", OPENMETRICS_1_0_0,
		  "case, spaces and a quoted version" },
		{ "application/openmetrics-text;version=1.0.0;q=0.2,text/plain;q=0.3",
		  OPENMETRICS_TEXT_0_0_4, "text of a higher q" },
		{ "text/plain;q=0.5,application/openmetrics-text;version=1.0.0;q=0.501",
		  OPENMETRICS_1_0_0, "OpenMetrics of a higher q, named second" },
		{ "application/openmetrics-text;q=0", OPENMETRICS_TEXT_0_0_4,
		  "OpenMetrics not acceptable (q=0)" },
		{ "text/plain;q=0,application/openmetrics-text;q=0.001", OPENMETRICS_1_0_0,
		  "text not acceptable, OpenMetrics barely" },
		{ "application/*;q=0.9,application/openmetrics-text;q=0,*/*;q=0.2",
		  OPENMETRICS_TEXT_0_0_4, "the most specific range wins: OpenMetrics q=0" },
		{ "application/openmetrics-text;version=1.0.0,text/plain", OPENMETRICS_1_0_0,
		  "a tie: the first named (OpenMetrics)" },
		{ "text/plain,application/openmetrics-text;version=1.0.0", OPENMETRICS_TEXT_0_0_4,
		  "a tie: the first named (text)" },
		{ "text/html,application/json", OPENMETRICS_TEXT_0_0_4, "neither format" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum openmetrics_format got = openmetrics__negotiate(cases[i].accept);

		tap_ok(got == cases[i].want, "Accept: %s -> %s", cases[i].what,
		       cases[i].want == OPENMETRICS_1_0_0 ? "OpenMetrics" : "text");
	}
	tap_str_eq(openmetrics__content_type(OPENMETRICS_TEXT_0_0_4),
		   "text/plain; version=0.0.4; charset=utf-8", "the text format's Content-Type");
	tap_str_eq(openmetrics__content_type(OPENMETRICS_1_0_0),
		   "application/openmetrics-text; version=1.0.0; charset=utf-8",
		   "OpenMetrics' Content-Type");
}

int main(void)
{
	tap_start("openmetrics");
	test_formats();
	test_escaping();
	test_negotiate();
	return tap_done();
}
