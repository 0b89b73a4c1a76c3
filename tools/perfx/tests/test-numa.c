// SPDX-License-Identifier: GPL-2.0
/*
 * Proves that NUMA nodes are read from sysfs as the kernel lists them
 * (sparse numbers, memory-only nodes, no NUMA at all, garbage refused),
 * that --affinity's masks are the ring's node or CPU within the CPUs the
 * thread was given, that the reader moves only when the mask changes,
 * and that memory bound to a node is there, as the kernel reports it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <numaif.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/numa.h"
#include "lib/read-affinity.h"
#include "tests/tap.h"

static char root[256];

static void clean(void)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf %s/*", root);
	if (system(cmd))
		printf("# cannot clean %s\n", root);
}

static void cpus_of(const struct numa_topo *t, int node, char *buf, size_t size)
{
	if (!t->node_cpus[node])
		snprintf(buf, size, "none");
	else
		cpu_map__snprint(t->node_cpus[node], buf, size);
}

static void test_topologies(void)
{
	struct numa_topo *t = NULL;
	char buf[64];
	int err;

	/* two nodes, as QEMU numbers them: a socket's CPUs together */
	tap_put(root, "online", "0-1\n");
	tap_put(root, "node0/cpulist", "0-1\n");
	tap_put(root, "node1/cpulist", "2-3\n");
	err = numa_topo__new(root, &t);
	tap_ok(!err && t->nr_nodes == 2 && t->max_node == 1, "two nodes (err %d)", err);
	if (!err) {
		tap_ok(numa_topo__node_of(t, 0) == 0 && numa_topo__node_of(t, 1) == 0 &&
		       numa_topo__node_of(t, 2) == 1 && numa_topo__node_of(t, 3) == 1,
		       "CPUs 0-1 are node 0's, 2-3 node 1's");
		tap_ok(numa_topo__node_of(t, 4) == -ENOENT &&
		       numa_topo__node_of(t, -1) == -ENOENT &&
		       numa_topo__node_of(t, CPU_MAP__MAX_CPU) == -ENOENT,
		       "a CPU of no node, -1 and one past the largest are -ENOENT");
	}
	numa_topo__delete(t);
	clean();

	/* sparse node numbers, interleaved CPUs, a node of memory only */
	tap_put(root, "online", "0,2-3\n");
	tap_put(root, "node0/cpulist", "0,2\n");
	tap_put(root, "node2/cpulist", "1,3\n");
	tap_put(root, "node3/cpulist", "\n");
	t = NULL;
	err = numa_topo__new(root, &t);
	tap_ok(!err && t->nr_nodes == 3 && t->max_node == 3 && !t->node_cpus[1],
	       "nodes 0, 2 and 3: three nodes, the largest 3, none 1 (err %d)", err);
	if (!err) {
		cpus_of(t, 2, buf, sizeof(buf));
		tap_str_eq(buf, "1,3", "node 2 has CPUs 1 and 3");
		cpus_of(t, 3, buf, sizeof(buf));
		tap_str_eq(buf, "none", "node 3 (memory only) has no CPUs");
		tap_ok(numa_topo__node_of(t, 3) == 2, "CPU 3 is node 2's");
	}
	numa_topo__delete(t);
	clean();

	/* garbage in a node's list, and an online node without its directory */
	tap_put(root, "online", "0-1\n");
	tap_put(root, "node0/cpulist", "0-x\n");
	t = NULL;
	err = numa_topo__new(root, &t);
	tap_ok(err == -EINVAL && !t, "a garbage cpulist is -EINVAL (got %d)", err);
	clean();
	tap_put(root, "online", "0-1\n");
	tap_put(root, "node0/cpulist", "0\n");
	err = numa_topo__new(root, &t);
	tap_ok(err == -ENOENT && !t, "an online node without its directory is -ENOENT (got %d)",
	       err);
	clean();

	/* no NUMA in the kernel: one node 0 of the online CPUs */
	err = numa_topo__new(root, &t);
	tap_ok(!err && t->nr_nodes == 1 && t->max_node == 0 && t->node_cpus[0] &&
	       numa_topo__node_of(t, 0) == 0,
	       "no node directory: one node 0 with the online CPUs (err %d)", err);
	numa_topo__delete(t);
}

static void mask_str(const struct cpu_mask *set, char *buf, size_t size)
{
	size_t len = 0;
	int c;

	buf[0] = '\0';
	for (c = 0; c < set->nr && len < size; c++)
		if (cpu_mask__isset(set, c))
			len += snprintf(buf + len, size - len, "%s%d", len ? "," : "", c);
}

static void check_mask(struct read_affinity *a, const struct numa_topo *t, int cpu,
		       const char *want, const char *what)
{
	struct cpu_mask set;
	char buf[256];

	cpu_mask__init(&set, a->orig.nr);
	read_affinity__mask(a, t, cpu, &set);
	mask_str(&set, buf, sizeof(buf));
	tap_str_eq(buf, want, what);
	cpu_mask__exit(&set);
}

static void test_masks(void)
{
	static const char * const names[] = { "sys", "NODE", "Cpu" };
	enum read_affinity_mode mode;
	struct read_affinity a;
	struct numa_topo *t;
	size_t i;
	int c;

	for (i = 0; i < 3; i++)
		tap_ok(!read_affinity__parse(names[i], &mode) && mode == i &&
		       !strcasecmp(read_affinity__name(mode), names[i]),
		       "--affinity=%s is mode %zu", names[i], i);
	tap_ok(read_affinity__parse("bogus", &mode) == -EINVAL &&
	       read_affinity__parse("", &mode) == -EINVAL &&
	       read_affinity__parse("nodes", &mode) == -EINVAL,
	       "bogus, an empty name and nodes are -EINVAL");

	/* interleaved: node 0 has CPUs 0,2, node 2 has 1,3; CPU 5 has no node */
	tap_put(root, "online", "0,2\n");
	tap_put(root, "node0/cpulist", "0,2\n");
	tap_put(root, "node2/cpulist", "1,3,5,1500\n");
	if (numa_topo__new(root, &t)) {
		tap_skip("--affinity masks", "cannot read the fake topology");
		return;
	}
	t->cpu_node[5] = -1;
	memset(&a, 0, sizeof(a));
	/* a machine of 1536 possible CPUs: beyond glibc's 1024 of a cpu_set_t */
	cpu_mask__init(&a.orig, 1536);
	for (c = 0; c < 5; c++)
		cpu_mask__set(&a.orig, c);	/* given CPUs 0-4 */
	a.mode = READ_AFFINITY_NODE;
	check_mask(&a, t, 2, "0,2", "node: the ring of CPU 2 is read on node 0's CPUs");
	check_mask(&a, t, 3, "1,3", "node: CPUs 5 and 1500 are not among the CPUs given, so 1,3");
	check_mask(&a, t, 5, "0,1,2,3,4", "node: a CPU of no node is read anywhere given");
	a.mode = READ_AFFINITY_CPU;
	check_mask(&a, t, 3, "3", "cpu: the ring of CPU 3 is read on CPU 3");
	check_mask(&a, t, 7, "0,1,2,3,4", "cpu: CPU 7, not given: anywhere given");
	cpu_mask__set(&a.orig, 1500);
	check_mask(&a, t, 1500, "1500", "cpu: the ring of CPU 1500 is read on CPU 1500");
	a.mode = READ_AFFINITY_NODE;
	check_mask(&a, t, 1, "1,3,1500", "node: CPU 1500, given, is among node 2's");
	a.mode = READ_AFFINITY_SYS;
	check_mask(&a, t, 3, "0,1,2,3,4,1500", "sys: anywhere given");
	cpu_mask__exit(&a.orig);
	numa_topo__delete(t);
	clean();
}

static int current_cpus(char *buf, size_t size)
{
	struct cpu_mask set;
	int err;

	err = cpu_mask__init(&set, 0);
	if (!err)
		err = cpu_mask__get_affinity(&set);
	if (!err)
		mask_str(&set, buf, size);
	cpu_mask__exit(&set);
	return err;
}

/* moves, observed with sched_getaffinity(): only when the mask changes */
static void test_moves(void)
{
	struct read_affinity a;
	struct cpu_mask m0, m1;
	char orig[256], buf[256];

	current_cpus(orig, sizeof(orig));
	cpu_mask__init(&m0, 0);
	cpu_mask__init(&m1, 0);
	cpu_mask__get_affinity(&m0);
	if (!cpu_mask__isset(&m0, 0) || !cpu_mask__isset(&m0, 1)) {
		tap_skip("the reader's moves", "needs CPUs 0 and 1");
		goto out;
	}
	CPU_ZERO_S(m0.size, m0.bits);
	cpu_mask__set(&m0, 0);
	cpu_mask__set(&m1, 1);
	read_affinity__init(&a, READ_AFFINITY_CPU);
	read_affinity__move(&a, &m0);
	current_cpus(buf, sizeof(buf));
	tap_ok(!strcmp(buf, "0") && a.nr_moves == 1, "moved to CPU 0 (on %s, %lu moves)", buf,
	       a.nr_moves);
	read_affinity__move(&a, &m0);
	tap_ok(a.nr_moves == 1, "the same mask again: no move (%lu moves)", a.nr_moves);
	read_affinity__move(&a, &m1);
	current_cpus(buf, sizeof(buf));
	tap_ok(!strcmp(buf, "1") && a.nr_moves == 2, "moved to CPU 1 (on %s, %lu moves)", buf,
	       a.nr_moves);
	read_affinity__exit(&a);
	current_cpus(buf, sizeof(buf));
	tap_str_eq(buf, orig, "restored to the CPUs it was given");

	read_affinity__init(&a, READ_AFFINITY_SYS);
	read_affinity__move(&a, &m1);
	current_cpus(buf, sizeof(buf));
	tap_ok(a.nr_moves == 0 && !strcmp(buf, orig) && !a.orig.bits,
	       "sys: never moves, holds no CPU set");
	read_affinity__exit(&a);

	CPU_ZERO_S(m1.size, m1.bits);
	cpu_mask__set(&m1, m1.nr - 1);
	read_affinity__init(&a, READ_AFFINITY_CPU);
	read_affinity__move(&a, &m1);
	tap_ok(a.nr_moves == 0 && a.nr_failed == 1 && a.err == -EINVAL,
	       "a CPU the kernel refuses: counted, -EINVAL (failed %lu, err %d)", a.nr_failed,
	       a.err);
	read_affinity__exit(&a);
out:
	cpu_mask__exit(&m0);
	cpu_mask__exit(&m1);
}

/* memory bound to node 0: the policy and the pages, as the kernel says */
static void test_bind(void)
{
	size_t page = sysconf(_SC_PAGESIZE), len = 16 * page;
	unsigned long mask[16] = { 0 };
	unsigned int counts[1], absent;
	int mode = -1, err;
	void *p;

	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		tap_skip("numa__bind", "mmap failed");
		return;
	}
	err = numa__bind(p, len, 0);
	tap_ok(!err, "numa__bind to node 0 (err %d)", err);
	if (get_mempolicy(&mode, mask, 8 * sizeof(mask), p, MPOL_F_ADDR))
		tap_skip("the bound policy", "no get_mempolicy here");
	else
		tap_ok(mode == MPOL_BIND && mask[0] == 1,
		       "the kernel says MPOL_BIND to node 0 (%d, %#lx)", mode, mask[0]);
	err = numa__page_nodes(p, len, counts, 0, &absent);
	tap_ok(!err && counts[0] == 16 && !absent,
	       "all 16 pages are on node 0 already (err %d, %u, %u absent)", err, counts[0],
	       absent);
	tap_ok(numa__bind(p, len, NUMA_MAX_NODES) == -EINVAL && numa__bind(p, len, -1) == -EINVAL,
	       "nodes past NUMA_MAX_NODES and -1 are -EINVAL");
	munmap(p, len);
}

int main(void)
{
	tap_start("numa");
	if (tap_tmpdir(root, sizeof(root))) {
		tap_skip("everything", "cannot make a directory of its own");
		return tap_done();
	}
	test_topologies();
	test_masks();
	test_moves();
	test_bind();
	if (tap_rmdir(root))
		printf("# cannot remove %s\n", root);
	return tap_done();
}
