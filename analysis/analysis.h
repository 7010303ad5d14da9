/*
 * analysis: from a loaded trial, the numbers and verdict that docs/analysis.md
 * defines, as a struct analysis (analysis/result.h). The trial is only read.
 *
 * Ownership: the analysis owns everything it points to (copies of what it
 * takes from the trial), so the trial may be freed as soon as analysis_run()
 * returns.
 */
#ifndef ANALYSIS_ANALYSIS_H
#define ANALYSIS_ANALYSIS_H

#include "analysis/result.h"
#include "core/model.h"

struct analysis *analysis_run(const struct trial *t);
void analysis_free(struct analysis *a);

/* Per-run analysis (analysis/runs.c); fills rr from r. */
void analysis_run_one(struct analysis *a, const struct trial *t, const struct run *r,
		      struct run_result *rr);
/*
 * Warm-up steps among n closed steps in step order, with their numbers and
 * times (analysis/runs.c): step 0 always, then leading steps while more than
 * 15% above the median of the second half of the n.
 */
size_t steps_warmup_count(const int64_t *number, const double *t, size_t n);
/*
 * A GPU's steady steps by number: after its last warm-up step and before its
 * trailing one (analysis/runs.c); every number when it has neither.
 */
struct steady_range {
	int64_t after;		/* the last warm-up step; INT64_MIN when none */
	int64_t before;		/* the trailing step; INT64_MAX when none */
};
struct steady_range gpu_steady_range(const struct gpu_result *g);
bool steady_range_has(const struct steady_range *r, int64_t step);
/* How many of a GPU's steps are steady: neither warm-up nor trailing. */
size_t gpu_steady_steps(const struct gpu_result *g);
/* What a GPU's sums are divided by to be per step: its steady steps, or 1 over the whole span. */
double gpu_per_steps(const struct gpu_result *g, bool span);
/*
 * What a run's numbers are taken over: its steady steps, or, with none, the
 * whole profiled span (docs/analysis.md "No steps at all"); whether GPU
 * event e of a GPU with steady range *steps counts.
 */
bool run_measures_span(const struct run_result *rr);
bool run_measures(const struct run_result *rr, const struct steady_range *steps,
		  const struct gpu_event *e);
/* The largest world_size the run's rank traces give; -1 when none gives one (analysis/runs.c). */
int32_t run_world_size(const struct run *r);
/*
 * True when two GPU names (each with its total memory in bytes, -1 unknown)
 * are different rows of the GPU table, or, when the table knows neither,
 * different names; false when either is NULL or only one is known.
 */
bool gpu_models_differ(const char *a, int64_t amem, const char *b, int64_t bmem);
/*
 * Whether a strategy's GPUs each hold a share of the model (pipeline, tensor,
 * fsdp, zero, device_map: their peaks add up) rather than a replica of it
 * (single, ddp); true for NULL, an unknown strategy (analysis/advice.c).
 */
bool strategy_splits_model(const char *strategy);
/* The parallel strategy a run's collectives and memory suggest, or NULL. */
const char *run_inferred_strategy(const struct run_result *rr);
/* Baseline, candidate, confounds, attribution and verdict (analysis/compare.c). */
void analysis_compare(struct analysis *a, const struct trial *t);
/*
 * The verdict, its reason and criterion, and the answer to an hparam-sweep
 * question, from what the comparison already holds (runs, speedup,
 * throughput ratio, confounds) and a->expected_speedup (analysis/compare.c).
 */
void analysis_verdict(struct analysis *a);
/* The first blocking confound, of any kind: what no verdict stands past; NULL none. */
const struct confound *comparison_first_blocking(const struct comparison *c);
/*
 * The first blocking confound other than global_batch and gpus (those block
 * the verdict, not each run's own numbers): what no advice may be drawn
 * past; NULL none.
 */
const struct confound *comparison_blocked(const struct comparison *c);
/* A blocking confound as a sentence for people, with both sides' values. */
const char *confound_sentence(struct analysis *a, const struct confound *cf);
/*
 * The rental options of both runs and the decision, what to rent next
 * (analysis/decision.c); before analysis_advise, which words the options.
 */
void analysis_decide(struct analysis *a, const struct trial *t);
/* From the advice: a decision blocked by a confound names run, the next trial the advice gives. */
void analysis_decide_next(struct analysis *a, const char *run);
/* Recommendations (analysis/advice.c). */
void analysis_advise(struct analysis *a, const struct trial *t);

/* Adds a finding; message and source are copied; code as in diag_add (core/codes.h). */
void analysis_finding(struct analysis *a, enum diag_severity sev, const char *code,
		      const struct srcpos *src, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* A printf into the analysis' arena. */
const char *analysis_printf(struct analysis *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/*
 * One quantity as every output prints it, into the analysis' arena: fmt is a
 * core/qty.h formatter, analysis_qty(a, qty_gb, bytes) -> "49.7 GB".
 */
const char *analysis_qty(struct analysis *a, const char *(*fmt)(char *, double), double v);
/* A throughput as every output prints it: (a, 376.94, "samples") -> "376.9 samples/s". */
const char *analysis_rate(struct analysis *a, double per_s, const char *what);

#endif
