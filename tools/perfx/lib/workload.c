// SPDX-License-Identifier: GPL-2.0
/*
 * Forking a command and holding it until its events are open.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload.h"

/* the child: wait for the go, exec, or tell the parent why not */
static void __attribute__((noreturn)) workload__child(int go, int err_fd, char **argv)
{
	sigset_t none;
	char c;
	int e;

	/* the command starts as a shell would start it */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (read(go, &c, 1) != 1)
		_exit(127);
	execvp(argv[0], argv);
	e = errno;
	if (write(err_fd, &e, sizeof(e)) < 0)
		_exit(127);
	_exit(127);
}

int workload__prepare(struct workload *w, char **argv)
{
	int go[2], errp[2], err;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(errp, O_CLOEXEC)) {
		err = -errno;
		goto out_close_go;
	}
	w->pid = fork();
	if (w->pid < 0) {
		err = -errno;
		w->pid = 0;
		close(errp[0]);
		close(errp[1]);
		goto out_close_go;
	}
	if (!w->pid) {
		close(go[1]);
		close(errp[0]);
		workload__child(go[0], errp[1], argv);
	}
	close(go[0]);
	close(errp[1]);
	w->go_fd = go[1];
	w->err_fd = errp[0];
	return 0;

out_close_go:
	close(go[0]);
	close(go[1]);
	return err;
}

int workload__start(struct workload *w)
{
	int e = 0, err = 0;
	ssize_t n;

	if (write(w->go_fd, "g", 1) != 1)
		err = -errno;
	close(w->go_fd);
	n = read(w->err_fd, &e, sizeof(e));
	close(w->err_fd);
	if (!err && n == sizeof(e))
		err = -e;
	if (err) {
		waitpid(w->pid, NULL, 0);
		w->pid = 0;
	}
	return err;
}
