// SPDX-License-Identifier: GPL-2.0
/* stat's extension of an event, beside the event core (evsel.h) */
#include <stdlib.h>

#include "evsel-internal.h"
#include "evsel-stat.h"

static void evsel_stat__delete(void *priv)
{
	struct evsel_stat *st = priv;

	free(st->aggr);
	free(st);
}

struct evsel_stat *evsel_stat__get(struct evsel *evsel)
{
	struct evsel_stat *st = evsel->priv;

	if (st)
		return st;
	st = calloc(1, sizeof(*st));
	if (!st)
		return NULL;
	stats__init(&st->res_stats);
	evsel->priv = st;
	evsel->priv_free = evsel_stat__delete;
	return st;
}

struct evsel_stat *evsel__stat(const struct evsel *evsel)
{
	return evsel->priv;
}

int evsel__nr_aggr(const struct evsel *evsel)
{
	return evsel->priv ? evsel__stat(evsel)->nr_aggr : 0;
}
