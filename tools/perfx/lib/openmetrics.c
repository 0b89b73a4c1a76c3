// SPDX-License-Identifier: GPL-2.0
/*
 * Per-cgroup counts in Prometheus's text exposition format 0.0.4 or in
 * OpenMetrics 1.0.0, and the choice between them by a request's Accept
 * header.  The spec rules relied on are quoted where they are applied:
 *   [text]  prometheus.io/docs/instrumenting/exposition_formats/ (0.0.4)
 *   [om]    github.com/OpenObservability/OpenMetrics specification 1.0.0
 *   [http]  RFC 9110 12.5.1 (Accept) and 12.4.2 (quality values)
 * Numbers are written with integer conversions only: perfx stat runs
 * with the user's locale, whose decimal point may be a comma.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "escape.h"
#include "openmetrics.h"

/* A caller's buffer filled as snprintf() fills it: @len counts what did not fit too. */
struct om_buf {
	char *buf;
	size_t size;
	size_t len;
};

static void om_putn(struct om_buf *b, const char *s, size_t n)
{
	if (b->len < b->size) {
		size_t room = b->size - b->len;

		memcpy(b->buf + b->len, s, n < room ? n : room);
	}
	b->len += n;
}

static void om_puts(struct om_buf *b, const char *s)
{
	om_putn(b, s, strlen(s));
}

static void om_printf(struct om_buf *b, const char *fmt, ...) __printf(2, 3);

static void om_printf(struct om_buf *b, const char *fmt, ...)
{
	size_t room = b->len < b->size ? b->size - b->len : 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(room ? b->buf + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len += n;
}

/*
 * [text] "label_value can be any sequence of UTF-8 characters, but the
 * backslash (\), double-quote ("), and line feed (\n) characters have to
 * be escaped as \\, \", and \n"; HELP "docstring ... backslash and line
 * feed characters have to be escaped as \\ and \n" (no quote).  [om]
 * escaped-char = normal-char / bs bs / bs "n" / bs dq, for label values
 * and HELP alike.  Both formats are UTF-8 only and have no escape for
 * other bytes: a byte that is not UTF-8 (a cgroup directory may be named
 * with any) becomes U+FFFD.
 */
static void om_put_escaped(struct om_buf *b, const char *s, bool quote)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = escape__utf8_len(p);

		if (*p == '\\')
			om_puts(b, "\\\\");
		else if (*p == '\n')
			om_puts(b, "\\n");
		else if (*p == '"' && quote)
			om_puts(b, "\\\"");
		else if (n)
			om_putn(b, (const char *)p, n);
		else
			om_puts(b, "\xef\xbf\xbd");
		p += n ? n : 1;
	}
}

/* A count in ns as seconds: [om] a number may have a fraction ("." 1*DIGIT). */
static void om_put_seconds(struct om_buf *b, __u64 ns)
{
	om_printf(b, "%llu.%09llu", (unsigned long long)(ns / 1000000000ULL),
		  (unsigned long long)(ns % 1000000000ULL));
}

static void put_count(struct om_buf *b, const struct openmetrics_count *c)
{
	om_printf(b, "%llu", (unsigned long long)c->val);
}

/* time running / time enabled to 6 places; 0 for an event never enabled */
static void put_ratio(struct om_buf *b, const struct openmetrics_count *c)
{
	unsigned long long micro = c->ena ? (unsigned long long)
		((long double)(c->run < c->ena ? c->run : c->ena) * 1000000 / c->ena + 0.5L) : 0;

	om_printf(b, "%llu.%06llu", micro / 1000000, micro % 1000000);
}

static void put_enabled(struct om_buf *b, const struct openmetrics_count *c)
{
	om_put_seconds(b, c->ena);
}

static void put_running(struct om_buf *b, const struct openmetrics_count *c)
{
	om_put_seconds(b, c->run);
}

static const struct om_family {
	/* [om] the MetricFamily's name: a counter's without "_total" */
	const char *name;
	bool counter;
	/* [om] "the unit MUST be a suffix of the MetricFamily name", NULL: none */
	const char *unit;
	const char *help;
	void (*value)(struct om_buf *b, const struct openmetrics_count *c);
} om_families[] = {
	{ "container_perf_events", true, NULL,
	  "Perf event count, summed over CPUs and scaled by time enabled / time running as perf stat scales it.",
	  put_count },
	{ "container_perf_events_scaling_ratio", false, NULL,
	  "Perf event time running / time enabled, summed over CPUs: below 1 the count is estimated.",
	  put_ratio },
	{ "perfx_perf_events_time_enabled_seconds", true, "seconds",
	  "Time the perf event was enabled, summed over CPUs.",
	  put_enabled },
	{ "perfx_perf_events_time_running_seconds", true, "seconds",
	  "Time the perf event was counting on the PMU, summed over CPUs.",
	  put_running },
};

/*
 * [text] "# HELP metric_name docstring", "# TYPE metric_name type",
 * where a counter's metric_name is its samples' (with "_total"); only
 * one TYPE line per metric, before its first sample.
 * [om] "# TYPE", "# UNIT", "# HELP" name the MetricFamily; "Counters
 * ... MUST have the suffix _total" in their samples' names, which the
 * family's name does not carry; UNIT and HELP are optional.
 */
static void om_put_metadata(struct om_buf *b, const struct om_family *f,
			    enum openmetrics_format fmt)
{
	const char *total = f->counter && fmt == OPENMETRICS_TEXT_0_0_4 ? "_total" : "";

	om_printf(b, "# HELP %s%s ", f->name, total);
	om_put_escaped(b, f->help, fmt == OPENMETRICS_1_0_0);
	om_printf(b, "\n# TYPE %s%s %s\n", f->name, total, f->counter ? "counter" : "gauge");
	if (f->unit && fmt == OPENMETRICS_1_0_0)
		om_printf(b, "# UNIT %s %s\n", f->name, f->unit);
}

/*
 * [text] metric_name [ "{" label_name "=" `"` label_value `"` { ","
 * label_name "=" `"` label_value `"` } [ "," ] "}" ] value [ timestamp ].
 * [om] the same without the trailing comma; both: no timestamp here,
 * the scrape's time is the sample's.  Labels in client_golang's order
 * (sorted by name), as cAdvisor's output has them; cpu is empty as in
 * cAdvisor's aggregated perf metrics: the counts are summed over CPUs.
 * id is the cgroup's path from the cgroup2 root, as cAdvisor's id.
 */
static void om_put_sample(struct om_buf *b, const struct om_family *f,
			  const struct openmetrics_count *c)
{
	const char *cg = c->cgroup + strspn(c->cgroup, "/");

	om_printf(b, "%s%s{cpu=\"\",event=\"", f->name, f->counter ? "_total" : "");
	om_put_escaped(b, c->event, true);
	om_puts(b, "\",id=\"/");
	om_put_escaped(b, cg, true);
	om_puts(b, "\"} ");
	f->value(b, c);
	om_puts(b, "\n");
}

size_t openmetrics__render(const struct openmetrics_count *counts, int nr,
			   enum openmetrics_format fmt, char *buf, size_t size)
{
	struct om_buf b = { buf, size, 0 };
	size_t i;
	int k;

	/*
	 * [text] "All lines for a given metric must be provided as one single
	 * group"; [om] "MetricFamilies MUST NOT be interleaved": family by
	 * family, each in the callers' order (cgroup-major, as perfx stat).
	 */
	for (i = 0; i < ARRAY_SIZE(om_families); i++) {
		om_put_metadata(&b, &om_families[i], fmt);
		for (k = 0; k < nr; k++)
			om_put_sample(&b, &om_families[i], &counts[k]);
	}
	/* [om] "The exposition MUST end with an EOF": "# EOF" and a line feed */
	if (fmt == OPENMETRICS_1_0_0)
		om_puts(&b, "# EOF\n");
	if (size)
		buf[b.len < size ? b.len : size - 1] = '\0';
	return b.len;
}

const char *openmetrics__content_type(enum openmetrics_format fmt)
{
	return fmt == OPENMETRICS_1_0_0 ? "application/openmetrics-text; version=1.0.0; charset=utf-8" :
					  "text/plain; version=0.0.4; charset=utf-8";
}

/* [http] tchar: "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA */
static size_t http_token(const char *s)
{
	return strspn(s, "!#$%&'*+-.^_`|~0123456789"
			 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
}

/* [http] OWS = *( SP / HTAB ) */
static const char *http_ows(const char *s)
{
	return s + strspn(s, " \t");
}

/*
 * [http] qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] ), in
 * thousandths; -1 for anything else.
 */
static int http_qvalue(const char *s, size_t len)
{
	int q = 0, scale = 1000;
	size_t i;

	if (!len || (s[0] != '0' && s[0] != '1') || len == 2 || len > 5 ||
	    (len > 1 && s[1] != '.'))
		return -1;
	for (i = 2; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		scale /= 10;
		q += (s[i] - '0') * scale;
	}
	if (s[0] == '1')
		return q ? -1 : 1000;
	return q;
}

/* One media range of an Accept header: what the chooser needs of it */
struct media_range {
	const char *type, *subtype, *version;
	size_t type_len, subtype_len, version_len;
	int q;
};

/*
 * [http] media-range = ( "*" "/" "*" / type "/" "*" / type "/" subtype )
 * parameters, parameters = *( OWS ";" OWS [ parameter ] ), parameter =
 * name "=" ( token / quoted-string ), weight = OWS ";" OWS "q=" qvalue.
 * Parses the range at @s into @r; returns where the next one starts
 * (past its ','), or NULL at the end.  A range that breaks the grammar
 * gets q = -1: it is skipped, as if it was not there.
 */
static const char *media_range__parse(const char *s, struct media_range *r)
{
	memset(r, 0, sizeof(*r));
	r->q = 1000;
	s = http_ows(s);
	r->type = s;
	r->type_len = http_token(s);
	s += r->type_len;
	if (*s != '/' || !r->type_len)
		goto bad;
	r->subtype = ++s;
	r->subtype_len = http_token(s);
	s += r->subtype_len;
	if (!r->subtype_len)
		goto bad;
	for (s = http_ows(s); *s == ';'; s = http_ows(s)) {
		const char *name = http_ows(s + 1), *val;
		size_t name_len = http_token(name), val_len;

		s = name + name_len;
		if (!name_len)		/* "parameters" may be empty */
			continue;
		if (*s++ != '=')
			goto bad;
		if (*s == '"') {
			/* quoted-string: DQUOTE *( qdtext / quoted-pair ) DQUOTE */
			val = ++s;
			while (*s && *s != '"')
				s += s[0] == '\\' && s[1] ? 2 : 1;
			if (*s != '"')
				goto bad;
			val_len = s++ - val;
		} else {
			val = s;
			val_len = http_token(s);
			s += val_len;
		}
		if (name_len == 1 && (*name == 'q' || *name == 'Q')) {
			r->q = http_qvalue(val, val_len);
			if (r->q < 0)
				goto bad;
		} else if (name_len == 7 && !strncasecmp(name, "version", 7)) {
			r->version = val;
			r->version_len = val_len;
		}
	}
	if (*s == ',')
		return s + 1;
	if (!*s)
		return NULL;
bad:
	r->q = -1;
	s = strchr(s, ',');
	return s ? s + 1 : NULL;
}

static bool media_range__is(const struct media_range *r, const char *type, const char *subtype)
{
	return r->type_len == strlen(type) && !strncasecmp(r->type, type, r->type_len) &&
	       r->subtype_len == strlen(subtype) && !strncasecmp(r->subtype, subtype, r->subtype_len);
}

/*
 * How specifically @r names @fmt: -1 not at all, 0 "*" "/" "*", 1
 * type "/" "*", 2 type "/" subtype, 3 with the format's version.  A version
 * parameter other than the format's does not name it: we serve
 * OpenMetrics 1.0.0, not 0.0.1, and text 0.0.4, not 1.0.0.
 */
static int media_range__match(const struct media_range *r, enum openmetrics_format fmt)
{
	const char *type = fmt == OPENMETRICS_1_0_0 ? "application" : "text";
	const char *subtype = fmt == OPENMETRICS_1_0_0 ? "openmetrics-text" : "plain";
	const char *version = fmt == OPENMETRICS_1_0_0 ? "1.0.0" : "0.0.4";

	if (media_range__is(r, "*", "*"))
		return fmt == OPENMETRICS_TEXT_0_0_4 ? 0 : -1;
	if (media_range__is(r, type, "*"))
		return 1;
	if (!media_range__is(r, type, subtype))
		return -1;
	if (!r->version)
		return 2;
	if (r->version_len == strlen(version) && !strncmp(r->version, version, r->version_len))
		return 3;
	return -1;
}

/*
 * [http] "Media ranges can be overridden by more specific media ranges
 * or specific media types.  If more than one media range applies to a
 * given type, the most specific reference has precedence"; "a value of
 * 0 means not acceptable".  Each format takes the quality of the most
 * specific range naming it (the first of equals); the higher quality
 * wins, a tie goes to the one named first, and with neither acceptable
 * (no header, garbage, q=0) the text format, as client_golang answers.
 * "*" "/" "*" names the text format only: a scraper that does not ask
 * for OpenMetrics gets the format every scraper reads.
 */
enum openmetrics_format openmetrics__negotiate(const char *accept)
{
	struct best {
		int spec, q, pos;
	} best[2] = { { -1, 0, 0 }, { -1, 0, 0 } };
	struct media_range r;
	const char *s = accept;
	int pos = 0, f;

	while (s && *s) {
		s = media_range__parse(s, &r);
		pos++;
		if (r.q < 0)
			continue;
		for (f = 0; f < 2; f++) {
			int spec = media_range__match(&r, f);

			if (spec > best[f].spec)
				best[f] = (struct best){ spec, r.q, pos };
		}
	}
	if (best[OPENMETRICS_1_0_0].q > best[OPENMETRICS_TEXT_0_0_4].q ||
	    (best[OPENMETRICS_1_0_0].q && best[OPENMETRICS_1_0_0].q == best[OPENMETRICS_TEXT_0_0_4].q &&
	     best[OPENMETRICS_1_0_0].pos < best[OPENMETRICS_TEXT_0_0_4].pos))
		return OPENMETRICS_1_0_0;
	return OPENMETRICS_TEXT_0_0_4;
}
