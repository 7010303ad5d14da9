/*
 * critical: the kernels of a run that replay re-runs on another GPU: from the
 * slowest rank's steady steps, the fewest compute kernel groups (same name,
 * launching op, Input Dims, Input type) making up at least 80% of its compute
 * kernel time, every collective group and every memcpy/memset group, with
 * their logged per-call median and spread. Two passes over the events; only
 * the chosen groups' durations are kept.
 */
#ifndef ANALYSIS_CRITICAL_H
#define ANALYSIS_CRITICAL_H

#include <stdint.h>

#include "analysis/result.h"
#include "core/model.h"

#define CRITICAL_SHARE 0.80	/* of the rank's compute kernel time */
#define CRITICAL_MAX 64		/* compute groups kept at most (the 80% rarely needs 20) */

/*
 * Fills rr->critical / rr->ncritical (in a's arena) from rank k's events
 * whose step lies in after < step < before (the nsteady steady steps). Leaves them
 * empty when the rank has no steady kernel.
 */
void critical_kernels(struct analysis *a, struct run_result *rr, const struct rank *k,
		      int64_t after, int64_t before, double nsteady);

#endif
