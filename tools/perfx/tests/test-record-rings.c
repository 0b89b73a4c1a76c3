// SPDX-License-Identifier: GPL-2.0
/*
 * Proves perf record's passes over its rings (lib/record-rings.c) on rings
 * laid out and written as the kernel does (tests/fake-ring.h), without
 * perf_event_open(): the rings drained node by node, then CPU by CPU,
 * whatever order their CPUs came in (a fake 2-node sysfs tree); a ring
 * below --mmap-flush held back, at it drained, any bytes in the last pass;
 * the FINISHED_ROUND rule (a round is due only after a pass that held
 * nothing back and once something was read since the last one); the bytes
 * per node; and --aio: each ring's bytes, a record split at its end
 * included, at the offsets reserved for it in drain order, the rounds'
 * markers after them, the rings given back at once, every buffer reused;
 * a write cut short (RLIMIT_FSIZE) named by its first byte not written.
 * The output is a file of the test's own directory, read back as records.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/data.h"
#include "lib/debug.h"
#include "lib/event.h"
#include "lib/numa.h"
#include "lib/record-rings.h"
#include "tests/fake-ring.h"
#include "tests/tap.h"

#define MAX_RINGS	4
#define DESC_MAX	4096

static char dir[PATH_MAX];
static size_t page;

/* What builtin-record.c sets up around the rings, on fake rings. */
struct rig {
	struct record_rings	r;
	struct perfx_writer	out;
	struct fake_ring	f[MAX_RINGS];
	int			fd;
	char			path[PATH_MAX + 32];
};

static int quiet(enum perfx_print_level level, const char *fmt, va_list ap)
{
	(void)level, (void)fmt, (void)ap;
	return 0;
}

static void rig__close(struct rig *g)
{
	record_rings__exit(&g->r);
	perfx_writer__exit(&g->out);
	if (g->fd >= 0)
		close(g->fd);
}

/*
 * Rings of one data page for @cpus[@nr] drained into the file @name, each
 * a fake ring that has carried @pos[i] bytes; @prelude written before the
 * rings start (a file's header).  -errno of what failed.
 */
static int rig__open(struct rig *g, const struct numa_topo *topo, const char *name,
		     const int *cpus, const __u64 *pos, int nr, __u64 flush, unsigned int nr_aio)
{
	struct record_rings_opts opts = {
		.pages = 1, .flush = flush, .affinity = READ_AFFINITY_SYS, .nr_aio = nr_aio,
	};
	struct perf_event_header prelude = { .type = PERF_RECORD_FINISHED_INIT, .size = 8 };
	int i, err, bad;

	memset(g, 0, sizeof(*g));
	snprintf(g->path, sizeof(g->path), "%s/%s", dir, name);
	g->fd = open(g->path, O_RDWR | O_CREAT | O_EXCL, 0600);
	err = g->fd < 0 ? -errno : perfx_writer__init(&g->out, g->fd, g->path);
	if (!err)
		err = perfx_writer__write(&g->out, &prelude, sizeof(prelude));
	if (!err)
		err = record_rings__init(&g->r, &opts, topo, &g->out, cpus, nr);
	for (i = 0; !err && i < nr; i++)
		if (!fake_ring__new(&g->f[i], &g->r.rings[i].ring, 1, pos[i]))
			err = -ENOMEM;
	if (!err)
		err = record_rings__start(&g->r, &bad);
	if (err)
		rig__close(g);
	return err;
}

/* A pass, and its FINISHED_ROUND if one is due, as builtin-record.c's. */
static int rig__drain(struct rig *g, bool last, __u64 *bytes, bool *round)
{
	struct perf_event_header h = { .type = PERF_RECORD_FINISHED_ROUND, .size = 8 };
	int err = record_rings__drain(&g->r, last, bytes, round);

	if (!err && *round)
		err = perfx_writer__write(&g->out, &h, sizeof(h));
	return err;
}

static void desc_add(char *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void desc_add(char *d, const char *fmt, ...)
{
	size_t len = strlen(d);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d + len, DESC_MAX - len, fmt, ap);
	va_end(ap);
}

/* "I 1001-1005 R ...": the expected records @from..@from + @nr - 1 */
static void desc_run(char *d, __u64 from, int nr)
{
	desc_add(d, "%llu-%llu ", (unsigned long long)from, (unsigned long long)(from + nr - 1));
}

/*
 * The file as the same kind of description: FINISHED_INIT "I", rounds
 * "R", runs of consecutive fake records, "bad@OFF" where a record is torn
 * or not whole.  What the writer holds is not in it: flush it first.
 */
static void rig__describe(struct rig *g, char *d)
{
	static char buf[64 * 1024];
	__u64 seq = 0, first = 0, next = 0;
	ssize_t len;
	size_t off = 0, n;
	bool run = false;

	d[0] = '\0';
	len = pread(g->fd, buf, sizeof(buf), 0);
	if (len < 0) {
		desc_add(d, "unreadable");
		return;
	}
	while (off < (size_t)len) {
		const struct perf_event_header *h = (const void *)(buf + off);

		if (h->type == PERF_RECORD_SAMPLE && len - off >= FAKE_RECORD_MIN) {
			memcpy(&seq, buf + off + sizeof(*h), sizeof(seq));
			n = fake_record__check(buf + off, len - off, seq);
			if (n && run && seq == next) {
				next++;
				off += n;
				continue;
			}
		} else {
			n = h->size == 8 && len - off >= 8 ? 8 : 0;
		}
		if (run)
			desc_run(d, first, next - first);
		run = false;
		if (!n) {
			desc_add(d, "bad@%zu", off);
			return;
		}
		if (h->type == PERF_RECORD_SAMPLE) {
			run = true;
			first = seq;
			next = seq + 1;
		} else {
			desc_add(d, "%s ", h->type == PERF_RECORD_FINISHED_ROUND ? "R" :
					   h->type == PERF_RECORD_FINISHED_INIT ? "I" : "?");
		}
		off += n;
	}
	if (run)
		desc_run(d, first, next - first);
}

/* @nr records @from.. of @size bytes into ring @i, published */
static void rig__put(struct rig *g, int i, __u64 from, int nr, size_t size)
{
	while (nr--)
		fake_ring__record(&g->f[i], from++, size);
	fake_ring__publish(&g->f[i]);
}

static bool given_back(struct rig *g, int i)
{
	return fake_ring__used(&g->f[i]) == 0;
}

/*
 * CPUs 2, 1, 3, 0 in that order; node 0 has CPUs 1 and 3, node 1 CPUs 0
 * and 2: the rings are drained as CPUs 1, 3, 0, 2 (rings 1, 2, 3, 0).
 * --mmap-flush 256.
 */
static void test_serial(void)
{
	static const int cpus[MAX_RINGS] = { 2, 1, 3, 0 };
	static const __u64 pos[MAX_RINGS] = { 0, 0, 4096 - 40, 7 * 4096 - 100 };
	char got[DESC_MAX], want[DESC_MAX] = "I ", sys[PATH_MAX + 8];
	struct numa_topo *topo = NULL;
	struct rig g;
	__u64 bytes;
	bool round;
	int err;

	tap_put(dir, "sys/online", "0-1\n");
	tap_put(dir, "sys/node0/cpulist", "1,3\n");
	tap_put(dir, "sys/node1/cpulist", "0,2\n");
	snprintf(sys, sizeof(sys), "%s/sys", dir);
	err = numa_topo__new(sys, &topo);
	if (!err)
		err = rig__open(&g, topo, "serial.data", cpus, pos, MAX_RINGS, 256, 0);
	if (!tap_ok(!err, "4 fake rings on 2 fake nodes, serial, --mmap-flush 256 (err %d)", err))
		goto out;
	tap_ok(g.r.order[0] == 1 && g.r.order[1] == 2 && g.r.order[2] == 3 && g.r.order[3] == 0,
	       "drained as CPUs 1, 3 (node 0), then 0, 2 (node 1): rings %d %d %d %d",
	       g.r.order[0], g.r.order[1], g.r.order[2], g.r.order[3]);

	/* CPU 2: exactly the threshold; CPU 1 past it; CPU 0 below */
	rig__put(&g, 0, 1001, 4, 64);
	rig__put(&g, 1, 2001, 5, 64);
	rig__put(&g, 3, 4001, 2, 48);
	err = rig__drain(&g, false, &bytes, &round);
	tap_ok(!err && bytes == 576 && !round,
	       "pass 1: 320 + 256 bytes read, CPU 0's 96 held back: no round (bytes %llu, round %d)",
	       (unsigned long long)bytes, round);
	tap_ok(given_back(&g, 0) && given_back(&g, 1) && fake_ring__used(&g.f[3]) == 96,
	       "the rings read are given back, the one held back keeps its 96 bytes");
	err = rig__drain(&g, false, &bytes, &round);
	tap_ok(!err && !bytes && !round, "pass 2, nothing new: still held back, no round");

	/* CPU 0 reaches the threshold, a record's header split at its end */
	rig__put(&g, 3, 4003, 3, 64);
	err = rig__drain(&g, false, &bytes, &round);
	tap_ok(!err && bytes == 288 && round,
	       "pass 3: CPU 0's 288 bytes, nothing held back: the round is due (%llu, %d)",
	       (unsigned long long)bytes, round);
	err = rig__drain(&g, false, &bytes, &round);
	tap_ok(!err && !bytes && !round, "pass 4, empty: no round with nothing read since the last");

	/* the last pass takes what is below the threshold; CPU 3's first record wraps */
	rig__put(&g, 2, 3001, 2, 48);
	rig__put(&g, 0, 1005, 1, 16);
	err = rig__drain(&g, false, &bytes, &round);
	tap_ok(!err && !bytes && !round, "pass 5: 96 and 16 bytes, both held back, no round");
	err = rig__drain(&g, true, &bytes, &round);
	tap_ok(!err && bytes == 112 && round && given_back(&g, 0) && given_back(&g, 2),
	       "the last pass reads them, and its round is due (%llu, %d)",
	       (unsigned long long)bytes, round);

	desc_run(want, 2001, 5);	/* pass 1: node 0's CPU 1 */
	desc_run(want, 1001, 4);	/*         node 1's CPU 2 */
	desc_run(want, 4001, 5);	/* pass 3: CPU 0, all of it */
	desc_add(want, "R ");
	desc_run(want, 3001, 2);	/* last: CPU 3, then CPU 2 */
	desc_run(want, 1005, 1);
	desc_add(want, "R ");
	perfx_writer__flush(&g.out);
	rig__describe(&g, got);
	tap_str_eq(got, want, "the file: each ring's records whole, in drain order, two rounds");
	tap_ok(g.r.stats[0].nr_rings == 2 && g.r.stats[1].nr_rings == 2 &&
	       g.r.stats[0].bytes == 320 + 96 && g.r.stats[1].bytes == 256 + 16 + 288,
	       "per node: 2 rings each, %llu and %llu bytes (want 416, 560)",
	       (unsigned long long)g.r.stats[0].bytes, (unsigned long long)g.r.stats[1].bytes);
	rig__close(&g);
out:
	numa_topo__delete(topo);
}

/*
 * --aio with 2 buffers a ring, this machine's nodes: three passes over two
 * rings, the first one's first record split at its end.
 */
static void test_aio(void)
{
	static const int cpus[2] = { 0, 1 };
	static const __u64 pos[2] = { 4096 - 24, 0 };
	char got[DESC_MAX], want[DESC_MAX] = "I ";
	struct numa_topo *topo = NULL;
	bool round, back = true;
	__u64 bytes, bad_off, total = 0;
	struct rig g;
	int err, pass;

	err = numa_topo__new(NUMA_SYSFS, &topo);
	if (!err)
		err = rig__open(&g, topo, "aio.data", cpus, pos, 2, 1, 2);
	if (!tap_ok(!err, "2 fake rings, --aio 2 (err %d)", err))
		goto out;
	for (pass = 0; pass < 3; pass++) {
		rig__put(&g, 0, 100 * pass + 101, 2 + pass, 48);
		rig__put(&g, 1, 100 * pass + 501, 3, 32 + 8 * pass);
		err = rig__drain(&g, false, &bytes, &round);
		if (err || !round || bytes != (__u64)((2 + pass) * 48 + 3 * (32 + 8 * pass)))
			break;
		total += bytes;
		/* copied to a buffer: given back before the write is done */
		back = back && given_back(&g, 0) && given_back(&g, 1);
		desc_run(want, 100 * pass + 101, 2 + pass);
		desc_run(want, 100 * pass + 501, 3);
		desc_add(want, "R ");
	}
	tap_ok(!err && pass == 3 && total == 792,
	       "3 passes, a round after each, %llu bytes (err %d, pass %d)",
	       (unsigned long long)total, err, pass);
	tap_ok(back, "each ring given back once copied to its buffer");
	err = record_rings__finish(&g.r, &bad_off);
	tap_ok(!err && bad_off == ~0ULL, "every write done, none failed (err %d)", err);
	perfx_writer__flush(&g.out);
	rig__describe(&g, got);
	tap_str_eq(got, want,
		   "the file: each ring's bytes at its reserved offset, the split record whole, "
		   "the markers after them");
	rig__close(&g);
out:
	numa_topo__delete(topo);
}

/*
 * --aio into a file that may not grow past 300 bytes (RLIMIT_FSIZE): the
 * second pass's buffer, reserved at 208, is cut at 300 (EFBIG); finishing
 * says so and names byte 300, the first not written, and the file is
 * whole up to there.
 */
static void test_aio_failure(void)
{
	static const int cpus[1] = { 0 };
	static const __u64 pos[1] = { 0 };
	struct rlimit old, lim;
	struct numa_topo *topo = NULL;
	char got[DESC_MAX];
	__u64 bytes, bad_off;
	struct rig g;
	struct stat st;
	bool round;
	int err, err2;

	if (getrlimit(RLIMIT_FSIZE, &old) || old.rlim_cur < 4096) {
		tap_skip("an --aio write cut short", "no RLIMIT_FSIZE to lower");
		return;
	}
	err = numa_topo__new(NUMA_SYSFS, &topo);
	if (!err)
		err = rig__open(&g, topo, "aio-efbig.data", cpus, pos, 1, 1, 2);
	if (!tap_ok(!err, "a fake ring, --aio 2, a file of at most 300 bytes (err %d)", err))
		goto out;
	signal(SIGXFSZ, SIG_IGN);
	lim = old;
	lim.rlim_cur = 300;
	setrlimit(RLIMIT_FSIZE, &lim);
	rig__put(&g, 0, 1, 3, 64);
	err = rig__drain(&g, false, &bytes, &round);
	rig__put(&g, 0, 4, 4, 64);
	/* the failed write may be seen by this pass already, or only at the end */
	err2 = err ? err : rig__drain(&g, false, &bytes, &round);
	err = record_rings__finish(&g.r, &bad_off);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, SIG_DFL);
	tap_ok((!err2 || err2 == -EFBIG) && err == -EFBIG && bad_off == 300,
	       "the cut write is EFBIG, the file whole up to byte 300 (pass %d, end %d, at %llu)",
	       err2, err, (unsigned long long)bad_off);
	/* the last round's marker is still in the writer: not written */
	rig__describe(&g, got);
	if (fstat(g.fd, &st))
		st.st_size = -1;
	tap_ok(st.st_size == 300 && !strcmp(got, "I 1-3 R 4-4 bad@272"),
	       "the file: the first pass, its round, one whole record of the second (%lld bytes: %s)",
	       (long long)st.st_size, got);
	rig__close(&g);
out:
	numa_topo__delete(topo);
}

int main(void)
{
	int err;

	tap_start("record-rings");
	perfx__set_print(quiet);
	page = (size_t)sysconf(_SC_PAGESIZE);
	if (page != 4096) {
		tap_skip("everything", "the fake rings' offsets assume 4 KiB pages");
		return tap_done();
	}
	err = tap_tmpdir(dir, sizeof(dir));
	if (!tap_ok(!err, "a directory of its own (err %d)", err))
		return tap_done();
	test_serial();
	test_aio();
	test_aio_failure();
	if (tap_rmdir(dir))
		tap_ok(0, "remove %s", dir);
	return tap_done();
}
