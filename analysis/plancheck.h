/*
 * plancheck: the plan against the trial. Where a run's run.ini carries the figures
 * `scaleaudit plan` predicted (predicted_peak_gb, predicted_step_s), compares them with the
 * run's measured peak memory per GPU and median step time, and says where the plan was wrong.
 */
#ifndef ANALYSIS_PLANCHECK_H
#define ANALYSIS_PLANCHECK_H

#include "analysis/result.h"
#include "core/model.h"

/*
 * Fills rr->plan from r's declared predictions and rr's measurements (rr already analysed);
 * adds `plan-memory-off` / `plan-step-off` warnings beyond PLAN_MEMORY_TOLERANCE /
 * PLAN_STEP_TOLERANCE (analysis/thresholds.h) and one `plan-within` note for what held
 * (an out-of-memory failure the plan foresaw included).
 * A run without predictions is left with rr->plan.present false and no finding.
 */
void analysis_plan_check(struct analysis *a, const struct run *r, struct run_result *rr);

/*
 * True when the run ran out of GPU memory below the peak the plan predicted (or where no
 * peak is known): its measured peak is only where it failed, and the failure is what the
 * plan foresaw, so it is no `plan-memory-off`.
 */
bool plan_oom_foreseen(const struct run_result *rr);

/* measured / predicted - 1 (0.2: 20% above the plan); NaN when either is unknown or predicted <= 0. */
double plan_deviation(double predicted, double measured);

#endif
