// SPDX-License-Identifier: GPL-2.0
/* TIME_CONV: the control page's clock conversion, as perf's util/tsc.c */
#include <errno.h>

#include "data.h"
#include "event.h"
#include "time-conv.h"

/* perf's bound on retries of a page being rewritten */
#define TIME_CONV_TRIES	10000

#define barrier()	__atomic_thread_fence(__ATOMIC_SEQ_CST)

int time_conv__read(const volatile struct perf_event_mmap_page *pc,
		    struct perf_record_time_conv *tc)
{
	__u32 seq;
	int i;

	for (i = 0; i < TIME_CONV_TRIES; i++) {
		seq = pc->lock;
		barrier();
		tc->time_mult = pc->time_mult;
		tc->time_shift = pc->time_shift;
		tc->time_zero = pc->time_zero;
		tc->time_cycles = pc->time_cycles;
		tc->time_mask = pc->time_mask;
		tc->cap_user_time_zero = pc->cap_user_time_zero;
		tc->cap_user_time_short = pc->cap_user_time_short;
		barrier();
		if (pc->lock == seq && !(seq & 1))
			return tc->cap_user_time_zero ? 0 : -EOPNOTSUPP;
	}
	return -EBUSY;
}

int synthesize__time_conv(struct perfx_writer *w, const struct perf_event_mmap_page *pc)
{
	struct perf_record_time_conv tc = {
		.header = { .type = PERF_RECORD_TIME_CONV, .size = sizeof(tc) },
	};
	int err;

	if (!pc)
		return 0;
	err = time_conv__read(pc, &tc);
	if (err == -EOPNOTSUPP)
		return 0;
	if (!err)
		err = perfx_writer__write(w, &tc, sizeof(tc));
	return err ? err : 1;
}
