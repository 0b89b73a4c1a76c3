// SPDX-License-Identifier: GPL-2.0
/*
 * perf's answers to an event the kernel refused: its default cycles at
 * the most precise level the PMU takes, cpu-clock where there is no PMU,
 * user space only where the paranoid level keeps users out of the kernel
 * (perf's evsel__new_cycles() and evsel__fallback()), and a kernel
 * without PERF_FORMAT_LOST for the whole list (evlist__fallback()).
 */
#define _GNU_SOURCE
#include <errno.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "debug.h"
#include "evlist-internal.h"
#include "evsel-internal.h"

int evsel__paranoid_level(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int level = 2;

	if (f) {
		if (fscanf(f, "%d", &level) != 1)
			level = 2;
		fclose(f);
	}
	return level;
}

bool evsel__fallback_user(struct evsel *evsel)
{
	const char *sep = ":";
	int paranoid;
	char *name;

	if (evsel->attr.exclude_kernel || evsel->attr.exclude_user)
		return false;
	paranoid = evsel__paranoid_level();
	if (paranoid <= 1)
		return false;
	/* as perf: "cycles:u", but "cpu/event=0x3c/u" and "cycles:ku" */
	if (strchr(evsel->name, '/') || strchr(evsel->name, ':'))
		sep = "";
	if (asprintf(&name, "%s%su", evsel->name, sep) < 0)
		return false;
	pr_info("kernel.perf_event_paranoid=%d, trying to fall back to excluding kernel and hypervisor  samples\n",
		paranoid);
	free(evsel->name);
	evsel->name = name;
	evsel->attr.exclude_kernel = 1;
	evsel->attr.exclude_hv = 1;
	return true;
}

/*
 * perf 6.1 excludes the guest from its default cycles, but not on AMD,
 * whose precise cycles go through IBS, which cannot filter the guest out
 * (its arch_evsel__fixup_new_cycles()): the CPU vendor decides
 */
static bool evsel__cycles_exclude_guest(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int eax, ebx, ecx, edx;
	char vendor[13];

	if (__get_cpuid(0, &eax, &ebx, &ecx, &edx)) {
		memcpy(vendor, &ebx, 4);
		memcpy(vendor + 4, &edx, 4);
		memcpy(vendor + 8, &ecx, 4);
		vendor[12] = '\0';
		return strcmp(vendor, "AuthenticAMD");
	}
#endif
	return true;
}

struct evsel *evsel__new_cycles(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_HARDWARE,
		.config = PERF_COUNT_HW_CPU_CYCLES,
		.precise_ip = 3,
		.exclude_guest = evsel__cycles_exclude_guest(),
	};
	struct evsel *evsel = evsel__new(&attr, "cycles:P");

	if (evsel)
		evsel->precise_max = true;
	return evsel;
}

/* @base and the modifiers perf's evsel__add_modifiers() reads from the attr */
static int evsel__rename(struct evsel *evsel, const char *base)
{
	const struct perf_event_attr *attr = &evsel->attr;
	bool excl_guest_default = false;
	char mods[16] = "", *m = mods, *name;

	if (attr->exclude_kernel || attr->exclude_user || attr->exclude_hv) {
		if (!attr->exclude_kernel)
			*m++ = 'k';
		if (!attr->exclude_user)
			*m++ = 'u';
		if (!attr->exclude_hv)
			*m++ = 'h';
		excl_guest_default = true;
	}
	if (attr->precise_ip) {
		m += sprintf(m, "%.*s", (int)attr->precise_ip, "ppp");
		excl_guest_default = true;
	}
	if (attr->exclude_host || attr->exclude_guest == excl_guest_default) {
		if (!attr->exclude_host)
			*m++ = 'H';
		if (!attr->exclude_guest)
			*m++ = 'G';
	}
	*m = '\0';
	if (asprintf(&name, "%s%s%s", base, *mods ? ":" : "", mods) < 0)
		return -ENOMEM;
	free(evsel->name);
	evsel->name = name;
	return 0;
}

bool evsel__fallback(struct evsel *evsel, int err)
{
	struct perf_event_attr *attr = &evsel->attr;

	if (evsel__match(evsel, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES)) {
		if (evsel->precise_max && err == -EOPNOTSUPP && attr->precise_ip) {
			attr->precise_ip--;
			return true;
		}
		/* no PMU (a VM, TCG): perf's hrtimer-based stand-in, any cycles event */
		if (err == -ENOENT || err == -ENXIO || err == -ENODEV ||
		    (evsel->precise_max && (err == -EOPNOTSUPP || err == -EINVAL))) {
			pr_info("Warning:\nThe cycles event is not supported, trying to fall back to cpu-clock-ticks\n");
			attr->type = PERF_TYPE_SOFTWARE;
			attr->config = PERF_COUNT_SW_CPU_CLOCK;
			return !evsel__rename(evsel, "cpu-clock");
		}
	}
	return (err == -EACCES || err == -EPERM) && evsel__fallback_user(evsel);
}

bool evlist__fallback(struct evlist *evlist, struct evsel *failed, int err)
{
	__u64 lost = 0;
	int i;

	if (err == -EINVAL) {
		for (i = 0; i < evlist->nr; i++) {
			lost |= evlist->entries[i]->attr.read_format & PERF_FORMAT_LOST;
			evlist->entries[i]->attr.read_format &= ~(__u64)PERF_FORMAT_LOST;
		}
		if (lost)
			return true;
	}
	return evsel__fallback(failed, err);
}
