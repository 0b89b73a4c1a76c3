/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_FEATURE_H
#define __PERFX_FEATURE_H

#include <linux/types.h>

struct bpf_progs;
struct perfx_header;
struct perfx_writer;

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

/* where a pipe has a feature */
enum feature_pipe {
	FEATURE_PIPE_NONE,	/* only a file's section: perf's FEAT_OPN */
	FEATURE_PIPE_RECORD,	/* a HEADER_FEATURE record: perf's FEAT_OPR */
	FEATURE_PIPE_OWN,	/* records of its own, after the HEADER_FEATUREs */
};

/* what the machine's features are written from */
struct feature_env {
	const char		*version;
	int			argc;
	const char		**argv;
	const struct bpf_progs	*bpf_progs;	/* NULL: none synthesized (yet) */
};

/* a write callback's return for a feature left out, as perf leaves it out */
#define FEATURE_SKIP	1

/*
 * One header feature, as perf's feat_ops: its name; where a pipe has it
 * and the largest body its record there takes; @check, the check of a
 * body read from a file's section (errors name @name and the section's
 * offset @pos); @write, for a feature of the machine, its body from
 * uname(2), /proc and /sys (0, FEATURE_SKIP or -errno); @write_pipe, for
 * one with records of its own, those records.
 */
struct feature_ops {
	const char		*name;
	enum feature_pipe	pipe;
	size_t			pipe_max;
	int (*check)(const char *name, const void *body, size_t size, __u64 pos);
	int (*write)(struct feature_buf *b, const struct feature_env *env);
	int (*write_pipe)(const void *body, size_t size, struct perfx_writer *w);
};

/* feature @id's entry, NULL for an id perf 6.1 does not know */
const struct feature_ops *feature__ops(__u64 id);

/*
 * The features that describe this machine, those with a write callback:
 * HOSTNAME, OSRELEASE, VERSION (@version), ARCH, NRCPUS, CPUDESC, CPUID
 * (x86), TOTAL_MEM, CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS, CACHE,
 * MEM_TOPOLOGY, CPU_PMU_CAPS (with a "cpu" PMU), PMU_CAPS; BPF_PROG_INFO
 * and BPF_BTF, empty until feature__add_bpf_progs(); and CMDLINE, @argv
 * after the path of the running executable.  A file it cannot read leaves its feature out, as perf
 * does; other errors return.
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
/*
 * BPF_PROG_INFO and BPF_BTF: the programs @progs synthesized and their
 * BTFs, in perf's formats (a file's; a pipe's header precedes them)
 */
int feature__add_bpf_progs(struct perfx_header *h, const struct bpf_progs *progs);
/* SAMPLE_TIME: the first and last sample's times (0 and 0 for a pipe, as perf) */
int feature__add_sample_time(struct perfx_header *h, __u64 first, __u64 last);

#endif /* __PERFX_FEATURE_H */
