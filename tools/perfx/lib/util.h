/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_UTIL_H
#define __PERFX_UTIL_H

#include <errno.h>
#include <linux/types.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define ARRAY_SIZE(x)	(sizeof(x) / sizeof((x)[0]))

/* The structure of type @type whose member @member @ptr points to */
#ifndef container_of
#define container_of(ptr, type, member)	\
	((type *)((char *)(ptr) - offsetof(type, member)))
#endif

#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif

#ifndef __maybe_unused
#define __maybe_unused	__attribute__((unused))
#endif

/*
 * @p, an array of *@alloc elements of @size, with room for @nr: grown by
 * half again (at least 16), so that a list that changes by one element
 * at a time is reallocated rarely and its old blocks do not fragment the
 * heap.  An *@alloc below the real size (0 for an array allocated
 * elsewhere) only costs a realloc().  NULL without memory, @p then
 * unchanged.
 */
static inline void *perfx__grow(void *p, size_t *alloc, size_t nr, size_t size)
{
	size_t n = *alloc + *alloc / 2;

	if (nr <= *alloc)
		return p;
	if (n < nr)
		n = nr;
	if (n < 16)
		n = 16;
	if (n > SIZE_MAX / size)
		return NULL;
	p = realloc(p, n * size);
	if (p)
		*alloc = n;
	return p;
}

/*
 * All of @s as a number in @base (0: strtoull()'s 0x and 0 prefixes),
 * with no sign: -EINVAL when it is none, -ERANGE outside [@min, @max]
 */
static inline int perfx__parse_ull(const char *s, int base, unsigned long long min,
				   unsigned long long max, unsigned long long *v)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, base);
	if (end == s || *end)
		return -EINVAL;
	if (errno || *v < min || *v > max)
		return -ERANGE;
	return 0;
}

/* CLOCK_MONOTONIC in nanoseconds, for durations */
static inline __u64 perfx__now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

#endif /* __PERFX_UTIL_H */
