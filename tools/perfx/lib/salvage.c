// SPDX-License-Identifier: GPL-2.0
/* what a recording that could not be finished keeps of its file */
#include <linux/perf_event.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data.h"
#include "header.h"
#include "salvage.h"

__u64 salvage__cut(struct perfx_header *h, struct perfx_writer *w, __u64 data_start,
		   __u64 bad_off)
{
	__u64 end = data_start, size;
	struct perf_event_header ev;
	struct stat st;

	if (fstat(w->fd, &st))
		return 0;
	size = (__u64)st.st_size < bad_off ? (__u64)st.st_size : bad_off;
	while (end + sizeof(ev) <= size &&
	       pread(w->fd, &ev, sizeof(ev), end) == sizeof(ev) &&
	       ev.size >= sizeof(ev) && end + ev.size <= size)
		end += ev.size;
	if (ftruncate(w->fd, end) || perfx_header__write_file_cut(h, w, end - data_start))
		return 0;
	return end - data_start;
}
