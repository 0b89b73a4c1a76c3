// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the small text files of /sys and /proc.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sysfs.h"

int sysfs__read(const char *path, char *buf, size_t size)
{
	int err = 0;
	size_t n;
	FILE *f;

	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, size - 1, f);
	if (ferror(f))
		err = errno ? -errno : -EIO;
	else if (n == size - 1 && fgetc(f) != EOF)
		err = -EFBIG;
	fclose(f);
	buf[err ? 0 : n] = '\0';
	if (err)
		return err;
	if (strlen(buf) != n)
		return -EINVAL;
	while (n && isspace((unsigned char)buf[n - 1]))
		buf[--n] = '\0';
	return 0;
}
