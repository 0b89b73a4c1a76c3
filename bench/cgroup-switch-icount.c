// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup-switch-icount - what a cross-cgroup switch costs while software
 * events are counted, in nanoseconds of CLOCK_MONOTONIC per round trip of
 * a pipe ping-pong: under qemu -icount shift=0 the guest's clock advances
 * one nanosecond per instruction executed, so that is instructions, and
 * the same run gives the same figure whatever the host is doing.
 *
 * Built static, it is the init of an initramfs (bench/cgroup-switch-icount.sh
 * boots it on the arm64 kernel with the series and on the base kernel):
 * as PID 1 it mounts cgroup2, enables the pids controller at the root so
 * that every cgroup gets a css of its own, runs the matrix below, prints
 * one line per figure and powers the machine off.  Run as root on a
 * running system, it uses that system's cgroup2 mount (a check that it
 * works, not a measurement, unless the system runs under -icount).
 *
 * Every figure is of one mode, E events (the 8 software events perf stat
 * counts, repeated or cut to E) and K cgroups DEPTH levels down:
 *   nothing  the ping-pong alone
 *   plain    E CPU-wide counting events on every CPU, no cgroup (perf stat -a)
 *   cgroup   E cgroup events per CPU and counted cgroup (PERF_FLAG_PID_CGROUP,
 *            perf stat --for-each-cgroup)
 *   shared   E CPU-wide events per CPU, each with every counted cgroup
 *            attached (PERF_EVENT_IOC_ATTACH_CGROUP); "-" where the kernel
 *            has no such ioctl
 *   bpf      with -p PERFX only: perfx stat -a --cgroup-mode bpf
 *            --for-each-cgroup of the counted cgroups with the E events,
 *            its BPF program reading them at every cgroup switch; the
 *            bench is its workload (-W), which starts the ping-pong once
 *            perfx counts, and stops it when the ping-pong is over
 * The counted cgroups are c0..c<K-1> under a chain l1/../l<DEPTH-1> of the
 * bench's cgroup, and the chain's cgroups: they occupy DEPTH levels.  The
 * two tasks of the ping-pong are forked into c0 and c1 (made uncounted
 * beside c0 where K = 1), pinned to CPU 0, and pass a byte back and
 * forth: two cgroup switches per round trip.  Each figure idles first
 * (SETTLE_US), the first tenth of the rounds warms up, the rest are
 * timed.  After the run, each counting mode must have counted c0's time
 * on CPU 0, or the figure is reported as an error.
 *
 * Usage: cgroup-switch-icount [-r ROUNDS] [-q | -k] [-m MODE] [-p PERFX]
 *   -r  round trips per figure (3000)
 *   -q  only K = 200 at 8 events and depth 1 (a quick check)
 *   -k  only 8 events at depth 1, K = 1, 10, 200 and 1000
 *   -m  only MODE at K = 200, 8 events and depth 1 (for bench/switch-trace.py)
 *   -p  perfx, for the bpf mode (a running system's: it is not an init)
 * Output: "icount MODE E K DEPTH NS_PER_ROUND_TRIP" per figure, or
 * "icount MODE E K DEPTH - REASON" where the mode cannot run.
 */
#include "../selftests/perf_events/cgroup_share_util.h"
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif
#define CG_MOUNT	"/cgroup"
#define NCPUS_MAX	64
/*
 * Idle before each ping-pong, so that the previous figure's teardown is
 * over: RCU callbacks, cgroup offlining and freeing, and the static keys
 * that the last cgroup event or table drops from delayed work, one second
 * each.  Under -icount with sleep=off an idle guest's clock jumps to the
 * next timer, so this costs no host time.
 */
#define SETTLE_US	3000000

static const struct {
	__u64 config;
	const char *name;	/* perf's, for perfx in the bpf mode */
} sw_events[] = {
	{ PERF_COUNT_SW_CPU_CLOCK, "cpu-clock" },
	{ PERF_COUNT_SW_TASK_CLOCK, "task-clock" },
	{ PERF_COUNT_SW_CONTEXT_SWITCHES, "context-switches" },
	{ PERF_COUNT_SW_CPU_MIGRATIONS, "cpu-migrations" },
	{ PERF_COUNT_SW_PAGE_FAULTS, "page-faults" },
	{ PERF_COUNT_SW_PAGE_FAULTS_MIN, "minor-faults" },
	{ PERF_COUNT_SW_PAGE_FAULTS_MAJ, "major-faults" },
	{ PERF_COUNT_SW_ALIGNMENT_FAULTS, "alignment-faults" },
};

enum mode { MODE_NOTHING, MODE_PLAIN, MODE_CGROUP, MODE_SHARED, MODE_BPF };

static const char *const mode_names[] = { "nothing", "plain", "cgroup", "shared", "bpf" };

/*
 * The cgroups of one K and depth: their ids and dir fds, the counted ones
 * first (K leaves c0.., then the chain above them), then c1 where K = 1:
 * the ping-pong needs two leaves whatever K is.
 */
struct tree {
	char top[PATH_MAX];
	unsigned int nr;
	unsigned int counted;	/* K + DEPTH - 1 */
	unsigned int task[2];	/* the ping-pong's: c0 and c1 */
	__u64 *ids;
	int *dirfds;
	char **names;		/* below the cgroup2 mount, for perfx */
};

/*
 * The counting fds of one mode, and which of them counts c0 on CPU 0; in
 * the bpf mode, perfx: its pid, the pipe its workload holds until the
 * ping-pong is over, and its output
 */
struct counting {
	int *fds;
	unsigned int nr;
	int probe;
	pid_t perfx;
	int hold;
	int out;
};

static int ncpus;
static char bench_dir[PATH_MAX];
static const char *cg_mount = CG_MOUNT;
static const char *perfx_path;
static const char *self_path;

static void tree__destroy(struct tree *t)
{
	for (unsigned int i = 0; i < t->nr; i++) {
		if (t->dirfds[i] >= 0)
			close(t->dirfds[i]);
		free(t->names[i]);
	}
	if (t->top[0])
		cgs_rmtree(t->top, bench_dir);
	free(t->ids);
	free(t->dirfds);
	free(t->names);
	memset(t, 0, sizeof(*t));
}

/* the cgroup at @path as the next of @t; its id taken by the caller */
static int tree__take(struct tree *t, const char *path)
{
	unsigned int i = t->nr;

	t->dirfds[i] = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (t->dirfds[i] < 0)
		return -errno;
	t->nr++;
	t->names[i] = strdup(path + strlen(cg_mount));
	return t->names[i] ? 0 : -ENOMEM;
}

static int tree__add(struct tree *t, const char *parent, const char *name,
		     char *path)
{
	t->ids[t->nr] = cgs_mkdir(parent, name, path);
	if (!t->ids[t->nr])
		return -errno;
	return tree__take(t, path);
}

static int tree__create(struct tree *t, unsigned int k, unsigned int depth)
{
	char parent[PATH_MAX], path[PATH_MAX], name[32];
	unsigned int i, size = k + depth + 1;
	int err = -ENOMEM;

	memset(t, 0, sizeof(*t));
	t->ids = calloc(size, sizeof(*t->ids));
	t->dirfds = malloc(size * sizeof(*t->dirfds));
	t->names = calloc(size, sizeof(*t->names));
	if (!t->ids || !t->dirfds || !t->names)
		goto out_err;
	memset(t->dirfds, -1, size * sizeof(*t->dirfds));
	if (snprintf(t->top, sizeof(t->top), "%s/k%u-d%u", bench_dir, k, depth) >=
	    (int)sizeof(t->top))
		errno = ENAMETOOLONG;
	else if (!mkdir(t->top, 0755))
		errno = 0;
	if (errno) {
		err = -errno;
		t->top[0] = 0;
		goto out_err;
	}
	strcpy(parent, t->top);
	for (i = 1; i < depth; i++) {
		if (snprintf(path, sizeof(path), "%s/l%u", parent, i) >= (int)sizeof(path))
			errno = ENAMETOOLONG;
		else if (!mkdir(path, 0755))
			errno = 0;
		if (errno) {
			err = -errno;
			goto out_err;
		}
		strcpy(parent, path);
	}
	for (i = 0; i < k; i++) {
		snprintf(name, sizeof(name), "c%u", i);
		err = tree__add(t, parent, name, path);
		if (err)
			goto out_err;
	}
	/* the chain, counted as well: cgs_id() of each level */
	while (strcmp(parent, t->top)) {
		t->ids[t->nr] = cgs_id(parent);
		err = t->ids[t->nr] ? tree__take(t, parent) : -errno;
		if (err)
			goto out_err;
		*strrchr(parent, '/') = 0;
	}
	t->counted = t->nr;
	t->task[1] = 1;
	if (k == 1) {
		t->task[1] = t->nr;
		strcpy(parent, path);
		*strrchr(parent, '/') = 0;
		err = tree__add(t, parent, "c1", path);
		if (err)
			goto out_err;
	}
	return 0;

out_err:
	tree__destroy(t);
	return err;
}

/* perfx's pid, if it runs, after it was told to stop; 0 or -errno */
static int counting__stop(struct counting *c)
{
	int status;

	if (c->hold >= 0)
		close(c->hold);
	c->hold = -1;
	if (c->perfx <= 0)
		return 0;
	if (waitpid(c->perfx, &status, 0) != c->perfx)
		return -errno;
	c->perfx = 0;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECHILD;
}

static void counting__close(struct counting *c)
{
	counting__stop(c);
	if (c->out >= 0)
		close(c->out);
	for (unsigned int i = 0; i < c->nr; i++)
		close(c->fds[i]);
	free(c->fds);
	memset(c, 0, sizeof(*c));
	c->hold = c->out = -1;
}

static int counting__add(struct counting *c, int fd)
{
	if (fd < 0)
		return -errno;
	c->fds[c->nr++] = fd;
	return 0;
}

static int open_event(unsigned int e, int pid, int cpu, unsigned long flags)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = sw_events[e % ARRAY_SIZE(sw_events)].config,
	};

	return cgs_perf_open(&attr, pid, cpu, -1, flags | PERF_FLAG_FD_CLOEXEC);
}

/* @nr strings joined by commas, @item(@i) each: malloc()ed, or NULL */
static char *join(unsigned int nr, const char *(*item)(const void *, unsigned int),
		  const void *arg)
{
	size_t len = 1;
	char *s;

	for (unsigned int i = 0; i < nr; i++)
		len += strlen(item(arg, i)) + 1;
	s = calloc(1, len);
	for (unsigned int i = 0; s && i < nr; i++) {
		strcat(s, item(arg, i));
		if (i + 1 < nr)
			strcat(s, ",");
	}
	return s;
}

static const char *event_name(const void *arg, unsigned int i)
{
	return sw_events[i % ARRAY_SIZE(sw_events)].name;
}

static const char *cgroup_name(const void *arg, unsigned int i)
{
	return ((const struct tree *)arg)->names[i];
}

/*
 * In perfx's child: @in as standard input, @ready as fd 3, @out as
 * standard error, then perfx; any of them may be one of those numbers
 * already, so each goes above them first.  dup2() leaves the new fds open
 * across exec.
 */
static void perfx__exec(int in, int ready, int out, const char *cgroups,
			const char *events)
{
	in = fcntl(in, F_DUPFD_CLOEXEC, 10);
	ready = fcntl(ready, F_DUPFD_CLOEXEC, 10);
	out = fcntl(out, F_DUPFD_CLOEXEC, 10);
	if (in >= 0 && ready >= 0 && out >= 0 &&
	    dup2(in, 0) == 0 && dup2(ready, 3) == 3 && dup2(out, 2) == 2)
		execl(perfx_path, perfx_path, "stat", "-a", "-x,", "--cgroup-mode", "bpf",
		      "--for-each-cgroup", cgroups, "-e", events, "--", self_path, "-W",
		      (char *)NULL);
	_exit(127);
}

/*
 * perfx stat in BPF mode, counting @nev events of @t's counted cgroups,
 * its output to c->out; returns once it counts (its workload, this
 * program with -W, said so), 0 or -errno
 */
static int counting__start_perfx(struct counting *c, unsigned int nev,
				 const struct tree *t)
{
	char *events = join(nev, event_name, NULL);
	char *cgroups = join(t->counted, cgroup_name, t);
	int ready[2] = { -1, -1 }, hold[2] = { -1, -1 }, err = 0;
	char byte;

	c->out = memfd_create("perfx-output", MFD_CLOEXEC);
	if (!events || !cgroups)
		err = -ENOMEM;
	else if (c->out < 0 || pipe2(ready, O_CLOEXEC) || pipe2(hold, O_CLOEXEC))
		err = -errno;
	else if ((c->perfx = fork()) < 0)
		err = -errno;
	else if (c->perfx == 0)
		perfx__exec(hold[0], ready[1], c->out, cgroups, events);
	/* only perfx holds these ends now: EOF on ready[0] if it fails */
	if (ready[1] >= 0)
		close(ready[1]);
	if (hold[0] >= 0)
		close(hold[0]);
	c->hold = hold[1];
	if (!err && read(ready[0], &byte, 1) != 1)
		err = -EPIPE;	/* perfx failed: its output says why */
	if (ready[0] >= 0)
		close(ready[0]);
	free(cgroups);
	free(events);
	return err;
}

/*
 * Open @mode's events for @nev events and @t's cgroups; the probe is the
 * first event (cpu-clock) of CPU 0, for c0 in cgroup mode.  0 or -errno.
 */
static int counting__open(struct counting *c, enum mode mode, unsigned int nev,
			  const struct tree *t)
{
	unsigned int per_cpu = mode == MODE_CGROUP ? t->counted : 1;
	int cpu, err = 0;

	memset(c, 0, sizeof(*c));
	c->probe = -1;
	c->hold = c->out = -1;
	if (mode == MODE_NOTHING)
		return 0;
	if (mode == MODE_BPF) {
		err = counting__start_perfx(c, nev, t);
		if (err)
			counting__stop(c);
		return err;
	}
	c->fds = malloc((size_t)ncpus * nev * per_cpu * sizeof(*c->fds));
	if (!c->fds)
		return -ENOMEM;
	for (cpu = 0; cpu < ncpus && !err; cpu++) {
		for (unsigned int e = 0; e < nev && !err; e++) {
			if (mode != MODE_CGROUP) {
				err = counting__add(c, open_event(e, -1, cpu, 0));
				if (!err && mode == MODE_SHARED)
					err = cgs_attach(c->fds[c->nr - 1], t->ids, t->counted);
			}
			for (unsigned int i = 0; mode == MODE_CGROUP && i < t->counted && !err; i++)
				err = counting__add(c, open_event(e, t->dirfds[i], cpu,
								  PERF_FLAG_PID_CGROUP));
			if (cpu == 0 && e == 0)
				c->probe = mode == MODE_CGROUP ? 0 : c->nr - 1;
		}
	}
	if (err)
		counting__close(c);
	return err;
}

/* perfx's output @fd from its start, as a stream of its own, or NULL */
static FILE *output__open(int fd)
{
	int dfd = fd >= 0 ? dup(fd) : -1;
	FILE *f = dfd >= 0 ? fdopen(dfd, "r") : NULL;

	if (!f) {
		if (dfd >= 0)
			close(dfd);
		return NULL;
	}
	rewind(f);
	return f;
}

/* c0's cpu-clock in perfx's -x, output (once it stopped), or -1 */
static long long counting__perfx_probe(const struct counting *c, const struct tree *t)
{
	char line[512], want[PATH_MAX + 32];
	long long v = -1;
	FILE *f;

	snprintf(want, sizeof(want), ",cpu-clock,%s,", t->names[0]);
	f = output__open(c->out);
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, want))
			v = strtod(line, NULL) * 1e6;	/* msec */
	fclose(f);
	return v;
}

/* perfx's output, on stderr: why it gave no figure */
static void counting__show_perfx(const struct counting *c)
{
	char line[512];
	FILE *f = output__open(c->out);

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		fprintf(stderr, "perfx: %s", line);
	fclose(f);
}

/* c0's count of the probe event after the run, or -1 */
static long long counting__probe(struct counting *c, const struct tree *t,
				 enum mode mode)
{
	long long v;

	if (mode == MODE_BPF)
		return counting__stop(c) ? -1 : counting__perfx_probe(c, t);
	if (mode == MODE_SHARED)
		return cgs_count(c->fds[c->probe], t->ids[0]);
	if (read(c->fds[c->probe], &v, sizeof(v)) != sizeof(v))
		return -1;
	return v;
}

/*
 * One task of the ping-pong: @rounds passes, timing those after @warm.
 * It keeps only its own two ends, so that it sees EOF if the other dies.
 */
static void pong(const int ab[2], const int ba[2], bool first, int rounds,
		 int warm, __u64 *ns)
{
	int rfd = first ? ba[0] : ab[0], wfd = first ? ab[1] : ba[1];
	__u64 start = 0;
	char c = 0;

	close(first ? ab[0] : ba[0]);
	close(first ? ba[1] : ab[1]);
	cgs_pin(0);
	for (int n = 0; n < rounds; n++) {
		if (first && n == warm)
			start = cgs_now_ns(CLOCK_MONOTONIC);
		if (first && write(wfd, &c, 1) != 1)
			_exit(1);
		if (read(rfd, &c, 1) != 1)
			_exit(1);
		if (!first && write(wfd, &c, 1) != 1)
			_exit(1);
	}
	if (first)
		*ns = cgs_now_ns(CLOCK_MONOTONIC) - start;
	_exit(0);
}

/* ns per timed round trip between c0 and c1 of @t, or -errno */
static long long ping_pong(const struct tree *t, int rounds)
{
	int ab[2] = { -1, -1 }, ba[2] = { -1, -1 }, status, warm = rounds / 10;
	pid_t pids[2] = { -1, -1 };
	long long err = 0;
	__u64 *ns;

	ns = mmap(NULL, sizeof(*ns), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ns == MAP_FAILED)
		return -errno;
	if (pipe(ab) || pipe(ba))
		err = -errno;
	for (int i = 0; i < 2 && !err; i++) {
		pids[i] = cgs_fork_into(t->dirfds[t->task[i]]);
		if (pids[i] == 0)
			pong(ab, ba, !i, rounds + warm, warm, ns);
		if (pids[i] < 0)
			err = -errno;
	}
	for (int i = 0; i < 2; i++) {
		if (ab[i] >= 0)
			close(ab[i]);
		if (ba[i] >= 0)
			close(ba[i]);
	}
	for (int i = 0; i < 2; i++) {
		if (pids[i] <= 0)
			continue;
		if (err)
			kill(pids[i], SIGKILL);
		if (waitpid(pids[i], &status, 0) != pids[i] ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			err = err ?: -ECHILD;
	}
	if (!err)
		err = *ns / rounds;
	munmap(ns, sizeof(*ns));
	return err;
}

/* a figure: @mode's cost at @nev events, @k cgroups and @depth */
static void figure(enum mode mode, unsigned int nev, unsigned int k,
		   unsigned int depth, int rounds)
{
	const char *name = mode_names[mode];
	struct counting c;
	struct tree t;
	long long ns;
	int err;

	err = tree__create(&t, k, depth);
	if (err) {
		printf("icount %s %u %u %u - cgroups: %s\n", name, nev, k, depth,
		       strerror(-err));
		return;
	}
	err = counting__open(&c, mode, nev, &t);
	if (err) {
		printf("icount %s %u %u %u - open: %s\n", name, nev, k, depth,
		       strerror(-err));
		if (mode == MODE_BPF)
			counting__show_perfx(&c);
		counting__close(&c);
		goto out_tree;
	}
	usleep(SETTLE_US);
	ns = ping_pong(&t, rounds);
	if (ns < 0)
		printf("icount %s %u %u %u - ping-pong: %s\n", name, nev, k, depth,
		       strerror(-ns));
	else if (mode != MODE_NOTHING && counting__probe(&c, &t, mode) <= 0) {
		printf("icount %s %u %u %u - c0 counted nothing\n", name, nev, k, depth);
		if (mode == MODE_BPF)
			counting__show_perfx(&c);
	}
	else
		printf("icount %s %u %u %u %lld\n", name, nev, k, depth, ns);
	fflush(stdout);
	counting__close(&c);
out_tree:
	tree__destroy(&t);
}

/*
 * The figures of one E, K and depth.  Nothing and plain do not depend on K
 * but are measured beside each: the ping-pong's own cost drifts by a few
 * per cent over a boot, so each ratio is taken between neighbours.
 */
static void figures(unsigned int nev, unsigned int k, unsigned int depth,
		    int rounds)
{
	for (enum mode m = MODE_NOTHING; m <= (perfx_path ? MODE_BPF : MODE_SHARED); m++)
		figure(m, nev, k, depth, rounds);
}

/* cgroup events at K = 1000 take 16,000 fds on 2 CPUs */
static void raise_nofile(void)
{
	struct rlimit nofile = { 1 << 20, 1 << 20 };

	if (setrlimit(RLIMIT_NOFILE, &nofile) && !getrlimit(RLIMIT_NOFILE, &nofile)) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
}

static int as_init(void)
{
	mkdir(CG_MOUNT, 0755);
	if (mount("cgroup2", CG_MOUNT, "cgroup2", 0, NULL)) {
		perror("mount cgroup2");
		return -1;
	}
	/* every cgroup gets a css of its own, on the base kernel as well */
	if (cgs_write(CG_MOUNT, "cgroup.subtree_control", "+pids"))
		fprintf(stderr, "cannot enable pids at the root\n");
	snprintf(bench_dir, sizeof(bench_dir), "%s/icount", CG_MOUNT);
	return mkdir(bench_dir, 0755);
}

/*
 * -W: perfx's workload in the bpf mode: say that perfx counts (fd 3), and
 * wait until the bench closes standard input
 */
static int hold_while_counted(void)
{
	char byte = 'r';

	if (write(3, &byte, 1) != 1)
		return 1;
	close(3);
	while (read(0, &byte, 1) > 0)
		;
	return 0;
}

int main(int argc, char **argv)
{
	static const unsigned int ks[] = { 1, 10, 200, 1000 };
	static const unsigned int nevs[] = { 1, 32 };
	static const unsigned int depths[] = { 4, 16 };
	bool init = getpid() == 1, quick = false, k_only = false;
	int opt, rounds = 3000, only = -1;

	while ((opt = getopt(argc, argv, "r:qkm:p:W")) != -1) {
		switch (opt) {
		case 'r':
			rounds = atoi(optarg);
			break;
		case 'q':
			quick = true;
			break;
		case 'k':
			k_only = true;
			break;
		case 'p':
			perfx_path = optarg;
			break;
		case 'W':
			return hold_while_counted();
		case 'm':
			for (int m = MODE_NOTHING; m <= MODE_BPF; m++)
				if (!strcmp(optarg, mode_names[m]))
					only = m;
			if (only >= 0)
				break;
			/* fall through */
		default:
			fprintf(stderr, "usage: %s [-r ROUNDS] [-q | -k] [-m nothing|plain|cgroup|shared|bpf] [-p PERFX]\n",
				argv[0]);
			return 2;
		}
	}
	self_path = realpath(argv[0], NULL);
	if ((perfx_path || only == MODE_BPF) && (init || !perfx_path || !self_path)) {
		fprintf(stderr, "%s: the bpf mode needs -p PERFX, a running system, and its own path\n",
			argv[0]);
		return 2;
	}
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (rounds < 10 || ncpus < 1 || ncpus > NCPUS_MAX) {
		fprintf(stderr, "%s: need at least 10 rounds and 1 to %d CPUs\n",
			argv[0], NCPUS_MAX);
		return 2;
	}
	raise_nofile();
	if (!init)
		cg_mount = cgs_cgroup2_mount() ?: "/sys/fs/cgroup";
	if (init ? as_init() : cgs_mkdir_private(cg_mount, "icount", bench_dir)) {
		perror("cgroup for the bench");
		return 1;
	}
	printf("icount start %s %d CPUs %d rounds\n", init ? "init" : "process",
	       ncpus, rounds);
	if (only >= 0) {
		figure(only, 8, 200, 1, rounds);
	} else if (quick) {
		figures(8, 200, 1, rounds);
	} else if (k_only) {
		for (unsigned int i = 0; i < ARRAY_SIZE(ks); i++)
			figures(8, ks[i], 1, rounds);
	} else {
		for (unsigned int i = 0; i < ARRAY_SIZE(ks); i++)
			figures(8, ks[i], 1, rounds);
		for (unsigned int i = 0; i < ARRAY_SIZE(nevs); i++)
			figures(nevs[i], 200, 1, rounds);
		for (unsigned int i = 0; i < ARRAY_SIZE(depths); i++)
			figures(8, 200, depths[i], rounds);
	}
	printf("icount end\n");
	fflush(stdout);
	cgs_rmtree(bench_dir, cg_mount);
	if (init) {
		sync();
		reboot(RB_POWER_OFF);
	}
	return 0;
}
