// SPDX-License-Identifier: GPL-2.0
/*
 * The attrs perf record gives events (util/record.c's evlist__config()
 * and util/evsel.c's evsel__config() in perf 6.1), checked against
 * `perf evlist -v` of perf's own files in tests/record.sh.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "evlist-internal.h"
#include "evsel-internal.h"
#include "record-config.h"

static void evsel__config_period(struct evsel *evsel, const struct record_opts *opts)
{
	struct perf_event_attr *attr = &evsel->attr;

	/* an event's own period (tracepoints: 1) yields only to -F and -c */
	if (attr->sample_period && !opts->user_freq && !opts->user_period)
		return;
	if (opts->user_period) {
		attr->freq = 0;
		attr->sample_period = opts->period;
	} else {
		attr->freq = 1;
		attr->sample_freq = opts->freq;
	}
}

static void evsel__config_tracking(struct evsel *evsel, const struct record_opts *opts)
{
	struct perf_event_attr *attr = &evsel->attr;

	attr->mmap = attr->mmap2 = 1;
	attr->comm = attr->comm_exec = 1;
	attr->task = 1;
	attr->ksymbol = attr->bpf_event = 1;
	attr->mmap_data = opts->sample_address;
	attr->namespaces = opts->namespaces;
	attr->context_switch = opts->switch_events;
}

/* the user registers perf's DWARF unwinder wants: arch__user_reg_mask() */
#if defined(__x86_64__)
#define RECORD_USER_REGS	0xff0fffULL
#elif defined(__aarch64__)
#define RECORD_USER_REGS	((1ULL << 33) - 1)
#else
#define RECORD_USER_REGS	0ULL
#endif

/* perf's -W: x86 has the weight struct, the others the plain weight */
#if defined(__x86_64__) || defined(__i386__)
#define RECORD_SAMPLE_WEIGHT	PERF_SAMPLE_WEIGHT_STRUCT
#else
#define RECORD_SAMPLE_WEIGHT	PERF_SAMPLE_WEIGHT
#endif

/* perf's evsel__config_callchain(); the dummy gets it too, but no LBR */
static void evsel__config_callgraph(struct evsel *evsel, const struct record_opts *opts,
				    bool dummy)
{
	struct perf_event_attr *attr = &evsel->attr;

	attr->sample_type |= PERF_SAMPLE_CALLCHAIN;
	attr->sample_max_stack = opts->max_stack;
	if (opts->callgraph == RECORD_CALLGRAPH_LBR && !attr->exclude_user && !dummy) {
		attr->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		attr->branch_sample_type = PERF_SAMPLE_BRANCH_USER |
					   PERF_SAMPLE_BRANCH_CALL_STACK |
					   PERF_SAMPLE_BRANCH_NO_CYCLES |
					   PERF_SAMPLE_BRANCH_NO_FLAGS |
					   PERF_SAMPLE_BRANCH_HW_INDEX;
	} else if (opts->callgraph == RECORD_CALLGRAPH_DWARF) {
		attr->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		attr->sample_regs_user = RECORD_USER_REGS;
		attr->sample_stack_user = opts->dump_size;
		attr->exclude_callchain_user = 1;
	}
}

/* the sample bits perf's options add, to every event the dummy included */
static __u64 record_opts__sample_bits(const struct record_opts *opts)
{
	__u64 bits = 0;

	if (opts->sample_address)
		bits |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC;
	if (opts->cpu_target || opts->sample_cpu)
		bits |= PERF_SAMPLE_CPU;
	if (opts->raw_samples)
		bits |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU;
	if (opts->sample_phys_addr)
		bits |= PERF_SAMPLE_PHYS_ADDR;
	if (opts->sample_weight)
		bits |= RECORD_SAMPLE_WEIGHT;
	if (opts->sample_period)
		bits |= PERF_SAMPLE_PERIOD;
	return bits;
}

static void evsel__config_record(struct evsel *evsel, const struct record_opts *opts,
				 bool tracking)
{
	struct perf_event_attr *attr = &evsel->attr;
	bool dummy = attr->type == PERF_TYPE_SOFTWARE && attr->config == PERF_COUNT_SW_DUMMY;

	attr->size = sizeof(*attr);
	attr->sample_type |= PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
	if (attr->type == PERF_TYPE_TRACEPOINT)
		attr->sample_type |= PERF_SAMPLE_RAW | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
	evsel__config_period(evsel, opts);
	if (attr->freq)
		attr->sample_type |= PERF_SAMPLE_PERIOD;
	attr->sample_type |= record_opts__sample_bits(opts);
	if (opts->callgraph)
		evsel__config_callgraph(evsel, opts, dummy);
	attr->read_format = PERF_FORMAT_ID | (opts->no_lost ? 0 : PERF_FORMAT_LOST);
	if (opts->inherit_stat) {
		attr->read_format |= PERF_FORMAT_TOTAL_TIME_ENABLED |
				     PERF_FORMAT_TOTAL_TIME_RUNNING;
		attr->inherit_stat = 1;
	}
	attr->inherit = !opts->no_inherit;
	attr->sample_id_all = 1;
	if (opts->use_clockid) {
		attr->use_clockid = 1;
		attr->clockid = opts->clockid;
	}
	if (!dummy && evsel->leader == evsel) {
		attr->disabled = 1;
		attr->enable_on_exec = opts->enable_on_exec;
	}
	if (tracking)
		evsel__config_tracking(evsel, opts);
}

/* perf's evlist__add_aux_dummy(): counts nothing, sees guest and host */
static int evlist__add_tracking_dummy(struct evlist *evlist)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_DUMMY,
		.sample_period = 1,
	};
	struct evsel *evsel = evsel__new(&attr, "dummy:HG");

	if (!evsel)
		return -ENOMEM;
	if (evlist__add(evlist, evsel)) {
		evsel__delete(evsel);
		return -ENOMEM;
	}
	return 0;
}

int evlist__config_record(struct evlist *evlist, const struct record_opts *opts)
{
	bool differ = false;
	struct evsel *evsel;
	__u64 id_bit;
	int i, err;

	if (opts->cpu_target) {
		err = evlist__add_tracking_dummy(evlist);
		if (err)
			return err;
	}
	evlist__for_each(evlist, i, evsel) {
		bool dummy = opts->cpu_target && i == evlist->nr - 1;

		evsel__config_record(evsel, opts, opts->cpu_target ? dummy : i == 0);
		differ |= evsel->attr.sample_type != evlist->entries[0]->attr.sample_type;
	}
	if (evlist->nr < 2 && !opts->pipe)
		return 0;
	id_bit = differ ? PERF_SAMPLE_IDENTIFIER : PERF_SAMPLE_ID;
	evlist__for_each(evlist, i, evsel)
		evsel->attr.sample_type |= id_bit;
	return 0;
}

/* perf's strtoul() of a size or depth, here refused unless all digits */
static int record__parse_u32(const char *s, unsigned int *v)
{
	unsigned long long n;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || *s == '+' || n > 0xffffffffULL)
		return -EINVAL;
	*v = n;
	return 0;
}

int record_opts__parse_callgraph(struct record_opts *opts, const char *arg)
{
	const char *comma = strchr(arg, ',');
	size_t len = comma ? (size_t)(comma - arg) : strlen(arg);
	const char *val = comma && comma[1] ? comma + 1 : NULL;
	unsigned int v;

	if (len == 2 && !strncmp(arg, "fp", 2)) {
		if (val && record__parse_u32(val, &v))
			return -EINVAL;
		opts->callgraph = RECORD_CALLGRAPH_FP;
		opts->max_stack = val ? v : 0;
		return 0;
	}
	if (len == 5 && !strncmp(arg, "dwarf", 5)) {
		if (val && record__parse_u32(val, &v))
			return -ERANGE;
		v = val ? (v + 7) & ~7U : RECORD_DWARF_DUMP_SIZE;
		if (!v || v > RECORD_DWARF_DUMP_MAX)
			return -ERANGE;
		opts->callgraph = RECORD_CALLGRAPH_DWARF;
		opts->dump_size = v;
		/* the unwinder wants the data addresses perf's -d samples */
		opts->sample_address = true;
		return 0;
	}
	if (!strcmp(arg, "lbr")) {
		opts->callgraph = RECORD_CALLGRAPH_LBR;
		return 0;
	}
	return -EINVAL;
}

int record__parse_size(const char *s, unsigned long long *bytes, bool *unit)
{
	static const char units[] = "BKMG";
	const char *u;
	char *end;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*bytes = strtoull(s, &end, 10);
	if (errno || *bytes >= (1ULL << 32))
		return -EINVAL;
	*unit = *end;
	if (!*end)
		return 0;
	u = memchr(units, *end & ~0x20, 4);
	if (!u || end[1])
		return -EINVAL;
	*bytes <<= 10 * (u - units);
	return 0;
}

int record__parse_mmap_pages(const char *s, unsigned long page_size, unsigned int *pages,
			     bool *rounded)
{
	unsigned long long v, p = 1;
	bool unit;

	if (record__parse_size(s, &v, &unit))
		return -EINVAL;
	if (unit)
		v = (v + page_size - 1) / page_size;
	while (p < v)
		p <<= 1;
	if (!v || p > 0xffffffffULL)
		return -EINVAL;
	*rounded = p != v;
	*pages = p;
	return 0;
}

unsigned int record__default_mmap_pages(long mlock_kb, unsigned long page_size)
{
	unsigned long long kb = mlock_kb < 0 ? 512 : (unsigned long long)mlock_kb;
	unsigned long long pages, p = 1;

	if (mlock_kb >= 0)
		kb = kb > page_size / 1024 ? kb - page_size / 1024 : 0;
	pages = kb * 1024 / page_size;
	while (p * 2 <= pages && p * 2 <= 0x80000000ULL)
		p <<= 1;
	return p;
}
