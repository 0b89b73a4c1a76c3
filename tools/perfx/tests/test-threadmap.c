// SPDX-License-Identifier: GPL-2.0
/*
 * Proves -p/-t lists parse to the exact tasks of a fake procfs, and that
 * garbage (in the list or in procfs/PID/task) fails with the exact -errno
 * and nothing leaked; then a fixed-seed random-garbage loop against a
 * reference reading of the list syntax.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/threadmap.h"
#include "tests/dir-tree.h"
#include "tests/tap.h"

static char root[64];

static void put(const char *rel)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f)
		fclose(f);
}

static int cmp_pid(const void *a, const void *b)
{
	return *(const pid_t *)a - *(const pid_t *)b;
}

/* the map's ids sorted, "100,101" (readdir order is the filesystem's) */
static void show(const struct thread_map *map, char *buf, size_t size)
{
	pid_t ids[64];
	size_t len = 0;
	int i, nr = map->nr < 64 ? map->nr : 64;

	memcpy(ids, map->map, nr * sizeof(pid_t));
	qsort(ids, nr, sizeof(pid_t), cmp_pid);
	buf[0] = '\0';
	for (i = 0; i < nr && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%d", i ? "," : "", ids[i]);
}

static void check(const char *list, int all, const char *want)
{
	struct thread_map *map = NULL;
	char buf[512] = "";
	int err = thread_map__parse(list, all, root, &map);

	if (!tap_ok(!err, "%s '%s' parses (err %d)", all ? "-p" : "-t", list, err))
		return;
	show(map, buf, sizeof(buf));
	tap_ok(!strcmp(buf, want), "%s '%s' is %s (got %s)", all ? "-p" : "-t", list, want, buf);
	thread_map__put(map);
}

static void check_err(const char *list, int all, int want)
{
	struct thread_map *map = (struct thread_map *)&map;	/* must stay untouched */
	int err = thread_map__parse(list, all, root, &map);

	char shown[64] = "(null)";
	size_t i, len = 0;

	for (i = 0; list && list[i] && len + 5 < sizeof(shown); i++)
		len += snprintf(shown + len, sizeof(shown) - len,
				list[i] > ' ' && list[i] < 127 ? "%c" : "\\x%02x",
				(unsigned char)list[i]);
	if (list)
		shown[len] = '\0';
	tap_ok(err == want && map == (struct thread_map *)&map,
	       "%s '%s' is rejected with %d (got %d)", all ? "-p" : "-t", shown, want, err);
}

/*
 * The reference: comma separated items, each a decimal id in 1..INT_MAX
 * with nothing else; the first bad item decides: -EINVAL malformed,
 * -ESRCH not among the fake tids 1..20.
 */
static int oracle(const char *list, char *seen)
{
	const char *s = list;

	memset(seen, 0, 21);
	if (!*s)
		return -EINVAL;
	for (;;) {
		size_t n = strspn(s, "0123456789");
		long long v = 0;
		size_t i;

		if (!n || (s[n] && s[n] != ','))
			return -EINVAL;
		for (i = 0; i < n && v <= INT_MAX; i++)
			v = v * 10 + (s[i] - '0');
		if (v < 1 || v > INT_MAX)
			return -EINVAL;
		if (v > 20)
			return -ESRCH;
		seen[v] = 1;
		if (!s[n])
			return 0;
		s += n + 1;
	}
}

static void fuzz(void)
{
	static const char alphabet[] = "0123456789,,,- +x\n\xff";
	int i, bad = 0, ok = 0, rejected = 0;
	char list[32], seen[21], fz[96];

	snprintf(fz, sizeof(fz), "%s/fz", root);

	srand(4242);
	for (i = 0; i < 4000; i++) {
		struct thread_map *map = NULL;
		int len = rand() % 12, j, err, want;

		for (j = 0; j < len; j++)
			list[j] = alphabet[rand() % (sizeof(alphabet) - 1)];
		list[len] = '\0';
		/* mostly small numbers, so that many lists are valid */
		if (rand() % 2)
			snprintf(list, sizeof(list), "%d,%d%s", rand() % 25, rand() % 25,
				 rand() % 4 ? "" : ",");
		want = oracle(list, seen);
		err = thread_map__parse(list, 0, fz, &map);
		if (err != want) {
			if (bad++ < 5)
				printf("#   '%s': got %d, want %d\n", list, err, want);
			continue;
		}
		if (err) {
			rejected++;
			continue;
		}
		ok++;
		for (j = 0; j < map->nr; j++) {
			if (map->map[j] < 1 || map->map[j] > 20 || !seen[map->map[j]]) {
				bad++;
				break;
			}
			seen[map->map[j]] = 0;
		}
		for (j = 1; j <= 20; j++)
			bad += seen[j];
		thread_map__put(map);
	}
	tap_ok(!bad, "4000 random -t lists (seed 4242): %d parsed exactly, %d rejected as the reference does, %d wrong",
	       ok, rejected, bad);
}

int main(void)
{
	char *list, *procfs;
	char cmd[128];
	int i;

	tap_start("threadmap");
	if (!tap_ok(!tap_tmpdir(root, sizeof(root)), "a directory of its own"))
		return tap_done();
	tree__mkdir(root, "100");
	tree__mkdir(root, "100/task");
	tree__mkdir(root, "100/task/100");
	tree__mkdir(root, "100/task/101");
	tree__mkdir(root, "200");
	tree__mkdir(root, "200/task");
	tree__mkdir(root, "200/task/200");
	tree__mkdir(root, "300");
	tree__mkdir(root, "300/task");		/* exiting: no threads left */
	tree__mkdir(root, "400");
	tree__mkdir(root, "400/task");
	tree__mkdir(root, "400/task/abc");
	tree__mkdir(root, "500");
	tree__mkdir(root, "500/task");
	tree__mkdir(root, "500/task/0");
	tree__mkdir(root, "600");
	tree__mkdir(root, "600/task");
	tree__mkdir(root, "600/task/4294967296");
	tree__mkdir(root, "700");
	tree__mkdir(root, "700/task");
	tree__mkdir(root, "700/task/12x");
	tree__mkdir(root, "701");
	tree__mkdir(root, "701/task");
	tree__mkdir(root, "701/task/-5");
	tree__mkdir(root, "800");		/* no task directory */
	put("900");		/* not a directory */
	tree__mkdir(root, "fz");
	for (i = 1; i <= 20; i++) {
		snprintf(cmd, sizeof(cmd), "fz/%d", i);
		tree__mkdir(root, cmd);
	}

	check("100", 1, "100,101");
	check("200", 1, "200");
	check("100,200", 1, "100,101,200");
	check("100,100,200,100", 1, "100,101,200");
	check("100", 0, "100");
	check("100,200", 0, "100,200");
	check("200,200,200", 0, "200");
	check("0100", 0, "100");
	check_err(NULL, 1, -EINVAL);
	check_err("", 1, -EINVAL);
	check_err(",", 1, -EINVAL);
	check_err("100,", 1, -EINVAL);
	check_err("100,", 0, -EINVAL);
	check_err(",100", 1, -EINVAL);
	check_err("100,,200", 1, -EINVAL);
	check_err("0", 0, -EINVAL);
	check_err("-1", 0, -EINVAL);
	check_err("+1", 0, -EINVAL);
	check_err(" 1", 0, -EINVAL);
	check_err("1 ", 0, -EINVAL);
	check_err("1\n", 0, -EINVAL);
	check_err("0x10", 0, -EINVAL);
	check_err("1-3", 0, -EINVAL);
	check_err("\xff", 0, -EINVAL);
	check_err("2147483648", 0, -EINVAL);
	check_err("4294967297", 0, -EINVAL);
	check_err("99999999999999999999", 0, -EINVAL);
	check_err("2147483647", 0, -ESRCH);
	check_err("1", 0, -ESRCH);
	check_err("12345", 1, -ESRCH);
	check_err("12345", 0, -ESRCH);
	check_err("100,12345", 1, -ESRCH);
	check_err("300", 1, -ESRCH);
	check_err("400", 1, -EINVAL);
	check_err("500", 1, -EINVAL);
	check_err("600", 1, -EINVAL);
	check_err("700", 1, -EINVAL);
	check_err("701", 1, -EINVAL);
	check_err("100,400", 1, -EINVAL);
	check_err("800", 1, -ESRCH);
	check_err("900", 1, -ENOTDIR);

	/* a long list of one id stays one id */
	list = malloc(5 * 10000 + 1);
	if (list) {
		struct thread_map *map = NULL;

		for (i = 0; i < 10000; i++)
			memcpy(list + 4 * i, "100,", 4);
		strcpy(list + 4 * 10000, "200");
		tap_ok(!thread_map__parse(list, 1, root, &map) && map->nr == 3,
		       "-p '100,100,...,200' (40003 bytes) is the 3 threads");
		thread_map__put(map);
		free(list);
	}
	procfs = malloc(PATH_MAX + 2);
	if (procfs) {
		struct thread_map *map = NULL;

		memset(procfs, 'a', PATH_MAX + 1);
		procfs[0] = '/';
		procfs[PATH_MAX + 1] = '\0';
		tap_ok(thread_map__parse("1", 1, procfs, &map) == -ENAMETOOLONG &&
		       thread_map__parse("1", 0, procfs, &map) == -ENAMETOOLONG,
		       "a procfs path past PATH_MAX is -ENAMETOOLONG, not a cut path");
		free(procfs);
	}
	fuzz();
	{
		struct thread_map *map = NULL;
		char self[16];

		snprintf(self, sizeof(self), "%d", getpid());
		tap_ok(!thread_map__parse(self, 1, NULL, &map) && map->nr >= 1 &&
		       map->map[0] > 0, "-p of this process in the real /proc has its threads");
		thread_map__put(map);
	}
	if (tap_rmdir(root))
		printf("# cannot remove %s\n", root);
	return tap_done();
}
