/*
 * analysis_json: analysis.json (DESIGN §6) from a struct analysis. Keys are
 * stable; unknown values are null.
 */
#ifndef RENDER_ANALYSIS_JSON_H
#define RENDER_ANALYSIS_JSON_H

#include <stdio.h>

#include "analysis/result.h"

/* Writes the document to f, indented; -1 on a write error. */
int analysis_write_json(const struct analysis *a, FILE *f);

#endif
