// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the inotify event parser of cgroup-watch.c: the
 * input is what read(2) of an inotify fd gave, walked event by event to
 * its end or its first error.  Every name it returns must end within the
 * input.  Build and run: make -C tools/perfx fuzz (tests/fuzz.sh runs it
 * briefly).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/cgroup-watch.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct cgroup_watch_event ev;
	size_t pos = 0, last = 0;
	int ret;

	while ((ret = cgroup_watch__next_event(buf, size, &pos, &ev)) > 0) {
		if (pos <= last || pos > size)
			abort();
		if (*ev.name && (ev.name < buf || ev.name + strlen(ev.name) >= buf + size))
			abort();
		last = pos;
	}
	return 0;
}
