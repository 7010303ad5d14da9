/*
 * batch_index: the front pages of a batch's output directory, drawn from
 * the trials table of results.sqlite: index.md and index.html (one
 * self-contained page: a table sortable by any column, each trial linked to
 * its report.html, and the summary charts of render/batch_charts.c inline),
 * and beside them summary.csv and summary.json (render/results_db).
 */
#ifndef RENDER_BATCH_INDEX_H
#define RENDER_BATCH_INDEX_H

#include <stddef.h>
#include <stdio.h>

#include "core/diag.h"
#include "render/layout.h"
#include "render/results_db.h"

/* Writes index.md: the counts, then one table row per trial; -1 on a write error. */
int batch_index_md(const struct trial_row *rows, size_t n, FILE *f);
/*
 * Writes index.html: the counts, the ncharts finished charts as inline SVG,
 * then the table. Every text from the rows is HTML-escaped; the only script
 * is the table's sorter. -1 on a write error or when a chart failed to draw.
 */
int batch_index_html(const struct trial_row *rows, size_t n, const struct chart_layout *charts,
		     size_t ncharts, FILE *f);

/*
 * Writes the four summaries of rows into the directory dir, each to a
 * temporary file renamed into place (write_atomic()): summary.csv,
 * summary.json, index.md and index.html with the summary charts. Stops at
 * the first that fails: returns 0, or -1 with the error in d.
 */
int batch_index_write(const struct trial_row *rows, size_t n, const char *dir, struct diags *d);

#endif
