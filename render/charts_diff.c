/*
 * Chart 15, the per-op diff: the ops that add the most GPU time from the
 * baseline to the candidate (comparison.diff), each as two bars, the
 * baseline's and the candidate's time per step, counted per baseline GPU as
 * the loss is, with the time it adds beside them. It draws the analysis'
 * rows as they stand and ranks nothing itself.
 */
#include <math.h>
#include <string.h>

#include "core/qty.h"
#include "render/charts.h"
#include "render/charts_internal.h"
#include "render/diff_text.h"

#define DIFF_CHART_ROWS 8	/* ops drawn: the analysis keeps more, the table shows them */
#define DIFF_CHART_NAME 36	/* characters of an op's name beside its bars */

/* The op rows the chart draws, in the analysis' order; returns how many. */
static size_t op_rows(const struct diff *d, const struct diff_row **rows)
{
	size_t n = 0;

	for (size_t i = 0; i < d->nrows && n < DIFF_CHART_ROWS; i++)
		if (d->rows[i].kind == DIFF_OP)
			rows[n++] = &d->rows[i];
	return n;
}

static const char *no_diff(const struct analysis *a, struct chart_layout *c)
{
	const struct diff *d = &a->cmp.diff;

	if (!compared(a) || !d->present)
		return "no per-op diff: no baseline and candidate to compare";
	return chart_strf(c, "no per-op diff: %s", d->why ? d->why : "no GPU work to compare");
}

/* "GPU time per steady step, ... counted per 1 GPU of 1gpu: 2 x the candidate's mean GPU" */
static const char *diff_subtitle(const struct analysis *a, struct chart_layout *c)
{
	const struct run_result *b = &a->runs[a->cmp.baseline], *n = &a->runs[a->cmp.candidate];
	bool span = !strcmp(a->cmp.diff.per, "span");

	return chart_strf(c, "GPU time %s of each op's kernels, counted per %d GPU%s of %s as the loss is "
			  "(%s: %g x its mean GPU); summed per kernel, so overlapped communication counts in full",
			  span ? "over the profiled span (no steady steps)" : "per steady step", b->gpus,
			  b->gpus == 1 ? "" : "s", chart_run_name(b, c), chart_run_name(n, c),
			  comparison_gpu_ratio(a));
}

int chart_diff(const struct analysis *a, struct chart_layout *c, const char **why)
{
	const struct diff *d = &a->cmp.diff;
	const struct diff_row *rows[DIFF_CHART_ROWS];
	const char *names[DIFF_CHART_ROWS];
	char nb[4 * DIFF_CHART_NAME + 8], q[QTY_LEN];
	size_t n, i;
	struct panel *p;
	double width;

	if (!compared(a) || !d->present || !d->per || !(n = op_rows(d, rows))) {
		*why = no_diff(a, c);
		return 1;
	}
	chart_init(c, "15-diff", "What the candidate added, op by op");
	chart_set_banner(a, c);
	c->subtitle = diff_subtitle(a, c);
	p = chart_add_panel(c, "GPU time per step (ms)", "");
	p->x.zero = true;
	for (i = 0; i < n; i++)
		names[i] = chart_strf(c, "%s", diff_name(nb, sizeof(nb), rows[i]->name, DIFF_CHART_NAME));
	width = row_names_width(names, n);
	for (i = n; i-- > 0;) {
		double y = (double)axis_add_cat(&p->y, names[i]);
		double b = MS(rows[i]->baseline.time_s), v = MS(rows[i]->candidate.time_s);

		if (b > 0)
			panel_rect(p, run_cat(a, a->cmp.baseline), 0, y + 0.02, b, y + 0.38);
		if (v > 0)
			panel_rect(p, run_cat(a, a->cmp.candidate), 0, y - 0.38, v, y - 0.02);
		bar_label(c, p, width, fmax(fmax(b, v), 0), y,
			  chart_strf(c, "%s", qty_duration_signed(q, rows[i]->added_s)));
	}
	chart_add_legend(c, run_cat(a, a->cmp.baseline), 0, false, run_label(a, a->cmp.baseline, c));
	chart_add_legend(c, run_cat(a, a->cmp.candidate), 0, false, run_label(a, a->cmp.candidate, c));
	return 0;
}
