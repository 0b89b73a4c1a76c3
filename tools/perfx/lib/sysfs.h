/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SYSFS_H
#define __PERFX_SYSFS_H

#include <stddef.h>

/*
 * A sysfs/tracefs/procfs file's text, trailing blanks dropped: -errno when
 * it cannot be read (-EISDIR for a directory), -EFBIG when it does not
 * fit @buf (a cut value would parse as another one), -EINVAL for a NUL.
 */
int sysfs__read(const char *path, char *buf, size_t size);

#endif /* __PERFX_SYSFS_H */
