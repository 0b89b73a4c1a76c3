/* SPDX-License-Identifier: GPL-2.0 */
/*
 * syscall-shim.h - what an LD_PRELOAD shim of libc's syscall() needs: the
 * real syscall(), and the six arguments of the call it intercepts.
 */
#ifndef __PERFX_SYSCALL_SHIM_H
#define __PERFX_SYSCALL_SHIM_H

#include <dlfcn.h>
#include <stdarg.h>

/* libc's syscall(), looked up at first use: a constructor may call it first */
static inline long (*syscall_shim__real(void))(long, ...)
{
	static long (*real)(long, ...);

	if (!real)
		real = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	return real;
}

/* syscall(@nr, ...)'s six arguments into @a, in the shim's syscall() */
#define SYSCALL_SHIM_ARGS(nr, a)				\
	do {							\
		va_list ap__;					\
		int i__;					\
								\
		va_start(ap__, nr);				\
		for (i__ = 0; i__ < 6; i__++)			\
			(a)[i__] = va_arg(ap__, long);		\
		va_end(ap__);					\
	} while (0)

#endif /* __PERFX_SYSCALL_SHIM_H */
