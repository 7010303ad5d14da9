/*
 * analysis_text: the one screen a person reads first: hypothesis and
 * verdict, speedup and efficiency, where the time went per GPU, memory per
 * GPU, confounds and recommendations, with units on every number.
 */
#ifndef RENDER_ANALYSIS_TEXT_H
#define RENDER_ANALYSIS_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis/result.h"

struct analysis_text_options {
	bool color;	/* ANSI colours on the verdict and severity words; the caller decides */
	bool diff;	/* the per-op and per-kernel diff after the rest (analyze --diff) */
	bool kernels;	/* instead of the summary: each run's top kernels and launch statistics */
};

/*
 * Writes the text of a to f; opt NULL means the defaults (no colour). With
 * colour off the text holds no escape codes: the colours are the only ones
 * sent, and every text from the inputs (titles, names, messages) is written
 * with invalid UTF-8 as U+FFFD and control characters as \xNN (core/utf8.h).
 * Returns -1 when f failed.
 */
int analysis_write_text(const struct analysis *a, FILE *f, const struct analysis_text_options *opt);

#endif
