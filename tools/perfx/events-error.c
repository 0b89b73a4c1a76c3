// SPDX-License-Identifier: GPL-2.0
/*
 * The commands' report of an -e string that does not parse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "builtin.h"
#include "lib/data.h"
#include "lib/escape.h"
#include "lib/parse-events.h"
#include "lib/parse-options.h"

/* perf's width for the caret line: the terminal's, 80 on a pipe */
static int term_width(void)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) || !ws.ws_col)
		return 80;
	return ws.ws_col > 1000 ? 1000 : ws.ws_col;
}

int parse_events__print_error(const char *events, const struct parse_events_error *perr,
			      int err, const char * const *usagestr,
			      const struct usage_option *opts)
{
	static const char head[] = "event syntax error: ";
	int max_len = term_width() - 2 - (int)strlen(head), len = (int)strlen(events);
	int cut = perr->pos > 13 ? perr->pos - 13 : 0;
	char *buf;

	if (max_len < 4)
		max_len = 4;
	buf = strndup(events + cut, max_len);
	if (buf) {
		if (cut)
			buf[0] = buf[1] = '.';
		if (len - cut > max_len)
			buf[max_len - 1] = buf[max_len - 2] = '.';
	}
	escape__fprintf(stderr, "%s'%s'\n", head, buf ? buf : events);
	escape__fprintf(stderr, "%*s\\___ %s (%s)\n", (int)strlen(head) + perr->pos - cut + 1,
			"", perr->msg, perfx__errname(err));
	fprintf(stderr, "Run 'perfx list' for a list of valid events\n");
	free(buf);
	usage_with_options_names(stderr, usagestr, opts, "-e");
	return USAGE_EXIT_STATUS;
}

