/*
 * clock: one clock for the ranks of a run, and the part of each
 * communication kernel spent waiting for a peer (docs/analysis.md).
 *
 * Matched collectives are the k-th communication kernel of the same kind
 * and process group on each rank, in start order; a kind whose counts
 * differ between ranks is not matched (a `collective-count-mismatch`
 * finding). Rank r's offset is the median over matched collectives of
 * (end on the lowest rank - end on r). In a matched collective a rank waits
 * from its own aligned start to the latest aligned start, clipped to its
 * kernel; the rest is transfer. An unmatched kernel is all transfer.
 */
#ifndef ANALYSIS_CLOCK_H
#define ANALYSIS_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "core/model.h"

struct clock_rank {
	bool aligned;		/* offset_ns is known: the reference rank, or matched collectives */
	int64_t offset_ns;	/* added to this rank's times gives the reference rank's clock */
	int64_t *wait_end;	/* per event of the rank (k->ev order): where its waiting ends;
				 * == start when it does not wait; NULL when nothing waits */
	int32_t waited_for;	/* index of the rank it waited for longest; -1 none */
	size_t matched;		/* its matched communication kernels */
};

struct clock {
	struct clock_rank *rank;	/* one per r->ranks[i] */
	size_t n;
	size_t reference;	/* index of the lowest rank: offset 0 */
};

/*
 * Aligns the ranks of r and splits its communication kernels into waiting
 * and transfer. Count mismatches become findings of a (t, for process group
 * names, may be NULL). The caller owns c and frees it with clock_release().
 */
void clock_align(struct analysis *a, const struct trial *t, const struct run *r,
		 struct clock *c);
void clock_release(struct clock *c);

/* How long event i of rank g waits for a peer, in ns; 0 when it does not. */
int64_t clock_wait_ns(const struct clock *c, size_t g, const struct gpu_event *ev, size_t i);

#endif
