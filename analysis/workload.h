/*
 * workload: whether the two runs of a trial are one job (docs/analysis.md,
 * "Workload identity"). Each run's kernel time by kernel family
 * (kname_family()), and the two runs compared by the overlap of their
 * families, or, where their kernels cannot say, by the model, dataset and
 * sequence length they name.
 */
#ifndef ANALYSIS_WORKLOAD_H
#define ANALYSIS_WORKLOAD_H

#include <stdbool.h>

#include "analysis/result.h"
#include "core/model.h"

/* The families found on one side only that comparison.workload lists, per side ... */
#define WORKLOAD_ONLY_SHOWN 3
/* ... of which the confound's sentence names the first this many per run. */
#define WORKLOAD_SAID_FAMILIES 2

/*
 * rr's kernel time by family (families, nfamilies, kernel_time_s,
 * generated_share, families_span) from r's ranks, once analysis_run_one()
 * has marked rr's steps: the non-communication kernels launched in a steady
 * step of their rank, or, when the run has no steady step (or none of its
 * kernels was launched in one), every non-communication kernel of each rank.
 * Family names are copied into a's arena.
 */
void workload_run(struct analysis *a, const struct run *r, struct run_result *rr);

/*
 * Fills a->cmp.workload for the comparison's baseline and candidate (t is
 * the trial they were analysed from: its runs declare and log model,
 * dataset and seq_len) and returns true with *cf set (what, both sides,
 * severity, why; no message) when a `workload` confound stands. Call it
 * once the model, dataset and seq_len confounds are in a->cmp.confounds:
 * a fact that differs is theirs to raise, not this one's.
 */
bool workload_compare(struct analysis *a, const struct trial *t, struct confound *cf);

#endif
