// SPDX-License-Identifier: GPL-2.0
/*
 * event lists as perf spells them:
 *
 *   list  := item { ',' item }
 *   item  := '{' list '}' [ ':' mods ] | event
 *   event := symbol [ ':' mods ]		cycles, task-clock:u
 *          | 'r' HEX [ ':' mods ]		r003c
 *          | pmu '/' [ term { ',' term } ] '/' [ [':'] mods ]
 *						cpu/event=0x3c,umask=0/k
 *          | cache [ '-' opres [ '-' opres ] ] [ ':' mods ]
 *						L1-dcache-load-misses, LLC-loads
 *          | sys ':' name [ ':' mods ]	sched:sched_switch
 *   term  := name [ '=' value ]		config, config1, config2, name,
 *						or a field of pmu/format/, or an
 *						alias from pmu/events/
 *   mods  := { 'u' | 'k' | 'h' | 'G' | 'H' | 'p' | 'I' | 'D' | 'e' }
 *
 * An event without a modifier of its own counts the host only
 * (exclude_guest), as perf's event_attr_init() sets it.
 *
 * Each event becomes an evsel named exactly as written (group modifiers are
 * not appended to the members' names: perf 6.1 does not).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mount.h>
#include <unistd.h>

#include "evlist-internal.h"
#include "evsel-internal.h"
#include "parse-events.h"
#include "sysfs.h"
#include "util.h"

#define HW(n, a, c)	{ n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c }
#define SW(n, a, c)	{ n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c }

static const struct event_symbol event_symbols[] = {
	HW("cpu-cycles", "cycles", CPU_CYCLES),
	HW("instructions", NULL, INSTRUCTIONS),
	HW("cache-references", NULL, CACHE_REFERENCES),
	HW("cache-misses", NULL, CACHE_MISSES),
	HW("branch-instructions", "branches", BRANCH_INSTRUCTIONS),
	HW("branch-misses", NULL, BRANCH_MISSES),
	HW("bus-cycles", NULL, BUS_CYCLES),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("ref-cycles", NULL, REF_CPU_CYCLES),
	SW("cpu-clock", NULL, CPU_CLOCK),
	SW("task-clock", NULL, TASK_CLOCK),
	SW("page-faults", "faults", PAGE_FAULTS),
	SW("context-switches", "cs", CONTEXT_SWITCHES),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS),
	SW("emulation-faults", NULL, EMULATION_FAULTS),
	SW("dummy", NULL, DUMMY),
	SW("bpf-output", NULL, BPF_OUTPUT),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES),
};

/*
 * Hardware cache events as perf 6.1 spells them: the words its lexer takes
 * (exactly, case and all), then its alias tables, which it matches by
 * prefix and without case to find the cache, the operation and the result.
 */
static const char *const cache_words[] = {
	"L1-dcache", "l1-d", "l1d", "L1-data", "L1-icache", "l1-i", "l1i",
	"L1-instruction", "LLC", "L2", "dTLB", "d-tlb", "Data-TLB", "iTLB",
	"i-tlb", "Instruction-TLB", "branch", "branches", "bpu", "btb", "bpc", "node",
};

static const char *const cache_opres_words[] = {
	"load", "loads", "read", "store", "stores", "write", "prefetch", "prefetches",
	"speculative-read", "speculative-load", "refs", "Reference", "ops", "access",
	"misses", "miss",
};

#define CACHE_MAX_ALIASES	8

static const char *const cache_names[PERF_COUNT_HW_CACHE_MAX][CACHE_MAX_ALIASES] = {
	{ "L1-dcache", "l1-d", "l1d", "L1-data" },
	{ "L1-icache", "l1-i", "l1i", "L1-instruction" },
	{ "LLC", "L2" },
	{ "dTLB", "d-tlb", "Data-TLB" },
	{ "iTLB", "i-tlb", "Instruction-TLB" },
	{ "branch", "branches", "bpu", "btb", "bpc" },
	{ "node" },
};

static const char *const cache_op_names[PERF_COUNT_HW_CACHE_OP_MAX][CACHE_MAX_ALIASES] = {
	{ "load", "loads", "read" },
	{ "store", "stores", "write" },
	{ "prefetch", "prefetches", "speculative-read", "speculative-load" },
};

static const char *const cache_result_names[PERF_COUNT_HW_CACHE_RESULT_MAX][CACHE_MAX_ALIASES] = {
	{ "refs", "Reference", "ops", "access" },
	{ "misses", "miss" },
};

#define CACHE_OP(op)	(1 << PERF_COUNT_HW_CACHE_OP_##op)

/* which operations each cache counts */
static const unsigned int cache_ops_valid[PERF_COUNT_HW_CACHE_MAX] = {
	[PERF_COUNT_HW_CACHE_L1D]	= CACHE_OP(READ) | CACHE_OP(WRITE) | CACHE_OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_L1I]	= CACHE_OP(READ) | CACHE_OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_LL]	= CACHE_OP(READ) | CACHE_OP(WRITE) | CACHE_OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_DTLB]	= CACHE_OP(READ) | CACHE_OP(WRITE) | CACHE_OP(PREFETCH),
	[PERF_COUNT_HW_CACHE_ITLB]	= CACHE_OP(READ),
	[PERF_COUNT_HW_CACHE_BPU]	= CACHE_OP(READ),
	[PERF_COUNT_HW_CACHE_NODE]	= CACHE_OP(READ) | CACHE_OP(WRITE) | CACHE_OP(PREFETCH),
};

/* perf's parse_aliases(): the first entry with an alias that prefixes @str */
static int cache_alias(const char *str, const char *const names[][CACHE_MAX_ALIASES], int nr)
{
	int i, j;

	for (i = 0; i < nr; i++)
		for (j = 0; j < CACHE_MAX_ALIASES && names[i][j]; j++)
			if (!strncasecmp(str, names[i][j], strlen(names[i][j])))
				return i;
	return -1;
}

/* How long the word of @words is that @s[0..len) starts with, before a '-' or the end. */
static size_t cache_word(const char *s, size_t len, const char *const *words, size_t nr)
{
	size_t i, best = 0;

	for (i = 0; i < nr; i++) {
		size_t n = strlen(words[i]);

		/* the longest word that fits, as the lexer takes it */
		if (n <= len && n > best && !strncmp(s, words[i], n) &&
		    (n == len || s[n] == '-'))
			best = n;
	}
	return best;
}

/*
 * @name[0..len) as a hardware cache event: cache[-opres[-opres]].  Returns
 * 0 with @attr set, -ENOENT if it is not spelled like one, -EINVAL for an
 * operation the cache does not count.
 */
static int parse_cache_event(const char *name, size_t len, struct perf_event_attr *attr)
{
	char part[3][32];
	int nr = 0, type, op = -1, result = -1, i;
	size_t n, m;

	n = cache_word(name, len, cache_words, ARRAY_SIZE(cache_words));
	if (!n || n >= sizeof(part[0]))
		return -ENOENT;
	snprintf(part[nr++], sizeof(part[0]), "%.*s", (int)n, name);
	name += n;
	len -= n;
	while (len) {
		/* '-' then one or two words; "speculative-read" has a '-' too */
		m = cache_word(name + 1, len - 1, cache_opres_words,
			       ARRAY_SIZE(cache_opres_words));
		if (!m || nr == 3)
			return -ENOENT;
		snprintf(part[nr++], sizeof(part[0]), "%.*s", (int)m, name + 1);
		name += m + 1;
		len -= m + 1;
	}
	type = cache_alias(part[0], cache_names, PERF_COUNT_HW_CACHE_MAX);
	if (type < 0)
		return -ENOENT;
	for (i = 1; i < nr; i++) {
		if (op < 0) {
			op = cache_alias(part[i], cache_op_names, PERF_COUNT_HW_CACHE_OP_MAX);
			if (op >= 0) {
				if (!(cache_ops_valid[type] & (1U << op)))
					return -EINVAL;
				continue;
			}
		}
		if (result < 0)
			result = cache_alias(part[i], cache_result_names,
					     PERF_COUNT_HW_CACHE_RESULT_MAX);
	}
	if (op < 0)
		op = PERF_COUNT_HW_CACHE_OP_READ;
	if (result < 0)
		result = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
	attr->type = PERF_TYPE_HW_CACHE;
	attr->config = (__u64)type | (__u64)op << 8 | (__u64)result << 16;
	return 0;
}

/*
 * The name of the @idx-th hardware cache event, spelt as perf lists them:
 * L1-dcache-loads, L1-dcache-load-misses, L1-dcache-stores...  Returns 0,
 * or -ENOENT past the last one.
 */
int parse_events__cache_event(int idx, char *buf, size_t size)
{
	int type, op, result;

	for (type = 0; type < PERF_COUNT_HW_CACHE_MAX; type++) {
		for (op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!(cache_ops_valid[type] & (1U << op)))
				continue;
			for (result = 0; result < PERF_COUNT_HW_CACHE_RESULT_MAX; result++) {
				if (idx--)
					continue;
				if (result)
					snprintf(buf, size, "%s-%s-%s", cache_names[type][0],
						 cache_op_names[op][0],
						 cache_result_names[result][0]);
				else
					snprintf(buf, size, "%s-%s", cache_names[type][0],
						 cache_op_names[op][1]);
				return 0;
			}
		}
	}
	return -ENOENT;
}

const struct event_symbol *parse_events__symbols(int *nr)
{
	*nr = (int)ARRAY_SIZE(event_symbols);
	return event_symbols;
}

const char *parse_events__pmu_root(const struct parse_events_env *env)
{
	return env && env->pmu_root ? env->pmu_root : "/sys/bus/event_source/devices";
}

#define TRACEFS_DIR		"/sys/kernel/tracing"
#define TRACEFS_DEBUG_DIR	"/sys/kernel/debug/tracing"

/* tracefs, or the debugfs one; one only root may enter is there too */
static bool tracefs__found(const char *dir)
{
	char path[64];

	snprintf(path, sizeof(path), "%s/events", dir);
	return !access(path, F_OK) || errno == EACCES;
}

const char *parse_events__tracefs(const struct parse_events_env *env)
{
	if (env && env->tracefs)
		return env->tracefs;
	if (!tracefs__found(TRACEFS_DIR) && tracefs__found(TRACEFS_DEBUG_DIR))
		return TRACEFS_DEBUG_DIR "/events";
	return TRACEFS_DIR "/events";
}

/* as perf's tracefs__mount(): where nothing is mounted yet, tracefs is */
static int tracefs__mount(void)
{
	if (tracefs__found(TRACEFS_DIR) || tracefs__found(TRACEFS_DEBUG_DIR))
		return -EEXIST;
	return mount("nodev", TRACEFS_DIR, "tracefs", 0, NULL) ? -errno : 0;
}

struct parser {
	const char *str;
	const char *s;
	const struct parse_events_env *env;
	struct parse_events_error *error;
	struct evlist *evlist;
};

static int parse_error(struct parser *p, const char *at, int err, const char *fmt, ...)
	__printf(4, 5);

static int parse_error(struct parser *p, const char *at, int err, const char *fmt, ...)
{
	va_list ap;

	if (p->error) {
		p->error->pos = (int)(at - p->str);
		va_start(ap, fmt);
		vsnprintf(p->error->msg, sizeof(p->error->msg), fmt, ap);
		va_end(ap);
	}
	return err;
}

/*
 * A number as perf's lexer takes one: decimal digits, or 0x and hex digits
 * ("010" is ten, as in perf; "0X10" is no number).
 */
static int parse_u64(const char *s, __u64 *val)
{
	int base = 10;
	char *end;

	if (*s == '+')
		s++;
	if (s[0] == '0' && s[1] == 'x') {
		base = 16;
		s += 2;
	}
	if (!isxdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	*val = strtoull(s, &end, base);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

/* why sysfs__read() failed, for an error message */
static const char *read_strerror(int err)
{
	if (err == -EINVAL)
		return "it holds a NUL byte, expected one line of text";
	if (err == -EFBIG)
		return "it is too long, expected one short line";
	return strerror(-err);
}

/* a number the kernel printed in a sysfs/tracefs file: decimal digits only */
static int parse_dec_u64(const char *s, __u64 *val)
{
	char *end;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -EINVAL;
	errno = 0;
	*val = strtoull(s, &end, 10);
	return errno ? -EINVAL : 0;
}

/* @in for an error message: printable, at most about 40 bytes */
static const char *printable(const char *in, char *buf, size_t size)
{
	size_t len = 0;

	for (; *in && len + 8 < size; in++) {
		unsigned char c = *in;

		if (len >= 40) {
			len += snprintf(buf + len, size - len, "...");
			break;
		}
		if (isprint(c) && c != '\'')
			buf[len++] = c;
		else
			len += snprintf(buf + len, size - len, "\\x%02x", c);
	}
	buf[len < size ? len : size - 1] = '\0';
	return buf;
}

/*
 * perf's get_event_modifier(), over @attr's bits: an event's own modifier
 * starts from none set, a group's from the member's.  Naming any of u/k/h
 * excludes the others; u also excludes the guest unless G or H was named
 * (*@gh), and p (precise) needs the guest excluded too; G and H name the
 * side counted.  k, h and I leave the guest counted, as perf does.
 */
#define MODS_EXPECTED	"expected u, k, h, G, H, p, I, D or e"

static int apply_mods(struct perf_event_attr *attr, bool *gh, const char *mods, size_t len)
{
	bool eu = attr->exclude_user, ek = attr->exclude_kernel, eh = attr->exclude_hv;
	bool eH = attr->exclude_host, eG = attr->exclude_guest;
	bool exclude = eu || ek || eh;
	unsigned int precise = attr->precise_ip;
	size_t i;

	if (!len)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		char c = mods[i];

		if ((c == 'u' || c == 'k' || c == 'h') && !exclude)
			exclude = eu = ek = eh = true;
		if ((c == 'G' || c == 'H') && !*gh)
			*gh = eG = eH = true;
		switch (c) {
		case 'u':
			eu = false;
			eG |= !*gh;
			break;
		case 'k':
			ek = false;
			break;
		case 'h':
			eh = false;
			break;
		case 'G':
			eG = false;
			break;
		case 'H':
			eH = false;
			break;
		case 'p':
			precise++;
			eG |= !*gh;
			break;
		case 'I':
			attr->exclude_idle = 1;
			break;
		case 'D':
			attr->pinned = 1;
			break;
		case 'e':
			attr->exclusive = 1;
			break;
		default:
			return -EINVAL;
		}
	}
	if (precise > 3)
		return -EINVAL;
	attr->exclude_user = eu;
	attr->exclude_kernel = ek;
	attr->exclude_hv = eh;
	attr->exclude_host = eH;
	attr->exclude_guest = eG;
	attr->precise_ip = precise;
	return 0;
}

static const struct event_symbol *find_symbol(const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(event_symbols); i++) {
		const struct event_symbol *sym = &event_symbols[i];

		if ((strlen(sym->name) == len && !strncmp(sym->name, name, len)) ||
		    (sym->alias && strlen(sym->alias) == len &&
		     !strncmp(sym->alias, name, len)))
			return sym;
	}
	return NULL;
}

static int add_event(struct parser *p, const struct perf_event_attr *attr, bool gh,
		     const char *name, size_t len)
{
	struct evsel *evsel;
	char *n = strndup(name, len);
	int err;

	if (!n)
		return -ENOMEM;
	evsel = evsel__new(attr, n);
	free(n);
	if (!evsel)
		return -ENOMEM;
	evsel->exclude_gh = gh;
	err = evlist__add(p->evlist, evsel);
	if (err)
		evsel__delete(evsel);
	return err;
}

/* a bit number of a format: decimal digits, 0..63 */
static int format_bit(const char **sp, int *bit)
{
	const char *s = *sp;
	int v = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	while (isdigit((unsigned char)*s)) {
		v = v * 10 + (*s++ - '0');
		if (v > 63)
			return -EINVAL;
	}
	*bit = v;
	*sp = s;
	return 0;
}

/*
 * A sysfs format, "config:0-7", "config1:0-3,8-11", "config2:5": which
 * attr field (0, 1, 2) and which bits of it, in order (@bits, up to 64
 * of them; the same bit twice is malformed).  -EINVAL when it is not
 * spelled so.
 */
int parse_events__pmu_format(const char *fmt, int *field, int *bits, int *nr_bits)
{
	__u64 used = 0;
	const char *s;
	int nr = 0;

	if (!strncmp(fmt, "config:", 7))
		*field = 0;
	else if (!strncmp(fmt, "config1:", 8))
		*field = 1;
	else if (!strncmp(fmt, "config2:", 8))
		*field = 2;
	else
		return -EINVAL;
	s = strchr(fmt, ':') + 1;
	for (;;) {
		int lo, hi, b;

		if (format_bit(&s, &lo))
			return -EINVAL;
		hi = lo;
		if (*s == '-') {
			s++;
			if (format_bit(&s, &hi) || hi < lo)
				return -EINVAL;
		}
		for (b = lo; b <= hi; b++) {
			if (used & 1ULL << b)
				return -EINVAL;
			used |= 1ULL << b;
			bits[nr++] = b;
		}
		if (!*s)
			break;
		if (*s++ != ',')
			return -EINVAL;
	}
	*nr_bits = nr;
	return 0;
}

/* Put @val into the bits @fmt names; -EINVAL for a bad format, -ERANGE if it does not fit. */
static int pmu_format_apply(struct perf_event_attr *attr, const char *fmt, __u64 val)
{
	int field, bits[64], nr, i;
	__u64 *f;

	if (parse_events__pmu_format(fmt, &field, bits, &nr))
		return -EINVAL;
	if (nr < 64 && val >> nr)
		return -ERANGE;
	f = field == 0 ? &attr->config : field == 1 ? &attr->config1 : &attr->config2;
	for (i = 0; i < nr; i++)
		if ((val >> i) & 1)
			*f |= 1ULL << bits[i];
	return 0;
}

static int pmu_term(struct parser *p, const char *pmu, struct perf_event_attr *attr,
		    const char *term, const char *at, int depth);

static int pmu_terms(struct parser *p, const char *pmu, struct perf_event_attr *attr,
		     const char *terms, const char *at, int depth)
{
	char *copy, *t, *next;
	int err = 0;

	if (!*terms)
		return 0;
	copy = strdup(terms);
	if (!copy)
		return -ENOMEM;
	for (t = copy; t && !err; t = next) {
		next = strchr(t, ',');
		if (next)
			*next++ = '\0';
		if (!*t)
			err = parse_error(p, at, -EINVAL,
					  "empty term in '%s' (expected term[=value],...)", terms);
		else
			err = pmu_term(p, pmu, attr, t, at, depth);
	}
	free(copy);
	return err;
}

static int pmu_term(struct parser *p, const char *pmu, struct perf_event_attr *attr,
		    const char *term, const char *at, int depth)
{
	const char *root = parse_events__pmu_root(p->env);
	char path[PATH_MAX], buf[1024], *eq, name[128], show[64];
	__u64 val = 1;
	int err;

	eq = strchr(term, '=');
	if ((eq ? (size_t)(eq - term) : strlen(term)) >= sizeof(name) || term == eq)
		return parse_error(p, at, -EINVAL, "invalid term '%s'", term);
	snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - term) : (int)strlen(term), term);
	if (eq && parse_u64(eq + 1, &val) && strcmp(name, "name"))
		return parse_error(p, at, -EINVAL,
				   "term '%s': expected a number, got '%s'", name, eq + 1);
	if (!strcmp(name, "name"))
		return eq && eq[1] ? 0 : parse_error(p, at, -EINVAL, "term 'name' needs a value");
	if (!strcmp(name, "config") || !strcmp(name, "config1") || !strcmp(name, "config2")) {
		if (!eq)
			return parse_error(p, at, -EINVAL, "term '%s' needs a value", name);
		if (!strcmp(name, "config"))
			attr->config = val;
		else if (!strcmp(name, "config1"))
			attr->config1 = val;
		else
			attr->config2 = val;
		return 0;
	}
	if (!strcmp(name, "period")) {
		attr->sample_period = val;
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s/format/%s", root, pmu, name);
	err = sysfs__read(path, buf, sizeof(buf));
	if (!err) {
		err = pmu_format_apply(attr, buf, val);
		if (err == -ERANGE)
			return parse_error(p, at, err, "term '%s=%s' does not fit format '%s'",
					   name, eq ? eq + 1 : "1", buf);
		if (err)
			return parse_error(p, at, err,
					   "%s holds '%s', expected a format like config:0-7,32-35",
					   path, printable(buf, show, sizeof(show)));
		return 0;
	}
	if (err != -ENOENT)
		return parse_error(p, at, err, "cannot read %s: %s", path, read_strerror(err));
	snprintf(path, sizeof(path), "%s/%s/events/%s", root, pmu, name);
	if (eq || depth)
		goto out_unknown;
	err = sysfs__read(path, buf, sizeof(buf));
	if (err == -ENOENT)
		goto out_unknown;
	if (err)
		return parse_error(p, at, err, "cannot read %s: %s", path, read_strerror(err));
	if (!buf[0])
		return parse_error(p, at, -EINVAL,
				   "%s is empty, expected terms like event=0x3c,umask=0x1", path);
	err = pmu_terms(p, pmu, attr, buf, at, depth + 1);
	if (err && p->error) {
		char inner[sizeof(p->error->msg)];

		snprintf(inner, sizeof(inner), "%s", p->error->msg);
		parse_error(p, at, err, "%s holds '%s': %s", path, printable(buf, show, sizeof(show)),
			    inner);
	}
	return err;

out_unknown:
	return parse_error(p, at, -EINVAL, "unknown term '%s' for PMU '%s' (see %s/%s/format)",
			   name, pmu, root, pmu);
}

static int parse_pmu_event(struct parser *p, const char *start, size_t pmulen,
			   struct perf_event_attr *attr, const char **name_end)
{
	const char *root = parse_events__pmu_root(p->env);
	const char *terms = start + pmulen + 1, *close;
	char path[PATH_MAX], buf[64], show[64], *pmu, *t;
	__u64 type;
	int err;

	close = strchr(terms, '/');
	if (!close)
		return parse_error(p, start, -EINVAL, "missing closing '/' after PMU terms");
	pmu = strndup(start, pmulen);
	t = strndup(terms, close - terms);
	if (!pmu || !t) {
		err = -ENOMEM;
		goto out_free;
	}
	snprintf(path, sizeof(path), "%s/%s/type", root, pmu);
	err = sysfs__read(path, buf, sizeof(buf));
	if (err == -ENOENT || err == -ENOTDIR) {
		err = parse_error(p, start, -ENOENT, "unknown PMU '%s' (no %s)", pmu, path);
		goto out_free;
	}
	if (err) {
		err = parse_error(p, start, err, "PMU '%s': cannot read %s: %s", pmu, path,
				  read_strerror(err));
		goto out_free;
	}
	if (parse_dec_u64(buf, &type) || type > UINT32_MAX) {
		err = parse_error(p, start, -EINVAL,
				  "PMU '%s': %s holds '%s', expected a decimal type below 2^32",
				  pmu, path, printable(buf, show, sizeof(show)));
		goto out_free;
	}
	attr->type = (__u32)type;
	err = pmu_terms(p, pmu, attr, t, start, 0);
	*name_end = close + 1;
out_free:
	free(pmu);
	free(t);
	return err;
}

static int parse_tracepoint(struct parser *p, const char *tok, size_t syslen,
			    size_t namelen, struct perf_event_attr *attr)
{
	char path[PATH_MAX], buf[64], show[64];
	__u64 id;
	int err;

	snprintf(path, sizeof(path), "%s/%.*s/%.*s/id", parse_events__tracefs(p->env),
		 (int)syslen, tok, (int)namelen, tok + syslen + 1);
	err = sysfs__read(path, buf, sizeof(buf));
	if (err == -ENOENT && !(p->env && p->env->tracefs) && !tracefs__mount())
		err = sysfs__read(path, buf, sizeof(buf));
	if (err == -ENOENT || err == -ENOTDIR)
		return parse_error(p, tok, -ENOENT, "unknown tracepoint '%.*s' (no %s)",
				   (int)(syslen + 1 + namelen), tok, path);
	if (err == -EACCES)
		return parse_error(p, tok, err,
				   "tracepoint '%.*s': permission denied reading %s (tracefs is root's unless mounted with mode=755)",
				   (int)(syslen + 1 + namelen), tok, path);
	if (err)
		return parse_error(p, tok, err, "tracepoint '%.*s': cannot read %s: %s",
				   (int)(syslen + 1 + namelen), tok, path, read_strerror(err));
	if (parse_dec_u64(buf, &id))
		return parse_error(p, tok, -EINVAL,
				   "tracepoint '%.*s': %s holds '%s', expected a decimal id",
				   (int)(syslen + 1 + namelen), tok, path,
				   printable(buf, show, sizeof(show)));
	attr->type = PERF_TYPE_TRACEPOINT;
	attr->config = id;
	attr->sample_period = 1;
	return 0;
}

static bool is_tok_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '-' || c == '.' || c == ':';
}

static int parse_event(struct parser *p)
{
	struct perf_event_attr attr;
	const char *start = p->s, *end = p->s, *colon, *name_end;
	bool gh = false, own_mods = false;
	int err;

	memset(&attr, 0, sizeof(attr));
	while (is_tok_char(*end) && *end != ':')
		end++;
	if (end == start)
		return parse_error(p, start, -EINVAL, "expected an event name");

	if (*start == '.')
		return parse_error(p, start, -EINVAL, "invalid event or PMU name '%.*s'",
				   (int)(end - start), start);
	if (*end == '/') {
		err = parse_pmu_event(p, start, end - start, &attr, &name_end);
		if (err)
			return err;
		end = name_end;
		if (*end == ':')
			end++;
		colon = end;
		while (isalpha((unsigned char)*end))
			end++;
		/* "cpu/event=1/:" needs modifiers after its ':', as perf */
		own_mods = end != colon || colon[-1] == ':';
		if (own_mods && apply_mods(&attr, &gh, colon, end - colon))
			return parse_error(p, colon, -EINVAL,
					   "invalid modifier '%.*s' (" MODS_EXPECTED ")",
					   (int)(end - colon), colon);
	} else {
		const struct event_symbol *sym = find_symbol(start, end - start);
		const char *mods = NULL;
		size_t modlen = 0;
		int cache_err = -ENOENT;

		if (!sym)
			cache_err = parse_cache_event(start, end - start, &attr);
		if (sym) {
			attr.type = sym->type;
			attr.config = sym->config;
		} else if (cache_err != -ENOENT) {
			/* as perf's lexer: never a tracepoint system, "node:x" is a bad modifier */
			if (cache_err)
				return parse_error(p, start, cache_err,
						   "hardware cache event '%.*s': that cache does not count that operation",
						   (int)(end - start), start);
		} else if (*start == 'r' && end - start > 1 &&
			   end - start <= 17 && strspn(start + 1, "0123456789abcdefABCDEF") >=
			   (size_t)(end - start - 1)) {
			attr.type = PERF_TYPE_RAW;
			attr.config = strtoull(start + 1, NULL, 16);
		} else if (*end == ':' && is_tok_char(end[1]) && end[1] != ':' && end[1] != '.') {
			const char *n = end + 1, *ne = n;

			while (is_tok_char(*ne) && *ne != ':')
				ne++;
			err = parse_tracepoint(p, start, end - start, ne - n, &attr);
			if (err)
				return err;
			end = ne;
		} else {
			return parse_error(p, start, -EINVAL,
					   "unknown event '%.*s' (expected a name from 'perfx list', rNNNN, pmu/terms/ or sys:name)",
					   (int)(end - start), start);
		}
		if (*end == ':') {
			mods = ++end;
			while (isalpha((unsigned char)*end))
				end++;
			modlen = end - mods;
			own_mods = true;
			if (apply_mods(&attr, &gh, mods, modlen))
				return parse_error(p, mods, -EINVAL,
						   "invalid modifier '%.*s' (" MODS_EXPECTED ")",
						   (int)modlen, mods);
		}
	}
	if (*end && *end != ',' && *end != '}')
		return parse_error(p, end, -EINVAL, "unexpected '%c'", *end);
	if (!own_mods)
		attr.exclude_guest = 1;
	err = add_event(p, &attr, gh, start, end - start);
	p->s = end;
	return err;
}

static int parse_group(struct parser *p)
{
	const char *open = p->s;
	int first = p->evlist->nr, i, err;

	p->s++;
	for (;;) {
		if (*p->s == '{')
			return parse_error(p, p->s, -EINVAL, "nested groups are not supported");
		err = parse_event(p);
		if (err)
			return err;
		if (*p->s == ',') {
			p->s++;
			continue;
		}
		if (*p->s == '}')
			break;
		return parse_error(p, open, -EINVAL, "missing '}'");
	}
	p->s++;
	if (*p->s == ':') {
		const char *mods = ++p->s;

		while (isalpha((unsigned char)*p->s))
			p->s++;
		/* perf 6.1 does not append group modifiers to the names */
		for (i = first; i < p->evlist->nr; i++) {
			struct evsel *evsel = p->evlist->entries[i];

			if (apply_mods(&evsel->attr, &evsel->exclude_gh, mods, p->s - mods))
				return parse_error(p, mods, -EINVAL,
						   "invalid group modifier '%.*s' (" MODS_EXPECTED ")",
						   (int)(p->s - mods), mods);
		}
	}
	for (i = first; i < p->evlist->nr; i++)
		p->evlist->entries[i]->leader = p->evlist->entries[first];
	p->evlist->entries[first]->nr_members = p->evlist->nr - first;
	return 0;
}

int parse_events(struct evlist *evlist, const char *str,
		 const struct parse_events_env *env, struct parse_events_error *error)
{
	struct parser p = { str, str, env, error, evlist };
	int err;

	if (!str || !*str)
		return parse_error(&p, str ? str : "", -EINVAL, "empty event list");
	for (;;) {
		err = *p.s == '{' ? parse_group(&p) : parse_event(&p);
		if (err)
			return err;
		if (!*p.s)
			return 0;
		if (*p.s != ',' || !p.s[1])
			return parse_error(&p, p.s, -EINVAL, "unexpected '%c'", *p.s);
		p.s++;
	}
}
