// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's MMAPs as perf record synthesizes them: [kernel.kallsyms]_text
 * from _text to _edata (else _etext, else the next module), pid -1, pgoff
 * the _text address; then one per module of /proc/modules in address
 * order, named by its file under /lib/modules/<release> when there is one
 * (perf's machine__create_kernel_maps() and synthesize_modules()).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data.h"
#include "debug.h"
#include "procfs.h"
#include "synthesize.h"
#include "synthesize-record.h"
#include "util.h"

#define KALLSYMS_BUF	(64 * 1024)

struct kernel_syms {
	const char	*ref;		/* "_text", or "_stext" without it */
	__u64		text;
	__u64		stext;
	__u64		edata;
	__u64		etext;
	bool		has_text, has_stext, has_edata, has_etext;
};

struct kmodule {
	char		name[64];
	__u64		start;
	__u64		size;
	char		*path;		/* its file, or NULL */
};

struct kmodules {
	struct kmodule	*mods;
	unsigned int	nr;
};

static bool sym_is(const char *name, size_t len, const char *want)
{
	return len == strlen(want) && !memcmp(name, want, len);
}

/* perf's kallsyms__get_function_start(): a function or an alias */
static bool sym_is_func(char type)
{
	return type == 'T' || type == 't' || type == 'W' || type == 'w' || type == 'A';
}

static void kernel_syms__add(struct kernel_syms *k, const char *name, size_t len,
			     char type, __u64 addr)
{
	if (!k->has_text && sym_is_func(type) && sym_is(name, len, "_text")) {
		k->text = addr;
		k->has_text = true;
	} else if (!k->has_stext && sym_is_func(type) && sym_is(name, len, "_stext")) {
		k->stext = addr;
		k->has_stext = true;
	} else if (!k->has_edata && sym_is(name, len, "_edata")) {
		k->edata = addr;
		k->has_edata = true;
	} else if (!k->has_etext && sym_is(name, len, "_etext")) {
		k->etext = addr;
		k->has_etext = true;
	}
}

/* _text (or _stext) and the end symbols from <root>/proc/kallsyms */
static int kernel_syms__read(struct kernel_syms *k, int procfd, char *buf)
{
	struct procfs_reader r;
	const char *line, *name;
	size_t len, name_len;
	__u64 addr;
	char type;
	int err;

	*k = (struct kernel_syms){ .ref = "_text" };
	err = procfs_reader__open(&r, procfd, "kallsyms", buf, KALLSYMS_BUF);
	if (err)
		return err;
	/* the core kernel's symbols come first: stop once both are seen */
	while (!(k->has_text && k->has_edata) &&
	       (err = procfs_reader__line(&r, &line, &len)) > 0)
		if (!procfs__parse_kallsyms(line, len, &addr, &type, &name, &name_len))
			kernel_syms__add(k, name, name_len, type, addr);
	procfs_reader__close(&r);
	if (err < 0)
		return err;
	if (!k->has_text && !k->has_stext)
		return -ENOENT;
	if (!k->has_text) {
		k->ref = "_stext";
		k->text = k->stext;
	}
	/* kptr_restrict shows every address as 0 */
	return k->text ? 0 : -EACCES;
}

static void kmodules__exit(struct kmodules *m)
{
	unsigned int i;

	for (i = 0; i < m->nr; i++)
		free(m->mods[i].path);
	free(m->mods);
	m->mods = NULL;
	m->nr = 0;
}

static int cmp_start(const void *a, const void *b)
{
	const struct kmodule *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

/* <root>/proc/modules, sorted by address; none if there is no such file */
static int kmodules__read(struct kmodules *m, int procfd, char *buf)
{
	struct procfs_reader r;
	struct kmodule *n;
	const char *line, *name;
	size_t len, name_len;
	unsigned int cap = 0;
	__u64 start, size;
	int err;

	*m = (struct kmodules){ 0 };
	if (procfs_reader__open(&r, procfd, "modules", buf, KALLSYMS_BUF))
		return 0;
	while ((err = procfs_reader__line(&r, &line, &len)) > 0) {
		if (procfs__parse_module(line, len, &name, &name_len, &start, &size) ||
		    name_len >= sizeof(m->mods->name))
			continue;
		if (m->nr == cap) {
			cap = cap ? cap * 2 : 32;
			n = realloc(m->mods, cap * sizeof(*n));
			if (!n) {
				err = -ENOMEM;
				break;
			}
			m->mods = n;
		}
		n = &m->mods[m->nr++];
		*n = (struct kmodule){ .start = start, .size = size };
		memcpy(n->name, name, name_len);
	}
	procfs_reader__close(&r);
	if (err < 0) {
		kmodules__exit(m);
		return err;
	}
	qsort(m->mods, m->nr, sizeof(*m->mods), cmp_start);
	return 0;
}

/* "foo-bar.ko[.gz|.xz]" names module foo_bar, as perf's kmod_path__parse() */
static bool kmod_file_is(const char *file, const char *mod)
{
	static const char * const exts[] = { ".ko", ".ko.gz", ".ko.xz" };
	size_t len = strlen(file), i, k;

	for (k = 0; k < ARRAY_SIZE(exts); k++) {
		size_t base = len - strlen(exts[k]);

		if (len <= strlen(exts[k]) || strcmp(file + base, exts[k]))
			continue;
		for (i = 0; i < base; i++)
			if ((file[i] == '-' ? '_' : file[i]) != mod[i])
				break;
		return i == base && !mod[base];
	}
	return false;
}

/* Names each module by the first file for it under @dir (perf's walk). */
static int kmodules__find_files(struct kmodules *m, char *dir, size_t len, int depth)
{
	struct dirent *d;
	struct stat st;
	unsigned int i;
	DIR *dp;
	int err = 0;

	dp = opendir(dir);
	if (!dp)
		return 0;
	while (!err && (d = readdir(dp))) {
		size_t n = strlen(d->d_name);

		if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, "..") ||
		    (!depth && (!strcmp(d->d_name, "source") || !strcmp(d->d_name, "build"))) ||
		    len + 1 + n >= PATH_MAX)
			continue;
		dir[len] = '/';
		memcpy(dir + len + 1, d->d_name, n + 1);
		/* stat, not d_type: perf follows links */
		if (stat(dir, &st)) {
			dir[len] = '\0';
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			err = kmodules__find_files(m, dir, len + 1 + n, depth + 1);
		} else {
			for (i = 0; i < m->nr; i++) {
				if (m->mods[i].path || !kmod_file_is(d->d_name, m->mods[i].name))
					continue;
				m->mods[i].path = strdup(dir);
				if (!m->mods[i].path)
					err = -ENOMEM;
				break;
			}
		}
		dir[len] = '\0';
	}
	closedir(dp);
	return err;
}

/* <root>/lib/modules/<release>, the release from <root>/proc/version */
static int kmodules__name(struct kmodules *m, const struct synthesize_opts *opts,
			  int procfd, char *buf)
{
	static const char linux_version[] = "Linux version ";
	char dir[PATH_MAX], *rel, *sp;
	ssize_t n;
	int len;

	if (!m->nr)
		return 0;
	n = procfs__read_file(procfd, "version", buf, KALLSYMS_BUF);
	if (n < 0)
		return 0;
	rel = strstr(buf, linux_version);
	if (!rel)
		return 0;
	rel += sizeof(linux_version) - 1;
	sp = strpbrk(rel, " \n");
	if (sp)
		*sp = '\0';
	len = snprintf(dir, sizeof(dir), "%s/lib/modules/%s", synth__root(opts), rel);
	if (len >= (int)sizeof(dir))
		return 0;
	return kmodules__find_files(m, dir, len, 0);
}

static int synth_kernel(struct synth_buf *b, const struct kernel_syms *k,
			const struct kmodules *m)
{
	char name[64];
	struct synth_mmap mm = {
		.misc = PERF_RECORD_MISC_KERNEL, .pid = -1, .start = k->text,
		.pgoff = k->text, .name = name,
	};
	__u64 end = ~0ULL;
	unsigned int i;
	int err;

	if (k->has_edata)
		end = k->edata;
	else if (k->has_etext)
		end = k->etext;
	else
		for (i = 0; i < m->nr; i++)
			if (m->mods[i].start > k->text) {
				end = m->mods[i].start;
				break;
			}
	mm.len = end - k->text;
	mm.name_len = snprintf(name, sizeof(name), "[kernel.kallsyms]%s", k->ref);
	err = synth_buf__mmap(b, &mm);
	for (i = 0; !err && i < m->nr; i++) {
		const struct kmodule *mod = &m->mods[i];

		mm.start = mod->start;
		mm.len = mod->size;
		mm.pgoff = 0;
		if (mod->path) {
			mm.name = mod->path;
			mm.name_len = strlen(mod->path);
		} else {
			mm.name = name;
			mm.name_len = snprintf(name, sizeof(name), "[%s]", mod->name);
		}
		err = synth_buf__mmap(b, &mm);
	}
	return err;
}

int synthesize__kernel(struct perfx_writer *w, const struct synthesize_opts *opts)
{
	struct kernel_syms k;
	struct kmodules m = { 0 };
	struct synth_buf b;
	int procfd, err, nr;
	char *buf;

	if (!synth__opts_valid(opts))
		return -EINVAL;
	buf = malloc(KALLSYMS_BUF);
	if (!buf)
		return -ENOMEM;
	synth_buf__init(&b, opts->id_hdr_size);
	procfd = synth__open_proc(opts);
	if (procfd < 0) {
		err = procfd;
		goto out_buf;
	}
	err = kernel_syms__read(&k, procfd, buf);
	if (!err)
		err = kmodules__read(&m, procfd, buf);
	if (!err)
		err = kmodules__name(&m, opts, procfd, buf);
	if (!err)
		err = synth_kernel(&b, &k, &m);
	if (!err)
		err = perfx_writer__write(w, b.p, b.len);
	kmodules__exit(&m);
	close(procfd);
out_buf:
	free(buf);
	nr = b.nr;
	synth_buf__exit(&b);
	return err ? err : nr;
}
