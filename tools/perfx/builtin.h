/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_BUILTIN_H
#define __PERFX_BUILTIN_H

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>

int cmd_stat(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_inject(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_help(int argc, char **argv);

/*
 * Runs man on perfx-@cmd(1) installed beside the binary: returns only
 * where there is no such page or man cannot run, -errno.
 */
int help__show_man_page(const char *cmd);

/* The usage texts, shared by `perfx CMD -h` and `perfx help CMD`. */
void stat__usage(FILE *f);
void list__usage(FILE *f);
void bench__usage(FILE *f);
void inject__usage(FILE *f);
void record__usage(FILE *f);

/* what perf.data's VERSION feature says of the writer */
#define PERFX_VERSION	"6.12.perfx"

struct parse_events_error;
struct usage_option;
/*
 * As perf's parse_events_error__print(): the -e string (cut to the
 * terminal, with ".." where cut) and a caret under the bad term with what
 * is wrong and the errno; then perf's hint and the usage of -e.  Returns
 * perf's exit status, 129.
 */
int parse_events__print_error(const char *events, const struct parse_events_error *perr,
			      int err, const char * const *usagestr,
			      const struct usage_option *opts);

/*
 * What stat and record's signal handler saw: the signal that asks them to
 * stop (SIGINT, SIGTERM), and that their command exited (SIGCHLD).
 */
extern volatile sig_atomic_t perfx_done;
extern volatile sig_atomic_t perfx_child_exited;
void perfx__sig_handler(int sig);
/*
 * Dies of @sig, as perf does at exit when a signal ended a run that had
 * no command of its own: the caller's shell sees 128 + @sig, not 0.
 */
void perfx__raise(int sig);

int perfx__print_stderr(int level, const char *fmt, va_list ap);
void perfx__setup_print(int verbose);

#endif /* __PERFX_BUILTIN_H */
