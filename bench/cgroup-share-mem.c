// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup-share-mem - what PERF_EVENT_IOC_ATTACH_CGROUP costs the kernel in
 * memory, and how long its ioctls keep interrupts off.
 *
 * Creates K cgroups, opens on every online CPU a group of E task-clock
 * counting events and attaches the K cgroups through each leader, then
 * prints how much /proc/meminfo's Slab and VmallocUsed grew (large
 * kmalloc()s count as Slab), per event, CPU and cgroup.  With -l it also
 * runs the irqsoff tracer around a batch read and a re-attach of CPU 0's
 * group and prints the longest interrupts-off section it saw (anywhere on
 * the system, so an upper bound of the ioctls' lock holds).  With -H, on
 * a kernel with bench/patches/perf-cgroup-lock-holds.patch (one trace line
 * per hold of a CPU context's lock by the series' code, with its length),
 * it prints how many holds each path made, their mean and the longest,
 * during a batch read, a re-attach, a reset of CPU 0's group, and cgroup
 * switches on CPU 0 (a pipe ping-pong between two of the cgroups).
 *
 * Usage: cgroup-share-mem [-k K] [-e E] [-l] [-H]   (K 1000, E 8 by default)
 * Needs root and cgroup2; run it in the guest (bench/README.md).
 */
#include "../selftests/perf_events/cgroup_share_util.h"

#define TRACING		"/sys/kernel/tracing"

/* Slab + VmallocUsed of /proc/meminfo in kB, or -1 */
static long kernel_kb(void)
{
	char line[256];
	long kb, sum = 0;
	int found = 0;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Slab: %ld kB", &kb) == 1 ||
		    sscanf(line, "VmallocUsed: %ld kB", &kb) == 1) {
			sum += kb;
			found++;
		}
	}
	fclose(f);
	return found == 2 ? sum : -1;
}

/* memory freed by RCU and work items settles before each reading */
static long settled_kernel_kb(void)
{
	sleep(2);
	return kernel_kb();
}

/* the first line of @file under the tracing directory into @buf */
static int tracing_read(const char *file, char *buf, size_t len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), TRACING "/%s", file);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (!fgets(buf, len, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	fclose(f);
	return 0;
}

/* where the longest section started and ended, from the trace's header */
static void print_trace_ends(void)
{
	char line[512];
	FILE *f = fopen(TRACING "/trace", "r");

	while (f && fgets(line, sizeof(line), f)) {
		if (strstr(line, "=> started at:") || strstr(line, "=> ended at:"))
			printf("  %s", line + strspn(line, " #"));
	}
	if (f)
		fclose(f);
}

/* the longest irqs-off section, in us, while @what runs on @fd */
static long irqsoff_us(const char *what, int fd, const __u64 *ids, unsigned int k,
		       __u64 *buf, size_t words)
{
	char max[64];
	int ret;

	if (cgs_write(TRACING, "current_tracer", "irqsoff") ||
	    cgs_write(TRACING, "tracing_max_latency", "0") ||
	    cgs_write(TRACING, "tracing_on", "1"))
		return -1;
	if (!strcmp(what, "batch read"))
		ret = cgs_read(fd, 0, buf, words) < 0;
	else
		ret = cgs_attach(fd, ids, k);
	cgs_write(TRACING, "tracing_on", "0");
	if (ret || tracing_read("tracing_max_latency", max, sizeof(max)))
		return -1;
	printf("longest irqs-off section during a %s of CPU 0's group: %s us\n", what, max);
	print_trace_ends();
	cgs_write(TRACING, "current_tracer", "nop");
	return atol(max);
}

struct hold_stat {
	char what[16];
	unsigned long n, over_50us;
	unsigned long long sum, max;
};

/* add a hold of @ns on path @what to @st, of @nr paths so far */
static int hold_add(struct hold_stat *st, int nr, int max_nr, const char *what,
		    unsigned long long ns)
{
	int i;

	for (i = 0; i < nr && strcmp(st[i].what, what); i++)
		;
	if (i == max_nr)
		return nr;
	if (i == nr) {
		memset(&st[i], 0, sizeof(st[i]));
		snprintf(st[i].what, sizeof(st[i].what), "%s", what);
		nr++;
	}
	st[i].n++;
	st[i].sum += ns;
	st[i].over_50us += ns > 50000;
	if (ns > st[i].max)
		st[i].max = ns;
	return nr;
}

static void trace_clear(void)
{
	int fd = open(TRACING "/trace", O_WRONLY | O_TRUNC);

	if (fd >= 0)
		close(fd);
}

/* sum up the trace's hold lines per path, print them, empty the trace */
static int holds_print(const char *during)
{
	struct hold_stat st[8];
	unsigned long long ns;
	unsigned long in_buf = 0, written = 0;
	char line[512], what[16];
	const char *p;
	int i, nr = 0;
	FILE *f;

	f = fopen(TRACING "/trace", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "# entries-in-buffer/entries-written: %lu/%lu",
			   &in_buf, &written) == 2)
			continue;
		p = strstr(line, "perf_cgroup_hold ");
		if (p && sscanf(p, "perf_cgroup_hold %15s %llu", what, &ns) == 2)
			nr = hold_add(st, nr, 8, what, ns);
	}
	fclose(f);
	printf("lock holds during %s:%s\n", during,
	       in_buf < written ? " (the trace buffer overflowed: incomplete)" : "");
	for (i = 0; i < nr; i++)
		printf("  %-6s %7lu holds, mean %8.1f us, longest %8.1f us, %lu above 50 us\n",
		       st[i].what, st[i].n, st[i].sum / 1e3 / st[i].n, st[i].max / 1e3,
		       st[i].over_50us);
	if (!nr)
		printf("  none (is bench/patches/perf-cgroup-lock-holds.patch applied?)\n");
	trace_clear();
	return nr ? 0 : -ENOENT;
}

/* @rounds round trips between cgroups @a and @b, both on CPU 0 */
static int pingpong(const char *a, const char *b, int rounds)
{
	int cga, cgb, sa = -1, sb = -1, ret = -1;
	pid_t pids[2] = { -1, -1 };

	cga = open(a, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cgb = open(b, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cga >= 0 && cgb >= 0)
		ret = cgs_ping_pong(cga, cgb, 0, rounds, pids);
	if (pids[0] > 0)
		waitpid(pids[0], &sa, 0);
	if (pids[1] > 0)
		waitpid(pids[1], &sb, 0);
	close(cga);
	close(cgb);
	return !ret && !sa && !sb ? 0 : -1;
}

/* how long the series holds CPU 0's context lock while each operation runs */
static int holds(const char *dir, int fd, const __u64 *ids, unsigned int k,
		 __u64 *buf, size_t words)
{
	char a[PATH_MAX + 16], b[PATH_MAX + 16], size_kb[32];
	int ret;

	/* room for a line per read hold; given back after, for the detach's figure */
	if (tracing_read("buffer_size_kb", size_kb, sizeof(size_kb)) ||
	    cgs_write(TRACING, "current_tracer", "nop") ||
	    cgs_write(TRACING, "buffer_size_kb", "32768") ||
	    cgs_write(TRACING, "tracing_on", "1"))
		return -1;
	trace_clear();
	ret = cgs_read(fd, 0, buf, words) < 0 || holds_print("a batch read of CPU 0's group");
	ret = ret || cgs_attach(fd, ids, k) || holds_print("a re-attach of CPU 0's group");
	ret = ret || ioctl(fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP) ||
	      holds_print("a reset of CPU 0's group");
	snprintf(a, sizeof(a), "%s/c0", dir);
	snprintf(b, sizeof(b), "%s/c%u", dir, k > 1 ? 1 : 0);
	ret = ret || pingpong(a, b, 2000) ||
	      holds_print("2000 pipe round trips between two cgroups on CPU 0");
	cgs_write(TRACING, "tracing_on", "0");
	cgs_write(TRACING, "buffer_size_kb", size_kb);
	return ret ? -1 : 0;
}

static int make_cgroups(const char *dir, __u64 *ids, unsigned int k)
{
	char name[32], path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < k; i++) {
		snprintf(name, sizeof(name), "c%u", i);
		ids[i] = cgs_mkdir(dir, name, path);
		if (!ids[i]) {
			fprintf(stderr, "cannot create cgroup %s: %s\n", path, strerror(errno));
			return -1;
		}
	}
	return 0;
}

/* E events per CPU as a group each; fds[cpu * e + m] */
static int open_groups(int *fds, int cpus, int e)
{
	int c, m;

	for (c = 0; c < cpus; c++) {
		for (m = 0; m < e; m++) {
			int *fd = &fds[c * e + m];

			*fd = cgs_open_counter(c, PERF_COUNT_SW_TASK_CLOCK,
					       PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED |
					       PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID |
					       PERF_FORMAT_LOST, m ? fds[c * e] : -1);
			if (*fd < 0) {
				fprintf(stderr, "cannot open event %d on CPU %d: %s\n", m, c,
					strerror(errno));
				return -1;
			}
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	int e = 8, cpus = sysconf(_SC_NPROCESSORS_ONLN), c, opt, lat = 0, hold = 0, ret = 1;
	long before, attached, after;
	unsigned int k = 1000;
	const char *mnt = cgs_cgroup2_mount();
	char dir[PATH_MAX];
	__u64 *ids, *buf;
	size_t words;
	int *fds;

	while ((opt = getopt(argc, argv, "k:e:lH")) != -1) {
		switch (opt) {
		case 'k':
			k = strtoul(optarg, NULL, 0);
			break;
		case 'e':
			e = atoi(optarg);
			break;
		case 'l':
			lat = 1;
			break;
		case 'H':
			hold = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-k K] [-e E] [-l] [-H]\n", argv[0]);
			return 2;
		}
	}
	if (!mnt || k < 1 || k > CGS_ATTACH_MAX || e < 1 || e > 64) {
		fprintf(stderr, "%s: need cgroup2, 1 <= K <= %d, 1 <= E <= 64\n", argv[0],
			CGS_ATTACH_MAX);
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s/perfx-mem.%d", mnt, getpid());
	/* a batch read of the group: { nr, { id, nr, ena, run, { val, id, lost }[e] }[k] } */
	words = 1 + (size_t)k * (4 + 3 * e);
	ids = calloc(k, sizeof(*ids));
	fds = calloc((size_t)cpus * e, sizeof(*fds));
	buf = calloc(words, sizeof(*buf));
	if (!ids || !fds || !buf || mkdir(dir, 0755)) {
		perror(argv[0]);
		return 1;
	}
	memset(fds, -1, (size_t)cpus * e * sizeof(*fds));
	if (make_cgroups(dir, ids, k) || open_groups(fds, cpus, e))
		goto out;

	before = settled_kernel_kb();
	for (c = 0; c < cpus; c++) {
		int err = cgs_attach(fds[c * e], ids, k);

		if (err) {
			fprintf(stderr, "attach on CPU %d: %s\n", c, strerror(-err));
			goto out;
		}
	}
	attached = settled_kernel_kb();
	printf("K=%u cgroups, %d events a CPU, %d CPUs: Slab+VmallocUsed %+ld kB attached "
	       "(%.1f bytes per event, CPU and cgroup)\n", k, e, cpus, attached - before,
	       (attached - before) * 1024.0 / ((double)k * e * cpus));
	if (lat) {
		irqsoff_us("batch read", fds[0], ids, k, buf, words);
		irqsoff_us("re-attach", fds[0], ids, k, buf, words);
	}
	if (hold && holds(dir, fds[0], ids, k, buf, words))
		goto out;
	for (c = 0; c < cpus; c++)
		cgs_attach(fds[c * e], NULL, 0);
	after = settled_kernel_kb();
	printf("after a detach: %+ld kB from before the attach\n", after - before);
	ret = 0;
out:
	for (c = 0; c < cpus * e; c++)
		if (fds[c] >= 0)
			close(fds[c]);
	cgs_rmtree(dir, mnt);
	free(buf);
	free(fds);
	free(ids);
	return ret;
}
