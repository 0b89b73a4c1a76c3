/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_THREADMAP_H
#define __PERFX_THREADMAP_H

#include <stdbool.h>
#include <sys/types.h>

/* The tasks an event follows; {-1} means "any task" (CPU-wide events). */
struct thread_map {
	int refcnt;
	int nr;
	pid_t map[];
};

struct thread_map *thread_map__new_any(void);
int thread_map__new_pid(pid_t pid, struct thread_map **mapp);
int thread_map__parse(const char *list, int all_threads, const char *procfs,
		      struct thread_map **mapp);
/*
 * Is any task of @map still there (not gone, not a zombie)?  "Any task"
 * always is.  As perf stat -p/-t: counting ends when none is.
 */
bool thread_map__alive(const struct thread_map *map, const char *procfs);
struct thread_map *thread_map__get(struct thread_map *map);
void thread_map__put(struct thread_map *map);

#endif /* __PERFX_THREADMAP_H */
