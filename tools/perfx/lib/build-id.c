// SPDX-License-Identifier: GPL-2.0
/*
 * Build-ids: the GNU build-id note of ELF files (their program headers,
 * else libelf) and of the running kernel (/sys/kernel/notes).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "build-id.h"

static int build_id__set(struct build_id *bid, const void *desc, size_t size)
{
	if (!size)
		return -ENOENT;
	if (size > BUILD_ID_SIZE)
		size = BUILD_ID_SIZE;
	memset(bid, 0, sizeof(*bid));
	memcpy(bid->data, desc, size);
	bid->size = size;
	return 0;
}

/* The build-id note in one SHT_NOTE section or PT_NOTE segment's data. */
static int build_id__from_data(Elf_Data *data, struct build_id *bid)
{
	size_t off = 0, name_off, desc_off;
	GElf_Nhdr nhdr;

	while ((off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
		    !memcmp((char *)data->d_buf + name_off, "GNU", 4))
			return build_id__set(bid, (char *)data->d_buf + desc_off, nhdr.n_descsz);
	}
	return -ENOENT;
}

static int build_id__from_elf(Elf *elf, struct build_id *bid)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr shdr;

	while ((scn = elf_nextscn(elf, scn))) {
		Elf_Data *data;

		if (!gelf_getshdr(scn, &shdr) || shdr.sh_type != SHT_NOTE)
			continue;
		data = elf_getdata(scn, NULL);
		if (data && !build_id__from_data(data, bid))
			return 0;
	}
	return -ENOENT;
}

#define ELF_HEAD_SIZE	4096

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ELFDATA_NATIVE	ELFDATA2LSB
#else
#define ELFDATA_NATIVE	ELFDATA2MSB
#endif

int build_id__parse_elf_head(const void *head, size_t len, struct build_id *bid)
{
	const unsigned char *p = head;
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int i;

	if (len < sizeof(eh))
		return -ENOENT;
	memcpy(&eh, p, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA_NATIVE || eh.e_phentsize != sizeof(ph) ||
	    eh.e_phoff > len || eh.e_phnum > (len - eh.e_phoff) / sizeof(ph))
		return -ENOENT;
	for (i = 0; i < eh.e_phnum; i++) {
		memcpy(&ph, p + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type == PT_NOTE && ph.p_offset <= len && ph.p_filesz <= len - ph.p_offset &&
		    !build_id__parse_notes(p + ph.p_offset, ph.p_filesz, bid))
			return 0;
	}
	return -ENOENT;
}

/* the section walk of libelf, for the files whose note is elsewhere */
static int build_id__read_libelf(int fd, struct build_id *bid)
{
	int err = -ENOENT;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	/* pread on demand: mapping and unmapping each file costs 3x more */
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf) {
		if (elf_kind(elf) == ELF_K_ELF)
			err = build_id__from_elf(elf, bid);
		elf_end(elf);
	}
	return err;
}

int build_id__read_elf(const char *path, struct build_id *bid)
{
	unsigned char head[ELF_HEAD_SIZE];
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* one read where libelf makes four, for the common case */
	n = pread(fd, head, sizeof(head), 0);
	err = n > 0 ? build_id__parse_elf_head(head, n, bid) : -ENOENT;
	if (err)
		err = build_id__read_libelf(fd, bid);
	close(fd);
	return err;
}

/* Raw notes: {namesz, descsz, type}, name and desc each padded to 4. */
int build_id__parse_notes(const void *notes, size_t len, struct build_id *bid)
{
	const unsigned char *p = notes;
	size_t off = 0;

	while (len - off >= 12) {
		__uint32_t nh[3];
		size_t name, desc;

		memcpy(nh, p + off, sizeof(nh));
		name = ((size_t)nh[0] + 3) & ~(size_t)3;
		desc = ((size_t)nh[1] + 3) & ~(size_t)3;
		off += 12;
		if (name > len - off || desc > len - off - name)
			break;
		if (nh[2] == NT_GNU_BUILD_ID && nh[0] == 4 && !memcmp(p + off, "GNU", 4))
			return build_id__set(bid, p + off + name, nh[1]);
		off += name + desc;
	}
	return -ENOENT;
}

int build_id__read_notes(const char *path, struct build_id *bid)
{
	unsigned char buf[4096];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n < 0)
		return -errno;
	return build_id__parse_notes(buf, n, bid);
}

void build_id__snprintf(const struct build_id *bid, char *buf)
{
	size_t i;

	for (i = 0; i < bid->size; i++)
		sprintf(buf + 2 * i, "%02x", bid->data[i]);
	buf[2 * bid->size] = '\0';
}

/*
 * The vDSO the kernel maps into every process is the one mapped into
 * ours: its notes are read in place (what perf does through a copy of
 * its own vDSO in a temporary file).
 */
int build_id__read_vdso(struct build_id *bid)
{
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);

	/* mapped whole: no bound but its own headers' */
	return base ? build_id__parse_elf_head(base, SIZE_MAX, bid) : -ENOENT;
}
