// SPDX-License-Identifier: GPL-2.0
/*
 * Proves that build-ids are found in raw notes and ELF files (and not in
 * garbage), that DSOs are found again by name, and that a sample's
 * address maps to the newest map covering it, in its process, a forked
 * child or the kernel.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <string.h>

#include "lib/build-id.h"
#include "lib/dso.h"
#include "lib/machine.h"
#include "tests/tap.h"

static char dir[PATH_MAX];

/* the DSO of the newest map of @ip, or NULL */
static struct dso *find_dso(struct machine *m, __u16 cpumode, __u32 pid, __u64 ip)
{
	const struct map *map = machine__find_map(m, cpumode, pid, ip, ~0ULL);

	return map ? map->dso : NULL;
}

static void test_notes(void)
{
	/* a "Xen" note, then GNU's build-id, then a truncated note */
	static const unsigned char notes[] = {
		4, 0, 0, 0, 4, 0, 0, 0, 6, 0, 0, 0, 'X', 'e', 'n', 0, 1, 2, 3, 4,
		4, 0, 0, 0, 8, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0,
		0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3,
		4, 0, 0, 0, 0xff, 0xff, 0, 0, 3, 0, 0, 0,
	};
	struct build_id bid;
	char s[2 * BUILD_ID_SIZE + 1];
	int err;

	err = build_id__parse_notes(notes, sizeof(notes), &bid);
	build_id__snprintf(&bid, s);
	tap_ok(!err && !strcmp(s, "deadbeef00010203"), "raw notes: GNU's note after another (%s)", s);
	tap_ok(build_id__parse_notes(notes, 30, &bid) == -ENOENT,
	       "raw notes cut inside the build-id note: ENOENT");
	tap_ok(build_id__parse_notes(notes + 40, sizeof(notes) - 40, &bid) == -ENOENT,
	       "a note whose size runs past the end: ENOENT");
}

/* the first page of this test's ELF file, as build_id__read_elf() reads it */
static size_t read_head(unsigned char *head, size_t len)
{
	int fd = open("/proc/self/exe", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : pread(fd, head, len, 0);

	if (fd >= 0)
		close(fd);
	return n > 0 ? n : 0;
}

/* this test's ELF file copied to @path, its first @n bytes replaced by @head */
static void copy_self(const char *path, const void *head, size_t n)
{
	int in = open("/proc/self/exe", O_RDONLY);
	int out = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	ssize_t ret;

	if (in < 0 || out < 0)
		abort();
	while ((ret = copy_file_range(in, NULL, out, NULL, 1 << 20, 0)) > 0)
		;
	if (ret < 0 || pwrite(out, head, n, 0) != (ssize_t)n)
		abort();
	close(in);
	close(out);
}

/*
 * The program headers' notes give what libelf gives; a head cut short
 * gives nothing; a file without note segments still has its build-id,
 * from the sections.
 */
static void test_elf_head(const struct build_id *want)
{
	unsigned char head[4096];
	char copy[PATH_MAX + 16];
	size_t n = read_head(head, sizeof(head));
	struct build_id bid;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int i, err;

	err = build_id__parse_elf_head(head, n, &bid);
	tap_ok(!err && bid.size == want->size && !memcmp(bid.data, want->data, bid.size),
	       "the first page's PT_NOTE: the build-id of the whole file (%d)", err);
	memcpy(&eh, head, sizeof(eh));
	tap_ok(build_id__parse_elf_head(head, sizeof(eh), &bid) == -ENOENT &&
	       build_id__parse_elf_head(head, eh.e_phoff + sizeof(ph), &bid) == -ENOENT,
	       "a head cut before its program headers end: ENOENT");
	for (i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, head + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_NOTE)
			ph.p_type = PT_NULL;
		memcpy(head + eh.e_phoff + i * sizeof(ph), &ph, sizeof(ph));
	}
	snprintf(copy, sizeof(copy), "%s/copy.elf", dir);
	copy_self(copy, head, n);
	err = build_id__read_elf(copy, &bid);
	unlink(copy);
	tap_ok(build_id__parse_elf_head(head, n, &bid) == -ENOENT,
	       "no PT_NOTE: nothing from the program headers");
	tap_ok(!err && bid.size == want->size && !memcmp(bid.data, want->data, bid.size),
	       "no PT_NOTE: the build-id from the sections, through libelf (%d)", err);
}

static void test_elf(void)
{
	struct build_id bid, self;
	int err;

	err = build_id__read_elf("/proc/self/exe", &self);
	tap_ok(!err && self.size == 20, "this test's ELF file has a 20-byte build-id (%d)", err);
	tap_ok(build_id__read_elf("/etc/passwd", &bid) == -ENOENT, "a text file: ENOENT");
	tap_ok(build_id__read_elf("/nonexistent", &bid) == -ENOENT, "a missing file: ENOENT");
	test_elf_head(&self);
	err = build_id__read_notes("/sys/kernel/notes", &bid);
	if (err == -ENOENT || err == -EACCES)
		tap_skip("the kernel's build-id", "no readable /sys/kernel/notes");
	else
		tap_ok(!err && bid.size, "the kernel's build-id from /sys/kernel/notes (%d)", err);
}

static void test_dsos(void)
{
	struct dso *a, *b, *c;
	struct dsos dsos;
	char name[32];
	int i, err = 0;

	dsos__init(&dsos);
	dsos__findnew(&dsos, "/usr/bin/lsXYZ", 11, &a);
	dsos__findnew(&dsos, "/usr/bin/ls", 11, &b);
	dsos__findnew(&dsos, "/usr/bin/l", 10, &c);
	tap_ok(a == b && b != c && !strcmp(a->name, "/usr/bin/ls"),
	       "a name finds its DSO again, a prefix is another");
	for (i = 0; i < 2000; i++) {
		snprintf(name, sizeof(name), "/lib/%d.so", i);
		err |= dsos__findnew(&dsos, name, strlen(name), &c);
	}
	dsos__findnew(&dsos, "/usr/bin/ls", 11, &b);
	tap_ok(!err && a == b && dsos.nr_buckets > 256, "2000 more DSOs: the table grew, ls is still there");
	dso__set_build_id(a, "\x01\x02", 2);
	tap_ok(!dso__read_build_id(a) && a->bid.size == 2, "an MMAP2's build-id is not read again");
	dsos__exit(&dsos);
}

static void test_machine(void)
{
	struct machine m;
	struct dso *libc, *ls, *k, *mod;

	machine__init(&m);
	machine__add_map(&m, PERF_RECORD_MISC_USER, 10, 0x1000, 0x1000, 0, "/lib/libc.so", 12, &libc);
	machine__add_map(&m, PERF_RECORD_MISC_USER, 10, 0x1800, 0x100, 0, "/bin/ls", 7, &ls);
	machine__add_map(&m, PERF_RECORD_MISC_KERNEL, -1, 0xffff0000, ~0ULL - 0xffff0000,
			 0, "[kernel.kallsyms]_text", 22, &k);
	machine__add_map(&m, PERF_RECORD_MISC_KERNEL, -1, 0xffff8000, 0x1000, 0, "/m/x.ko", 7, &mod);
	tap_ok(find_dso(&m, PERF_RECORD_MISC_USER, 10, 0x1000) == libc &&
	       find_dso(&m, PERF_RECORD_MISC_USER, 10, 0x1850) == ls &&
	       find_dso(&m, PERF_RECORD_MISC_USER, 10, 0x1950) == libc,
	       "the newest map covering an address wins");
	tap_ok(!find_dso(&m, PERF_RECORD_MISC_USER, 11, 0x1000) &&
	       !find_dso(&m, PERF_RECORD_MISC_USER, 10, 0x2000),
	       "another process or an unmapped address: no DSO");
	tap_ok(find_dso(&m, PERF_RECORD_MISC_KERNEL, 0, 0xffffffff00000000ULL) == k &&
	       !strcmp(k->name, DSO_KERNEL_NAME) &&
	       find_dso(&m, PERF_RECORD_MISC_KERNEL, 0, 0xffff8010) == mod,
	       "kernel samples: [kernel.kallsyms] to the top, a module inside it");
	machine__fork(&m, 12, 10, 0);
	machine__add_map(&m, PERF_RECORD_MISC_USER, 12, 0x1000, 0x1000, 0, "/bin/sh", 7, &ls);
	tap_ok(find_dso(&m, PERF_RECORD_MISC_USER, 12, 0x1000) == ls &&
	       find_dso(&m, PERF_RECORD_MISC_USER, 10, 0x1000) == libc,
	       "a forked child has its parent's maps, and its own after");
	tap_ok(!find_dso(&m, PERF_RECORD_MISC_GUEST_USER, 10, 0x1000),
	       "guest samples: no DSO");
	for (int i = 0; i < 1000; i++)
		machine__add_map(&m, PERF_RECORD_MISC_USER, 10, 0x1000, 0x1000, 0, "/bin/sh", 7, &ls);
	tap_ok(m.procs[0].maps.nr == 2 &&
	       find_dso(&m, PERF_RECORD_MISC_USER, 10, 0x1850) == ls,
	       "1000 maps of the same range: two kept, the newest found (%d)",
	       m.procs[0].maps.nr);
	machine__exit(&m);
}

int main(void)
{
	tap_start("build-id");
	if (!tap_ok(!tap_tmpdir(dir, sizeof(dir)), "a directory of its own"))
		return tap_done();
	test_notes();
	test_elf();
	test_dsos();
	test_machine();
	if (tap_rmdir(dir))
		tap_ok(0, "remove %s", dir);
	return tap_done();
}
