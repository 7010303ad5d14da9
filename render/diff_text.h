/*
 * diff_text: the per-op and per-kernel diff of the comparison
 * (comparison.diff) as aligned tables, for `analyze --diff`.
 */
#ifndef RENDER_DIFF_TEXT_H
#define RENDER_DIFF_TEXT_H

#include <stddef.h>
#include <stdio.h>

#include "analysis/result.h"
#include "core/qty.h"

/*
 * A row's name in at most width characters (width >= 8; buf of 4 x width
 * + 8 bytes): a kernel's parameter list dropped, then the middle cut out
 * ("aten::_scaled_dot_pr...attention_backward"), so that two names alike
 * at the start stay apart; an op not recorded is named so.
 */
const char *diff_name(char *buf, size_t size, const char *name, size_t width);

/* A kernel's name in at most width characters: kname_short(), then cut as diff_name() cuts. */
const char *kernel_cell(char *buf, size_t size, const char *name, size_t width);

/* A diff row's name: an op's as diff_name(), a kernel's as kernel_cell(). */
const char *diff_row_name(char *buf, size_t size, const struct diff_row *r, size_t width);

/* Calls per step (QTY_LEN bytes): whole and grouped ("14", "1,344"), else as qty_num ("22.5"); "-" for none. */
const char *diff_calls(char out[QTY_LEN], double v);

/* The ops' table, then the kernels', each ranked as the analysis kept them; or why there is none. */
void diff_text(const struct analysis *a, FILE *f);

#endif
