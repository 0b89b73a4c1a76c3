// SPDX-License-Identifier: GPL-2.0
/*
 * perfx record's rings: one per CPU (lib/record-rings.c), mapped where
 * evlist__mmap() says, the CPU's other events sending their records
 * there; where their pages are and how they are read (--affinity,
 * --aio), said with -v.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/cpumap.h"
#include "lib/debug.h"
#include "lib/evlist.h"
#include "lib/numa.h"
#include "lib/read-affinity.h"
#include "record.h"

/* evlist__mmap()'s: the ring of CPU index @c, mapped from @fd */
static int record__map_ring(void *arg, int c, int fd)
{
	struct record *rec = arg;

	return record_rings__map(&rec->rings, c, fd);
}

static void record__mmap_error(struct record *rec, int c, int err)
{
	if (c < 0) {
		pr_err("cannot allocate the poll set: %s (%s)\n", strerror(-err),
		       perfx__errname(err));
		return;
	}
	pr_err("mapping the ring buffer of CPU %d (%u pages): %s (%s)\n",
	       evlist__cpus(rec->evlist)->map[c], rec->args.mmap_pages, strerror(-err),
	       perfx__errname(err));
	if (err == -EPERM)
		pr_err("the locked-memory limit is too small: see -m and /proc/sys/kernel/perf_event_mlock_kb\n");
}

/* perf's --mmap-flush: 1 by default, at most a quarter of a ring */
static __u64 record__mmap_flush(struct record *rec)
{
	__u64 max = (__u64)rec->args.mmap_pages * sysconf(_SC_PAGESIZE) / 4;

	if (rec->args.mmap_flush > max)
		pr_debug("--mmap-flush %llu: lowered to a quarter of a ring, %llu bytes\n",
			 rec->args.mmap_flush, max);
	return rec->args.mmap_flush > max ? max : rec->args.mmap_flush ? rec->args.mmap_flush : 1;
}

int record__mmap(struct record *rec)
{
	struct record_rings_opts opts = {
		.pages = rec->args.mmap_pages,
		.flush = record__mmap_flush(rec),
		.affinity = rec->args.affinity,
		.nr_aio = rec->args.nr_aio,
	};
	const struct cpu_map *cpus = evlist__cpus(rec->evlist);
	int bad, err;

	err = numa_topo__new(NUMA_SYSFS, &rec->topo);
	if (err) {
		pr_err("%s: cannot read the NUMA nodes' CPUs: %s (%s)\n", NUMA_SYSFS,
		       strerror(-err), perfx__errname(err));
		return err;
	}
	err = record_rings__init(&rec->rings, &opts, rec->topo, &rec->out, cpus->map, cpus->nr);
	if (err) {
		pr_err("cannot allocate the rings of %d CPUs: %s (%s)\n", cpus->nr, strerror(-err),
		       perfx__errname(err));
		return err;
	}
	err = evlist__mmap(rec->evlist, record__map_ring, rec, &bad);
	if (err)
		record__mmap_error(rec, bad, err);
	return err;
}

/* -vv: each ring, where its pages are, its --aio buffers */
static void record__report_ring(struct record *rec, const struct record_ring *ring)
{
	char aio[64] = "";

	if (rec->args.nr_aio)
		snprintf(aio, sizeof(aio), ", --aio buffers at %p bound to node %d",
			 ring->aio.mem, ring->node);
	if (ring->pages_here < 0)
		pr_debug("ring of CPU %d at %p: node %d%s\n", ring->cpu, ring->ring.base,
			 ring->node, aio);
	else
		pr_debug("ring of CPU %d at %p: %d of %zu pages on its node %d%s\n", ring->cpu,
			 ring->ring.base, ring->pages_here, ring->ring.len / sysconf(_SC_PAGESIZE),
			 ring->node, aio);
}

/*
 * The kernel allocates a CPU's ring on the CPU's node, preferring it but
 * taking another node's pages when that one is short: -v says where they
 * are, and a ring not wholly on its node is worth a warning.
 */
static void record__report_rings(struct record *rec)
{
	size_t pages = rec->rings.rings[0].ring.len / sysconf(_SC_PAGESIZE);
	char how[64] = "serially";
	int i;

	for (i = 0; i < rec->rings.nr; i++) {
		const struct record_ring *ring = &rec->rings.rings[i];

		record__report_ring(rec, ring);
		if (ring->pages_here >= 0 && (size_t)ring->pages_here < pages)
			pr_warning("the ring of CPU %d has %zu of its %zu pages off its node %d\n",
				   ring->cpu, pages - ring->pages_here, pages, ring->node);
	}
	if (rec->args.nr_aio)
		snprintf(how, sizeof(how), "into %u --aio buffers each", rec->args.nr_aio);
	pr_info("%d rings of %zu pages, %d NUMA node(s), read %s with --affinity=%s, --mmap-flush %llu\n",
		rec->rings.nr, pages, rec->topo->nr_nodes, how,
		read_affinity__name(rec->args.affinity), rec->rings.opts.flush);
}

/* After the output is open: --aio writes into it. */
int record__start_rings(struct record *rec)
{
	int err, bad;

	err = record_rings__start(&rec->rings, &bad);
	if (err && bad >= 0)
		pr_err("--aio: the buffers of the ring of CPU %d on node %d: %s (%s)\n",
		       rec->rings.rings[bad].cpu, rec->rings.rings[bad].node, strerror(-err),
		       perfx__errname(err));
	else if (err)
		pr_err("--aio or --affinity: %s (%s)\n", strerror(-err), perfx__errname(err));
	else
		record__report_rings(rec);
	return err;
}

/* -v: per node, what its rings gave and how long draining them waited */
void record__report_nodes(struct record *rec)
{
	const struct record_node_stats *st = rec->rings.stats;
	char cpus[256];
	int node;

	for (node = 0; node <= rec->topo->max_node; node++) {
		if (!st[node].nr_rings)
			continue;
		if (rec->topo->node_cpus[node])
			cpu_map__snprint(rec->topo->node_cpus[node], cpus, sizeof(cpus));
		pr_info("node %d (CPUs %s): drained %llu bytes from %u rings, waited %.3f ms %s\n",
			node, rec->topo->node_cpus[node] ? cpus : "none", st[node].bytes,
			st[node].nr_rings, st[node].wait_ns / 1e6,
			rec->args.nr_aio ? "for free --aio buffers" : "in write(2)");
	}
	if (rec->args.affinity != READ_AFFINITY_SYS)
		pr_info("--affinity=%s: the reading thread moved %lu times%s\n",
			read_affinity__name(rec->args.affinity), rec->rings.aff.nr_moves,
			rec->rings.aff.nr_failed ? ", some moves were refused" : "");
}
