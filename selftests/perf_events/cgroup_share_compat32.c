// SPDX-License-Identifier: GPL-2.0
/*
 * 32-bit half of share.compat_32bit in cgroup_share.c: built with -m32,
 * freestanding (no 32-bit C library needed), it makes the raw i386 system
 * calls a 32-bit perf tool would make, where _IOW('$', 12, __u64 *)
 * encodes a 4-byte pointer, and exits with 0 when
 *   perf_event_open(cpu-clock, pid -1, cpu 0), ATTACH_CGROUP { 1, id },
 *   READ_CGROUP { size, id } -> 8 bytes, READ_CGROUP { size, 0 } -> 24
 * all behave as they do for 64-bit callers.  argv[1] is the cgroup id in
 * decimal.  Other exit codes say which step failed.
 */
/* no headers: there may be no 32-bit ones */
typedef unsigned int __u32;
typedef unsigned long long __u64;

#define NR_exit			1
#define NR_ioctl		54
#define NR_perf_event_open	336

/* _IOW('$', 12, __u64 *) and _IOWR('$', 13, __u64 *) with 4-byte pointers */
#define ATTACH32	((1U << 30) | (4U << 16) | ('$' << 8) | 12)
#define READ32		((3U << 30) | (4U << 16) | ('$' << 8) | 13)

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
	__u64 id = 0, buf[8] = { 0 };
	const char *s;
	long fd, ret;

	if (sp[0] < 2)
		sys_exit(10);
	for (s = ((char **)(sp + 1))[1]; *s >= '0' && *s <= '9'; s++)
		id = id * 10 + (__u64)(*s - '0');

	fd = sys5(NR_perf_event_open, (long)attr, -1, 0, -1, 0);
	if (fd < 0)
		sys_exit(11);

	buf[0] = 1;
	buf[1] = id;
	ret = sys5(NR_ioctl, fd, ATTACH32, (long)buf, 0, 0);
	if (ret)
		sys_exit(ret == -25 /* ENOTTY */ ? 12 : 13);

	buf[0] = sizeof(buf);
	buf[1] = id;
	ret = sys5(NR_ioctl, fd, READ32, (long)buf, 0, 0);
	if (ret != 8)
		sys_exit(14);

	buf[0] = sizeof(buf);
	buf[1] = 0;
	ret = sys5(NR_ioctl, fd, READ32, (long)buf, 0, 0);
	if (ret != 24 || buf[2] != 1 || buf[3] != id)
		sys_exit(15);

	sys_exit(0);
	return 0;
}
