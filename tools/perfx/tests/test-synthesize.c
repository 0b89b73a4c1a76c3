// SPDX-License-Identifier: GPL-2.0
/*
 * Proves the synthesized records byte for byte on a fake /proc tree (misc
 * bits, prot and flags, //anon, hugetlbfs, data maps, the id_hdr trailer,
 * the kernel's and modules' MMAPs), tasks gone mid-scan skipped, the
 * proc-map timeout marking the map it stopped at; then, on the real /proc
 * with a population of still processes, that 1, 4 and the chosen number
 * of threads write the same bytes for it, with exact record counts, and
 * so does the BPF task iterator where it loads, with and without data
 * maps: deleted files, shared maps, names with a newline, a thread name
 * with a backslash, a process with more maps than the iterator writes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/data.h"
#include "lib/debug.h"
#include "lib/synthesize.h"
#include "lib/threadmap.h"
#include "tests/tap.h"

#define ID_HDR	16

static char root[64];
static char warnings[4096];

static int capture(enum perfx_print_level level, const char *fmt, va_list ap)
{
	size_t len = strlen(warnings);

	if (level <= PERFX_WARN && len < sizeof(warnings))
		vsnprintf(warnings + len, sizeof(warnings) - len, fmt, ap);
	return 0;
}

static void put(const char *rel, const char *text)
{
	char path[256], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	if (!text)
		return;
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The expected stream, each record laid out field by field */
struct expect {
	char	buf[65536];
	size_t	len;
};

static void exp_put(struct expect *e, const void *p, size_t len)
{
	memcpy(e->buf + e->len, p, len);
	e->len += len;
}

static void exp_header(struct expect *e, __u32 type, __u16 misc, size_t body)
{
	struct perf_event_header h = { type, misc, sizeof(h) + body + ID_HDR };

	exp_put(e, &h, sizeof(h));
}

static void exp_name(struct expect *e, const char *name, size_t field)
{
	char zeros[4200] = { 0 };

	strncpy(zeros, name, field);
	exp_put(e, zeros, field + ID_HDR);	/* the name, its padding, the trailer */
}

static void exp_comm(struct expect *e, __u32 pid, __u32 tid, const char *comm, size_t field)
{
	exp_header(e, PERF_RECORD_COMM, 0, 8 + field);
	exp_put(e, &pid, 4);
	exp_put(e, &tid, 4);
	exp_name(e, comm, field);
}

static void exp_fork(struct expect *e, __u32 pid, __u32 ppid, __u32 tid, __u32 ptid)
{
	__u64 time = 0;

	exp_header(e, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC, 24);
	exp_put(e, &pid, 4);
	exp_put(e, &ppid, 4);
	exp_put(e, &tid, 4);
	exp_put(e, &ptid, 4);
	exp_put(e, &time, 8);
	exp_name(e, "", 0);
}

static void exp_mmap2(struct expect *e, __u16 misc, __u32 pid, __u64 start, __u64 len,
		      __u64 pgoff, __u32 maj, __u32 min, __u64 ino, __u32 prot, __u32 flags,
		      const char *name, size_t field)
{
	__u64 gen = 0;

	exp_header(e, PERF_RECORD_MMAP2, misc, 64 + field);
	exp_put(e, &pid, 4);
	exp_put(e, &pid, 4);
	exp_put(e, &start, 8);
	exp_put(e, &len, 8);
	exp_put(e, &pgoff, 8);
	exp_put(e, &maj, 4);
	exp_put(e, &min, 4);
	exp_put(e, &ino, 8);
	exp_put(e, &gen, 8);
	exp_put(e, &prot, 4);
	exp_put(e, &flags, 4);
	exp_name(e, name, field);
}

static void exp_mmap(struct expect *e, __u64 start, __u64 len, __u64 pgoff,
		     const char *name, size_t field)
{
	__u32 pid = -1, tid = 0;

	exp_header(e, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, 32 + field);
	exp_put(e, &pid, 4);
	exp_put(e, &tid, 4);
	exp_put(e, &start, 8);
	exp_put(e, &len, 8);
	exp_put(e, &pgoff, 8);
	exp_name(e, name, field);
}

/* What a call wrote, through a writer on a memfd */
struct output {
	char	*buf;
	size_t	len;
	int	ret;
};

typedef int (*synth_fn)(struct perfx_writer *w, const void *arg,
			const struct synthesize_opts *opts);

static void run(synth_fn fn, const void *arg, const struct synthesize_opts *opts,
		struct output *out)
{
	struct perfx_writer w;
	struct stat st;
	int fd = memfd_create("synth", 0);

	out->buf = NULL;
	out->len = 0;
	if (fd < 0 || perfx_writer__init(&w, fd, "memfd")) {
		out->ret = -ENOMEM;
		return;
	}
	out->ret = fn(&w, arg, opts);
	if (perfx_writer__flush(&w) || fstat(fd, &st))
		out->ret = -EIO;
	out->len = st.st_size;
	out->buf = malloc(out->len + 1);
	if (!out->buf || pread(fd, out->buf, out->len, 0) != (ssize_t)out->len)
		out->ret = -EIO;
	perfx_writer__exit(&w);
	close(fd);
}

static int call_all(struct perfx_writer *w, const void *arg, const struct synthesize_opts *opts)
{
	(void)arg;
	return synthesize__all(w, opts);
}

static int call_kernel(struct perfx_writer *w, const void *arg, const struct synthesize_opts *opts)
{
	(void)arg;
	return synthesize__kernel(w, opts);
}

static int call_threads(struct perfx_writer *w, const void *arg,
			const struct synthesize_opts *opts)
{
	return synthesize__threads(w, arg, opts);
}

static int call_comm(struct perfx_writer *w, const void *arg, const struct synthesize_opts *opts)
{
	return synthesize__comm(w, *(const pid_t *)arg, opts);
}

/* Where the streams first differ, to show on failure */
static void check_bytes(const struct output *out, const struct expect *e, int nr,
			const char *what)
{
	size_t i;

	tap_ok(out->ret == nr, "%s: %d records (got %d)", what, nr, out->ret);
	if (tap_ok(out->len == e->len && !memcmp(out->buf, e->buf, e->len),
		   "%s: the exact bytes (%zu)", what, e->len))
		return;
	for (i = 0; i < out->len && i < e->len && out->buf[i] == e->buf[i]; i++)
		;
	printf("#   got %zu bytes, want %zu; first difference at byte %zu\n", out->len, e->len, i);
}

static const char stat_fmt[] =
	"%d (%s) S %d %d %d 0 -1 %u 10 0 0 0 1 2 0 0 20 0 %d 0 100 1000 10\n";

static void put_stat(int pid, const char *comm, int ppid, unsigned int flags, int threads)
{
	char rel[64], text[512];

	snprintf(rel, sizeof(rel), "proc/%d/stat", pid);
	snprintf(text, sizeof(text), stat_fmt, pid, comm, ppid, pid, pid, flags, threads);
	put(rel, text);
}

static void make_tree(void)
{
	put("proc/mounts", "proc /proc proc rw 0 0\nhugetlbfs /dev/hugepages hugetlbfs rw 0 0\n");
	/* 100: one thread; its comm has a newline, a backslash, a leading blank */
	put_stat(100, " a\nb\\c) x", 1, 0x400100, 1);
	put("proc/100/maps",
	    "00400000-00401000 r-xp 00001000 fd:01 41038                      /usr/bin/cat\n"
	    "00600000-00602000 rw-p 00000000 fd:01 41038                      /usr/bin/cat\n"
	    "00700000-00701000 ---p 00000000 00:00 0 \n"
	    "7f0000000000-7f0000001000 r-xs 00000000 00:05 7                  /dev/hugepages/big (deleted)\n"
	    "7f0000002000-7f0000003000 rwxp 00000000 00:00 0\n"
	    "garbage line\n"
	    "7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                  [stack]\n"
	    "7ffc00100000-7ffc00102000 r-xp 00000000 00:00 0                  [vdso]");
	/* 200: three threads, 202 gone; its parent 150 */
	put_stat(200, "srv", 150, 0x400040, 3);
	put("proc/200/task/200/comm", "srv\n");
	put("proc/200/task/201/comm", "srv-worker\n");
	put("proc/200/task/202/", NULL);
	put("proc/201/comm", "srv-worker-with-a-long-name\n");
	put("proc/200/maps",
	    "55e000000000-55e000010000 r-xp 00002000 08:02 1234567                    /srv/bin\n");
	/* 300: a kernel thread, no maps file read */
	put_stat(300, "kworker/0:1-events", 2, 0x04208060, 1);
	/* 400: gone before its stat; 500: gone before its maps */
	put("proc/400/", NULL);
	put_stat(500, "short", 1, 0, 1);
	put("proc/self", NULL);

	put("proc/kallsyms",
	    "0000000000000000 A fixed_percpu_data\n"
	    "ffffffff81000000 T startup_64\n"
	    "ffffffff81000000 T _stext\n"
	    "ffffffff81000000 D _text\n"
	    "ffffffff80ff0000 T _text\n"
	    "ffffffff82000000 T _etext\n"
	    "ffffffff83276988 D _edata\n"
	    "ffffffffc0001000 t foo_init\t[foo_bar]\n");
	put("proc/modules",
	    "baz 16384 0 - Live 0xffffffffc0200000\n"
	    "foo_bar 20480 1 baz, Live 0xffffffffc0000000 (OE)\n"
	    "bad line\n");
	put("proc/version", "Linux version 6.12.0-test (gcc) #1 SMP\n");
	put("lib/modules/6.12.0-test/kernel/fs/foo-bar.ko.xz", "");
	put("lib/modules/6.12.0-test/build/baz.ko", "");
}

static void test_all(void)
{
	struct synthesize_opts opts = {
		.id_hdr_size = ID_HDR, .nr_threads = 1, .root = root,
		.proc_map_timeout_ms = SYNTHESIZE_PROC_MAP_TIMEOUT,
	};
	struct expect e = { .len = 0 };
	struct output out;
	int n;

	exp_fork(&e, 100, 1, 100, 1);
	exp_comm(&e, 100, 100, "a\\nb\\\\c) x", 16);
	exp_mmap2(&e, PERF_RECORD_MISC_USER, 100, 0x400000, 0x1000, 0x1000, 0xfd, 1, 41038,
		  PROT_READ | PROT_EXEC, MAP_PRIVATE, "/usr/bin/cat", 16);
	exp_mmap2(&e, PERF_RECORD_MISC_USER, 100, 0x7f0000000000, 0x1000, 0, 0, 5, 7,
		  PROT_READ | PROT_EXEC, MAP_SHARED | MAP_HUGETLB, "//anon", 8);
	exp_mmap2(&e, PERF_RECORD_MISC_USER, 100, 0x7f0000002000, 0x1000, 0, 0, 0, 0,
		  PROT_READ | PROT_WRITE | PROT_EXEC, MAP_PRIVATE, "//anon", 8);
	exp_mmap2(&e, PERF_RECORD_MISC_USER, 100, 0x7ffc00100000, 0x2000, 0, 0, 0, 0,
		  PROT_READ | PROT_EXEC, MAP_PRIVATE, "[vdso]", 8);
	exp_fork(&e, 200, 150, 200, 150);
	exp_comm(&e, 200, 200, "srv", 8);
	exp_mmap2(&e, PERF_RECORD_MISC_USER, 200, 0x55e000000000, 0x10000, 0x2000, 8, 2,
		  1234567, PROT_READ | PROT_EXEC, MAP_PRIVATE, "/srv/bin", 16);
	exp_fork(&e, 200, 200, 201, 200);
	exp_comm(&e, 200, 201, "srv-worker-with", 16);
	exp_fork(&e, 300, 2, 300, 2);
	exp_comm(&e, 300, 300, "kworker/0:1-eve", 16);
	exp_fork(&e, 500, 1, 500, 1);
	exp_comm(&e, 500, 500, "short", 8);
	run(call_all, NULL, &opts, &out);
	check_bytes(&out, &e, 15, "-a over the fake tree");
	free(out.buf);

	/* data maps: the readable non-executable ones too, misc MMAP_DATA */
	opts.data_mmaps = true;
	opts.nr_threads = 4;
	run(call_all, NULL, &opts, &out);
	e.len = 0;
	exp_fork(&e, 100, 1, 100, 1);
	exp_comm(&e, 100, 100, "a\\nb\\\\c) x", 16);
	exp_mmap2(&e, PERF_RECORD_MISC_USER, 100, 0x400000, 0x1000, 0x1000, 0xfd, 1, 41038,
		  PROT_READ | PROT_EXEC, MAP_PRIVATE, "/usr/bin/cat", 16);
	exp_mmap2(&e, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA, 100, 0x600000,
		  0x2000, 0, 0xfd, 1, 41038, PROT_READ | PROT_WRITE, MAP_PRIVATE,
		  "/usr/bin/cat", 16);
	n = e.len;
	tap_ok(out.ret == 17 && out.len > (size_t)n && !memcmp(out.buf, e.buf, n),
	       "-d: a data map gets MMAP_DATA, a ---p map none, [stack] one (%d records)",
	       out.ret);
	free(out.buf);

	opts.id_hdr_size = 12;
	run(call_all, NULL, &opts, &out);
	tap_ok(out.ret == -EINVAL && !out.len, "an id_hdr_size not a multiple of 8: -EINVAL");
	free(out.buf);
}

static void test_threads(void)
{
	struct synthesize_opts opts = {
		.id_hdr_size = ID_HDR, .root = root,
		.proc_map_timeout_ms = SYNTHESIZE_PROC_MAP_TIMEOUT,
	};
	struct thread_map *map = NULL;
	struct expect e = { .len = 0 };
	struct output out;
	pid_t pid = 600;

	/* -t 601: its COMM, then its leader's COMM and maps; 602 is gone */
	put("proc/600/status", "Name:\tapp\nUmask:\t0022\nState:\tS\nTgid:\t600\nNgid:\t0\n"
	    "Pid:\t600\nPPid:\t1\nVmPeak:\t  1000 kB\nThreads:\t2\n");
	put("proc/601/status", "Name:\t  app thread\\n\nTgid:\t600\nPid:\t601\nPPid:\t1\n"
	    "VmPeak:\t  1000 kB\n");
	put("proc/600/maps", "00400000-00401000 r-xp 00000000 fd:01 5 /bin/app\n");
	map = calloc(1, sizeof(*map) + 2 * sizeof(pid_t));
	if (!map)
		return;
	map->refcnt = 1;
	map->nr = 2;
	map->map[0] = 601;
	map->map[1] = 602;
	exp_comm(&e, 600, 601, "app thread\\n", 16);
	exp_comm(&e, 600, 600, "app", 8);
	exp_mmap2(&e, PERF_RECORD_MISC_USER, 600, 0x400000, 0x1000, 0, 0xfd, 1, 5,
		  PROT_READ | PROT_EXEC, MAP_PRIVATE, "/bin/app", 16);
	run(call_threads, map, &opts, &out);
	check_bytes(&out, &e, 3, "-t with the leader outside the map, a task gone");
	free(out.buf);
	thread_map__put(map);

	e.len = 0;
	exp_comm(&e, 600, 600, "app", 8);
	run(call_comm, &pid, &opts, &out);
	check_bytes(&out, &e, 1, "a workload's COMM only");
	free(out.buf);
}

static void test_kernel(void)
{
	struct synthesize_opts opts = { .id_hdr_size = ID_HDR, .root = root };
	struct expect e = { .len = 0 };
	char path[256];
	struct output out;

	/* the first function _text (a D one is not), to _edata; modules by address */
	exp_mmap(&e, 0xffffffff80ff0000, 0x2286988, 0xffffffff80ff0000, "[kernel.kallsyms]_text",
		 24);
	snprintf(path, sizeof(path), "%s/lib/modules/6.12.0-test/kernel/fs/foo-bar.ko.xz", root);
	exp_mmap(&e, 0xffffffffc0000000, 20480, 0, path, (strlen(path) + 8) & ~7UL);
	exp_mmap(&e, 0xffffffffc0200000, 16384, 0, "[baz]", 8);
	run(call_kernel, NULL, &opts, &out);
	check_bytes(&out, &e, 3, "the kernel and its modules (build/ not searched)");
	free(out.buf);

	/* without _edata and _etext, the kernel ends where the first module starts */
	put("proc/kallsyms", "ffffffff81000000 t _stext\n");
	e.len = 0;
	exp_mmap(&e, 0xffffffff81000000, 0x3f000000, 0xffffffff81000000,
		 "[kernel.kallsyms]_stext", 24);
	run(call_kernel, NULL, &opts, &out);
	tap_ok(out.ret == 3 && out.len > e.len && !memcmp(out.buf, e.buf, e.len),
	       "_stext without _text, ending at the first module");
	free(out.buf);

	put("proc/kallsyms", "0000000000000000 T _text\n");
	run(call_kernel, NULL, &opts, &out);
	tap_ok(out.ret == -EACCES && !out.len, "hidden addresses: -EACCES, nothing written");
	free(out.buf);
	put("proc/kallsyms", "ffffffff81000000 T _stextx\n");
	run(call_kernel, NULL, &opts, &out);
	tap_ok(out.ret == -ENOENT && !out.len, "no _text: -ENOENT, nothing written");
	free(out.buf);
}

/* Writes a maps line, waits, writes two more: the timeout falls between */
static void *slow_maps(void *arg)
{
	int fd = open(arg, O_WRONLY);

	if (fd < 0)
		return NULL;
	dprintf(fd, "00400000-00401000 r-xp 00000000 fd:01 5 /bin/slow\n");
	usleep(200 * 1000);
	dprintf(fd, "00600000-00601000 rw-p 00000000 fd:01 5 /bin/slow\n"
		"00700000-00701000 r-xp 00000000 fd:01 5 /bin/slow\n");
	close(fd);
	return NULL;
}

static void test_timeout(void)
{
	struct synthesize_opts opts = {
		.id_hdr_size = ID_HDR, .root = root, .proc_map_timeout_ms = 50, .nr_threads = 1,
	};
	struct expect e = { .len = 0 };
	struct output out;
	char fifo[128];
	pthread_t th;

	snprintf(root + strlen(root), sizeof(root) - strlen(root), "-t");
	mkdir(root, 0755);
	put_stat(700, "slow", 1, 0, 1);
	snprintf(fifo, sizeof(fifo), "%s/proc/700/maps", root);
	mkfifo(fifo, 0600);
	pthread_create(&th, NULL, slow_maps, fifo);
	exp_fork(&e, 700, 1, 700, 1);
	exp_comm(&e, 700, 700, "slow", 8);
	exp_mmap2(&e, PERF_RECORD_MISC_USER, 700, 0x400000, 0x1000, 0, 0xfd, 1, 5,
		  PROT_READ | PROT_EXEC, MAP_PRIVATE, "/bin/slow", 16);
	/* perf writes the map it stopped at, executable or not, marked */
	exp_mmap2(&e, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT, 700,
		  0x600000, 0x1000, 0, 0xfd, 1, 5, PROT_READ | PROT_WRITE, MAP_PRIVATE,
		  "/bin/slow", 16);
	warnings[0] = '\0';
	run(call_all, NULL, &opts, &out);
	pthread_join(th, NULL);
	check_bytes(&out, &e, 4, "--proc-map-timeout 50 ms over a map that comes after 200");
	tap_ok(strstr(warnings, "/proc/700/task/700/maps time out. You may want to increase the time limit by --proc-map-timeout") != NULL,
	       "the timeout's warning, in perf's words");
	free(out.buf);
	system((snprintf(fifo, sizeof(fifo), "rm -rf %s", root), fifo));
	root[strlen(root) - 2] = '\0';
}

/*
 * The population: children with 3 threads and 4 extra maps each, still;
 * every fifth child has more to name: a deleted file, a shared file
 * map, a memfd whose name has a newline (escaped "\012" in maps), a
 * thread named with a backslash, and one child has more executable maps
 * than the BPF iterator writes for one process
 */
#define NR_CHILDREN	40
#define MANY_MAPS	400

static void *sleeper(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/* @path mapped executable, shared or not, then unlinked if @unlink */
static void map_file(const char *path, int flags, bool unlink_it)
{
	int fd = open(path, O_RDWR | O_CREAT, 0700);

	if (fd < 0 || ftruncate(fd, 8192))
		_exit(1);
	mmap(NULL, 4096, PROT_READ | PROT_EXEC, flags, fd, 0);
	mmap(NULL, 4096, PROT_READ, flags, fd, 4096);
	close(fd);
	if (unlink_it)
		unlink(path);
}

static void odd_maps(int i)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), "%s/gone-%d", root, i);
	map_file(path, MAP_PRIVATE, true);
	snprintf(path, sizeof(path), "%s/shared-%d", root, i);
	map_file(path, MAP_SHARED, false);
	fd = memfd_create("odd\nname", 0);
	if (fd >= 0 && !ftruncate(fd, 4096))
		mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
	if (sbrk(65536) == (void *)-1)	/* a [heap] for -d */
		_exit(1);
}

/* MANY_MAPS executable pages between pages that are not mapped at all */
static void many_maps(void)
{
	char *p = mmap(NULL, 2 * MANY_MAPS * 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int i;

	for (i = 0; p != MAP_FAILED && i < MANY_MAPS; i++)
		mprotect(p + 2 * i * 4096, 4096, PROT_READ | PROT_EXEC);
}

static pid_t spawn(int ready, int i)
{
	pthread_t th;
	pid_t pid = fork();
	int k;

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (k = 0; k < 4; k++)
		mmap(NULL, 4096, PROT_READ | PROT_EXEC | (k & 1 ? PROT_WRITE : 0),
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (i % 5 == 1)
		odd_maps(i);
	if (i == 2)
		many_maps();
	pthread_create(&th, NULL, sleeper, NULL);
	if (i % 5 == 1)
		pthread_setname_np(th, "back\\slash");
	pthread_create(&th, NULL, sleeper, NULL);
	if (write(ready, "", 1) != 1)
		_exit(1);
	sleeper(NULL);
	return 0;
}

/* The records of the children only, and how many of each type */
static size_t filter(const struct output *out, const pid_t *pids, char *dst, int counts[16])
{
	size_t off, len = 0;
	int i;

	memset(counts, 0, 16 * sizeof(int));
	for (off = 0; off + 8 <= out->len; ) {
		struct perf_event_header h;
		__u32 pid;

		memcpy(&h, out->buf + off, sizeof(h));
		if (h.size < 12)
			break;
		memcpy(&pid, out->buf + off + 8, 4);
		for (i = 0; i < NR_CHILDREN; i++)
			if ((pid_t)pid == pids[i]) {
				memcpy(dst + len, out->buf + off, h.size);
				len += h.size;
				counts[h.type & 15]++;
				break;
			}
		off += h.size;
	}
	return len;
}

/* A run's records of the children against /proc's with one thread */
struct real_run {
	enum synthesize_source	source;
	unsigned int		nr_threads;
	const char		*what;
};

static void test_real_proc(bool data_mmaps)
{
	static char base[1 << 21], other[1 << 21];
	struct synthesize_used used;
	/* a timeout no loaded machine reaches: runs differ only in their source */
	struct synthesize_opts opts = {
		.id_hdr_size = 8, .proc_map_timeout_ms = 60000, .data_mmaps = data_mmaps,
		.source = SYNTHESIZE_SOURCE_PROC, .nr_threads = 1, .used = &used,
	};
	static const struct real_run runs[] = {
		{ SYNTHESIZE_SOURCE_PROC, 4, "/proc, 4 threads" },
		{ SYNTHESIZE_SOURCE_AUTO, 0, "the chosen source and threads" },
		{ SYNTHESIZE_SOURCE_BPF, 1, "BPF, 1 thread" },
		{ SYNTHESIZE_SOURCE_BPF, 4, "BPF, 4 threads" },
	};
	const char *mode = data_mmaps ? " (-d)" : "";
	pid_t pids[NR_CHILDREN];
	struct output out;
	size_t base_len, len, i;
	int counts[16], base_counts[16], ready[2];
	char c;

	if (pipe(ready))
		return;
	for (i = 0; i < NR_CHILDREN; i++)
		pids[i] = spawn(ready[1], i);
	for (i = 0; i < NR_CHILDREN && read(ready[0], &c, 1) == 1; i++)
		;
	run(call_all, NULL, &opts, &out);
	base_len = filter(&out, pids, base, base_counts);
	tap_ok(out.ret > 0 && base_counts[PERF_RECORD_FORK] == 3 * NR_CHILDREN &&
	       base_counts[PERF_RECORD_COMM] == 3 * NR_CHILDREN &&
	       base_counts[PERF_RECORD_MMAP2] >= 3 * NR_CHILDREN + MANY_MAPS &&
	       used.source == SYNTHESIZE_SOURCE_PROC,
	       "real /proc%s, 1 thread: %d FORK, %d COMM, %d MMAP2 for %d children of 3 threads",
	       mode, base_counts[PERF_RECORD_FORK], base_counts[PERF_RECORD_COMM],
	       base_counts[PERF_RECORD_MMAP2], NR_CHILDREN);
	tap_ok(memmem(base, base_len, "memfd:odd\\012name (deleted)", 27) &&
	       memmem(base, base_len, "back\\\\slash", 11) &&
	       memmem(base, base_len, "/gone-1 (deleted)", 17),
	       "real /proc%s: the names as maps and comm show them, escaped", mode);
	free(out.buf);
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		opts.source = runs[i].source;
		opts.nr_threads = runs[i].nr_threads;
		run(call_all, NULL, &opts, &out);
		len = filter(&out, pids, other, counts);
		if (runs[i].source == SYNTHESIZE_SOURCE_BPF && out.ret < 0)
			tap_skip(runs[i].what, "no BPF task iterator here (BTF, Linux 6.11, root)");
		else
			tap_ok(out.ret > 0 && len == base_len && !memcmp(base, other, len) &&
			       (runs[i].source == SYNTHESIZE_SOURCE_AUTO ||
				used.source == runs[i].source),
			       "real /proc%s, %s: the same %zu bytes for the children as 1 thread",
			       mode, runs[i].what, len);
		free(out.buf);
	}
	for (i = 0; i < NR_CHILDREN; i++)
		kill(pids[i], SIGKILL);
	for (i = 0; i < NR_CHILDREN; i++)
		waitpid(pids[i], NULL, 0);
	close(ready[0]);
	close(ready[1]);
}

int main(void)
{
	tap_start("synthesize");
	perfx__set_print(capture);
	snprintf(root, sizeof(root), "/tmp/perfx-synth-XXXXXX");
	if (!mkdtemp(root))
		return 1;
	make_tree();
	test_all();
	test_threads();
	test_kernel();
	test_timeout();
	test_real_proc(false);
	test_real_proc(true);
	system((snprintf(warnings, sizeof(warnings), "rm -rf %s", root), warnings));
	return tap_done();
}
