// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the perf.data reader: each input is written to a
 * file and read as perfx inject -b reads it (header, attrs, features,
 * every record, every sample's fields, the maps and the DSOs samples hit).  Build and run: make -C tools/perfx fuzz
 * (see Documentation/perfx-inject.txt for the long run).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/mman.h>

#include "lib/debug.h"
#include "lib/dso-hits.h"
#include "lib/session.h"

static int quiet(enum perfx_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int hit(void *arg, struct dso *dso, __u16 cpumode)
{
	(void)arg;
	(void)dso;
	(void)cpumode;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct perf_event_header *ev;
	struct perfx_session s;
	struct dso_hits h;
	__u64 pos;
	int fd;

	perfx__set_print(quiet);
	/* a memfd: file mode needs a regular file to pread and seek */
	fd = memfd_create("fuzz", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	if (!perfx_session__open(&s, fd, "fuzz")) {
		if (!dso_hits__init(&h, &s, false, hit, NULL)) {
			while (perfx_session__next(&s, &ev, &pos) > 0 &&
			       !dso_hits__record(&h, ev, pos))
				;
		}
		dso_hits__exit(&h);
		perfx_session__close(&s);
	}
	close(fd);
	return 0;
}
