/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_TIME_CONV_H
#define __PERFX_TIME_CONV_H

#include "event.h"

struct perfx_writer;

/*
 * The conversion @pc holds, read under its seqlock into @tc's fields
 * (header left alone): 0, -EOPNOTSUPP where the kernel offers none
 * (no cap_user_time_zero), -EBUSY if the page never held still.
 */
int time_conv__read(const volatile struct perf_event_mmap_page *pc,
		    struct perf_record_time_conv *tc);

/*
 * As perf's perf_event__synth_time_conv(): one TIME_CONV record from @pc
 * (the first ring's page), none where the kernel offers no conversion.
 * Returns 1 if written, 0 if not, or -errno.
 */
int synthesize__time_conv(struct perfx_writer *w, const struct perf_event_mmap_page *pc);

#endif /* __PERFX_TIME_CONV_H */
