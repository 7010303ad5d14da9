/*
 * charts_internal: what the chart modules of render/ share and nothing else
 * sees: the run order and run colours of render/charts.c, and the build
 * functions of the charts in render/charts_more.c that chart_defs lists.
 */
#ifndef RENDER_CHARTS_INTERNAL_H
#define RENDER_CHARTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/result.h"
#include "render/layout.h"

#define MAX_ORDER 8		/* runs a chart shows */

/* True when the comparison's run indexes can be trusted. */
bool compared(const struct analysis *a);
/* Fills order with run indexes in chart order (baseline, candidate, the others); returns how many. */
size_t run_order(const struct analysis *a, size_t *order);
/* The colour of run i, the same in every chart. */
enum category run_cat(const struct analysis *a, size_t i);
/* "baseline: 1gpu (1 GPU)", or "name (n GPUs)" outside a comparison; owned by c. */
const char *run_label(const struct analysis *a, size_t i, struct chart_layout *c);
/* A GPU's number for labels: its rank, else its index in the run. */
int gpu_number(const struct gpu_result *g, size_t index);
/* "Imbalance (run): reason" for the first run whose imbalance is flagged; NULL when none. */
const char *imbalance_note(const struct analysis *a, struct chart_layout *c);

/* render/charts_more.c: each lays the chart out in c and returns 0, or returns 1 with *why. */
int chart_options(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_sweep(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_precision(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_waiting(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_replay(const struct analysis *a, struct chart_layout *c, const char **why);

#endif
