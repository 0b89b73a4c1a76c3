// SPDX-License-Identifier: GPL-2.0
/*
 * The table of header features against perf 6.1's feat_ops: every id's
 * name, which ids a pipe has as HEADER_FEATURE records and in what order
 * (then the end mark, TRACING_DATA's and BUILD_ID's own records), the
 * record size limit at its byte, a file holding every feature read back
 * as written, and the machine's features being those with a write
 * callback.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/data.h"
#include "lib/feature.h"
#include "lib/header.h"
#include "tests/tap.h"

/* perf's util/header.h, by id */
static const char * const perf_names[HEADER_LAST_FEATURE] = {
	NULL, "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH",
	"NRCPUS", "CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC",
	"CPU_TOPOLOGY", "NUMA_TOPOLOGY", "BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC",
	"AUXTRACE", "STAT", "CACHE", "SAMPLE_TIME", "MEM_TOPOLOGY", "CLOCKID",
	"DIR_FORMAT", "BPF_PROG_INFO", "BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS",
	"CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS",
};

/* perf 6.1's FEAT_OPR ids: those it synthesizes as HEADER_FEATURE records */
static const int perf_opr[] = {
	3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 16, 17, 21, 22, 23, 25, 26, 27, 28, 29, 31,
};

/* one HEADER_BUILD_ID entry of a file's table: header, pid, 24 bytes, no name */
static const char bid_entry[PERFX_BUILD_ID_RECORD_MIN] = { 0, 0, 0, 0, 0, 0, 36 };

static void test_names(void)
{
	int id, bad = 0;

	for (id = 0; id < 256; id++) {
		const struct feature_ops *ops = feature__ops(id);
		const char *want = id < HEADER_LAST_FEATURE ? perf_names[id] : NULL;

		if (!want ? ops != NULL : !ops || strcmp(ops->name, want)) {
			printf("# id %d: %s, want %s\n", id, ops ? ops->name : "none",
			       want ? want : "none");
			bad++;
		}
	}
	tap_ok(!bad, "ids 1..31 named as perf's, 0 and 32..255 unknown (%d wrong)", bad);
}

/* every known feature, each an 8-byte body but BUILD_ID's one entry */
static void header__fill(struct perfx_header *h)
{
	int id;

	for (id = 1; id < HEADER_LAST_FEATURE; id++) {
		if (id == HEADER_BUILD_ID)
			perfx_header__set_feature(h, id, bid_entry, sizeof(bid_entry));
		else
			perfx_header__set_feature(h, id, "\1\2\3\4\5\6\7\10", 8);
	}
}

/* the bytes @h's pipe header takes, in a new buffer */
static size_t write_pipe(struct perfx_header *h, char **out)
{
	struct perfx_writer w;
	int fd = memfd_create("pipe", 0);
	off_t len = -1;

	*out = NULL;
	if (fd < 0 || perfx_writer__init(&w, fd, "pipe"))
		abort();
	if (!perfx_header__write_pipe(h, &w, true) && !perfx_writer__flush(&w))
		len = lseek(fd, 0, SEEK_END);
	perfx_writer__exit(&w);
	*out = len > 0 ? malloc(len) : NULL;
	if (*out && pread(fd, *out, len, 0) != len)
		len = 0;
	close(fd);
	return len > 0 ? (size_t)len : 0;
}

static void test_pipe_order(void)
{
	struct perfx_header h = { .pipe = true };
	char got[512] = "", want[512] = "", *out;
	size_t len, pos, i;

	header__fill(&h);
	len = write_pipe(&h, &out);
	for (i = 0; i < sizeof(perf_opr) / sizeof(perf_opr[0]); i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "F%d ", perf_opr[i]);
	strcat(want, "F32 T66 T67 ");
	for (pos = 16; out && pos + 8 <= len; ) {
		struct perf_event_header eh;
		__u64 feat;

		memcpy(&eh, out + pos, sizeof(eh));
		if (eh.type == PERF_RECORD_HEADER_FEATURE) {
			memcpy(&feat, out + pos + 8, sizeof(feat));
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "F%llu ",
				 (unsigned long long)feat);
		} else {
			snprintf(got + strlen(got), sizeof(got) - strlen(got), "T%u ", eh.type);
		}
		/* TRACING_DATA's 8 bytes follow its record, outside its size */
		pos += eh.size + (eh.type == PERF_RECORD_HEADER_TRACING_DATA ? 8 : 0);
		if (!eh.size)
			break;
	}
	tap_ok(pos == len, "pipe: the records fill its %zu bytes", len);
	tap_str_eq(got, want,
		   "pipe: perf's FEAT_OPR ids in order, the end mark, TRACING_DATA, BUILD_ID");
	free(out);
	perfx_header__exit(&h);
}

/* a HEADER_FEATURE body fits up to 0xffff bytes of record, its header included */
static void test_pipe_limit(void)
{
	static char body[0xffff - 16 + 1];
	struct perfx_header h = { .pipe = true };
	size_t len_fit, len_over;
	char *out;

	perfx_header__set_feature(&h, HEADER_CMDLINE, body, sizeof(body) - 1);
	len_fit = write_pipe(&h, &out);
	free(out);
	perfx_header__set_feature(&h, HEADER_CMDLINE, body, sizeof(body));
	len_over = write_pipe(&h, &out);
	free(out);
	tap_ok(len_fit == 16 + 0xffff + 16 && len_over == 16 + 16,
	       "pipe: a %zu-byte CMDLINE is a record of 0xffff bytes, a %zu-byte one left out (%zu, %zu bytes)",
	       sizeof(body) - 1, sizeof(body), len_fit, len_over);
	perfx_header__exit(&h);
}

static void test_file_round_trip(void)
{
	struct perfx_header h = { 0 }, r = { 0 };
	struct perf_file_header fh;
	int fd = memfd_create("file", 0), id, same = 0;
	struct perfx_writer w;
	off_t size;

	if (fd < 0 || perfx_writer__init(&w, fd, "file"))
		abort();
	header__fill(&h);
	if (perfx_header__write_file_start(&h, &w) || perfx_header__write_file_finish(&h, &w, 0))
		abort();
	perfx_writer__exit(&w);
	size = lseek(fd, 0, SEEK_END);
	if (pread(fd, &fh, sizeof(fh), 0) != sizeof(fh) ||
	    perfx_header__read_file(&r, fd, "file", &fh, size))
		abort();
	for (id = 1; id < HEADER_LAST_FEATURE; id++)
		same += r.feat[id] && r.feat_size[id] == h.feat_size[id] &&
			!memcmp(r.feat[id], h.feat[id], h.feat_size[id]);
	tap_ok(same == HEADER_LAST_FEATURE - 1, "file: all %d features read back as written (%d)",
	       HEADER_LAST_FEATURE - 1, same);
	close(fd);
	perfx_header__exit(&h);
	perfx_header__exit(&r);
}

static void test_machine(void)
{
	const char *argv[] = { "record", "true" };
	struct perfx_header h = { 0 };
	int id, extra = 0, err;

	err = feature__add_machine(&h, "6.1", 2, argv);
	for (id = 1; id < HEADER_LAST_FEATURE; id++)
		extra += h.feat[id] && !feature__ops(id)->write;
	tap_ok(!err && !extra && h.feat[HEADER_HOSTNAME] && h.feat[HEADER_VERSION] &&
	       h.feat[HEADER_CMDLINE] && h.feat[HEADER_BPF_PROG_INFO] && h.feat[HEADER_BPF_BTF],
	       "machine: HOSTNAME, VERSION, CMDLINE, BPF_*, none without a write callback (err %d, %d other)",
	       err, extra);
	tap_ok(h.feat_size[HEADER_VERSION] == 4 + 64 &&
	       !memcmp((char *)h.feat[HEADER_VERSION] + 4, "6.1", 4),
	       "machine: VERSION is the version given, padded to 64 (%zu bytes)",
	       h.feat_size[HEADER_VERSION]);
	perfx_header__exit(&h);
}

int main(void)
{
	tap_start("feature");
	test_names();
	test_pipe_order();
	test_pipe_limit();
	test_file_round_trip();
	test_machine();
	return tap_done();
}
