/*
 * diff: the comparison's baseline and candidate side by side, per CPU op
 * that launched GPU work and per kernel family (docs/analysis.md,
 * "Per-op diff"), into a->cmp.diff.
 */
#ifndef ANALYSIS_DIFF_H
#define ANALYSIS_DIFF_H

#include <stddef.h>

#include "analysis/result.h"
#include "core/model.h"

/*
 * Fills a->cmp.diff from the traces of the comparison's two runs (t is the
 * trial a was analysed from). Call it after analysis_compare(): it needs the
 * runs picked, their GPU counts and their steady steps.
 */
void analysis_diff(struct analysis *a, const struct trial *t);

/*
 * Ranks rows[0..n) in place, largest added_s first (equal ones by name, an
 * unnamed row last), and returns how many of them are kept: at most top.
 */
size_t diff_rank(struct diff_row *rows, size_t n, size_t top);

#endif
