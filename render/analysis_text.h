/*
 * analysis_text: the one screen a person reads first: hypothesis and
 * verdict, speedup and efficiency, where the time went per GPU, memory per
 * GPU, confounds and recommendations, with units on every number.
 */
#ifndef RENDER_ANALYSIS_TEXT_H
#define RENDER_ANALYSIS_TEXT_H

#include <stdio.h>

#include "analysis/result.h"

int analysis_write_text(const struct analysis *a, FILE *f);

#endif
