/*
 * charts_internal: what the chart modules of render/ share and nothing else
 * sees: the run order, run colours, labels and banner of render/charts.c,
 * and the build functions of the chart families (charts_step.c,
 * charts_memory.c, charts_comm.c, charts_more.c, charts_roof.c,
 * charts_diff.c) that chart_defs lists.
 */
#ifndef RENDER_CHARTS_INTERNAL_H
#define RENDER_CHARTS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/result.h"
#include "render/layout.h"

#define MAX_ORDER 8		/* runs a chart shows */
#define MS(s) ((s) * 1e3)	/* seconds to milliseconds */
#define GB(b) ((double)(b) / 1e9)	/* bytes to GB of 1e9 bytes */

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
/* "run\nGPU n": a GPU's label under its bar or beside its row; owned by c. */
const char *gpu_cat_label(const struct analysis *a, size_t run, size_t gi, struct chart_layout *c);
/*
 * The not-comparable banner (chart_set_banner()) leaving out the blocking
 * confounds in skip (1u << enum confound_what: those a chart corrects for);
 * NULL when none stands. Owned by c.
 */
const char *banner_text(const struct analysis *a, struct chart_layout *c, unsigned skip);

/* Horizontal bars with a name per row (charts 06, 15): the widest name, in the tick font. */
double row_names_width(const char *const *rows, size_t n);
/* text right of a bar ending at v on row y, the x axis widened for it to fit beside names that wide. */
void bar_label(struct chart_layout *c, struct panel *p, double names, double v, double y, const char *text);

/* Each lays the chart out in c and returns 0, or returns 1 with *why (chart_defs' build). */
/* render/charts_step.c */
int chart_step_time(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_breakdown(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_waterfall(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_kernels(const struct analysis *a, struct chart_layout *c, const char **why);
/* render/charts_memory.c (imbalance_note() too) */
int chart_memory(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_monitor(const struct analysis *a, struct chart_layout *c, const char **why);
/* render/charts_comm.c */
int chart_comm(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_timeline(const struct analysis *a, struct chart_layout *c, const char **why);

/* render/charts_more.c */
int chart_options(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_sweep(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_precision(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_waiting(const struct analysis *a, struct chart_layout *c, const char **why);
int chart_replay(const struct analysis *a, struct chart_layout *c, const char **why);

/* render/charts_roof.c */
int chart_roofline(const struct analysis *a, struct chart_layout *c, const char **why);
/* render/charts_diff.c */
int chart_diff(const struct analysis *a, struct chart_layout *c, const char **why);

#endif
