// SPDX-License-Identifier: GPL-2.0
/*
 * Proves that the metric inputs have no fixed limit (perfx once stopped at
 * 4096: -A with 300 cgroups x 10 events on 2 CPUs) and keep every key
 * apart: 90,000 entries, each found again with its own values, keys that
 * differ in one field only are different entries, reset empties it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/stat-shadow.h"
#include "tests/tap.h"

#define NR_CGROUPS	300
#define NR_SLOTS	100
#define NR_KINDS	3

static char cgroups[NR_CGROUPS];

static double value_of(int kind, int slot, int cg)
{
	return kind * 1e9 + slot * 1e6 + cg;
}

int main(void)
{
	struct stat_shadow shadow = { 0 };
	struct stat_shadow_entry *e;
	int kind, slot, cg, bad = 0;

	tap_start("stat-shadow");
	for (kind = 0; kind < NR_KINDS; kind++)
		for (slot = 0; slot < NR_SLOTS; slot++)
			for (cg = 0; cg < NR_CGROUPS; cg++) {
				e = stat_shadow__get(&shadow, kind, 7, slot, &cgroups[cg]);
				if (!e)
					bad++;
				else
					stats__update(&e->stats, value_of(kind, slot, cg));
			}
	tap_ok(!bad && shadow.nr == NR_KINDS * NR_SLOTS * NR_CGROUPS,
	       "90000 entries, no limit (%u, %d failed)", shadow.nr, bad);
	for (kind = 0; kind < NR_KINDS; kind++)
		for (slot = 0; slot < NR_SLOTS; slot++)
			for (cg = 0; cg < NR_CGROUPS; cg++) {
				e = stat_shadow__find(&shadow, kind, 7, slot, &cgroups[cg]);
				if (!e || e->stats.n != 1 ||
				    stats__avg(&e->stats) != value_of(kind, slot, cg))
					bad++;
			}
	tap_ok(!bad, "every entry is found with its own value (%d wrong)", bad);
	tap_ok(!stat_shadow__find(&shadow, 0, 8, 0, &cgroups[0]) &&
	       !stat_shadow__find(&shadow, NR_KINDS, 7, 0, &cgroups[0]) &&
	       !stat_shadow__find(&shadow, 0, 7, NR_SLOTS, &cgroups[0]) &&
	       !stat_shadow__find(&shadow, 0, 7, 0, NULL),
	       "a key that differs in its context, kind, slot or cgroup is not found");
	e = stat_shadow__get(&shadow, 1, 7, 2, &cgroups[3]);
	tap_ok(e && e->stats.n == 1 && shadow.nr == NR_KINDS * NR_SLOTS * NR_CGROUPS,
	       "getting an existing key adds nothing");
	stat_shadow__reset(&shadow);
	tap_ok(shadow.nr == 0 && !stat_shadow__find(&shadow, 1, 7, 2, &cgroups[3]),
	       "reset empties the table");
	e = stat_shadow__get(&shadow, 1, 7, 2, &cgroups[3]);
	tap_ok(e && e->stats.n == 0, "an entry added after reset starts empty");
	stat_shadow__exit(&shadow);
	return tap_done();
}
