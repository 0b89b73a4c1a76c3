/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - TAP-ish output for perfx's host unit tests: one "ok N - what" or
 * "not ok N - what" line per check, "ok N - what # SKIP why" for a check
 * that cannot run; tests/run-tests.sh counts them.
 */
#ifndef __PERFX_TAP_H
#define __PERFX_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_nr, tap_failed;
static const char *tap_suite = "test";

static inline void tap_start(const char *suite)
{
	tap_suite = suite;
}

static inline int tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - %s: ", cond ? "" : "not ", ++tap_nr, tap_suite);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	return cond;
}

static inline void tap_skip(const char *what, const char *why)
{
	printf("ok %d - %s: %s # SKIP %s\n", ++tap_nr, tap_suite, what, why);
}

static inline int tap_str_eq(const char *got, const char *want, const char *what)
{
	int ok = got && want && !strcmp(got, want);

	tap_ok(ok, "%s", what);
	if (!ok)
		printf("#   got:  '%s'\n#   want: '%s'\n", got ? got : "(null)",
		       want ? want : "(null)");
	return ok;
}

static inline int tap_done(void)
{
	fflush(stdout);
	return tap_failed ? 1 : 0;
}

#endif /* __PERFX_TAP_H */
