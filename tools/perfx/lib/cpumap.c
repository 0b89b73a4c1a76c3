// SPDX-License-Identifier: GPL-2.0
/* parse CPU lists ("0-3,6"), read the online CPUs; CPU sets of any size. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpumap.h"
#include "sysfs.h"

static struct cpu_map *cpu_map__alloc(int nr)
{
	struct cpu_map *map = calloc(1, sizeof(*map) + nr * sizeof(int));

	if (map) {
		map->refcnt = 1;
		map->nr = nr;
	}
	return map;
}

struct cpu_map *cpu_map__new_any(void)
{
	struct cpu_map *map = cpu_map__alloc(1);

	if (map)
		map->map[0] = -1;
	return map;
}

static int parse_num(const char **sp, int *val)
{
	const char *s = *sp;
	long v = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s++ - '0');
		if (v >= CPU_MAP__MAX_CPU)
			return -ERANGE;
	}
	*val = (int)v;
	*sp = s;
	return 0;
}

/*
 * Parse "N", "N-M" and comma separated lists of them, as the kernel prints
 * them in /sys/devices/system/cpu/online.  A trailing newline is accepted;
 * anything else that is not a CPU number is -EINVAL, a number at or above
 * CPU_MAP__MAX_CPU is -ERANGE.
 */
int cpu_map__parse(const char *list, struct cpu_map **mapp)
{
	bool seen[CPU_MAP__MAX_CPU] = { false };
	struct cpu_map *map;
	const char *s = list;
	int nr = 0, i, err;

	if (!list)
		return -EINVAL;
	for (;;) {
		int lo, hi;

		err = parse_num(&s, &lo);
		if (err)
			return err;
		hi = lo;
		if (*s == '-') {
			s++;
			err = parse_num(&s, &hi);
			if (err)
				return err;
			if (hi < lo)
				return -EINVAL;
		}
		for (i = lo; i <= hi; i++) {
			if (!seen[i])
				nr++;
			seen[i] = true;
		}
		if (*s == ',') {
			s++;
			continue;
		}
		if (*s == '\n' && s[1] == '\0')
			break;
		if (*s == '\0')
			break;
		return -EINVAL;
	}
	map = cpu_map__alloc(nr);
	if (!map)
		return -ENOMEM;
	for (i = 0, nr = 0; i < CPU_MAP__MAX_CPU; i++)
		if (seen[i])
			map->map[nr++] = i;
	*mapp = map;
	return 0;
}

/*
 * The online file as one CPU list: -EFBIG when it does not fit the buffer
 * (a cut list would parse as fewer CPUs), -EINVAL for a NUL byte in it (a
 * string parser would stop there), -errno when it cannot be read.
 */
int cpu_map__new_online_from(const char *path, struct cpu_map **mapp)
{
	char buf[4096];
	int err = sysfs__read(path, buf, sizeof(buf));

	return err ? err : cpu_map__parse(buf, mapp);
}

int cpu_map__new_online(struct cpu_map **mapp)
{
	return cpu_map__new_online_from(CPU_MAP__ONLINE, mapp);
}

struct cpu_map *cpu_map__get(struct cpu_map *map)
{
	if (map)
		map->refcnt++;
	return map;
}

void cpu_map__put(struct cpu_map *map)
{
	if (map && --map->refcnt == 0)
		free(map);
}

int cpu_map__idx(const struct cpu_map *map, int cpu)
{
	int i;

	for (i = 0; i < map->nr; i++)
		if (map->map[i] == cpu)
			return i;
	return -ENOENT;
}

/* Print as ranges: "0-3,6".  Returns the length, or -ENOSPC. */
int cpu_map__missing(const struct cpu_map *map, const struct cpu_map *set,
		      struct cpu_map **outp)
{
	struct cpu_map *out = cpu_map__alloc(map->nr);
	int i;

	if (!out)
		return -ENOMEM;
	out->nr = 0;
	for (i = 0; i < map->nr; i++)
		if (cpu_map__idx(set, map->map[i]) < 0)
			out->map[out->nr++] = map->map[i];
	*outp = out;
	return 0;
}

int cpu_map__snprint(const struct cpu_map *map, char *buf, size_t size)
{
	size_t len = 0;
	int i, n;

	buf[0] = '\0';
	for (i = 0; i < map->nr; i++) {
		int start = i;

		while (i + 1 < map->nr && map->map[i + 1] == map->map[i] + 1)
			i++;
		if (start == i)
			n = snprintf(buf + len, size - len, "%s%d", len ? "," : "",
				     map->map[i]);
		else
			n = snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "",
				     map->map[start], map->map[i]);
		if (n < 0 || (size_t)n >= size - len)
			return -ENOSPC;
		len += n;
	}
	return (int)len;
}

int cpu_map__nr_possible_from(const char *path, int *nr)
{
	struct cpu_map *map;
	int err;

	err = cpu_map__new_online_from(path, &map);
	if (err)
		return err;
	*nr = map->nr ? map->map[map->nr - 1] + 1 : 0;
	cpu_map__put(map);
	return *nr ? 0 : -EINVAL;
}

int cpu_mask__init(struct cpu_mask *m, int nr)
{
	if (!nr && cpu_map__nr_possible_from(CPU_MAP__POSSIBLE, &nr))
		nr = CPU_SETSIZE;
	if (nr < CPU_SETSIZE)
		nr = CPU_SETSIZE;
	m->bits = CPU_ALLOC(nr);
	if (!m->bits)
		return -ENOMEM;
	m->size = CPU_ALLOC_SIZE(nr);
	m->nr = m->size * 8;
	CPU_ZERO_S(m->size, m->bits);
	return 0;
}

void cpu_mask__exit(struct cpu_mask *m)
{
	if (m->bits)
		CPU_FREE(m->bits);
	m->bits = NULL;
	m->size = 0;
	m->nr = 0;
}

void cpu_mask__set(struct cpu_mask *m, int cpu)
{
	if (cpu >= 0 && cpu < m->nr)
		CPU_SET_S(cpu, m->size, m->bits);
}

bool cpu_mask__isset(const struct cpu_mask *m, int cpu)
{
	return cpu >= 0 && cpu < m->nr && CPU_ISSET_S(cpu, m->size, m->bits);
}

int cpu_mask__count(const struct cpu_mask *m)
{
	return CPU_COUNT_S(m->size, m->bits);
}

bool cpu_mask__equal(const struct cpu_mask *a, const struct cpu_mask *b)
{
	return a->size == b->size && CPU_EQUAL_S(a->size, a->bits, b->bits);
}

void cpu_mask__and(struct cpu_mask *dst, const struct cpu_mask *src)
{
	CPU_AND_S(dst->size, dst->bits, dst->bits, src->bits);
}

void cpu_mask__copy(struct cpu_mask *dst, const struct cpu_mask *src)
{
	memcpy(dst->bits, src->bits, dst->size);
}

int cpu_mask__get_affinity(struct cpu_mask *m)
{
	return sched_getaffinity(0, m->size, m->bits) ? -errno : 0;
}

int cpu_mask__set_affinity(const struct cpu_mask *m)
{
	return sched_setaffinity(0, m->size, m->bits) ? -errno : 0;
}
