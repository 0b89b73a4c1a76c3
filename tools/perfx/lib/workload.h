/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_WORKLOAD_H
#define __PERFX_WORKLOAD_H

#include <sys/types.h>

/*
 * The command a stat or record runs, as perf's evlist__prepare_workload():
 * forked first, so that its pid can be counted, and held before its
 * exec(2) until the events are open.
 */
struct workload {
	pid_t	pid;		/* 0: none, or reaped */
	int	go_fd;
	int	err_fd;
};

int workload__prepare(struct workload *w, char **argv);
/* Lets it exec; -errno of a failed exec(2), the child then reaped. */
int workload__start(struct workload *w);

#endif /* __PERFX_WORKLOAD_H */
