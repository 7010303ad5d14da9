/*
 * plan_text: the plan against the trial (analysis/result.h, struct plan_check) as lines for
 * people, shared by `analyze`'s text and the report's summary: per planned run, the predicted
 * peak memory per GPU and step time beside the measured ones, and whether each held.
 */
#ifndef RENDER_PLAN_TEXT_H
#define RENDER_PLAN_TEXT_H

#include "analysis/result.h"
#include "core/buf.h"

/*
 * Appends one line for rr's plan to out, starting with indent and ending with '\n'; nothing
 * when the run's run.ini predicts nothing.
 */
void plan_line(const struct run_result *rr, const char *indent, struct buf *out);

/* True when some run of a has a plan to show. */
bool plan_any(const struct analysis *a);

#endif
