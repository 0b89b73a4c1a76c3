// SPDX-License-Identifier: GPL-2.0
/* what every counting backend shares: marking events unsupported, fallback. */
#include <errno.h>
#include <stddef.h>

#include "counter.h"
#include "evsel.h"

bool counter__errno_unsupported(int err)
{
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV || err == -ENXIO ||
	       err == -EINVAL;
}

static void counter__mark_one(struct counter *counter, struct evsel *evsel)
{
	counter->nr_fds -= evsel__nr_open_fds(evsel);
	evsel->supported = false;
	evsel__close(evsel);
}

void counter__mark_unsupported(struct counter *counter, int k, int m)
{
	struct evsel **copy = &counter->evsels[k * counter->nr_members];
	int i;

	counter__mark_one(counter, copy[m]);
	/* a group without its leader cannot count either */
	for (i = 1; !m && i < counter->nr_members; i++)
		counter__mark_one(counter, copy[i]);
}

int counter__open_cpu(struct counter *counter, int c, struct evsel **failed)
{
	int err, i;

	err = counter->ops->open_cpu(counter, c, failed);
	if (!err || !counter->refused || !counter->fallback)
		return err;
	counter->ops->close(counter);
	counter->ops = counter->fallback;
	counter->fallback = NULL;
	for (i = 0; i <= c; i++) {
		err = counter->ops->open_cpu(counter, i, failed);
		if (err)
			return err;
	}
	return 0;
}
