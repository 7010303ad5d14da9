#include "render/charts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/gpu.h"
#include "core/utf8.h"
#include "core/xalloc.h"
#include "render/charts_internal.h"
#include "render/numfmt.h"
#include "render/text.h"

#define MS(s) ((s) * 1e3)
#define GB(b) ((double)(b) / 1e9)
#define TOP_KERNELS 8
#define MARKERS_MAX 60		/* more steps than this: no dots on the line */

/* GPUs whose nominal capacity the memory chart draws (numbers from core/gpu), smallest first. */
static const char *const capacities[] = { "H200", "B200", "MI300X" };

/* A reference GPU's nominal capacity in GB. */
static double capacity_gb(size_t k)
{
	const struct gpu_model *m = gpu_lookup(capacities[k], -1);

	return m ? GB(m->memory_nominal) : NAN;
}

/* A comparison whose run indexes can be trusted. */
bool compared(const struct analysis *a)
{
	return a->cmp.valid && a->cmp.baseline < a->nruns && a->cmp.candidate < a->nruns;
}

/* Runs in chart order: baseline, candidate, then the others; returns how many. */
size_t run_order(const struct analysis *a, size_t *order)
{
	size_t n = 0, i;

	if (compared(a) && a->cmp.baseline < a->nruns)
		order[n++] = a->cmp.baseline;
	if (compared(a) && a->cmp.candidate < a->nruns && a->cmp.candidate != a->cmp.baseline)
		order[n++] = a->cmp.candidate;
	for (i = 0; i < a->nruns && n < MAX_ORDER; i++)
		if (!compared(a) || (i != a->cmp.baseline && i != a->cmp.candidate))
			order[n++] = i;
	return n;
}

enum category run_cat(const struct analysis *a, size_t i)
{
	static const enum category others[] = { CAT_OTHER_RUN, CAT_OTHER_RUN2 };
	size_t order[MAX_ORDER], n = run_order(a, order), k;

	if (compared(a) && i == a->cmp.baseline)
		return CAT_BASELINE;
	if (compared(a) && i == a->cmp.candidate)
		return CAT_CANDIDATE;
	for (k = 0; k < n && order[k] != i; k++)
		;
	if (!compared(a) && k < 2)
		return k == 0 ? CAT_BASELINE : CAT_CANDIDATE;
	return others[k % 2];
}

const char *chart_run_name(const struct run_result *r, struct chart_layout *c)
{
	const char *name = r->name ? r->name : "run";
	unsigned flags = UTF8_CONTROLS | UTF8_ONE_LINE;
	struct buf b;

	if (strlen(name) <= CHART_NAME_CHARS && utf8_clean(name, strlen(name), flags))
		return name;
	buf_init(&b, 0);
	utf8_cut(name, strlen(name), flags, CHART_NAME_CHARS, &b);
	name = chart_strf(c, "%s", b.data);
	buf_release(&b);
	return name;
}

const char *run_label(const struct analysis *a, size_t i, struct chart_layout *c)
{
	const struct run_result *r = &a->runs[i];
	const char *role = !compared(a) ? NULL
		: i == a->cmp.baseline ? "baseline" : i == a->cmp.candidate ? "candidate" : NULL;
	const char *name = chart_run_name(r, c);

	if (!role)
		return chart_strf(c, "%s (%d GPU%s)", name, r->gpus, r->gpus == 1 ? "" : "s");
	return chart_strf(c, "%s: %s (%d GPU%s)", role, name, r->gpus, r->gpus == 1 ? "" : "s");
}

int gpu_number(const struct gpu_result *g, size_t index)
{
	return g->rank >= 0 ? g->rank : (int)index;
}

/* prefix then the duration through numfmt: "412.3 ms", "12.3 ms", "0.423 ms". */
static const char *fmt_ms(struct chart_layout *c, const char *prefix, double ms)
{
	char b[NUMFMT_LEN];

	return chart_strf(c, "%s%s", prefix, numfmt_duration(b, ms / 1e3));
}

static const char *fmt_signed_ms(struct chart_layout *c, double ms)
{
	char b[NUMFMT_LEN];

	return chart_strf(c, "%s", numfmt_duration_signed(b, ms / 1e3));
}

/* A size in GB through numfmt: "151.3 GB", "8.66 GB". */
static const char *fmt_gb(struct chart_layout *c, double gb)
{
	char b[NUMFMT_LEN];

	return chart_strf(c, "%s", numfmt_gb(b, gb * 1e9));
}

/* 1. Step time over steps. */

static void step_line(const struct analysis *a, size_t i, struct chart_layout *c, struct panel *p)
{
	const struct run_result *r = &a->runs[i];
	const struct gpu_result *g = &r->gpu[r->slowest];
	enum category cat = run_cat(a, i);
	size_t k;

	panel_line(p, cat, g->nsteps <= MARKERS_MAX ? MS_MARKERS : 0, run_label(a, i, c));
	for (k = 0; k < g->nsteps; k++)
		if (isfinite(g->steps[k].window_s) && !g->steps[k].trailing)
			panel_point(p, (double)k, MS(g->steps[k].window_s));
	chart_add_legend(c, cat, 0, true, run_label(a, i, c));
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

static bool has_steps(const struct run_result *r)
{
	return r->ngpu > 0 && r->slowest < r->ngpu && r->gpu[r->slowest].nsteps > 0;
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

static int chart_step_time(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k;
	struct panel *p;
	bool any = false, trailing = false, warmup, band = false;

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
	c->subtitle = chart_strf(c, "slowest GPU of each run; %s%s%sdashed: steady median",
				 band ? "band: p10-p90 of its steady steps; " : "",
				 warmup ? "shaded: warm-up steps; " : "",
				 trailing ? "hollow: the trailing step, not measured; " : "");
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

static const char *gpu_cat_label(const struct analysis *a, size_t run, size_t gi, struct chart_layout *c)
{
	const struct run_result *r = &a->runs[run];

	return chart_strf(c, "%s\nGPU %d", chart_run_name(r, c), gpu_number(&r->gpu[gi], gi));
}

/* Exposed communication split into waiting for a peer and transfer; false where the analysis has no split. */
static bool comm_split(const struct step_parts *s)
{
	return isfinite(s->exposed_comm_wait) && isfinite(s->exposed_comm_transfer);
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
		panel_rect(p, parts[i].cat, x - 0.32, y, x + 0.32, y + v);
		y += v;
	}
	panel_label(p, CAT_INK, MS_ABOVE, x, y, fmt_ms(c, "", y));
}

/* The parts' legend; split: exposed comm as transfer and waiting for a peer. */
static void legend_parts_split(struct chart_layout *c, bool split)
{
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		if (parts[i].cat != CAT_EXPOSED_COMM || !split) {
			chart_add_legend(c, parts[i].cat, 0, false, category_style(parts[i].cat)->label);
			continue;
		}
		chart_add_legend(c, CAT_EXPOSED_COMM, 0, false, "exposed comm: transfer");
		chart_add_legend(c, CAT_EXPOSED_COMM, MS_HATCHED, false, "exposed comm: waiting for a peer");
	}
}

static void legend_parts(struct chart_layout *c)
{
	legend_parts_split(c, false);
}

/* Beyond one GPU against two, what grows is what the extra GPUs cost, not the second GPU. */
static void breakdown_caption(const struct analysis *a, struct chart_layout *c)
{
	if (!compared(a) || (a->runs[a->cmp.baseline].gpus == 1 && a->runs[a->cmp.candidate].gpus == 2))
		return;
	c->caption = "Each GPU's mean steady step split into compute, exposed communication, memory copies "
		     "and idle. Look at what grows from the baseline to the candidate: that is what the "
		     "extra GPUs cost.";
}

static int chart_breakdown(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k, gi;
	struct panel *p;
	bool split = false;

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
			/* the legend names the hatched box where one shows: 0.2% of the step or more */
			split |= comm_split(s) && s->exposed_comm_wait >= r->gpu[gi].mean_step_s / 500;
		}
	}
	if (p->x.ncats == 0) {
		*why = "no step breakdown: no GPU has steady steps with a known partition";
		return 1;
	}
	if (split)
		c->subtitle = "mean over steady steps; the four parts add up to the step window; exposed comm "
			      "split into transfer and waiting for a slower peer (hatched)";
	legend_parts_split(c, split);
	return 0;
}

/* The not-comparable banner of comparison charts. */

/* How a blocking confound reads in the banner, by enum confound_what. */
static const char *const confound_phrases[CF_COUNT] = {
	[CF_PRECISION] = "precision differs",
	[CF_GLOBAL_BATCH] = "global batch differs",
	[CF_MICRO_BATCH] = "micro batch differs",
	[CF_SEQ_LEN] = "sequence length differs",
	[CF_DATASET] = "dataset differs",
	[CF_MODEL] = "model differs",
	[CF_STEPS] = "too few steady steps",
	[CF_GPU_MODEL] = "GPU models differ",
	[CF_GPU_ARCH] = "a build does not target its GPU",
	[CF_WORKLOAD] = "not one job",
};

/*
 * "Not comparable: precision differs (1gpu bf16, 2gpu tf32); numbers shown
 * for reference", one clause per blocking confound but those in the mask
 * (1u << what: a chart that corrects for one); NULL when none stands.
 */
static const char *banner_text(const struct analysis *a, struct chart_layout *c, unsigned skip)
{
	const char *base, *cand, *text = NULL;
	size_t i;

	if (!compared(a))
		return NULL;
	base = a->runs[a->cmp.baseline].name ? chart_run_name(&a->runs[a->cmp.baseline], c) : "baseline";
	cand = a->runs[a->cmp.candidate].name ? chart_run_name(&a->runs[a->cmp.candidate], c) : "candidate";
	for (i = 0; i < a->cmp.nconfounds; i++) {
		const struct confound *f = &a->cmp.confounds[i];

		if (f->severity != CFS_BLOCKING || (unsigned)f->what >= CF_COUNT || (skip & 1u << f->what))
			continue;
		text = chart_strf(c, "%s%s%s (%s %s, %s %s)", text ? text : "Not comparable: ", text ? "; " : "",
				  confound_phrases[f->what], base, f->baseline ? f->baseline : "?", cand,
				  f->candidate ? f->candidate : "?");
	}
	return text ? chart_strf(c, "%s; numbers shown for reference", text) : NULL;
}

void chart_set_banner(const struct analysis *a, struct chart_layout *c)
{
	c->banner = banner_text(a, c, 0);
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
					 "step; actual = %d/%d = %g x the candidate's step", b->gpus, n->gpus,
					 b->gpus, comparison_gpu_ratio(a));
		*p = chart_add_panel(c, "from the ideal to the actual, by category", "GPU time per step (ms)");
		return;
	}
	if (f == 1) {
		c->subtitle = chart_strf(c, "GPU time per step: ideal = the baseline's step; actual = %d GPUs x the "
					 "candidate's step", n->gpus);
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

static int chart_waterfall(const struct analysis *a, struct chart_layout *c, const char **why)
{
	const struct comparison *m = &a->cmp;
	struct panel *p;
	double y, x, f, actual;
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
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		double d = waterfall_loss(a, i, f);

		x = (double)axis_add_cat(&p->x, waterfall_labels[i]);
		panel_rect(p, parts[i].cat, x - 0.34, y, x + 0.34, y + d);
		panel_label(p, CAT_INK, MS_ABOVE, x, fmax(y, y + d), fmt_signed_ms(c, d));
		y += d;
		connector(p, x, y);
	}
	x = (double)axis_add_cat(&p->x, chart_strf(c, "actual\n(%d GPUs)", a->runs[m->candidate].gpus));
	panel_rect(p, CAT_CANDIDATE, x - 0.34, 0, x + 0.34, actual);
	panel_label(p, CAT_INK, MS_ABOVE, x, actual, fmt_ms(c, "", actual));
	chart_add_legend(c, CAT_BASELINE, 0, false, "ideal (baseline)");
	legend_parts(c);
	chart_add_legend(c, CAT_CANDIDATE, 0, false, "actual (candidate)");
	return 0;
}

/* 4. Peak memory per GPU against capacity. */

#define CAPS_MAX 12
#define LEADER 10.0		/* canvas units from the bars' edge to a capacity label */
#define LABEL_GAP 2.0		/* canvas units between stacked labels */

/* A capacity line, drawn across the bars, and its label in the gutter right of them. */
struct capline {
	double gb;
	const char *text;
	bool own;		/* a GPU of the trial reported it; else a datasheet's */
	size_t label;		/* index of its label mark */
	size_t leader;		/* index of the leader line's first point */
};

/* Adds a line unless one with the same text is there; returns the count. */
static size_t cap_add(struct capline *l, size_t n, double gb, const char *text, bool own)
{
	size_t k;

	for (k = 0; k < n && strcmp(l[k].text, text); k++)
		;
	if (k < n || n >= CAPS_MAX || !isfinite(gb))
		return n;
	l[n] = (struct capline){ .gb = gb, .text = text, .own = own };
	return n + 1;
}

static int by_gb(const void *x, const void *y)
{
	const struct capline *a = x, *b = y;

	return (a->gb > b->gb) - (a->gb < b->gb);
}

/* "H100 SXM 85.0 GB (reported total)": the total the driver reported for this GPU. */
static const char *own_capacity(const struct gpu_result *g, struct chart_layout *c)
{
	const struct gpu_model *m = gpu_lookup(g->name, g->memory_total);

	return chart_strf(c, "%s %s (reported total)", m ? m->name : "GPU", fmt_gb(c, GB(g->memory_total)));
}

static bool failed_oom(const struct run_result *r)
{
	return r->status == RUN_FAILED_OOM && r->failed_allocation > 0;
}

/* The parts a memory timeline splits a bar into, bottom up; the rest of the timeline's categories are "other". */
static const struct {
	enum category cat;
	int memcat;		/* enum mem_category; -1: every category not named above */
} memparts[] = {
	{ CAT_MEM_PARAMETER, MEMCAT_PARAMETER }, { CAT_MEM_GRADIENT, MEMCAT_GRADIENT },
	{ CAT_MEM_OPTIMIZER, MEMCAT_OPTIMIZER_STATE }, { CAT_MEM_ACTIVATION, MEMCAT_ACTIVATION },
	{ CAT_MEM_OTHER, -1 },
};

/* Bytes of one part at the timeline's peak. */
static double mempart_bytes(const struct gpu_result *g, size_t i)
{
	double sum = 0;
	size_t k, c;

	for (c = 0; c < MEMCAT_COUNT; c++) {
		for (k = 0; k + 1 < sizeof(memparts) / sizeof(memparts[0]) && memparts[k].memcat != (int)c; k++)
			;
		if (k == i && g->timeline_at_peak[c] > 0)
			sum += (double)g->timeline_at_peak[c];
	}
	return sum;
}

/* A GPU's bar height, GB: the headline peak, or the memory timeline's when it is higher or alone. */
static double bar_gb(const struct gpu_result *g)
{
	return GB(g->peak_memory > g->timeline_peak ? g->peak_memory : g->timeline_peak);
}

/* The timeline's categories stacked from 0; returns their top, GB. */
static double memory_parts(const struct gpu_result *g, double x, struct panel *p)
{
	double y = 0, v;
	size_t i;

	for (i = 0; i < sizeof(memparts) / sizeof(memparts[0]); i++) {
		v = GB(mempart_bytes(g, i));
		if (v > 0)
			panel_rect(p, memparts[i].cat, x - 0.3, y, x + 0.3, y + v);
		y += v;
	}
	return y;
}

/*
 * One GPU's bar: its peak, its value under the bar with the category's name
 * (where no line can cross it); with a memory timeline, its categories at
 * the timeline's peak stacked first and the rest of the peak in the run's
 * colour. An out-of-memory run adds the allocation it failed on, hatched,
 * above its peak. Returns the failure label's index, or (size_t)-1.
 */
static size_t memory_bar(const struct analysis *a, size_t run, size_t gi, struct chart_layout *c,
			 struct panel *p)
{
	const struct run_result *r = &a->runs[run];
	const struct gpu_result *g = &r->gpu[gi];
	double peak = bar_gb(g), x, base = 0;
	char b[NUMFMT_LEN];

	x = (double)axis_add_cat(&p->x, chart_strf(c, "%s\nGPU %d\n%s%s", chart_run_name(r, c),
						   gpu_number(g, gi), fmt_gb(c, peak),
						   g->peak_memory < 0 ? " (tensors)" : ""));
	if (g->timeline_peak > 0)
		base = memory_parts(g, x, p);
	if (peak > base)
		panel_rect(p, run_cat(a, run), x - 0.3, base, x + 0.3, peak);
	if (!failed_oom(r) || gi != r->slowest)
		return (size_t)-1;
	/* a little wider than the bar: a few GB next to a 192 GB scale is a thin cap, and must show */
	panel_rect(p, run_cat(a, run), x - 0.36, peak, x + 0.36, peak + GB(r->failed_allocation))->style = MS_HATCHED;
	panel_label(p, CAT_INK, MS_ABOVE, x, peak + GB(r->failed_allocation),
		    chart_strf(c, "failed: out of memory (+%s requested)", numfmt_gib(b, (double)r->failed_allocation)));
	return p->nmarks - 1;
}

/* Legend entries for the timeline's parts, when a bar shows them. */
static void memory_parts_legend(const struct analysis *a, struct chart_layout *c)
{
	size_t i, gi;
	bool any = false;

	for (i = 0; i < a->nruns; i++)
		for (gi = 0; gi < a->runs[i].ngpu; gi++)
			any |= a->runs[i].gpu[gi].timeline_peak > 0;
	for (i = 0; any && i < sizeof(memparts) / sizeof(memparts[0]); i++)
		chart_add_legend(c, memparts[i].cat, 0, false, category_style(memparts[i].cat)->label);
}

/* Data units per canvas unit on each axis of a finished panel. */
static double per_px_x(const struct panel *p)
{
	return (p->x.hi - p->x.lo) / p->plot.w;
}

static double per_px_y(const struct panel *p)
{
	return (p->y.hi - p->y.lo) / p->plot.h;
}

/*
 * Raises the failure label over every capacity line and bar under its box;
 * keeps it over the bars (not the gutter). Returns the top of its box.
 */
static double place_failed(struct panel *p, const struct capline *caps, size_t n, size_t nbars, size_t li)
{
	struct mark *m = &p->marks[li];
	double w, h, bottom, half;
	bool moved = true;
	size_t k;

	text_size(FONT_NOTE, m->text, 0, &w, &h);
	half = (w / 2 + 4) * per_px_x(p);	/* and 4 units clear of the axis and the gutter */
	m->x0 = m->x1 = fmax(fmin(m->x0, (double)nbars - 0.5 - half), -0.5 + half);
	h = (h + LABEL_GAP) * per_px_y(p);
	bottom = m->y0;
	while (moved) {
		moved = false;
		for (k = 0; k < n; k++)
			if (caps[k].gb >= bottom && caps[k].gb <= bottom + h) {
				bottom = caps[k].gb + LABEL_GAP * per_px_y(p);
				moved = true;
			}
		for (k = 0; k < p->nmarks; k++) {
			const struct mark *r = &p->marks[k];

			if (r->kind == MARK_RECT && r->x1 > m->x0 - half && r->x0 < m->x0 + half &&
			    r->y1 > bottom && r->y0 < bottom + h) {
				bottom = r->y1;
				moved = true;
			}
		}
	}
	m->y0 = m->y1 = bottom;
	return bottom + h;
}

/*
 * Stacks the capacity labels in the gutter, each as near its line as the
 * one under it allows and none past the top, with a leader from the line's
 * end to its label. Returns the top of the highest label.
 */
static double place_caps(struct panel *p, struct capline *caps, size_t n, size_t nbars)
{
	double w, h, lead = LEADER * per_px_x(p), edge = (double)nbars - 0.5, limit, y;
	size_t k;

	text_size(FONT_NOTE, caps[0].text, 0, &w, &h);
	h = (h + LABEL_GAP) * per_px_y(p);
	for (k = 0, y = -INFINITY; k < n; k++) {
		y = fmax(caps[k].gb, y + h);
		p->marks[caps[k].label].y0 = y;
	}
	for (k = n, limit = p->y.hi - h / 2; k-- > 0; limit -= h) {
		y = fmin(p->marks[caps[k].label].y0, limit);
		limit = y;
		p->marks[caps[k].label].y0 = p->marks[caps[k].label].y1 = y;
		p->marks[caps[k].label].x0 = p->marks[caps[k].label].x1 = edge + lead;
		p->pts[caps[k].leader] = (struct point){ edge, caps[k].gb };
		p->pts[caps[k].leader + 1] = (struct point){ edge + lead, y };
	}
	return n ? p->marks[caps[n - 1].label].y0 + h / 2 : -INFINITY;
}

/* Widest capacity label, canvas units. */
static double caps_width(const struct capline *caps, size_t n)
{
	double w, h, most = 0;
	size_t k;

	for (k = 0; k < n; k++) {
		text_size(FONT_NOTE, caps[k].text, 0, &w, &h);
		most = fmax(most, w);
	}
	return most;
}

/*
 * Places the labels by construction: a gutter of empty categories right of
 * the bars wide enough for the capacity labels, then the labels from the
 * finished scale, and the scale again while a label would pass its top.
 */
static void memory_place(struct chart_layout *c, struct panel *p, struct capline *caps, size_t n,
			 size_t nbars, size_t failed)
{
	double need = caps_width(caps, n) + LEADER + 8, top;
	size_t k, gutter;
	int pass;

	chart_frame(c);
	gutter = (size_t)ceil(need * (double)nbars / fmax(p->plot.w - need, 1));
	for (k = 0; k < gutter; k++)
		axis_add_cat(&p->x, "");
	for (pass = 0; pass < 3; pass++) {
		chart_frame(c);
		top = place_caps(p, caps, n, nbars);
		if (failed != (size_t)-1)
			top = fmax(top, place_failed(p, caps, n, nbars, failed));
		if (top <= p->y.hi * (1 + 1e-9))	/* a label held at the top may pass it by a rounding */
			break;
		p->y.min_hi = top;
	}
}

const char *imbalance_note(const struct analysis *a, struct chart_layout *c)
{
	size_t i;

	for (i = 0; i < a->nruns; i++)
		if (a->runs[i].imbalance.flagged && a->runs[i].imbalance.reason)
			return chart_strf(c, "Imbalance (%s): %s", chart_run_name(&a->runs[i], c),
					  a->runs[i].imbalance.reason);
	return NULL;
}

/* The datasheet lines: H200, B200, MI300X, and the H200 less the trial's reserve. */
static size_t reference_caps(const struct analysis *a, struct capline *caps, size_t n, struct chart_layout *c)
{
	size_t k;

	for (k = 0; k < sizeof(capacities) / sizeof(capacities[0]); k++)
		n = cap_add(caps, n, capacity_gb(k), chart_strf(c, "%s %s (nominal)", capacities[k],
								 fmt_gb(c, capacity_gb(k))), false);
	if (isfinite(a->memory_reserve_bytes) && a->memory_reserve_bytes > 0)
		n = cap_add(caps, n, capacity_gb(0) - GB(a->memory_reserve_bytes),
			    chart_strf(c, "%s %s less the %s reserve", capacities[0], fmt_gb(c, capacity_gb(0)),
				       fmt_gb(c, GB(a->memory_reserve_bytes))), false);
	return n;
}

/* Each line across the bars, its label and its leader (placed later). */
static void caps_draw(struct panel *p, struct capline *caps, size_t n, size_t nbars)
{
	size_t k;

	qsort(caps, n, sizeof(*caps), by_gb);
	for (k = 0; k < n; k++) {
		enum category cat = caps[k].own ? CAT_INK : CAT_REFERENCE;

		panel_line(p, cat, caps[k].own ? 0 : MS_DASHED, "capacity");
		panel_point(p, -0.5, caps[k].gb);
		panel_point(p, (double)nbars - 0.5, caps[k].gb);
		panel_line(p, CAT_REFERENCE, 0, "leader");
		caps[k].leader = p->npts;
		panel_point(p, (double)nbars - 0.5, caps[k].gb);
		panel_point(p, (double)nbars - 0.5, caps[k].gb);
		panel_label(p, CAT_INK, MS_RIGHT, (double)nbars - 0.5, caps[k].gb, caps[k].text);
		caps[k].label = p->nmarks - 1;
	}
}

static int chart_memory(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k, gi, ncaps = 0, failed = (size_t)-1, f;
	bool seen[CAT_COUNT] = { false }, own = false;
	enum category fcat = CAT_INK;
	struct capline caps[CAPS_MAX];
	struct panel *p;

	chart_init(c, "04-memory", "Peak memory per GPU against capacity");
	c->subtitle = "bars: peak memory used; lines: capacity in GB (1e9 bytes), solid as the GPU "
		      "reported it, dashed as a datasheet states it";
	p = chart_add_panel(c, "run and GPU", "peak memory (GB)");
	p->y.zero = true;
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		for (gi = 0; gi < r->ngpu; gi++) {
			if (r->gpu[gi].peak_memory < 0 && r->gpu[gi].timeline_peak <= 0)
				continue;
			f = memory_bar(a, order[k], gi, c, p);
			if (f != (size_t)-1) {
				failed = f;
				fcat = run_cat(a, order[k]);
			}
			if (r->gpu[gi].memory_total >= 0)
				ncaps = cap_add(caps, ncaps, GB(r->gpu[gi].memory_total),
						own_capacity(&r->gpu[gi], c), true);
			if (!seen[run_cat(a, order[k])])
				chart_add_legend(c, run_cat(a, order[k]), 0, false, run_label(a, order[k], c));
			seen[run_cat(a, order[k])] = true;
		}
	}
	if (p->x.ncats == 0) {
		*why = "no memory chart: no GPU has a known peak memory";
		return 1;
	}
	own = ncaps > 0;
	ncaps = reference_caps(a, caps, ncaps, c);
	memory_parts_legend(a, c);
	if (failed != (size_t)-1)
		chart_add_legend(c, fcat, MS_HATCHED, false, "asked for when it ran out of memory");
	if (own)
		chart_add_legend(c, CAT_INK, 0, true, "reported total");
	chart_add_legend(c, CAT_REFERENCE, MS_DASHED, true, "nominal (datasheet)");
	caps_draw(p, caps, ncaps, p->x.ncats);
	c->note = imbalance_note(a, c);
	memory_place(c, p, caps, ncaps, p->x.ncats, failed);
	c->caption = chart_strf(c, "Peak memory of each GPU, in GB of 1e9 bytes, against the total its "
				"driver reported (solid) and the nominal capacity of an H200, B200 and MI300X "
				"(dashed). A bar under a line means the job fits that GPU; bars of very "
				"different heights within a run mean the split is unbalanced.%s",
				failed != (size_t)-1 ? " The hatched block is the allocation the out-of-memory "
				"run asked for and did not get." : "");
	return 0;
}

/* 5. Communication: bus bandwidth by message size; exposed vs overlapped per step. */

static bool run_has_comm(const struct run_result *r)
{
	size_t gi;

	for (gi = 0; gi < r->ngpu; gi++)
		if (isfinite(r->gpu[gi].step_s.comm_total) && r->gpu[gi].step_s.comm_total > 0)
			return true;
	return false;
}

/* Marker and dash per series of one run, so its operations stay apart in its colour. */
static const unsigned series_styles[] = {
	MS_MARKERS, MS_SQUARES | MS_DASHED, MS_MARKERS | MS_HOLLOW, MS_SQUARES | MS_HOLLOW | MS_DASHED,
	MS_MARKERS | MS_LIGHT, MS_SQUARES | MS_LIGHT | MS_DASHED,
};

/*
 * One series per (operation, source) of a run: its points by message size,
 * each the analysis' total bytes over total time at that size (the GPU
 * count is the run's: the analysis keeps only nccl-tests tables of one
 * count). Returns how many series of the run are drawn before this one.
 */
static size_t bw_series(const struct analysis *a, size_t run, bool nccl_tests, size_t nth,
			struct chart_layout *c, struct panel *p)
{
	const struct run_result *r = &a->runs[run];
	int op;
	size_t k;

	for (op = 0; op < COLL_COUNT; op++) {
		unsigned style = series_styles[nth % (sizeof(series_styles) / sizeof(series_styles[0]))];
		const char *name = NULL;

		if (!nccl_tests)
			style = MS_SQUARES | MS_NOLINE | (nth % 2 ? MS_HOLLOW : 0);
		for (k = 0; k < r->nbw; k++) {
			const struct bw_point *b = &r->bw[k];

			if ((int)b->op != op || b->from_nccl_tests != nccl_tests || b->bytes <= 0 ||
			    !isfinite(b->busbw_gbps))
				continue;
			if (!name) {
				name = chart_strf(c, "%s %s, %s, %d GPU%s", chart_run_name(r, c),
						  op == COLL_NONE ? "collective" : coll_name((enum coll_op)op),
						  nccl_tests ? "nccl-tests" : "trace", r->gpus, r->gpus == 1 ? "" : "s");
				panel_line(p, run_cat(a, run), style, name);
			}
			panel_point(p, log2((double)b->bytes), b->busbw_gbps);
		}
		if (name) {
			chart_add_legend(c, run_cat(a, run), style, true, name);
			nth++;
		}
	}
	return nth;
}

/* "NVLink", "PCIe": the link as people write it; NULL when not a GPU link. */
static const char *link_text(const char *link)
{
	static const struct {
		const char *name, *text;
	} links[] = { { "nvlink", "NVLink" }, { "pcie", "PCIe" } };
	size_t k;

	for (k = 0; link && k < sizeof(links) / sizeof(links[0]); k++)
		if (!strcmp(link, links[k].name))
			return links[k].text;
	return NULL;
}

static const char *transport_text(const char *t)
{
	static const struct {
		const char *name, *text;
	} transports[] = {
		{ "p2p", "P2P" }, { "shm", "shared memory (SHM)" },
		{ "net-socket", "sockets (NET/Socket)" }, { "net-ib", "InfiniBand (NET/IB)" },
		{ "net-ofi", "libfabric (NET/OFI)" }, { "nvls", "NVLink SHARP (NVLS)" },
		{ "collnet", "CollNet" },
	};
	size_t k;

	for (k = 0; t && k < sizeof(transports) / sizeof(transports[0]); k++)
		if (!strcmp(t, transports[k].name))
			return transports[k].text;
	return "unknown";
}

/*
 * The link's nominal ceiling from the GPU table: "H200 NVLink nominal 450
 * GB/s"; NULL when the link or its bandwidth is unknown.
 */
static const char *ceiling_label(const struct run_result *r, struct chart_layout *c)
{
	const struct gpu_model *m = r->ngpu ? gpu_lookup(r->gpu[0].name, r->gpu[0].memory_total) : NULL;

	char b[NUMFMT_LEN];

	if (!link_text(r->link) || !isfinite(r->link_gbps))
		return NULL;
	return chart_strf(c, "%s%s%s nominal %s", m ? m->name : "", m ? " " : "", link_text(r->link),
			  numfmt_gbps(b, r->link_gbps));
}

/* One run's transport and link for the subtitle: "2gpu: NCCL transport: sockets (NET/Socket); ..." */
static const char *comm_facts(const struct run_result *r, struct chart_layout *c)
{
	const char *name = chart_run_name(r, c);
	bool inferred = r->link_source && !strcmp(r->link_source, "gpu-model");
	char b[NUMFMT_LEN];

	if (link_text(r->link) && isfinite(r->link_gbps))
		return chart_strf(c, "%s: NCCL transport: %s; link: %s%s, %s each way", name,
				  transport_text(r->transport), link_text(r->link),
				  inferred ? " (inferred from the GPU)" : "", numfmt_gbps(b, r->link_gbps));
	return chart_strf(c, "%s: NCCL transport: %s; link: %s, no nominal ceiling", name,
			  transport_text(r->transport), r->link ? r->link : "unknown");
}

static void bw_panel(const struct analysis *a, const size_t *order, size_t n, struct chart_layout *c)
{
	struct panel *p = chart_add_panel(c, "message size", "bus bandwidth (GB/s)");
	const char *drawn[MAX_ORDER];
	size_t k, j, ndrawn = 0;

	p->title = "Bus bandwidth by message size";
	p->x.scale = AXIS_LOG2_BYTES;
	p->x.tight = true;
	p->y.zero = true;
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];
		const char *ceiling = ceiling_label(r, c);

		bw_series(a, order[k], false, bw_series(a, order[k], true, 0, c, p), c, p);
		if (!r->nbw || !ceiling)
			continue;
		for (j = 0; j < ndrawn && strcmp(drawn[j], ceiling); j++)
			;
		if (j == ndrawn) {
			panel_hline(p, CAT_REFERENCE, MS_DASHED, r->link_gbps, ceiling);
			drawn[ndrawn++] = ceiling;
		}
	}
}

static void overlap_panel(const struct analysis *a, const size_t *order, size_t n, struct chart_layout *c)
{
	struct panel *p = chart_add_panel(c, "run and GPU", "communication per step (ms)");
	size_t k, gi;

	p->title = "Exposed vs overlapped comm";
	p->y.zero = true;
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		for (gi = 0; gi < r->ngpu; gi++) {
			const struct step_parts *s = &r->gpu[gi].step_s;
			double x, e, o;
			char b[NUMFMT_LEN];

			if (!isfinite(s->exposed_comm) || !isfinite(s->overlapped_comm) || !run_has_comm(r))
				continue;
			x = (double)axis_add_cat(&p->x, gpu_cat_label(a, order[k], gi, c));
			e = MS(s->exposed_comm);
			o = MS(s->overlapped_comm);
			panel_rect(p, CAT_EXPOSED_COMM, x - 0.3, 0, x + 0.3, e);
			panel_rect(p, CAT_OVERLAPPED_COMM, x - 0.3, e, x + 0.3, e + o);
			panel_label(p, CAT_INK, MS_ABOVE, x, e + o, chart_strf(c, "%s exposed",
						numfmt_percent(b, e + o > 0 ? e / (e + o) : 0)));
		}
	}
	chart_add_legend(c, CAT_EXPOSED_COMM, 0, false, "exposed comm");
	chart_add_legend(c, CAT_OVERLAPPED_COMM, 0, false, "overlapped comm");
}

/* The subtitle: what is shown, then each multi-GPU run's transport and link. */
static const char *comm_subtitle(const struct analysis *a, const size_t *order, size_t n, bool bw,
				 struct chart_layout *c)
{
	const char *s = bw ? "bus bandwidth = total bytes / total time, as nccl-tests defines it"
		: "exposed = communication with nothing else running on the GPU";
	size_t k;

	for (k = 0; k < n; k++)
		if (a->runs[order[k]].gpus > 1 || a->runs[order[k]].ngpu > 1)
			s = chart_strf(c, "%s. %s", s, comm_facts(&a->runs[order[k]], c));
	return s;
}

static int chart_comm(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k;
	bool multi = false, bw = false, comm = false, ceiling = false;

	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		multi |= r->gpus > 1 || r->ngpu > 1;
		bw |= r->nbw > 0;
		comm |= r->ngpu > 1 && run_has_comm(r);
		ceiling |= r->nbw > 0 && link_text(r->link) && isfinite(r->link_gbps);
	}
	if (!multi) {
		*why = "no communication: single-GPU runs only";
		return 1;
	}
	if (!bw && !comm) {
		*why = "no communication: no collectives in the multi-GPU runs' traces and no nccl-tests output";
		return 1;
	}
	chart_init(c, "05-communication", "Communication");
	c->subtitle = comm_subtitle(a, order, n, bw, c);
	if (bw)
		bw_panel(a, order, n, c);
	if (comm)
		overlap_panel(a, order, n, c);
	c->caption = chart_strf(c, "%s%s%s",
				!bw ? "" : ceiling ? "Left: bus bandwidth reached per message size and operation "
				"against the link's nominal ceiling (dashed); small messages never reach it. "
				: "Left: bus bandwidth reached per message size and operation; the link's nominal "
				"bandwidth is unknown, so no ceiling is drawn. ",
				!comm ? "" : bw ? "Right: how much" : "How much",
				comm ? " of each GPU's communication runs with nothing else on the GPU "
				"(exposed) rather than hidden under compute." : "");
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
					isfinite(v) ? numfmt_num(b, v) : "-");
	}
	return chart_strf(c, "%s ms", text);
}

/*
 * Each row's values right of its longest bar. The axis reaches far enough
 * for every label to fit, the plot taken as the canvas less its margins,
 * the kernel names (at most 45% of it, as chart_finish caps them) and 20.
 */
static void kernel_labels(const struct kseries *s, size_t ns, const char **rows, size_t n,
			  struct chart_layout *c, struct panel *p)
{
	double area_w = c->width - 28, names = 0, plot_w, w, h;
	size_t i;

	for (i = 0; i < n; i++) {
		text_size(FONT_TICK, rows[i], 0, &w, &h);
		names = fmax(names, w);
	}
	plot_w = area_w - fmin(names, 0.45 * area_w) - 20;
	for (i = 0; i < n; i++) {
		const char *text = kernel_values(s, ns, rows[i], c);
		double v = row_max(s, ns, rows[i]);

		if (!isfinite(v))
			continue;
		text_size(FONT_NOTE, text, 0, &w, &h);
		if (w + 6 < plot_w)
			p->x.min_hi = fmax(isnan(p->x.min_hi) ? 0 : p->x.min_hi, v / (1 - (w + 6) / plot_w));
		panel_label(p, CAT_INK, MS_RIGHT, v, (double)(n - 1 - i), text);
	}
}

static int chart_kernels(const struct analysis *a, struct chart_layout *c, const char **why)
{
	struct kseries s[4];
	const char *rows[TOP_KERNELS * 4];
	size_t ns, n, i, k;
	struct panel *p;

	chart_init(c, "06-top-kernels", "Top kernels by time per step");
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

/* 7. One steady step's timeline per GPU, on each run's common clock. */

static const struct {
	enum category cat;
	double offset;		/* of the lane's centre from its GPU's row */
} lanes[] = {
	[EVC_COMPUTE] = { CAT_COMPUTE, 0.25 },
	[EVC_COMM] = { CAT_EXPOSED_COMM, 0 },
	[EVC_MEMORY] = { CAT_MEMORY, -0.25 },
};

#define LANE_H 0.1		/* half a lane's height, in rows */

/* The steady step whose busy intervals g->lanes holds (its window is lanes_window_s); SIZE_MAX none. */
static size_t lanes_step(const struct gpu_result *g)
{
	size_t k, pick = SIZE_MAX;

	for (k = 0; k < g->nsteps; k++) {
		const struct step_point *s = &g->steps[k];

		if (s->warmup || s->trailing || !isfinite(s->window_s))
			continue;
		if (pick == SIZE_MAX || fabs(s->window_s - g->lanes_window_s) < fabs(g->steps[pick].window_s - g->lanes_window_s))
			pick = k;
	}
	return pick;
}

/*
 * How long after the earliest GPU of its run GPU gi started the step it
 * shows, on the run's common clock (each trace's clock plus its
 * clock_offset_s), in seconds: against the same step number on every GPU,
 * since each GPU shows its own median step; 0 for a lone GPU; NaN where a
 * start or an offset is unknown.
 */
static double common_shift(const struct run_result *r, size_t gi)
{
	const struct gpu_result *g = &r->gpu[gi];
	size_t p = lanes_step(g), h, k;
	double shift = 0;

	if (r->ngpu < 2)
		return 0;
	if (p == SIZE_MAX || g->steps[p].start_ns < 0 || !isfinite(g->clock_offset_s))
		return NAN;
	for (h = 0; h < r->ngpu; h++) {
		const struct gpu_result *o = &r->gpu[h];

		for (k = 0; k < o->nsteps; k++) {
			if (o->steps[k].number != g->steps[p].number || o->steps[k].start_ns < 0)
				continue;
			if (!isfinite(o->clock_offset_s))
				return NAN;
			shift = fmax(shift, (double)(g->steps[p].start_ns - o->steps[k].start_ns) / 1e9 +
					    g->clock_offset_s - o->clock_offset_s);
		}
	}
	return shift;
}

/* Whether the GPUs of r show different steps (their labels then say which). */
static bool steps_differ(const struct run_result *r)
{
	size_t gi, p, first = SIZE_MAX;

	for (gi = 0; gi < r->ngpu; gi++) {
		if (!r->gpu[gi].nlanes || (p = lanes_step(&r->gpu[gi])) == SIZE_MAX)
			continue;
		if (first == SIZE_MAX)
			first = gi;
		else if (r->gpu[gi].steps[p].number != r->gpu[first].steps[lanes_step(&r->gpu[first])].number)
			return true;
	}
	return false;
}

/* "2gpu\nGPU 1", with ", step 5" where the run's GPUs show different steps. */
static const char *lane_label(const struct analysis *a, size_t run, size_t gi, struct chart_layout *c)
{
	const struct run_result *r = &a->runs[run];
	size_t p = lanes_step(&r->gpu[gi]);

	if (!steps_differ(r) || p == SIZE_MAX)
		return gpu_cat_label(a, run, gi, c);
	return chart_strf(c, "%s, step %lld", gpu_cat_label(a, run, gi, c), (long long)r->gpu[gi].steps[p].number);
}

struct span {
	double s, e;
};

static int by_start(const void *x, const void *y)
{
	const struct span *a = x, *b = y;

	return (a->s > b->s) - (a->s < b->s);
}

static int by_value(const void *x, const void *y)
{
	const double *a = x, *b = y;

	return (*a > *b) - (*a < *b);
}

/* The compute spans of g, sorted by start, in a malloc'd array. */
static struct span *compute_spans(const struct gpu_result *g, size_t *n)
{
	struct span *v = xmalloc((g->nlanes ? g->nlanes : 1) * sizeof(*v));
	size_t i;

	*n = 0;
	for (i = 0; i < g->nlanes; i++)
		if (g->lanes[i].cls == EVC_COMPUTE && isfinite(g->lanes[i].start_s) && isfinite(g->lanes[i].end_s))
			v[(*n)++] = (struct span){ g->lanes[i].start_s, g->lanes[i].end_s };
	qsort(v, *n, sizeof(*v), by_start);
	return v;
}

/* One run on its common clock: each GPU's shift and its communication starts (common clock, sorted). */
struct run_clock {
	const struct run_result *r;
	double *shift;		/* common_shift() of each GPU */
	double **starts;	/* each GPU's communication spans' starts, shift included, in order */
	size_t *nstarts;
	bool match;		/* the k-th spans of the GPUs can be matched: same step, as many spans */
};

static void run_clock_init(struct run_clock *k, const struct run_result *r)
{
	size_t n = r->ngpu ? r->ngpu : 1, gi, i;

	k->r = r;
	k->shift = xmalloc(n * sizeof(*k->shift));
	k->starts = xcalloc(n, sizeof(*k->starts));
	k->nstarts = xcalloc(n, sizeof(*k->nstarts));
	k->match = r->ngpu > 1 && !steps_differ(r);
	for (gi = 0; gi < r->ngpu; gi++) {
		const struct gpu_result *g = &r->gpu[gi];

		k->shift[gi] = common_shift(r, gi);
		k->starts[gi] = xmalloc((g->nlanes ? g->nlanes : 1) * sizeof(**k->starts));
		for (i = 0; i < g->nlanes; i++)
			if (g->lanes[i].cls == EVC_COMM && isfinite(g->lanes[i].start_s))
				k->starts[gi][k->nstarts[gi]++] = k->shift[gi] + g->lanes[i].start_s;
		qsort(k->starts[gi], k->nstarts[gi], sizeof(**k->starts), by_value);
		if (g->nlanes && (!isfinite(k->shift[gi]) || k->nstarts[gi] != k->nstarts[0]))
			k->match = false;
	}
}

static void run_clock_release(struct run_clock *k)
{
	size_t gi;

	for (gi = 0; gi < k->r->ngpu; gi++)
		free(k->starts[gi]);
	free(k->starts);
	free(k->nstarts);
	free(k->shift);
}

/*
 * Where GPU gi's communication span that starts at s (its own step's time)
 * stops waiting for a peer, as docs/analysis.md defines waiting: its k-th
 * span in start order is matched with the k-th of every GPU of the run, and
 * it waits until the latest of their starts. NaN (all transfer) where the
 * spans cannot be matched (a lone GPU, different steps or span counts).
 */
static double wait_until(const struct run_clock *k, size_t gi, double s)
{
	double at = k->shift[gi] + s, latest = at;
	size_t h, i = 0;

	if (!k->match)
		return NAN;
	while (i < k->nstarts[gi] && k->starts[gi][i] < at)
		i++;
	for (h = 0; h < k->r->ngpu; h++)
		if (k->r->gpu[h].nlanes && i < k->nstarts[h])
			latest = fmax(latest, k->starts[h][i]);
	return latest - k->shift[gi];
}

/* What the comm lane of one row needs: its centre, its shift (s), the compute spans under it. */
struct comm_row {
	struct panel *p;
	double mid, shift;
	const struct span *busy;
	size_t nbusy;
	double visible;		/* a waiting piece this long (s) shows at the chart's width */
	bool waited;		/* set when a visible waiting piece was drawn: the legend names it */
};

static void comm_rect(struct comm_row *w, enum category cat, unsigned style, double s, double e)
{
	panel_rect(w->p, cat, MS(w->shift + s), w->mid - LANE_H, MS(w->shift + e), w->mid + LANE_H)->style = style;
}

/* Exposed communication from s to e: waiting for a peer (hatched) until wait, transfer after. */
static void exposed_piece(struct comm_row *w, double s, double e, double wait)
{
	double until = isfinite(wait) ? fmin(e, wait) : s;

	if (until > s) {
		comm_rect(w, CAT_EXPOSED_COMM, MS_HATCHED, s, until);
		w->waited |= until - s >= w->visible;
		s = until;
	}
	if (e > s)
		comm_rect(w, CAT_EXPOSED_COMM, 0, s, e);
}

/* One communication span: overlapped where compute runs, exposed elsewhere (the step partition). */
static void comm_span(struct comm_row *w, double s, double e, double wait)
{
	double cur = s;
	size_t i;

	for (i = 0; i < w->nbusy && w->busy[i].s < e && cur < e; i++) {
		if (w->busy[i].e <= cur)
			continue;
		if (w->busy[i].s > cur)
			exposed_piece(w, cur, w->busy[i].s, wait);
		comm_rect(w, CAT_OVERLAPPED_COMM, 0, fmax(cur, w->busy[i].s), fmin(e, w->busy[i].e));
		cur = fmax(cur, w->busy[i].e);
	}
	if (cur < e)
		exposed_piece(w, cur, e, wait);
}

/* One GPU's row at y; returns true when it drew waiting for a peer. */
static bool timeline_row(const struct run_clock *k, size_t gi, double y, struct panel *p)
{
	const struct gpu_result *g = &k->r->gpu[gi];
	struct comm_row w = { p, y, isfinite(k->shift[gi]) ? k->shift[gi] : 0, NULL, 0,
			      isfinite(g->lanes_window_s) ? g->lanes_window_s / 500 : 0, false };
	struct span *busy = compute_spans(g, &w.nbusy);
	size_t i;

	w.busy = busy;
	for (i = 0; i < g->nlanes; i++) {
		const struct lane_span *l = &g->lanes[i];
		double mid;

		if (l->cls > EVC_MEMORY || !isfinite(l->start_s) || !isfinite(l->end_s))
			continue;
		if (l->cls == EVC_COMM) {
			comm_span(&w, l->start_s, l->end_s, wait_until(k, gi, l->start_s));
			continue;
		}
		mid = y + lanes[l->cls].offset;
		panel_rect(p, lanes[l->cls].cat, MS(w.shift + l->start_s), mid - LANE_H, MS(w.shift + l->end_s),
			   mid + LANE_H);
	}
	free(busy);
	if (isfinite(g->lanes_window_s)) {
		panel_line(p, CAT_INK, MS_DASHED, "window end");
		panel_point(p, MS(w.shift + g->lanes_window_s), y - 0.42);
		panel_point(p, MS(w.shift + g->lanes_window_s), y + 0.42);
	}
	return w.waited;
}

/* Lays out one run's rows, last GPU lowest; returns false when a GPU could not be put on the common clock. */
static bool timeline_run(const struct analysis *a, size_t run, struct chart_layout *c, struct panel *p,
			 bool *waited)
{
	const struct run_result *r = &a->runs[run];
	struct run_clock k;
	bool common = true;
	size_t gi;

	run_clock_init(&k, r);
	for (gi = 0; gi < r->ngpu; gi++)
		common &= isfinite(k.shift[gi]) || !r->gpu[gi].nlanes;
	for (gi = r->ngpu; gi-- > 0;)
		if (r->gpu[gi].nlanes)
			*waited |= timeline_row(&k, gi, (double)axis_add_cat(&p->y, lane_label(a, run, gi, c)), p);
	run_clock_release(&k);
	return common;
}

static int chart_timeline(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k;
	struct panel *p;
	bool common = true, waited = false;

	chart_init(c, "07-timeline", "One steady step, GPU by GPU");
	chart_set_banner(a, c);
	p = chart_add_panel(c, "time from the run's first GPU to start the step, common clock (ms)", "");
	p->x.zero = true;
	p->x.tight = true;
	for (k = n; k-- > 0;)
		common &= timeline_run(a, order[k], c, p, &waited);
	if (!p->y.ncats) {
		*why = "no timeline: no GPU has a steady step's kernels";
		return 1;
	}
	c->subtitle = common ? "each GPU's median steady step on its run's common clock (traces aligned), from the first GPU "
			       "to start that step; "
			       "lanes per GPU: compute (top), comm (middle), memory (bottom)"
		: "each GPU's median steady step, each on its own clock (no clock offset to align them); "
		  "lanes per GPU: compute (top), comm (middle), memory (bottom)";
	chart_add_legend(c, CAT_COMPUTE, 0, false, "compute");
	chart_add_legend(c, CAT_EXPOSED_COMM, 0, false, waited ? "exposed comm: transfer" : "exposed comm");
	if (waited)
		chart_add_legend(c, CAT_EXPOSED_COMM, MS_HATCHED, false, "exposed comm: waiting for a peer");
	chart_add_legend(c, CAT_OVERLAPPED_COMM, 0, false, "overlapped comm (under compute)");
	chart_add_legend(c, CAT_MEMORY, 0, false, "memory (copy/set)");
	chart_add_legend(c, CAT_INK, MS_DASHED, true, "end of the step window");
	return 0;
}

/* 8. Memory and utilisation over time (nvidia-smi), cropped to the job. */

#define GPUS_MAX 8
#define MONITOR_MIN 3		/* fewer samples than this in the window: the run is not drawn */
#define MARGIN_S 5.0		/* the least margin either side of the profiled steps */

/*
 * The window of a run's samples: its profiled steps (first step's start to
 * the last one's end, on any GPU) with a margin either side, on the
 * samples' clock; x = 0 at the first step. Without steps on that clock (a
 * failed run, a log's steps), the job as the samples show it: from the
 * first to the last sample with memory in use or work running.
 */
struct mon_window {
	int64_t t0;		/* ns: x = 0 */
	int64_t from, to;	/* ns: samples kept */
	double steps_s;		/* the profiled window's length; NaN without one */
};

/* Widens [*first, *last] to take t in. */
static void span_add(int64_t *first, int64_t *last, int64_t t)
{
	*first = t < *first ? t : *first;
	*last = t > *last ? t : *last;
}

/* The span of the samples that show the job at work; false when none does. */
static bool job_span(const struct run_result *r, int64_t *first, int64_t *last)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t k;

	*first = INT64_MAX;
	*last = INT64_MIN;
	for (k = 0; k < r->nmonitor; k++) {
		const struct gpu_sample *s = &r->monitor[k];

		if (s->ts < 0)
			continue;
		span_add(&lo, &hi, s->ts);
		if (s->memory_used > 0 || s->util_gpu > 0)
			span_add(first, last, s->ts);
	}
	if (*first > *last) {
		*first = lo;
		*last = hi;
	}
	return lo <= hi;
}

/* Returns false when the run has no timed sample. */
static bool monitor_window(const struct run_result *r, struct mon_window *w)
{
	int64_t first = INT64_MAX, last = INT64_MIN, lo, hi;
	size_t gi, k;
	double margin;

	if (!job_span(r, &lo, &hi))
		return false;
	for (gi = 0; gi < r->ngpu; gi++)
		for (k = 0; k < r->gpu[gi].nsteps; k++) {
			const struct step_point *s = &r->gpu[gi].steps[k];

			if (s->start_ns < 0 || !isfinite(s->window_s))
				continue;
			span_add(&first, &last, s->start_ns);
			span_add(&first, &last, s->start_ns + (int64_t)(s->window_s * 1e9));
		}
	if (first > last || last < lo || first > hi)	/* no steps, or on another clock: the job */
		*w = (struct mon_window){ lo, lo - (int64_t)(MARGIN_S * 1e9), hi + (int64_t)(MARGIN_S * 1e9), NAN };
	else {
		margin = fmax(MARGIN_S, 0.25 * (double)(last - first) / 1e9);
		*w = (struct mon_window){ first, first - (int64_t)(margin * 1e9), last + (int64_t)(margin * 1e9),
					  (double)(last - first) / 1e9 };
	}
	return true;
}

static bool in_window(const struct gpu_sample *s, const struct mon_window *w)
{
	return s->ts >= w->from && s->ts <= w->to;
}

/* The distinct GPU indexes of a run's samples in its window, up to GPUS_MAX; and how many samples. */
static size_t monitor_gpus(const struct run_result *r, const struct mon_window *w, int32_t *ids, size_t *nsamples)
{
	size_t n = 0, k, j;

	*nsamples = 0;
	for (k = 0; k < r->nmonitor; k++) {
		const struct gpu_sample *s = &r->monitor[k];

		if (!in_window(s, w))
			continue;
		(*nsamples)++;
		for (j = 0; j < n && ids[j] != s->gpu; j++)
			;
		if (j < n || n >= GPUS_MAX)
			continue;
		for (j = n++; j > 0 && ids[j - 1] > s->gpu; j--)	/* in index order */
			ids[j] = ids[j - 1];
		ids[j] = s->gpu;
	}
	return n;
}

/* A run to draw: at least MONITOR_MIN samples per GPU in its window. */
static bool monitor_enough(const struct run_result *r, const struct mon_window *w)
{
	int32_t ids[GPUS_MAX];
	size_t n, nsamples;

	n = monitor_gpus(r, w, ids, &nsamples);
	return n > 0 && nsamples / n >= MONITOR_MIN;
}

/* One line per GPU of the run; what = 0 memory used (GB), 1 utilisation (%). */
static void monitor_lines(const struct analysis *a, size_t run, const struct mon_window *w, int what,
			  struct chart_layout *c, struct panel *p)
{
	const struct run_result *r = &a->runs[run];
	int32_t ids[GPUS_MAX];
	size_t nsamples, n = monitor_gpus(r, w, ids, &nsamples), j, k;

	for (j = 0; j < n; j++) {
		unsigned style = j % 2 ? MS_LIGHT | MS_DASHED : 0;
		const char *name = chart_strf(c, "%s GPU %d", chart_run_name(r, c), ids[j]);

		panel_line(p, run_cat(a, run), style, name);
		for (k = 0; k < r->nmonitor; k++) {
			const struct gpu_sample *s = &r->monitor[k];
			double v = what == 0 ? (s->memory_used >= 0 ? GB(s->memory_used) : NAN)
				: (s->util_gpu >= 0 ? s->util_gpu : NAN);

			if (s->gpu == ids[j] && in_window(s, w) && isfinite(v))
				panel_point(p, (double)(s->ts - w->t0) / 1e9, v);
		}
		if (what == 0)
			chart_add_legend(c, run_cat(a, run), style, true, name);
	}
}

/* The GPUs' reported totals where memory is plotted, one line per distinct label. */
static void monitor_capacity(const struct analysis *a, const size_t *order, size_t n, struct chart_layout *c,
			     struct panel *p)
{
	const char *drawn[CAPS_MAX];
	size_t k, gi, j, ndrawn = 0;

	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		for (gi = 0; gi < r->ngpu && ndrawn < CAPS_MAX; gi++) {
			const char *text;

			if (r->gpu[gi].memory_total < 0)
				continue;
			text = own_capacity(&r->gpu[gi], c);
			for (j = 0; j < ndrawn && strcmp(drawn[j], text); j++)
				;
			if (j < ndrawn)
				continue;
			panel_hline(p, CAT_INK, ndrawn % 2 ? MS_BELOW : 0, GB(r->gpu[gi].memory_total), text);
			drawn[ndrawn++] = text;
		}
	}
}

static int chart_monitor(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k, ndrawn = 0;
	struct mon_window w[MAX_ORDER];
	bool drawn[MAX_ORDER], spans = false, cropped = true, timed = false;
	struct panel *mem, *util;

	for (k = 0; k < n; k++) {
		bool t = monitor_window(&a->runs[order[k]], &w[k]);

		drawn[k] = t && monitor_enough(&a->runs[order[k]], &w[k]);
		timed |= t;
		ndrawn += drawn[k];
	}
	if (!ndrawn) {
		*why = timed ? "no memory and utilisation over time: fewer than 3 nvidia-smi samples per GPU in "
			       "any run's window" : "no memory and utilisation over time: no nvidia-smi samples with times";
		return 1;
	}
	chart_init(c, "08-monitor", "GPU memory and utilisation over time");
	mem = chart_add_panel(c, "time from the first profiled step (s)", "memory used (GB)");
	mem->title = "Memory used";
	mem->y.zero = true;
	util = chart_add_panel(c, "time from the first profiled step (s)", "GPU utilisation (%)");
	util->title = "Utilisation";
	util->y.zero = true;
	util->y.min_hi = 100;
	util->y.max_hi = 100;
	mem->x.tight = util->x.tight = true;
	for (k = 0; k < n; k++) {
		if (!drawn[k] || isnan(w[k].steps_s))
			continue;
		panel_vspan(mem, CAT_WARMUP, 0, w[k].steps_s, NULL);
		panel_vspan(util, CAT_WARMUP, 0, w[k].steps_s, NULL);
		spans = true;
	}
	for (k = 0; k < n; k++) {
		if (!drawn[k])
			continue;
		cropped &= !isnan(w[k].steps_s);
		monitor_lines(a, order[k], &w[k], 0, c, mem);
		monitor_lines(a, order[k], &w[k], 1, c, util);
	}
	monitor_capacity(a, order, n, c, mem);
	if (spans)
		chart_add_legend(c, CAT_WARMUP, 0, false, "profiled steps");
	c->subtitle = cropped ? "nvidia-smi samples around each run's profiled steps (shaded); "
				"solid line: each GPU's reported total"
		: "nvidia-smi samples; 0 s: a run's first profiled step (shaded: its profiled steps), or its "
		  "job's start without steps; solid line: each GPU's reported total";
	if (!cropped)
		mem->x.label = util->x.label = "time (s)";
	c->caption = "nvidia-smi's view of each GPU around the profiled steps (shaded): memory used against "
		     "the GPU's reported total, and utilisation. Look for one GPU working while another waits, "
		     "and for memory that climbs to the total.";
	return 0;
}

const struct chart_def chart_defs[] = {
	{ "01-step-time", "Each run's step time (slowest GPU) over the profiled steps. Look at the gap "
	  "between the dashed medians: that is the speedup. Steps in the shaded warm-up are left out of "
	  "every number; a line that keeps moving after it means the run never settled.", chart_step_time },
	{ "02-breakdown", "Each GPU's mean steady step split into compute, exposed communication, memory "
	  "copies and idle. Look at what grows from the baseline to the candidate: that is what the "
	  "second GPU costs.", chart_breakdown },
	{ "03-waterfall", "From the ideal (one GPU's step, spread perfectly over n GPUs) to the GPU time "
	  "actually spent. Each middle bar is the extra GPU time one category took; the tallest one is "
	  "what to fix first.", chart_waterfall },
	{ "04-memory", "Peak memory of each GPU, in GB of 1e9 bytes, against the total its driver reported "
	  "and the nominal capacity of an H200, B200 and MI300X. A bar under a line means the job fits that "
	  "GPU; bars of very different heights within a run mean the split is unbalanced.", chart_memory },
	{ "05-communication", "Bus bandwidth reached per message size and operation, against the link's "
	  "nominal ceiling where the link is known, and how much of each GPU's communication runs with "
	  "nothing else on the GPU (exposed) rather than hidden under compute.", chart_comm },
	{ "06-top-kernels", "The kernels that take the most time per step, per GPU. A kernel that is "
	  "slower on the candidate than on the baseline, or a communication kernel near the top, "
	  "points at the cause.", chart_kernels },
	{ "07-timeline", "The median steady step of each GPU, lane by lane. Gaps in the compute lane "
	  "where the communication lane is busy are exposed communication; gaps in every lane are "
	  "idle time.", chart_timeline },
	{ "08-monitor", "nvidia-smi's view of each GPU around the profiled steps: memory used against the "
	  "GPU's reported total, and utilisation. Look for one GPU working while another waits, and for "
	  "memory that climbs to the total.",
	  chart_monitor },
	{ "09-replay", "Each critical kernel's time in the trial's logs against its time re-run on "
	  "this GPU. Bars far apart mean the logged timings were not what the kernels cost.",
	  chart_replay },
	{ "10-options", "What each way of renting buys, from the runs' throughput: samples per second, "
	  "GPU-hours per million samples and, when the trial sets a target, the days to it against the "
	  "rental windows; with a price per GPU-hour, the cost. More GPUs pay off when the throughput "
	  "grows faster than the GPU-hours.", chart_options },
	{ "11-sweep", "For a sweep of configurations: the same GPUs used as independent 1-GPU runs, one "
	  "configuration each, or together as one distributed run. The taller bar finishes more "
	  "configurations per day.", chart_sweep },
	{ "12-precision", "Which data types each run's matrix multiplications ran in, as a share of their "
	  "time. Under each bar, the precision the run declared and the one observed; a run whose bar "
	  "changes colour against the others did different arithmetic.", chart_precision },
	{ "13-waiting", "Left: each GPU's mean step, from the bottom: waiting for a slower peer, its own "
	  "work, the rest. Waiting above the dashed tick is imbalance, not a slow link. Right: the largest "
	  "over the smallest GPU's peak memory and busy time, against the ratios that flag imbalance.",
	  chart_waiting },
};

const size_t chart_ndefs = sizeof(chart_defs) / sizeof(chart_defs[0]);

int chart_build(size_t i, const struct analysis *a, struct chart_layout *c, const char **why)
{
	int rc;

	chart_init(c, chart_defs[i].id, "");
	*why = NULL;
	rc = chart_defs[i].build(a, c, why);
	if (rc == 0)
		chart_finish(c);
	return rc;
}
