// SPDX-License-Identifier: GPL-2.0
/*
 * Stress PERF_EVENT_IOC_ATTACH_CGROUP / READ_CGROUP for a bounded time:
 * threads attach, re-attach, read, detach and close events, shared and
 * private, while pairs of tasks ping-pong through pipes across cgroups,
 * get moved between cgroups, and cgroups are created and removed.
 *
 * It checks that every call returns success or an errno the ABI allows in
 * that situation: ENOENT for a cgroup removed meanwhile, ENOSPC for a
 * buffer sized before an attach grew the set, and, for reads only, EAGAIN
 * when an attach or detach raced the read; the kernel side (lockdep, KFENCE, RCU, WARN) is checked
 * by whoever runs it, e.g. scripts/vm, which fails on any report.  The
 * duration is CGS_STRESS_SECONDS (default 10, at most 1800).  An event
 * cannot be opened on a CPU that is offline (ENODEV): `make stress` runs
 * this test beside cgroup_share_fuzz, which takes CPU 1 off and on line.
 */
#include "cgroup_share_util.h"
#include "../kselftest_harness.h"
#include <pthread.h>
#include <stdatomic.h>

#define NR_CG		8
#define NR_PAIRS	3
#define NR_CHURN	4

static struct {
	char dir[PATH_MAX];
	char cg[NR_CG][PATH_MAX];
	__u64 id[NR_CG];
	char churn[NR_CHURN][PATH_MAX];
	__u64 churn_id[NR_CHURN];	/* __atomic_*() */
	pid_t workers[2 * NR_PAIRS];
	int shared_fd;
	int ncpus;
	atomic_bool stop;
	atomic_long ops, bad;
	atomic_int last_bad;
} st;

/* count a call that returned @ret; EAGAIN is a read's answer only */
static void note(int ret, const char *what, bool read)
{
	atomic_fetch_add(&st.ops, 1);
	if (ret >= 0 || ret == -ENOENT || ret == -ENOSPC || (read && ret == -EAGAIN))
		return;
	atomic_fetch_add(&st.bad, 1);
	atomic_store(&st.last_bad, ret);
	fprintf(stderr, "# %s: %s\n", what, strerror(-ret));
}

static unsigned int rnd(unsigned int *seed, unsigned int n)
{
	return rand_r(seed) % n;
}

/* a random set of ids: fixed cgroups and churned ones (maybe removed) */
static unsigned int pick(unsigned int *seed, __u64 *ids)
{
	unsigned int n = 1 + rnd(seed, NR_CG), i, j, k = 0;

	for (i = 0; i < n; i++) {
		__u64 id = rnd(seed, 4) ? st.id[rnd(seed, NR_CG)] :
			   __atomic_load_n(&st.churn_id[rnd(seed, NR_CHURN)], __ATOMIC_RELAXED);

		for (j = 0; j < k; j++)
			if (ids[j] == id)
				break;
		if (id && j == k)
			ids[k++] = id;
	}
	return k;
}

static void exercise(int fd, unsigned int *seed)
{
	__u64 ids[NR_CG], buf[2 + 2 * (NR_CG + 1)];
	unsigned int n = pick(seed, ids);
	int ret;

	note(cgs_attach(fd, ids, n), "attach", false);
	note(cgs_read(fd, 0, buf, 1 + 2 * NR_CG), "batch read", true);
	note(cgs_read(fd, n ? ids[rnd(seed, n)] : st.id[0], buf, 1), "read", true);
	if (!rnd(seed, 4))
		note(cgs_attach(fd, NULL, 0), "detach", false);
	if (!rnd(seed, 8)) {
		ret = ioctl(fd, rnd(seed, 2) ? PERF_EVENT_IOC_DISABLE :
			    PERF_EVENT_IOC_ENABLE, 0);
		note(ret ? -errno : 0, "enable/disable", false);
	}
	if (!rnd(seed, 16)) {
		ret = ioctl(fd, PERF_EVENT_IOC_RESET, 0);
		note(ret ? -errno : 0, "reset", false);
	}
}

/* attach/read/detach on the shared event and on private ones, then close */
static void *attacher(void *arg)
{
	unsigned int seed = (unsigned int)(long)arg;

	while (!atomic_load(&st.stop)) {
		__u64 fmt = rnd(&seed, 2) ? PERF_FORMAT_GROUP | PERF_FORMAT_ID |
			    PERF_FORMAT_TOTAL_TIME_ENABLED : PERF_FORMAT_LOST;
		int cpu = rnd(&seed, st.ncpus), fd, sib = -1, i;

		exercise(st.shared_fd, &seed);

		fd = cgs_open_counter(cpu, PERF_COUNT_SW_CPU_CLOCK, fmt, -1);
		if (fd < 0) {
			note(errno == ENODEV ? 0 : -errno, "open", false);
			continue;
		}
		if (fmt & PERF_FORMAT_GROUP)
			sib = cgs_open_counter(cpu, PERF_COUNT_SW_CONTEXT_SWITCHES,
					       fmt, fd);
		for (i = rnd(&seed, 4); i >= 0; i--)
			exercise(fd, &seed);
		/* close with cgroups attached, the member first or last */
		if (sib >= 0 && rnd(&seed, 2)) {
			close(sib);
			sib = -1;
		}
		close(fd);
		if (sib >= 0)
			close(sib);
	}
	return NULL;
}

/* move the workers between cgroups while they run */
static void *mover(void *arg)
{
	unsigned int seed = (unsigned int)(long)arg;

	while (!atomic_load(&st.stop)) {
		pid_t pid = st.workers[rnd(&seed, 2 * NR_PAIRS)];

		cgs_move(st.cg[rnd(&seed, NR_CG)], pid);
		usleep(500);
	}
	return NULL;
}

/* create and remove cgroups that the attachers use */
static void *churner(void *arg)
{
	unsigned int seed = (unsigned int)(long)arg;

	while (!atomic_load(&st.stop)) {
		int i = rnd(&seed, NR_CHURN);
		char name[16];

		if (__atomic_load_n(&st.churn_id[i], __ATOMIC_RELAXED)) {
			if (!rmdir(st.churn[i]))
				__atomic_store_n(&st.churn_id[i], 0, __ATOMIC_RELAXED);
		} else {
			char path[PATH_MAX];

			snprintf(name, sizeof(name), "churn%d", i);
			memcpy(path, st.dir, sizeof(path));
			__atomic_store_n(&st.churn_id[i],
					 cgs_mkdir(path, name, st.churn[i]),
					 __ATOMIC_RELAXED);
		}
		usleep(1000);
	}
	return NULL;
}

/* ping-pong through two pipes with the other half of the pair */
static void worker(int rfd, int wfd, int first)
{
	char c = 0;

	if (first && write(wfd, &c, 1) != 1)
		_exit(1);
	for (;;) {
		if (read(rfd, &c, 1) != 1 || write(wfd, &c, 1) != 1)
			_exit(0);
	}
}

FIXTURE(stress) {
};

FIXTURE_SETUP(stress)
{
}

FIXTURE_TEARDOWN(stress)
{
}

/* the harness kills a test after this long: leave room for setup and joins */
#define STRESS_TIMEOUT	1900
#define STRESS_MAX	1800

static void run_stress(struct __test_metadata *_metadata)
{
	const char *env = getenv("CGS_STRESS_SECONDS"), *why, *mnt;
	int seconds = env ? atoi(env) : 10, i, nthreads = 0;
	char name[16], parent[PATH_MAX];
	pthread_t threads[8];

	/* as the share fixture: else every attach would be ENODEV */
	why = cgs_private_parent("perf_stress", &mnt, st.dir);
	if (why)
		SKIP(return, "%s", why);
	if (seconds < 1 || seconds > STRESS_MAX)
		seconds = seconds < 1 ? 1 : STRESS_MAX;

	st.ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (st.ncpus > 4)
		st.ncpus = 4;
	for (i = 0; i < NR_CG; i++) {
		snprintf(name, sizeof(name), "cg%d", i);
		/* a two-level hierarchy: cg4..cg7 live in cg0..cg3 */
		memcpy(parent, i < 4 ? st.dir : st.cg[i - 4], sizeof(parent));
		st.id[i] = cgs_mkdir(parent, name, st.cg[i]);
		ASSERT_NE(0ULL, st.id[i]);
	}

	for (i = 0; i < NR_PAIRS; i++) {
		int ab[2], ba[2], k;

		ASSERT_EQ(0, pipe(ab));
		ASSERT_EQ(0, pipe(ba));
		for (k = 0; k < 2; k++) {
			int cgfd = open(st.cg[(2 * i + k) % NR_CG], O_RDONLY | O_DIRECTORY);
			pid_t pid;

			ASSERT_LE(0, cgfd);
			pid = cgs_fork_into(cgfd);
			if (!pid) {
				cgs_pin(i % st.ncpus);
				worker(k ? ba[0] : ab[0], k ? ab[1] : ba[1], k);
			}
			ASSERT_LT(0, pid);
			st.workers[2 * i + k] = pid;
			close(cgfd);
		}
		close(ab[0]);
		close(ab[1]);
		close(ba[0]);
		close(ba[1]);
	}

	st.shared_fd = cgs_open_counter(0, PERF_COUNT_SW_TASK_CLOCK,
					PERF_FORMAT_TOTAL_TIME_RUNNING, -1);
	ASSERT_LE(0, st.shared_fd);

	for (i = 0; i < 3; i++)
		ASSERT_EQ(0, pthread_create(&threads[nthreads++], NULL, attacher,
					    (void *)(long)(i + 1)));
	ASSERT_EQ(0, pthread_create(&threads[nthreads++], NULL, mover, (void *)7L));
	ASSERT_EQ(0, pthread_create(&threads[nthreads++], NULL, churner, (void *)9L));

	sleep(seconds);
	atomic_store(&st.stop, true);
	for (i = 0; i < nthreads; i++)
		pthread_join(threads[i], NULL);

	for (i = 0; i < 2 * NR_PAIRS; i++) {
		kill(st.workers[i], SIGKILL);
		waitpid(st.workers[i], NULL, 0);
	}
	close(st.shared_fd);
	cgs_rmtree(st.dir, mnt);

	TH_LOG("%ld calls in %d s, %ld unexpected", atomic_load(&st.ops), seconds,
	       atomic_load(&st.bad));
	EXPECT_EQ(0, atomic_load(&st.bad));
	EXPECT_LT(100, atomic_load(&st.ops));
}

TEST_F_TIMEOUT(stress, run, STRESS_TIMEOUT)
{
	run_stress(_metadata);
}

TEST_HARNESS_MAIN
