/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_BUILTIN_H
#define __PERFX_BUILTIN_H

#include <stdarg.h>
#include <stdio.h>

int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_inject(int argc, char **argv);
int cmd_help(int argc, char **argv);

/* The usage texts, shared by `perfx CMD -h` and `perfx help CMD`. */
void stat__usage(FILE *f);
void list__usage(FILE *f);
void bench__usage(FILE *f);
void inject__usage(FILE *f);

int perfx__print_stderr(int level, const char *fmt, va_list ap);
void perfx__setup_print(int verbose);

#endif /* __PERFX_BUILTIN_H */
