// SPDX-License-Identifier: GPL-2.0
/*
 * Which DSO a sample hit: each process's maps and the kernel's, as the
 * MMAP, MMAP2 and FORK records of the stream build them.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <linux/perf_event.h>

#include "machine.h"

/* the inode of @pid's mount namespace ("self" for 0), or 0 if it is gone */
static __u64 mntns_of(__u32 pid)
{
	char path[32];
	struct stat st;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%u/ns/mnt", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/ns/mnt");
	return stat(path, &st) ? 0 : st.st_ino;
}

int machine__init(struct machine *m)
{
	memset(m, 0, sizeof(*m));
	m->mntns = mntns_of(0);
	return dsos__init(&m->dsos);
}

void machine__exit(struct machine *m)
{
	int i;

	for (i = 0; i < m->nr_procs; i++)
		free(m->procs[i].maps.v);
	free(m->procs);
	free(m->kernel.v);
	dsos__exit(&m->dsos);
	memset(m, 0, sizeof(*m));
}

/*
 * A map [start, end) hides whole stays for the samples older than the
 * new one that come after it (another CPU's buffer); one hidden a second
 * time is dropped, so that a stream mapping the same ranges again and
 * again keeps a short list.
 */
static void maps__hide(struct maps *maps, __u64 start, __u64 end)
{
	int i, nr = 0;

	for (i = 0; i < maps->nr; i++) {
		struct map *map = &maps->v[i];

		if (map->start >= start && map->end <= end) {
			if (map->hidden)
				continue;
			map->hidden = true;
		}
		maps->v[nr++] = *map;
	}
	maps->nr = nr;
}

static int maps__add(struct maps *maps, __u64 start, __u64 len, __u64 time, struct dso *dso)
{
	__u64 end = start + len < start ? ~0ULL : start + len;

	maps__hide(maps, start, end);
	if (maps->nr == maps->alloc) {
		int alloc = maps->alloc ? 2 * maps->alloc : 16;
		struct map *v = realloc(maps->v, alloc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		maps->v = v;
		maps->alloc = alloc;
	}
	/* a length reaching past the top (the kernel's map) ends there */
	maps->v[maps->nr++] = (struct map){ start, end, time, dso, false };
	maps->last = maps->nr - 1;
	return 0;
}

static bool map__covers(const struct map *map, __u64 ip, __u64 time)
{
	return ip >= map->start && ip < map->end && map->time <= time;
}

static const struct map *maps__find(struct maps *maps, __u64 ip, __u64 time)
{
	int i, stop = -1;

	/* samples come in runs: only a newer map can hide the last hit */
	if (maps->nr && map__covers(&maps->v[maps->last], ip, time))
		stop = maps->last;
	for (i = maps->nr - 1; i > stop; i--)
		if (map__covers(&maps->v[i], ip, time))
			break;
	if (i < 0)
		return NULL;
	maps->last = i;
	return &maps->v[i];
}

/* the index of @pid in procs, or where it would go (as -index - 1) */
static int machine__proc_index(const struct machine *m, __u32 pid)
{
	int lo = 0, hi = m->nr_procs;

	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (m->procs[mid].pid == pid)
			return mid;
		if (m->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -lo - 1;
}

static struct thread_maps *machine__findnew_proc(struct machine *m, __u32 pid)
{
	int i = machine__proc_index(m, pid);

	if (i >= 0)
		return &m->procs[i];
	i = -i - 1;
	if (m->nr_procs == m->alloc_procs) {
		int alloc = m->alloc_procs ? 2 * m->alloc_procs : 64;
		struct thread_maps *v = realloc(m->procs, alloc * sizeof(*v));

		if (!v)
			return NULL;
		m->procs = v;
		m->alloc_procs = alloc;
	}
	memmove(&m->procs[i + 1], &m->procs[i], (m->nr_procs - i) * sizeof(*m->procs));
	/* a live process in a container: its files are not ours (perf's nsinfo) */
	m->procs[i] = (struct thread_maps){ .pid = pid, .mntns = mntns_of(pid) };
	if (m->procs[i].mntns == m->mntns)
		m->procs[i].mntns = 0;
	m->nr_procs++;
	return &m->procs[i];
}

int machine__add_map(struct machine *m, __u16 cpumode, __u32 pid, __u64 start, __u64 len,
		     __u64 time, const char *name, size_t name_len, struct dso **dso)
{
	struct thread_maps *proc = NULL;
	struct maps *maps;
	int err;

	*dso = NULL;
	if (cpumode == PERF_RECORD_MISC_KERNEL) {
		maps = &m->kernel;
		if (!strncmp(name, DSO_KERNEL_NAME, strlen(DSO_KERNEL_NAME)))
			name_len = strlen(DSO_KERNEL_NAME);
	} else if (cpumode == PERF_RECORD_MISC_USER) {
		proc = machine__findnew_proc(m, pid);
		if (!proc)
			return -ENOMEM;
		maps = &proc->maps;
	} else {
		return 0;	/* guests and the hypervisor: no DSOs of ours */
	}
	err = dsos__findnew_ns(&m->dsos, name, name_len, proc ? proc->mntns : 0, pid, dso);
	return err ? err : maps__add(maps, start, len, time, *dso);
}

/* @src's maps made at or before @time (@before), or after it */
static int maps__copy(struct maps *dst, const struct maps *src, __u64 time, bool before)
{
	int i, err = 0;

	for (i = 0; i < src->nr && !err; i++) {
		const struct map *map = &src->v[i];

		if ((map->time <= time) == before)
			err = maps__add(dst, map->start, map->end - map->start, map->time, map->dso);
	}
	return err;
}

int machine__fork(struct machine *m, __u32 pid, __u32 ppid, __u64 time)
{
	struct maps maps = { 0 }, *child;
	struct thread_maps *proc;
	int err;

	if (pid == ppid || machine__proc_index(m, ppid) < 0)
		return 0;
	proc = machine__findnew_proc(m, pid);
	if (!proc)
		return -ENOMEM;
	child = &proc->maps;
	/* findnew may have moved the parent */
	err = maps__copy(&maps, &m->procs[machine__proc_index(m, ppid)].maps, time, true);
	if (!err)
		err = maps__copy(&maps, child, time, false);
	if (err) {
		free(maps.v);
		return err;
	}
	free(child->v);
	*child = maps;
	return 0;
}

const struct map *machine__find_map(struct machine *m, __u16 cpumode, __u32 pid, __u64 ip,
				    __u64 time)
{
	int i;

	if (cpumode == PERF_RECORD_MISC_KERNEL)
		return maps__find(&m->kernel, ip, time);
	if (cpumode != PERF_RECORD_MISC_USER)
		return NULL;
	i = machine__proc_index(m, pid);
	return i >= 0 ? maps__find(&m->procs[i].maps, ip, time) : NULL;
}
