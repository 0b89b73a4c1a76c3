// SPDX-License-Identifier: GPL-2.0
/* the tasks to follow: -p PID (all its threads), -t TID. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "threadmap.h"

static struct thread_map *thread_map__alloc(int nr)
{
	struct thread_map *map = calloc(1, sizeof(*map) + nr * sizeof(pid_t));

	if (map) {
		map->refcnt = 1;
		map->nr = nr;
	}
	return map;
}

struct thread_map *thread_map__new_any(void)
{
	struct thread_map *map = thread_map__alloc(1);

	if (map)
		map->map[0] = -1;
	return map;
}

int thread_map__new_pid(pid_t pid, struct thread_map **mapp)
{
	struct thread_map *map = thread_map__alloc(1);

	if (!map)
		return -ENOMEM;
	map->map[0] = pid;
	*mapp = map;
	return 0;
}

static int thread_map__add(struct thread_map **mapp, pid_t tid)
{
	struct thread_map *map = *mapp, *n;
	int nr = map ? map->nr : 0, i;

	for (i = 0; i < nr; i++)
		if (map->map[i] == tid)
			return 0;
	n = realloc(map, sizeof(*map) + (nr + 1) * sizeof(pid_t));
	if (!n)
		return -ENOMEM;
	n->refcnt = 1;
	n->nr = nr + 1;
	n->map[nr] = tid;
	*mapp = n;
	return 0;
}

static int thread_map__add_tasks(struct thread_map **mapp, pid_t pid,
				 const char *procfs)
{
	char path[PATH_MAX];
	struct dirent *d;
	int err = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/%d/task", procfs, pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!err && (d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		err = thread_map__add(mapp, (pid_t)atoi(d->d_name));
	}
	closedir(dir);
	return err;
}

/*
 * Parse a comma separated list of pids (all_threads: every thread of each,
 * as -p does) or tids (-t).  -EINVAL for a malformed list, -ESRCH for a
 * process that does not exist.
 */
int thread_map__parse(const char *list, int all_threads, const char *procfs,
		      struct thread_map **mapp)
{
	struct thread_map *map = NULL;
	const char *s = list;
	int err = -EINVAL;

	if (!procfs)
		procfs = "/proc";
	while (s && *s) {
		char *end, path[PATH_MAX];
		long v;

		if (!isdigit((unsigned char)*s))
			goto out_err;
		errno = 0;
		v = strtol(s, &end, 10);
		if (errno || v <= 0 || v > INT_MAX)
			goto out_err;
		if (*end && *end != ',')
			goto out_err;
		if (all_threads) {
			err = thread_map__add_tasks(&map, (pid_t)v, procfs);
		} else {
			snprintf(path, sizeof(path), "%s/%ld", procfs, v);
			err = access(path, F_OK) ? -ESRCH : thread_map__add(&map, (pid_t)v);
		}
		if (err)
			goto out_err;
		err = -EINVAL;
		s = *end ? end + 1 : end;
	}
	if (!map)
		goto out_err;
	*mapp = map;
	return 0;

out_err:
	free(map);
	return err;
}

struct thread_map *thread_map__get(struct thread_map *map)
{
	if (map)
		map->refcnt++;
	return map;
}

void thread_map__put(struct thread_map *map)
{
	if (map && --map->refcnt == 0)
		free(map);
}
