// SPDX-License-Identifier: GPL-2.0
/*
 * The PERF_EVENT_IOC_ATTACH_CGROUP / READ_CGROUP ABI, as the kernel series
 * defines it (include/uapi/linux/perf_event.h of the patched tree): both
 * take an extensible struct led by { size, flags } (unknown flags and
 * non-zero reserved fields -EINVAL, a larger size with a non-zero tail
 * -E2BIG), with pointers as __u64.
 *
 *   ATTACH  struct perf_event_cgroup_attach { size, flags, nr, reserved,
 *           ids }: nr == 0 detaches.  Only CPU-wide, non-sampling,
 *           non-cgroup counting events qualify (-EINVAL otherwise);
 *           -ENOENT for an id that is not a live cgroup; -E2BIG above
 *           65536 ids; -EOPNOTSUPP for a PMU without a task context, or
 *           with perf_event on a cgroup v1 hierarchy or disabled.
 *   READ    struct perf_event_cgroup_read { size, flags, id, buf,
 *           buf_size }: with a cgroup id the values at buf follow the
 *           event's read_format; with id 0 every attached cgroup at once:
 *           { nr, { id, values... }[nr] }; with PERF_FORMAT_GROUP (through
 *           the leader) the values are the group's read(2) layout
 *           { nr, [ena], [run], { value, [id], [lost] }[nr] } for every
 *           member open, that cgroup's counts.  Returns the bytes written
 *           at buf; -ENOSPC (with the size needed stored in buf_size) when
 *           the buffer is too small, -ENOENT for an id not attached.
 *
 * Reading is one batch call per event (per group leader) per CPU.  The
 * caller counts the syscalls through @nr_syscalls so the benchmark can
 * report them.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "cgroup-share.h"
#include "debug.h"
#include "evsel.h"

int cgroup_share__attach(int fd, const __u64 *ids, int nr)
{
	struct perf_event_cgroup_attach arg = {
		.size = sizeof(arg),
		.nr = nr,
		.ids = (uintptr_t)ids,
	};

	if (nr < 0)
		return -EINVAL;
	return ioctl(fd, PERF_EVENT_IOC_ATTACH_CGROUP, &arg) < 0 ? -errno : 0;
}

/* words of one event's values in a non-group read */
static size_t read_values_size(__u64 read_format)
{
	size_t n = 1;

	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		n++;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		n++;
	if (read_format & PERF_FORMAT_ID)
		n++;
	if (read_format & PERF_FORMAT_LOST)
		n++;
	return n;
}

/*
 * Words of one cgroup's values: those of a read(2) of the event, which with
 * PERF_FORMAT_GROUP is { nr, [ena], [run], { value, [id], [lost] }[nr] }
 * for the @nr_cntr counters of the group.
 */
static size_t cgroup_values_size(__u64 read_format, int nr_cntr)
{
	size_t n = 1, cntr = 1;

	if (!(read_format & PERF_FORMAT_GROUP))
		return read_values_size(read_format);
	if (read_format & PERF_FORMAT_TOTAL_TIME_ENABLED)
		n++;
	if (read_format & PERF_FORMAT_TOTAL_TIME_RUNNING)
		n++;
	if (read_format & PERF_FORMAT_ID)
		cntr++;
	if (read_format & PERF_FORMAT_LOST)
		cntr++;
	return n + (size_t)nr_cntr * cntr;
}

/*
 * One cgroup's values at @v, cgroup_values_size() words, into
 * @out[0..nr_cntr-1]: every counter of a group gets the group's times.
 * -EPROTO when a group's count of counters is not @nr_cntr.
 */
static int parse_values(const __u64 *v, __u64 read_format, int nr_cntr,
			struct evsel_counts *out, char *why, size_t whylen, __u64 id)
{
	__u64 nr, ena, run;
	int m;

	if (!(read_format & PERF_FORMAT_GROUP)) {
		out->val = *v++;
		out->ena = read_format & PERF_FORMAT_TOTAL_TIME_ENABLED ? *v++ : 0;
		out->run = read_format & PERF_FORMAT_TOTAL_TIME_RUNNING ? *v : 0;
		return 0;
	}
	nr = *v++;
	if (nr != (__u64)nr_cntr) {
		snprintf(why, whylen, "a group of %llu counters for cgroup id %llu, expected %d",
			 (unsigned long long)nr, (unsigned long long)id, nr_cntr);
		return -EPROTO;
	}
	ena = read_format & PERF_FORMAT_TOTAL_TIME_ENABLED ? *v++ : 0;
	run = read_format & PERF_FORMAT_TOTAL_TIME_RUNNING ? *v++ : 0;
	for (m = 0; m < nr_cntr; m++) {
		out[m].val = *v++;
		out[m].ena = ena;
		out[m].run = run;
		if (read_format & PERF_FORMAT_ID)
			v++;
		if (read_format & PERF_FORMAT_LOST)
			v++;
	}
	return 0;
}

/* a group read needs at least its leader; a plain read is one counter */
static int check_cntr(__u64 read_format, int nr_cntr)
{
	if (read_format & PERF_FORMAT_GROUP)
		return nr_cntr >= 1 && nr_cntr <= 65536 ? 0 : -EINVAL;
	return nr_cntr == 1 ? 0 : -EINVAL;
}

int cgroup_share__parse_reply(const __u64 *reply, size_t bytes, __u64 read_format,
			      int nr_cntr, const __u64 *ids, int nr, struct evsel_counts *out,
			      char *why, size_t whylen)
{
	struct evsel_counts *tmp = NULL;
	const __u64 *v = reply;
	int i, k, err = 0;
	char *seen = NULL;
	size_t per;
	__u64 got;

	why[0] = '\0';
	if (nr < 0 || check_cntr(read_format, nr_cntr))
		return -EINVAL;
	per = 1 + cgroup_values_size(read_format, nr_cntr);
	if (bytes < sizeof(__u64) || bytes % sizeof(__u64)) {
		snprintf(why, whylen, "a reply of %zu bytes, expected a count and %zu words a cgroup",
			 bytes, per);
		return -EPROTO;
	}
	got = *v++;
	if (got > (__u64)nr) {
		snprintf(why, whylen, "a reply for %llu cgroups, expected at most the %d attached",
			 (unsigned long long)got, nr);
		return -EPROTO;
	}
	if (bytes != sizeof(__u64) * (1 + got * per)) {
		snprintf(why, whylen, "a reply of %zu bytes for %llu cgroups, expected %llu",
			 bytes, (unsigned long long)got,
			 (unsigned long long)(sizeof(__u64) * (1 + got * per)));
		return -EPROTO;
	}
	tmp = calloc((size_t)(nr ? nr : 1) * nr_cntr, sizeof(*tmp));
	seen = calloc(nr ? nr : 1, 1);
	if (!tmp || !seen) {
		err = -ENOMEM;
		goto out_free;
	}
	for (k = 0; (__u64)k < got; k++, v += per) {
		__u64 id = v[0];

		/* the kernel answers in attach order: search only if it did not */
		i = k < nr && ids[k] == id && !seen[k] ? k : 0;
		for (; i < nr && (ids[i] != id || seen[i]); i++)
			;
		if (i == nr) {
			for (i = 0; i < nr && ids[i] != id; i++)
				;
			snprintf(why, whylen, "%s cgroup id %llu in the reply",
				 i < nr ? "a duplicate" : "an unknown", (unsigned long long)id);
			err = -EPROTO;
			goto out_free;
		}
		err = parse_values(v + 1, read_format, nr_cntr, &tmp[(size_t)i * nr_cntr], why,
				   whylen, id);
		if (err)
			goto out_free;
		seen[i] = 1;
	}
	for (i = 0; i < nr; i++) {
		if (!seen[i]) {
			snprintf(why, whylen, "cgroup id %llu is not in the reply",
				 (unsigned long long)ids[i]);
			err = -ENOENT;	/* detached behind our back */
			goto out_free;
		}
	}
	if (nr)
		memcpy(out, tmp, (size_t)nr * nr_cntr * sizeof(*out));
out_free:
	free(seen);
	free(tmp);
	return err;
}

int cgroup_share__read(int fd, __u64 read_format, int nr_cntr, const __u64 *ids, int nr,
		       struct evsel_counts *out, unsigned long *nr_syscalls)
{
	struct perf_event_cgroup_read arg = { .size = sizeof(arg), .id = 0 };
	char why[128];
	int ret, err;
	__u64 *buf;

	if (nr < 0 || check_cntr(read_format, nr_cntr))
		return -EINVAL;
	arg.buf_size = (1 + (size_t)nr * (1 + cgroup_values_size(read_format, nr_cntr))) *
		       sizeof(__u64);
	buf = calloc(1, arg.buf_size);
	if (!buf)
		return -ENOMEM;
	arg.buf = (uintptr_t)buf;
	if (nr_syscalls)
		(*nr_syscalls)++;
	ret = ioctl(fd, PERF_EVENT_IOC_READ_CGROUP, &arg);
	if (ret < 0) {
		err = -errno;
		goto out_free;
	}
	if ((__u64)ret > arg.buf_size) {
		snprintf(why, sizeof(why), "a reply of %d bytes in a buffer of %llu", ret,
			 (unsigned long long)arg.buf_size);
		err = -EPROTO;
	} else {
		err = cgroup_share__parse_reply(buf, ret, read_format, nr_cntr, ids, nr, out,
						why, sizeof(why));
	}
	if (err == -EPROTO)
		pr_err("READ_CGROUP for %d cgroups: %s\n", nr, why);
	else if (err)
		pr_debug("READ_CGROUP for %d cgroups: %s\n", nr, why);
out_free:
	free(buf);
	return err;
}

const char *cgroup_share__strerror(int err)
{
	switch (err) {
	case -ENOTTY:
		return "the running kernel has no PERF_EVENT_IOC_ATTACH_CGROUP (ENOTTY): it needs the shared-cgroup perf series";
	case -EINVAL:
		return "the kernel refused the cgroup list (EINVAL): only CPU-wide counting events can share cgroups, each cgroup once";
	case -EOPNOTSUPP:
		return "the event cannot count cgroups in shared mode (EOPNOTSUPP): its PMU has no task context, or perf_event is not on cgroup2";
	case -ENOENT:
		return "a cgroup id is unknown to the kernel (ENOENT)";
	case -E2BIG:
		return "too many cgroups for one event (E2BIG)";
	default:
		return "the kernel refused to attach the cgroups";
	}
}
