/* SPDX-License-Identifier: GPL-2.0 */
#ifndef __PERFX_SYNTHESIZE_BPF_PROGS_H
#define __PERFX_SYNTHESIZE_BPF_PROGS_H

/*
 * The BPF programs loaded when a recording starts, as perf record 6.1
 * synthesizes them (util/bpf-event.c): a KSYMBOL per JITed function and a
 * BPF_EVENT (PROG_LOAD) per program, and what its BPF_PROG_INFO and
 * BPF_BTF header features list (util/header.c).  Not the BPF task
 * iterator of synthesize-bpf.h.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

struct btf;
struct perfx_writer;

/*
 * perf's PERF_BPIL_* arrays: bit N of bpf_prog_linear.arrays, and their
 * order in its data
 */
enum bpil_array {
	BPIL_JITED_INSNS,
	BPIL_XLATED_INSNS,
	BPIL_MAP_IDS,
	BPIL_JITED_KSYMS,
	BPIL_JITED_FUNC_LENS,
	BPIL_FUNC_INFO,
	BPIL_LINE_INFO,
	BPIL_JITED_LINE_INFO,
	BPIL_PROG_TAGS,
	BPIL_NR_ARRAYS,
};

/* the arrays perf record asks for */
#define BPIL_RECORD_ARRAYS	(1ULL << BPIL_JITED_INSNS | 1ULL << BPIL_JITED_KSYMS |	\
				 1ULL << BPIL_JITED_FUNC_LENS | 1ULL << BPIL_FUNC_INFO |	\
				 1ULL << BPIL_PROG_TAGS | 1ULL << BPIL_LINE_INFO |	\
				 1ULL << BPIL_JITED_LINE_INFO)

/*
 * perf 6.1's sizeof(struct bpf_prog_info): what it asks the kernel for
 * and writes as info_len (it refuses a larger one when it reads)
 */
#define BPIL_INFO_LEN		232

/*
 * One program's info and the arrays asked for, as perf's struct
 * perf_bpil: the arrays one after the other in @data, each padded to 8,
 * in enum bpil_array's order.  While read, @info's array fields hold
 * their addresses in @data; once kept, their offsets, as perf writes them.
 */
struct bpf_prog_linear {
	__u64			arrays;
	__u32			data_len;
	struct bpf_prog_info	info;	/* the kernel fills BPIL_INFO_LEN bytes */
	__u8			*data;
};

/* bpf_obj_get_info_by_fd(), or a test's stand-in */
typedef int (*bpf_get_info_fn)(int fd, void *info, __u32 *info_len);

/*
 * perf's get_bpf_prog_info_linear(): program @fd's info, then again with
 * room for the @arrays the kernel has; fails with -ERANGE when a count or
 * record size changed in between.  @l is in its address form.
 */
int bpf_prog_linear__read(struct bpf_prog_linear *l, int fd, __u64 arrays,
			  bpf_get_info_fn get_info);
/* perf's bpil_addr_to_offs(): the arrays' addresses as offsets into data */
void bpf_prog_linear__to_offsets(struct bpf_prog_linear *l);
void bpf_prog_linear__exit(struct bpf_prog_linear *l);

/* perf's KSYM_NAME_LEN, the NUL included */
#define BPF_KSYM_NAME_LEN	512

/*
 * perf's synthesize_bpf_prog_name(): "bpf_prog_<tag of @sub_id>" then
 * "_<its BTF func name>" with @btf, "_<info name>" for a program of one
 * function (nothing if it has no name), "_F" otherwise.  @l in its
 * address form; @size at least 1.  Returns the name's length, cut to
 * @size - 1.
 */
size_t bpf_prog_linear__ksym_name(const struct bpf_prog_linear *l, const struct btf *btf,
				  __u32 sub_id, char *buf, size_t size);

/* one program's BTF as the kernel has it */
struct bpf_btf_data {
	__u32	id;
	__u32	size;
	void	*data;
};

/*
 * The programs synthesized, ascending by id, and their BTFs, ascending by
 * BTF id, one each: perf's perf_env rbtrees.
 */
struct bpf_progs {
	struct bpf_prog_linear	*progs;		/* in their offset form */
	size_t			nr_progs;
	struct bpf_btf_data	*btfs;
	size_t			nr_btfs;
	/*
	 * What stopped the walk, as perf stops it: 0, or the -errno of the
	 * step @err_what at program @err_id; @refused when that step was
	 * BPF_PROG_GET_NEXT_ID's -EPERM or -EINVAL (no privilege, a
	 * kernel without it), where perf says nothing (else it warns).
	 */
	int			err;
	const char		*err_what;
	__u32			err_id;
	bool			refused;
	size_t			nr_vanished;	/* gone before their fd was had */
	size_t			nr_images;	/* trampolines and dispatchers */
	int			images_err;	/* kallsyms could not be read: -errno */
};

/*
 * Walks the programs loaded (perf's perf_event__synthesize_bpf_events()):
 * for each one, its KSYMBOLs then its BPF_EVENT into @w, each followed by
 * @id_hdr_size zero bytes (the sample_id trailer), and keeps its info and
 * BTF in @p; a program that is gone before its fd is had is skipped.
 * Then a KSYMBOL for each BPF trampoline and dispatcher of
 * <@root>/proc/kallsyms (NULL: the machine's), which perfx reads only
 * when a program that can run through one is loaded or the walk did not
 * see them all.  Returns the records written, or the -errno of @w (a walk
 * that stops says why in @p, not here).
 */
int bpf_progs__synthesize(struct bpf_progs *p, struct perfx_writer *w, __u16 id_hdr_size,
			  const char *root);
/*
 * The KSYMBOLs of the BPF trampolines and dispatchers of
 * <@root>/proc/kallsyms (each a page long), counted in @p, as perf
 * synthesizes them after the programs: the records written, or the
 * -errno of @w (a kallsyms it cannot read is @p's images_err).
 */
int bpf_progs__synthesize_images(struct bpf_progs *p, struct perfx_writer *w,
				 __u16 id_hdr_size, const char *root);
void bpf_progs__exit(struct bpf_progs *p);

/*
 * A kallsyms name perf synthesizes a KSYMBOL for: "bpf_trampoline_<N>" or
 * "bpf_dispatcher_<name>" of module [bpf] ("name\t[bpf]").
 */
int bpf_progs__is_image(const char *name, size_t len);

#endif /* __PERFX_SYNTHESIZE_BPF_PROGS_H */
