// SPDX-License-Identifier: GPL-2.0
/*
 * The header features that describe the recording machine, in perf's
 * formats (util/header.c's write_*() functions).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "cpumap.h"
#include "feature.h"
#include "header.h"
#include "sysfs.h"

#define NAME_ALIGN	64

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

int feature_buf__commit(struct feature_buf *b, struct perfx_header *h, int id)
{
	int err = b->err;

	if (!err)
		err = perfx_header__set_feature(h, id, b->p, b->len);
	free(b->p);
	memset(b, 0, sizeof(*b));
	return err;
}

static int add_string(struct perfx_header *h, int id, const char *s)
{
	struct feature_buf b = { 0 };

	feature_buf__string(&b, s);
	return feature_buf__commit(&b, h, id);
}

static int add_uname(struct perfx_header *h)
{
	struct utsname u;
	int err;

	if (uname(&u))
		return 0;
	err = add_string(h, HEADER_HOSTNAME, u.nodename);
	if (!err)
		err = add_string(h, HEADER_OSRELEASE, u.release);
	if (!err)
		err = add_string(h, HEADER_ARCH, u.machine);
	return err;
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

static int add_nrcpus(struct perfx_header *h)
{
	struct feature_buf b = { 0 };
	int avail = nr_cpus_in("/sys/devices/system/cpu/present");
	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (avail < 0 || online < 0)
		return 0;
	feature_buf__u32(&b, avail);
	feature_buf__u32(&b, online);
	return feature_buf__commit(&b, h, HEADER_NRCPUS);
}

/* "model name : AMD  EPYC" as perf has it: "AMD EPYC" */
static int add_cpudesc(struct perfx_header *h)
{
	char *line = NULL, *s, *d;
	size_t alloc = 0;
	int err = 0;
	FILE *f;

	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
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
		err = add_string(h, HEADER_CPUDESC, line);
		break;
	}
	free(line);
	fclose(f);
	return err;
}

/* perf's x86 get_cpuid(): "GenuineIntel,6,85,7" */
static int add_cpuid(struct perfx_header *h)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d, family, model;
	char vendor[13], buf[64];

	if (!__get_cpuid(0, &a, &b, &c, &d))
		return 0;
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family >= 0x6)
		model += ((a >> 16) & 0xf) << 4;
	snprintf(buf, sizeof(buf), "%s,%u,%u,%u", vendor, family, model, a & 0xf);
	return add_string(h, HEADER_CPUID, buf);
#else
	(void)h;
	return 0;
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

static int add_total_mem(struct perfx_header *h)
{
	struct feature_buf b = { 0 };
	__u64 kb;

	if (meminfo_kb("/proc/meminfo", "MemTotal", &kb))
		return 0;
	feature_buf__u64(&b, kb);
	return feature_buf__commit(&b, h, HEADER_TOTAL_MEM);
}

static int add_cmdline(struct perfx_header *h, int argc, const char **argv)
{
	struct feature_buf b = { 0 };
	char exe[PATH_MAX];
	ssize_t n;
	int i;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n < 0 ? 0 : n] = '\0';
	feature_buf__u32(&b, argc + 1);
	feature_buf__string(&b, exe);
	for (i = 0; i < argc; i++)
		feature_buf__string(&b, argv[i]);
	return feature_buf__commit(&b, h, HEADER_CMDLINE);
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
static int add_cpu_topology(struct perfx_header *h)
{
	int avail = nr_cpus_in("/sys/devices/system/cpu/present"), cpu;
	struct feature_buf b = { 0 };
	struct cpu_map *online;
	bool dies;

	if (avail < 0 || cpu_map__new_online(&online))
		return 0;
	topology_lists(&b, online, "core_siblings_list");
	topology_lists(&b, online, "thread_siblings_list");
	for (cpu = 0; cpu < avail; cpu++) {
		feature_buf__u32(&b, topology_id(cpu, "core_id"));
		feature_buf__u32(&b, topology_id(cpu, "physical_package_id"));
	}
	dies = !access("/sys/devices/system/cpu/cpu0/topology/die_cpus_list", F_OK);
	if (dies) {
		topology_lists(&b, online, "die_cpus_list");
		for (cpu = 0; cpu < avail; cpu++)
			feature_buf__u32(&b, topology_id(cpu, "die_id"));
	}
	cpu_map__put(online);
	return feature_buf__commit(&b, h, HEADER_CPU_TOPOLOGY);
}

/* per online node: its number, total and free memory in kB, its CPUs */
static int add_numa_topology(struct perfx_header *h)
{
	char path[PATH_MAX], cpus[4096];
	struct feature_buf b = { 0 };
	struct cpu_map *nodes;
	int i;

	if (cpu_map__new_online_from("/sys/devices/system/node/online", &nodes))
		return 0;
	feature_buf__u32(&b, nodes->nr);
	for (i = 0; i < nodes->nr; i++) {
		int node = nodes->map[i];
		__u64 total = 0, free_kb = 0;

		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", node);
		meminfo_kb(path, "MemTotal", &total);
		meminfo_kb(path, "MemFree", &free_kb);
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", node);
		if (sysfs__read(path, cpus, sizeof(cpus)))
			cpus[0] = '\0';
		feature_buf__u32(&b, node);
		feature_buf__u64(&b, total);
		feature_buf__u64(&b, free_kb);
		feature_buf__string(&b, cpus);
	}
	cpu_map__put(nodes);
	return feature_buf__commit(&b, h, HEADER_NUMA_TOPOLOGY);
}

int feature__add_machine(struct perfx_header *h, const char *version, int argc,
			 const char **argv)
{
	int err;

	err = add_uname(h);
	if (!err)
		err = add_string(h, HEADER_VERSION, version);
	if (!err)
		err = add_nrcpus(h);
	if (!err)
		err = add_cpudesc(h);
	if (!err)
		err = add_cpuid(h);
	if (!err)
		err = add_total_mem(h);
	if (!err)
		err = add_cmdline(h, argc, argv);
	if (!err)
		err = add_cpu_topology(h);
	if (!err)
		err = add_numa_topology(h);
	return err;
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
