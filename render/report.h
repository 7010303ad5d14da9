/*
 * report: the decision-ready report of one analysis, written into a
 * directory:
 *
 *   DIR/report.pdf                 page 1 the decision summary, then one chart a page
 *   DIR/summary.md                 the same summary in Markdown, the PNGs linked
 *   DIR/report.html                the same as report.pdf in one self-contained page (render/html.h)
 *   DIR/charts/NN-name.{png,svg,pdf}
 *   DIR/analysis.json              the analysis (render/analysis_json.h)
 *
 * Charts without data are left out, each with its reason in both summaries.
 * Output bytes depend on the analysis alone (PDF dates from
 * SOURCE_DATE_EPOCH, else 1970-01-01). Every file is written under a
 * temporary name and renamed, so a file that exists is complete.
 * One report at a time writes into DIR (an flock on DIR itself); a
 * temporary file is removed when SIGINT, SIGTERM or SIGHUP ends the process.
 */
#ifndef RENDER_REPORT_H
#define RENDER_REPORT_H

#include <stdio.h>

#include "analysis/result.h"
#include "core/diag.h"
#include "core/outfile.h"

/*
 * Writes the report of a into dir, creating it (and its parents) as needed.
 * Returns 0, or -1 after a diagnostic naming the file on an I/O error, when
 * another report is being written to dir ("another report is being written
 * to DIR"), or when dir/charts is not a directory (a link is not followed).
 */
int report_write(const struct analysis *a, const char *dir, struct diags *d);

/* write_atomic_as() (core/outfile.h) with diagnostics under "report-write". */
int write_atomic(const char *path, write_fn fn, void *ctx, struct diags *d);

#endif
