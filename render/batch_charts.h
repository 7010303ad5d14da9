/*
 * batch_charts: the summary charts of a batch, laid out from the trials
 * table of results.sqlite (render/results_db.h) like the report's charts:
 * speedup and scaling efficiency per trial grouped by GPU model, the
 * verdict counts, and where the lost time went across trials.
 */
#ifndef RENDER_BATCH_CHARTS_H
#define RENDER_BATCH_CHARTS_H

#include <stddef.h>

#include "render/layout.h"
#include "render/results_db.h"

/*
 * Lays out the charts that have data into *charts (a new array); returns
 * how many (0: none, *charts NULL). Release with batch_charts_release().
 */
size_t batch_charts(const struct trial_row *rows, size_t n, struct chart_layout **charts);
void batch_charts_release(struct chart_layout *charts, size_t n);

#endif
