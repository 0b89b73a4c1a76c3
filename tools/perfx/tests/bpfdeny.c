// SPDX-License-Identifier: GPL-2.0
/*
 * bpfdeny.so - LD_PRELOAD shim that makes bpf(2) fail the way a test
 * asks, for perf and perfx alike (both reach it through libc's syscall()
 * from libbpf), so that what each does when listing the BPF programs
 * fails can be compared:
 *
 *   BPFDENY_ERRNO=E    every bpf(2) fails with errno E (38: a kernel
 *                      without BPF)
 *   BPFDENY_VANISH=ID  BPF_PROG_GET_FD_BY_ID of program ID fails with
 *                      ENOENT, as for a program unloaded after
 *                      BPF_PROG_GET_NEXT_ID returned it
 *   BPFDENY_INFO=ID    BPF_OBJ_GET_INFO_BY_FD of program ID's fd fails
 *                      with EIO
 *
 * LD_PRELOAD is dropped from the environment, so that the commands they
 * run are not affected.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

#include "syscall-shim.h"

static int deny_errno;
static unsigned long vanish_id, info_id;
static int info_fd = -1;

__attribute__((constructor)) static void bpfdeny_init(void)
{
	const char *e = getenv("BPFDENY_ERRNO"), *v = getenv("BPFDENY_VANISH");
	const char *i = getenv("BPFDENY_INFO");

	deny_errno = e ? atoi(e) : 0;
	vanish_id = v ? strtoul(v, NULL, 10) : 0;
	info_id = i ? strtoul(i, NULL, 10) : 0;
	unsetenv("LD_PRELOAD");
}

static long fail(int err)
{
	errno = err;
	return -1;
}

/* bpf(2) as the test asks; the rest of its calls as they are */
static long bpfdeny(long cmd, union bpf_attr *attr, long size)
{
	long ret;

	if (deny_errno)
		return fail(deny_errno);
	if (cmd == BPF_PROG_GET_FD_BY_ID && vanish_id && attr->prog_id == vanish_id)
		return fail(ENOENT);
	if (cmd == BPF_OBJ_GET_INFO_BY_FD && info_fd >= 0 && attr->info.bpf_fd == (__u32)info_fd)
		return fail(EIO);
	ret = syscall_shim__real()(SYS_bpf, cmd, attr, size);
	if (cmd == BPF_PROG_GET_FD_BY_ID && info_id && attr->prog_id == info_id && ret >= 0)
		info_fd = ret;
	return ret;
}

long syscall(long nr, ...)
{
	long a[6];

	SYSCALL_SHIM_ARGS(nr, a);
	if (nr == SYS_bpf)
		return bpfdeny(a[0], (union bpf_attr *)a[1], a[2]);
	return syscall_shim__real()(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
