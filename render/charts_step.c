/*
 * The charts of the step: its time over the steps (01), what each GPU's
 * step is made of (02), the scaling waterfall from the ideal step to the
 * actual one (03) and the kernels that take most of it (06).
 */
#include "render/charts_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/charts.h"
#include "render/numfmt.h"
#include "render/text.h"

#define TOP_KERNELS 8
#define MARKERS_MAX 60		/* more steps than this: no dots on the line */

/* prefix then the duration through numfmt: "412.3 ms", "12.3 ms", "0.423 ms". */
static const char *fmt_ms(struct chart_layout *c, const char *prefix, double ms)
{
	char b[NUMFMT_LEN];

	return chart_strf(c, "%s%s", prefix, qty_duration(b, ms / 1e3));
}

static const char *fmt_signed_ms(struct chart_layout *c, double ms)
{
	char b[NUMFMT_LEN];

	return chart_strf(c, "%s", qty_duration_signed(b, ms / 1e3));
}

/* 1. Step time over steps. */

static bool has_steps(const struct run_result *r)
{
	return r->ngpu > 0 && r->slowest < r->ngpu && r->gpu[r->slowest].nsteps > 0;
}

/* How a failed run's legend entry ends, by enum run_status: what stopped it. */
static const char *const failed_phrases[] = {
	[RUN_FAILED_OOM] = "out of memory", [RUN_FAILED] = "on an error",
};

/*
 * "baseline: 1gpu (1 GPU): failed, out of memory after 3 steps": a run that
 * failed is named as failed, with or without a line; the plain label else.
 */
static const char *step_label(const struct analysis *a, size_t i, struct chart_layout *c)
{
	const struct run_result *r = &a->runs[i];
	const char *what = (size_t)r->status < sizeof(failed_phrases) / sizeof(failed_phrases[0])
		? failed_phrases[r->status] : NULL;
	char b[NUMFMT_LEN];

	if (!run_failed(r) || !what)
		return run_label(a, i, c);
	if (r->steps_total <= 0)
		return chart_strf(c, "%s: failed, %s before its first step", run_label(a, i, c), what);
	return chart_strf(c, "%s: failed, %s after %s step%s", run_label(a, i, c), what,
			  numfmt_count(b, r->steps_total), r->steps_total == 1 ? "" : "s");
}

static void step_line(const struct analysis *a, size_t i, struct chart_layout *c, struct panel *p)
{
	const struct run_result *r = &a->runs[i];
	const struct gpu_result *g = &r->gpu[r->slowest];
	enum category cat = run_cat(a, i);
	size_t k;

	panel_line(p, cat, g->nsteps <= MARKERS_MAX ? MS_MARKERS : 0, step_label(a, i, c));
	for (k = 0; k < g->nsteps; k++)
		if (isfinite(g->steps[k].window_s) && !g->steps[k].trailing)
			panel_point(p, (double)k, MS(g->steps[k].window_s));
	chart_add_legend(c, cat, 0, true, step_label(a, i, c));
}

/*
 * A failed run without steps has no line: a legend entry in its colour, a
 * hollow square, says it failed and on what, so that it is never absent.
 * Returns whether there was one.
 */
static bool failed_entries(const struct analysis *a, const size_t *order, size_t n, struct chart_layout *c)
{
	bool any = false;
	size_t k;

	for (k = 0; k < n; k++) {
		if (has_steps(&a->runs[order[k]]) || !run_failed(&a->runs[order[k]]))
			continue;
		chart_add_legend(c, run_cat(a, order[k]), MS_SQUARES | MS_NOLINE | MS_HOLLOW, true,
				 step_label(a, order[k], c));
		any = true;
	}
	return any;
}

/* The trailing step of one run, apart: a hollow marker, not joined; false when none. */
static bool trailing_point(const struct analysis *a, size_t i, struct panel *p)
{
	const struct run_result *r = &a->runs[i];
	const struct gpu_result *g = &r->gpu[r->slowest];
	bool any = false;
	size_t k;

	for (k = 0; k < g->nsteps; k++) {
		if (!g->steps[k].trailing || !isfinite(g->steps[k].window_s))
			continue;
		if (!any)
			panel_line(p, run_cat(a, i), MS_MARKERS | MS_NOLINE | MS_HOLLOW, "trailing");
		panel_point(p, (double)k, MS(g->steps[k].window_s));
		any = true;
	}
	return any;
}

/*
 * Shades one run's warm-up steps; returns false when it has none. Steps are
 * placed by their order in the run, not their ProfilerStep number: runs
 * profiled at different points of training still line up.
 */
static bool warmup_span(const struct gpu_result *g, double *lo, double *hi)
{
	size_t k;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (k = 0; k < g->nsteps; k++) {
		if (!g->steps[k].warmup)
			continue;
		*lo = fmin(*lo, (double)k - 0.5);
		*hi = fmax(*hi, (double)k + 0.5);
	}
	return *lo <= *hi;
}

/*
 * The warm-up shading: one full-height band when every run warms up over
 * the same steps; else a strip per run along the plot's foot in the run's
 * colour, so that no run's band covers another's counted steps. Labelled
 * once. Returns false when no run has warm-up steps.
 */
static bool warmup_bands(const struct analysis *a, const size_t *order, size_t n, struct panel *p)
{
	double lo[MAX_ORDER], hi[MAX_ORDER];
	size_t k, nw = 0, first = n;
	bool same = true;

	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		lo[k] = NAN;
		if (!has_steps(r))
			continue;
		if (!warmup_span(&r->gpu[r->slowest], &lo[k], &hi[k])) {
			lo[k] = NAN;
			same = false;	/* a run without warm-up: its first steps count */
			continue;
		}
		if (first == n)
			first = k;
		same &= lo[k] == lo[first] && hi[k] == hi[first];
		nw++;
	}
	if (nw && same) {
		panel_vspan(p, CAT_WARMUP, lo[first], hi[first], "warm-up");
		return true;
	}
	for (k = 0, nw = 0; k < n; k++) {
		struct mark *m;

		if (isnan(lo[k]))
			continue;
		m = panel_vspan(p, run_cat(a, order[k]), lo[k], hi[k], nw ? NULL : "warm-up");
		m->style = MS_STRIP | MS_LIGHT;
		m->y0 = m->y1 = (double)nw++;
	}
	return nw > 0;
}

/* A run's p10-p90 band of steady step times, across its steady steps. */
static bool spread_band(const struct analysis *a, size_t i, struct panel *p)
{
	const struct run_result *r = &a->runs[i];
	const struct gpu_result *g = &r->gpu[r->slowest];
	double lo = INFINITY, hi = -INFINITY;
	size_t k;

	if (!isfinite(r->step_p10_s) || !isfinite(r->step_p90_s))
		return false;
	for (k = 0; k < g->nsteps; k++)
		if (!g->steps[k].warmup && !g->steps[k].trailing && isfinite(g->steps[k].window_s)) {
			lo = fmin(lo, (double)k - 0.3);
			hi = fmax(hi, (double)k + 0.3);
		}
	if (lo > hi)
		return false;
	panel_rect(p, run_cat(a, i), lo, MS(r->step_p10_s), hi, MS(r->step_p90_s))->style = MS_BAND;
	return true;
}

/*
 * The caption from what is drawn: the speedup sentence only where a
 * baseline and a candidate both have a median, a sentence for a failed run
 * that has no line.
 */
static void step_caption(const struct analysis *a, const size_t *order, size_t n, bool failed,
			 struct chart_layout *c)
{
	size_t k, medians = 0;

	for (k = 0; k < n; k++)
		medians += has_steps(&a->runs[order[k]]) && isfinite(a->runs[order[k]].step_median_s);
	c->caption = chart_strf(c, "Each run's step time (slowest GPU) over the profiled steps.%s Steps in the "
				"shaded warm-up are left out of every number; a line that keeps moving after it "
				"means the run never settled.%s",
				compared(a) && medians >= 2 ? " Look at the gap between the dashed medians: that is "
				"the speedup." : medians >= 2 ? " The dashed lines are each run's steady median." :
				" The dashed line is the run's steady median; no other run has one to compare with.",
				failed ? " A run that failed before a profiled step has no line: the legend names it "
				"and what stopped it." : "");
}

int chart_step_time(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k;
	struct panel *p;
	bool any = false, trailing = false, warmup, band = false, failed;

	for (k = 0; k < n; k++)
		any |= has_steps(&a->runs[order[k]]);
	if (!any) {
		*why = "no step times: no run has profiler steps";
		return 1;
	}
	chart_init(c, "01-step-time", "Step time over the run");
	chart_set_banner(a, c);
	p = chart_add_panel(c, "profiled step, in order", "step time (ms)");
	p->y.zero = true;
	p->x.tight = true;
	p->x.min_step = 1;
	warmup = warmup_bands(a, order, n, p);
	for (k = 0; k < n; k++)
		if (has_steps(&a->runs[order[k]]))
			band |= spread_band(a, order[k], p);
	for (k = 0; k < n; k++)
		if (has_steps(&a->runs[order[k]]))
			step_line(a, order[k], c, p);
	failed = failed_entries(a, order, n, c);
	for (k = 0; k < n; k++)
		if (has_steps(&a->runs[order[k]]))
			trailing |= trailing_point(a, order[k], p);
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		if (has_steps(r) && isfinite(r->step_median_s))
			panel_hline(p, run_cat(a, order[k]), MS_DASHED, MS(r->step_median_s),
				    fmt_ms(c, "median ", MS(r->step_median_s)));
	}
	if (warmup)
		chart_add_legend(c, p->marks[0].cat, p->marks[0].style & MS_LIGHT,
				 false, p->marks[0].style & MS_STRIP ? "warm-up (strip per run)" : "warm-up");
	if (band)
		chart_add_legend(c, CAT_REFERENCE, MS_LIGHT, false, "p10-p90 of steady steps");
	if (trailing)
		chart_add_legend(c, CAT_INK, MS_MARKERS | MS_NOLINE | MS_HOLLOW, true,
				 "trailing (not measured)");
	step_caption(a, order, n, failed, c);
	c->subtitle = chart_strf(c, "slowest GPU of each run; %s%s%sdashed: steady median%s",
				 band ? "band: p10-p90 of its steady steps; " : "",
				 warmup ? "shaded: warm-up steps; " : "",
				 trailing ? "hollow: the trailing step, not measured; " : "",
				 failed ? "; a failed run without profiled steps has no line: the legend says so" : "");
	return 0;
}

/* 2. Breakdown of the step per run and GPU. */

static const struct {
	enum category cat;
	size_t offset;
} parts[] = {
	{ CAT_COMPUTE, offsetof(struct step_parts, compute) },
	{ CAT_EXPOSED_COMM, offsetof(struct step_parts, exposed_comm) },
	{ CAT_MEMORY, offsetof(struct step_parts, memory) },
	{ CAT_IDLE, offsetof(struct step_parts, idle) },
};

static double part_of(const struct step_parts *s, size_t i)
{
	double v;

	memcpy(&v, (const char *)s + parts[i].offset, sizeof(v));
	return v;
}

static bool parts_known(const struct step_parts *s)
{
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		if (!isfinite(part_of(s, i)))
			return false;
	return true;
}

/* Exposed communication split into waiting for a peer and transfer; false where the analysis has no split. */
static bool comm_split(const struct step_parts *s)
{
	return isfinite(s->exposed_comm_wait) && isfinite(s->exposed_comm_transfer);
}

/* Idle by cause, bottom up: the host launched late (solid), held by a stream or event (hatched), unknown (light). */
static const struct {
	unsigned style;
	size_t offset;
	const char *legend;
} idle_causes[] = {
	{ 0, offsetof(struct step_parts, idle_host), "idle: the CPU launched the next work late" },
	{ MS_HATCHED, offsetof(struct step_parts, idle_sync), "idle: work launched, held by a stream, event or peer" },
	{ MS_LIGHT, offsetof(struct step_parts, idle_other), "idle: cause unknown" },
};

static double idle_cause(const struct step_parts *s, size_t i)
{
	double v;

	memcpy(&v, (const char *)s + idle_causes[i].offset, sizeof(v));
	return v;
}

/*
 * Idle split by cause; false where the analysis has no split, or one that
 * does not add up to idle (an analysis.json written without it): the bar
 * then shows idle whole rather than a split it cannot stand behind.
 */
static bool idle_split(const struct step_parts *s)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < sizeof(idle_causes) / sizeof(idle_causes[0]); i++) {
		if (!isfinite(idle_cause(s, i)) || idle_cause(s, i) < 0)
			return false;
		sum += idle_cause(s, i);
	}
	return fabs(sum - s->idle) <= 1e-9 + 1e-6 * s->idle;
}

/* A bit per idle cause of idle_causes[] that reaches least (s) on this GPU. */
static unsigned idle_causes_shown(const struct step_parts *s, double least)
{
	unsigned bits = 0;
	size_t i;

	if (!idle_split(s))
		return 0;
	for (i = 0; i < sizeof(idle_causes) / sizeof(idle_causes[0]); i++)
		if (idle_cause(s, i) > 0 && idle_cause(s, i) >= least)
			bits |= 1u << i;
	return bits;
}

/* The idle part as one box per cause, from y up; returns the top. */
static double idle_boxes(struct panel *p, double x, double y, const struct step_parts *s)
{
	size_t i;

	for (i = 0; i < sizeof(idle_causes) / sizeof(idle_causes[0]); i++) {
		double v = MS(idle_cause(s, i));

		if (v > 0)
			panel_rect(p, CAT_IDLE, x - 0.32, y, x + 0.32, y + v)->style = idle_causes[i].style;
		y += v;
	}
	return y;
}

/*
 * One GPU's stacked bar. Exposed communication is drawn as two boxes where
 * the analysis splits it: transfer (solid), then waiting for a peer
 * (hatched); they add up to the exposed part.
 */
static void breakdown_bar(struct chart_layout *c, struct panel *p, const char *label,
			  const struct step_parts *s)
{
	double x = (double)axis_add_cat(&p->x, label), y = 0;
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		double v = MS(part_of(s, i));

		if (parts[i].cat == CAT_EXPOSED_COMM && comm_split(s) && s->exposed_comm_wait > 0) {
			double t = MS(s->exposed_comm_transfer), w = MS(s->exposed_comm_wait);

			panel_rect(p, CAT_EXPOSED_COMM, x - 0.32, y, x + 0.32, y + t);
			panel_rect(p, CAT_EXPOSED_COMM, x - 0.32, y + t, x + 0.32, y + t + w)->style = MS_HATCHED;
			y += t + w;
			continue;
		}
		if (parts[i].cat == CAT_IDLE && idle_split(s)) {
			y = idle_boxes(p, x, y, s);
			continue;
		}
		panel_rect(p, parts[i].cat, x - 0.32, y, x + 0.32, y + v);
		y += v;
	}
	panel_label(p, CAT_INK, MS_ABOVE, x, y, fmt_ms(c, "", y));
}

/*
 * The parts' legend; split: exposed comm as transfer and waiting for a peer;
 * causes: a bit per idle cause drawn (idle_causes[]), 0 for plain idle.
 */
static void legend_parts_split(struct chart_layout *c, bool split, unsigned causes)
{
	size_t i, k;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (parts[i].cat == CAT_IDLE && causes) {
			for (k = 0; k < sizeof(idle_causes) / sizeof(idle_causes[0]); k++)
				if (causes & 1u << k)
					chart_add_legend(c, CAT_IDLE, idle_causes[k].style, false, idle_causes[k].legend);
			continue;
		}
		if (parts[i].cat != CAT_EXPOSED_COMM || !split) {
			chart_add_legend(c, parts[i].cat, 0, false, category_style(parts[i].cat)->label);
			continue;
		}
		chart_add_legend(c, CAT_EXPOSED_COMM, 0, false, "exposed comm: transfer");
		chart_add_legend(c, CAT_EXPOSED_COMM, MS_HATCHED, false, "exposed comm: waiting for a peer");
	}
}

/* Whether run i drew a bar: a GPU with a known partition. */
static bool run_has_bar(const struct run_result *r)
{
	size_t gi;

	for (gi = 0; gi < r->ngpu; gi++)
		if (parts_known(&r->gpu[gi].step_s))
			return true;
	return false;
}

/*
 * The caption from the bars drawn: "what grows from the baseline to the
 * candidate" only where both have bars (beyond one GPU against two, what
 * grows is what the extra GPUs cost, not the second GPU); else which run
 * has none.
 */
static void breakdown_caption(const struct analysis *a, struct chart_layout *c)
{
	const char *head = "Each GPU's mean steady step split into compute, exposed communication, memory "
			   "copies and idle.";
	const struct run_result *b, *n;

	if (!compared(a)) {
		c->caption = chart_strf(c, "%s Bars of very different heights within a run mean its GPUs do "
					"unequal work.", head);
		return;
	}
	b = &a->runs[a->cmp.baseline];
	n = &a->runs[a->cmp.candidate];
	if (!run_has_bar(b) || !run_has_bar(n)) {
		c->caption = chart_strf(c, "%s The %s (%s) has no bar: it has no steady step with a known "
					"split, so there is nothing to compare the %s's bars with.", head,
					run_has_bar(b) ? "candidate" : "baseline",
					chart_run_name(run_has_bar(b) ? n : b, c),
					run_has_bar(b) ? "baseline" : "candidate");
		return;
	}
	c->caption = chart_strf(c, "%s Look at what grows from the baseline to the candidate: that is what "
				"the %s.", head, b->gpus == 1 && n->gpus == 2 ? "second GPU costs" : "extra GPUs cost");
}

int chart_breakdown(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k, gi;
	struct panel *p;
	bool split = false;
	unsigned causes = 0;

	chart_init(c, "02-breakdown", "Where each GPU's step goes");
	chart_set_banner(a, c);
	breakdown_caption(a, c);
	c->subtitle = "mean over steady steps; the four parts add up to the step window";
	p = chart_add_panel(c, "run and GPU", "time per step (ms)");
	p->y.zero = true;
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		for (gi = 0; gi < r->ngpu; gi++) {
			const struct step_parts *s = &r->gpu[gi].step_s;

			if (!parts_known(s))
				continue;
			breakdown_bar(c, p, gpu_cat_label(a, order[k], gi, c), s);
			/* the legend names a box where one shows: 0.2% of the step or more */
			split |= comm_split(s) && s->exposed_comm_wait >= r->gpu[gi].mean_step_s / 500;
			causes |= idle_causes_shown(s, r->gpu[gi].mean_step_s / 500);
		}
	}
	if (p->x.ncats == 0) {
		*why = "no step breakdown: no GPU has steady steps with a known partition";
		return 1;
	}
	if (split)
		c->subtitle = "mean over steady steps; the four parts add up to the step window; exposed comm "
			      "split into transfer and waiting for a slower peer (hatched)";
	legend_parts_split(c, split, causes);
	if (causes)
		c->subtitle = chart_strf(c, "%s; idle split by cause", c->subtitle);
	return 0;
}

/* 3. Scaling waterfall: ideal, the loss by category, actual. */

static const char *const waterfall_labels[] = { "compute", "exposed\ncomm", "memory", "idle" };

/* A dashed step from one bar's top to the next one's foot. */
static void connector(struct panel *p, double x, double y)
{
	panel_line(p, CAT_INK, MS_DASHED, "connector");
	panel_point(p, x + 0.34, y);
	panel_point(p, x + 0.66, y);
}

/*
 * Under a global-batch change a step is not the same work: the factor that
 * scales the candidate's GPU time to the baseline's global batch (B1 / Bn),
 * or 1 when the batches are the same or unknown, or the baseline's parts are.
 */
static double work_factor(const struct analysis *a)
{
	const struct run_result *b = &a->runs[a->cmp.baseline], *n = &a->runs[a->cmp.candidate];

	if (b->global_batch <= 0 || n->global_batch <= 0 || b->global_batch == n->global_batch ||
	    b->slowest >= b->ngpu || !parts_known(&b->gpu[b->slowest].step_s))
		return 1;
	return (double)b->global_batch / (double)n->global_batch;
}

/*
 * Category i's loss in ms, n Cn f - C1: the attribution (n Cn - C1) with the
 * candidate's part scaled by f to the baseline's work.
 */
static double waterfall_loss(const struct analysis *a, size_t i, double f)
{
	const struct run_result *b = &a->runs[a->cmp.baseline];
	double d = part_of(&a->cmp.attribution_s, i);

	if (f == 1)
		return MS(d);
	return MS((d + part_of(&b->gpu[b->slowest].step_s, i)) * f - part_of(&b->gpu[b->slowest].step_s, i));
}

/*
 * Against a baseline of b > 1 GPUs the caption says what the ideal is: the
 * chart's GPU time is counted per b GPUs (n x the candidate's step, n = c / b).
 */
static void waterfall_per_baseline(const struct analysis *a, struct chart_layout *c)
{
	const struct run_result *b = &a->runs[a->cmp.baseline], *n = &a->runs[a->cmp.candidate];

	c->caption = chart_strf(c, "From the ideal (the %d-GPU baseline's step, spread perfectly over %d GPUs) "
				"to the GPU time actually spent, both counted per %d GPUs: %g x the candidate's "
				"step. Each middle bar is the extra GPU time one category took; the tallest one "
				"is what to fix first.", b->gpus, n->gpus, b->gpus, comparison_gpu_ratio(a));
}

static void waterfall_titles(const struct analysis *a, struct chart_layout *c, double f, struct panel **p)
{
	const struct run_result *b = &a->runs[a->cmp.baseline], *n = &a->runs[a->cmp.candidate];

	chart_init(c, "03-waterfall", "Where the extra GPU time went");
	c->banner = banner_text(a, c, f == 1 ? 0 : 1u << CF_GLOBAL_BATCH);
	if (b->gpus > 1)
		waterfall_per_baseline(a, c);
	if (f == 1 && b->gpus > 1) {
		c->subtitle = chart_strf(c, "GPU time per step over the baseline's %d GPUs: ideal = the baseline's "
					 "mean step; actual = %d/%d = %g x the candidate's mean step", b->gpus, n->gpus,
					 b->gpus, comparison_gpu_ratio(a));
		*p = chart_add_panel(c, "from the ideal to the actual, by category", "GPU time per step (ms)");
		return;
	}
	if (f == 1) {
		c->subtitle = chart_strf(c, "GPU time per step: ideal = the baseline's mean step; actual = %d GPUs x "
					 "the candidate's mean step", n->gpus);
		*p = chart_add_panel(c, "from the ideal to the actual, by category", "GPU time per step (ms)");
		return;
	}
	c->subtitle = chart_strf(c, "GPU time per %lld samples (the baseline's global batch): the candidate's step did %gx the work "
				 "(global batch %lld against %lld), so its GPU time is scaled by %lld/%lld",
				 (long long)b->global_batch, 1 / f, (long long)n->global_batch,
				 (long long)b->global_batch, (long long)b->global_batch, (long long)n->global_batch);
	*p = chart_add_panel(c, "from the ideal to the actual, by category",
			     chart_strf(c, "GPU time per %lld samples (ms)", (long long)b->global_batch));
}

/*
 * The exposed-comm loss as its transfer (wait false) and its waiting for a
 * peer, n Cn f - C1 of each from the slowest GPUs' split: the two add up to
 * the exposed-comm bar. NaN where either run's split is unknown.
 */
static double waterfall_comm_loss(const struct analysis *a, double f, bool wait)
{
	const struct run_result *b = &a->runs[a->cmp.baseline], *n = &a->runs[a->cmp.candidate];
	const struct step_parts *p1 = &b->gpu[b->slowest].step_s, *pn = &n->gpu[n->slowest].step_s;

	if (b->slowest >= b->ngpu || n->slowest >= n->ngpu || !comm_split(p1) || !comm_split(pn))
		return NAN;
	return MS(comparison_gpu_ratio(a) * (wait ? pn->exposed_comm_wait : pn->exposed_comm_transfer) * f -
		  (wait ? p1->exposed_comm_wait : p1->exposed_comm_transfer));
}

/*
 * Whether exposed comm is drawn as two bars, transfer and waiting for a
 * peer: where the split is known and the candidate waits at all (a bubble or
 * a straggler is not fixed the way a slow link is).
 */
static bool waterfall_splits(const struct analysis *a, double f)
{
	const struct run_result *n = &a->runs[a->cmp.candidate];

	return isfinite(waterfall_comm_loss(a, f, true)) && n->gpu[n->slowest].step_s.exposed_comm_wait > 0;
}

/* One middle bar from y, d ms tall (below y when negative), labelled; returns its top's new level. */
static double waterfall_bar(struct chart_layout *c, struct panel *p, const char *label, enum category cat,
			    unsigned style, double y, double d)
{
	double x = (double)axis_add_cat(&p->x, label);

	panel_rect(p, cat, x - 0.34, y, x + 0.34, y + d)->style = style;
	panel_label(p, CAT_INK, MS_ABOVE, x, fmax(y, y + d), fmt_signed_ms(c, d));
	connector(p, x, y + d);
	return y + d;
}

/* What the split adds to the subtitle and the caption. */
static void waterfall_split_text(struct chart_layout *c)
{
	const char *caption = c->caption;
	size_t i;

	for (i = 0; !caption && i < chart_ndefs; i++)
		if (!strcmp(chart_defs[i].id, "03-waterfall"))
			caption = chart_defs[i].caption;
	c->subtitle = chart_strf(c, "%s; exposed comm split into transfer and waiting for a slower peer (hatched)",
				 c->subtitle);
	c->caption = chart_strf(c, "%s Waiting for a slower peer (hatched) is a pipeline bubble or a straggler: "
				"balancing the work, or more micro-batches in a pipeline, shrinks it; a faster link "
				"does not.", caption ? caption : "");
}

/*
 * Where a category saved GPU time (a faster GPU's compute, less idle), its
 * bar points down: "the tallest one is what to fix first" must not pick it.
 */
static void waterfall_saved_text(struct chart_layout *c, double lowest)
{
	static const char tallest[] = "the tallest one is what to fix first.";
	const char *caption = c->caption, *at;

	if (!(lowest < 0))
		return;
	for (size_t i = 0; !caption && i < chart_ndefs; i++)
		if (!strcmp(chart_defs[i].id, "03-waterfall"))
			caption = chart_defs[i].caption;
	if (!caption || !(at = strstr(caption, tallest)))
		return;
	c->caption = chart_strf(c, "%.*sa bar that points down is GPU time the candidate saved, not lost; the "
				"tallest one that points up is what to fix first.%s", (int)(at - caption), caption,
				at + strlen(tallest));
}

/* The legend: exposed comm as transfer and waiting when split. */
static void waterfall_legend(struct chart_layout *c, bool split)
{
	chart_add_legend(c, CAT_BASELINE, 0, false, "ideal (baseline)");
	legend_parts_split(c, split, 0);
	chart_add_legend(c, CAT_CANDIDATE, 0, false, "actual (candidate)");
}

int chart_waterfall(const struct analysis *a, struct chart_layout *c, const char **why)
{
	const struct comparison *m = &a->cmp;
	struct panel *p;
	double y, x, f, actual, lowest = 0;
	bool split;
	size_t i;

	if (!compared(a) || !isfinite(m->ideal_s) || !isfinite(m->actual_s) || !parts_known(&m->attribution_s)) {
		*why = "no scaling waterfall: needs a baseline and a candidate with step breakdowns";
		return 1;
	}
	f = work_factor(a);
	actual = MS(m->actual_s * f);
	waterfall_titles(a, c, f, &p);
	p->y.zero = true;
	x = (double)axis_add_cat(&p->x, "ideal");
	panel_rect(p, CAT_BASELINE, x - 0.34, 0, x + 0.34, MS(m->ideal_s));
	panel_label(p, CAT_INK, MS_ABOVE, x, MS(m->ideal_s), fmt_ms(c, "", MS(m->ideal_s)));
	y = MS(m->ideal_s);
	connector(p, x, y);
	split = waterfall_splits(a, f);
	if (split)
		waterfall_split_text(c);
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (parts[i].cat == CAT_EXPOSED_COMM && split) {
			lowest = fmin(lowest, fmin(waterfall_comm_loss(a, f, false), waterfall_comm_loss(a, f, true)));
			y = waterfall_bar(c, p, "comm\ntransfer", CAT_EXPOSED_COMM, 0, y,
					  waterfall_comm_loss(a, f, false));
			y = waterfall_bar(c, p, "comm\nwaiting", CAT_EXPOSED_COMM, MS_HATCHED, y,
					  waterfall_comm_loss(a, f, true));
			continue;
		}
		lowest = fmin(lowest, waterfall_loss(a, i, f));
		y = waterfall_bar(c, p, waterfall_labels[i], parts[i].cat, 0, y, waterfall_loss(a, i, f));
	}
	waterfall_saved_text(c, lowest);
	x = (double)axis_add_cat(&p->x, chart_strf(c, "actual\n(%d GPUs)", a->runs[m->candidate].gpus));
	panel_rect(p, CAT_CANDIDATE, x - 0.34, 0, x + 0.34, actual);
	panel_label(p, CAT_INK, MS_ABOVE, x, actual, fmt_ms(c, "", actual));
	waterfall_legend(c, split);
	return 0;
}

/* 6. Top kernels per GPU, baseline vs candidate. */

struct kseries {
	const struct gpu_result *g;
	enum category cat;
	unsigned style;
	const char *label;
};

static double kernel_ms(const struct gpu_result *g, const char *label)
{
	size_t i;

	for (i = 0; i < g->ntop; i++)
		if (g->top[i].label && !strcmp(g->top[i].label, label))
			return MS(g->top[i].time_per_step_s);
	return NAN;
}

static size_t kernel_series(const struct analysis *a, struct kseries *s, size_t max, struct chart_layout *c)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k, gi, ns = 0;

	for (k = 0; k < n && k < 2; k++) {
		const struct run_result *r = &a->runs[order[k]];

		for (gi = 0; gi < r->ngpu && ns < max; gi++) {
			if (!r->gpu[gi].ntop)
				continue;
			s[ns].g = &r->gpu[gi];
			s[ns].cat = run_cat(a, order[k]);
			s[ns].style = gi % 2 ? MS_LIGHT : 0;
			s[ns].label = chart_strf(c, "%s GPU %d", chart_run_name(r, c),
						 gpu_number(&r->gpu[gi], gi));
			ns++;
		}
	}
	return ns;
}

/* The kernel labels to show: the largest over every series, largest first. */
static size_t kernel_rows(const struct kseries *s, size_t ns, const char **rows, size_t max)
{
	size_t n = 0, i, k, j;

	for (i = 0; i < ns; i++) {
		for (k = 0; k < s[i].g->ntop; k++) {
			const char *l = s[i].g->top[k].label;

			for (j = 0; j < n && l && strcmp(rows[j], l); j++)
				;
			if (l && j == n && n < max * 4)
				rows[n++] = l;
		}
	}
	return n;
}

static double row_max(const struct kseries *s, size_t ns, const char *label)
{
	double m = -INFINITY;
	size_t i;

	for (i = 0; i < ns; i++) {
		double v = kernel_ms(s[i].g, label);

		if (isfinite(v))
			m = fmax(m, v);
	}
	return m;
}

static void sort_rows(const struct kseries *s, size_t ns, const char **rows, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++)		/* insertion sort: a few dozen rows, stable */
		for (j = i; j > 0 && row_max(s, ns, rows[j - 1]) < row_max(s, ns, rows[j]); j--) {
			const char *t = rows[j];

			rows[j] = rows[j - 1];
			rows[j - 1] = t;
		}
}

/* A row's value label: each series' ms per step in legend order, "-" where it has none. */
static const char *kernel_values(const struct kseries *s, size_t ns, const char *row, struct chart_layout *c)
{
	char text[256] = "", b[NUMFMT_LEN];
	size_t k, len = 0;

	for (k = 0; k < ns && len < sizeof(text); k++) {
		double v = kernel_ms(s[k].g, row);

		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s", k ? " / " : "",
					isfinite(v) ? qty_num(b, v) : "-");
	}
	return chart_strf(c, "%s ms", text);
}

/* Each row's values right of its longest bar (bar_label). */
static void kernel_labels(const struct kseries *s, size_t ns, const char **rows, size_t n,
			  struct chart_layout *c, struct panel *p)
{
	double names = row_names_width(rows, n);
	size_t i;

	for (i = 0; i < n; i++) {
		const char *text = kernel_values(s, ns, rows[i], c);
		double v = row_max(s, ns, rows[i]);

		if (isfinite(v))
			bar_label(c, p, names, v, (double)(n - 1 - i), text);
	}
}

double row_names_width(const char *const *rows, size_t n)
{
	double names = 0, w, h;

	for (size_t i = 0; i < n; i++) {
		text_size(FONT_TICK, rows[i], 0, &w, &h);
		names = fmax(names, w);
	}
	return names;
}

/*
 * The axis reaches far enough for every label to fit, the plot taken as the
 * canvas less its margins, the row names (at most 45% of it, as
 * chart_finish caps them) and 20.
 */
void bar_label(struct chart_layout *c, struct panel *p, double names, double v, double y, const char *text)
{
	double area_w = c->width - 28, plot_w = area_w - fmin(names, 0.45 * area_w) - 20, w, h;

	text_size(FONT_NOTE, text, 0, &w, &h);
	if (v > 0 && w + 6 < plot_w)
		p->x.min_hi = fmax(isnan(p->x.min_hi) ? 0 : p->x.min_hi, v / (1 - (w + 6) / plot_w));
	panel_label(p, CAT_INK, MS_RIGHT, v, y, text);
}

int chart_kernels(const struct analysis *a, struct chart_layout *c, const char **why)
{
	struct kseries s[4];
	const char *rows[TOP_KERNELS * 4];
	size_t ns, n, i, k;
	struct panel *p;

	chart_init(c, "06-top-kernels", "Top kernels by time per step");
	chart_set_banner(a, c);
	ns = kernel_series(a, s, 4, c);
	n = kernel_rows(s, ns, rows, TOP_KERNELS);
	if (!n) {
		*why = "no kernel chart: no GPU has kernel times";
		return 1;
	}
	sort_rows(s, ns, rows, n);
	n = n > TOP_KERNELS ? TOP_KERNELS : n;
	c->subtitle = ns > 1 ? "mean over steady steps, per GPU; the largest kernels of any GPU; "
		"values in ms per step, in the legend's order" : "mean over steady steps; the largest kernels";
	p = chart_add_panel(c, "time per step (ms)", "");
	p->x.zero = true;
	for (i = n; i-- > 0;) {
		double y = (double)axis_add_cat(&p->y, rows[i]), h = 0.8 / (double)ns;

		for (k = 0; k < ns; k++) {
			double v = kernel_ms(s[k].g, rows[i]), top = y + 0.4 - h * (double)k;

			if (isfinite(v))
				panel_rect(p, s[k].cat, 0, top - h * 0.9, v, top)->style = s[k].style;
		}
	}
	kernel_labels(s, ns, rows, n, c, p);
	for (k = 0; k < ns; k++)
		chart_add_legend(c, s[k].cat, s[k].style, false, s[k].label);
	return 0;
}
