// SPDX-License-Identifier: GPL-2.0
/*
 * The list's rings, as libperf's perf_evlist__mmap_ops(): per CPU, the
 * caller maps one ring from the CPU's first fd and every other fd of the
 * CPU sends its records there (PERF_EVENT_IOC_SET_OUTPUT); the mapped fds
 * are the list's poll set.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include "cpumap.h"
#include "evlist-internal.h"
#include "evsel-internal.h"
#include "threadmap.h"

/* CPU index @c: its first fd mapped by @map, the others into that ring */
static int evlist__mmap_cpu(struct evlist *evlist, int c,
			    int (*map)(void *arg, int c, int fd), void *arg)
{
	int i, t, err, ring_fd = -1;

	for (i = 0; i < evlist->nr; i++) {
		struct evsel *evsel = evlist->entries[i];

		for (t = 0; evsel->fds && t < evsel->threads->nr; t++) {
			int fd = evsel__fd(evsel, c, t);

			if (fd < 0)
				continue;
			if (ring_fd < 0) {
				err = map(arg, c, fd);
				if (err)
					return err;
				ring_fd = fd;
				evlist->pollfd[c] = (struct pollfd){ .fd = fd, .events = POLLIN };
			} else if (ioctl(fd, PERF_EVENT_IOC_SET_OUTPUT, ring_fd)) {
				return -errno;
			}
		}
	}
	return 0;
}

int evlist__mmap(struct evlist *evlist, int (*map)(void *arg, int c, int fd), void *arg,
		 int *bad_idx)
{
	int c, err = 0;

	*bad_idx = -1;
	free(evlist->pollfd);
	evlist->nr_pollfd = evlist->cpus->nr;
	evlist->pollfd = calloc(evlist->nr_pollfd, sizeof(*evlist->pollfd));
	if (!evlist->pollfd) {
		evlist->nr_pollfd = 0;
		return -ENOMEM;
	}
	for (c = 0; c < evlist->nr_pollfd; c++)
		evlist->pollfd[c].fd = -1;
	for (c = 0; c < evlist->nr_pollfd; c++) {
		err = evlist__mmap_cpu(evlist, c, map, arg);
		if (err) {
			*bad_idx = c;
			return err;
		}
	}
	return 0;
}

int evlist__poll(struct evlist *evlist, const sigset_t *sigmask)
{
	if (ppoll(evlist->pollfd, evlist->nr_pollfd, NULL, sigmask) < 0 && errno != EINTR)
		return -errno;
	return 0;
}

/*
 * As perf's fdarray__filter(): a ring whose events hung up would make
 * ppoll() return at once for ever and never let a pending signal in.
 */
int evlist__filter_pollfd(struct evlist *evlist)
{
	int c, left = 0;

	for (c = 0; c < evlist->nr_pollfd; c++) {
		if (evlist->pollfd[c].revents & (POLLHUP | POLLERR))
			evlist->pollfd[c].fd = -1;
		left += evlist->pollfd[c].fd >= 0;
	}
	return left;
}
