// SPDX-License-Identifier: GPL-2.0
/*
 * Proves the sample_id helpers against the kernel's layouts: the
 * trailer's size and fields' offsets for sample_types with and without
 * each field, a SAMPLE's u64 fields before READ (IDENTIFIER first
 * whatever its bit), the trailer and ids read from records too small and
 * big enough, and a synthesized trailer's id at IDENTIFIER, else ID.
 */
#include <errno.h>
#include <string.h>

#include "lib/sample-id.h"
#include "tests/tap.h"

#define TID_TIME	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME)
#define ALL_IDS		(TID_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
			 PERF_SAMPLE_IDENTIFIER)

static void test_sizes(void)
{
	tap_ok(sample_id__hdr_size(0) == 0, "no sample_id fields: no trailer");
	tap_ok(sample_id__hdr_size(ALL_IDS) == 48, "all six fields: 48 bytes (%u)",
	       sample_id__hdr_size(ALL_IDS));
	/* IP, ADDR, PERIOD, CALLCHAIN and READ are no trailer's */
	tap_ok(sample_id__hdr_size(TID_TIME | PERF_SAMPLE_IP | PERF_SAMPLE_ADDR |
				   PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN |
				   PERF_SAMPLE_READ) == 16,
	       "TID and TIME of a sample_type with fields only samples have: 16 bytes");
	tap_ok(sample_id__offset(ALL_IDS, PERF_SAMPLE_IDENTIFIER) == 40,
	       "IDENTIFIER: the trailer's last u64 (%zu)",
	       sample_id__offset(ALL_IDS, PERF_SAMPLE_IDENTIFIER));
	tap_ok(sample_id__offset(PERF_SAMPLE_TIME | PERF_SAMPLE_CPU, PERF_SAMPLE_CPU) == 8,
	       "CPU after TIME alone: offset 8 (%zu)",
	       sample_id__offset(PERF_SAMPLE_TIME | PERF_SAMPLE_CPU, PERF_SAMPLE_CPU));
	tap_ok(sample_id__offset(TID_TIME | PERF_SAMPLE_ID, PERF_SAMPLE_ID) == 16,
	       "ID after TID and TIME: offset 16 (%zu)",
	       sample_id__offset(TID_TIME | PERF_SAMPLE_ID, PERF_SAMPLE_ID));
}

static void test_sample_offsets(void)
{
	__u64 type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
		     PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID |
		     PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
		     PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN;

	tap_ok(sample_id__sample_offset(type, PERF_SAMPLE_IDENTIFIER) == 0,
	       "SAMPLE: IDENTIFIER first, at 0");
	tap_ok(sample_id__sample_offset(type, PERF_SAMPLE_IP) == 8,
	       "SAMPLE: IP after IDENTIFIER, at 8");
	tap_ok(sample_id__sample_offset(type, PERF_SAMPLE_TIME) == 24,
	       "SAMPLE: TIME at 24 (%zu)", sample_id__sample_offset(type, PERF_SAMPLE_TIME));
	/* STREAM_ID's bit is above CPU's and PERIOD's, its field before them */
	tap_ok(sample_id__sample_offset(type, PERF_SAMPLE_CPU) == 56,
	       "SAMPLE: CPU after STREAM_ID, at 56 (%zu)",
	       sample_id__sample_offset(type, PERF_SAMPLE_CPU));
	tap_ok(sample_id__sample_offset(type, PERF_SAMPLE_READ) == 72,
	       "SAMPLE: READ after the nine u64s, at 72 (%zu)",
	       sample_id__sample_offset(type, PERF_SAMPLE_READ));
	tap_ok(sample_id__sample_offset(PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN,
					PERF_SAMPLE_CALLCHAIN) == 8,
	       "SAMPLE: CALLCHAIN after TIME alone, at 8");
}

static void test_records(void)
{
	struct {
		struct perf_event_header h;
		__u64 body;
		__u64 trailer[3];
	} r = { { PERF_RECORD_MMAP, 0, sizeof(r) }, 7, { 11, 22, 33 } };
	const char *trailer = NULL;
	__u64 id = 0;
	int err;

	tap_ok(!sample_id__trailer(&r.h, TID_TIME | PERF_SAMPLE_IDENTIFIER, &trailer) &&
	       trailer == (const char *)r.trailer, "a record's trailer: its last 24 bytes");
	r.h.size = sizeof(r.h) + 16;
	tap_ok(sample_id__trailer(&r.h, TID_TIME, &trailer) == 0 &&
	       trailer == (const char *)&r.body, "a 24-byte record: a 16-byte trailer at 8");
	r.h.size = sizeof(r.h) + 8;
	tap_ok(sample_id__trailer(&r.h, TID_TIME | PERF_SAMPLE_IDENTIFIER, &trailer) == -EINVAL,
	       "a record smaller than its trailer: -EINVAL");
	r.h.size = sizeof(r);
	err = sample_id__identifier(&r.h, &id);
	tap_ok(!err && id == 33, "IDENTIFIER of a record: its last u64 (%d, %llu)", err,
	       (unsigned long long)id);
	err = sample_id__sample_identifier(&r.h, &id);
	tap_ok(!err && id == 7, "IDENTIFIER of a SAMPLE: its first u64 (%d, %llu)", err,
	       (unsigned long long)id);
	r.h.size = sizeof(r.h) + 4;
	tap_ok(sample_id__identifier(&r.h, &id) == -EINVAL &&
	       sample_id__sample_identifier(&r.h, &id) == -EINVAL,
	       "a record without room for an id: -EINVAL");
}

static void test_put_id(void)
{
	__u64 t[6];

	memset(t, 0, sizeof(t));
	sample_id__put_id(t, ALL_IDS, 5);
	tap_ok(t[5] == 5 && !t[2], "IDENTIFIER and ID: the id at IDENTIFIER only");
	memset(t, 0, sizeof(t));
	sample_id__put_id(t, PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_CPU, 6);
	tap_ok(t[1] == 6 && !t[0] && !t[2], "ID after TID: the id at 8");
	memset(t, 0, sizeof(t));
	sample_id__put_id(t, TID_TIME | PERF_SAMPLE_CPU, 9);
	tap_ok(!t[0] && !t[1] && !t[2], "neither ID nor IDENTIFIER: nothing written");
}

int main(void)
{
	tap_start("sample-id");
	test_sizes();
	test_sample_offsets();
	test_records();
	test_put_id();
	return tap_done();
}
