/*
 * The memory charts: each GPU's peak against its capacity and reference
 * GPUs' (04), and memory and utilisation over time as nvidia-smi saw them
 * (08), which share the capacity labels.
 */
#include "render/charts_internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/capacity.h"
#include "core/gpu.h"
#include "render/charts.h"
#include "render/numfmt.h"
#include "render/text.h"

/* GPUs whose capacity the memory chart draws (numbers from core/gpu), smallest first. */
static const char *const capacities[] = { "H200", "B200", "MI300X" };

/*
 * A capacity line's label, short to stay legible beside the bars but with
 * the figures of gpu_capacity_text: "H200 150.8 GB / 140.4 GiB (141 GB
 * nominal)", "A100 80GB 80 GB nominal", "GPU 23.7 GB / 22.1 GiB".
 */
static const char *cap_label(struct chart_layout *c, const struct gpu_model *m, int64_t reported)
{
	const char *name = m ? m->name : "GPU";

	if (m && reported < 0)
		reported = m->memory_reported;
	if (reported < 0)
		return m ? chart_strf(c, "%s %.0f GB nominal", name, m->memory_nominal / 1e9) : name;
	if (!m)
		return chart_strf(c, "%s %.1f GB / %.1f GiB", name, reported / 1e9, reported / 1073741824.0);
	return chart_strf(c, "%s %.1f GB / %.1f GiB (%.0f GB nominal)", name, reported / 1e9,
			  reported / 1073741824.0, m->memory_nominal / 1e9);
}

/* A size in GB through numfmt: "151.3 GB", "8.66 GB". */
static const char *fmt_gb(struct chart_layout *c, double gb)
{
	char b[NUMFMT_LEN];

	return chart_strf(c, "%s", qty_gb(b, gb * 1e9));
}

/* 4. Peak memory per GPU against capacity. */

#define CAPS_MAX 12
#define LEADER 10.0		/* canvas units from the bars' edge to a capacity label */
#define LABEL_GAP 2.0		/* canvas units between stacked labels */

/* A capacity line, drawn across the bars, and its label in the gutter right of them. */
struct capline {
	double gb;
	const char *text;
	bool own;		/* a GPU of the trial reported it; else the GPU table's */
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

/* "H100 SXM 85.0 GB / 79.2 GiB (80 GB nominal)": the total the driver reported for this GPU. */
static const char *own_capacity(const struct gpu_result *g, struct chart_layout *c)
{
	const struct gpu_model *m;
	int64_t reported = capacity_gpu_reported(g, &m);

	return cap_label(c, m, reported);
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

/* "\n87.7 GB needed, over its 85.0 GB": the peak and the request against the GPU's total; "" without a total. */
static const char *failed_over(const struct gpu_result *g, const struct run_result *r, struct chart_layout *c)
{
	double need = bar_gb(g) + GB(r->failed_allocation);

	if (g->memory_total <= 0)
		return "";
	return chart_strf(c, "\n%s needed, over its %s", fmt_gb(c, need), fmt_gb(c, GB(g->memory_total)));
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
	/* two lines: the capacity labels' gutter leaves the bars too narrow for one */
	panel_label(p, CAT_INK, MS_ABOVE, x, peak + GB(r->failed_allocation),
		    chart_strf(c, "failed: out of memory, +%s requested%s", qty_gb(b, (double)r->failed_allocation),
			       failed_over(g, r, c)));
	return p->nmarks - 1;
}

/*
 * The failed run's request, drawn after the capacity lines so that no line
 * crosses it: hatched, a little wider than the bar (a few GB next to a
 * 192 GB scale is a thin cap, and must show), with an ink rule at its top,
 * wider still, where the job's need ends above the capacity line.
 */
static void failed_request(const struct analysis *a, size_t run, double x, struct panel *p)
{
	const struct run_result *r = &a->runs[run];
	double peak = bar_gb(&r->gpu[r->slowest]), top = peak + GB(r->failed_allocation);

	panel_rect(p, run_cat(a, run), x - 0.36, peak, x + 0.36, top)->style = MS_HATCHED;
	panel_line(p, CAT_INK, 0, "needed");
	panel_point(p, x - 0.42, top);
	panel_point(p, x + 0.42, top);
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

/*
 * The GPU table's lines, H200, B200, MI300X, and the H200 less the trial's
 * reserve, each at its capacity by the one rule (a GPU of that model in the
 * trial gives its own reported figure).
 */
static size_t reference_caps(const struct analysis *a, struct capline *caps, size_t n, struct chart_layout *c)
{
	const struct gpu_model *m;
	double gb;
	size_t k;

	for (k = 0; k < sizeof(capacities) / sizeof(capacities[0]); k++) {
		m = gpu_lookup(capacities[k], -1);
		gb = m ? GB(capacity_model_bytes(a, m)) : NAN;
		n = cap_add(caps, n, gb, cap_label(c, m, capacity_model_reported(a, m)), false);
	}
	m = gpu_lookup(capacities[0], -1);
	if (m && isfinite(a->memory_reserve_bytes) && a->memory_reserve_bytes > 0) {
		gb = GB(capacity_model_bytes(a, m));
		n = cap_add(caps, n, gb - GB(a->memory_reserve_bytes),
			    chart_strf(c, "%s %.1f GB less the %s reserve", m->name, gb,
				       fmt_gb(c, GB(a->memory_reserve_bytes))), false);
	}
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

int chart_memory(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k, gi, ncaps = 0, failed = (size_t)-1, f, frun = 0;
	bool seen[CAT_COUNT] = { false }, own = false;
	enum category fcat = CAT_INK;
	struct capline caps[CAPS_MAX];
	struct panel *p;

	chart_init(c, "04-memory", "Peak memory per GPU against capacity");
	chart_set_banner(a, c);
	c->subtitle = "bars: peak memory used; lines: capacity in GB (1e9 bytes) and GiB, solid as the "
		      "trial's GPU reported it, dashed as the GPU table gives it";
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
				frun = order[k];
				fcat = run_cat(a, order[k]);
			}
			if (r->gpu[gi].memory_total >= 0)	/* a nominal figure from the table: dashed */
				ncaps = cap_add(caps, ncaps, GB(r->gpu[gi].memory_total), own_capacity(&r->gpu[gi], c),
						capacity_gpu_reported(&r->gpu[gi], NULL) >= 0);
			if (!seen[run_cat(a, order[k])])
				chart_add_legend(c, run_cat(a, order[k]), 0, false, run_label(a, order[k], c));
			seen[run_cat(a, order[k])] = true;
		}
	}
	if (p->x.ncats == 0) {
		*why = "no memory chart: no GPU has a known peak memory";
		return 1;
	}
	for (k = 0; k < ncaps; k++)
		own |= caps[k].own;
	ncaps = reference_caps(a, caps, ncaps, c);
	memory_parts_legend(a, c);
	if (failed != (size_t)-1)
		chart_add_legend(c, fcat, MS_HATCHED, false, "asked for when it ran out of memory");
	if (own)
		chart_add_legend(c, CAT_INK, 0, true, "reported total");
	chart_add_legend(c, CAT_REFERENCE, MS_DASHED, true, "GPU table");
	caps_draw(p, caps, ncaps, p->x.ncats);
	if (failed != (size_t)-1)
		failed_request(a, frun, p->marks[failed].x0, p);
	c->note = imbalance_note(a, c);
	memory_place(c, p, caps, ncaps, p->x.ncats, failed);
	c->caption = chart_strf(c, "Peak memory of each GPU, in GB of 1e9 bytes, against the total its "
				"driver reported (solid) and the capacity of an H200, B200 and MI300X as their "
				"drivers report it (dashed); each label gives the nominal GB too. A bar under a "
				"line means the job fits that GPU; bars of very different heights within a run "
				"mean the split is unbalanced.%s",
				failed != (size_t)-1 ? " The hatched block is the allocation the out-of-memory "
				"run asked for and did not get, on top of its peak; the rule at its top is what the job "
				"needed." : "");
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

			if (s->start_ns < 0 || s->start_ns > INT64_MAX / 2 || !isfinite(s->window_s) || s->window_s < 0 ||
			    s->window_s > 1e6)	/* damaged: a step of 11 days is no step */
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

int chart_monitor(const struct analysis *a, struct chart_layout *c, const char **why)
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
	chart_set_banner(a, c);
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
	c->subtitle = cropped ? "nvidia-smi samples, each run's timed from its first profiled step (0 s); "
				"shaded: the runs' profiled steps, overlaid from 0 s (the longest shows); solid line: "
				"each GPU's reported total"
		: "nvidia-smi samples; 0 s: a run's first profiled step (shaded: its profiled steps), or its "
		  "job's start without steps; solid line: each GPU's reported total";
	if (!cropped)
		mem->x.label = util->x.label = "time (s)";
	c->caption = "nvidia-smi's view of each GPU around the profiled steps (shaded): memory used against "
		     "the GPU's reported total, and utilisation. Look for one GPU working while another waits, "
		     "and for memory that climbs to the total.";
	return 0;
}
