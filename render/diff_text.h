/*
 * diff_text: the per-op and per-kernel diff of the comparison
 * (comparison.diff) as aligned tables, for `analyze --diff`.
 */
#ifndef RENDER_DIFF_TEXT_H
#define RENDER_DIFF_TEXT_H

#include <stdio.h>

#include "analysis/result.h"

/* The ops' table, then the kernels', each ranked as the analysis kept them; or why there is none. */
void diff_text(const struct analysis *a, FILE *f);

#endif
