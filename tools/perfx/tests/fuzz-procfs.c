// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the /proc parsers synthesis uses: the input is read
 * through the buffered line reader (a small buffer, so lines are cut and
 * refilled), each line parsed as a maps, kallsyms, modules and mounts
 * line, and the whole input as a stat and a status file and a raw comm.
 * Build and run: make -C tools/perfx fuzz (tests/fuzz.sh runs it briefly).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/procfs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *line, *name, *type;
	struct procfs_reader r;
	struct procfs_task t;
	struct procfs_map m;
	char buf[97], comm[PROCFS_COMM_LEN], path[32], kind;
	size_t len, name_len, type_len;
	__u64 a, b;
	int fd;

	procfs__parse_stat((const char *)data, size, &t);
	procfs__parse_status((const char *)data, size, &t);
	procfs__comm(comm, (const char *)data, size);
	fd = memfd_create("fuzz", 0);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (!procfs_reader__open(&r, AT_FDCWD, path, buf, sizeof(buf))) {
		while (procfs_reader__line(&r, &line, &len) > 0) {
			procfs__parse_map(line, len, &m);
			procfs__parse_kallsyms(line, len, &a, &kind, &name, &name_len);
			procfs__parse_module(line, len, &name, &name_len, &a, &b);
			procfs__parse_mount(line, len, &name, &name_len, &type, &type_len);
		}
		procfs_reader__close(&r);
	}
	close(fd);
	return 0;
}
