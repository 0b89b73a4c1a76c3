// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-loaded - loads three socket-filter programs, one for each way perf
 * names a JITed BPF function, prints their ids on one line and holds them
 * until killed:
 *   perfx_btf:   two functions with BTF func and line info, named
 *                bpf_prog_TAG_perfx_main and bpf_prog_TAG_perfx_sub;
 *   perfx_plain: one function, no BTF: bpf_prog_TAG_perfx_plain;
 *   perfx_subs:  two functions, no BTF: bpf_prog_TAG_F each.
 * Exits 2 when the kernel will not load them (no BPF, no JIT, EPERM).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <linux/bpf.h>

#define INSN(c, d, s, o, i)	((struct bpf_insn){ .code = (c), .dst_reg = (d),	\
						    .src_reg = (s), .off = (o), .imm = (i) })
#define MOV_R0(i)		INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, i)
#define EXIT			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
/* a bpf-to-bpf call of the function @i instructions after the next */
#define CALL(i)			INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, i)

/* main: call sub; exit.  sub (insn 3): r0 = 1; exit */
static const struct bpf_insn two_funcs[] = {
	CALL(2), MOV_R0(0), EXIT, MOV_R0(1), EXIT,
};
static const struct bpf_insn one_func[] = { MOV_R0(0), EXIT };

static int load(const char *name, const struct bpf_insn *insns, size_t nr,
		const struct bpf_prog_load_opts *opts)
{
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL", insns, nr, opts);

	if (fd < 0)
		fprintf(stderr, "bpf-loaded: %s: %s\n", name, strerror(errno));
	return fd;
}

/* perfx_btf: its BTF (int, a func proto, two funcs) and func and line info */
static int load_with_btf(void)
{
	struct bpf_func_info finfo[2];
	struct bpf_line_info linfo[2];
	struct btf *btf = btf__new_empty();
	int t_int, proto, file, line, fd = -1;

	if (!btf)
		return -1;
	t_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	proto = btf__add_func_proto(btf, t_int);
	finfo[0] = (struct bpf_func_info){ 0, btf__add_func(btf, "perfx_main", BTF_FUNC_STATIC,
							      proto) };
	finfo[1] = (struct bpf_func_info){ 3, btf__add_func(btf, "perfx_sub", BTF_FUNC_STATIC,
							      proto) };
	file = btf__add_str(btf, "bpf-loaded.c");
	line = btf__add_str(btf, "return 0;");
	linfo[0] = (struct bpf_line_info){ 0, file, line, 10 << 10 | 1 };
	linfo[1] = (struct bpf_line_info){ 3, file, line, 20 << 10 | 1 };
	if (t_int > 0 && proto > 0 && (int)finfo[0].type_id > 0 && (int)finfo[1].type_id > 0 &&
	    file > 0 && line > 0 && !btf__load_into_kernel(btf)) {
		LIBBPF_OPTS(bpf_prog_load_opts, opts,
			.prog_btf_fd = btf__fd(btf),
			.func_info = finfo, .func_info_cnt = 2,
			.func_info_rec_size = sizeof(finfo[0]),
			.line_info = linfo, .line_info_cnt = 2,
			.line_info_rec_size = sizeof(linfo[0]),
		);

		fd = load("perfx_btf", two_funcs, 5, &opts);
	} else {
		fprintf(stderr, "bpf-loaded: BTF: %s\n", strerror(errno));
	}
	/* the program holds its BTF */
	btf__free(btf);
	return fd;
}

static __u32 prog_id(int fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

int main(void)
{
	int fd[3];

	fd[0] = load_with_btf();
	fd[1] = fd[0] < 0 ? -1 : load("perfx_plain", one_func, 2, NULL);
	fd[2] = fd[1] < 0 ? -1 : load("perfx_subs", two_funcs, 5, NULL);
	if (fd[2] < 0)
		return 2;
	printf("%u %u %u\n", prog_id(fd[0]), prog_id(fd[1]), prog_id(fd[2]));
	fflush(stdout);
	pause();
	return 0;
}
