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
 * Then, with the K cgroups still attached to every CPU's group:
 *  - 16 more events on every CPU each attach only the first and the last
 *    of the K: the growth is what such an event costs, printed per event
 *    and CPU (a table sized by the slots between them would cost ~24
 *    bytes x K; 16 of them so that a small cost shows above the noise);
 *  - churn: R rounds (-r, 100 by default, 0: none) each create M new
 *    cgroups (-m, 100), attach them to one more event on every CPU (the
 *    16 are closed by then), detach and remove them; the growth from
 *    before the churn is printed after every tenth of the rounds; the
 *    same churn without attaching runs first, as the baseline: what the
 *    cgroups cost by themselves.  Attaching must add nothing to it:
 *    cgroups that come and go pin nothing once detached and removed,
 *    and the CPUs' indexes hold only the ids attached now.
 * The detach of the groups comes last, so its line also holds whatever
 * those two left behind.
 *
 * Usage: cgroup-share-mem [-k K] [-e E] [-l] [-H] [-r R] [-m M]
 *        (K 1000, E 8, R 100, M 100 by default)
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

/* events a CPU that attach {first, last} of the K */
#define FIRST_LAST	16

/*
 * FIRST_LAST task-clock events per CPU into @fds, each attaching {first,
 * last} of the @k cgroups @ids: print what one costs.
 */
static int first_last(int *fds, int cpus, const __u64 *ids, unsigned int k)
{
	__u64 two[2] = { ids[0], ids[k - 1] };
	int c, n = cpus * FIRST_LAST, err;
	long before, after;

	for (c = 0; c < n; c++) {
		fds[c] = cgs_open_counter(c / FIRST_LAST, PERF_COUNT_SW_TASK_CLOCK, 0, -1);
		if (fds[c] < 0) {
			fprintf(stderr, "cannot open an event on CPU %d: %s\n",
				c / FIRST_LAST, strerror(errno));
			return -1;
		}
	}
	before = settled_kernel_kb();
	for (c = 0; c < n; c++) {
		err = cgs_attach(fds[c], two, k > 1 ? 2 : 1);
		if (err) {
			fprintf(stderr, "attach of {first, last} on CPU %d: %s\n",
				c / FIRST_LAST, strerror(-err));
			return -1;
		}
	}
	after = settled_kernel_kb();
	printf("%d more events a CPU, each attaching {first, last} of the K: "
	       "Slab+VmallocUsed %+ld kB (%.0f bytes per event and CPU)\n", FIRST_LAST,
	       after - before, (after - before) * 1024.0 / n);
	return 0;
}

/*
 * @rounds rounds of: create @m new cgroups below @dir, attach them to the
 * event of each CPU in @fds and detach them (not without @fds), remove
 * them; print the growth from before the first round after every tenth
 * of the rounds.  Without @fds it is what cgroups that come and go cost
 * the kernel by themselves (slab caches that grew do not shrink at once),
 * the baseline of the same churn with attaching.
 */
static int churn(const char *dir, const int *fds, int cpus, unsigned int rounds,
		 unsigned int m)
{
	unsigned int r, i, every = rounds < 10 ? 1 : rounds / 10;
	char name[32], path[PATH_MAX + 32];
	__u64 *ids = calloc(m, sizeof(*ids));
	long before, now;
	int c, err;

	if (!ids)
		return -1;
	before = settled_kernel_kb();
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < m; i++) {
			snprintf(name, sizeof(name), "n%u.%u", r, i);
			ids[i] = cgs_mkdir(dir, name, path);
			if (!ids[i]) {
				fprintf(stderr, "cannot create cgroup %s: %s\n", path,
					strerror(errno));
				goto fail;
			}
		}
		for (c = 0; fds && c < cpus; c++) {
			err = cgs_attach(fds[c], ids, m);
			if (!err)
				err = cgs_attach(fds[c], NULL, 0);
			if (err) {
				fprintf(stderr, "churn attach/detach on CPU %d: %s\n", c,
					strerror(-err));
				goto fail;
			}
		}
		for (i = 0; i < m; i++) {
			snprintf(path, sizeof(path), "%s/n%u.%u", dir, r, i);
			if (rmdir(path)) {
				fprintf(stderr, "cannot remove cgroup %s: %s\n", path,
					strerror(errno));
				goto fail;
			}
		}
		if ((r + 1) % every && r + 1 < rounds)
			continue;
		now = settled_kernel_kb();
		printf("churn: after %u rounds of %u new cgroups %s and removed: "
		       "Slab+VmallocUsed %+ld kB from before the churn\n", r + 1, m,
		       fds ? "attached on every CPU, detached" : "created (no attach)",
		       now - before);
	}
	free(ids);
	return 0;
fail:
	free(ids);
	return -1;
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
	unsigned int k = 1000, rounds = 100, m = 100;
	long before, attached, after;
	const char *mnt = cgs_cgroup2_mount();
	int *fds, *fl_fds = NULL, *ch_fds = NULL;
	char dir[PATH_MAX];
	__u64 *ids, *buf;
	size_t words;

	while ((opt = getopt(argc, argv, "k:e:lHr:m:")) != -1) {
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
		case 'r':
			rounds = strtoul(optarg, NULL, 0);
			break;
		case 'm':
			m = strtoul(optarg, NULL, 0);
			break;
		default:
			fprintf(stderr, "usage: %s [-k K] [-e E] [-l] [-H] [-r R] [-m M]\n",
				argv[0]);
			return 2;
		}
	}
	if (!mnt || k < 1 || k > CGS_ATTACH_MAX || e < 1 || e > 64 || m < 1 ||
	    m > CGS_ATTACH_MAX) {
		fprintf(stderr, "%s: need cgroup2, 1 <= K <= %d, 1 <= E <= 64, 1 <= M <= %d\n",
			argv[0], CGS_ATTACH_MAX, CGS_ATTACH_MAX);
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s/perfx-mem.%d", mnt, getpid());
	/* a batch read of the group: { nr, { id, nr, ena, run, { val, id, lost }[e] }[k] } */
	words = 1 + (size_t)k * (4 + 3 * e);
	ids = calloc(k, sizeof(*ids));
	fds = calloc((size_t)cpus * e, sizeof(*fds));
	fl_fds = calloc((size_t)cpus * FIRST_LAST, sizeof(*fl_fds));
	ch_fds = calloc(cpus, sizeof(*ch_fds));
	buf = calloc(words, sizeof(*buf));
	if (!ids || !fds || !fl_fds || !ch_fds || !buf || mkdir(dir, 0755)) {
		perror(argv[0]);
		return 1;
	}
	memset(fds, -1, (size_t)cpus * e * sizeof(*fds));
	memset(fl_fds, -1, (size_t)cpus * FIRST_LAST * sizeof(*fl_fds));
	memset(ch_fds, -1, cpus * sizeof(*ch_fds));
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
	if (first_last(fl_fds, cpus, ids, k))
		goto out;
	for (c = 0; c < cpus * FIRST_LAST; c++) {
		close(fl_fds[c]);
		fl_fds[c] = -1;
	}
	if (rounds) {
		for (c = 0; c < cpus; c++) {
			ch_fds[c] = cgs_open_counter(c, PERF_COUNT_SW_TASK_CLOCK, 0, -1);
			if (ch_fds[c] < 0) {
				fprintf(stderr, "cannot open an event on CPU %d: %s\n", c,
					strerror(errno));
				goto out;
			}
		}
		if (churn(dir, NULL, cpus, rounds, m) ||
		    churn(dir, ch_fds, cpus, rounds, m))
			goto out;
		for (c = 0; c < cpus; c++) {
			close(ch_fds[c]);
			ch_fds[c] = -1;
		}
	}
	for (c = 0; c < cpus; c++)
		cgs_attach(fds[c * e], NULL, 0);
	after = settled_kernel_kb();
	printf("after a detach: %+ld kB from before the attach\n", after - before);
	ret = 0;
out:
	for (c = 0; c < cpus * FIRST_LAST; c++)
		if (fl_fds[c] >= 0)
			close(fl_fds[c]);
	for (c = 0; c < cpus; c++)
		if (ch_fds[c] >= 0)
			close(ch_fds[c]);
	for (c = 0; c < cpus * e; c++)
		if (fds[c] >= 0)
			close(fds[c]);
	cgs_rmtree(dir, mnt);
	free(buf);
	free(ch_fds);
	free(fl_fds);
	free(fds);
	free(ids);
	return ret;
}
