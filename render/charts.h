/*
 * charts: the report's charts, each laid out from a struct analysis alone
 * (never the logs). A chart without data is left out, with a reason for the
 * summary, rather than drawn empty. The table is in report order; its ids
 * name the files (charts/01-step-time.png ...).
 */
#ifndef RENDER_CHARTS_H
#define RENDER_CHARTS_H

#include <stddef.h>

#include "analysis/result.h"
#include "render/layout.h"

struct chart_def {
	const char *id;		/* "01-step-time" */
	const char *caption;	/* what to look at, for the report page */
	/*
	 * Lays the chart out in c and returns 0; or returns 1 and sets *why when
	 * there is no data (the report lists it among the charts left out), or 2
	 * with *why set when the chart does not apply to this trial (a sweep's
	 * chart for a single-config question: not listed).
	 */
	int (*build)(const struct analysis *a, struct chart_layout *c, const char **why);
};

extern const struct chart_def chart_defs[];
extern const size_t chart_ndefs;

/*
 * Builds chart i into c (initialised here; release it with
 * chart_layout_release either way) and finishes its layout. Returns 0, or
 * what the build function returns (1: no data, 2: does not apply) with *why set;
 * *why may live in c's arena (it can name the trial's values), so copy it
 * before releasing c.
 */
int chart_build(size_t i, const struct analysis *a, struct chart_layout *c, const char **why);

/*
 * Sets c->banner (call it after chart_init) to the warning every chart
 * comparing runs carries while a blocking confound stands: "Not comparable:
 * precision differs (1gpu bf16, 2gpu tf32); numbers shown for reference".
 * Leaves it NULL when the comparison has no blocking confound.
 */
void chart_set_banner(const struct analysis *a, struct chart_layout *c);

/* How the banner names a blocking confound: "precision differs", "too few steady steps". */
const char *chart_confound_phrase(enum confound_what w);

/*
 * Run r's name as a chart or a page shows it, owned by c: "run" when it has none, cut to
 * CHART_NAME_CHARS characters with an ellipsis, on one line, invalid UTF-8 and control
 * characters as core/utf8 writes them (a directory name may hold anything).
 */
#define CHART_NAME_CHARS 24
const char *chart_run_name(const struct run_result *r, struct chart_layout *c);

#endif
