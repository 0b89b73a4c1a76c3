/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_CPUMAP_H
#define __PERFX_CPUMAP_H

#define CPU_MAP__MAX_CPU	8192
#define CPU_MAP__ONLINE		"/sys/devices/system/cpu/online"

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

#endif /* __PERFX_CPUMAP_H */
