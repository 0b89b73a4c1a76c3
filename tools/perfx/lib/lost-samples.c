// SPDX-License-Identifier: GPL-2.0
/* perf record's closing PERF_RECORD_LOST_SAMPLES, from the kernel's counts */
#include <string.h>
#include <unistd.h>

#include "data.h"
#include "evlist.h"
#include "evsel-internal.h"
#include "lost-samples.h"
#include "sample-id.h"

int lost_samples__write(struct evlist *evlist, struct perfx_writer *out)
{
	struct {
		struct perf_event_header header;
		__u64 lost;
		__u64 trailer[6];
	} rec;
	struct evsel *evsel;
	int i, j;

	evlist__for_each(evlist, i, evsel) {
		__u64 sample_type = evsel->attr.sample_type;
		__u16 id_size = sample_id__hdr_size(sample_type);
		/* value, [enabled, running (-s)], id, lost */
		int nr = 3 + !!(evsel->attr.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) +
			 !!(evsel->attr.read_format & PERF_FORMAT_TOTAL_TIME_RUNNING);

		for (j = 0; j < evsel__nr_fds(evsel); j++) {
			__u64 v[5];
			int err;

			/* an fd that cannot say is taken as one that lost nothing */
			if (read(evsel->fds[j], v, nr * sizeof(*v)) != (ssize_t)(nr * sizeof(*v)) ||
			    !v[nr - 1])
				continue;
			memset(&rec, 0, sizeof(rec));
			rec.header.type = PERF_RECORD_LOST_SAMPLES;
			rec.header.size = sizeof(rec.header) + 8 + id_size;
			rec.lost = v[nr - 1];
			sample_id__put_id(rec.trailer, sample_type, v[nr - 2]);
			err = perfx_writer__write(out, &rec, rec.header.size);
			if (err)
				return err;
		}
	}
	return 0;
}
