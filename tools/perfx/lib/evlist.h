/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_EVLIST_H
#define __PERFX_EVLIST_H

struct evsel;
struct cgroup;

struct evlist {
	int nr;
	struct evsel **entries;
	int nr_groups;
};

#define evlist__for_each(evlist, i, evsel) \
	for ((i) = 0; (i) < (evlist)->nr && ((evsel) = (evlist)->entries[i]); (i)++)

struct evlist *evlist__new(void);
void evlist__delete(struct evlist *evlist);
int evlist__add(struct evlist *evlist, struct evsel *evsel);
int evlist__expand_cgroups(struct evlist *evlist, struct cgroup **cgrps, int nr,
			   struct evlist **outp);
int evlist__set_cgroups(struct evlist *evlist, struct cgroup **cgrps, int nr);
int evlist__unit_width(const struct evlist *evlist);
int evlist__read_cpu(struct evlist *evlist, int cpu_idx, struct evsel **failed);

#endif /* __PERFX_EVLIST_H */
