/*
 * plan_json: the plan command's result as JSON (docs/json.md's plan
 * section): its inputs, the GPU models, one object per strategy shown, the
 * recommendation and the rental options; unknown values are null.
 */
#ifndef RENDER_PLAN_JSON_H
#define RENDER_PLAN_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/plan.h"

/*
 * Writes r (computed from in) to f as indented JSON and a newline; with
 * explain, an "explain" array of plan_explain()'s lines too. Returns 0, or
 * -1 on a write error (f's error, not said here).
 */
int plan_json(const struct plan_inputs *in, const struct plan_result *r, bool explain, FILE *f);

#endif
