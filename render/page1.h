/*
 * page1: the summary's pages of report.pdf. Page 1 is the decision and
 * never more than one page: the summary's decision lines beside a small
 * headline chart, the runs as a table, then as many confounds and
 * recommendations as fit, with a line saying how many more follow. Those,
 * and the summary's other lines, flow onto the next pages, a heading never
 * left alone at the bottom of one.
 */
#ifndef RENDER_PAGE1_H
#define RENDER_PAGE1_H

#include <cairo.h>

#include "analysis/result.h"
#include "render/layout.h"
#include "render/summary.h"

/* A page's size and margin, in points. */
struct page_geom {
	double w, h, margin;
};

/*
 * Builds the headline chart: samples per second per run (for a sweep, also
 * the n independent 1-GPU runs together), a failed run marked as failed.
 * Its id, 00-throughput, names its files in charts/; its caption says what
 * it holds. Returns 0, or 1 (c released) when no run has a throughput or a
 * failure.
 */
int page1_chart(const struct analysis *a, struct chart_layout *c);

/*
 * Draws s: page 1 (with chart when not NULL), then the pages its other lines
 * need, each page shown. Returns the lines of the decision page 1 left to
 * page 2 (0 when it all fitted).
 */
size_t summary_pages_draw(cairo_t *cr, const struct summary *s, const struct chart_layout *chart,
			  const struct page_geom *g);

#endif
