// SPDX-License-Identifier: GPL-2.0
#include "debug.h"

static perfx_print_fn_t print_fn;
static unsigned long nr_errors;

void perfx__set_print(perfx_print_fn_t fn)
{
	print_fn = fn;
}

void perfx__pr(enum perfx_print_level level, const char *fmt, ...)
{
	va_list ap;

	if (level == PERFX_ERR)
		nr_errors++;
	if (!print_fn)
		return;
	va_start(ap, fmt);
	print_fn(level, fmt, ap);
	va_end(ap);
}

unsigned long perfx__nr_errors(void)
{
	return nr_errors;
}
