// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF programs loaded when a recording starts, as perf record 6.1
 * synthesizes them (util/bpf-event.c, util/bpf-utils.c) and lists them in
 * its BPF_PROG_INFO and BPF_BTF features (util/header.c).
 *
 * Through libbpf, as perf: its thin wrappers of the bpf(2) commands, and
 * its BTF loader, whose checks of the kernel's BTF decide, as in perf,
 * which programs have function names; perfx parses no reply of the
 * kernel's but the fixed struct bpf_prog_info.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "data.h"
#include "event.h"
#include "procfs.h"
#include "synthesize-bpf-progs.h"

_Static_assert(offsetof(struct bpf_prog_info, attach_btf_id) + 8 == BPIL_INFO_LEN,
	       "perf 6.1's struct bpf_prog_info ends after attach_btf_id and a pad");
_Static_assert(sizeof(struct bpf_prog_info) >= BPIL_INFO_LEN,
	       "the kernel fills BPIL_INFO_LEN bytes of bpf_prog_linear.info");

/* what perfx reads of /proc/kallsyms at a time */
#define KALLSYMS_BUF	(64 * 1024)
#define ALIGN8(x)	(((x) + 7) & ~(__u64)7)

/*
 * perf's bpil_array_desc: where each array's address and element count
 * are in struct bpf_prog_info, and its element size: a fixed one, or the
 * offset of the field that says it
 */
struct bpil_desc {
	__u32	array;
	__u32	count;
	__u32	size;		/* when @size_field is 0 */
	__u32	size_field;
};

#define DESC_FIXED(a, c, s)	{ offsetof(struct bpf_prog_info, a),		\
				  offsetof(struct bpf_prog_info, c), s, 0 }
#define DESC_FIELD(a, c, f)	{ offsetof(struct bpf_prog_info, a),		\
				  offsetof(struct bpf_prog_info, c), 0,		\
				  offsetof(struct bpf_prog_info, f) }

static const struct bpil_desc bpil_desc[BPIL_NR_ARRAYS] = {
	[BPIL_JITED_INSNS]	= DESC_FIXED(jited_prog_insns, jited_prog_len, 1),
	[BPIL_XLATED_INSNS]	= DESC_FIXED(xlated_prog_insns, xlated_prog_len, 1),
	[BPIL_MAP_IDS]		= DESC_FIXED(map_ids, nr_map_ids, sizeof(__u32)),
	[BPIL_JITED_KSYMS]	= DESC_FIXED(jited_ksyms, nr_jited_ksyms, sizeof(__u64)),
	[BPIL_JITED_FUNC_LENS]	= DESC_FIXED(jited_func_lens, nr_jited_func_lens, sizeof(__u32)),
	[BPIL_FUNC_INFO]	= DESC_FIELD(func_info, nr_func_info, func_info_rec_size),
	[BPIL_LINE_INFO]	= DESC_FIELD(line_info, nr_line_info, line_info_rec_size),
	[BPIL_JITED_LINE_INFO]	= DESC_FIELD(jited_line_info, nr_jited_line_info,
					     jited_line_info_rec_size),
	[BPIL_PROG_TAGS]	= DESC_FIXED(prog_tags, nr_prog_tags, BPF_TAG_SIZE),
};

static __u32 info_u32(const struct bpf_prog_info *info, __u32 off)
{
	__u32 v;

	memcpy(&v, (const char *)info + off, sizeof(v));
	return v;
}

static void info_set_u32(struct bpf_prog_info *info, __u32 off, __u32 v)
{
	memcpy((char *)info + off, &v, sizeof(v));
}

static __u64 info_u64(const struct bpf_prog_info *info, __u32 off)
{
	__u64 v;

	memcpy(&v, (const char *)info + off, sizeof(v));
	return v;
}

static void info_set_u64(struct bpf_prog_info *info, __u32 off, __u64 v)
{
	memcpy((char *)info + off, &v, sizeof(v));
}

static __u32 desc_count(const struct bpil_desc *d, const struct bpf_prog_info *info)
{
	return info_u32(info, d->count);
}

static __u32 desc_size(const struct bpil_desc *d, const struct bpf_prog_info *info)
{
	return d->size_field ? info_u32(info, d->size_field) : d->size;
}

/* an array's bytes, padded to 8 as perf lays them out */
static __u64 desc_bytes(const struct bpil_desc *d, const struct bpf_prog_info *info)
{
	return ALIGN8((__u64)desc_count(d, info) * desc_size(d, info));
}

/* what a kernel whose reply is @info_len bytes long has of @d */
static bool desc_known(const struct bpil_desc *d, __u32 info_len)
{
	return info_len >= d->array + sizeof(__u32) && info_len >= d->count + sizeof(__u32) &&
	       (!d->size_field || info_len >= d->size_field);
}

static int get_info(int fd, void *info, __u32 *info_len)
{
	return bpf_obj_get_info_by_fd(fd, info, info_len) ? -errno : 0;
}

/* the arrays of @arrays @info_len has, and the bytes they take */
static __u64 bpil__layout(const struct bpf_prog_info *info, __u32 info_len, __u64 *arrays)
{
	__u64 len = 0;
	int i;

	for (i = 0; i < BPIL_NR_ARRAYS; i++) {
		if (!(*arrays & 1ULL << i) || !desc_known(&bpil_desc[i], info_len)) {
			*arrays &= ~(1ULL << i);
			continue;
		}
		len += desc_bytes(&bpil_desc[i], info);
	}
	return len;
}

/* each array's count, size and place in @data, from @first's counts and sizes */
static void bpil__ask(struct bpf_prog_linear *l, const struct bpf_prog_info *first)
{
	__u8 *p = l->data;
	int i;

	for (i = 0; i < BPIL_NR_ARRAYS; i++) {
		const struct bpil_desc *d = &bpil_desc[i];

		if (!(l->arrays & 1ULL << i))
			continue;
		info_set_u32(&l->info, d->count, desc_count(d, first));
		if (d->size_field)
			info_set_u32(&l->info, d->size_field, desc_size(d, first));
		info_set_u64(&l->info, d->array, (uintptr_t)p);
		p += desc_bytes(d, first);
	}
}

/* perf's step 6: the same counts and sizes, the arrays where they were asked */
static int bpil__check(const struct bpf_prog_linear *l, const struct bpf_prog_info *first)
{
	const __u8 *p = l->data;
	int i;

	for (i = 0; i < BPIL_NR_ARRAYS; i++) {
		const struct bpil_desc *d = &bpil_desc[i];

		if (!(l->arrays & 1ULL << i))
			continue;
		if (desc_count(d, &l->info) != desc_count(d, first) ||
		    desc_size(d, &l->info) != desc_size(d, first) ||
		    info_u64(&l->info, d->array) != (uintptr_t)p)
			return -ERANGE;
		p += desc_bytes(d, first);
	}
	return 0;
}

int bpf_prog_linear__read(struct bpf_prog_linear *l, int fd, __u64 arrays,
			  bpf_get_info_fn get)
{
	struct bpf_prog_info first;
	__u32 info_len = BPIL_INFO_LEN;
	__u64 data_len;
	int err;

	memset(l, 0, sizeof(*l));
	memset(&first, 0, sizeof(first));
	get = get ? get : get_info;
	if (arrays >> BPIL_NR_ARRAYS)
		return -EINVAL;
	err = get(fd, &first, &info_len);
	if (err)
		return err;
	l->arrays = arrays;
	data_len = bpil__layout(&first, info_len, &l->arrays);
	if (data_len > UINT32_MAX)
		return -E2BIG;
	/* zeroed: the arrays' padding (perf's holds what its heap held) */
	l->data = calloc(1, data_len ? data_len : 1);
	if (!l->data)
		return -ENOMEM;
	l->data_len = data_len;
	bpil__ask(l, &first);
	info_len = BPIL_INFO_LEN;
	err = get(fd, &l->info, &info_len);
	if (!err)
		err = bpil__check(l, &first);
	if (err)
		bpf_prog_linear__exit(l);
	return err;
}

void bpf_prog_linear__to_offsets(struct bpf_prog_linear *l)
{
	int i;

	for (i = 0; i < BPIL_NR_ARRAYS; i++)
		if (l->arrays & 1ULL << i)
			info_set_u64(&l->info, bpil_desc[i].array,
				     info_u64(&l->info, bpil_desc[i].array) - (uintptr_t)l->data);
}

void bpf_prog_linear__exit(struct bpf_prog_linear *l)
{
	free(l->data);
	l->data = NULL;
}

/* the address form's array @i */
static const void *bpil__array(const struct bpf_prog_linear *l, int i)
{
	return (const void *)(uintptr_t)info_u64(&l->info, bpil_desc[i].array);
}

size_t bpf_prog_linear__ksym_name(const struct bpf_prog_linear *l, const struct btf *btf,
				  __u32 sub_id, char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	const __u8 *tag = (const __u8 *)bpil__array(l, BPIL_PROG_TAGS) + sub_id * BPF_TAG_SIZE;
	char prefix[sizeof("bpf_prog_") + 2 * BPF_TAG_SIZE];
	const char *short_name = NULL;
	size_t short_len = 0;
	int i, n;

	memcpy(prefix, "bpf_prog_", 9);
	for (i = 0; i < BPF_TAG_SIZE; i++) {
		prefix[9 + 2 * i] = hex[tag[i] >> 4];
		prefix[10 + 2 * i] = hex[tag[i] & 15];
	}
	prefix[sizeof(prefix) - 1] = '\0';
	if (btf) {
		const char *finfo = (const char *)bpil__array(l, BPIL_FUNC_INFO) +
				    (size_t)sub_id * l->info.func_info_rec_size;
		const struct btf_type *t;
		struct bpf_func_info fi;

		memcpy(&fi, finfo, sizeof(fi));
		t = btf__type_by_id(btf, fi.type_id);
		/* perf takes the type as it is: a bad id is its crash, an empty name here */
		short_name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
		short_name = short_name ? short_name : "";
		short_len = strlen(short_name);
	} else if (sub_id == 0 && l->info.nr_jited_ksyms == 1) {
		short_len = strnlen(l->info.name, sizeof(l->info.name));
		short_name = short_len ? l->info.name : NULL;
	} else {
		short_name = "F";
		short_len = 1;
	}
	if (short_name)
		n = snprintf(buf, size, "%s_%.*s", prefix, (int)short_len, short_name);
	else
		n = snprintf(buf, size, "%s", prefix);
	return (size_t)n < size ? (size_t)n : size - 1;
}

/* the largest sample_id trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER */
#define TRAILER_MAX	48

/* a record being built: the largest KSYMBOL and trailer */
union bpf_record {
	struct perf_event_header	header;
	struct perf_record_ksymbol	ksym;
	struct perf_record_bpf_event	bpf;
	char				bytes[sizeof(struct perf_record_ksymbol) +
					      BPF_KSYM_NAME_LEN + TRAILER_MAX];
};

/* a KSYMBOL of type BPF for @name (@len bytes) at @addr, with its trailer */
static int write_ksymbol(struct perfx_writer *w, __u16 id_hdr_size, __u64 addr, __u32 size,
			 const char *name, size_t len)
{
	union bpf_record r;
	size_t name_room = ALIGN8(len + 1);

	memset(&r, 0, sizeof(r));
	r.ksym.header.type = PERF_RECORD_KSYMBOL;
	r.ksym.header.size = sizeof(r.ksym) + name_room + id_hdr_size;
	r.ksym.addr = addr;
	r.ksym.len = size;
	r.ksym.ksym_type = PERF_RECORD_KSYMBOL_TYPE_BPF;
	memcpy(r.ksym.name, name, len);
	return perfx_writer__write(w, &r, r.header.size);
}

static int write_bpf_event(struct perfx_writer *w, __u16 id_hdr_size,
			   const struct bpf_prog_info *info)
{
	union bpf_record r;

	memset(&r, 0, sizeof(r));
	r.bpf.header.type = PERF_RECORD_BPF_EVENT;
	r.bpf.header.size = sizeof(r.bpf) + id_hdr_size;
	r.bpf.type = PERF_BPF_EVENT_PROG_LOAD;
	r.bpf.id = info->id;
	memcpy(r.bpf.tag, info->tag, BPF_TAG_SIZE);
	return perfx_writer__write(w, &r, r.header.size);
}

/* perf's perf_env__fetch_btf(): kept once, by id */
static int bpf_progs__keep_btf(struct bpf_progs *p, __u32 id, const struct btf *btf)
{
	struct bpf_btf_data *v;
	const void *raw;
	__u32 size;
	size_t i;

	for (i = 0; i < p->nr_btfs && p->btfs[i].id < id; i++)
		;
	if (i < p->nr_btfs && p->btfs[i].id == id)
		return 0;
	raw = btf__raw_data(btf, &size);
	if (!raw)
		return -ENOMEM;
	v = realloc(p->btfs, (p->nr_btfs + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->btfs = v;
	memmove(&v[i + 1], &v[i], (p->nr_btfs - i) * sizeof(*v));
	v[i] = (struct bpf_btf_data){ id, size, malloc(size ? size : 1) };
	p->nr_btfs++;
	if (!v[i].data) {
		v[i].size = 0;
		return -ENOMEM;
	}
	memcpy(v[i].data, raw, size);
	return 0;
}

/* perf's perf_env__insert_bpf_prog_info(): kept once, by id; takes @l's data */
static int bpf_progs__keep_prog(struct bpf_progs *p, struct bpf_prog_linear *l)
{
	struct bpf_prog_linear *v;
	size_t i;

	for (i = 0; i < p->nr_progs && p->progs[i].info.id < l->info.id; i++)
		;
	if (i < p->nr_progs && p->progs[i].info.id == l->info.id)
		return 0;
	v = realloc(p->progs, (p->nr_progs + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->progs = v;
	memmove(&v[i + 1], &v[i], (p->nr_progs - i) * sizeof(*v));
	bpf_prog_linear__to_offsets(l);
	v[i] = *l;
	l->data = NULL;
	p->nr_progs++;
	return 0;
}

/* the walk stops at program @id: @what failed with @err; returns 1 */
static int bpf_progs__stop(struct bpf_progs *p, __u32 id, const char *what, int err)
{
	p->err = err;
	p->err_id = id;
	p->err_what = what;
	return 1;
}

/*
 * perf's BTF func info check: when the program has some, one per JITed
 * function, and its BTF.  Returns 0 (*@btf NULL without func info), 1
 * when the walk stops, or -ENOMEM.
 */
static int bpf_progs__btf(struct bpf_progs *p, const struct bpf_prog_info *info,
			  struct btf **btf)
{
	if (!info->btf_id || !info->nr_func_info || !info->func_info_rec_size)
		return 0;
	/* the kernel's records are never smaller than perf reads them */
	if (info->nr_func_info != info->nr_jited_ksyms ||
	    info->func_info_rec_size < sizeof(struct bpf_func_info))
		return bpf_progs__stop(p, info->id, "BTF func info", -EINVAL);
	*btf = btf__load_from_kernel_by_id(info->btf_id);
	if (!*btf)
		return bpf_progs__stop(p, info->id, "BTF", errno ? -errno : -ENOENT);
	return bpf_progs__keep_btf(p, info->btf_id, *btf);
}

/* where a sample may land in a trampoline or dispatcher */
static bool prog_runs_through_image(__u32 type)
{
	return type == BPF_PROG_TYPE_TRACING || type == BPF_PROG_TYPE_LSM ||
	       type == BPF_PROG_TYPE_EXT || type == BPF_PROG_TYPE_XDP;
}

/* program @l's KSYMBOLs then its BPF_EVENT: the records written, or -errno */
static int write_prog(struct perfx_writer *w, __u16 id_hdr_size,
		      const struct bpf_prog_linear *l, const struct btf *btf)
{
	const __u64 *addrs = bpil__array(l, BPIL_JITED_KSYMS);
	const __u32 *lens = bpil__array(l, BPIL_JITED_FUNC_LENS);
	char name[BPF_KSYM_NAME_LEN];
	int err = 0;
	__u32 i;

	for (i = 0; i < l->info.nr_jited_ksyms && !err; i++) {
		size_t len = bpf_prog_linear__ksym_name(l, btf, i, name, sizeof(name));

		err = write_ksymbol(w, id_hdr_size, addrs[i], lens[i], name, len);
	}
	if (!err)
		err = write_bpf_event(w, id_hdr_size, &l->info);
	return err ? err : (int)i + 1;
}

/*
 * perf's perf_event__synthesize_one_bpf_prog() for program @id, open as
 * @fd.  Returns the records written, the -errno of @w, or 0 when the
 * walk stops here (@p says why).
 */
static int bpf_progs__one(struct bpf_progs *p, struct perfx_writer *w, __u16 id_hdr_size,
			  int fd, __u32 id, bool *images)
{
	const struct bpf_prog_info *info;
	struct bpf_prog_linear l;
	struct btf *btf = NULL;
	int ret;

	ret = bpf_prog_linear__read(&l, fd, BPIL_RECORD_ARRAYS, NULL);
	if (ret) {
		bpf_progs__stop(p, id, "BPF_OBJ_GET_INFO_BY_FD", ret);
		return 0;
	}
	info = &l.info;
	*images |= prog_runs_through_image(info->type);
	if (!info->jited_ksyms)
		ret = bpf_progs__stop(p, id, "JITed functions", -ENOENT);
	else if (info->nr_jited_ksyms != info->nr_prog_tags ||
		 info->nr_jited_ksyms != info->nr_jited_func_lens)
		ret = bpf_progs__stop(p, id, "function counts", -EINVAL);
	else
		ret = bpf_progs__btf(p, info, &btf);
	if (!ret)
		ret = write_prog(w, id_hdr_size, &l, btf);
	else if (ret == 1)
		ret = 0;
	if (ret > 0) {
		int err = bpf_progs__keep_prog(p, &l);

		ret = err ? err : ret;
	}
	btf__free(btf);
	bpf_prog_linear__exit(&l);
	return ret;
}

int bpf_progs__synthesize_images(struct bpf_progs *p, struct perfx_writer *w,
				 __u16 id_hdr_size, const char *root)
{
	long page = sysconf(_SC_PAGESIZE);
	const char *line, *name;
	struct procfs_reader r;
	size_t len, name_len;
	char path[4096], *buf;
	int ret, err = 0, nr = 0;
	__u64 addr;
	char type;

	if (id_hdr_size > TRAILER_MAX)
		return -EINVAL;
	buf = malloc(KALLSYMS_BUF);
	if (!buf)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/proc/kallsyms", root ? root : "");
	ret = procfs_reader__open(&r, AT_FDCWD, path, buf, KALLSYMS_BUF);
	if (ret) {
		/* perf goes on without them */
		p->images_err = ret;
		free(buf);
		return 0;
	}
	while (!err && (ret = procfs_reader__line(&r, &line, &len)) > 0) {
		if (procfs__parse_kallsyms(line, len, &addr, &type, &name, &name_len) ||
		    !bpf_progs__is_image(name, name_len))
			continue;
		name_len = (const char *)memchr(name, '\t', name_len) - name;
		if (name_len > BPF_KSYM_NAME_LEN - 1)
			name_len = BPF_KSYM_NAME_LEN - 1;
		err = write_ksymbol(w, id_hdr_size, addr, page, name, name_len);
		nr += !err;
	}
	procfs_reader__close(&r);
	free(buf);
	/* a read error ends the list, as perf's kallsyms__parse() */
	if (ret < 0)
		p->images_err = ret;
	p->nr_images += nr;
	return err ? err : nr;
}

int bpf_progs__synthesize(struct bpf_progs *p, struct perfx_writer *w, __u16 id_hdr_size,
			  const char *root)
{
	bool images = false;
	int ret = 0, nr = 0, fd;
	__u32 id = 0;

	memset(p, 0, sizeof(*p));
	if (id_hdr_size > TRAILER_MAX)
		return -EINVAL;
	for (;;) {
		if (bpf_prog_get_next_id(id, &id)) {
			/* the end, or a kernel without it, or no right to it */
			if (errno != ENOENT) {
				p->refused = errno == EPERM || errno == EINVAL;
				bpf_progs__stop(p, id, "BPF_PROG_GET_NEXT_ID", -errno);
			}
			break;
		}
		fd = bpf_prog_get_fd_by_id(id);
		if (fd < 0) {
			p->nr_vanished++;
			continue;
		}
		ret = bpf_progs__one(p, w, id_hdr_size, fd, id, &images);
		close(fd);
		if (ret <= 0)
			break;
		nr += ret;
	}
	if (ret < 0)
		return ret;
	/* nothing runs in an image unless a program of those kinds is loaded */
	if (p->err || images) {
		ret = bpf_progs__synthesize_images(p, w, id_hdr_size, root);
		if (ret < 0)
			return ret;
		nr += ret;
	}
	return nr;
}

void bpf_progs__exit(struct bpf_progs *p)
{
	size_t i;

	for (i = 0; i < p->nr_progs; i++)
		bpf_prog_linear__exit(&p->progs[i]);
	for (i = 0; i < p->nr_btfs; i++)
		free(p->btfs[i].data);
	free(p->progs);
	free(p->btfs);
	memset(p, 0, sizeof(*p));
}

/* sscanf()'s "%lu" match: blanks, a sign, a digit */
static bool scans_ulong(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || (*s >= '\t' && *s <= '\r')))
		s++;
	if (s < end && (*s == '+' || *s == '-'))
		s++;
	return s < end && *s >= '0' && *s <= '9';
}

/* sscanf()'s "%s" match: a character that is not blank, after blanks */
static bool scans_string(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || (*s >= '\t' && *s <= '\r')))
		s++;
	return s < end;
}

int bpf_progs__is_image(const char *name, size_t len)
{
	static const char tramp[] = "bpf_trampoline_", disp[] = "bpf_dispatcher_";
	const char *tab = memchr(name, '\t', len), *end;

	if (!tab || (size_t)(name + len - tab - 1) != 5 || memcmp(tab + 1, "[bpf]", 5))
		return 0;
	end = tab;
	if ((size_t)(end - name) >= sizeof(tramp) - 1 && !memcmp(name, tramp, sizeof(tramp) - 1))
		return scans_ulong(name + sizeof(tramp) - 1, end);
	if ((size_t)(end - name) >= sizeof(disp) - 1 && !memcmp(name, disp, sizeof(disp) - 1))
		return scans_string(name + sizeof(disp) - 1, end);
	return 0;
}
