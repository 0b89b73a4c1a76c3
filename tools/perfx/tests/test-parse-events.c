// SPDX-License-Identifier: GPL-2.0
/*
 * Proves that every event syntax perfx stat accepts turns into the right
 * attr and name, against a fake PMU and tracefs tree, and that malformed
 * lists are rejected with -EINVAL / -ENOENT and nothing leaks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/evlist-internal.h"
#include "lib/evsel-internal.h"
#include "lib/parse-events.h"
#include "lib/util.h"
#include "tests/dir-tree.h"
#include "tests/tap.h"

static char root[64];
static struct parse_events_env env;

static void put(const char *rel, const char *content)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(content, f);
		fclose(f);
	}
}

/* @len bytes of @data, NULs and all */
static void putn(const char *rel, const char *data, size_t len)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
}

/* The fake tree in a directory of the test's own; -errno */
static int setup(void)
{
	int err = tap_tmpdir(root, sizeof(root));

	if (err)
		return err;
	tree__mkdir(root, "pmu");
	tree__mkdir(root, "pmu/cpu");
	tree__mkdir(root, "pmu/cpu/format");
	tree__mkdir(root, "pmu/cpu/events");
	put("pmu/cpu/type", "4\n");
	put("pmu/cpu/format/event", "config:0-7\n");
	put("pmu/cpu/format/umask", "config:8-15\n");
	put("pmu/cpu/format/edge", "config:18\n");
	put("pmu/cpu/format/cmask", "config:24-31\n");
	put("pmu/cpu/format/split", "config1:0-3,8-11\n");
	put("pmu/cpu/events/cycles-t", "event=0x3c,umask=0x1\n");
	tree__mkdir(root, "tp");
	tree__mkdir(root, "tp/sched");
	tree__mkdir(root, "tp/sched/sched_switch");
	put("tp/sched/sched_switch/id", "316\n");
	env.pmu_root = NULL;
	{
		static char pmu[96], tp[96];

		snprintf(pmu, sizeof(pmu), "%s/pmu", root);
		snprintf(tp, sizeof(tp), "%s/tp", root);
		env.pmu_root = pmu;
		env.tracefs = tp;
	}
	return 0;
}

struct want {
	const char *name;
	__u32 type;
	__u64 config;
	__u64 config1;
	int excl;	/* exclude_user | exclude_kernel << 1 | exclude_hv << 2 */
	int leader;	/* index of the leader */
};

static void check_ok(const char *str, int nr, const struct want *want)
{
	struct parse_events_error perr = { 0, "" };
	struct evlist *evlist = evlist__new();
	int err, i, good;

	err = parse_events(evlist, str, &env, &perr);
	good = !err && evlist->nr == nr;
	for (i = 0; good && i < nr; i++) {
		struct evsel *e = evlist->entries[i];
		int excl = e->attr.exclude_user | e->attr.exclude_kernel << 1 |
			   e->attr.exclude_hv << 2;

		good = !strcmp(e->name, want[i].name) && e->attr.type == want[i].type &&
		       e->attr.config == want[i].config && e->attr.config1 == want[i].config1 &&
		       excl == want[i].excl && e->leader == evlist->entries[want[i].leader];
		if (!good)
			printf("#   event %d: name %s type %u config %#llx config1 %#llx excl %d\n",
			       i, e->name, e->attr.type, (unsigned long long)e->attr.config,
			       (unsigned long long)e->attr.config1, excl);
	}
	tap_ok(good, "'%s' parses (err %d %s)", str, err, perr.msg);
	evlist__delete(evlist);
}

static void check_err(const char *str, int want_err)
{
	struct parse_events_error perr = { 0, "" };
	struct evlist *evlist = evlist__new();
	int err = parse_events(evlist, str, &env, &perr);

	tap_ok(err == want_err && perr.msg[0], "'%s' is rejected with %d (got %d: %s)",
	       str ? str : "(null)", want_err, err, perr.msg);
	evlist__delete(evlist);
}

/* the exact -errno and message; "%R" in @fmt is the fake tree's root */
static void check_msg(const char *str, int want_err, const char *fmt)
{
	struct parse_events_error perr = { 0, "" };
	struct evlist *evlist = evlist__new();
	char want[512];
	size_t len = 0;
	const char *f;
	int err;

	for (f = fmt; *f && len + 1 < sizeof(want); f++) {
		if (f[0] == '%' && f[1] == 'R') {
			len += snprintf(want + len, sizeof(want) - len, "%s", root);
			f++;
			continue;
		}
		want[len++] = *f;
	}
	want[len < sizeof(want) ? len : sizeof(want) - 1] = '\0';
	err = parse_events(evlist, str, &env, &perr);
	tap_ok(err == want_err && evlist->nr == 0, "'%s' is rejected with %d (got %d)", str,
	       want_err, err);
	tap_str_eq(perr.msg, want, str);
	evlist__delete(evlist);
}

/* a format file's text: the field and bits, as "1:0,1,2,3,8" */
static void check_format(const char *fmt, int want_err, const char *want)
{
	int field = -1, bits[64], nr = 0, i, err;
	char got[256] = "", shown[64];
	size_t len = 0, n = 0;

	err = parse_events__pmu_format(fmt, &field, bits, &nr);
	if (!err) {
		len = snprintf(got, sizeof(got), "%d:", field);
		for (i = 0; i < nr && len < sizeof(got); i++)
			len += snprintf(got + len, sizeof(got) - len, "%s%d", i ? "," : "", bits[i]);
	}
	for (i = 0; fmt[i] && n + 5 < sizeof(shown); i++)
		n += snprintf(shown + n, sizeof(shown) - n,
			      fmt[i] >= ' ' && fmt[i] < 127 ? "%c" : "\\x%02x",
			      (unsigned char)fmt[i]);
	shown[n] = '\0';
	if (want_err)
		tap_ok(err == want_err, "format '%s' is rejected with %d (got %d)", shown,
		       want_err, err);
	else
		tap_ok(!err && !strcmp(got, want), "format '%s' is %s (got %d, %s)", shown, want,
		       err, got);
}

#define W(...) ((const struct want[]){ __VA_ARGS__ })

/* sysfs and tracefs files holding garbage, beside the good ones */
static void setup_garbage(void)
{
	static char long_line[3000];

	memset(long_line, '1', sizeof(long_line) - 1);
	put("pmu/cpu/format/f_over", "config:0-99\n");
	put("pmu/cpu/format/f_empty", "");
	put("pmu/cpu/format/f_bin", "config:\xff\xfe\n");
	putn("pmu/cpu/format/f_nul", "config:0-7\0junk", 15);
	put("pmu/cpu/format/f_long", long_line);
	put("pmu/cpu/format/f_neg", "config:-1");
	put("pmu/cpu/format/f_small", "config:0-1\n");
	put("pmu/cpu/format/f_nonl", "config:8-9");
	put("pmu/cpu/format/f_split", "config:0-7,32-35\n");
	put("pmu/cpu/format/f_full", "config:0-63\n");
	put("pmu/cpu/format/f_order", "config1:4,0\n");
	tree__mkdir(root, "pmu/cpu/format/f_dir");
	put("pmu/cpu/events/e_empty", "\n");
	put("pmu/cpu/events/e_bad", "event=0x3c,bogus=1\n");
	put("pmu/cpu/events/e_range", "event=0x1ff\n");
	put("pmu/cpu/events/e_rec", "cycles-t\n");
	put("pmu/cpu/events/e_comma", "event=1,,umask=1\n");
	put("pmu/cpu/events/e_long", long_line);
	tree__mkdir(root, "pmu/tbig");
	put("pmu/tbig/type", "4294967296\n");
	tree__mkdir(root, "pmu/tneg");
	put("pmu/tneg/type", "-1\n");
	tree__mkdir(root, "pmu/thex");
	put("pmu/thex/type", "0x4\n");
	tree__mkdir(root, "pmu/tbin");
	put("pmu/tbin/type", "\xff\xfe\n");
	tree__mkdir(root, "pmu/tempty");
	put("pmu/tempty/type", "");
	tree__mkdir(root, "pmu/tsp");
	put("pmu/tsp/type", " 7\n");
	tree__mkdir(root, "pmu/tlong");
	put("pmu/tlong/type", long_line);
	tree__mkdir(root, "pmu/tdir");
	tree__mkdir(root, "pmu/tdir/type");
	tree__mkdir(root, "pmu/t7");
	put("pmu/t7/type", "7");
	tree__mkdir(root, "tp/bad");
	tree__mkdir(root, "tp/bad/hex");
	put("tp/bad/hex/id", "0x10\n");
	tree__mkdir(root, "tp/bad/neg");
	put("tp/bad/neg/id", "-1\n");
	tree__mkdir(root, "tp/bad/big");
	put("tp/bad/big/id", "18446744073709551616\n");
	tree__mkdir(root, "tp/bad/max");
	put("tp/bad/max/id", "18446744073709551615\n");
	tree__mkdir(root, "tp/bad/empty");
	put("tp/bad/empty/id", "");
	tree__mkdir(root, "tp/bad/bin");
	putn("tp/bad/bin/id", "4\0002\n", 4);
	tree__mkdir(root, "tp/bad/long");
	put("tp/bad/long/id", long_line);
	tree__mkdir(root, "tp/bad/nonl");
	put("tp/bad/nonl/id", "42");
	tree__mkdir(root, "tp/bad/noid");
}

static void test_garbage_files(void)
{
	setup_garbage();
	/* good values in odd but valid spellings */
	check_ok("cpu/event=010/", 1, W({ "cpu/event=010/", 4, 10, 0, 0, 0 }));
	check_ok("cpu/event=+3/", 1, W({ "cpu/event=+3/", 4, 3, 0, 0, 0 }));
	check_ok("cpu//", 1, W({ "cpu//", 4, 0, 0, 0, 0 }));
	check_ok("cpu/f_nonl=3/", 1, W({ "cpu/f_nonl=3/", 4, 0x300, 0, 0, 0 }));
	check_ok("cpu/f_split=0x1ff/", 1, W({ "cpu/f_split=0x1ff/", 4, 0x1000000ffULL, 0, 0, 0 }));
	check_ok("cpu/f_full=0xffffffffffffffff/", 1,
		 W({ "cpu/f_full=0xffffffffffffffff/", 4, ~0ULL, 0, 0, 0 }));
	check_ok("cpu/f_order=1/,cpu/f_order=2/", 2,
		 W({ "cpu/f_order=1/", 4, 0, 0x10, 0, 0 }, { "cpu/f_order=2/", 4, 0, 1, 0, 1 }));
	check_ok("t7/config=1/", 1, W({ "t7/config=1/", 7, 1, 0, 0, 0 }));
	check_ok("bad:nonl", 1, W({ "bad:nonl", PERF_TYPE_TRACEPOINT, 42, 0, 0, 0 }));
	check_ok("bad:max", 1, W({ "bad:max", PERF_TYPE_TRACEPOINT, ~0ULL, 0, 0, 0 }));

	/* terms */
	check_msg("cpu/event=0X3/", -EINVAL, "term 'event': expected a number, got '0X3'");
	check_msg("cpu/event=0x/", -EINVAL, "term 'event': expected a number, got '0x'");
	check_msg("cpu/event=/", -EINVAL, "term 'event': expected a number, got ''");
	check_msg("cpu/event=1 /", -EINVAL, "term 'event': expected a number, got '1 '");
	check_msg("cpu/config=18446744073709551616/", -EINVAL,
		  "term 'config': expected a number, got '18446744073709551616'");
	check_msg("cpu/,/", -EINVAL, "empty term in ',' (expected term[=value],...)");
	check_msg("cpu/event=1,,umask=1/", -EINVAL,
		  "empty term in 'event=1,,umask=1' (expected term[=value],...)");
	check_msg("cpu/event=1,/", -EINVAL, "empty term in 'event=1,' (expected term[=value],...)");
	check_msg("cpu/event=1/:", -EINVAL,
		  "invalid modifier '' (expected u, k, h, G, H, p, I, D or e)");
	check_msg("cpu/event=0x100/", -ERANGE, "term 'event=0x100' does not fit format 'config:0-7'");

	/* format files */
	check_msg("cpu/f_over=1/", -EINVAL,
		  "%R/pmu/cpu/format/f_over holds 'config:0-99', expected a format like config:0-7,32-35");
	check_msg("cpu/f_empty=1/", -EINVAL,
		  "%R/pmu/cpu/format/f_empty holds '', expected a format like config:0-7,32-35");
	check_msg("cpu/f_bin=1/", -EINVAL,
		  "%R/pmu/cpu/format/f_bin holds 'config:\\xff\\xfe', expected a format like config:0-7,32-35");
	check_msg("cpu/f_neg=1/", -EINVAL,
		  "%R/pmu/cpu/format/f_neg holds 'config:-1', expected a format like config:0-7,32-35");
	check_msg("cpu/f_nul=1/", -EINVAL,
		  "cannot read %R/pmu/cpu/format/f_nul: it holds a NUL byte, expected one line of text");
	check_msg("cpu/f_long=1/", -EFBIG,
		  "cannot read %R/pmu/cpu/format/f_long: it is too long, expected one short line");
	check_msg("cpu/f_dir=1/", -EISDIR, "cannot read %R/pmu/cpu/format/f_dir: Is a directory");
	check_msg("cpu/f_small=4/", -ERANGE, "term 'f_small=4' does not fit format 'config:0-1'");

	/* named events */
	check_msg("cpu/e_empty/", -EINVAL,
		  "%R/pmu/cpu/events/e_empty is empty, expected terms like event=0x3c,umask=0x1");
	check_msg("cpu/e_bad/", -EINVAL,
		  "%R/pmu/cpu/events/e_bad holds 'event=0x3c,bogus=1': unknown term 'bogus' for PMU 'cpu' (see %R/pmu/cpu/format)");
	check_msg("cpu/e_range/", -ERANGE,
		  "%R/pmu/cpu/events/e_range holds 'event=0x1ff': term 'event=0x1ff' does not fit format 'config:0-7'");
	check_msg("cpu/e_rec/", -EINVAL,
		  "%R/pmu/cpu/events/e_rec holds 'cycles-t': unknown term 'cycles-t' for PMU 'cpu' (see %R/pmu/cpu/format)");
	check_msg("cpu/e_comma/", -EINVAL,
		  "%R/pmu/cpu/events/e_comma holds 'event=1,,umask=1': empty term in 'event=1,,umask=1' (expected term[=value],...)");
	check_msg("cpu/e_long/", -EFBIG,
		  "cannot read %R/pmu/cpu/events/e_long: it is too long, expected one short line");
	check_msg("cpu/e_bad=1/", -EINVAL,
		  "unknown term 'e_bad' for PMU 'cpu' (see %R/pmu/cpu/format)");

	/* type files */
	check_msg("tbig/config=1/", -EINVAL,
		  "PMU 'tbig': %R/pmu/tbig/type holds '4294967296', expected a decimal type below 2^32");
	check_msg("tneg/config=1/", -EINVAL,
		  "PMU 'tneg': %R/pmu/tneg/type holds '-1', expected a decimal type below 2^32");
	check_msg("thex/config=1/", -EINVAL,
		  "PMU 'thex': %R/pmu/thex/type holds '0x4', expected a decimal type below 2^32");
	check_msg("tbin/config=1/", -EINVAL,
		  "PMU 'tbin': %R/pmu/tbin/type holds '\\xff\\xfe', expected a decimal type below 2^32");
	check_msg("tempty/config=1/", -EINVAL,
		  "PMU 'tempty': %R/pmu/tempty/type holds '', expected a decimal type below 2^32");
	check_msg("tsp/config=1/", -EINVAL,
		  "PMU 'tsp': %R/pmu/tsp/type holds ' 7', expected a decimal type below 2^32");
	check_msg("tlong/config=1/", -EFBIG,
		  "PMU 'tlong': cannot read %R/pmu/tlong/type: it is too long, expected one short line");
	check_msg("tdir/config=1/", -EISDIR,
		  "PMU 'tdir': cannot read %R/pmu/tdir/type: Is a directory");
	check_msg("nopmu/config=1/", -ENOENT, "unknown PMU 'nopmu' (no %R/pmu/nopmu/type)");

	/* tracepoint id files */
	check_msg("bad:hex", -EINVAL,
		  "tracepoint 'bad:hex': %R/tp/bad/hex/id holds '0x10', expected a decimal id");
	check_msg("bad:neg", -EINVAL,
		  "tracepoint 'bad:neg': %R/tp/bad/neg/id holds '-1', expected a decimal id");
	check_msg("bad:big", -EINVAL,
		  "tracepoint 'bad:big': %R/tp/bad/big/id holds '18446744073709551616', expected a decimal id");
	check_msg("bad:empty", -EINVAL,
		  "tracepoint 'bad:empty': %R/tp/bad/empty/id holds '', expected a decimal id");
	check_msg("bad:bin", -EINVAL,
		  "tracepoint 'bad:bin': cannot read %R/tp/bad/bin/id: it holds a NUL byte, expected one line of text");
	check_msg("bad:long", -EFBIG,
		  "tracepoint 'bad:long': cannot read %R/tp/bad/long/id: it is too long, expected one short line");
	check_msg("bad:noid", -ENOENT, "unknown tracepoint 'bad:noid' (no %R/tp/bad/noid/id)");
}

static void test_formats(void)
{
	check_format("config:0-7", 0, "0:0,1,2,3,4,5,6,7");
	check_format("config1:0-3,8-11", 0, "1:0,1,2,3,8,9,10,11");
	check_format("config2:63", 0, "2:63");
	check_format("config:5,0", 0, "0:5,0");
	check_format("config:00-02", 0, "0:0,1,2");
	check_format("config:0-63", 0, "0:0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,"
		     "21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,"
		     "46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63");
	check_format("", -EINVAL, NULL);
	check_format("config", -EINVAL, NULL);
	check_format("config:", -EINVAL, NULL);
	check_format("config:0-99", -EINVAL, NULL);
	check_format("config:64", -EINVAL, NULL);
	check_format("config:4294967296", -EINVAL, NULL);
	check_format("config:99999999999999999999", -EINVAL, NULL);
	check_format("config:-1", -EINVAL, NULL);
	check_format("config:3-1", -EINVAL, NULL);
	check_format("config:0-7,", -EINVAL, NULL);
	check_format("config:,0", -EINVAL, NULL);
	check_format("config: 0-7", -EINVAL, NULL);
	check_format("config:0-7 ", -EINVAL, NULL);
	check_format("config:0-7\n", -EINVAL, NULL);
	check_format("config:0-7,4", -EINVAL, NULL);
	check_format("config:0-63,0", -EINVAL, NULL);
	check_format("config:1-", -EINVAL, NULL);
	check_format("config:0--5", -EINVAL, NULL);
	check_format("config:+1", -EINVAL, NULL);
	check_format("config:0x1", -EINVAL, NULL);
	check_format("config:0-\xff", -EINVAL, NULL);
	check_format("config3:0-7", -EINVAL, NULL);
	check_format("Config:0-7", -EINVAL, NULL);
	check_format("config1 :0", -EINVAL, NULL);
}

/* xorshift: the same garbage on every libc */
static unsigned int rnd_state = 20240601;

static unsigned int rnd(void)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 17;
	rnd_state ^= rnd_state << 5;
	return rnd_state;
}

/*
 * Random garbage and random mutations of valid lists: every result must
 * be 0 with events named as substrings of the input, or one of the
 * documented -errnos with a message and a position inside the input;
 * a second parse must agree.  ASan/UBSan watch the rest.
 */
static void fuzz_events(void)
{
	static const char *const seeds[] = {
		"cycles:u", "{cycles,instructions}:k,cs", "cpu/event=0x3c,umask=1/k",
		"cpu/cycles-t/", "r003c", "sched:sched_switch:k", "L1-dcache-load-misses",
		"cpu/split=0xff,config1=0/", "{task-clock,cpu/event=1/,r1}:u",
		"cpu/f_split=0x1ff/", "bad:nonl", "t7/config=1/",
	};
	static const char alphabet[] = "abcdeuxkhr0123456789,,,:://{}=-_.x \xff\x01";
	int i, j, bad = 0, ok = 0, rejected = 0;
	char in[64];

	for (i = 0; i < 4000; i++) {
		struct parse_events_error perr = { -1, "" }, perr2 = { -1, "" };
		struct evlist *evlist = evlist__new(), *again = evlist__new();
		int err, err2, len;

		if (i % 2) {
			len = rnd() % 24;
			for (j = 0; j < len; j++)
				in[j] = alphabet[rnd() % (sizeof(alphabet) - 1)];
			in[len] = '\0';
		} else {
			snprintf(in, sizeof(in), "%s", seeds[rnd() % ARRAY_SIZE(seeds)]);
			len = strlen(in);
			for (j = rnd() % 3; j > 0 && len > 0; j--) {
				int at = rnd() % len;
				char c = alphabet[rnd() % (sizeof(alphabet) - 1)];

				switch (rnd() % 3) {
				case 0:		/* replace */
					in[at] = c;
					break;
				case 1:		/* delete */
					memmove(in + at, in + at + 1, len - at);
					len--;
					break;
				default:	/* insert */
					if (len + 2 < (int)sizeof(in)) {
						memmove(in + at + 1, in + at, len - at + 1);
						in[at] = c;
						len++;
					}
				}
			}
		}
		err = parse_events(evlist, in, &env, &perr);
		err2 = parse_events(again, in, &env, &perr2);
		if (err != err2 || (err && strcmp(perr.msg, perr2.msg)) ||
		    evlist->nr != again->nr) {
			bad++;
		} else if (err) {
			rejected++;
			if ((err != -EINVAL && err != -ENOENT && err != -ERANGE) || !perr.msg[0] ||
			    perr.pos < 0 || perr.pos > (int)strlen(in)) {
				if (bad++ < 5)
					printf("#   input %d: %d at %d: %s\n", i, err, perr.pos,
					       perr.msg);
			}
		} else {
			ok++;
			for (j = 0; j < evlist->nr; j++) {
				if (!strstr(in, evlist->entries[j]->name)) {
					if (bad++ < 5)
						printf("#   input %d: event %s not in the input\n",
						       i, evlist->entries[j]->name);
				}
			}
		}
		evlist__delete(evlist);
		evlist__delete(again);
	}
	tap_ok(!bad && ok > 100 && rejected > 100,
	       "4000 random and mutated event lists: %d parse, %d are rejected with a message, %d wrong",
	       ok, rejected, bad);
}

/* random format texts: parsed bits are distinct, 0..63, and print back to the same */
static void fuzz_formats(void)
{
	static const char alphabet[] = "config12:-,0123456789 \xff";
	int i, j, bad = 0, ok = 0;
	char in[40];

	for (i = 0; i < 4000; i++) {
		int field, bits[64], nr, field2, bits2[64], nr2, len;
		char back[512];
		size_t n;

		len = rnd() % 16;
		snprintf(in, sizeof(in), "%s", rnd() % 2 ? "config:" : "");
		for (j = strlen(in); j < len + 7; j++)
			in[j] = alphabet[rnd() % (sizeof(alphabet) - 1)];
		in[j] = '\0';
		if (parse_events__pmu_format(in, &field, bits, &nr))
			continue;
		ok++;
		n = snprintf(back, sizeof(back), "config%.0d:", field);
		for (j = 0; j < nr; j++)
			n += snprintf(back + n, sizeof(back) - n, "%s%d", j ? "," : "", bits[j]);
		if (parse_events__pmu_format(back, &field2, bits2, &nr2) || field2 != field ||
		    nr2 != nr || memcmp(bits, bits2, nr * sizeof(int)))
			bad++;
		for (j = 0; j < nr; j++)
			if (bits[j] < 0 || bits[j] > 63)
				bad++;
	}
	tap_ok(!bad && ok > 50, "4000 random format texts: %d parse, each back to itself, %d wrong",
	       ok, bad);
}
#define HW	PERF_TYPE_HARDWARE
#define SW	PERF_TYPE_SOFTWARE
#define HWC	PERF_TYPE_HW_CACHE

/*
 * @str's events' exclude_host << 1 | exclude_guest, precise_ip,
 * exclude_idle, pinned, exclusive: "HG:P:I:D:E" per event, ' ' between
 */
static void check_host_guest(const char *str, const char *want)
{
	struct parse_events_error perr = { 0, "" };
	struct evlist *evlist = evlist__new();
	char got[128] = "";
	size_t len = 0;
	int err, i;

	err = parse_events(evlist, str, &env, &perr);
	for (i = 0; !err && i < evlist->nr && len < sizeof(got) - 16; i++) {
		const struct perf_event_attr *a = &evlist->entries[i]->attr;

		len += snprintf(got + len, sizeof(got) - len, "%s%d:%d:%d:%d:%d", i ? " " : "",
				a->exclude_host << 1 | a->exclude_guest, a->precise_ip,
				a->exclude_idle, a->pinned, a->exclusive);
	}
	tap_ok(!err && !strcmp(got, want), "'%s': host/guest and flags as perf 6.1's: %s (got %s)",
	       str, want, got);
	evlist__delete(evlist);
}

/*
 * What perf 6.1 records for each (perf evlist -v): no modifier counts
 * the host only; u and p exclude the guest, k, h and I do not; G and H
 * name the side; a group's modifier starts from the member's bits.
 */
static void test_host_guest(void)
{
	check_host_guest("cpu-clock", "1:0:0:0:0");
	check_host_guest("cpu-clock:u", "1:0:0:0:0");
	check_host_guest("cpu-clock:k", "0:0:0:0:0");
	check_host_guest("cpu-clock:hk", "0:0:0:0:0");
	check_host_guest("cpu-clock:G", "2:0:0:0:0");
	check_host_guest("cpu-clock:H", "1:0:0:0:0");
	check_host_guest("cpu-clock:uG", "2:0:0:0:0");
	check_host_guest("cpu-clock:Gu", "2:0:0:0:0");
	check_host_guest("cpu-clock:kH", "1:0:0:0:0");
	check_host_guest("cpu-clock:pp", "1:2:0:0:0");
	check_host_guest("cpu-clock:I", "0:0:1:0:0");
	check_host_guest("cpu-clock:D", "0:0:0:1:0");
	check_host_guest("cpu-clock:e", "0:0:0:0:1");
	check_host_guest("{cpu-clock:k,task-clock}", "0:0:0:0:0 1:0:0:0:0");
	check_host_guest("{cpu-clock,task-clock}:k", "1:0:0:0:0 1:0:0:0:0");
	check_host_guest("{cpu-clock:G,task-clock}:u", "2:0:0:0:0 1:0:0:0:0");
	check_host_guest("{cpu-clock:H,task-clock}:p", "1:1:0:0:0 1:1:0:0:0");
	check_err("cpu-clock:pppp", -EINVAL);
	check_err("cpu-clock:x", -EINVAL);
}

int main(void)
{
	int nr;

	tap_start("parse-events");
	if (!tap_ok(!setup(), "a directory of its own"))
		return tap_done();
	check_ok("cycles", 1, W({ "cycles", HW, PERF_COUNT_HW_CPU_CYCLES, 0, 0, 0 }));
	check_ok("cpu-cycles,instructions", 2,
		 W({ "cpu-cycles", HW, 0, 0, 0, 0 }, { "instructions", HW, 1, 0, 0, 1 }));
	check_ok("branches,branch-misses,cache-references,cache-misses,bus-cycles,ref-cycles", 6,
		 W({ "branches", HW, 4, 0, 0, 0 }, { "branch-misses", HW, 5, 0, 0, 1 },
		   { "cache-references", HW, 2, 0, 0, 2 }, { "cache-misses", HW, 3, 0, 0, 3 },
		   { "bus-cycles", HW, 6, 0, 0, 4 }, { "ref-cycles", HW, 9, 0, 0, 5 }));
	check_ok("stalled-cycles-frontend,idle-cycles-backend", 2,
		 W({ "stalled-cycles-frontend", HW, 7, 0, 0, 0 },
		   { "idle-cycles-backend", HW, 8, 0, 0, 1 }));
	check_ok("cpu-clock,task-clock,context-switches,cpu-migrations", 4,
		 W({ "cpu-clock", SW, 0, 0, 0, 0 }, { "task-clock", SW, 1, 0, 0, 1 },
		   { "context-switches", SW, 3, 0, 0, 2 }, { "cpu-migrations", SW, 4, 0, 0, 3 }));
	check_ok("page-faults,minor-faults,major-faults,cgroup-switches", 4,
		 W({ "page-faults", SW, 2, 0, 0, 0 }, { "minor-faults", SW, 5, 0, 0, 1 },
		   { "major-faults", SW, 6, 0, 0, 2 }, { "cgroup-switches", SW, 11, 0, 0, 3 }));
	check_ok("cs,migrations,faults", 3,
		 W({ "cs", SW, 3, 0, 0, 0 }, { "migrations", SW, 4, 0, 0, 1 },
		   { "faults", SW, 2, 0, 0, 2 }));
	check_ok("cycles:u", 1, W({ "cycles:u", HW, 0, 0, 6, 0 }));
	check_ok("cycles:k", 1, W({ "cycles:k", HW, 0, 0, 5, 0 }));
	check_ok("cycles:h", 1, W({ "cycles:h", HW, 0, 0, 3, 0 }));
	check_ok("task-clock:uk", 1, W({ "task-clock:uk", SW, 1, 0, 4, 0 }));
	check_ok("r003c", 1, W({ "r003c", PERF_TYPE_RAW, 0x3c, 0, 0, 0 }));
	check_ok("rABCD:u", 1, W({ "rABCD:u", PERF_TYPE_RAW, 0xabcd, 0, 6, 0 }));
	check_ok("cpu/config=0x1234/", 1, W({ "cpu/config=0x1234/", 4, 0x1234, 0, 0, 0 }));
	check_ok("cpu/event=0x3c,umask=0x2/", 1,
		 W({ "cpu/event=0x3c,umask=0x2/", 4, 0x23c, 0, 0, 0 }));
	check_ok("cpu/event=1,edge,cmask=3/k", 1,
		 W({ "cpu/event=1,edge,cmask=3/k", 4, 0x3040001, 0, 5, 0 }));
	check_ok("cpu/event=1/:u", 1, W({ "cpu/event=1/:u", 4, 1, 0, 6, 0 }));
	check_ok("cpu/split=0xff,config1=0/", 1, W({ "cpu/split=0xff,config1=0/", 4, 0, 0, 0, 0 }));
	check_ok("cpu/split=0xff/", 1, W({ "cpu/split=0xff/", 4, 0, 0xf0f, 0, 0 }));
	check_ok("cpu/cycles-t/", 1, W({ "cpu/cycles-t/", 4, 0x13c, 0, 0, 0 }));
	check_ok("cpu/event=2,name=foo/", 1, W({ "cpu/event=2,name=foo/", 4, 2, 0, 0, 0 }));
	check_ok("sched:sched_switch", 1,
		 W({ "sched:sched_switch", PERF_TYPE_TRACEPOINT, 316, 0, 0, 0 }));
	check_ok("sched:sched_switch:k", 1,
		 W({ "sched:sched_switch:k", PERF_TYPE_TRACEPOINT, 316, 0, 5, 0 }));
	check_ok("{cycles,instructions}", 2,
		 W({ "cycles", HW, 0, 0, 0, 0 }, { "instructions", HW, 1, 0, 0, 0 }));
	check_ok("{cycles,instructions}:u,cs", 3,
		 W({ "cycles", HW, 0, 0, 6, 0 }, { "instructions", HW, 1, 0, 6, 0 },
		   { "cs", SW, 3, 0, 0, 2 }));
	check_ok("cs,{task-clock,cpu/event=1/,r1}:k", 4,
		 W({ "cs", SW, 3, 0, 0, 0 }, { "task-clock", SW, 1, 0, 5, 1 },
		   { "cpu/event=1/", 4, 1, 0, 5, 1 }, { "r1", PERF_TYPE_RAW, 1, 0, 5, 1 }));
	/* hardware cache events: cache | op << 8 | result << 16, as perf 6.1 */
	check_ok("L1-dcache-loads,L1-dcache-load-misses,LLC-loads,LLC-load-misses", 4,
		 W({ "L1-dcache-loads", HWC, 0, 0, 0, 0 },
		   { "L1-dcache-load-misses", HWC, 0x10000, 0, 0, 1 },
		   { "LLC-loads", HWC, 2, 0, 0, 2 }, { "LLC-load-misses", HWC, 0x10002, 0, 0, 3 }));
	check_ok("dTLB-loads,dTLB-load-misses,iTLB-loads,iTLB-load-misses", 4,
		 W({ "dTLB-loads", HWC, 3, 0, 0, 0 },
		   { "dTLB-load-misses", HWC, 0x10003, 0, 0, 1 },
		   { "iTLB-loads", HWC, 4, 0, 0, 2 },
		   { "iTLB-load-misses", HWC, 0x10004, 0, 0, 3 }));
	check_ok("L1-icache-load-misses,branch-loads,node-stores,L1-dcache-prefetches", 4,
		 W({ "L1-icache-load-misses", HWC, 0x10001, 0, 0, 0 },
		   { "branch-loads", HWC, 5, 0, 0, 1 }, { "node-stores", HWC, 0x106, 0, 0, 2 },
		   { "L1-dcache-prefetches", HWC, 0x200, 0, 0, 3 }));
	/* the aliases; no operation means reads, no result accesses */
	check_ok("l1d-loads,L1-data-misses,L2-speculative-read-miss,Data-TLB-write,l1i", 5,
		 W({ "l1d-loads", HWC, 0, 0, 0, 0 }, { "L1-data-misses", HWC, 0x10000, 0, 0, 1 },
		   { "L2-speculative-read-miss", HWC, 0x10202, 0, 0, 2 },
		   { "Data-TLB-write", HWC, 0x103, 0, 0, 3 }, { "l1i", HWC, 1, 0, 0, 4 }));
	check_ok("bpu-Reference,d-tlb-miss", 2,
		 W({ "bpu-Reference", HWC, 5, 0, 0, 0 }, { "d-tlb-miss", HWC, 0x10003, 0, 0, 1 }));
	check_ok("LLC-misses-loads", 1, W({ "LLC-misses-loads", HWC, 0x10002, 0, 0, 0 }));
	check_ok("L1-dcache-loads:u,{LLC-loads,LLC-load-misses}:k", 3,
		 W({ "L1-dcache-loads:u", HWC, 0, 0, 6, 0 }, { "LLC-loads", HWC, 2, 0, 5, 1 },
		   { "LLC-load-misses", HWC, 0x10002, 0, 5, 1 }));
	/* the hardware events' names stay theirs */
	check_ok("branches,branch-misses", 2,
		 W({ "branches", HW, 4, 0, 0, 0 }, { "branch-misses", HW, 5, 0, 0, 1 }));

	check_err(NULL, -EINVAL);
	check_err("", -EINVAL);
	check_err(",", -EINVAL);
	check_err("cycles,", -EINVAL);
	check_err(",cycles", -EINVAL);
	check_err("cycles,,instructions", -EINVAL);
	check_err("nosuchevent", -EINVAL);
	check_err("cycles:x", -EINVAL);
	check_err("cycles:", -EINVAL);
	check_err("cycles:uu:k", -EINVAL);
	check_err("r", -EINVAL);
	check_err("rXYZ", -EINVAL);
	check_err("r12345678901234567", -EINVAL);
	check_err("{cycles", -EINVAL);
	check_err("{cycles,{cs}}", -EINVAL);
	check_err("{}", -EINVAL);
	check_err("{cycles}:z", -EINVAL);
	check_err("cycles}", -EINVAL);
	check_err("nopmu/event=1/", -ENOENT);
	check_err("cpu/event=1", -EINVAL);
	check_err("cpu/nosuchterm=1/", -EINVAL);
	check_err("cpu/event=0x100/", -ERANGE);
	check_err("cpu/event=abc/", -EINVAL);
	check_err("cpu/event=-1/", -EINVAL);
	check_err("cpu/config/", -EINVAL);
	check_err("cpu/=1/", -EINVAL);
	check_err("cpu/event=1/x", -EINVAL);
	check_err("sched:nosuch", -ENOENT);
	check_err("nosys:sched_switch", -ENOENT);
	check_err("cycles instructions", -EINVAL);
	check_err("cycles;instructions", -EINVAL);
	check_err("\xff\xfe", -EINVAL);
	check_err("../../etc:passwd", -EINVAL);
	check_err("sched:..", -EINVAL);
	check_err(".:sched_switch", -EINVAL);
	/* operations a cache does not count, malformed cache names */
	check_err("L1-icache-stores", -EINVAL);
	check_err("iTLB-prefetches", -EINVAL);
	check_err("branch-store-misses", -EINVAL);
	check_err("LLC-loads-misses-refs", -EINVAL);
	check_err("LLC-bogus", -EINVAL);
	check_err("LLC-", -EINVAL);
	check_err("L1-dcache-load-misses:x", -EINVAL);
	check_err("node:nosuch", -EINVAL);

	test_garbage_files();
	test_formats();
	fuzz_events();
	fuzz_formats();

	nr = 0;
	if (parse_events__symbols(&nr))
		tap_ok(nr >= 20, "the symbol table has %d names", nr);
	/* every cache event perfx lists parses back to a distinct config */
	{
		struct evlist *evlist = evlist__new();
		char name[64];
		int i, j, good = 1;

		for (nr = 0; !parse_events__cache_event(nr, name, sizeof(name)); nr++)
			good &= !parse_events(evlist, name, &env, NULL);
		for (i = 0; good && i < evlist->nr; i++)
			for (j = 0; j < i; j++)
				good &= evlist->entries[i]->attr.config !=
					evlist->entries[j]->attr.config;
		tap_ok(good && nr == 32 && evlist->nr == nr,
		       "the %d listed cache events parse to distinct configs", nr);
		evlist__delete(evlist);
	}
	if (tap_rmdir(root))
		printf("# cannot remove %s\n", root);
	test_host_guest();
	return tap_done();
}
