// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data headers: the file header with its attrs and feature sections,
 * and their pipe-mode records (HEADER_ATTR, HEADER_FEATURE).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data.h"
#include "debug.h"
#include "event.h"
#include "feature.h"
#include "header.h"

void perfx_header__exit(struct perfx_header *h)
{
	int i;

	for (i = 0; i < h->nr_attrs; i++) {
		free(h->attrs[i].attr);
		free(h->attrs[i].ids);
	}
	free(h->attrs);
	for (i = 0; i < HEADER_LAST_FEATURE; i++)
		free(h->feat[i]);
	memset(h, 0, sizeof(*h));
}

/* attr.size, where 0 means the first ABI's 64 bytes */
static __u32 attr_abi_size(const void *attr)
{
	__u32 size;

	memcpy(&size, (const char *)attr + offsetof(struct perf_event_attr, size), sizeof(size));
	return size ? size : PERF_ATTR_MIN_SIZE;
}

int perfx_header__add_attr(struct perfx_header *h, const void *attr, __u32 size,
			   const __u64 *ids, __u32 nr_ids)
{
	struct perfx_attr *attrs, *a;

	/* doubled: a file of thousands of attrs is read in linear time */
	if (h->nr_attrs == h->alloc_attrs) {
		int alloc = h->alloc_attrs ? 2 * h->alloc_attrs : 4;

		attrs = realloc(h->attrs, alloc * sizeof(*attrs));
		if (!attrs)
			return -ENOMEM;
		h->attrs = attrs;
		h->alloc_attrs = alloc;
	}
	a = &h->attrs[h->nr_attrs];
	*a = (struct perfx_attr){ .size = size, .nr_ids = nr_ids };
	a->attr = malloc(size);
	a->ids = malloc(nr_ids ? nr_ids * sizeof(*ids) : 1);
	if (!a->attr || !a->ids) {
		free(a->attr);
		free(a->ids);
		return -ENOMEM;
	}
	memcpy(a->attr, attr, size);
	if (nr_ids)
		memcpy(a->ids, ids, nr_ids * sizeof(*ids));
	h->nr_attrs++;
	return 0;
}

int perfx_header__set_feature(struct perfx_header *h, __u64 id, const void *data,
			      size_t size)
{
	void *copy;

	if (!feature__ops(id))
		return -EINVAL;
	copy = malloc(size ? size : 1);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, data, size);
	free(h->feat[id]);
	h->feat[id] = copy;
	h->feat_size[id] = size;
	return 0;
}

void perfx_header__clear_feature(struct perfx_header *h, __u64 id)
{
	if (!feature__ops(id))
		return;
	free(h->feat[id]);
	h->feat[id] = NULL;
	h->feat_size[id] = 0;
}

int perfx_header__attr_sample_type(const struct perfx_attr *attr, __u64 *sample_type)
{
	memcpy(sample_type, (const char *)attr->attr +
	       offsetof(struct perf_event_attr, sample_type), sizeof(*sample_type));
	return 0;
}

/* A section of the file, named for errors. */
struct file_range {
	const char	*what;
	int		idx;		/* attr or feature number, or -1 */
	__u64		offset;
	__u64		size;
};

static void file_range__print(char *buf, size_t len, const struct file_range *r)
{
	if (r->idx >= 0)
		snprintf(buf, len, "%s %d [%llu, +%llu)", r->what, r->idx,
			 (unsigned long long)r->offset, (unsigned long long)r->size);
	else
		snprintf(buf, len, "%s [%llu, +%llu)", r->what,
			 (unsigned long long)r->offset, (unsigned long long)r->size);
}

static int file_range__cmp(const void *va, const void *vb)
{
	const struct file_range *a = va, *b = vb;

	return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* Every section inside the file and none overlapping another. */
static int check_ranges(const char *name, struct file_range *r, int nr, __u64 file_size)
{
	char a[96], b[96];
	int i;

	for (i = 0; i < nr; i++) {
		if (r[i].offset > file_size || r[i].size > file_size - r[i].offset) {
			file_range__print(a, sizeof(a), &r[i]);
			pr_err("%s: byte offset %llu: %s ends past the end of the file (%llu bytes) (EINVAL)\n",
			       name, (unsigned long long)r[i].offset, a,
			       (unsigned long long)file_size);
			return -EINVAL;
		}
	}
	qsort(r, nr, sizeof(*r), file_range__cmp);
	for (i = 0; i + 1 < nr; i++) {
		if (!r[i].size || !r[i + 1].size ||
		    r[i].offset + r[i].size <= r[i + 1].offset)
			continue;
		file_range__print(a, sizeof(a), &r[i]);
		file_range__print(b, sizeof(b), &r[i + 1]);
		pr_err("%s: byte offset %llu: sections overlap: %s and %s (EINVAL)\n",
		       name, (unsigned long long)r[i + 1].offset, a, b);
		return -EINVAL;
	}
	return 0;
}

static int pread_all(int fd, const char *name, void *buf, size_t len, __u64 pos)
{
	ssize_t n = pread(fd, buf, len, pos);

	if (n == (ssize_t)len)
		return 0;
	if (n >= 0) {
		pr_err("%s: byte offset %llu: %zd of %zu bytes, the file shrank? (EIO)\n",
		       name, (unsigned long long)pos, n, len);
		return -EIO;
	}
	n = -errno;
	pr_err("%s: reading byte offset %llu: %s (%s)\n", name, (unsigned long long)pos,
	       strerror(-n), perfx__errname(n));
	return n;
}

/* Reads @len bytes at @pos into a new buffer. */
static int pread_new(int fd, const char *name, __u64 pos, size_t len, void **out)
{
	void *buf = malloc(len ? len : 1);
	int err;

	if (!buf)
		return -ENOMEM;
	err = pread_all(fd, name, buf, len, pos);
	if (err) {
		free(buf);
		return err;
	}
	*out = buf;
	return 0;
}

static int feat_count(const struct perf_file_header *fh)
{
	int i, nr = 0;

	for (i = 0; i < HEADER_FEAT_BITS; i++)
		nr += !!(fh->adds_features[i / 64] & (1ULL << (i % 64)));
	return nr;
}

static int check_attr_size(const char *name, const struct perf_file_header *fh)
{
	__u64 slot = fh->attr_size - sizeof(struct perf_file_section);

	if (fh->attr_size < sizeof(struct perf_file_section) + PERF_ATTR_MIN_SIZE ||
	    slot > PERF_ATTR_MAX_SIZE) {
		pr_err("%s: byte offset %zu: attr_size %llu: cannot read attrs of that size, expected %d..%d (EINVAL)\n",
		       name, offsetof(struct perf_file_header, attr_size),
		       (unsigned long long)fh->attr_size,
		       (int)sizeof(struct perf_file_section) + PERF_ATTR_MIN_SIZE,
		       (int)sizeof(struct perf_file_section) + PERF_ATTR_MAX_SIZE);
		return -EINVAL;
	}
	if (fh->attrs.size % fh->attr_size) {
		pr_err("%s: byte offset %zu: the attrs section's size %llu is not a multiple of attr_size %llu (EINVAL)\n",
		       name, offsetof(struct perf_file_header, attrs),
		       (unsigned long long)fh->attrs.size, (unsigned long long)fh->attr_size);
		return -EINVAL;
	}
	return 0;
}

/* The sections of a file: the header's, then each attr's ids and each feature's. */
struct file_layout {
	struct file_range	*r;
	int			nr;
	int			alloc;
	char			*attr_table;
	struct perf_file_section *feat_table;
	int			nr_feat;
};

/* Adds a section; file_layout__check() checks them all at once. */
static int file_layout__add(struct file_layout *l, const char *what, int idx,
			    const struct perf_file_section *s)
{
	struct file_range *r;

	if (l->nr == l->alloc) {
		int alloc = l->alloc ? 2 * l->alloc : 16;

		r = realloc(l->r, alloc * sizeof(*r));
		if (!r)
			return -ENOMEM;
		l->r = r;
		l->alloc = alloc;
	}
	l->r[l->nr++] = (struct file_range){ what, idx, s->offset, s->size };
	return 0;
}

static int file_layout__check(struct file_layout *l, const char *name, __u64 file_size)
{
	return check_ranges(name, l->r, l->nr, file_size);
}

static void file_layout__exit(struct file_layout *l)
{
	free(l->r);
	free(l->attr_table);
	free(l->feat_table);
}

/* The attrs table, then each attr's ids section. */
static int file_layout__attrs(struct file_layout *l, int fd, const char *name,
			      const struct perf_file_header *fh, __u64 file_size)
{
	__u64 slot = fh->attr_size - sizeof(struct perf_file_section);
	__u64 i, nr = fh->attrs.size / fh->attr_size;
	int err;

	err = pread_new(fd, name, fh->attrs.offset, fh->attrs.size, (void **)&l->attr_table);
	if (err)
		return err;
	for (i = 0; i < nr; i++) {
		const char *attr = l->attr_table + i * fh->attr_size;
		__u64 pos = fh->attrs.offset + i * fh->attr_size;
		struct perf_file_section ids;

		if (attr_abi_size(attr) < PERF_ATTR_MIN_SIZE || attr_abi_size(attr) > slot) {
			pr_err("%s: byte offset %llu: attr %llu: attr.size %u: less than 64 bytes or more than the file's attr_size %llu allows (EINVAL)\n",
			       name, (unsigned long long)pos, (unsigned long long)i,
			       attr_abi_size(attr), (unsigned long long)fh->attr_size);
			return -EINVAL;
		}
		memcpy(&ids, attr + slot, sizeof(ids));
		if (ids.size % sizeof(__u64)) {
			pr_err("%s: byte offset %llu: attr %llu: ids section size %llu is not a multiple of 8 (EINVAL)\n",
			       name, (unsigned long long)(pos + slot), (unsigned long long)i,
			       (unsigned long long)ids.size);
			return -EINVAL;
		}
		err = file_layout__add(l, "ids of attr", (int)i, &ids);
		if (err)
			return err;
	}
	return file_layout__check(l, name, file_size);
}

/* The feature table after the data, then each feature's section. */
static int file_layout__features(struct file_layout *l, int fd, const char *name,
				 const struct perf_file_header *fh, __u64 file_size)
{
	struct perf_file_section table;
	int i, err;

	l->nr_feat = feat_count(fh);
	table.offset = fh->data.offset + fh->data.size;
	table.size = l->nr_feat * sizeof(struct perf_file_section);
	err = file_layout__add(l, "feature table", -1, &table);
	if (!err)
		err = file_layout__check(l, name, file_size);
	if (!err)
		err = pread_new(fd, name, table.offset, table.size, (void **)&l->feat_table);
	for (i = 0; i < l->nr_feat && !err; i++)
		err = file_layout__add(l, "feature section", i, &l->feat_table[i]);
	return err ? err : file_layout__check(l, name, file_size);
}

static int file_layout__read(struct file_layout *l, struct perfx_header *h, int fd,
			     const char *name, const struct perf_file_header *fh)
{
	__u64 slot = fh->attr_size - sizeof(struct perf_file_section);
	int i, feat, err = 0;
	__u64 *ids;
	void *body;

	for (i = 0; i < (int)(fh->attrs.size / fh->attr_size); i++) {
		const char *attr = l->attr_table + i * fh->attr_size;
		struct perf_file_section s;

		memcpy(&s, attr + slot, sizeof(s));
		err = pread_new(fd, name, s.offset, s.size, (void **)&ids);
		if (err)
			return err;
		err = perfx_header__add_attr(h, attr, attr_abi_size(attr), ids,
					     s.size / sizeof(__u64));
		free(ids);
		if (err)
			return err;
	}
	/* the table has a section for every bit set, known or not */
	for (feat = 0, i = 0; feat < HEADER_FEAT_BITS; feat++) {
		const struct perf_file_section *s = &l->feat_table[i];
		const struct feature_ops *ops = feature__ops(feat);

		if (!(fh->adds_features[feat / 64] & (1ULL << (feat % 64))))
			continue;
		i++;
		if (!ops)
			continue;
		err = pread_new(fd, name, s->offset, s->size, &body);
		if (err)
			return err;
		free(h->feat[feat]);
		h->feat[feat] = body;
		h->feat_size[feat] = s->size;
		if (ops->check)
			err = ops->check(name, body, s->size, s->offset);
		if (err)
			return err;
	}
	return 0;
}

int perfx_header__read_file(struct perfx_header *h, int fd, const char *name,
			    const struct perf_file_header *fh, __u64 file_size)
{
	struct perf_file_section head = { 0, sizeof(*fh) };
	struct file_layout l = { NULL };
	int err;

	err = check_attr_size(name, fh);
	if (!err)
		err = file_layout__add(&l, "file header", -1, &head);
	if (!err)
		err = file_layout__add(&l, "attrs section", -1, &fh->attrs);
	if (!err)
		err = file_layout__add(&l, "data section", -1, &fh->data);
	if (!err)
		err = file_layout__check(&l, name, file_size);
	if (!err)
		err = file_layout__attrs(&l, fd, name, fh, file_size);
	if (!err)
		err = file_layout__features(&l, fd, name, fh, file_size);
	if (!err)
		err = file_layout__read(&l, h, fd, name, fh);
	if (!err)
		h->data = fh->data;
	file_layout__exit(&l);
	return err;
}

static int read_attr_record(struct perfx_header *h, const char *name,
			    const struct perf_event_header *ev, __u64 pos)
{
	const char *attr = (const char *)(ev + 1);
	size_t body = ev->size - sizeof(*ev);
	__u32 size;
	__u64 *ids;
	size_t nr;
	int err;

	if (body < PERF_ATTR_MIN_SIZE) {
		pr_err("%s: byte offset %llu: HEADER_ATTR record of size %u: too small for an attr of at least %d bytes (EINVAL)\n",
		       name, (unsigned long long)pos, ev->size, PERF_ATTR_MIN_SIZE);
		return -EINVAL;
	}
	size = attr_abi_size(attr);
	if (size < PERF_ATTR_MIN_SIZE || size > body || size > PERF_ATTR_MAX_SIZE) {
		pr_err("%s: byte offset %llu: HEADER_ATTR record of size %u: cannot read an attr.size of %u (EINVAL)\n",
		       name, (unsigned long long)pos, ev->size, size);
		return -EINVAL;
	}
	nr = (body - size) / sizeof(__u64);
	ids = malloc(nr ? nr * sizeof(*ids) : 1);
	if (!ids)
		return -ENOMEM;
	memcpy(ids, attr + size, nr * sizeof(*ids));
	err = perfx_header__add_attr(h, attr, size, ids, nr);
	free(ids);
	return err;
}

static int read_feature_record(struct perfx_header *h, const char *name,
			       const struct perf_event_header *ev, __u64 pos)
{
	struct perf_record_header_feature fe;

	if (ev->size < sizeof(fe)) {
		pr_err("%s: byte offset %llu: HEADER_FEATURE record of size %u: less than its %zu-byte header (EINVAL)\n",
		       name, (unsigned long long)pos, ev->size, sizeof(fe));
		return -EINVAL;
	}
	memcpy(&fe, ev, sizeof(fe));
	/* a later perf's features, and its end of the features, are skipped */
	if (!feature__ops(fe.feat_id))
		return 0;
	return perfx_header__set_feature(h, fe.feat_id, (const char *)ev + sizeof(fe),
					 ev->size - sizeof(fe));
}

int perfx_header__read_record(struct perfx_header *h, const char *name,
			      const struct perf_event_header *ev, __u64 pos)
{
	if (ev->type == PERF_RECORD_HEADER_ATTR)
		return read_attr_record(h, name, ev, pos);
	if (ev->type == PERF_RECORD_HEADER_FEATURE)
		return read_feature_record(h, name, ev, pos);
	return 0;
}

/*
 * The attr slot of a written file: the largest attr read, not this
 * build's sizeof(struct perf_event_attr): perf <= 6.2 refuses attr sizes
 * newer than its own.
 */
static __u32 attr_slot(const struct perfx_header *h)
{
	__u32 slot = h->nr_attrs ? 0 : sizeof(struct perf_event_attr);
	int i;

	for (i = 0; i < h->nr_attrs; i++)
		if (h->attrs[i].size > slot)
			slot = h->attrs[i].size;
	return slot;
}

/* @a zero-padded to @slot bytes, with attr.size saying so */
static void attr_pad(char *buf, const struct perfx_attr *a, __u32 slot)
{
	memset(buf, 0, slot);
	memcpy(buf, a->attr, a->size);
	memcpy(buf + offsetof(struct perf_event_attr, size), &slot, sizeof(slot));
}

/* Each attr's ids, then the attrs table pointing at them. */
static int write_attrs(struct perfx_header *h, struct perfx_writer *w,
		       struct perf_file_header *fh)
{
	char buf[PERF_ATTR_MAX_SIZE + sizeof(struct perf_file_section)];
	__u32 slot = attr_slot(h);
	__u64 ids_pos = w->pos;
	int i, err = 0;

	for (i = 0; i < h->nr_attrs && !err; i++)
		err = perfx_writer__write(w, h->attrs[i].ids, h->attrs[i].nr_ids * sizeof(__u64));
	fh->attr_size = slot + sizeof(struct perf_file_section);
	fh->attrs = (struct perf_file_section){ w->pos, h->nr_attrs * fh->attr_size };
	for (i = 0; i < h->nr_attrs && !err; i++) {
		struct perf_file_section ids = { ids_pos, h->attrs[i].nr_ids * sizeof(__u64) };

		attr_pad(buf, &h->attrs[i], slot);
		memcpy(buf + slot, &ids, sizeof(ids));
		err = perfx_writer__write(w, buf, slot + sizeof(ids));
		ids_pos += ids.size;
	}
	return err;
}

int perfx_header__write_file_start(struct perfx_header *h, struct perfx_writer *w)
{
	struct perf_file_header fh = {
		.magic = PERF_MAGIC2,
		.size = sizeof(fh),
	};
	int err;

	err = perfx_writer__write(w, &fh, sizeof(fh));
	/* attrs known now go first, as perf has them: a cut file is readable */
	if (!err && h->nr_attrs)
		err = write_attrs(h, w, &fh);
	h->data.offset = w->pos;
	if (err || !h->nr_attrs)
		return err;
	h->attrs_sec = fh.attrs;
	h->attr_size = fh.attr_size;
	fh.data.offset = h->data.offset;
	err = perfx_writer__flush(w);
	return err ? err : perfx_writer__pwrite(w, &fh, sizeof(fh), 0);
}

/* The feature table right after the data (where perf looks), then the bodies. */
static int write_features(struct perfx_header *h, struct perfx_writer *w,
			  struct perf_file_header *fh)
{
	struct perf_file_section table[HEADER_LAST_FEATURE];
	int i, nr = 0, err;
	__u64 pos;

	for (i = 1; i < HEADER_LAST_FEATURE; i++)
		nr += !!h->feat[i];
	pos = w->pos + nr * sizeof(table[0]);
	for (i = 1, nr = 0; i < HEADER_LAST_FEATURE; i++) {
		if (!h->feat[i])
			continue;
		fh->adds_features[i / 64] |= 1ULL << (i % 64);
		table[nr++] = (struct perf_file_section){ pos, h->feat_size[i] };
		pos += h->feat_size[i];
	}
	err = perfx_writer__write(w, table, nr * sizeof(table[0]));
	for (i = 1; i < HEADER_LAST_FEATURE && !err; i++)
		if (h->feat[i])
			err = perfx_writer__write(w, h->feat[i], h->feat_size[i]);
	return err;
}

int perfx_header__write_file_cut(struct perfx_header *h, struct perfx_writer *w,
				 __u64 data_size)
{
	struct perf_file_header fh = {
		.magic = PERF_MAGIC2,
		.size = sizeof(fh),
		.attr_size = h->attr_size,
		.attrs = h->attrs_sec,
		.data = { h->data.offset, data_size },
	};

	return perfx_writer__pwrite(w, &fh, sizeof(fh), 0);
}

int perfx_header__write_file_finish(struct perfx_header *h, struct perfx_writer *w,
				    __u64 data_size)
{
	struct perf_file_header fh = {
		.magic = PERF_MAGIC2,
		.size = sizeof(fh),
		.data = { h->data.offset, data_size },
	};
	int err;

	err = write_features(h, w, &fh);
	if (!err && h->attr_size) {
		fh.attrs = h->attrs_sec;
		fh.attr_size = h->attr_size;
	} else if (!err) {
		err = write_attrs(h, w, &fh);
	}
	if (!err)
		err = perfx_writer__flush(w);
	if (!err)
		err = perfx_writer__pwrite(w, &fh, sizeof(fh), 0);
	return err;
}

static int write_attr_record(const struct perfx_attr *a, struct perfx_writer *w)
{
	char buf[PERF_ATTR_MAX_SIZE];
	struct perf_event_header head = {
		.type = PERF_RECORD_HEADER_ATTR,
		.size = sizeof(head) + a->size + a->nr_ids * sizeof(__u64),
	};
	int err;

	if (sizeof(head) + a->size + a->nr_ids * sizeof(__u64) > 0xffff)
		return -E2BIG;
	attr_pad(buf, a, a->size);
	err = perfx_writer__write(w, &head, sizeof(head));
	if (!err)
		err = perfx_writer__write(w, buf, a->size);
	if (!err)
		err = perfx_writer__write(w, a->ids, a->nr_ids * sizeof(__u64));
	return err;
}

/*
 * A HEADER_FEATURE record per feature that perf has as one, then perf's
 * end mark, a record of feature HEADER_LAST_FEATURE and no body, then
 * the features with records of their own.  A body too large for a
 * HEADER_FEATURE record is left out, as perf leaves it out; one too large
 * for its own record is an error.
 */
static int write_feature_records(struct perfx_header *h, struct perfx_writer *w)
{
	struct perf_record_header_feature fe = { .header.type = PERF_RECORD_HEADER_FEATURE };
	const struct feature_ops *ops;
	int i, err = 0;

	for (i = 1; i < HEADER_LAST_FEATURE && !err; i++) {
		ops = feature__ops(i);
		if (!h->feat[i] || ops->pipe != FEATURE_PIPE_RECORD)
			continue;
		if (h->feat_size[i] > ops->pipe_max) {
			pr_debug("feature %d (%s): %zu bytes do not fit a pipe record: left out\n",
				 i, ops->name, h->feat_size[i]);
			continue;
		}
		fe.header.size = sizeof(fe) + h->feat_size[i];
		fe.feat_id = i;
		err = perfx_writer__write(w, &fe, sizeof(fe));
		if (!err)
			err = perfx_writer__write(w, h->feat[i], h->feat_size[i]);
	}
	fe.header.size = sizeof(fe);
	fe.feat_id = HEADER_LAST_FEATURE;
	if (!err)
		err = perfx_writer__write(w, &fe, sizeof(fe));
	for (i = 1; i < HEADER_LAST_FEATURE && !err; i++) {
		ops = feature__ops(i);
		if (!h->feat[i] || ops->pipe != FEATURE_PIPE_OWN)
			continue;
		if (h->feat_size[i] > ops->pipe_max)
			return -EOPNOTSUPP;
		err = ops->write_pipe(h->feat[i], h->feat_size[i], w);
	}
	return err;
}

int perfx_header__write_pipe(struct perfx_header *h, struct perfx_writer *w, bool synth)
{
	struct perf_pipe_file_header ph = { PERF_MAGIC2, sizeof(ph) };
	int i, err;

	err = perfx_writer__write(w, &ph, sizeof(ph));
	for (i = 0; synth && i < h->nr_attrs && !err; i++)
		err = write_attr_record(&h->attrs[i], w);
	if (!err && synth)
		err = write_feature_records(h, w);
	return err;
}
