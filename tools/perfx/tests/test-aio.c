// SPDX-License-Identifier: GPL-2.0
/*
 * Proves that --aio's writes land at the offsets they were given whatever
 * order they were queued in, in buffers bound to their node and reused
 * only once written; that the first failure stops the writes and says
 * where the file stops being whole; and that the buffered writer skips
 * the ranges it reserves, writing its own bytes around them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <numaif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/aio.h"
#include "lib/data.h"
#include "lib/numa.h"
#include "tests/tap.h"

#define BUF_SIZE	4096
#define NR_WRITES	24

static char dir[PATH_MAX], path[PATH_MAX + 16];

/* each write's bytes: its number, so a misplaced one shows */
static void fill(struct aio_buf *b, int i, size_t len)
{
	memset(b->data, 'a' + i, len);
	b->len = len;
}

/* 2 rings x 3 buffers, 24 writes at offsets queued out of order */
static void test_offsets(const struct numa_topo *topo)
{
	static const int order[NR_WRITES] = { 5, 0, 23, 1, 7, 6, 2, 22, 3, 4, 8, 21,
					      9, 20, 10, 19, 11, 18, 12, 17, 13, 16, 14, 15 };
	char *got = malloc(NR_WRITES * BUF_SIZE), want[BUF_SIZE];
	struct aio_map maps[2];
	struct aio_writer w;
	int fd, i, err, bad = 0;
	__u64 bad_off;

	snprintf(path, sizeof(path), "%s/offsets", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || !got) {
		tap_skip("aio writes at offsets", "cannot make a file");
		free(got);
		return;
	}
	err = aio_writer__init(&w, fd, topo);
	if (!err)
		err = aio_map__init(&maps[0], &w, 0, 3, BUF_SIZE);
	if (!err)
		err = aio_map__init(&maps[1], &w, 0, 3, BUF_SIZE);
	if (!tap_ok(!err, "two rings' buffers on node 0 (err %d)", err))
		goto out;
	for (i = 0; i < NR_WRITES; i++) {
		struct aio_map *m = &maps[i % 2];
		struct aio_buf *b = aio_map__get(m);

		fill(b, order[i], BUF_SIZE);
		aio_map__submit(m, b, (__u64)order[i] * BUF_SIZE);
	}
	err = aio_writer__sync(&w);
	tap_ok(!err && !aio_writer__error(&w, &bad_off) && bad_off == ~0ULL,
	       "24 writes done, no error (err %d)", err);
	if (pread(fd, got, NR_WRITES * BUF_SIZE, 0) != NR_WRITES * BUF_SIZE)
		bad = -1;
	for (i = 0; !bad && i < NR_WRITES; i++) {
		memset(want, 'a' + i, BUF_SIZE);
		if (memcmp(got + i * BUF_SIZE, want, BUF_SIZE))
			bad = i + 1;
	}
	tap_ok(!bad, "every write is at its offset (first wrong block: %d)", bad - 1);
	for (i = 0; i < 2; i++) {
		int mode = -1;
		unsigned long mask[16] = { 0 };

		if (get_mempolicy(&mode, mask, 8 * sizeof(mask), maps[i].mem, MPOL_F_ADDR))
			tap_skip("the buffers' policy", "no get_mempolicy here");
		else
			tap_ok(mode == MPOL_BIND && mask[0] == 1,
			       "ring %d's buffers are bound to node 0 (policy %d, nodes %#lx)", i,
			       mode, mask[0]);
	}
	aio_map__exit(&maps[0]);
	aio_map__exit(&maps[1]);
out:
	aio_writer__exit(&w);
	close(fd);
	unlink(path);
	free(got);
}

/* /dev/full: the first write fails, the ones queued after it are not made */
static void test_failure(const struct numa_topo *topo)
{
	struct aio_writer w;
	struct aio_map m;
	__u64 bad_off;
	int fd, i, err;

	fd = open("/dev/full", O_WRONLY);
	if (fd < 0) {
		tap_skip("a failed write", "no /dev/full");
		return;
	}
	err = aio_writer__init(&w, fd, topo);
	if (!err)
		err = aio_map__init(&m, &w, 0, 2, BUF_SIZE);
	if (!tap_ok(!err, "buffers for /dev/full (err %d)", err))
		goto out;
	for (i = 0; i < 4; i++) {
		struct aio_buf *b = aio_map__get(&m);

		fill(b, i, 100);
		aio_map__submit(&m, b, 4096 + i * 100);
	}
	err = aio_writer__sync(&w);
	if (aio_writer__error(&w, &bad_off) != err)
		err = -EPROTO;
	tap_ok(err == -ENOSPC && bad_off == 4096,
	       "ENOSPC, and the file is whole up to byte 4096 only (err %d, at %llu)", err,
	       (unsigned long long)bad_off);
	aio_map__exit(&m);
out:
	aio_writer__exit(&w);
	close(fd);
}

static void test_bad_maps(const struct numa_topo *topo)
{
	struct aio_writer w;
	struct aio_map m;

	if (aio_writer__init(&w, -1, topo)) {
		tap_skip("bad nodes", "no memory");
		return;
	}
	tap_ok(aio_map__init(&m, &w, topo->max_node + 1, 1, BUF_SIZE) == -EINVAL &&
	       aio_map__init(&m, &w, -1, 1, BUF_SIZE) == -EINVAL &&
	       aio_map__init(&m, &w, 0, 0, BUF_SIZE) == -EINVAL,
	       "a node past the largest, node -1 and 0 buffers are -EINVAL");
	aio_writer__exit(&w);
}

/* the buffered writer: its bytes, a reserved hole, its bytes again */
static void test_reserve(void)
{
	char got[32], want[32];
	struct perfx_writer w;
	__u64 off = 0;
	int fd, err;

	snprintf(path, sizeof(path), "%s/reserve", dir);
	fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
	if (fd < 0 || perfx_writer__init(&w, fd, path)) {
		tap_skip("reserved ranges", "cannot make a file");
		return;
	}
	perfx_writer__write(&w, "0123456789", 10);
	perfx_writer__use_offsets(&w);
	err = perfx_writer__reserve(&w, 5, &off);
	tap_ok(!err && off == 10 && w.pos == 15 && !w.len,
	       "a reservation flushes and skips (err %d, off %llu, pos %llu)", err,
	       (unsigned long long)off, (unsigned long long)w.pos);
	perfx_writer__write(&w, "abc", 3);
	err = perfx_writer__flush(&w);
	if (!err && pwrite(fd, "HOLE!", 5, off) != 5)
		err = -errno;
	memset(got, 0, sizeof(got));
	if (!err && pread(fd, got, sizeof(got), 0) != 18)
		err = -EIO;
	snprintf(want, sizeof(want), "0123456789HOLE!abc");
	tap_ok(!err && !memcmp(got, want, 18),
	       "the file is its bytes around the filled hole ('%s')", got);
	tap_ok(w.write_ns > 0, "the writer timed its writes (%llu ns)",
	       (unsigned long long)w.write_ns);
	perfx_writer__exit(&w);
	close(fd);
	unlink(path);
}

int main(void)
{
	struct numa_topo *topo;
	int err;

	tap_start("aio");
	err = numa_topo__new(NUMA_SYSFS, &topo);
	if (!tap_ok(!err, "this machine's NUMA nodes (err %d)", err))
		return tap_done();
	if (!tap_ok(!tap_tmpdir(dir, sizeof(dir)), "a directory of its own")) {
		numa_topo__delete(topo);
		return tap_done();
	}
	test_offsets(topo);
	test_failure(topo);
	test_bad_maps(topo);
	test_reserve();
	numa_topo__delete(topo);
	if (tap_rmdir(dir))
		tap_ok(0, "remove %s", dir);
	return tap_done();
}
