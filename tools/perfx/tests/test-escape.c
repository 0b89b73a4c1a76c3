// SPDX-License-Identifier: GPL-2.0
/*
 * Proves how outside strings are written: JSON strings valid for any
 * bytes (quotes, backslashes, control characters, bytes that are not
 * UTF-8, while real UTF-8 passes), CSV fields quoted only when they must
 * be, and messages whose arguments' control characters are \xNN, not
 * the format's own newlines.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>

#include "lib/escape.h"
#include "tests/tap.h"

static char *render(void (*fn)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, s);
	fclose(f);
	return buf;
}

static void json(FILE *f, const char *s)
{
	escape__fputs_json(f, s);
}

static const char *csv_sep;

static void csv(FILE *f, const char *s)
{
	escape__fputs_csv(f, s, csv_sep);
}

static void msg(FILE *f, const char *s)
{
	escape__fprintf(f, "cgroup '%s': gone\n", s);
}

/* the format's newlines and every kind of conversion, beside an outside name */
static void msg_mixed(FILE *f, const char *s)
{
	escape__fprintf(f, "Error:\n%s [%*s|%-3d|%5.2f|%llu|%zu|%c|%%|%.2s]\n", s, 4, "ab", -7,
			3.14159, 1ULL << 40, (size_t)42, '\t', "xyz");
}

static void expect(void (*fn)(FILE *, const char *), const char *in, const char *want,
		   const char *what)
{
	char *got = render(fn, in);

	tap_str_eq(got, want, what);
	free(got);
}

int main(void)
{
	tap_start("escape");
	expect(json, "plain-name_1", "plain-name_1", "json: a plain name as it is");
	expect(json, "a\"b\\c", "a\\\"b\\\\c", "json: quote and backslash escaped");
	expect(json, "t\tn\n\x01\x7f", "t\\u0009n\\u000a\\u0001\\u007f",
	       "json: control characters as \\u00XX");
	expect(json, "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac",
	       "json: UTF-8 passes");
	expect(json, "x\xff\xc3(\xe0\x80\x80", "x\\u00ff\\u00c3(\\u00e0\\u0080\\u0080",
	       "json: bytes that are not UTF-8 (stray, cut, overlong) as \\u00XX");
	expect(json, "\xed\xa0\x80", "\\u00ed\\u00a0\\u0080", "json: a surrogate is not UTF-8");
	csv_sep = ",";
	expect(csv, "A", "A", "csv: a plain field as it is, as perf");
	expect(csv, "a,b", "\"a,b\"", "csv: a field holding the separator is quoted");
	expect(csv, "a\"b", "\"a\"\"b\"", "csv: a quote is doubled inside quotes");
	expect(csv, "a\nb", "\"a\\x0ab\"", "csv: a control character is quoted, as \\xNN");
	csv_sep = "::";
	expect(csv, "a:b", "a:b", "csv: half a two-character separator is not one");
	expect(csv, "a::b", "\"a::b\"", "csv: a two-character separator is");
	expect(msg, "A\x1b[2J\n", "cgroup 'A\\x1b[2J\\x0a': gone\n",
	       "message: control characters as \\xNN, the final newline kept");
	expect(msg_mixed, "a\nb",
	       "Error:\na\\x0ab [  ab|-7 | 3.14|1099511627776|42|\\x09|%|xy]\n",
	       "message: the format's newlines print, its arguments' are \\xNN");
	return tap_done();
}
