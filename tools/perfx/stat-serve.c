// SPDX-License-Identifier: GPL-2.0
/*
 * perfx stat --serve: the per-cgroup counts over HTTP, for Prometheus to
 * scrape (GET /metrics), through libmicrohttpd.
 *
 * One thread: the main one, which runs libmicrohttpd's event loop
 * (MHD_USE_EPOLL without an internal thread: its one epoll fd is
 * waited on with ppoll(), then MHD_run()).  The counters are read in a
 * request's callback, so on the thread that opened them and reads
 * them at exit: no lock, nothing to race with (the evlist's reads move
 * the calling thread CPU by CPU, BPF mode checks its missed switches,
 * and neither is safe from two threads).  ppoll() lets SIGINT and
 * SIGTERM in only while it waits, so a signal ends the loop however
 * it falls.  A scrape costs one read of every counter, as the end of a
 * perfx stat run does; a slow client costs nothing while it waits
 * (libmicrohttpd does not block on a socket).
 *
 * Read-only, and bounded: GET and HEAD on /metrics only; at most
 * SERVE_CONNECTIONS connections, SERVE_PER_IP from one address, each
 * closed after SERVE_TIMEOUT_S seconds idle, with SERVE_REQUEST_MEM
 * bytes for its request (headers beyond that are refused).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/data.h"
#include "lib/debug.h"
#include "lib/openmetrics.h"
#include "stat-serve.h"

/* Prometheus holds one connection per target; a few people with curl */
#define SERVE_CONNECTIONS	32
#define SERVE_PER_IP		8
#define SERVE_TIMEOUT_S		10
/* a request is a line and a few headers: Prometheus's take ~300 bytes */
#define SERVE_REQUEST_MEM	(16 * 1024)
/* expositions kept for the next scrapes: one per scraper sending at once */
#define SERVE_SPARE		2

/*
 * An exposition rendered, ~100 bytes a sample: a megabyte for 8,000.  It
 * is lent to libmicrohttpd until the reply is sent, then kept for the
 * next scrape: allocating and freeing that much at every scrape moved
 * glibc's mmap threshold up and left the heap fragmented, growing by
 * steps of hundreds of kB over minutes of scrapes.  The text follows the
 * header in one allocation, so that the free callback, which is given
 * the text, finds the header.
 */
struct serve_buf {
	struct stat_serve *srv;
	struct serve_buf *next;		/* in the spares */
	size_t size;			/* of the text */
	char text[];
};
struct stat_serve {
	struct MHD_Daemon *mhd;
	int epoll_fd;
	stat_serve_read_fn read;
	void *arg;
	/* stat_serve__watch()'s fd, -1 if none */
	int watch_fd;
	stat_serve_watch_fn watch;
	void *watch_arg;
	/* expositions sent, kept for the next scrapes */
	struct serve_buf *spare;
	int nr_spare;
};

/*
 * @addr as --serve takes it: [ADDRESS:]PORT, ADDRESS numeric (no
 * name to resolve), an IPv6 one in brackets; 127.0.0.1 without one.
 */
static int parse_addr(const char *addr, struct sockaddr_storage *ss, socklen_t *len)
{
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	struct sockaddr_in *in = (struct sockaddr_in *)ss;
	const char *colon = strrchr(addr, ':');
	const char *port = colon ? colon + 1 : addr;
	size_t hlen = colon ? (size_t)(colon - addr) : 0;
	char host[INET6_ADDRSTRLEN + 2];
	unsigned long p;
	char *end;

	memset(ss, 0, sizeof(*ss));
	if (*port < '0' || *port > '9')
		return -EINVAL;
	p = strtoul(port, &end, 10);
	if (*end || p < 1 || p > 65535 || hlen >= sizeof(host))
		return -EINVAL;
	memcpy(host, addr, hlen);
	host[hlen] = '\0';
	if (hlen > 2 && host[0] == '[' && host[hlen - 1] == ']') {
		host[hlen - 1] = '\0';
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(p);
		*len = sizeof(*in6);
		return inet_pton(AF_INET6, host + 1, &in6->sin6_addr) == 1 ? 0 : -EINVAL;
	}
	in->sin_family = AF_INET;
	in->sin_port = htons(p);
	*len = sizeof(*in);
	return inet_pton(AF_INET, hlen ? host : "127.0.0.1", &in->sin_addr) == 1 ? 0 : -EINVAL;
}

static int listen_on(const char *addr)
{
	struct sockaddr_storage ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	char shown[INET6_ADDRSTRLEN + 2];
	int fd = -1, one = 1, err;
	unsigned int port;
	socklen_t len;

	err = parse_addr(addr, &ss, &len);
	if (err) {
		pr_err("--serve '%s': expected [ADDRESS:]PORT, ADDRESS a numeric IPv4 address or an IPv6 one in brackets, PORT from 1 to 65535 (%s)\n",
		       addr, perfx__errname(err));
		return err;
	}
	if (ss.ss_family == AF_INET6) {
		shown[0] = '[';
		inet_ntop(AF_INET6, &in6->sin6_addr, shown + 1, sizeof(shown) - 2);
		strcat(shown, "]");
		port = ntohs(in6->sin6_port);
	} else {
		inet_ntop(AF_INET, &in->sin_addr, shown, sizeof(shown));
		port = ntohs(in->sin_port);
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto out_err;
	/* a restart binds while the last run's connections are in TIME_WAIT */
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    (ss.ss_family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one))) ||
	    bind(fd, (struct sockaddr *)&ss, len) || listen(fd, SERVE_CONNECTIONS))
		goto out_err;
	pr_info("--serve: http://%s:%u/metrics\n", shown, port);
	return fd;

out_err:
	err = -errno;
	pr_err("--serve '%s': cannot listen on %s port %u: %s (%s)\n", addr, shown, port,
	       strerror(-err), perfx__errname(err));
	if (fd >= 0)
		close(fd);
	return err;
}

/* @resp queued with @status and @type, and dropped: libmicrohttpd holds it */
static enum MHD_Result reply(struct MHD_Connection *conn, unsigned int status,
			     const char *type, struct MHD_Response *resp)
{
	enum MHD_Result ret;

	if (!resp)
		return MHD_NO;
	if (MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type) != MHD_YES ||
	    (status == MHD_HTTP_METHOD_NOT_ALLOWED &&
	     MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW, "GET, HEAD") != MHD_YES))
		ret = MHD_NO;
	else
		ret = MHD_queue_response(conn, status, resp);
	MHD_destroy_response(resp);
	return ret;
}

static enum MHD_Result reply_text(struct MHD_Connection *conn, unsigned int status,
				  const char *text)
{
	return reply(conn, status, "text/plain; charset=utf-8",
		     MHD_create_response_from_buffer(strlen(text), (void *)text,
						     MHD_RESPMEM_PERSISTENT));
}

static struct serve_buf *serve_buf__get(struct stat_serve *srv)
{
	struct serve_buf *buf = srv->spare;

	if (!buf) {
		buf = calloc(1, sizeof(*buf));
		if (!buf)
			return NULL;
		buf->srv = srv;
		return buf;
	}
	srv->spare = buf->next;
	srv->nr_spare--;
	return buf;
}

/* libmicrohttpd is done with the reply of @text: kept for the next scrape */
static void serve_buf__put(void *text)
{
	struct serve_buf *buf = container_of(text, struct serve_buf, text);
	struct stat_serve *srv = buf->srv;

	if (srv->nr_spare == SERVE_SPARE) {
		free(buf);
		return;
	}
	buf->next = srv->spare;
	srv->spare = buf;
	srv->nr_spare++;
}

/*
 * @counts rendered into *@bufp, grown (with room to spare, and moved) if
 * need be: the length, or -ENOMEM with *@bufp as it was
 */
static ssize_t serve_buf__render(struct serve_buf **bufp, const struct openmetrics_count *counts,
				 int nr, enum openmetrics_format fmt)
{
	struct serve_buf *buf = *bufp;
	size_t len = openmetrics__render(counts, nr, fmt, buf->text, buf->size);

	if (len >= buf->size) {
		size_t size = len + len / 8 + 1;

		buf = realloc(buf, sizeof(*buf) + size);
		if (!buf)
			return -ENOMEM;
		buf->size = size;
		*bufp = buf;
		openmetrics__render(counts, nr, fmt, buf->text, buf->size);
	}
	return len;
}

/* The counts now, in the format the request's Accept header asks for. */
static enum MHD_Result reply_metrics(struct stat_serve *srv, struct MHD_Connection *conn)
{
	const char *accept = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
							 MHD_HTTP_HEADER_ACCEPT);
	enum openmetrics_format fmt = openmetrics__negotiate(accept);
	const struct openmetrics_count *counts;
	struct MHD_Response *resp;
	struct serve_buf *buf;
	ssize_t len;
	int nr;

	if (srv->read(srv->arg, &counts, &nr))
		return reply_text(conn, MHD_HTTP_INTERNAL_SERVER_ERROR,
				  "perfx: reading the counters failed: see perfx's standard error\n");
	buf = serve_buf__get(srv);
	if (!buf)
		return MHD_NO;	/* libmicrohttpd closes the connection */
	len = serve_buf__render(&buf, counts, nr, fmt);
	resp = len < 0 ? NULL :
	       MHD_create_response_from_buffer_with_free_callback(len, buf->text,
								  serve_buf__put);
	if (!resp) {
		serve_buf__put(buf->text);
		return MHD_NO;
	}
	return reply(conn, MHD_HTTP_OK, openmetrics__content_type(fmt), resp);
}

/*
 * libmicrohttpd's request callback, first called once the request's
 * headers are in.  Any body (of a method we refuse) is never read: a
 * reply queued then makes libmicrohttpd close the connection after it.
 * A GET is answered at the second call, once the request is complete,
 * so that the connection is kept for the next scrape.
 */
static enum MHD_Result answer(void *cls, struct MHD_Connection *conn, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **req_cls)
{
	(void)version;
	(void)upload_data;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return reply_text(conn, MHD_HTTP_METHOD_NOT_ALLOWED,
				  "perfx: only GET and HEAD are served\n");
	if (!*req_cls) {
		*req_cls = cls;
		return MHD_YES;
	}
	/* a GET with a body: read and dropped, the reply comes after it */
	if (*upload_data_size) {
		*upload_data_size = 0;
		return MHD_YES;
	}
	if (strcmp(url, "/metrics"))
		return reply_text(conn, MHD_HTTP_NOT_FOUND, "perfx: only /metrics is served\n");
	return reply_metrics(cls, conn);
}

/* libmicrohttpd's complaints (a client's bad request, a refused connection): -vv */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
	char msg[256];

	(void)cls;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	pr_debug("--serve: libmicrohttpd: %s%s", msg,
		 msg[0] && msg[strlen(msg) - 1] == '\n' ? "" : "\n");
}

int stat_serve__new(const char *addr, stat_serve_read_fn read, void *arg,
		    struct stat_serve **srvp)
{
	const union MHD_DaemonInfo *info;
	struct stat_serve *srv;
	int fd, err;

	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return -ENOMEM;
	srv->read = read;
	srv->arg = arg;
	srv->watch_fd = -1;
	fd = listen_on(addr);
	if (fd < 0) {
		free(srv);
		return fd;
	}
	/* a scraper that hangs up mid-reply must not kill perfx */
	signal(SIGPIPE, SIG_IGN);
	srv->mhd = MHD_start_daemon(MHD_USE_EPOLL | MHD_USE_ERROR_LOG, 0, NULL, NULL, answer, srv,
				    MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
				    MHD_OPTION_LISTEN_SOCKET, fd,
				    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)SERVE_CONNECTIONS,
				    MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)SERVE_PER_IP,
				    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)SERVE_TIMEOUT_S,
				    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SERVE_REQUEST_MEM,
				    MHD_OPTION_END);
	info = srv->mhd ? MHD_get_daemon_info(srv->mhd, MHD_DAEMON_INFO_EPOLL_FD) : NULL;
	if (!info) {
		err = errno ? -errno : -EINVAL;
		pr_err("--serve '%s': libmicrohttpd would not serve on it: %s (%s)\n", addr,
		       strerror(-err), perfx__errname(err));
		if (srv->mhd)
			MHD_stop_daemon(srv->mhd);
		else
			close(fd);
		free(srv);
		return err;
	}
	srv->epoll_fd = info->epoll_fd;
	*srvp = srv;
	return 0;
}

void stat_serve__watch(struct stat_serve *srv, int fd, stat_serve_watch_fn fn, void *arg)
{
	srv->watch_fd = fd;
	srv->watch = fn;
	srv->watch_arg = arg;
}

int stat_serve__run(struct stat_serve *srv)
{
	sigset_t block, old;
	int err = 0;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	while (!perfx_done) {
		struct pollfd pfd[2] = {
			{ .fd = srv->epoll_fd, .events = POLLIN },
			{ .fd = srv->watch_fd, .events = POLLIN },
		};
		struct timespec ts, *tsp = NULL;
		MHD_UNSIGNED_LONG_LONG ms;

		if (MHD_get_timeout(srv->mhd, &ms) == MHD_YES) {
			ts.tv_sec = ms / 1000;
			ts.tv_nsec = (ms % 1000) * 1000000;
			tsp = &ts;
		}
		/* the signals get in here only: one that came before is not lost */
		if (ppoll(pfd, 2, tsp, &old) < 0 && errno != EINTR) {
			err = -errno;
			pr_err("--serve: waiting for requests: %s (%s)\n", strerror(-err),
			       perfx__errname(err));
			break;
		}
		if (!perfx_done && pfd[1].revents) {
			err = srv->watch(srv->watch_arg);
			if (err)
				break;
		}
		if (!perfx_done && MHD_run(srv->mhd) != MHD_YES) {
			err = -EIO;
			pr_err("--serve: libmicrohttpd failed to answer requests (EIO)\n");
			break;
		}
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return err;
}

void stat_serve__delete(struct stat_serve *srv)
{
	if (!srv)
		return;
	/* closes the listening socket and every connection */
	MHD_stop_daemon(srv->mhd);
	while (srv->spare) {
		struct serve_buf *buf = srv->spare;

		srv->spare = buf->next;
		free(buf);
	}
	free(srv);
}
