// SPDX-License-Identifier: GPL-2.0
/*
 * Proves perf.data's output policy (lib/perf-data.c) on every kind of
 * path: a new file, an empty and a non-empty one (FILE.old, and back on
 * discard), a temporary file renamed over the path or removed, a FIFO, a
 * private device node, symlinks, a directory and a socket; that discard
 * removes nothing but what it created, even when the path was replaced
 * meanwhile; and that a signal removes a temporary file and still kills.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/debug.h"
#include "lib/perf-data.h"
#include "tests/tap.h"

static char dir[PATH_MAX];
static char path[PATH_MAX + 64];

static const char *at(const char *name)
{
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void put(const char *name, const char *text)
{
	FILE *f = fopen(at(name), "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* the content of @name, "<none>" if it does not exist */
static const char *content(const char *name)
{
	static char buf[256];
	FILE *f = fopen(at(name), "r");
	size_t n;

	if (!f)
		return "<none>";
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

static int nr_entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int nr = 0;

	while (d && (e = readdir(d)))
		nr += e->d_name[0] != '.';
	if (d)
		closedir(d);
	return nr;
}

static mode_t mode_of(const char *name)
{
	struct stat st;

	return lstat(at(name), &st) ? 0 : st.st_mode & S_IFMT;
}

static void write_all(struct perfx_data *d, const char *text)
{
	if (write(d->fd, text, strlen(text)) != (ssize_t)strlen(text))
		tap_ok(0, "write to %s: %s", d->path, strerror(errno));
}

static int quiet(enum perfx_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static void test_new_file(void)
{
	struct perfx_data d;
	char p[4096];

	snprintf(p, sizeof(p), "%s", at("new.data"));
	tap_ok(!perfx_data__open_write(&d, p, PERFX_DATA_KEEP_OLD) && perfx_data__is_file(&d) &&
	       !perfx_data__is_pipe(&d), "a new path: a regular file, created");
	write_all(&d, "half");
	perfx_data__discard(&d);
	tap_ok(mode_of("new.data") == 0, "discard: the file it created is gone");
	tap_ok(!perfx_data__open_write(&d, p, PERFX_DATA_KEEP_OLD), "a new path again");
	write_all(&d, "whole");
	tap_ok(!perfx_data__commit(&d) && !strcmp(content("new.data"), "whole"),
	       "commit: the file stays with what was written");
}

static void test_keep_old(void)
{
	struct perfx_data d;
	char p[4096];

	put("k.data", "previous");
	put("k.data.old", "older");
	snprintf(p, sizeof(p), "%s", at("k.data"));
	tap_ok(!perfx_data__open_write(&d, p, PERFX_DATA_KEEP_OLD) &&
	       !strcmp(content("k.data.old"), "previous") && !strcmp(content("k.data"), ""),
	       "a non-empty file becomes FILE.old, as perf's (an older FILE.old replaced)");
	write_all(&d, "half");
	perfx_data__discard(&d);
	tap_ok(!strcmp(content("k.data"), "previous") && mode_of("k.data.old") == 0,
	       "discard: FILE.old is FILE again");

	tap_ok(!perfx_data__open_write(&d, p, PERFX_DATA_KEEP_OLD), "FILE.old once more");
	unlink(p);
	put("k.data", "someone else's");
	perfx_data__discard(&d);
	tap_ok(!strcmp(content("k.data"), "someone else's") &&
	       !strcmp(content("k.data.old"), "previous"),
	       "discard after the path was replaced: neither the new file nor FILE.old touched");
	unlink(at("k.data.old"));

	put("e.data", "");
	snprintf(p, sizeof(p), "%s", at("e.data"));
	tap_ok(!perfx_data__open_write(&d, p, PERFX_DATA_KEEP_OLD) && mode_of("e.data.old") == 0,
	       "an empty file is written in place, no FILE.old");
	write_all(&d, "half");
	perfx_data__discard(&d);
	tap_ok(mode_of("e.data") == S_IFREG && !strcmp(content("e.data"), ""),
	       "discard: the empty file stays, empty");
}

static void test_temp_rename(void)
{
	struct perfx_data d;
	char p[4096];
	int before;

	put("t.data", "previous");
	before = nr_entries();
	snprintf(p, sizeof(p), "%s", at("t.data"));
	tap_ok(!perfx_data__open_write(&d, p, PERFX_DATA_TEMP_RENAME) &&
	       nr_entries() == before + 1 && !strcmp(content("t.data"), "previous"),
	       "temp-and-rename: a temporary file beside FILE, FILE untouched");
	write_all(&d, "half");
	perfx_data__discard(&d);
	tap_ok(nr_entries() == before && !strcmp(content("t.data"), "previous"),
	       "discard: the temporary file is gone, FILE untouched");
	tap_ok(!perfx_data__open_write(&d, p, PERFX_DATA_TEMP_RENAME), "temp-and-rename again");
	write_all(&d, "whole");
	tap_ok(!perfx_data__commit(&d) && nr_entries() == before &&
	       !strcmp(content("t.data"), "whole"), "commit: renamed over FILE");
}

static void test_special(void)
{
	struct perfx_data d;
	char p[4096];
	int rfd;

	if (mkfifo(at("fifo"), 0600)) {
		tap_skip("a FIFO", strerror(errno));
	} else {
		snprintf(p, sizeof(p), "%s", at("fifo"));
		rfd = open(p, O_RDONLY | O_NONBLOCK);
		tap_ok(!perfx_data__open_write(&d, p, PERFX_DATA_KEEP_OLD) &&
		       d.kind == PERFX_DATA_FIFO && perfx_data__is_pipe(&d) &&
		       perfx_data__open_read(&d) == -ESPIPE, "a FIFO: a pipe's stream, not read back");
		perfx_data__discard(&d);
		tap_ok(mode_of("fifo") == S_IFIFO, "discard: the FIFO stays");
		close(rfd);
	}
	/* private nodes of /dev/null and /dev/full: root only */
	if (mknod(at("null"), S_IFCHR | 0600, makedev(1, 3)) ||
	    mknod(at("full"), S_IFCHR | 0600, makedev(1, 7))) {
		tap_skip("device nodes", strerror(errno));
		return;
	}
	snprintf(p, sizeof(p), "%s", at("full"));
	tap_ok(!perfx_data__open_write(&d, p, PERFX_DATA_KEEP_OLD) &&
	       d.kind == PERFX_DATA_DEVICE && !perfx_data__is_pipe(&d) &&
	       !perfx_data__is_file(&d), "a device: written in place");
	tap_ok(write(d.fd, "x", 1) < 0 && errno == ENOSPC, "it is the node's device (ENOSPC)");
	perfx_data__discard(&d);
	tap_ok(mode_of("full") == S_IFCHR, "discard: the device node stays");
	snprintf(p, sizeof(p), "%s", at("null"));
	tap_ok(!perfx_data__open_write(&d, p, PERFX_DATA_TEMP_RENAME) &&
	       d.kind == PERFX_DATA_DEVICE && !d.written, "temp-and-rename: a device has no temporary file");
	tap_ok(!perfx_data__commit(&d) && mode_of("null") == S_IFCHR,
	       "commit: the device node stays, nothing renamed over it");
	if (symlink(p, at("link-null"))) {
		tap_skip("a symlink to a device", strerror(errno));
		return;
	}
	snprintf(p, sizeof(p), "%s", at("link-null"));
	tap_ok(!perfx_data__open_write(&d, p, PERFX_DATA_KEEP_OLD) && d.kind == PERFX_DATA_DEVICE,
	       "a symlink counts as what it names");
	perfx_data__discard(&d);
	tap_ok(mode_of("link-null") == S_IFLNK && mode_of("null") == S_IFCHR,
	       "discard: the symlink and its device stay");
}

static void test_refused(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct perfx_data d;
	char p[4096];
	int fd;

	mkdir(at("dir"), 0700);
	snprintf(p, sizeof(p), "%s", at("dir"));
	tap_ok(perfx_data__open_write(&d, p, PERFX_DATA_KEEP_OLD) == -EISDIR &&
	       mode_of("dir") == S_IFDIR && mode_of("dir.old") == 0,
	       "a directory: -EISDIR, nothing moved");
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", at("sock"));
	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof(sun))) {
		tap_skip("a socket", strerror(errno));
	} else {
		snprintf(p, sizeof(p), "%s", at("sock"));
		tap_ok(perfx_data__open_write(&d, p, PERFX_DATA_KEEP_OLD) == -EINVAL &&
		       mode_of("sock") == S_IFSOCK, "a socket: -EINVAL, left alone");
	}
	if (fd >= 0)
		close(fd);
	snprintf(p, sizeof(p), "%s", at("nodir/x.data"));
	tap_ok(perfx_data__open_write(&d, p, PERFX_DATA_KEEP_OLD) == -ENOENT,
	       "a path in no directory: -ENOENT");
}

/* A signal while a temporary file is written: gone, and the signal kills. */
static void test_signal(void)
{
	struct perfx_data d;
	int before, st = 0;
	char p[4096];
	pid_t pid;

	put("s.data", "previous");
	before = nr_entries();
	snprintf(p, sizeof(p), "%s", at("s.data"));
	pid = fork();
	if (!pid) {
		if (perfx_data__open_write(&d, p, PERFX_DATA_TEMP_RENAME))
			_exit(1);
		perfx_data__discard_on_signals(&d);
		write_all(&d, "half");
		raise(SIGTERM);
		_exit(2);
	}
	waitpid(pid, &st, 0);
	tap_ok(WIFSIGNALED(st) && WTERMSIG(st) == SIGTERM && nr_entries() == before &&
	       !strcmp(content("s.data"), "previous"),
	       "SIGTERM: the temporary file removed, FILE untouched, killed by SIGTERM (status %#x)",
	       st);
}

int main(void)
{
	tap_start("perf-data");
	perfx__set_print(quiet);
	if (tap_tmpdir(dir, sizeof(dir))) {
		tap_ok(0, "a directory of its own: %s", strerror(errno));
		return tap_done();
	}
	test_new_file();
	test_keep_old();
	test_temp_rename();
	test_special();
	test_refused();
	test_signal();
	if (tap_rmdir(dir))
		tap_ok(0, "cleanup of %s", dir);
	return tap_done();
}
