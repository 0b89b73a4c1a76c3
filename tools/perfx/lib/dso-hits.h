/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_DSO_HITS_H
#define __PERFX_DSO_HITS_H

#include <linux/perf_event.h>
#include <stdbool.h>

#include "machine.h"
#include "session.h"

/*
 * The DSOs a stream's samples hit, or with @all every DSO it maps, as
 * perf inject -b and perf record's build-id pass find them: the maps of
 * MMAP, MMAP2 and FORK records, and each sample's address looked up in
 * them.  @hit is called once a DSO, before the record that made it known
 * is done with.
 *
 * perf record writes each CPU's buffer in turn, so a sample can come
 * before the MMAP of its CPU-mate's exec, in its round or the next (perf
 * report sorts a round with the next one up to the round's last time):
 * such samples are remembered for two rounds, and a later record of an
 * older map that covers one makes it a hit then, before perf would sort
 * the sample out.  Up to 4,096 wait at a time; the others are counted in
 * nr_unwaited, and the first is said (pr_warning).
 */
struct dso_hits_pending {
	struct perfx_sample	sample;
	unsigned long		round;
};

struct dso_hits {
	struct machine		machine;
	struct perfx_session	*session;
	bool			all;
	int			(*hit)(void *arg, struct dso *dso, __u16 cpumode);
	void			*arg;
	struct dso_hits_pending	*pending;
	int			nr_pending;
	unsigned long		round;		/* FINISHED_ROUNDs so far */
	unsigned long long	nr_samples;
	unsigned long long	nr_unwaited;	/* beyond the pending ones */
	/*
	 * The last sample's map, whose DSO is a hit already: samples come in
	 * runs in one map, and the next of a run needs no lookup.  Any MMAP
	 * or FORK forgets it.
	 */
	struct {
		__u64		start;
		__u64		end;
		__u64		time;
		__u32		pid;
		__u16		cpumode;
		bool		valid;
	} last;
};

int dso_hits__init(struct dso_hits *h, struct perfx_session *s, bool all,
		   int (*hit)(void *arg, struct dso *dso, __u16 cpumode), void *arg);
void dso_hits__exit(struct dso_hits *h);
/* Looks at one record of the session; @hit's errors are returned. */
int dso_hits__record(struct dso_hits *h, const struct perf_event_header *ev, __u64 pos);

#define BUILD_ID_RECORD_MAX	0x10000

/*
 * @dso's HEADER_BUILD_ID record of @cpumode into @buf (BUILD_ID_RECORD_MAX
 * bytes): its size, or 0 when it has no build-id or its name is too long.
 */
size_t dso__build_id_record(struct dso *dso, __u16 cpumode, void *buf);

#endif /* __PERFX_DSO_HITS_H */
