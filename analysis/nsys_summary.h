/*
 * nsys_summary: what a run's Nsight Systems console tables (run->nsys_*)
 * can say on their own: GPU time by class over the profiled span, and a
 * step time when an NVTX range marks the training steps. It reads the model
 * only; the tables give totals, never a timeline, so nothing here knows
 * overlap or idle time.
 */
#ifndef ANALYSIS_NSYS_SUMMARY_H
#define ANALYSIS_NSYS_SUMMARY_H

#include <stdbool.h>
#include <stdint.h>

#include "core/model.h"

/* An NVTX range is taken for the steps only with at least this many instances. */
#define NVTX_STEP_MIN_INSTANCES 5

struct nsys_summary {
	bool present;		/* the run has kernel or memory tables */
	double gpu_ns[3];	/* kernel and memory-operation time by enum ev_class */
	double gpu_total_ns;	/* their sum: GPU busy time, overlap counted twice */
	const char *step_range;	/* the NVTX range (or family "ProfilerStep#N") taken as the step; NULL */
	int64_t steps;		/* its instances; 0 when no step range */
	double step_ns;		/* its median duration (mean where no median is known); NaN */
};

/*
 * Fills *out for run r. The step range is the one whose name, without a
 * leading ':' domain and a trailing "#N" or number, is a step word
 * ("step", "train_step", "iteration", "ProfilerStep", ... ignoring case)
 * and that has the most instances, at least NVTX_STEP_MIN_INSTANCES;
 * ranges of one family ("ProfilerStep#3", "ProfilerStep#4") count
 * together, and their step time is the median of their means.
 */
void nsys_summary_of_run(const struct run *r, struct nsys_summary *out);

#endif
