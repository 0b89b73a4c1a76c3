/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_CPUMAP_H
#define __PERFX_CPUMAP_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#define CPU_MAP__MAX_CPU	8192
#define CPU_MAP__ONLINE		"/sys/devices/system/cpu/online"
#define CPU_MAP__POSSIBLE	"/sys/devices/system/cpu/possible"

/* A sorted, duplicate-free list of CPU numbers; {-1} means "any CPU". */
struct cpu_map {
	int refcnt;
	int nr;
	int map[];
};

int cpu_map__parse(const char *list, struct cpu_map **mapp);
int cpu_map__new_online(struct cpu_map **mapp);
int cpu_map__new_online_from(const char *path, struct cpu_map **mapp);
struct cpu_map *cpu_map__new_any(void);
struct cpu_map *cpu_map__get(struct cpu_map *map);
void cpu_map__put(struct cpu_map *map);
/* The CPUs of @map that @set lacks, in a new map (maybe empty). */
int cpu_map__missing(const struct cpu_map *map, const struct cpu_map *set,
		     struct cpu_map **outp);
int cpu_map__snprint(const struct cpu_map *map, char *buf, size_t size);
int cpu_map__idx(const struct cpu_map *map, int cpu);

/*
 * How many CPUs the machine may ever have (the kernel's nr_cpu_ids): the
 * highest CPU of the list in @path (CPU_MAP__POSSIBLE) + 1.
 */
int cpu_map__nr_possible_from(const char *path, int *nr);

/*
 * A set of CPUs for a sched_{get,set}affinity() call on any machine:
 * glibc's cpu_set_t holds 1024 CPUs, and the kernel refuses a smaller
 * set than its nr_cpu_ids.  Sized with CPU_ALLOC() for the possible
 * CPUs (at least CPU_SETSIZE); sets made by cpu_mask__new() share a
 * size, which equal, and and copy rely on.
 */
struct cpu_mask {
	cpu_set_t	*bits;
	size_t		size;		/* CPU_ALLOC_SIZE() */
	int		nr;		/* CPUs it has room for */
};

/* Empty, for @nr CPUs; @nr 0: the possible CPUs of this machine */
int cpu_mask__init(struct cpu_mask *m, int nr);
void cpu_mask__exit(struct cpu_mask *m);
void cpu_mask__set(struct cpu_mask *m, int cpu);	/* out of room: ignored */
bool cpu_mask__isset(const struct cpu_mask *m, int cpu);
int cpu_mask__count(const struct cpu_mask *m);
bool cpu_mask__equal(const struct cpu_mask *a, const struct cpu_mask *b);
void cpu_mask__and(struct cpu_mask *dst, const struct cpu_mask *src);
void cpu_mask__copy(struct cpu_mask *dst, const struct cpu_mask *src);
/* The calling thread's CPUs; -errno of sched_getaffinity() */
int cpu_mask__get_affinity(struct cpu_mask *m);
/* Moves the calling thread; -errno of sched_setaffinity() */
int cpu_mask__set_affinity(const struct cpu_mask *m);

#endif /* __PERFX_CPUMAP_H */
