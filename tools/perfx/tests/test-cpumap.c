// SPDX-License-Identifier: GPL-2.0
/* Proves that CPU lists parse as the kernel prints them, and garbage fails. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/cpumap.h"
#include "tests/tap.h"

static void check(const char *in, int want_err, const char *want)
{
	struct cpu_map *map = NULL;
	char buf[256] = "";
	int err = cpu_map__parse(in, &map);
	const char *nl;
	int len;

	if (want_err) {
		char shown[64] = "(null)";
		size_t i, n = 0;

		for (i = 0; in && in[i] && n + 5 < sizeof(shown); i++)
			n += snprintf(shown + n, sizeof(shown) - n,
				      in[i] >= ' ' && in[i] < 127 ? "%c" : "\\x%02x",
				      (unsigned char)in[i]);
		if (in)
			shown[n] = '\0';
		tap_ok(err == want_err && !map, "'%s' is rejected with %d (got %d)", shown,
		       want_err, err);
		return;
	}
	/* a trailing newline, as sysfs has, would break the TAP line */
	len = (int)strcspn(in, "\n");
	nl = in[len] ? "\\n" : "";
	if (!tap_ok(!err, "'%.*s%s' parses (err %d)", len, in, nl, err))
		return;
	cpu_map__snprint(map, buf, sizeof(buf));
	tap_ok(!strcmp(buf, want), "'%.*s%s' is %s (got %s)", len, in, nl, want, buf);
	cpu_map__put(map);
}

static char dir[PATH_MAX], online[PATH_MAX + 16];

/* the online file holding @len bytes of @data: its -errno and map */
static void check_online(const char *data, size_t len, int want_err, const char *want,
			 const char *what)
{
	struct cpu_map *map = NULL;
	char buf[256] = "";
	int err;
	FILE *f;

	f = fopen(online, "w");
	if (!f || fwrite(data, 1, len, f) != len) {
		tap_skip(what, "cannot write the online file");
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	err = cpu_map__new_online_from(online, &map);
	if (!err)
		cpu_map__snprint(map, buf, sizeof(buf));
	if (want_err)
		tap_ok(err == want_err && !map, "online file %s: %d (got %d)", what, want_err, err);
	else
		tap_ok(!err && !strcmp(buf, want), "online file %s: %s (got %d, %s)", what, want,
		       err, buf);
	cpu_map__put(map);
	unlink(online);
}

/*
 * A machine of 1536 possible CPUs, through a possible file of our own:
 * its sets have room for CPU 1535, which glibc's cpu_set_t has not
 */
static void test_possible(void)
{
	struct cpu_mask m = { 0 }, big = { 0 };
	char path[PATH_MAX + 16];
	int fd, nr = 0, err;

	snprintf(path, sizeof(path), "%s/possible", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);

	if (fd < 0 || write(fd, "0-1535\n", 7) != 7) {
		tap_skip("possible CPUs from sysfs", "cannot write a possible file");
		if (fd >= 0)
			close(fd);
		return;
	}
	close(fd);
	err = cpu_map__nr_possible_from(path, &nr);
	tap_ok(!err && nr == 1536, "possible 0-1535: 1536 CPUs (err %d, %d)", err, nr);
	unlink(path);
	err = cpu_mask__init(&big, nr);
	if (!err)
		cpu_mask__set(&big, 1535);
	tap_ok(!err && big.nr >= 1536 && big.size >= 1536 / 8 && cpu_mask__isset(&big, 1535) &&
	       !cpu_mask__isset(&big, 1534) && cpu_mask__count(&big) == 1,
	       "a set for 1536 CPUs holds CPU 1535 (err %d, room for %d)", err, big.nr);
	cpu_mask__set(&big, 1 << 20);
	tap_ok(cpu_mask__count(&big) == 1, "a CPU beyond its room is not set");
	cpu_mask__exit(&big);
	err = cpu_mask__init(&m, 0);
	if (!err)
		err = cpu_mask__get_affinity(&m);
	tap_ok(!err && m.nr >= CPU_SETSIZE && cpu_mask__count(&m) >= 1,
	       "this machine's possible CPUs: a set of %d, this thread's CPUs in it (err %d)",
	       m.nr, err);
	cpu_mask__exit(&m);
	tap_ok(cpu_map__nr_possible_from("/nonexistent", &nr) == -ENOENT,
	       "no possible file: -ENOENT");
}

/*
 * The reference reading of a CPU list: items "N" or "N-M" (N <= M) split
 * by commas, one trailing newline allowed; the first problem decides
 * (-EINVAL, or -ERANGE as soon as a number reaches CPU_MAP__MAX_CPU).
 */
static int oracle(const char *in, unsigned char *seen)
{
	const char *s = in;
	size_t len = strlen(in);
	char *copy;
	int err = 0;

	memset(seen, 0, CPU_MAP__MAX_CPU);
	copy = strndup(in, len && in[len - 1] == '\n' ? len - 1 : len);
	if (!copy)
		return -ENOMEM;
	for (s = copy;; s++) {
		long lo = -1, hi;

		for (hi = 0; *s >= '0' && *s <= '9'; s++) {
			lo = (lo < 0 ? 0 : lo) * 10 + (*s - '0');
			if (lo >= CPU_MAP__MAX_CPU) {
				err = -ERANGE;
				goto out;
			}
		}
		if (lo < 0) {
			err = -EINVAL;
			goto out;
		}
		hi = lo;
		if (*s == '-') {
			for (hi = -1, s++; *s >= '0' && *s <= '9'; s++) {
				hi = (hi < 0 ? 0 : hi) * 10 + (*s - '0');
				if (hi >= CPU_MAP__MAX_CPU) {
					err = -ERANGE;
					goto out;
				}
			}
			if (hi < lo) {
				err = -EINVAL;
				goto out;
			}
		}
		memset(seen + lo, 1, hi - lo + 1);
		if (!*s)
			break;
		if (*s != ',') {
			err = -EINVAL;
			goto out;
		}
	}
out:
	free(copy);
	return err;
}

static void fuzz(void)
{
	static const char alphabet[] = "0123456789012345,,--\n x\xff";
	static unsigned char seen[CPU_MAP__MAX_CPU];
	int i, j, bad = 0, ok = 0, rejected = 0;
	char in[40];

	srand(1729);
	for (i = 0; i < 5000; i++) {
		struct cpu_map *map = NULL;
		int len = rand() % 16, err, want, nr = 0;

		for (j = 0; j < len; j++)
			in[j] = alphabet[rand() % (sizeof(alphabet) - 1)];
		in[len] = '\0';
		want = oracle(in, seen);
		err = cpu_map__parse(in, &map);
		if (err != want) {
			if (bad++ < 5)
				printf("#   input %d: got %d, want %d\n", i, err, want);
			cpu_map__put(map);
			continue;
		}
		if (err) {
			rejected++;
			continue;
		}
		for (j = 0; j < CPU_MAP__MAX_CPU; j++)
			if (seen[j] && (nr >= map->nr || map->map[nr++] != j))
				break;
		if (j < CPU_MAP__MAX_CPU || nr != map->nr) {
			if (bad++ < 5)
				printf("#   input %d: another map\n", i);
		} else {
			ok++;
		}
		cpu_map__put(map);
	}
	tap_ok(!bad, "5000 random CPU lists (seed 1729): %d parsed exactly, %d rejected as the reference does, %d wrong",
	       ok, rejected, bad);
}

int main(void)
{
	struct cpu_map *map = NULL, *any;
	FILE *f;

	tap_start("cpumap");
	if (!tap_ok(!tap_tmpdir(dir, sizeof(dir)), "a directory of its own"))
		return tap_done();
	snprintf(online, sizeof(online), "%s/online", dir);
	check("0", 0, "0");
	check("0-3", 0, "0-3");
	check("0,2-3,7", 0, "0,2-3,7");
	check("3,1,2", 0, "1-3");
	check("1,1,1-2", 0, "1-2");
	check("0-1\n", 0, "0-1");
	check("8191", 0, "8191");
	check("", -EINVAL, NULL);
	check(NULL, -EINVAL, NULL);
	check("a", -EINVAL, NULL);
	check("-1", -EINVAL, NULL);
	check("3-1", -EINVAL, NULL);
	check("0-", -EINVAL, NULL);
	check("1,,2", -EINVAL, NULL);
	check("1,", -EINVAL, NULL);
	check(" 1", -EINVAL, NULL);
	check("1 2", -EINVAL, NULL);
	check("0x1", -EINVAL, NULL);
	check("8192", -ERANGE, NULL);
	check("99999999999999999999", -ERANGE, NULL);
	check("4294967296", -ERANGE, NULL);
	check("0-4294967296", -ERANGE, NULL);
	check("0-8191", 0, "0-8191");
	check("0000", 0, "0");
	check("8191-0", -EINVAL, NULL);
	check("-", -EINVAL, NULL);
	check("1-2-3", -EINVAL, NULL);
	check("1--2", -EINVAL, NULL);
	check(",1", -EINVAL, NULL);
	check("1\n\n", -EINVAL, NULL);
	check("\n", -EINVAL, NULL);
	check("1\r\n", -EINVAL, NULL);
	check("1\n2", -EINVAL, NULL);
	check("\xff", -EINVAL, NULL);
	check("1,\xff", -EINVAL, NULL);
	check("+1", -EINVAL, NULL);
	check("cpu 4294967296", -EINVAL, NULL);
	check("0-3,2-5,5", 0, "0-5");

	f = fopen(online, "w");
	if (f) {
		fputs("0-1,4\n", f);
		fclose(f);
		tap_ok(!cpu_map__new_online_from(online, &map) &&
		       map->nr == 3 && map->map[2] == 4, "online file 0-1,4 gives 3 CPUs");
		tap_ok(cpu_map__idx(map, 4) == 2 && cpu_map__idx(map, 2) == -ENOENT,
		       "cpu_map__idx finds CPU 4 at index 2, not CPU 2");
		cpu_map__put(map);
		unlink(online);
	}
	check_online("", 0, -EINVAL, NULL, "empty");
	check_online("0-3", 3, 0, "0-3", "'0-3' without a newline");
	check_online("0-3\n", 4, 0, "0-3", "'0-3\\n'");
	check_online("\n", 1, -EINVAL, NULL, "'\\n'");
	check_online("0-1\0002", 5, -EINVAL, NULL, "with a NUL byte after 0-1");
	check_online("\xff\xfe\x00\x01", 4, -EINVAL, NULL, "of binary bytes");
	check_online("4294967296\n", 11, -ERANGE, NULL, "'4294967296\\n'");
	check_online("-1\n", 3, -EINVAL, NULL, "'-1\\n'");
	check_online("3-1\n", 4, -EINVAL, NULL, "'3-1\\n'");
	check_online("0-1\n2\n", 6, -EINVAL, NULL, "of two lines");
	check_online("0,0,0\n", 6, 0, "0", "with CPU 0 three times");
	{
		static char big[8192];
		size_t len = 0;
		int cpu;

		/* 0,1,...: past the 4095 bytes read, a cut list would parse */
		for (cpu = 0; len < 5000; cpu++)
			len += snprintf(big + len, sizeof(big) - len, "%s%d", cpu ? "," : "",
					cpu);
		check_online(big, len, -EFBIG, NULL, "of 5000 bytes");
		for (cpu = 0, len = 0; len < 4000; cpu++)
			len += snprintf(big + len, sizeof(big) - len, "%d,", cpu % 10);
		big[len - 1] = '\n';
		check_online(big, len, 0, "0-9", "of 4000 bytes");
	}
	tap_ok(cpu_map__new_online_from(dir, &map) == -EISDIR,
	       "a directory as the online file is -EISDIR");
	fuzz();
	test_possible();
	tap_ok(cpu_map__new_online_from("/nonexistent", &map) == -ENOENT,
	       "a missing online file is -ENOENT");
	tap_ok(!cpu_map__new_online(&map) && map->nr >= 1, "this machine has online CPUs");
	cpu_map__put(map);
	any = cpu_map__new_any();
	tap_ok(any && any->nr == 1 && any->map[0] == -1, "the any-CPU map is {-1}");
	cpu_map__put(any);
	if (tap_rmdir(dir))
		tap_ok(0, "remove %s", dir);
	return tap_done();
}
