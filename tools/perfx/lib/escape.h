/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_ESCAPE_H
#define __PERFX_ESCAPE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "util.h"

/*
 * Names from outside (cgroup directories, command arguments, -e strings)
 * may hold anything but '/' and NUL.  Nothing of theirs reaches a
 * terminal, a JSON parser or a CSV reader raw.
 */

/* A message whose arguments have their control characters as \xNN, not its format. */
int escape__vfprintf(FILE *f, const char *fmt, va_list ap) __printf(2, 0);
int escape__fprintf(FILE *f, const char *fmt, ...) __printf(2, 3);
/* @s as the inside of a JSON string: valid UTF-8 JSON for any bytes. */
void escape__fputs_json(FILE *f, const char *s);
/*
 * @s as one CSV field for separator @sep: quoted, with '"' doubled, when
 * it holds the separator, a quote or a control character (which is then
 * written as \xNN); as it is otherwise, as perf prints fields.
 */
void escape__fputs_csv(FILE *f, const char *s, const char *sep);
/* @s with control characters as \xNN: for the default layout. */
void escape__fputs_ctrl(FILE *f, const char *s);
/* The length of the valid UTF-8 sequence at @s, 0 if there is none. */
size_t escape__utf8_len(const unsigned char *s);

#endif /* __PERFX_ESCAPE_H */
