/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_DEBUG_H
#define __PERFX_DEBUG_H

#include <stdarg.h>

#include "util.h"

enum perfx_print_level {
	PERFX_ERR,
	PERFX_WARN,
	PERFX_INFO,
	PERFX_DEBUG,
};

typedef int (*perfx_print_fn_t)(enum perfx_print_level level,
				const char *fmt, va_list ap);

/* The library never prints: everything goes through this callback. */
void perfx__set_print(perfx_print_fn_t fn);
void perfx__pr(enum perfx_print_level level, const char *fmt, ...)
	__printf(2, 3);
/* Errors reported so far: a command that fails unreported can tell. */
unsigned long perfx__nr_errors(void);

#define pr_err(fmt, ...)	perfx__pr(PERFX_ERR, fmt, ##__VA_ARGS__)
#define pr_warning(fmt, ...)	perfx__pr(PERFX_WARN, fmt, ##__VA_ARGS__)
#define pr_info(fmt, ...)	perfx__pr(PERFX_INFO, fmt, ##__VA_ARGS__)
#define pr_debug(fmt, ...)	perfx__pr(PERFX_DEBUG, fmt, ##__VA_ARGS__)

#endif /* __PERFX_DEBUG_H */
