/*
 * partition: splits consecutive time windows into compute, exposed
 * communication, memory and idle, instant by instant (docs/analysis.md): at each
 * instant the first that holds wins: any compute kernel running (on any
 * stream) > only communication kernels > only memcpy/memset > nothing.
 * So compute + exposed_comm + memory + idle equals the window exactly.
 * comm_total is the union of communication kernels in the window and
 * overlapped_comm = comm_total - exposed_comm; memory_total the union of
 * memcpy/memset and kernel_busy the union of everything.
 *
 * A communication kernel comes as two intervals: the part where it waits
 * for a peer (class IV_COMM_WAIT) and the part where it transfers
 * (EVC_COMM). An instant of communication is waiting only when no
 * communication kernel is transferring then, so exposed_comm_wait <=
 * exposed_comm and comm_wait <= comm_total.
 *
 * Idle is split by cause (docs/analysis.md): a gap of the GPU (nothing open
 * on any stream) is closed by the intervals that open at its end. It is
 * host idle when the earliest known launch among them started after the gap
 * began (the CPU had not launched the work yet), sync idle when it started
 * at or before that (launched, but held by a stream, event or peer), other
 * when none of them has a known launch or nothing closes it (the window's
 * or the trace's end). A gap cut by a window boundary keeps its cause in
 * each window. So idle_host + idle_sync <= idle.
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
	int64_t exposed_comm_wait;	/* the part of exposed_comm where every comm kernel waits */
	int64_t comm_wait;		/* the same part of comm_total */
	int64_t memory_total;		/* union of memcpy/memset */
	int64_t kernel_busy;		/* union of all GPU work */
	int64_t idle_host;		/* idle whose next work was launched after the gap began */
	int64_t idle_sync;		/* idle whose next work was launched before it */
};

/* Interval classes: enum ev_class, and this one for a communication kernel's wait. */
enum { IV_COMM_WAIT = EVC_MEMORY + 1, IV_NCLASSES };

struct interval {
	int64_t start;		/* ns */
	int64_t end;		/* ns; an interval with end <= start covers nothing */
	uint8_t cls;		/* enum ev_class or IV_COMM_WAIT */
	int64_t launched;	/* ns its runtime launch started; LAUNCH_UNKNOWN */
};

/*
 * Partitions windows [bounds[i], bounds[i+1]) for i < nwin, so bounds has
 * nwin + 1 entries, non-decreasing. Intervals may come in any order,
 * overlap, nest or repeat. out[i] receives window i.
 */
void partition_windows(const struct interval *iv, size_t niv, const int64_t *bounds,
		       size_t nwin, struct parts_ns *out);

#endif
