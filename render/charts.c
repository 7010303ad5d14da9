#include "render/charts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/gpu.h"
#include "render/charts_internal.h"

#define MS(s) ((s) * 1e3)
#define GB(b) ((double)(b) / 1e9)
#define TOP_KERNELS 8
#define MARKERS_MAX 60		/* more steps than this: no dots on the line */

/* GPUs whose capacity the memory chart draws (numbers from core/gpu), smallest first. */
static const struct {
	const char *model;	/* a core/gpu short name */
	unsigned style;		/* MS_BELOW: its label under the line, clear of its neighbour */
} capacities[] = {
	{ "H200", 0 },
	{ "B200", MS_BELOW },
	{ "MI300X", 0 },
};

/* A reference GPU's nominal capacity in GB. */
static double capacity_gb(size_t k)
{
	const struct gpu_model *m = gpu_lookup(capacities[k].model, -1);

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

const char *run_label(const struct analysis *a, size_t i, struct chart_layout *c)
{
	const struct run_result *r = &a->runs[i];
	const char *role = !compared(a) ? NULL
		: i == a->cmp.baseline ? "baseline" : i == a->cmp.candidate ? "candidate" : NULL;
	const char *name = r->name ? r->name : "run";

	if (!role)
		return chart_strf(c, "%s (%d GPU%s)", name, r->gpus, r->gpus == 1 ? "" : "s");
	return chart_strf(c, "%s: %s (%d GPU%s)", role, name, r->gpus, r->gpus == 1 ? "" : "s");
}

int gpu_number(const struct gpu_result *g, size_t index)
{
	return g->rank >= 0 ? g->rank : (int)index;
}

/* "412 ms", "12.3 ms", "0.42 ms": as many decimals as a reader needs. */
static const char *fmt_ms(struct chart_layout *c, const char *prefix, double ms)
{
	int decimals = fabs(ms) >= 100 ? 0 : fabs(ms) >= 10 ? 1 : 2;

	return chart_strf(c, "%s%.*f ms", prefix, decimals, ms);
}

static const char *fmt_signed_ms(struct chart_layout *c, double ms)
{
	return fmt_ms(c, ms >= 0 ? "+" : "", ms);
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

static int chart_step_time(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k;
	struct panel *p;
	double lo, hi, shaded_lo = NAN, shaded_hi = NAN;
	bool any = false, trailing = false;

	for (k = 0; k < n; k++)
		any |= has_steps(&a->runs[order[k]]);
	if (!any) {
		*why = "no step times: no run has profiler steps";
		return 1;
	}
	chart_init(c, "01-step-time", "Step time over the run");
	c->subtitle = "slowest GPU of each run; shaded: warm-up steps; dashed: steady median";
	p = chart_add_panel(c, "profiled step, in order", "step time (ms)");
	p->y.zero = true;
	p->x.tight = true;
	p->x.min_step = 1;
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		if (!has_steps(r) || !warmup_span(&r->gpu[r->slowest], &lo, &hi))
			continue;
		if (lo == shaded_lo && hi == shaded_hi)
			continue;
		panel_vspan(p, CAT_WARMUP, lo, hi, isnan(shaded_lo) ? "warm-up" : NULL);
		shaded_lo = lo;
		shaded_hi = hi;
	}
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
	if (!isnan(shaded_lo))
		chart_add_legend(c, CAT_WARMUP, 0, false, "warm-up");
	if (trailing) {
		c->subtitle = "slowest GPU of each run; shaded: warm-up steps; hollow: the trailing "
			      "step, not measured; dashed: steady median";
		chart_add_legend(c, CAT_INK, MS_MARKERS | MS_NOLINE | MS_HOLLOW, true,
				 "trailing (not measured)");
	}
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

	return chart_strf(c, "%s\nGPU %d", r->name ? r->name : "run", gpu_number(&r->gpu[gi], gi));
}

static void breakdown_bar(struct chart_layout *c, struct panel *p, const char *label,
			  const struct step_parts *s)
{
	double x = (double)axis_add_cat(&p->x, label), y = 0;
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		double v = MS(part_of(s, i));

		panel_rect(p, parts[i].cat, x - 0.32, y, x + 0.32, y + v);
		y += v;
	}
	panel_label(p, CAT_INK, MS_ABOVE, x, y, fmt_ms(c, "", y));
}

static void legend_parts(struct chart_layout *c)
{
	size_t i;

	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		chart_add_legend(c, parts[i].cat, 0, false, category_style(parts[i].cat)->label);
}

static int chart_breakdown(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k, gi;
	struct panel *p;

	chart_init(c, "02-breakdown", "Where each GPU's step goes");
	c->subtitle = "mean over steady steps; the four parts add up to the step window";
	p = chart_add_panel(c, "run and GPU", "time per step (ms)");
	p->y.zero = true;
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		for (gi = 0; gi < r->ngpu; gi++)
			if (parts_known(&r->gpu[gi].step_s))
				breakdown_bar(c, p, gpu_cat_label(a, order[k], gi, c), &r->gpu[gi].step_s);
	}
	if (p->x.ncats == 0) {
		*why = "no step breakdown: no GPU has steady steps with a known partition";
		return 1;
	}
	legend_parts(c);
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

static int chart_waterfall(const struct analysis *a, struct chart_layout *c, const char **why)
{
	const struct comparison *m = &a->cmp;
	struct panel *p;
	double y, x;
	size_t i;

	if (!compared(a) || !isfinite(m->ideal_s) || !isfinite(m->actual_s) || !parts_known(&m->attribution_s)) {
		*why = "no scaling waterfall: needs a baseline and a candidate with step breakdowns";
		return 1;
	}
	chart_init(c, "03-waterfall", "Where the extra GPU time went");
	c->subtitle = chart_strf(c, "GPU time per step: ideal = the baseline's step; actual = %d GPUs x the candidate's step",
				 a->runs[m->candidate].gpus);
	p = chart_add_panel(c, "from the ideal to the actual, by category", "GPU time per step (ms)");
	p->y.zero = true;
	x = (double)axis_add_cat(&p->x, "ideal");
	panel_rect(p, CAT_BASELINE, x - 0.34, 0, x + 0.34, MS(m->ideal_s));
	panel_label(p, CAT_INK, MS_ABOVE, x, MS(m->ideal_s), fmt_ms(c, "", MS(m->ideal_s)));
	y = MS(m->ideal_s);
	connector(p, x, y);
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		double d = MS(part_of(&m->attribution_s, i));

		x = (double)axis_add_cat(&p->x, waterfall_labels[i]);
		panel_rect(p, parts[i].cat, x - 0.34, y, x + 0.34, y + d);
		panel_label(p, CAT_INK, MS_ABOVE, x, fmax(y, y + d), fmt_signed_ms(c, d));
		y += d;
		connector(p, x, y);
	}
	x = (double)axis_add_cat(&p->x, chart_strf(c, "actual\n(%d GPUs)", a->runs[m->candidate].gpus));
	panel_rect(p, CAT_CANDIDATE, x - 0.34, 0, x + 0.34, MS(m->actual_s));
	panel_label(p, CAT_INK, MS_ABOVE, x, MS(m->actual_s), fmt_ms(c, "", MS(m->actual_s)));
	chart_add_legend(c, CAT_BASELINE, 0, false, "ideal (baseline)");
	legend_parts(c);
	chart_add_legend(c, CAT_CANDIDATE, 0, false, "actual (candidate)");
	return 0;
}

/* 4. Peak memory per GPU against capacity. */

static void memory_bar(const struct analysis *a, size_t run, size_t gi, struct chart_layout *c, struct panel *p)
{
	const struct gpu_result *g = &a->runs[run].gpu[gi];
	double x = (double)axis_add_cat(&p->x, gpu_cat_label(a, run, gi, c));

	double at = GB(g->peak_memory);

	/* a capacity line just above the bar would strike the label through: go above it */
	if (g->memory_total >= g->peak_memory && g->memory_total - g->peak_memory < g->memory_total / 8)
		at = GB(g->memory_total);
	panel_rect(p, run_cat(a, run), x - 0.3, 0, x + 0.3, GB(g->peak_memory));
	panel_label(p, CAT_INK, MS_ABOVE, x, at, chart_strf(c, "%.1f GB", GB(g->peak_memory)));
	if (g->memory_total < 0)
		return;
	panel_line(p, CAT_INK, 0, "capacity");
	panel_point(p, x - 0.42, GB(g->memory_total));
	panel_point(p, x + 0.42, GB(g->memory_total));
}

const char *imbalance_note(const struct analysis *a, struct chart_layout *c)
{
	size_t i;

	for (i = 0; i < a->nruns; i++)
		if (a->runs[i].imbalance.flagged && a->runs[i].imbalance.reason)
			return chart_strf(c, "Imbalance (%s): %s", a->runs[i].name ? a->runs[i].name : "run",
					  a->runs[i].imbalance.reason);
	return NULL;
}

static int chart_memory(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k, gi;
	bool cap = false, seen[CAT_COUNT] = { false };
	struct panel *p;

	chart_init(c, "04-memory", "Peak memory per GPU against capacity");
	c->subtitle = "bars: peak memory used; lines: capacities, of each GPU and of other GPUs";
	p = chart_add_panel(c, "run and GPU", "peak memory (GB)");
	p->y.zero = true;
	p->y.min_hi = capacity_gb(sizeof(capacities) / sizeof(capacities[0]) - 1);
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		for (gi = 0; gi < r->ngpu; gi++) {
			if (r->gpu[gi].peak_memory < 0)
				continue;
			memory_bar(a, order[k], gi, c, p);
			cap |= r->gpu[gi].memory_total >= 0;
			if (!seen[run_cat(a, order[k])])
				chart_add_legend(c, run_cat(a, order[k]), 0, false, run_label(a, order[k], c));
			seen[run_cat(a, order[k])] = true;
		}
	}
	if (p->x.ncats == 0) {
		*why = "no memory chart: no GPU has a known peak memory";
		return 1;
	}
	for (k = 0; k < sizeof(capacities) / sizeof(capacities[0]); k++)
		panel_hline(p, CAT_REFERENCE, MS_DASHED | capacities[k].style, capacity_gb(k),
			    chart_strf(c, "%s %.0f GB", capacities[k].model, capacity_gb(k)));
	if (isfinite(a->memory_reserve_bytes) && a->memory_reserve_bytes > 0)	/* what fits the smallest with the reserve */
		panel_hline(p, CAT_REFERENCE, MS_DASHED | MS_BELOW, capacity_gb(0) - GB(a->memory_reserve_bytes),
			    chart_strf(c, "%s less the %.0f GB reserve", capacities[0].model,
				       GB(a->memory_reserve_bytes)));
	if (cap)
		chart_add_legend(c, CAT_INK, 0, true, "this GPU's capacity");
	chart_add_legend(c, CAT_REFERENCE, MS_DASHED, true, "reference capacity");
	c->note = imbalance_note(a, c);
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

static void bw_series(const struct analysis *a, size_t run, bool nccl_tests, struct chart_layout *c,
		      struct panel *p)
{
	const struct run_result *r = &a->runs[run];
	bool started = false;
	size_t k;

	for (k = 0; k < r->nbw; k++) {
		const struct bw_point *b = &r->bw[k];

		if (b->from_nccl_tests != nccl_tests || b->bytes <= 0 || !isfinite(b->busbw_gbps))
			continue;
		if (!started)
			panel_line(p, run_cat(a, run), nccl_tests ? MS_MARKERS : MS_SQUARES | MS_NOLINE,
				   nccl_tests ? "nccl-tests" : "trace");
		started = true;
		panel_point(p, log2((double)b->bytes), b->busbw_gbps);
	}
	if (started)
		chart_add_legend(c, run_cat(a, run), nccl_tests ? MS_MARKERS : MS_SQUARES | MS_NOLINE, true,
				 chart_strf(c, "%s, %s", r->name ? r->name : "run",
					    nccl_tests ? "nccl-tests" : "trace collectives"));
}

/*
 * The link ceiling's label says how sure it is: "nvlink 900 GB/s
 * (nccl-tests)" measured, "nominal nvlink 900 GB/s" from the GPU table, and
 * "(inferred)" when the link itself was inferred from the GPU model.
 */
static const char *ceiling_label(const struct run_result *r, struct chart_layout *c)
{
	const char *link = r->link ? r->link : "link";
	bool nominal = r->link_busbw_source && !strcmp(r->link_busbw_source, "nominal");
	bool inferred = r->link_source && !strcmp(r->link_source, "gpu-model");

	if (nominal)
		return chart_strf(c, "nominal %s %.0f GB/s%s", link, r->link_busbw_gbps,
				  inferred ? " (inferred)" : "");
	if (r->link_busbw_source)
		return chart_strf(c, "%s %.0f GB/s (%s)", link, r->link_busbw_gbps, r->link_busbw_source);
	return chart_strf(c, "%s ceiling %.0f GB/s", link, r->link_busbw_gbps);
}

static void bw_panel(const struct analysis *a, const size_t *order, size_t n, struct chart_layout *c)
{
	struct panel *p = chart_add_panel(c, "message size", "bus bandwidth (GB/s)");
	size_t k;

	p->title = "Bus bandwidth by message size";
	p->x.scale = AXIS_LOG2_BYTES;
	p->x.tight = true;
	p->y.zero = true;
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		bw_series(a, order[k], true, c, p);
		bw_series(a, order[k], false, c, p);
		if (r->nbw && isfinite(r->link_busbw_gbps))
			panel_hline(p, CAT_REFERENCE, MS_DASHED, r->link_busbw_gbps, ceiling_label(r, c));
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

			if (!isfinite(s->exposed_comm) || !isfinite(s->overlapped_comm) || !run_has_comm(r))
				continue;
			x = (double)axis_add_cat(&p->x, gpu_cat_label(a, order[k], gi, c));
			e = MS(s->exposed_comm);
			o = MS(s->overlapped_comm);
			panel_rect(p, CAT_EXPOSED_COMM, x - 0.3, 0, x + 0.3, e);
			panel_rect(p, CAT_OVERLAPPED_COMM, x - 0.3, e, x + 0.3, e + o);
			panel_label(p, CAT_INK, MS_ABOVE, x, e + o, chart_strf(c, "%.0f%% exposed",
						e + o > 0 ? 100 * e / (e + o) : 0));
		}
	}
	chart_add_legend(c, CAT_EXPOSED_COMM, 0, false, "exposed comm");
	chart_add_legend(c, CAT_OVERLAPPED_COMM, 0, false, "overlapped comm");
}

static int chart_comm(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k;
	bool multi = false, bw = false, comm = false;

	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		multi |= r->gpus > 1 || r->ngpu > 1;
		bw |= r->nbw > 0;
		comm |= r->ngpu > 1 && run_has_comm(r);
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
	c->subtitle = "bus bandwidth as nccl-tests defines it; exposed = nothing else runs on the GPU";
	if (bw)
		bw_panel(a, order, n, c);
	if (comm)
		overlap_panel(a, order, n, c);
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
			s[ns].label = chart_strf(c, "%s GPU %d", r->name ? r->name : "run",
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
	c->subtitle = "mean over steady steps, per GPU; the largest kernels of any GPU";
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
	for (k = 0; k < ns; k++)
		chart_add_legend(c, s[k].cat, s[k].style, false, s[k].label);
	return 0;
}

/* 7. One steady step's timeline per GPU. */

static const struct {
	enum category cat;
	double offset;		/* of the lane's centre from its GPU's row */
} lanes[] = {
	[EVC_COMPUTE] = { CAT_COMPUTE, 0.25 },
	[EVC_COMM] = { CAT_EXPOSED_COMM, 0 },
	[EVC_MEMORY] = { CAT_MEMORY, -0.25 },
};

static void timeline_row(const struct gpu_result *g, double y, struct panel *p)
{
	size_t k;

	for (k = 0; k < g->nlanes; k++) {
		const struct lane_span *l = &g->lanes[k];
		double mid;

		if (l->cls > EVC_MEMORY || !isfinite(l->start_s) || !isfinite(l->end_s))
			continue;
		mid = y + lanes[l->cls].offset;
		panel_rect(p, lanes[l->cls].cat, MS(l->start_s), mid - 0.1, MS(l->end_s), mid + 0.1);
	}
	if (isfinite(g->lanes_window_s)) {
		panel_line(p, CAT_INK, MS_DASHED, "window end");
		panel_point(p, MS(g->lanes_window_s), y - 0.42);
		panel_point(p, MS(g->lanes_window_s), y + 0.42);
	}
}

static int chart_timeline(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k, gi;
	struct panel *p;

	chart_init(c, "07-timeline", "One steady step, GPU by GPU");
	c->subtitle = "the median steady step; lanes per GPU: compute (top), comm (middle), memory (bottom)";
	p = chart_add_panel(c, "time since the step's start (ms)", "");
	p->x.zero = true;
	p->x.tight = true;
	for (k = n; k-- > 0;) {
		const struct run_result *r = &a->runs[order[k]];

		for (gi = r->ngpu; gi-- > 0;) {
			if (!r->gpu[gi].nlanes)
				continue;
			timeline_row(&r->gpu[gi], (double)axis_add_cat(&p->y, gpu_cat_label(a, order[k], gi, c)), p);
		}
	}
	if (!p->y.ncats) {
		*why = "no timeline: no GPU has a steady step's kernels";
		return 1;
	}
	chart_add_legend(c, CAT_COMPUTE, 0, false, "compute");
	chart_add_legend(c, CAT_EXPOSED_COMM, 0, false, "communication");
	chart_add_legend(c, CAT_MEMORY, 0, false, "memory (copy/set)");
	chart_add_legend(c, CAT_INK, MS_DASHED, true, "end of the step window");
	return 0;
}

/* 8. Memory and utilisation over time (nvidia-smi). */

#define GPUS_MAX 8

/* The distinct GPU indexes of a run's samples, up to GPUS_MAX; and the first time. */
static size_t monitor_gpus(const struct run_result *r, int32_t *ids, int64_t *t0)
{
	size_t n = 0, k, j;

	*t0 = INT64_MAX;
	for (k = 0; k < r->nmonitor; k++) {
		const struct gpu_sample *s = &r->monitor[k];

		if (s->ts < 0)
			continue;
		*t0 = s->ts < *t0 ? s->ts : *t0;
		for (j = 0; j < n && ids[j] != s->gpu; j++)
			;
		if (j == n && n < GPUS_MAX)
			ids[n++] = s->gpu;
	}
	return n;
}

/* One line per GPU of the run; what = 0 memory used (GB), 1 utilisation (%). */
static void monitor_lines(const struct analysis *a, size_t run, int what, struct chart_layout *c,
			  struct panel *p)
{
	const struct run_result *r = &a->runs[run];
	int32_t ids[GPUS_MAX];
	int64_t t0;
	size_t n = monitor_gpus(r, ids, &t0), j, k;

	for (j = 0; j < n; j++) {
		unsigned style = j % 2 ? MS_LIGHT | MS_DASHED : 0;
		const char *name = chart_strf(c, "%s GPU %d", r->name ? r->name : "run", ids[j]);

		panel_line(p, run_cat(a, run), style, name);
		for (k = 0; k < r->nmonitor; k++) {
			const struct gpu_sample *s = &r->monitor[k];
			double v = what == 0 ? (s->memory_used >= 0 ? GB(s->memory_used) : NAN)
				: (s->util_gpu >= 0 ? s->util_gpu : NAN);

			if (s->gpu == ids[j] && s->ts >= 0 && isfinite(v))
				panel_point(p, (double)(s->ts - t0) / 1e9, v);
		}
		if (what == 0)
			chart_add_legend(c, run_cat(a, run), style, true, name);
	}
}

static int chart_monitor(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k;
	struct panel *mem, *util;
	int32_t ids[GPUS_MAX];
	int64_t t0;
	bool any = false;

	for (k = 0; k < n; k++)
		any |= monitor_gpus(&a->runs[order[k]], ids, &t0) > 0;
	if (!any) {
		*why = "no memory and utilisation over time: no nvidia-smi samples with times";
		return 1;
	}
	chart_init(c, "08-monitor", "GPU memory and utilisation over time");
	c->subtitle = "nvidia-smi samples; time from each run's first sample";
	mem = chart_add_panel(c, "time (s)", "memory used (GB)");
	mem->title = "Memory used";
	mem->y.zero = true;
	util = chart_add_panel(c, "time (s)", "GPU utilisation (%)");
	util->title = "Utilisation";
	util->y.zero = true;
	util->y.min_hi = 100;
	util->y.max_hi = 100;
	mem->x.zero = util->x.zero = true;
	mem->x.tight = util->x.tight = true;
	for (k = 0; k < n; k++) {
		monitor_lines(a, order[k], 0, c, mem);
		monitor_lines(a, order[k], 1, c, util);
	}
	return 0;
}

/*
 * Logged against replayed kernel time needs replay.json, which the analysis
 * does not carry yet: the chart is always left out, and says why.
 */
static int chart_replay(const struct analysis *a, struct chart_layout *c, const char **why)
{
	(void)a;
	(void)c;
	*why = "no replay: the trial has no replay.json of its kernels re-run on a GPU";
	return 1;
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
	{ "04-memory", "Peak memory of each GPU against its own capacity and against the H200, B200 and "
	  "MI300X. A bar under a reference line means the job would fit on that GPU alone; bars of very "
	  "different heights within a run mean the split is unbalanced.", chart_memory },
	{ "05-communication", "Left: bus bandwidth reached per message size against the link's ceiling; "
	  "small messages never reach it. Right: how much of each GPU's communication runs with nothing "
	  "else on the GPU (exposed) rather than hidden under compute.", chart_comm },
	{ "06-top-kernels", "The kernels that take the most time per step, per GPU. A kernel that is "
	  "slower on the candidate than on the baseline, or a communication kernel near the top, "
	  "points at the cause.", chart_kernels },
	{ "07-timeline", "The median steady step of each GPU, lane by lane. Gaps in the compute lane "
	  "where the communication lane is busy are exposed communication; gaps in every lane are "
	  "idle time.", chart_timeline },
	{ "08-monitor", "nvidia-smi's view of each GPU over the run: memory used and utilisation. "
	  "Look for one GPU working while another waits, and for memory that climbs to capacity.",
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
