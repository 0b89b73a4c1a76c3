/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_STAT_SERVE_H
#define __PERFX_STAT_SERVE_H

struct openmetrics_count;
struct stat_serve;

/*
 * Read the counters now: *@counts (the callee's, valid until its next
 * call) and their number *@nr; or -errno, which the callee reported.
 */
typedef int (*stat_serve_read_fn)(void *arg, const struct openmetrics_count **counts, int *nr);

/*
 * perfx stat --serve: listen on @addr ("PORT" or ":PORT" on 127.0.0.1,
 * "IPV4:PORT", "[IPV6]:PORT") for GET /metrics, answered with what @read
 * returns at each request.  0, or -errno after saying what failed.
 */
int stat_serve__new(const char *addr, stat_serve_read_fn read, void *arg,
		    struct stat_serve **srvp);
/* Called when the watched fd is readable: 0, or -errno (reported) to stop. */
typedef int (*stat_serve_watch_fn)(void *arg);

/* While answering requests, call @fn whenever @fd is readable. */
void stat_serve__watch(struct stat_serve *srv, int fd, stat_serve_watch_fn fn, void *arg);
/* Answer requests until SIGINT or SIGTERM: 0, or -errno after saying why. */
int stat_serve__run(struct stat_serve *srv);
void stat_serve__delete(struct stat_serve *srv);

#endif /* __PERFX_STAT_SERVE_H */
