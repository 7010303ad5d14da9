/*
 * plan_text: plans as lines for people. The plan against the trial
 * (analysis/result.h, struct plan_check), shared by `analyze`'s text and the
 * report's summary: per planned run, the predicted peak memory per GPU and
 * step time beside the measured ones, and whether each held. And the plan
 * command's output (analysis/plan.h): its inputs, the memory and
 * communication tables per strategy, the recommendation and the rental
 * options, and with --explain every formula with its numbers and source.
 */
#ifndef RENDER_PLAN_TEXT_H
#define RENDER_PLAN_TEXT_H

#include <stdbool.h>

#include "analysis/plan.h"
#include "analysis/result.h"
#include "core/buf.h"

/*
 * Appends one line for rr's plan to out, starting with indent and ending with '\n'; nothing
 * when the run's run.ini predicts nothing.
 */
void plan_line(const struct run_result *rr, const char *indent, struct buf *out);

/* True when some run of a has a plan to show. */
bool plan_any(const struct analysis *a);

/* True when in shows strategy s: no strategy was chosen, or s is the one. */
bool plan_shown(const struct plan_inputs *in, int s);

/*
 * Appends the plan command's text for r (computed from in) to out: the header
 * and prose wrapped at 80 columns, the tables as they are; with explain, then
 * "how these numbers are made:" and plan_explain()'s lines, wrapped. out holds
 * the title and model names as given: the caller writes it through core/utf8.
 */
void plan_text(const struct plan_inputs *in, const struct plan_result *r, bool explain, struct buf *out);

/*
 * Appends every formula of r with its numbers and its source to out, one
 * '\n'-ended line per statement, not wrapped (the JSON's "explain" lines).
 */
void plan_explain(const struct plan_inputs *in, const struct plan_result *r, struct buf *out);

#endif
