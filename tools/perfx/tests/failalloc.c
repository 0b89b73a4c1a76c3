// SPDX-License-Identifier: GPL-2.0
/*
 * failalloc.so - LD_PRELOAD shim that makes one allocation fail, so that a
 * test can walk every allocation of a run and see what perfx does when
 * each in turn fails: a message and a non-zero exit, or success; never
 * silence or a crash.
 *
 *   FAILALLOC_NTH=N   the N-th malloc/calloc/realloc returns NULL (ENOMEM)
 *   FAILALLOC_COUNT=1 at exit, "failalloc: N allocations" on stderr
 *
 * Only the process it is loaded into counts: LD_PRELOAD is dropped from
 * the environment so that the commands perfx runs do not fail instead.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

void *__libc_malloc(size_t size);
void *__libc_calloc(size_t nmemb, size_t size);
void *__libc_realloc(void *ptr, size_t size);

static unsigned long nr_allocs, fail_nth;
static int report;

__attribute__((constructor)) static void failalloc_init(void)
{
	const char *nth = getenv("FAILALLOC_NTH");

	fail_nth = nth ? strtoul(nth, NULL, 10) : 0;
	report = !!getenv("FAILALLOC_COUNT");
	unsetenv("LD_PRELOAD");
}

__attribute__((destructor)) static void failalloc_exit(void)
{
	if (report)
		fprintf(stderr, "failalloc: %lu allocations\n", nr_allocs);
}

static int fail_now(void)
{
	if (++nr_allocs != fail_nth)
		return 0;
	errno = ENOMEM;
	return 1;
}

void *malloc(size_t size)
{
	return fail_now() ? NULL : __libc_malloc(size);
}

void *calloc(size_t nmemb, size_t size)
{
	return fail_now() ? NULL : __libc_calloc(nmemb, size);
}

void *realloc(void *ptr, size_t size)
{
	return fail_now() ? NULL : __libc_realloc(ptr, size);
}
