// SPDX-License-Identifier: GPL-2.0
/*
 * The PERF_EVENT_IOC_ATTACH_CGROUP / READ_CGROUP ABI, as the kernel series
 * defines it (v5; include/uapi/linux/perf_event.h of the patched tree):
 * both take an extensible struct whose size is the one the ioctl number
 * encodes (_IOC_SIZE(), as seccomp's ADDFD), pointers as __u64; unknown
 * flags, non-zero reserved fields or tail bytes are -EINVAL.
 *
 *   ATTACH  _IOWR, struct perf_event_cgroup_attach { flags, nr, ids,
 *           err_index, reserved }: nr == 0 detaches.  -EINVAL: the kernel
 *           does not know the request; -E2BIG above 65536 ids, or
 *           above 524288 ids times the members of the group;
 *           -EOPNOTSUPP: the event does not qualify (only a CPU-wide
 *           counting group leader of a PMU that counts per task does),
 *           checked before any id; then, with ids[err_index] written back:
 *           -ENODEV, that cgroup has no perf_event state of its own
 *           (perf_event on a v1 hierarchy or disabled: err_index 0);
 *           -ENOENT, no such live cgroup visible to the caller; -EEXIST,
 *           named earlier in ids.  -EAGAIN: the group kept changing
 *           size during the call; -EINTR: a fatal signal.  -ENOTTY: a
 *           kernel without the ioctl or without CONFIG_CGROUP_PERF.
 *   READ    struct perf_event_cgroup_read { flags, reserved, id, buf,
 *           buf_size }: with a cgroup id the values at buf follow the
 *           event's read_format; with id 0 every attached cgroup at once:
 *           { nr, { id, values... }[nr] }; with PERF_FORMAT_GROUP (through
 *           the leader) the values are the group's read(2) layout
 *           { nr, [ena], [run], { value, [id], [lost] }[nr] } for every
 *           member open, that cgroup's counts, every member's taken
 *           at the same points.
 *           Returns the bytes written at buf; -ENOSPC (with the size
 *           needed stored in buf_size) when the buffer is too small,
 *           -ENOENT for an id not attached, -EAGAIN when the set or the
 *           group changed during the call (buf is incomplete: read
 *           again), -EINTR with a fatal signal pending.
 *
 * Reading is one batch call per event (per group leader) per CPU.  The
 * caller counts the syscalls through @nr_syscalls so the benchmark can
 * report them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "cgroup-share.h"
#include "debug.h"
#include "evsel.h"

int cgroup_share__attach(int fd, const __u64 *ids, int nr, int *err_index)
{
	struct perf_event_cgroup_attach arg = {
		.nr = nr,
		.ids = (uintptr_t)ids,
	};
	int err;

	*err_index = -1;
	if (nr < 0)
		return -EINVAL;
	if (ioctl(fd, PERF_EVENT_IOC_ATTACH_CGROUP, &arg) >= 0)
		return 0;
	err = -errno;
	/* only these name an id; trust no index past the ids given */
	if ((err == -ENODEV || err == -ENOENT || err == -EEXIST) && arg.err_index < (__u32)nr)
		*err_index = arg.err_index;
	return err;
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

/*
 * One batch READ_CGROUP into @buf of @size bytes: the bytes written or
 * -errno; -EAGAIN is retried up to CGROUP_SHARE_READ_TRIES calls in all.
 */
static int read_batch(int fd, __u64 *buf, size_t size, unsigned long *nr_syscalls)
{
	struct perf_event_cgroup_read arg;
	int tries, ret = -EAGAIN;

	for (tries = 0; tries < CGROUP_SHARE_READ_TRIES && ret == -EAGAIN; tries++) {
		arg = (struct perf_event_cgroup_read){
			.id = 0,
			.buf = (uintptr_t)buf,
			.buf_size = size,
		};
		if (nr_syscalls)
			(*nr_syscalls)++;
		ret = ioctl(fd, PERF_EVENT_IOC_READ_CGROUP, &arg);
		if (ret < 0)
			ret = -errno;
	}
	return ret;
}

int cgroup_share__read(int fd, __u64 read_format, int nr_cntr, const __u64 *ids, int nr,
		       struct evsel_counts *out, unsigned long *nr_syscalls)
{
	char why[128];
	size_t size;
	__u64 *buf;
	int ret, err;

	if (nr < 0 || check_cntr(read_format, nr_cntr))
		return -EINVAL;
	size = (1 + (size_t)nr * (1 + cgroup_values_size(read_format, nr_cntr))) *
	       sizeof(__u64);
	buf = calloc(1, size);
	if (!buf)
		return -ENOMEM;
	ret = read_batch(fd, buf, size, nr_syscalls);
	if (ret < 0) {
		err = ret;
		if (err == -EAGAIN)
			pr_debug("READ_CGROUP for %d cgroups: the set kept changing, %d calls\n",
				 nr, CGROUP_SHARE_READ_TRIES);
		goto out_free;
	}
	if ((size_t)ret > size) {
		snprintf(why, sizeof(why), "a reply of %d bytes in a buffer of %zu", ret, size);
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

/* "cgroup 'NAME' (PATH)", or "a cgroup" when the kernel named none */
static const char *cgroup_named(const struct cgroup *cgrp, char *buf, size_t size)
{
	if (!cgrp)
		return "a cgroup";
	snprintf(buf, size, "cgroup '%s' (%s)", cgrp->name, cgrp->path);
	return buf;
}

/* -ENODEV: what is missing, and what to do, by where perf_event is */
static const char *nodev_why(const struct cgroup_share_refusal *r, char *buf, size_t size)
{
	switch (r->ctrl) {
	case CGROUP_CONTROLLER_V1:
		return "the perf_event controller is bound to a cgroup v1 hierarchy: unmount it there to count cgroup2 cgroups";
	case CGROUP_CONTROLLER_DISABLED:
		return "the perf_event controller is disabled (cgroup_disable=perf_event on the kernel command line)";
	default:
		break;
	}
	/*
	 * perf_event is implicit on cgroup2 (no '+perf_event' to write), but
	 * kernels without the cgroup2 fix give it to no cgroup until
	 * something wrote the root's cgroup.subtree_control
	 */
	snprintf(buf, size, "the kernel gave it none; without the cgroup2 fix, cgroups get it once something writes the root's cgroup.subtree_control: enable a controller there (e.g. echo +pids > %s/cgroup.subtree_control)%s",
		 r->mnt && r->mnt[0] ? r->mnt : "<cgroup2 mount>",
		 r->ctrl == CGROUP_CONTROLLER_V2 ? "" :
		 ", or perf_event is bound to cgroup v1 or disabled");
	return buf;
}

const char *cgroup_share__strerror(const struct cgroup_share_refusal *r, char *buf,
				   size_t size)
{
	char name[PATH_MAX + 256], why[PATH_MAX + 256];
	const char *errname;

	switch (r->err) {
	case -ENOTTY:
		/* the words of the fallback as it always was */
		snprintf(buf, size, "the running kernel has no PERF_EVENT_IOC_ATTACH_CGROUP (ENOTTY): it needs the shared-cgroup perf series");
		break;
	case -EINVAL:
		snprintf(buf, size, "the kernel does not take perfx's PERF_EVENT_IOC_ATTACH_CGROUP request (EINVAL): it follows another version of the shared-cgroup ABI");
		break;
	case -E2BIG:
		snprintf(buf, size, "too many cgroups for one event (E2BIG): %d, the kernel takes at most %d, and at most %d cgroups times the members of an event group",
			 r->nr, CGROUP_SHARE_ATTACH_MAX, CGROUP_SHARE_ATTACH_ENTRIES);
		break;
	case -EOPNOTSUPP:
		snprintf(buf, size, "the event cannot be counted per cgroup (EOPNOTSUPP): its PMU does not count per task (an uncore or AUX PMU)");
		break;
	case -ENODEV:
		snprintf(buf, size, "%s has no perf_event controller state (ENODEV): %s",
			 cgroup_named(r->cgrp, name, sizeof(name)), nodev_why(r, why, sizeof(why)));
		break;
	case -ENOENT:
		snprintf(buf, size, "%s is gone or not visible here (ENOENT): it was removed after perfx found it, or is outside this cgroup namespace",
			 cgroup_named(r->cgrp, name, sizeof(name)));
		break;
	case -EEXIST:
		if (r->cgrp && r->first && strcmp(r->cgrp->name, r->first->name))
			snprintf(why, sizeof(why), "it is cgroup '%s', named before it; ",
				 r->first->name);
		else
			why[0] = '\0';
		snprintf(buf, size, "%s is named twice (EEXIST): %sname each cgroup once",
			 cgroup_named(r->cgrp, name, sizeof(name)), why);
		break;
	default:
		errname = strerrorname_np(-r->err);
		snprintf(buf, size, "the kernel refused to attach the cgroups: %s (%s)",
			 strerror(-r->err), errname ? errname : "?");
		break;
	}
	return buf;
}
