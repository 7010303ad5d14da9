/*
 * report: the decision-ready report of one analysis, written into a
 * directory:
 *
 *   DIR/report.pdf                 page 1 the decision summary, then one chart a page
 *   DIR/summary.md                 the same summary in Markdown, the PNGs linked
 *   DIR/report.html                the same as report.pdf in one self-contained page (render/html.h)
 *   DIR/charts/NN-name.{png,svg,pdf}
 *
 * Charts without data are left out, each with its reason in both summaries.
 * Output bytes depend on the analysis alone (PDF dates from
 * SOURCE_DATE_EPOCH, else 1970-01-01). Every file is written under a
 * temporary name and renamed, so a file that exists is complete.
 */
#ifndef RENDER_REPORT_H
#define RENDER_REPORT_H

#include <stdio.h>

#include "analysis/result.h"
#include "core/diag.h"

/*
 * Writes the report of a into dir, creating it (and its parents) as needed.
 * Returns 0, or -1 after a diagnostic naming the file on an I/O error.
 */
int report_write(const struct analysis *a, const char *dir, struct diags *d);

/* Writes one output file's bytes into f; returns 0, or nonzero when it could not. */
typedef int (*report_write_fn)(FILE *f, void *ctx);

/*
 * The project's one way to write an output file: fn writes path + ".tmp",
 * which is renamed onto path only when every byte was written and flushed,
 * so path is either complete or untouched. Returns 0, or -1 after a
 * diagnostic naming path ("cannot create: ...", "cannot write: ...").
 */
int report_write_atomic(const char *path, report_write_fn fn, void *ctx, struct diags *d);

#endif
