// SPDX-License-Identifier: GPL-2.0
/*
 * The header features: one table of them all, as perf's feat_ops
 * (util/header.c), and the bodies of those that describe the recording
 * machine and the recording (the BPF programs loaded among them), in
 * perf's formats (its write_*() functions).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "cpumap.h"
#include "data.h"
#include "debug.h"
#include "event.h"
#include "feature.h"
#include "header.h"
#include "synthesize-bpf-progs.h"
#include "sysfs.h"
#include "util.h"

#define PMU_SYSFS	"/sys/bus/event_source/devices"
#define NODE_SYSFS	"/sys/devices/system/node"

static void feature_buf__grow(struct feature_buf *b, size_t len)
{
	size_t alloc = b->alloc ? b->alloc : 256;
	char *p;

	while (alloc < b->len + len)
		alloc *= 2;
	p = realloc(b->p, alloc);
	if (!p) {
		b->err = -ENOMEM;
		return;
	}
	b->p = p;
	b->alloc = alloc;
}

void feature_buf__write(struct feature_buf *b, const void *p, size_t len)
{
	if (!len)
		return;		/* @p may be an empty buffer's NULL */
	if (!b->err && b->len + len > b->alloc)
		feature_buf__grow(b, len);
	if (b->err)
		return;
	memcpy(b->p + b->len, p, len);
	b->len += len;
}

void feature_buf__u32(struct feature_buf *b, __u32 v)
{
	feature_buf__write(b, &v, sizeof(v));
}

void feature_buf__u64(struct feature_buf *b, __u64 v)
{
	feature_buf__write(b, &v, sizeof(v));
}

void feature_buf__string(struct feature_buf *b, const char *s)
{
	static const char zeros[NAME_ALIGN];
	__u32 len = strlen(s) + 1, padded = (len + NAME_ALIGN - 1) & ~(NAME_ALIGN - 1);

	feature_buf__u32(b, padded);
	feature_buf__write(b, s, len);
	feature_buf__write(b, zeros, padded - len);
}

/* appends @sub's bytes (or its error) to @b and frees it */
static void feature_buf__splice(struct feature_buf *b, struct feature_buf *sub)
{
	feature_buf__write(b, sub->p, sub->len);
	if (!b->err)
		b->err = sub->err;
	free(sub->p);
	memset(sub, 0, sizeof(*sub));
}

int feature_buf__commit(struct feature_buf *b, struct perfx_header *h, int id)
{
	int err = b->err;

	if (!err)
		err = perfx_header__set_feature(h, id, b->p, b->len);
	free(b->p);
	memset(b, 0, sizeof(*b));
	return err;
}

/* the string at @off in uname(2)'s struct utsname */
static int write_uname(struct feature_buf *b, size_t off)
{
	struct utsname u;

	if (uname(&u))
		return FEATURE_SKIP;
	feature_buf__string(b, (const char *)&u + off);
	return 0;
}

static int write_hostname(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	return write_uname(b, offsetof(struct utsname, nodename));
}

static int write_osrelease(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	return write_uname(b, offsetof(struct utsname, release));
}

static int write_arch(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	return write_uname(b, offsetof(struct utsname, machine));
}

static int write_version(struct feature_buf *b, const struct feature_env *env)
{
	feature_buf__string(b, env->version);
	return 0;
}

/* the highest CPU number in a list file, + 1 */
static int nr_cpus_in(const char *path)
{
	struct cpu_map *map;
	int nr;

	if (cpu_map__new_online_from(path, &map))
		return -1;
	nr = map->nr ? map->map[map->nr - 1] + 1 : 0;
	cpu_map__put(map);
	return nr;
}

static int write_nrcpus(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	int avail = nr_cpus_in("/sys/devices/system/cpu/present");
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (avail < 0 || online < 0)
		return FEATURE_SKIP;
	feature_buf__u32(b, avail);
	feature_buf__u32(b, online);
	return 0;
}

/* "model name : AMD  EPYC" as perf has it: "AMD EPYC" */
static int write_cpudesc(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	char *line = NULL, *s, *d;
	int ret = FEATURE_SKIP;
	size_t alloc = 0;
	FILE *f;

	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return FEATURE_SKIP;
	while (getline(&line, &alloc, f) > 0) {
		if (strncmp(line, "model name", 10) || !(s = strchr(line, ':')))
			continue;
		for (s++; isspace((unsigned char)*s); s++)
			;
		for (d = line; *s; s++)
			if (!isspace((unsigned char)*s) || (d > line && !isspace((unsigned char)d[-1])))
				*d++ = isspace((unsigned char)*s) ? ' ' : *s;
		while (d > line && d[-1] == ' ')
			d--;
		*d = '\0';
		feature_buf__string(b, line);
		ret = 0;
		break;
	}
	free(line);
	fclose(f);
	return ret;
}

/* perf's x86 get_cpuid(): "GenuineIntel,6,85,7" */
static int write_cpuid(struct feature_buf *fb, const struct feature_env *env __maybe_unused)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d, family, model;
	char vendor[13], buf[64];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return FEATURE_SKIP;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return FEATURE_SKIP;
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family >= 0x6)
		model += ((a >> 16) & 0xf) << 4;
	snprintf(buf, sizeof(buf), "%s,%u,%u,%u", vendor, family, model, a & 0xf);
	feature_buf__string(fb, buf);
	return 0;
#else
	(void)fb;
	return FEATURE_SKIP;
#endif
}

/* a "Name: N kB" line of a meminfo file */
static int meminfo_kb(const char *path, const char *name, __u64 *kb)
{
	char *line = NULL, *p;
	size_t alloc = 0;
	int err = -ENOENT;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (err && getline(&line, &alloc, f) > 0) {
		p = strstr(line, name);
		if (p && p[strlen(name)] == ':') {
			*kb = strtoull(p + strlen(name) + 1, NULL, 10);
			err = 0;
		}
	}
	free(line);
	fclose(f);
	return err;
}

static int write_total_mem(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	__u64 kb;

	if (meminfo_kb("/proc/meminfo", "MemTotal", &kb))
		return FEATURE_SKIP;
	feature_buf__u64(b, kb);
	return 0;
}

static int write_cmdline(struct feature_buf *b, const struct feature_env *env)
{
	char exe[PATH_MAX];
	ssize_t n;
	int i;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n < 0 ? 0 : n] = '\0';
	feature_buf__u32(b, env->argc + 1);
	feature_buf__string(b, exe);
	for (i = 0; i < env->argc; i++)
		feature_buf__string(b, env->argv[i]);
	return 0;
}

/* each distinct list of the CPUs' topology file @file, in CPU order */
static void topology_lists(struct feature_buf *b, const struct cpu_map *cpus, const char *file)
{
	char path[PATH_MAX], (*lists)[256];
	__u32 nr = 0;
	int i, j;

	lists = calloc(cpus->nr, sizeof(*lists));
	if (!lists) {
		b->err = -ENOMEM;
		return;
	}
	for (i = 0; i < cpus->nr; i++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s",
			 cpus->map[i], file);
		if (sysfs__read(path, lists[nr], sizeof(lists[nr])))
			continue;
		for (j = 0; j < (int)nr && strcmp(lists[j], lists[nr]); j++)
			;
		nr += j == (int)nr;
	}
	feature_buf__u32(b, nr);
	for (i = 0; i < (int)nr; i++)
		feature_buf__string(b, lists[i]);
	free(lists);
}

/* topology/@file of CPU @cpu as a number, -1 where it has none (offline) */
static __u32 topology_id(int cpu, const char *file)
{
	char path[PATH_MAX], buf[32];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, file);
	if (sysfs__read(path, buf, sizeof(buf)))
		return (__u32)-1;
	return (__u32)strtol(buf, NULL, 10);
}

/*
 * Package and core sibling lists, per available CPU its core and socket
 * ids, then the die lists and ids where the kernel has dies.
 */
static int write_cpu_topology(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	int avail = nr_cpus_in("/sys/devices/system/cpu/present"), cpu;
	struct cpu_map *online;
	bool dies;

	if (avail < 0 || cpu_map__new_online(&online))
		return FEATURE_SKIP;
	topology_lists(b, online, "core_siblings_list");
	topology_lists(b, online, "thread_siblings_list");
	for (cpu = 0; cpu < avail; cpu++) {
		feature_buf__u32(b, topology_id(cpu, "core_id"));
		feature_buf__u32(b, topology_id(cpu, "physical_package_id"));
	}
	dies = !access("/sys/devices/system/cpu/cpu0/topology/die_cpus_list", F_OK);
	if (dies) {
		topology_lists(b, online, "die_cpus_list");
		for (cpu = 0; cpu < avail; cpu++)
			feature_buf__u32(b, topology_id(cpu, "die_id"));
	}
	cpu_map__put(online);
	return 0;
}

/* per online node: its number, total and free memory in kB, its CPUs */
static int write_numa_topology(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	char path[PATH_MAX], cpus[4096];
	struct cpu_map *nodes;
	int i;

	if (cpu_map__new_online_from("/sys/devices/system/node/online", &nodes))
		return FEATURE_SKIP;
	feature_buf__u32(b, nodes->nr);
	for (i = 0; i < nodes->nr; i++) {
		int node = nodes->map[i];
		__u64 total = 0, free_kb = 0;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", node);
		meminfo_kb(path, "MemTotal", &total);
		meminfo_kb(path, "MemFree", &free_kb);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
		if (sysfs__read(path, cpus, sizeof(cpus)))
			cpus[0] = '\0';
		feature_buf__u32(b, node);
		feature_buf__u64(b, total);
		feature_buf__u64(b, free_kb);
		feature_buf__string(b, cpus);
	}
	cpu_map__put(nodes);
	return 0;
}

int feature__add_clockid(struct perfx_header *h, int clockid)
{
	struct feature_buf b = { 0 };
	struct timespec res;

	if (clock_getres(clockid, &res))
		return -errno;
	feature_buf__u64(&b, (__u64)res.tv_sec * 1000000000ULL + res.tv_nsec);
	return feature_buf__commit(&b, h, HEADER_CLOCKID);
}

int feature__add_event_desc(struct perfx_header *h, const char * const *names)
{
	struct feature_buf b = { 0 };
	__u32 size = h->nr_attrs ? h->attrs[0].size : 0;
	int i;

	feature_buf__u32(&b, h->nr_attrs);
	feature_buf__u32(&b, size);
	for (i = 0; i < h->nr_attrs; i++) {
		const struct perfx_attr *a = &h->attrs[i];

		if (a->size != size)
			b.err = -EINVAL;
		feature_buf__write(&b, a->attr, size);
		feature_buf__u32(&b, a->nr_ids);
		feature_buf__string(&b, names[i]);
		feature_buf__write(&b, a->ids, a->nr_ids * sizeof(*a->ids));
	}
	return feature_buf__commit(&b, h, HEADER_EVENT_DESC);
}

/* @dir/@file's text, its trailing blanks cut as perf's strim() does */
static int sysfs_string(const char *dir, const char *file, char *buf, size_t len)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	return sysfs__read(path, buf, len);
}

static int sysfs_u32(const char *dir, const char *file, __u32 *v)
{
	char buf[32], *end;
	int err = sysfs_string(dir, file, buf, sizeof(buf));

	if (err)
		return err;
	*v = strtoul(buf, &end, 0);
	return end == buf ? -EINVAL : 0;
}

/* the entries of @path other than . and .., in readdir(3)'s order, as perf lists them */
static int dir_names(const char *path, char ***names, int *nr)
{
	struct dirent *d;
	char **v = NULL, **nv;
	int n = 0, err = 0;
	DIR *dir;

	dir = opendir(path);
	if (!dir)
		return -errno;
	while (!err && (d = readdir(dir))) {
		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv || !(nv[n] = strdup(d->d_name))) {
			v = nv ? nv : v;
			err = -ENOMEM;
			break;
		}
		v = nv;
		n++;
	}
	closedir(dir);
	*names = v;
	*nr = n;
	return err;
}

static void dir_names__free(char **names, int nr)
{
	while (nr--)
		free(names[nr]);
	free(names);
}

/* PMU_MAPPINGS: each PMU's type and name */
static int write_pmu_mappings(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	struct feature_buf list = { 0 };
	char dir[PATH_MAX], **pmus;
	__u32 type, nr = 0;
	int i, nr_pmus;

	if (dir_names(PMU_SYSFS, &pmus, &nr_pmus))
		return FEATURE_SKIP;
	for (i = 0; i < nr_pmus; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", PMU_SYSFS, pmus[i]);
		if (sysfs_u32(dir, "type", &type))
			continue;
		feature_buf__u32(&list, type);
		feature_buf__string(&list, pmus[i]);
		nr++;
	}
	dir_names__free(pmus, nr_pmus);
	feature_buf__u32(b, nr);
	feature_buf__splice(b, &list);
	return 0;
}

/*
 * The caps/ files of PMU @pmu as perf's perf_pmu__caps_parse() reads them:
 * a u32 count, then each name and value (its last character, the newline,
 * cut); the count is 0 without caps/.
 */
static int pmu_caps(struct feature_buf *b, const char *pmu)
{
	struct feature_buf list = { 0 };
	char dir[PATH_MAX], path[PATH_MAX + 256], value[128], **caps = NULL;
	int i, nr_caps = 0, nr = 0;
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/%s/caps", PMU_SYSFS, pmu);
	if (dir_names(dir, &caps, &nr_caps) == -ENOMEM)
		b->err = -ENOMEM;
	for (i = 0; i < nr_caps; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, caps[i]);
		f = fopen(path, "re");
		if (!f)
			continue;
		if (fgets(value, sizeof(value), f) && *value) {
			value[strlen(value) - 1] = '\0';
			feature_buf__string(&list, caps[i]);
			feature_buf__string(&list, value);
			nr++;
		}
		fclose(f);
	}
	dir_names__free(caps, nr_caps);
	feature_buf__u32(b, nr);
	feature_buf__splice(b, &list);
	return nr;
}

/* CPU_PMU_CAPS, where there is a "cpu" PMU */
static int write_cpu_pmu_caps(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	if (access(PMU_SYSFS "/cpu", F_OK))
		return FEATURE_SKIP;
	pmu_caps(b, "cpu");
	return 0;
}

/* hybrid PMUs' caps go first, as perf writes them for older perf */
static bool pmu_is_hybrid(const char *name)
{
	return !strcmp(name, "cpu_core") || !strcmp(name, "cpu_atom");
}

/*
 * PMU_CAPS: the number of PMUs other than "cpu" with caps, then each one's
 * caps (as pmu_caps()) and its name.
 */
static int write_pmu_caps(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	struct feature_buf list = { 0 }, one = { 0 };
	int i, pass, nr_pmus;
	__u32 nr = 0;
	char **pmus;

	if (dir_names(PMU_SYSFS, &pmus, &nr_pmus))
		return FEATURE_SKIP;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nr_pmus; i++) {
			if (!strcmp(pmus[i], "cpu") || pmu_is_hybrid(pmus[i]) != !pass)
				continue;
			if (pmu_caps(&one, pmus[i]) <= 0) {
				list.err = list.err ? list.err : one.err;
				free(one.p);
				one = (struct feature_buf){ 0 };
				continue;
			}
			feature_buf__splice(&list, &one);
			feature_buf__string(&list, pmus[i]);
			nr++;
		}
	}
	dir_names__free(pmus, nr_pmus);
	feature_buf__u32(b, nr);
	feature_buf__splice(b, &list);
	return 0;
}

/* one cache of a CPU, as perf's struct cpu_cache_level */
struct cache_level {
	__u32	level, line_size, sets, ways;
	char	type[64], size[64], map[256];
};

/* cpuN/cache/indexM: 1 if there is none, as perf's cache_level__read() */
static int cache_level__read(struct cache_level *c, int cpu, int idx)
{
	char dir[PATH_MAX];

	snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu%d/cache/index%d", cpu, idx);
	if (access(dir, F_OK))
		return 1;
	if (sysfs_u32(dir, "level", &c->level) ||
	    sysfs_u32(dir, "coherency_line_size", &c->line_size) ||
	    sysfs_u32(dir, "number_of_sets", &c->sets) ||
	    sysfs_u32(dir, "ways_of_associativity", &c->ways) ||
	    sysfs_string(dir, "type", c->type, sizeof(c->type)) ||
	    sysfs_string(dir, "size", c->size, sizeof(c->size)) ||
	    sysfs_string(dir, "shared_cpu_list", c->map, sizeof(c->map)))
		return -EINVAL;
	return 0;
}

static int cache_level__cmp_level(const void *a, const void *b)
{
	const struct cache_level *ca = a, *cb = b;

	return (int)ca->level - (int)cb->level;
}

/* perf 6.1's MAX_CACHE_LVL: the first four indexM of each CPU */
#define CACHE_LEVELS	4

/*
 * CACHE: version 1, then each distinct cache of the present CPUs, by
 * level: level, line size, sets, ways, type, size and CPU list.  A cache
 * perf cannot read leaves the feature out, as perf does.
 */
static int write_cache(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	int avail = nr_cpus_in("/sys/devices/system/cpu/present"), cpu, idx, i, err = 0;
	struct cache_level *caches;
	__u32 nr = 0;

	if (avail < 0)
		return FEATURE_SKIP;
	caches = calloc((size_t)avail * CACHE_LEVELS + 1, sizeof(*caches));
	if (!caches)
		return -ENOMEM;
	for (cpu = 0; cpu < avail && !err; cpu++) {
		for (idx = 0; idx < CACHE_LEVELS; idx++) {
			err = cache_level__read(&caches[nr], cpu, idx);
			if (err)
				break;
			for (i = 0; i < (int)nr && memcmp(&caches[i], &caches[nr], sizeof(*caches)); i++)
				;
			nr += i == (int)nr;
			memset(&caches[nr], 0, sizeof(*caches));
		}
		err = err < 0 ? err : 0;
	}
	if (err) {
		free(caches);
		return FEATURE_SKIP;
	}
	qsort(caches, nr, sizeof(*caches), cache_level__cmp_level);
	feature_buf__u32(b, 1);
	feature_buf__u32(b, nr);
	for (i = 0; i < (int)nr; i++) {
		feature_buf__u32(b, caches[i].level);
		feature_buf__u32(b, caches[i].line_size);
		feature_buf__u32(b, caches[i].sets);
		feature_buf__u32(b, caches[i].ways);
		feature_buf__string(b, caches[i].type);
		feature_buf__string(b, caches[i].size);
		feature_buf__string(b, caches[i].map);
	}
	free(caches);
	return 0;
}

/* one node's memory blocks: bit N for each memoryN/ of the node's directory */
static int mem_node__write(struct feature_buf *b, unsigned int node)
{
	char dir[PATH_MAX], **names;
	unsigned int blk, nr_bits = 0;
	__u64 *bits;
	int i, nr, err;

	snprintf(dir, sizeof(dir), "%s/node%u", NODE_SYSFS, node);
	err = dir_names(dir, &names, &nr);
	if (err) {
		dir_names__free(names, nr);
		return err;
	}
	for (i = 0; i < nr; i++)
		if (sscanf(names[i], "memory%u", &blk) == 1 && blk + 1 > nr_bits)
			nr_bits = blk + 1;
	nr_bits = nr_bits ? nr_bits : 1;	/* perf's size is the highest block + 1 */
	bits = calloc((nr_bits + 63) / 64, sizeof(*bits));
	if (bits) {
		for (i = 0; i < nr; i++)
			if (sscanf(names[i], "memory%u", &blk) == 1)
				bits[blk / 64] |= 1ULL << (blk % 64);
		feature_buf__u64(b, node);
		feature_buf__u64(b, nr_bits);
		feature_buf__u64(b, nr_bits);
		feature_buf__write(b, bits, (nr_bits + 63) / 64 * sizeof(*bits));
	}
	free(bits);
	dir_names__free(names, nr);
	return bits ? 0 : -ENOMEM;
}

static int uint_cmp(const void *a, const void *b)
{
	unsigned int ua = *(const unsigned int *)a, ub = *(const unsigned int *)b;

	return ua < ub ? -1 : ua > ub;
}

/*
 * MEM_TOPOLOGY: version 1, the memory block size, the number of nodes,
 * then by node its number, its bitmap's size in bits and the bitmap
 * (perf's do_write_bitmap(): the size again and the u64 words).
 */
static int write_mem_topology(struct feature_buf *b, const struct feature_env *env __maybe_unused)
{
	unsigned int *nodes;
	char buf[32], **names;
	int i, nr, nr_nodes = 0, err;
	__u64 bsize;

	if (sysfs__read("/sys/devices/system/memory/block_size_bytes", buf, sizeof(buf)))
		return FEATURE_SKIP;
	bsize = strtoull(buf, NULL, 16);
	if (dir_names(NODE_SYSFS, &names, &nr)) {
		dir_names__free(names, nr);
		return FEATURE_SKIP;
	}
	nodes = calloc(nr + 1, sizeof(*nodes));
	for (i = 0; nodes && i < nr; i++)
		nr_nodes += sscanf(names[i], "node%u", &nodes[nr_nodes]) == 1;
	dir_names__free(names, nr);
	if (!nodes)
		return -ENOMEM;
	qsort(nodes, nr_nodes, sizeof(*nodes), uint_cmp);
	feature_buf__u64(b, 1);
	feature_buf__u64(b, bsize);
	feature_buf__u64(b, nr_nodes);
	for (i = 0, err = 0; i < nr_nodes && !err; i++)
		err = mem_node__write(b, nodes[i]);
	free(nodes);
	if (err == -ENOMEM)
		return err;
	return err ? FEATURE_SKIP : 0;	/* perf leaves it out */
}

/*
 * BPF_PROG_INFO: the programs perf record synthesized (synthesize-bpf-progs.c),
 * as perf's write_bpf_prog_info(): their number, then each one's perf_bpil
 * (info_len, data_len, the arrays asked for, the info with the arrays'
 * offsets into the data, the data).  None before they are synthesized,
 * which is what a pipe's header has, as perf's.
 */
static int write_bpf_prog_info(struct feature_buf *b, const struct feature_env *env)
{
	const struct bpf_progs *p = env->bpf_progs;
	size_t i;

	feature_buf__u32(b, p ? p->nr_progs : 0);
	for (i = 0; p && i < p->nr_progs; i++) {
		const struct bpf_prog_linear *l = &p->progs[i];

		feature_buf__u32(b, BPIL_INFO_LEN);
		feature_buf__u32(b, l->data_len);
		feature_buf__u64(b, l->arrays);
		feature_buf__write(b, &l->info, BPIL_INFO_LEN);
		feature_buf__write(b, l->data, l->data_len);
	}
	return 0;
}

/* BPF_BTF: as perf's write_bpf_btf(), their number, then each one's id, size and data */
static int write_bpf_btf(struct feature_buf *b, const struct feature_env *env)
{
	const struct bpf_progs *p = env->bpf_progs;
	size_t i;

	feature_buf__u32(b, p ? p->nr_btfs : 0);
	for (i = 0; p && i < p->nr_btfs; i++) {
		feature_buf__u32(b, p->btfs[i].id);
		feature_buf__u32(b, p->btfs[i].size);
		feature_buf__write(b, p->btfs[i].data, p->btfs[i].size);
	}
	return 0;
}

int feature__add_bpf_progs(struct perfx_header *h, const struct bpf_progs *progs)
{
	const struct feature_env env = { .bpf_progs = progs };
	struct feature_buf b = { 0 };
	int err;

	write_bpf_prog_info(&b, &env);
	err = feature_buf__commit(&b, h, HEADER_BPF_PROG_INFO);
	if (err)
		return err;
	write_bpf_btf(&b, &env);
	return feature_buf__commit(&b, h, HEADER_BPF_BTF);
}

int feature__add_clock_data(struct perfx_header *h, int clockid)
{
	struct feature_buf b = { 0 };
	struct timespec ref;
	struct timeval tod;

	if (gettimeofday(&tod, NULL) || clock_gettime(clockid, &ref))
		return -errno;
	feature_buf__u32(&b, 1);
	feature_buf__u32(&b, clockid);
	feature_buf__u64(&b, (__u64)tod.tv_sec * 1000000000ULL + tod.tv_usec * 1000ULL);
	feature_buf__u64(&b, (__u64)ref.tv_sec * 1000000000ULL + ref.tv_nsec);
	return feature_buf__commit(&b, h, HEADER_CLOCK_DATA);
}

int feature__add_group_desc(struct perfx_header *h, const struct feature_group *groups,
			    int nr)
{
	struct feature_buf b = { 0 };
	int i;

	feature_buf__u32(&b, nr);
	for (i = 0; i < nr; i++) {
		feature_buf__string(&b, groups[i].name ? groups[i].name : "{anon_group}");
		feature_buf__u32(&b, groups[i].leader_idx);
		feature_buf__u32(&b, groups[i].nr_members);
	}
	return feature_buf__commit(&b, h, HEADER_GROUP_DESC);
}

int feature__add_sample_time(struct perfx_header *h, __u64 first, __u64 last)
{
	struct feature_buf b = { 0 };

	feature_buf__u64(&b, first);
	feature_buf__u64(&b, last);
	return feature_buf__commit(&b, h, HEADER_SAMPLE_TIME);
}

/* The BUILD_ID feature is a table of HEADER_BUILD_ID records: check each size. */
static int check_build_id_table(const char *name, const void *body, size_t size, __u64 pos)
{
	struct perf_event_header eh;
	size_t off = 0;

	while (off < size) {
		if (size - off < sizeof(eh))
			eh.size = 0;
		else
			memcpy(&eh, (const char *)body + off, sizeof(eh));
		if (eh.size < PERFX_BUILD_ID_RECORD_MIN || eh.size > size - off) {
			pr_err("%s: byte offset %llu: BUILD_ID feature entry of size %u: expected %d..%zu bytes (EINVAL)\n",
			       name, (unsigned long long)(pos + off), eh.size,
			       PERFX_BUILD_ID_RECORD_MIN, size - off);
			return -EINVAL;
		}
		off += eh.size;
	}
	return 0;
}

/*
 * The BUILD_ID table's entries are HEADER_BUILD_ID records but for the
 * type, which perf leaves 0 in a file; check_build_id_table() checked
 * their sizes.
 */
static int write_build_id_records(const void *body, size_t size, struct perfx_writer *w)
{
	const char *p = body;
	size_t off = 0;
	int err = 0;

	while (off < size && !err) {
		struct perf_event_header eh;

		memcpy(&eh, p + off, sizeof(eh));
		eh.type = PERF_RECORD_HEADER_BUILD_ID;
		err = perfx_writer__write(w, &eh, sizeof(eh));
		if (!err)
			err = perfx_writer__write(w, p + off + sizeof(eh), eh.size - sizeof(eh));
		off += eh.size;
	}
	return err;
}

/*
 * perf's TRACING_DATA record: a 12-byte record saying how many bytes
 * follow it, outside its size: the data, padded to 8.
 */
static int write_tracing_data_record(const void *body, size_t size, struct perfx_writer *w)
{
	static const char zeros[8];
	size_t aligned = (size + 7) & ~(size_t)7;
	struct perf_record_header_tracing_data td = {
		{ PERF_RECORD_HEADER_TRACING_DATA, 0, sizeof(td) }, aligned,
	};
	int err;

	err = perfx_writer__write(w, &td, sizeof(td));
	if (!err)
		err = perfx_writer__write(w, body, size);
	return err ? err : perfx_writer__write(w, zeros, aligned - size);
}

/* a HEADER_FEATURE record's u16 size, less its header and feature id */
#define FEATURE_RECORD_MAX	(0xffff - sizeof(struct perf_event_header) - sizeof(__u64))

/* perf's FEAT_OPR: a HEADER_FEATURE record in a pipe too */
#define FEAT_OPR(n, ...)	[HEADER_##n] = { .name = #n, .pipe = FEATURE_PIPE_RECORD,	\
						 .pipe_max = FEATURE_RECORD_MAX, ##__VA_ARGS__ }
/* perf's FEAT_OPN: not a HEADER_FEATURE record */
#define FEAT_OPN(n, ...)	[HEADER_##n] = { .name = #n, ##__VA_ARGS__ }

/*
 * Every feature perf 6.1 knows, by id.  Those without a write callback
 * are written by their feature__add_*() (the recording's), by perfx
 * record and inject (TRACING_DATA, BUILD_ID, AUXTRACE), or only passed
 * on from an input.
 */
static const struct feature_ops feature_ops[HEADER_LAST_FEATURE] = {
	FEAT_OPN(TRACING_DATA,	.pipe = FEATURE_PIPE_OWN, .pipe_max = UINT32_MAX & ~7U,
		 .write_pipe = write_tracing_data_record),
	FEAT_OPN(BUILD_ID,	.pipe = FEATURE_PIPE_OWN, .pipe_max = SIZE_MAX,
		 .check = check_build_id_table, .write_pipe = write_build_id_records),
	FEAT_OPR(HOSTNAME,	.write = write_hostname),
	FEAT_OPR(OSRELEASE,	.write = write_osrelease),
	FEAT_OPR(VERSION,	.write = write_version),
	FEAT_OPR(ARCH,		.write = write_arch),
	FEAT_OPR(NRCPUS,	.write = write_nrcpus),
	FEAT_OPR(CPUDESC,	.write = write_cpudesc),
	FEAT_OPR(CPUID,		.write = write_cpuid),
	FEAT_OPR(TOTAL_MEM,	.write = write_total_mem),
	FEAT_OPR(CMDLINE,	.write = write_cmdline),
	FEAT_OPR(EVENT_DESC),
	FEAT_OPR(CPU_TOPOLOGY,	.write = write_cpu_topology),
	FEAT_OPR(NUMA_TOPOLOGY,	.write = write_numa_topology),
	FEAT_OPN(BRANCH_STACK),
	FEAT_OPR(PMU_MAPPINGS,	.write = write_pmu_mappings),
	FEAT_OPR(GROUP_DESC),
	FEAT_OPN(AUXTRACE),
	FEAT_OPN(STAT),
	FEAT_OPN(CACHE,		.write = write_cache),
	FEAT_OPR(SAMPLE_TIME),
	FEAT_OPR(MEM_TOPOLOGY,	.write = write_mem_topology),
	FEAT_OPR(CLOCKID),
	FEAT_OPN(DIR_FORMAT),
	FEAT_OPR(BPF_PROG_INFO,	.write = write_bpf_prog_info),
	FEAT_OPR(BPF_BTF,	.write = write_bpf_btf),
	FEAT_OPR(COMPRESSED),
	FEAT_OPR(CPU_PMU_CAPS,	.write = write_cpu_pmu_caps),
	FEAT_OPR(CLOCK_DATA),
	FEAT_OPN(HYBRID_TOPOLOGY),
	FEAT_OPR(PMU_CAPS,	.write = write_pmu_caps),
};

const struct feature_ops *feature__ops(__u64 id)
{
	if (id >= HEADER_LAST_FEATURE || !feature_ops[id].name)
		return NULL;
	return &feature_ops[id];
}

int feature__add_machine(struct perfx_header *h, const char *version, int argc,
			 const char **argv)
{
	const struct feature_env env = { version, argc, argv, NULL };
	struct feature_buf b = { 0 };
	int id, ret;

	for (id = 1; id < HEADER_LAST_FEATURE; id++) {
		if (!feature_ops[id].write)
			continue;
		ret = feature_ops[id].write(&b, &env);
		if (ret == FEATURE_SKIP) {
			free(b.p);
			memset(&b, 0, sizeof(b));
			continue;
		}
		if (ret < 0 && !b.err)
			b.err = ret;
		ret = feature_buf__commit(&b, h, id);
		if (ret)
			return ret;
	}
	return 0;
}
