// SPDX-License-Identifier: GPL-2.0
/*
 * Opening a perf.data file or pipe and walking its records.
 */
#include <byteswap.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "debug.h"
#include "event.h"
#include "sample-id.h"
#include "session.h"

/* The first @len bytes of the input, or an error saying how many there were. */
static int session__peek_head(struct perfx_session *s, size_t len, const char *what,
			      const void **p)
{
	size_t avail;
	int err;

	err = perfx_reader__peek(&s->reader, len, p, &avail);
	if (err == -ENODATA) {
		pr_err("%s: byte offset %zu: truncated %s: %zu of %zu bytes (EINVAL)\n",
		       s->name, avail, what, avail, len);
		return -EINVAL;
	}
	return err;
}

static int open_file_mode(struct perfx_session *s)
{
	struct perf_file_header fh;
	const void *p;
	struct stat st;
	int err;

	if (fstat(s->reader.fd, &st) || !S_ISREG(st.st_mode)) {
		pr_err("%s: a file-mode perf.data must be a regular file, not a pipe: perfx seeks in it (ESPIPE)\n",
		       s->name);
		return -ESPIPE;
	}
	err = session__peek_head(s, sizeof(fh), "file header", &p);
	if (err)
		return err;
	memcpy(&fh, p, sizeof(fh));
	err = perfx_header__read_file(&s->header, s->reader.fd, s->name, &fh, st.st_size);
	if (err)
		return err;
	err = perfx_reader__seek(&s->reader, fh.data.offset, fh.data.offset + fh.data.size);
	if (err)
		pr_err("%s: seeking to the data at byte offset %llu: %s (%s)\n", s->name,
		       (unsigned long long)fh.data.offset, strerror(-err), perfx__errname(err));
	return err;
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define HOST_ORDER		"little-endian"
#define HOST_ORDER_OTHER	"big-endian"
#else
#define HOST_ORDER		"big-endian"
#define HOST_ORDER_OTHER	"little-endian"
#endif

/* The magic and size say file or pipe; the other byte order is refused. */
static int open_header(struct perfx_session *s)
{
	struct perf_pipe_file_header ph;
	const void *p;
	int err;

	err = session__peek_head(s, sizeof(ph), "header", &p);
	if (err)
		return err;
	memcpy(&ph, p, sizeof(ph));
	if (ph.magic == bswap_64(PERF_MAGIC2)) {
		pr_err("%s: byte offset 0: a %s perf.data (its magic is \"PERFILE2\" byte-swapped): perfx reads only %s ones, this machine's byte order (EOPNOTSUPP)\n",
		       s->name, HOST_ORDER_OTHER, HOST_ORDER);
		return -EOPNOTSUPP;
	}
	if (ph.magic != PERF_MAGIC2) {
		pr_err("%s: byte offset 0: not a perf.data file: magic %#llx, expected %#llx \"PERFILE2\" (EINVAL)\n",
		       s->name, (unsigned long long)ph.magic, PERF_MAGIC2);
		return -EINVAL;
	}
	if (ph.size == sizeof(ph)) {
		s->header.pipe = true;
		perfx_reader__skip(&s->reader, sizeof(ph));
		return 0;
	}
	if (ph.size == sizeof(struct perf_file_header))
		return open_file_mode(s);
	pr_err("%s: byte offset 8: header size %llu: expected %zu (pipe) or %zu (file) (EINVAL)\n",
	       s->name, (unsigned long long)ph.size, sizeof(ph), sizeof(struct perf_file_header));
	return -EINVAL;
}

int perfx_session__open(struct perfx_session *s, int fd, const char *name)
{
	int err;

	memset(s, 0, sizeof(*s));
	s->name = name;
	err = perfx_reader__init(&s->reader, fd, name);
	if (!err)
		err = open_header(s);
	if (err)
		perfx_session__close(s);
	return err;
}

int perfx_session__open_range(struct perfx_session *s, int fd, const char *name,
			      const struct perfx_header *h, __u64 start, __u64 end)
{
	int i, err;

	memset(s, 0, sizeof(*s));
	s->name = name;
	err = perfx_reader__init(&s->reader, fd, name);
	for (i = 0; i < h->nr_attrs && !err; i++)
		err = perfx_header__add_attr(&s->header, h->attrs[i].attr, h->attrs[i].size,
					     h->attrs[i].ids, h->attrs[i].nr_ids);
	if (!err)
		err = perfx_reader__seek(&s->reader, start, end);
	if (err)
		perfx_session__close(s);
	return err;
}

void perfx_session__close(struct perfx_session *s)
{
	free(s->ids);
	s->ids = NULL;
	perfx_reader__exit(&s->reader);
	perfx_header__exit(&s->header);
}

/*
 * The data that follows a TRACING_DATA or AUXTRACE record, outside its
 * size: @size bytes, which perfx_session__payload() gives out.
 */
static void session__payload_start(struct perfx_session *s, const char *rec,
				   const char *what, __u64 pos, __u64 size)
{
	s->payload_rec = rec;
	s->payload_what = what;
	s->payload_pos = pos;
	s->payload_size = size;
	s->payload_left = size;
}

int perfx_session__payload(struct perfx_session *s, const void **p, size_t *n)
{
	size_t chunk = PERFX_DATA_BLOCK / 2, avail;
	int err;

	if (!s->payload_left)
		return 0;
	if (s->payload_left < chunk)
		chunk = s->payload_left;
	err = perfx_reader__peek(&s->reader, chunk, p, &avail);
	if (err == -ENODATA) {
		pr_err("%s: byte offset %llu: %s record: %llu bytes of %s follow it, the input ends after %llu (EINVAL)\n",
		       s->name, (unsigned long long)s->payload_pos, s->payload_rec,
		       (unsigned long long)s->payload_size, s->payload_what,
		       (unsigned long long)(s->payload_size - s->payload_left + avail));
		err = -EINVAL;
	}
	if (err) {
		s->payload_left = 0;
		return err;
	}
	perfx_reader__skip(&s->reader, chunk);
	s->payload_left -= chunk;
	*n = chunk;
	return 1;
}

/*
 * A pipe's TRACING_DATA record: the data after it is read into the
 * TRACING_DATA feature, and the record is handed on alone.  @ev stays
 * valid: the record is copied first.
 */
static int session__tracing_data(struct perfx_session *s, const struct perf_event_header *ev,
				 __u64 pos)
{
	size_t done = 0, n;
	char *data, *grown;
	const void *p;
	int ret;

	if (ev->size < PERFX_TRACING_DATA_RECORD) {
		pr_err("%s: byte offset %llu: TRACING_DATA record of size %u: less than %d bytes (EINVAL)\n",
		       s->name, (unsigned long long)pos, ev->size, PERFX_TRACING_DATA_RECORD);
		return -EINVAL;
	}
	memcpy(s->tracing_rec, ev, PERFX_TRACING_DATA_RECORD);
	session__payload_start(s, "TRACING_DATA", "tracing data", pos,
			       perfx__get_u32((const char *)ev + 8));
	data = malloc(1);
	if (!data)
		return -ENOMEM;
	/* grown as the bytes arrive: a corrupt size must not allocate 4 GiB */
	while ((ret = perfx_session__payload(s, &p, &n)) > 0) {
		grown = realloc(data, done + n);
		if (!grown) {
			ret = -ENOMEM;
			goto out_free;
		}
		data = grown;
		memcpy(data + done, p, n);
		done += n;
	}
	if (!ret)
		ret = perfx_header__set_feature(&s->header, HEADER_TRACING_DATA, data, done);
out_free:
	free(data);
	return ret;
}

/* An AUXTRACE record: the size of the trace data that follows it. */
static int session__auxtrace(struct perfx_session *s, const struct perf_event_header *ev,
			     __u64 pos)
{
	if (ev->size < PERFX_AUXTRACE_RECORD) {
		pr_err("%s: byte offset %llu: AUXTRACE record of size %u: less than %d bytes (EINVAL)\n",
		       s->name, (unsigned long long)pos, ev->size, PERFX_AUXTRACE_RECORD);
		return -EINVAL;
	}
	session__payload_start(s, "AUXTRACE", "trace data", pos,
			       perfx__get_u64((const char *)ev +
					      offsetof(struct perf_record_auxtrace, size)));
	return 0;
}

int perfx_session__next(struct perfx_session *s, const struct perf_event_header **ev,
			__u64 *pos)
{
	const void *p;
	size_t n;
	int ret;

	/* the trace data of an AUXTRACE record nobody read */
	if (s->payload_left) {
		while ((ret = perfx_session__payload(s, &p, &n)) > 0)
			;
		if (ret)
			return ret;
	}
	ret = perfx_reader__next(&s->reader, ev, pos);
	if (ret <= 0)
		return ret;
	switch ((*ev)->type) {
	case PERF_RECORD_HEADER_ATTR:
	case PERF_RECORD_HEADER_FEATURE:
		if (!s->header.pipe)
			break;
		ret = perfx_header__read_record(&s->header, s->name, *ev, *pos);
		return ret ? ret : 1;
	case PERF_RECORD_HEADER_TRACING_DATA:
		if (!s->header.pipe)
			break;
		ret = session__tracing_data(s, *ev, *pos);
		*ev = (const struct perf_event_header *)s->tracing_rec;
		return ret ? ret : 1;
	case PERF_RECORD_AUXTRACE:
		ret = session__auxtrace(s, *ev, *pos);
		return ret ? ret : 1;
	}
	return 1;
}

static bool attr__sample_id_all(const struct perfx_attr *a)
{
	struct perf_event_attr attr = { 0 };

	memcpy(&attr, a->attr, a->size < sizeof(attr) ? a->size : sizeof(attr));
	return attr.sample_id_all;
}

/* An id's slot in the hash: the first empty one or the id's */
static struct perfx_session_id *session__id_slot(const struct perfx_session *s, __u64 id)
{
	__u64 i = (id * 0x9e3779b97f4a7c15ULL) >> 32;

	for (;; i++) {
		struct perfx_session_id *e = &s->ids[i & s->ids_mask];

		if (!e->attr || e->id == id)
			return e;
	}
}

/*
 * Every attr's ids hashed: a sample finds its attr in constant time
 * however many attrs there are; an id two attrs have is the first one's.
 */
static int session__hash_ids(struct perfx_session *s)
{
	const struct perfx_header *h = &s->header;
	size_t nr = 0, size = 16;
	int i;
	__u32 j;

	for (i = 0; i < h->nr_attrs; i++)
		nr += h->attrs[i].nr_ids;
	while (size < 2 * nr)
		size *= 2;
	free(s->ids);
	s->ids = calloc(size, sizeof(*s->ids));
	if (!s->ids)
		return -ENOMEM;
	s->ids_mask = size - 1;
	for (i = 0; i < h->nr_attrs; i++) {
		for (j = 0; j < h->attrs[i].nr_ids; j++) {
			struct perfx_session_id *e = session__id_slot(s, h->attrs[i].ids[j]);

			if (!e->attr)
				*e = (struct perfx_session_id){ h->attrs[i].ids[j], &h->attrs[i] };
		}
	}
	return 0;
}

/* One sample_type for all attrs, or every attr has IDENTIFIER and we look. */
static int session__sample_layout(struct perfx_session *s, __u64 pos)
{
	struct perfx_header *h = &s->header;
	bool all_id = true;
	__u64 type;
	int i;

	if (!h->nr_attrs) {
		pr_err("%s: byte offset %llu: SAMPLE record before any attr (EINVAL)\n",
		       s->name, (unsigned long long)pos);
		return -EINVAL;
	}
	s->by_id = false;
	s->id_all = true;
	perfx_header__attr_sample_type(&h->attrs[0], &s->sample_type);
	for (i = 0; i < h->nr_attrs; i++) {
		perfx_header__attr_sample_type(&h->attrs[i], &type);
		all_id &= !!(type & PERF_SAMPLE_IDENTIFIER);
		s->id_all &= attr__sample_id_all(&h->attrs[i]);
		if (type != s->sample_type)
			s->by_id = true;
	}
	if (s->by_id && !all_id) {
		pr_err("%s: byte offset %llu: the attrs' sample_types differ and not all have IDENTIFIER: cannot parse samples (EINVAL)\n",
		       s->name, (unsigned long long)pos);
		return -EINVAL;
	}
	if (s->by_id) {
		int err = session__hash_ids(s);

		if (err)
			return err;
	}
	s->sample_attrs = h->nr_attrs;
	return 0;
}

static int session__sample_type(struct perfx_session *s, __u64 id, __u64 *type)
{
	const struct perfx_session_id *e = session__id_slot(s, id);

	return e->attr ? perfx_header__attr_sample_type(e->attr, type) : -ENOENT;
}

/* the size of a sample's PERF_SAMPLE_READ fields at @p, by @a's read_format */
static __u64 read_size(const struct perfx_attr *a, const char *p, const char *end)
{
	__u64 format, head, value, nr;

	memcpy(&format, (const char *)a->attr + offsetof(struct perf_event_attr, read_format),
	       sizeof(format));
	head = 8 * (!!(format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
		    !!(format & PERF_FORMAT_TOTAL_TIME_RUNNING));
	value = 8 * (1 + !!(format & PERF_FORMAT_ID) + !!(format & PERF_FORMAT_LOST));
	if (!(format & PERF_FORMAT_GROUP))
		return head + value;
	if (end - p < 8)
		return ~0ULL;
	nr = perfx__get_u64(p);		/* then the times and nr values */
	if (nr > (__u64)(end - p) / value)
		return ~0ULL;
	return 8 + head + nr * value;
}

/* PERF_SAMPLE_CALLCHAIN's ips, of the body from @p on: 0, or -EINVAL */
static int sample__callchain(struct perfx_sample *sample, const struct perfx_attr *a,
			     __u64 type, const char *p, const char *end)
{
	__u64 skip = sample_id__sample_offset(type, PERF_SAMPLE_READ);

	if ((__u64)(end - p) < skip)
		return -EINVAL;
	p += skip;
	if (type & PERF_SAMPLE_READ) {
		skip = read_size(a, p, end);
		if ((__u64)(end - p) < skip)
			return -EINVAL;
		p += skip;
	}
	if (end - p < 8)
		return -EINVAL;
	sample->nr_callchain = perfx__get_u64(p);
	if (sample->nr_callchain > (__u64)(end - p - 8) / 8)
		return -EINVAL;
	sample->callchain = p + 8;
	return 0;
}

int perfx_session__parse_sample(struct perfx_session *s, const struct perf_event_header *ev,
				__u64 pos, struct perfx_sample *sample)
{
	const char *p = (const char *)(ev + 1), *end = (const char *)ev + ev->size;
	const struct perfx_attr *attr;
	__u64 type, id;
	int err;

	/* no attrs yet: the layout says so */
	if (!s->header.nr_attrs || s->sample_attrs != s->header.nr_attrs) {
		err = session__sample_layout(s, pos);
		if (err)
			return err;
	}
	if (!s->by_id)
		attr = &s->header.attrs[0];
	else
		attr = sample_id__sample_identifier(ev, &id) ? NULL : session__id_slot(s, id)->attr;
	if (!attr) {
		pr_err("%s: byte offset %llu: SAMPLE record of size %u: no attr has its id (EINVAL)\n",
		       s->name, (unsigned long long)pos, ev->size);
		return -EINVAL;
	}
	perfx_header__attr_sample_type(attr, &type);
	memset(sample, 0, sizeof(*sample));
	sample->cpumode = ev->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if ((__u64)(end - p) < sample_id__sample_offset(type, PERF_SAMPLE_ADDR) ||
	    ((type & PERF_SAMPLE_CALLCHAIN) && sample__callchain(sample, attr, type, p, end))) {
		pr_err("%s: byte offset %llu: SAMPLE record of size %u: too small for sample_type %#llx (EINVAL)\n",
		       s->name, (unsigned long long)pos, ev->size, (unsigned long long)type);
		return -EINVAL;
	}
	if (type & PERF_SAMPLE_IP) {
		sample->ip = perfx__get_u64(p + sample_id__sample_offset(type, PERF_SAMPLE_IP));
		sample->has_ip = true;
	}
	if (type & PERF_SAMPLE_TID) {
		const char *tid = p + sample_id__sample_offset(type, PERF_SAMPLE_TID);

		sample->pid = perfx__get_u32(tid);
		sample->tid = perfx__get_u32(tid + 4);
	}
	sample->time = type & PERF_SAMPLE_TIME ?
		       perfx__get_u64(p + sample_id__sample_offset(type, PERF_SAMPLE_TIME)) : ~0ULL;
	return 0;
}

int perfx_session__record_time(struct perfx_session *s, const struct perf_event_header *ev,
			       __u64 pos, __u64 *time)
{
	const char *trailer;
	__u64 type, id;
	int err;

	*time = 0;
	if (!s->header.nr_attrs)
		return 0;
	if (s->sample_attrs != s->header.nr_attrs) {
		err = session__sample_layout(s, pos);
		if (err)
			return err;
	}
	type = s->sample_type;
	/*
	 * IDENTIFIER is the last field: it says whose fields these are; 0 in
	 * a synthesized record, whose fields are the first attr's (as perf's)
	 */
	if (s->id_all && s->by_id &&
	    (sample_id__identifier(ev, &id) || (id && session__sample_type(s, id, &type)))) {
		pr_err("%s: byte offset %llu: %s record of size %u: no attr has the id of its sample_id fields (EINVAL)\n",
		       s->name, (unsigned long long)pos, perfx_record__name(ev->type), ev->size);
		return -EINVAL;
	}
	if (!s->id_all || !(type & PERF_SAMPLE_TIME))
		return 0;
	if (sample_id__trailer(ev, type, &trailer)) {
		pr_err("%s: byte offset %llu: %s record of size %u: too small for the sample_id fields of sample_type %#llx (EINVAL)\n",
		       s->name, (unsigned long long)pos, perfx_record__name(ev->type), ev->size,
		       (unsigned long long)type);
		return -EINVAL;
	}
	*time = perfx__get_u64(trailer + sample_id__offset(type, PERF_SAMPLE_TIME));
	return 0;
}
