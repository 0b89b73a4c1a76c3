/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_EVENT_H
#define __PERFX_EVENT_H

/*
 * The on-disk layouts of the records perf's tools add to the kernel's
 * (perf's util/event.h and lib/perf/include/perf/event.h): every one
 * perfx writes or reads.
 */
#include <linux/perf_event.h>

#include "build-id.h"

/* perf pads the names in its records and its header's strings to this */
#define NAME_ALIGN	64

enum perf_user_event_type {
	PERF_RECORD_HEADER_ATTR		= 64,
	PERF_RECORD_HEADER_EVENT_TYPE	= 65,
	PERF_RECORD_HEADER_TRACING_DATA	= 66,
	PERF_RECORD_HEADER_BUILD_ID	= 67,
	PERF_RECORD_FINISHED_ROUND	= 68,
	PERF_RECORD_ID_INDEX		= 69,
	PERF_RECORD_AUXTRACE		= 71,
	PERF_RECORD_THREAD_MAP		= 73,
	PERF_RECORD_CPU_MAP		= 74,
	PERF_RECORD_EVENT_UPDATE	= 78,
	PERF_RECORD_TIME_CONV		= 79,
	PERF_RECORD_HEADER_FEATURE	= 80,
	PERF_RECORD_FINISHED_INIT	= 82,
};

/*
 * HEADER_ATTR: the header, the attr (attr.size bytes), then its u64 ids.
 * FINISHED_ROUND and FINISHED_INIT: the header alone.
 */

/*
 * TIME_CONV (perf's perf_record_time_conv): how the hardware clock a ring's
 * control page describes converts to perf time, for decoders of AUX data
 * (TSC, the arm64 counter) that carry raw counter values.
 */
struct perf_record_time_conv {
	struct perf_event_header header;
	__u64	time_shift;
	__u64	time_mult;
	__u64	time_zero;
	__u64	time_cycles;
	__u64	time_mask;
	__u8	cap_user_time_zero;
	__u8	cap_user_time_short;
	__u8	reserved[6];
};

/* HEADER_FEATURE: the header, the feature's id, then its section's bytes */
struct perf_record_header_feature {
	struct perf_event_header header;
	__u64 feat_id;
};

/*
 * HEADER_TRACING_DATA: says how many bytes follow it, outside its size:
 * the data, padded to 8.
 */
struct perf_record_header_tracing_data {
	struct perf_event_header header;
	__u32 size;
} __attribute__((packed));

#define PERFX_TRACING_DATA_RECORD	12
_Static_assert(sizeof(struct perf_record_header_tracing_data) == PERFX_TRACING_DATA_RECORD,
	       "TRACING_DATA's record is 12 bytes");

/* HEADER_BUILD_ID as perf writes it: the name padded to 64 */
struct perf_record_header_build_id {
	struct perf_event_header header;
	__s32	pid;
	__u8	build_id[BUILD_ID_SIZE];
	__u8	size;
	__u8	reserved1;
	__u16	reserved2;
	char	filename[];
};

/*
 * AUXTRACE: the trace data's size, which follows the record outside its
 * own size, and where it came from.
 */
struct perf_record_auxtrace {
	struct perf_event_header header;
	__u64	size;
	__u64	offset;
	__u64	reference;
	__u32	idx;
	__u32	tid;
	__u32	cpu;
	__u32	reserved__;
};

#define PERFX_AUXTRACE_RECORD	48
_Static_assert(sizeof(struct perf_record_auxtrace) == PERFX_AUXTRACE_RECORD,
	       "AUXTRACE's record is 48 bytes");

/* misc: the build-id's size is in its size field, not 20 */
#define PERF_RECORD_MISC_BUILD_ID_SIZE	(1 << 15)
/* header, pid, 24 bytes of build-id, no name */
#define PERFX_BUILD_ID_RECORD_MIN	(8 + 4 + 24)

/* ID_INDEX: the header, a u64 nr, then nr entries */
struct id_index_entry {
	__u64	id;
	__u64	idx;	/* the ring: the CPU's index */
	__u64	cpu;	/* -1 for any */
	__u64	tid;	/* -1 for all */
};

/* THREAD_MAP: the header, a u64 nr, then nr entries */
struct thread_map_entry {
	__u64	pid;
	char	comm[16];
};

/* CPU_MAP: the header, then perf_record_cpu_map_data, of one of these types */
enum {
	CPU_MAP_CPUS	= 0,	/* u16 nr, u16 cpus[nr] */
	CPU_MAP_MASK	= 1,	/* u16 nr, u16 long_size, then nr longs */
	CPU_MAP_RANGE	= 2,	/* u8 any_cpu, u8 pad, u16 start_cpu, u16 end_cpu */
};

/*
 * EVENT_UPDATE: the header, a u64 type, a u64 id, then the type's data;
 * EVENT_UPDATE_HEAD is its fixed part's size, perf's union included.
 */
enum {
	EVENT_UPDATE_UNIT	= 0,
	EVENT_UPDATE_SCALE	= 1,
	EVENT_UPDATE_NAME	= 2,
};

#define EVENT_UPDATE_HEAD	40

/*
 * The kernel's KSYMBOL and BPF_EVENT, as perf record also synthesizes
 * them for the BPF programs loaded before it starts: the name NUL-padded
 * to 8, then the sample_id trailer.
 */
struct perf_record_ksymbol {
	struct perf_event_header header;
	__u64	addr;
	__u32	len;
	__u16	ksym_type;	/* PERF_RECORD_KSYMBOL_TYPE_* */
	__u16	flags;
	char	name[];
};

struct perf_record_bpf_event {
	struct perf_event_header header;
	__u16	type;		/* PERF_BPF_EVENT_* */
	__u16	flags;
	__u32	id;
	__u8	tag[8];		/* BPF_TAG_SIZE */
};

_Static_assert(sizeof(struct perf_record_ksymbol) == 24, "KSYMBOL's name is at 24");
_Static_assert(sizeof(struct perf_record_bpf_event) == 24, "BPF_EVENT is 24 bytes");

#endif /* __PERFX_EVENT_H */
