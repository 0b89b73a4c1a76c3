// SPDX-License-Identifier: GPL-2.0
/* Proves that CPU lists parse as the kernel prints them, and garbage fails. */
#include <errno.h>
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
		tap_ok(err == want_err, "'%s' is rejected with %d (got %d)", in ? in : "(null)",
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

int main(void)
{
	struct cpu_map *map = NULL, *any;
	FILE *f;

	tap_start("cpumap");
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

	f = fopen("/tmp/perfx-test-online", "w");
	if (f) {
		fputs("0-1,4\n", f);
		fclose(f);
		tap_ok(!cpu_map__new_online_from("/tmp/perfx-test-online", &map) &&
		       map->nr == 3 && map->map[2] == 4, "online file 0-1,4 gives 3 CPUs");
		tap_ok(cpu_map__idx(map, 4) == 2 && cpu_map__idx(map, 2) == -ENOENT,
		       "cpu_map__idx finds CPU 4 at index 2, not CPU 2");
		cpu_map__put(map);
		unlink("/tmp/perfx-test-online");
	}
	tap_ok(cpu_map__new_online_from("/nonexistent", &map) == -ENOENT,
	       "a missing online file is -ENOENT");
	tap_ok(!cpu_map__new_online(&map) && map->nr >= 1, "this machine has online CPUs");
	cpu_map__put(map);
	any = cpu_map__new_any();
	tap_ok(any && any->nr == 1 && any->map[0] == -1, "the any-CPU map is {-1}");
	cpu_map__put(any);
	return tap_done();
}
