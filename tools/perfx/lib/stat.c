// SPDX-License-Identifier: GPL-2.0
/* running statistics over repeated runs (-r). */
#include <math.h>
#include <string.h>

#include "stat.h"

void stats__init(struct stats *stats)
{
	memset(stats, 0, sizeof(*stats));
}

void stats__update(struct stats *stats, double val)
{
	double delta;

	stats->n++;
	delta = val - stats->mean;
	stats->mean += delta / stats->n;
	stats->M2 += delta * (val - stats->mean);
	if (stats->n == 1 || val > stats->max)
		stats->max = val;
	if (stats->n == 1 || val < stats->min)
		stats->min = val;
}

double stats__avg(const struct stats *stats)
{
	return stats->mean;
}

/* The standard error of the mean, as perf prints it after "+-". */
double stats__stddev(const struct stats *stats)
{
	double variance;

	if (stats->n < 2)
		return 0.0;
	variance = stats->M2 / (stats->n - 1);
	return sqrt(variance / stats->n);
}

double stats__rel(double stddev, double avg)
{
	double pct = 0.0;

	if (avg)
		pct = 100.0 * stddev / avg;
	return pct;
}
