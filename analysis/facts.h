/*
 * facts: declared against measured (docs/analysis.md). Which value of each
 * fact a run uses, where it came from, and the findings where run.ini
 * disagrees with the logs, or with itself: the measured value is the one
 * used, traces over logs over run.ini.
 */
#ifndef ANALYSIS_FACTS_H
#define ANALYSIS_FACTS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/result.h"
#include "core/model.h"

/* The value a run uses for a counted fact: the logs', else run.ini's; -1 when neither says. */
int64_t fact_used(const struct fact_i64 *logged, const struct fact_i64 *declared);

/*
 * The GPUs over which a run of `gpus` GPUs with `strategy` splits its global
 * batch: the data-parallel size its logs print (Megatron), else world size /
 * (tensor x pipeline sizes) where the logs print those; else all its GPUs for
 * single, ddp, fsdp and zero, 1 for pipeline, tensor and device_map, 1 for a
 * 1-GPU run; -1 when unknown (no strategy, or no GPU count).
 */
int64_t fact_dp_gpus(const struct run *r, int64_t gpus, const char *strategy);

/*
 * Whether two names of a model or dataset agree: ignoring case, everything
 * but letters and digits, and the directories before the last '/', one holds
 * the other ("allenai/c4" and "C4", "Llama-3-8B" and "llama3 8B"). Names with
 * nothing left to compare agree; NULL agrees with anything.
 */
bool fact_names_agree(const char *a, const char *b);

/*
 * Fills rr->facts from r's run.ini, logs and traces and from rr (analysed,
 * its declared precision chosen), and adds the findings: `manifest-conflict`
 * (error) where run.ini disagrees with a log on a fact, or its global_batch
 * is not its micro_batch x data-parallel GPUs x grad_accum, or the values
 * used break that product with a run.ini value among them;
 * `batch-inconsistent` (warning) where the values used, all measured, break
 * it. Strings are the analysis' own.
 */
void analysis_declared(struct analysis *a, const struct trial *t, const struct run *r,
		       struct run_result *rr);

#endif
