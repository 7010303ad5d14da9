/*
 * partition: splits consecutive time windows into compute, exposed
 * communication, memory and idle, instant by instant (docs/analysis.md): at each
 * instant the first that holds wins: any compute kernel running (on any
 * stream) > only communication kernels > only memcpy/memset > nothing.
 * So compute + exposed_comm + memory + idle equals the window exactly.
 * comm_total is the union of communication kernels in the window and
 * overlapped_comm = comm_total - exposed_comm.
 *
 * One sweep over all interval ends, O(n log n) for n intervals.
 */
#ifndef ANALYSIS_PARTITION_H
#define ANALYSIS_PARTITION_H

#include <stddef.h>
#include <stdint.h>

#include "core/model.h"

/* Nanosecond totals of one window. */
struct parts_ns {
	int64_t compute;
	int64_t exposed_comm;
	int64_t memory;
	int64_t idle;
	int64_t comm_total;
};

struct interval {
	int64_t start;		/* ns */
	int64_t end;		/* ns; an interval with end <= start covers nothing */
	uint8_t cls;		/* enum ev_class */
};

/*
 * Partitions windows [bounds[i], bounds[i+1]) for i < nwin, so bounds has
 * nwin + 1 entries, non-decreasing. Intervals may come in any order,
 * overlap, nest or repeat. out[i] receives window i.
 */
void partition_windows(const struct interval *iv, size_t niv, const int64_t *bounds,
		       size_t nwin, struct parts_ns *out);

#endif
