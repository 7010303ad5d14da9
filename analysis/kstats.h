/*
 * kstats: per-kernel statistics and launch statistics of a run
 * (docs/analysis.md "Per-kernel statistics", "Launch statistics"), on one
 * rank: over its steady steps (steady_range_has), or over its whole
 * profiled span when span is true (the run has no steady step).
 *
 * Per-kernel statistics group the rank's GPU events by full name, keep the
 * KSTATS_TOP names with the most total time (ties by name), and give each
 * its calls, total and per-call mean, min, max, p50 and p90
 * (analysis/stats.h's percentile rule). Two passes: totals of every name
 * first, then the durations of the kept names only.
 */
#ifndef ANALYSIS_KSTATS_H
#define ANALYSIS_KSTATS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/analysis.h"
#include "analysis/result.h"
#include "core/model.h"

void kernel_stats(struct analysis *a, struct kernel_stats *out, const struct rank *k,
		  const struct steady_range *steps, bool span, int64_t nsteady);
void launch_stats(struct launch_stats *out, const struct rank *k, const struct steady_range *steps,
		  bool span, int64_t nsteady);

#endif
