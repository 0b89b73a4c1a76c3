// SPDX-License-Identifier: GPL-2.0
/*
 * 32-bit half of share.compat_32bit in cgroup_share.c: built with -m32,
 * freestanding (no 32-bit C library needed), it makes the raw i386 system
 * calls a 32-bit perf tool would make, with the same structs and ioctl
 * numbers as a 64-bit one (pointers are __u64 in them, so their layout
 * does not depend on the caller, and the size the number encodes is the
 * struct's), and exits with 0 when
 *   perf_event_open(cpu-clock, pid -1, cpu 0), ATTACH_CGROUP of { id },
 *   ATTACH_CGROUP of { id, id } -> EEXIST, err_index 1 written back,
 *   READ_CGROUP of id -> 8 bytes, READ_CGROUP of 0 -> 24 bytes { 1, id, n },
 *   READ_CGROUP with a small buffer -> ENOSPC and the size needed,
 *   READ_CGROUP with an unknown flag -> EINVAL,
 *   READ_CGROUP of a larger struct (its size in the number), zero tail -> 24
 * all behave as they do for 64-bit callers.  argv[1] is the cgroup id in
 * decimal.  Other exit codes say which step failed.
 */
/* no headers: there may be no 32-bit ones */
typedef unsigned int __u32;
typedef unsigned long long __u64;

#define NR_exit			1
#define NR_ioctl		54
#define NR_perf_event_open	336

#define EEXIST			17
#define EINVAL			22
#define ENOTTY			25
#define ENOSPC			28

/* the uapi structs, with 4-byte aligned __u64 as i386 lays them out */
struct perf_event_cgroup_attach {
	__u32	flags;
	__u32	nr;
	__u64	ids;
	__u32	err_index;
	__u32	reserved;
};

struct perf_event_cgroup_read {
	__u32	flags;
	__u32	reserved;
	__u64	id;
	__u64	buf;
	__u64	buf_size;
};

/* _IOWR('$', 12, struct ...) and _IOWR('$', 13, struct ...) */
#define IOC(dir, nr, size)	(((dir) << 30) | ((size) << 16) | ('$' << 8) | (nr))
#define ATTACH	IOC(3U, 12, sizeof(struct perf_event_cgroup_attach))
#define READ	IOC(3U, 13, sizeof(struct perf_event_cgroup_read))

static long sys5(long n, long a, long b, long c, long d, long e)
{
	long r;

	__asm__ volatile("push %%ebp\n\t"
			 "mov %6, %%ebp\n\t"
			 "int $0x80\n\t"
			 "pop %%ebp"
			 : "=a"(r)
			 : "a"(n), "b"(a), "c"(b), "d"(c), "S"(d), "g"(e)
			 : "memory");
	return r;
}

static void sys_exit(int code)
{
	for (;;)
		sys5(NR_exit, code, 0, 0, 0, 0);
}

int cmain(long *sp);

__asm__(".globl _start\n"
	"_start:\n\t"
	"xor %ebp, %ebp\n\t"
	"mov %esp, %eax\n\t"
	"and $-16, %esp\n\t"
	"sub $12, %esp\n\t"
	"push %eax\n\t"
	"call cmain\n\t"
	"hlt\n");

int cmain(long *sp)
{
	/* the first 64 bytes of struct perf_event_attr (PERF_ATTR_SIZE_VER0) */
	__u32 attr[16] = { 1 /* PERF_TYPE_SOFTWARE */, 64 };
	struct perf_event_cgroup_attach attach = { 0 };
	struct perf_event_cgroup_read read = { 0 };
	/* a READ struct of a later, larger version: 8 more bytes, zero */
	struct {
		struct perf_event_cgroup_read read;
		__u64 tail;
	} big = { { 0 }, 0 };
	__u64 id = 0, ids[2], buf[4] = { 0 };
	const char *s;
	long fd, ret;

	/* the sizes, and so the ioctl numbers, of 64-bit callers */
	if (sizeof(attach) != 24 || sizeof(read) != 32)
		sys_exit(9);
	if (sp[0] < 2)
		sys_exit(10);
	for (s = ((char **)(sp + 1))[1]; *s >= '0' && *s <= '9'; s++)
		id = id * 10 + (__u64)(*s - '0');

	fd = sys5(NR_perf_event_open, (long)attr, -1, 0, -1, 0);
	if (fd < 0)
		sys_exit(11);

	attach.nr = 1;
	attach.ids = (unsigned long)&id;
	ret = sys5(NR_ioctl, fd, ATTACH, (long)&attach, 0, 0);
	if (ret)
		sys_exit(ret == -ENOTTY ? 12 : 13);

	ids[0] = id;
	ids[1] = id;
	attach.nr = 2;
	attach.ids = (unsigned long)ids;
	attach.err_index = 7;
	ret = sys5(NR_ioctl, fd, ATTACH, (long)&attach, 0, 0);
	if (ret != -EEXIST || attach.err_index != 1)
		sys_exit(18);

	read.id = id;
	read.buf = (unsigned long)buf;
	read.buf_size = sizeof(buf);
	ret = sys5(NR_ioctl, fd, READ, (long)&read, 0, 0);
	if (ret != 8)
		sys_exit(14);

	read.id = 0;
	ret = sys5(NR_ioctl, fd, READ, (long)&read, 0, 0);
	if (ret != 24 || buf[0] != 1 || buf[1] != id)
		sys_exit(15);

	read.buf_size = 16;
	ret = sys5(NR_ioctl, fd, READ, (long)&read, 0, 0);
	if (ret != -ENOSPC || read.buf_size != 24)
		sys_exit(16);

	read.buf_size = sizeof(buf);
	read.flags = 1;
	ret = sys5(NR_ioctl, fd, READ, (long)&read, 0, 0);
	if (ret != -EINVAL)
		sys_exit(17);

	big.read.buf = (unsigned long)buf;
	big.read.buf_size = sizeof(buf);
	ret = sys5(NR_ioctl, fd, IOC(3U, 13, sizeof(big)), (long)&big, 0, 0);
	if (ret != 24 || buf[0] != 1 || buf[1] != id)
		sys_exit(19);

	sys_exit(0);
	return 0;
}
