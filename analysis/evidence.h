/*
 * evidence: what a verdict rests on (docs/analysis.md "Evidence for a
 * verdict"). The inputs of a criterion that were not measured, each named
 * with how to measure it; a superlinear scaling efficiency and the causes
 * that explain it; and the weak evidence written beside a confirmed or
 * refuted verdict. Everything reads the result only (runs, comparison), so
 * that it holds for an analysis however it was built.
 */
#ifndef ANALYSIS_EVIDENCE_H
#define ANALYSIS_EVIDENCE_H

#include <stdbool.h>

#include "analysis/result.h"


/*
 * The facts a verdict lacks, each with how to measure it, gathered in the
 * criterion's order; gaps_text() joins them ("peak memory of 2gpu GPU 1
 * unknown: record nvidia-smi or profile with profile_memory=True"), one
 * remedy said once for consecutive facts that share it.
 */
#define GAPS_MAX 16
struct gaps {
	size_t n;
	struct gap {
		const char *fact;
		const char *remedy;
	} v[GAPS_MAX];
};
void gaps_add(struct gaps *g, const char *fact, const char *remedy);	/* beyond GAPS_MAX: dropped */
const char *gaps_text(struct analysis *a, const struct gaps *g);	/* NULL when there is none */

/*
 * Each adds to g what the run lacks for a verdict: its step time (none, or
 * one from a whole-job summary over fewer than LOG_SUMMARY_MIN_STEPS steps
 * run, which enters no verdict), its throughput (likewise; an unknown global
 * batch is said by evidence_global_batch), its global batch, and the peak
 * memory and capacity of every GPU it used. Each returns true when the run
 * has that input.
 */
bool evidence_step_time(struct analysis *a, const struct run_result *r, struct gaps *g);
bool evidence_throughput(struct analysis *a, const struct run_result *r, struct gaps *g);
bool evidence_global_batch(struct analysis *a, const struct run_result *r, struct gaps *g);
bool evidence_memory(struct analysis *a, const struct run_result *r, struct gaps *g);
/* The first GPU of r at or above its memory capacity (both known); -1 when none. */
int evidence_at_capacity(const struct run_result *r);
/* "GPU 0 of 2gpu reached its memory capacity (85.0 GB of 85.0 GB)" for GPU index g. */
const char *evidence_capacity_text(struct analysis *a, const struct run_result *r, int g);

/* "run '1gpu' did not run its steps: it ran out of GPU memory (it failed to allocate 3.8 GB)" */
const char *evidence_failed_text(struct analysis *a, const struct run_result *r);
/* "on 2 GPUs it completed 7 steady steps; GPU 0 peaked at 74.9 GB of 85.0 GB, GPU 1 at ..." */
const char *evidence_outcome_text(struct analysis *a, const struct run_result *r);

/*
 * cmp.superlinear from the comparison's scaling efficiency: present above
 * SUPERLINEAR_EFFICIENCY, with the causes that hold, unless a blocking
 * confound already explains the numbers; the finding's message says every
 * cause checked with its numbers.
 */
void evidence_superlinear(struct analysis *a);
const char *evidence_superlinear_message(struct analysis *a);
/* "114% scaling efficiency, superlinear: see the superlinear finding (per-gpu-batch)" */
const char *evidence_efficiency_text(struct analysis *a);

/* cmp.weak: what weakens the verdict when it is confirmed or refuted; none otherwise. */
void evidence_weak(struct analysis *a);

#endif
