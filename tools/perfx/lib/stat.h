/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_STAT_H
#define __PERFX_STAT_H

/* Running mean and variance (Welford), as perf's struct stats. */
struct stats {
	double n;
	double mean;
	double M2;
	double max;
	double min;
};

void stats__init(struct stats *stats);
void stats__update(struct stats *stats, double val);
double stats__avg(const struct stats *stats);
double stats__stddev(const struct stats *stats);
double stats__rel(double stddev, double avg);

#endif /* __PERFX_STAT_H */
