// SPDX-License-Identifier: GPL-2.0
/* the tasks to follow: -p PID (all its threads), -t TID. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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

/* A positive decimal id that fits a pid_t, up to @endp; -EINVAL otherwise. */
static int parse_id(const char *s, const char **endp, pid_t *id)
{
	long v = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s++ - '0');
		if (v > INT_MAX)
			return -EINVAL;
	}
	if (!v)
		return -EINVAL;
	*endp = s;
	*id = (pid_t)v;
	return 0;
}

/*
 * Every thread of @pid, from procfs/PID/task: -ESRCH when there is no such
 * process or it has no threads left, -EINVAL for an entry that is not a
 * thread id (what /proc never holds).
 */
static int thread_map__add_tasks(struct thread_map **mapp, pid_t pid,
				 const char *procfs)
{
	int err = 0, added = 0;
	char path[PATH_MAX];
	struct dirent *d;
	const char *end;
	pid_t tid;
	DIR *dir;

	if (snprintf(path, sizeof(path), "%s/%d/task", procfs, pid) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!err && (d = readdir(dir))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		if (parse_id(d->d_name, &end, &tid) || *end) {
			err = -EINVAL;
			break;
		}
		err = thread_map__add(mapp, tid);
		added++;
	}
	closedir(dir);
	if (!err && !added)
		err = -ESRCH;
	return err;
}

/*
 * Parse a comma separated list of pids (all_threads: every thread of each,
 * as -p does) or tids (-t): positive decimal ids below 2^31, no blanks,
 * no empty items.  -EINVAL for a malformed list (or a procfs task entry
 * that is not an id), -ESRCH for a process that does not exist.  @procfs
 * NULL is /proc.
 */
int thread_map__parse(const char *list, int all_threads, const char *procfs,
		      struct thread_map **mapp)
{
	struct thread_map *map = NULL;
	const char *s = list;
	int err = -EINVAL;

	if (!procfs)
		procfs = "/proc";
	if (!s || !*s)
		goto out_err;
	for (;;) {
		char path[PATH_MAX];
		const char *end;
		pid_t v;

		if (parse_id(s, &end, &v) || (*end && *end != ','))
			goto out_err;
		if (all_threads) {
			err = thread_map__add_tasks(&map, v, procfs);
		} else if (snprintf(path, sizeof(path), "%s/%d", procfs, v) >=
			   (int)sizeof(path)) {
			err = -ENAMETOOLONG;
		} else {
			err = access(path, F_OK) ? -ESRCH : thread_map__add(&map, v);
		}
		if (err)
			goto out_err;
		err = -EINVAL;
		if (!*end)
			break;
		s = end + 1;	/* "1," is malformed: an id must follow */
	}
	*mapp = map;
	return 0;

out_err:
	free(map);
	return err;
}

/* Is @tid running or sleeping, not gone or a zombie?  From procfs/TID/stat. */
static bool task_alive(const char *procfs, pid_t tid)
{
	char path[PATH_MAX], buf[512], *rparen;
	ssize_t n;
	int fd;

	if (snprintf(path, sizeof(path), "%s/%d/stat", procfs, tid) >= (int)sizeof(path))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* "tid (comm) S ...": comm may hold ") " itself */
	rparen = strrchr(buf, ')');
	return rparen && rparen[1] == ' ' && rparen[2] != 'Z' && rparen[2] != 'X';
}

bool thread_map__alive(const struct thread_map *map, const char *procfs)
{
	int i;

	if (!procfs)
		procfs = "/proc";
	for (i = 0; i < map->nr; i++)
		if (map->map[i] == -1 || task_alive(procfs, map->map[i]))
			return true;
	return false;
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
