// SPDX-License-Identifier: GPL-2.0
/*
 * The loaded BPF programs as perf record 6.1 has them, on a fake kernel's
 * bpf_prog_info replies: perf_bpil's layout (each array padded to 8 in
 * perf's order, the arrays a short reply lacks left out, offsets for
 * addresses) and the BPF_PROG_INFO and BPF_BTF bodies byte for byte;
 * a count that changes between the two replies refused; the KSYMBOL
 * names by BTF, by info name, "F", none and cut; which kallsyms names
 * are trampolines and dispatchers, and their KSYMBOL records' bytes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <bpf/btf.h>

#include "lib/data.h"
#include "lib/event.h"
#include "lib/feature.h"
#include "lib/header.h"
#include "lib/synthesize-bpf-progs.h"
#include "lib/util.h"
#include "tests/tap.h"

/* what the fake kernel holds of one program, and how it answers */
struct fake_prog {
	__u32			info_len;	/* the kernel's struct size */
	struct bpf_prog_info	info;		/* scalars and the real counts */
	__u8			insns[20];
	__u64			ksyms[2];
	__u32			lens[2];
	struct bpf_func_info	finfo[2];
	struct bpf_line_info	linfo[2];
	__u64			jlinfo[2];
	__u8			tags[2][BPF_TAG_SIZE];
	int			calls;
	int			grow;		/* one more function in the 2nd reply */
};

static struct fake_prog fake;

/* up to @nr elements of @size bytes from @src into the user's array at @ptr */
static void fake_copy(__u64 ptr, __u32 asked, __u32 nr, const void *src, size_t size)
{
	if (ptr && asked)
		memcpy((void *)(uintptr_t)ptr, src, (asked < nr ? asked : nr) * size);
}

/* the kernel's bpf_prog_get_info_by_fd(), for what perf asks */
static int fake_get_info(int fd, void *uinfo, __u32 *len)
{
	struct bpf_prog_info in, out;
	__u32 n = *len < fake.info_len ? *len : fake.info_len;

	(void)fd;
	memset(&in, 0, sizeof(in));
	memcpy(&in, uinfo, n);
	out = fake.info;
	out.jited_prog_insns = in.jited_prog_insns;
	out.jited_ksyms = in.jited_ksyms;
	out.jited_func_lens = in.jited_func_lens;
	out.func_info = in.func_info;
	out.line_info = in.line_info;
	out.jited_line_info = in.jited_line_info;
	out.prog_tags = in.prog_tags;
	fake_copy(in.jited_prog_insns, in.jited_prog_len, out.jited_prog_len, fake.insns, 1);
	fake_copy(in.jited_ksyms, in.nr_jited_ksyms, out.nr_jited_ksyms, fake.ksyms, 8);
	fake_copy(in.jited_func_lens, in.nr_jited_func_lens, out.nr_jited_func_lens, fake.lens, 4);
	fake_copy(in.func_info, in.nr_func_info, out.nr_func_info, fake.finfo, 8);
	fake_copy(in.line_info, in.nr_line_info, out.nr_line_info, fake.linfo, 16);
	fake_copy(in.jited_line_info, in.nr_jited_line_info, out.nr_jited_line_info,
		  fake.jlinfo, 8);
	fake_copy(in.prog_tags, in.nr_prog_tags, out.nr_prog_tags, fake.tags, BPF_TAG_SIZE);
	if (fake.calls++ && fake.grow)
		out.nr_jited_ksyms++;
	memcpy(uinfo, &out, n);
	*len = n;
	return 0;
}

/*
 * perf 6.1.192's BPF_PROG_INFO entry of tests/bpf-loaded's perfx_plain
 * (program 100: one function, no BTF) on Linux 6.18: info_len, data_len,
 * arrays, the info, the data (16 bytes of code, a ksym, a length padded
 * to 8, a tag)
 */
static const char perf_plain[] =
	"e800000028000000f901000000000000010000006400000059f4a931744dcdc6"
	"100000001000000000000000000000000000000000000000b3c31643a1020000"
	"0000000000000000000000000000000070657266785f706c61696e0000000000"
	"0000000001000000000000000000000000000000000000000100000001000000"
	"1000000000000000180000000000000000000000080000002000000000000000"
	"0000000000000000200000000000000020000000000000000000000010000000"
	"0800000001000000200000000000000000000000000000000000000000000000"
	"0000000000000000020000000000000000000000000000000f1f4400000f1f00"
	"554889e531c0c9c3286c02c0ffffffff100000000000000059f4a931744dcdc6";

#define PLAIN_LEN	(16 + BPIL_INFO_LEN + 40)

static void unhex(__u8 *p, const char *hex, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		sscanf(hex + 2 * i, "%2hhx", &p[i]);
}

#define INFO_OFF(f)	offsetof(struct bpf_prog_info, f)

/* the fake kernel holds perf's program 100: its info, its arrays at their offsets */
static void fake_plain(void)
{
	__u8 e[PLAIN_LEN], *data = e + 16 + BPIL_INFO_LEN;

	unhex(e, perf_plain, sizeof(e));
	memset(&fake, 0, sizeof(fake));
	fake.info_len = BPIL_INFO_LEN;
	memcpy(&fake.info, e + 16, BPIL_INFO_LEN);
	/* the kernel has no offsets: it answers at the addresses asked */
	fake.info.jited_prog_insns = fake.info.jited_ksyms = fake.info.jited_func_lens = 0;
	fake.info.func_info = fake.info.line_info = fake.info.jited_line_info = 0;
	fake.info.prog_tags = 0;
	memcpy(fake.insns, data, 16);
	memcpy(fake.ksyms, data + 16, 8);
	memcpy(fake.lens, data + 24, 4);
	memcpy(fake.tags[0], data + 32, 8);
}

/* two functions with BTF func and line info, as bpf-loaded's perfx_btf */
static void fake_two_funcs(__u32 btf_id)
{
	static const __u8 tags[2][BPF_TAG_SIZE] = {
		{ 0xc3, 0xd6, 0x97, 0xc9, 0x8f, 0x3b, 0x60, 0xee },
		{ 0xb1, 0x14, 0x59, 0xa0, 0xe1, 0x1c, 0xa1, 0x4c },
	};

	fake_plain();
	fake.info.id = 99;
	strcpy(fake.info.name, "perfx_btf");
	fake.info.jited_prog_len = 20;
	fake.info.nr_jited_ksyms = fake.info.nr_jited_func_lens = fake.info.nr_prog_tags = 2;
	fake.info.btf_id = btf_id;
	fake.info.nr_func_info = fake.info.nr_line_info = fake.info.nr_jited_line_info = 2;
	fake.ksyms[0] = 0xffffffffc0023218ULL;
	fake.ksyms[1] = 0xffffffffc0023254ULL;
	fake.lens[0] = 21;
	fake.lens[1] = 19;
	fake.finfo[0] = (struct bpf_func_info){ 0, 3 };
	fake.finfo[1] = (struct bpf_func_info){ 3, 4 };
	memcpy(fake.tags, tags, sizeof(tags));
}

static __u64 u64_at(const void *p, size_t off)
{
	__u64 v;

	memcpy(&v, (const char *)p + off, sizeof(v));
	return v;
}

/* perf_bpil of the plain program, its offsets, its data and its name */
static void test_layout(void)
{
	__u8 data[40] = { 0 }, want[4 + PLAIN_LEN] = { 1 };
	struct perfx_header h = { 0 };
	struct bpf_progs p = { 0 };
	char name[BPF_KSYM_NAME_LEN];
	struct bpf_prog_linear l;
	size_t len;
	int err;

	fake_plain();
	err = bpf_prog_linear__read(&l, -1, BPIL_RECORD_ARRAYS, fake_get_info);
	if (!tap_ok(!err && fake.calls == 2, "layout: read in two replies (err %d, %d calls)",
		    err, fake.calls))
		return;
	len = bpf_prog_linear__ksym_name(&l, NULL, 0, name, sizeof(name));
	tap_str_eq(name, "bpf_prog_59f4a931744dcdc6_perfx_plain",
		   "name: one function, no BTF: the info name");
	tap_ok(len == strlen(name), "name: its length returned (%zu)", len);
	bpf_prog_linear__to_offsets(&l);
	/* as perf 6.1.192 wrote it: 16 insns, 8 ksyms, 4 lens padded to 8, 8 tags */
	tap_ok(l.arrays == 0x1f9 && l.data_len == 40,
	       "layout: arrays 0x1f9, data_len 40 (%#llx, %u)", (unsigned long long)l.arrays,
	       l.data_len);
	tap_ok(l.info.jited_prog_insns == 0 && l.info.jited_ksyms == 16 &&
	       l.info.jited_func_lens == 24 && l.info.func_info == 32 && l.info.line_info == 32 &&
	       l.info.jited_line_info == 32 && l.info.prog_tags == 32,
	       "layout: offsets 0 16 24 32 32 32 32 (%llu %llu %llu %llu %llu %llu %llu)",
	       (unsigned long long)l.info.jited_prog_insns,
	       (unsigned long long)l.info.jited_ksyms, (unsigned long long)l.info.jited_func_lens,
	       (unsigned long long)l.info.func_info, (unsigned long long)l.info.line_info,
	       (unsigned long long)l.info.jited_line_info, (unsigned long long)l.info.prog_tags);
	memcpy(data, fake.insns, 16);
	memcpy(data + 16, fake.ksyms, 8);
	memcpy(data + 24, fake.lens, 4);
	memcpy(data + 32, fake.tags[0], 8);
	tap_ok(!memcmp(l.data, data, sizeof(data)), "layout: the arrays' bytes, zero padded");
	p.progs = &l;
	p.nr_progs = 1;
	unhex(want + 4, perf_plain, PLAIN_LEN);
	err = feature__add_bpf_progs(&h, &p);
	tap_ok(!err && h.feat_size[HEADER_BPF_PROG_INFO] == sizeof(want) &&
	       !memcmp(h.feat[HEADER_BPF_PROG_INFO], want, sizeof(want)),
	       "BPF_PROG_INFO of perf's program 100: perf's %zu bytes (%zu)", sizeof(want),
	       h.feat_size[HEADER_BPF_PROG_INFO]);
	perfx_header__exit(&h);
	bpf_prog_linear__exit(&l);
}

/* an older kernel's shorter reply: the arrays it cannot describe are left out */
static void test_short_reply(void)
{
	struct bpf_prog_linear l;
	int err;

	fake_plain();
	fake.info_len = INFO_OFF(nr_jited_line_info);
	err = bpf_prog_linear__read(&l, -1, BPIL_RECORD_ARRAYS, fake_get_info);
	tap_ok(!err && l.arrays == (1 << BPIL_JITED_INSNS | 1 << BPIL_JITED_KSYMS |
				    1 << BPIL_JITED_FUNC_LENS | 1 << BPIL_FUNC_INFO) &&
	       l.data_len == 32,
	       "short reply: LINE_INFO, JITED_LINE_INFO and PROG_TAGS left out (err %d, %#llx, %u)",
	       err, (unsigned long long)l.arrays, l.data_len);
	bpf_prog_linear__exit(&l);
	fake_plain();
	fake.grow = 1;
	err = bpf_prog_linear__read(&l, -1, BPIL_RECORD_ARRAYS, fake_get_info);
	tap_ok(err == -ERANGE && !l.data, "a count that changes between replies: -ERANGE (%d)",
	       err);
	fake_plain();
	err = bpf_prog_linear__read(&l, -1, 1ULL << BPIL_NR_ARRAYS, fake_get_info);
	tap_ok(err == -EINVAL && !fake.calls, "an array perf does not know: -EINVAL (%d)", err);
}

/* the BTF of bpf-loaded's perfx_btf: int, a proto, perfx_main and perfx_sub */
static struct btf *two_funcs_btf(void)
{
	struct btf *btf = btf__new_empty();
	int proto;

	if (!btf)
		return NULL;
	proto = btf__add_func_proto(btf, btf__add_int(btf, "int", 4, BTF_INT_SIGNED));
	if (btf__add_func(btf, "perfx_main", BTF_FUNC_STATIC, proto) != 3 ||
	    btf__add_func(btf, "perfx_sub", BTF_FUNC_STATIC, proto) != 4) {
		btf__free(btf);
		return NULL;
	}
	return btf;
}

static void test_names(void)
{
	struct btf *btf = two_funcs_btf();
	struct bpf_prog_linear l;
	char name[BPF_KSYM_NAME_LEN];
	size_t len;

	fake_two_funcs(14);
	if (!btf || bpf_prog_linear__read(&l, -1, BPIL_RECORD_ARRAYS, fake_get_info)) {
		tap_ok(0, "names: a fake program with BTF");
		btf__free(btf);
		return;
	}
	bpf_prog_linear__ksym_name(&l, btf, 0, name, sizeof(name));
	tap_str_eq(name, "bpf_prog_c3d697c98f3b60ee_perfx_main", "name: BTF func of function 0");
	bpf_prog_linear__ksym_name(&l, btf, 1, name, sizeof(name));
	tap_str_eq(name, "bpf_prog_b11459a0e11ca14c_perfx_sub",
		   "name: BTF func of function 1, its own tag");
	bpf_prog_linear__ksym_name(&l, NULL, 1, name, sizeof(name));
	tap_str_eq(name, "bpf_prog_b11459a0e11ca14c_F", "name: two functions, no BTF: F");
	bpf_prog_linear__ksym_name(&l, NULL, 0, name, sizeof(name));
	tap_str_eq(name, "bpf_prog_c3d697c98f3b60ee_F", "name: not the info name of function 0");
	len = bpf_prog_linear__ksym_name(&l, btf, 0, name, 12);
	tap_ok(len == 11 && !strcmp(name, "bpf_prog_c3"), "name: cut to the buffer (%zu '%s')",
	       len, name);
	bpf_prog_linear__exit(&l);
	btf__free(btf);
	fake_plain();
	fake.info.name[0] = '\0';
	if (!bpf_prog_linear__read(&l, -1, BPIL_RECORD_ARRAYS, fake_get_info)) {
		bpf_prog_linear__ksym_name(&l, NULL, 0, name, sizeof(name));
		tap_str_eq(name, "bpf_prog_59f4a931744dcdc6", "name: one function without a name");
		bpf_prog_linear__exit(&l);
	}
}

/* what feature__add_bpf_progs() makes of @p: BPF_PROG_INFO's and BPF_BTF's bodies */
static void test_features(void)
{
	static const char btf_bytes[] = "fake btf";
	struct bpf_btf_data btfs[2] = {
		{ 7, 3, (void *)btf_bytes }, { 14, sizeof(btf_bytes), (void *)btf_bytes },
	};
	struct bpf_prog_linear plain, two, l[2];
	struct bpf_progs p = { .progs = l, .nr_progs = 2, .btfs = btfs, .nr_btfs = 2 };
	struct perfx_header h = { 0 };
	__u8 want[4 + 2 * (16 + BPIL_INFO_LEN) + 40 + 128], *w = want;
	int err, i;

	fake_plain();
	err = bpf_prog_linear__read(&plain, -1, BPIL_RECORD_ARRAYS, fake_get_info);
	fake_two_funcs(14);
	err = err ? err : bpf_prog_linear__read(&two, -1, BPIL_RECORD_ARRAYS, fake_get_info);
	if (!tap_ok(!err, "features: two fake programs read (%d)", err))
		return;
	/* perf's ascending ids: 99, then 100 */
	l[0] = two;
	l[1] = plain;
	for (i = 0; i < 2; i++)
		bpf_prog_linear__to_offsets(&l[i]);
	err = feature__add_bpf_progs(&h, &p);
	memcpy(w, &(__u32){ 2 }, 4);
	w += 4;
	for (i = 0; i < 2; i++) {
		memcpy(w, &(__u32){ BPIL_INFO_LEN }, 4);
		memcpy(w + 4, &l[i].data_len, 4);
		memcpy(w + 8, &(__u64){ 0x1f9 }, 8);
		memcpy(w + 16, &l[i].info, BPIL_INFO_LEN);
		memcpy(w + 16 + BPIL_INFO_LEN, l[i].data, l[i].data_len);
		w += 16 + BPIL_INFO_LEN + l[i].data_len;
	}
	/* 20 insns padded to 24, 2 ksyms, 2 lens, 2 func and line infos, 2 tags */
	tap_ok(l[0].data_len == 24 + 16 + 8 + 16 + 32 + 16 + 16 &&
	       u64_at(&l[0].info, INFO_OFF(prog_tags)) == 112,
	       "features: two functions' arrays, each padded (%u bytes, tags at %llu)",
	       l[0].data_len, (unsigned long long)u64_at(&l[0].info, INFO_OFF(prog_tags)));
	tap_ok(!err && h.feat_size[HEADER_BPF_PROG_INFO] == (size_t)(w - want) &&
	       !memcmp(h.feat[HEADER_BPF_PROG_INFO], want, w - want),
	       "BPF_PROG_INFO: count, then info_len 232, data_len, arrays, info, data (%zu bytes)",
	       h.feat_size[HEADER_BPF_PROG_INFO]);
	w = want;
	memcpy(w, &(__u32){ 2 }, 4);
	memcpy(w + 4, &(__u32){ 7 }, 4);
	memcpy(w + 8, &(__u32){ 3 }, 4);
	memcpy(w + 12, "fak", 3);
	memcpy(w + 15, &(__u32){ 14 }, 4);
	memcpy(w + 19, &(__u32){ sizeof(btf_bytes) }, 4);
	memcpy(w + 23, btf_bytes, sizeof(btf_bytes));
	w += 23 + sizeof(btf_bytes);
	tap_ok(!err && h.feat_size[HEADER_BPF_BTF] == (size_t)(w - want) &&
	       !memcmp(h.feat[HEADER_BPF_BTF], want, w - want),
	       "BPF_BTF: count, then each id, size and bytes, unpadded (%zu bytes)",
	       h.feat_size[HEADER_BPF_BTF]);
	err = feature__add_bpf_progs(&h, NULL);
	tap_ok(!err && h.feat_size[HEADER_BPF_PROG_INFO] == 4 && h.feat_size[HEADER_BPF_BTF] == 4 &&
	       !memcmp(h.feat[HEADER_BPF_PROG_INFO], "\0\0\0\0", 4),
	       "BPF_PROG_INFO and BPF_BTF of none: a u32 0 each");
	for (i = 0; i < 2; i++)
		bpf_prog_linear__exit(&l[i]);
	perfx_header__exit(&h);
}

static void test_is_image(void)
{
	static const struct {
		const char	*name;
		int		want;
	} cases[] = {
		{ "bpf_trampoline_6442450944\t[bpf]", 1 },
		{ "bpf_trampoline_-1\t[bpf]", 1 },	/* sscanf's %lu takes it */
		{ "bpf_dispatcher_xdp\t[bpf]", 1 },
		{ "bpf_trampoline_x\t[bpf]", 0 },
		{ "bpf_trampoline_\t[bpf]", 0 },
		{ "bpf_dispatcher_\t[bpf]", 0 },
		{ "bpf_prog_59f4a931744dcdc6_perfx_plain\t[bpf]", 0 },
		{ "bpf_trampoline_1\t[bpf] ", 0 },
		{ "bpf_trampoline_1\t[kvm]", 0 },
		{ "bpf_trampoline_1", 0 },
	};
	size_t i, bad = 0;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (bpf_progs__is_image(cases[i].name, strlen(cases[i].name)) == cases[i].want)
			continue;
		printf("#   '%s': want %d\n", cases[i].name, cases[i].want);
		bad++;
	}
	tap_ok(!bad, "images: trampolines and dispatchers of [bpf] as perf's sscanf() (%zu wrong)",
	       bad);
}

/* a KSYMBOL as perf's process_bpf_image() writes it, with a 16-byte trailer */
static size_t image_record(__u8 *p, __u64 addr, const char *name)
{
	struct perf_record_ksymbol k = {
		.header = { PERF_RECORD_KSYMBOL, 0, 0 },
		.addr = addr, .len = sysconf(_SC_PAGESIZE),
		.ksym_type = PERF_RECORD_KSYMBOL_TYPE_BPF,
	};
	size_t room = (strlen(name) + 1 + 7) & ~7UL;

	k.header.size = sizeof(k) + room + 16;
	memset(p, 0, k.header.size);
	memcpy(p, &k, sizeof(k));
	memcpy(p + sizeof(k), name, strlen(name));
	return k.header.size;
}

static void test_images(void)
{
	char root[] = "/tmp/perfx-bpf-XXXXXX", path[64];
	struct bpf_progs p = { 0 };
	struct perfx_writer w;
	__u8 want[256], got[256];
	size_t len;
	int fd = memfd_create("images", 0), nr;
	FILE *f;

	if (!mkdtemp(root) || fd < 0 || perfx_writer__init(&w, fd, "images"))
		abort();
	snprintf(path, sizeof(path), "%s/proc", root);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root);
	f = fopen(path, "w");
	fputs("ffffffff81000000 T _text\n"
	      "ffffffffc0023218 t bpf_prog_c3d697c98f3b60ee_perfx_main\t[bpf]\n"
	      "ffffffffc0a01000 t bpf_trampoline_6442491234\t[bpf]\n"
	      "ffffffffc0a02000 t bpf_trampoline_x\t[bpf]\n"
	      "ffffffffc0a03000 t bpf_dispatcher_xdp\t[bpf]\n", f);
	fclose(f);
	nr = bpf_progs__synthesize_images(&p, &w, 16, root);
	perfx_writer__flush(&w);
	len = image_record(want, 0xffffffffc0a01000ULL, "bpf_trampoline_6442491234");
	len += image_record(want + len, 0xffffffffc0a03000ULL, "bpf_dispatcher_xdp");
	tap_ok(nr == 2 && p.nr_images == 2 && w.pos == len && pread(fd, got, len, 0) == (ssize_t)len &&
	       !memcmp(got, want, len),
	       "images: a KSYMBOL of a page per trampoline and dispatcher, name padded, zero trailer (%d, %llu bytes)",
	       nr, (unsigned long long)w.pos);
	nr = bpf_progs__synthesize_images(&p, &w, 16, "/nonexistent");
	tap_ok(nr == 0 && p.images_err == -ENOENT, "images: no kallsyms, none, said in images_err");
	unlink(path);
	snprintf(path, sizeof(path), "%s/proc", root);
	rmdir(path);
	rmdir(root);
	perfx_writer__exit(&w);
	close(fd);
}

int main(void)
{
	tap_start("bpf-progs");
	test_layout();
	test_short_reply();
	test_names();
	test_features();
	test_is_image();
	test_images();
	return tap_done();
}
