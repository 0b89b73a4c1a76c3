/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_FEATURE_H
#define __PERFX_FEATURE_H

#include <linux/types.h>

struct perfx_header;

/*
 * A body being built: perf's do_write() and do_write_string() formats,
 * strings as a u32 length (the NUL included, padded to 64) and the bytes.
 */
struct feature_buf {
	char	*p;
	size_t	len;
	size_t	alloc;
	int	err;		/* the first failure; later writes do nothing */
};

void feature_buf__write(struct feature_buf *b, const void *p, size_t len);
void feature_buf__u32(struct feature_buf *b, __u32 v);
void feature_buf__u64(struct feature_buf *b, __u64 v);
void feature_buf__string(struct feature_buf *b, const char *s);
/* Sets feature @id of @h to the body and frees it; returns the first error. */
int feature_buf__commit(struct feature_buf *b, struct perfx_header *h, int id);

/*
 * The features that describe this machine, read from uname(2), /proc
 * and /sys: HOSTNAME, OSRELEASE, VERSION (@version), ARCH, NRCPUS,
 * CPUDESC, CPUID (x86), TOTAL_MEM, CPU_TOPOLOGY, NUMA_TOPOLOGY,
 * PMU_MAPPINGS, CACHE, MEM_TOPOLOGY, CPU_PMU_CAPS (with a "cpu" PMU),
 * PMU_CAPS; BPF_PROG_INFO and BPF_BTF, empty; and CMDLINE, @argv after
 * the path of the running executable.  A file it cannot read leaves its
 * feature out, as perf does; other errors return.
 */
int feature__add_machine(struct perfx_header *h, const char *version, int argc,
			 const char **argv);
/* EVENT_DESC: @h's attrs and ids, @names the events' names in their order */
int feature__add_event_desc(struct perfx_header *h, const char * const *names);
/* CLOCKID: the resolution in ns of the clock the samples' times use */
int feature__add_clockid(struct perfx_header *h, int clockid);
/* CLOCK_DATA: the time of day and of @clockid now, which perf script -F tod relates */
int feature__add_clock_data(struct perfx_header *h, int clockid);

/* an event group of more than one event, as perf's GROUP_DESC has it */
struct feature_group {
	const char	*name;		/* NULL: "{anon_group}" */
	__u32		leader_idx;	/* the leader's place among the attrs */
	__u32		nr_members;
};

int feature__add_group_desc(struct perfx_header *h, const struct feature_group *groups,
			    int nr);
/* SAMPLE_TIME: the first and last sample's times (0 and 0 for a pipe, as perf) */
int feature__add_sample_time(struct perfx_header *h, __u64 first, __u64 last);

#endif /* __PERFX_FEATURE_H */
