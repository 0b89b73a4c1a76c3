/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SALVAGE_H
#define __PERFX_SALVAGE_H

#include <linux/types.h>

struct perfx_header;
struct perfx_writer;

/*
 * A perf.data file whose writing failed (the disk is full, say): cut it
 * after the last whole record that reached it before @bad_off (the first
 * byte an asynchronous write did not write: later ones may have written
 * past it) and give it @h's header without features, so that it reads up
 * to there.  A failure in the features cuts no record: the walk stops at
 * their table, whose first offset reads as a record header of size 0.
 * The records begin at @data_start of @w's file.  Returns the records'
 * bytes kept, 0 if the file could not be cut.
 */
__u64 salvage__cut(struct perfx_header *h, struct perfx_writer *w, __u64 data_start,
		   __u64 bad_off);

#endif /* __PERFX_SALVAGE_H */
