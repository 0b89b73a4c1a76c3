/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_UTIL_H
#define __PERFX_UTIL_H

#define ARRAY_SIZE(x)	(sizeof(x) / sizeof((x)[0]))

#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif

#endif /* __PERFX_UTIL_H */
