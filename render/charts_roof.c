/*
 * Chart 14, the roofline: each run's top ops (runs[].mfu.ops) at their
 * FLOPs per byte and achieved TFLOP/s, on log-log axes, under the GPU's
 * compute ceiling (its dense peak for the run's dtype) and memory ceiling
 * (bandwidth times FLOPs per byte). An op under the slope is held by memory,
 * one under the flat line by compute; the distance down is what it leaves.
 */
#include <math.h>
#include <string.h>

#include "core/gpu.h"
#include "render/charts.h"
#include "render/charts_internal.h"
#include "render/numfmt.h"

#define ROOF_LABELLED 3		/* ops named by a label: the largest by kernel time, any run */
#define ROOF_CEILINGS 4		/* distinct (peak, bandwidth) pairs drawn */
#define ROOF_DEFAULT_WHY "op shapes not recorded (profile with record_shapes=True)"

static bool roof_point(const struct roof_op *o)
{
	return isfinite(o->flops_per_byte) && o->flops_per_byte > 0 && isfinite(o->tflops) && o->tflops > 0;
}

static bool run_has_roof(const struct run_result *r)
{
	size_t i;

	for (i = 0; i < r->mfu.nops; i++)
		if (roof_point(&r->mfu.ops[i]))
			return true;
	return false;
}

/* Where the ceilings meet, in FLOPs per byte: peak (TFLOP/s) over bandwidth (TB/s). */
static double ridge(const struct mfu *m)
{
	return m->peak_tflops / (m->memory_gbps / 1000);
}

static bool ceilings_known(const struct mfu *m)
{
	return isfinite(m->peak_tflops) && m->peak_tflops > 0 && isfinite(m->memory_gbps) && m->memory_gbps > 0;
}

/* The op's name without the "aten::" every ATen op carries. */
static const char *op_name(const char *op)
{
	return op && !strncmp(op, "aten::", 6) ? op + 6 : op ? op : "op";
}

/* The smallest FLOPs per byte the panel shows: the lowest point or ridge, as log10. */
static double lowest_x(const struct analysis *a, const size_t *order, size_t n)
{
	double lo = INFINITY;
	size_t k, i;

	for (k = 0; k < n; k++) {
		const struct mfu *m = &a->runs[order[k]].mfu;

		for (i = 0; i < m->nops; i++)
			if (roof_point(&m->ops[i]))
				lo = fmin(lo, m->ops[i].flops_per_byte);
		if (ceilings_known(m))
			lo = fmin(lo, ridge(m));
	}
	return floor(log10(lo));
}

/* One run's ops as markers in its colour, and its legend entry. */
static void roof_points(const struct analysis *a, size_t run, struct chart_layout *c, struct panel *p)
{
	const struct mfu *m = &a->runs[run].mfu;
	const char *name = run_label(a, run, c);
	size_t i;

	panel_line(p, run_cat(a, run), MS_MARKERS | MS_NOLINE, name);
	for (i = 0; i < m->nops; i++)
		if (roof_point(&m->ops[i]))
			panel_point(p, log10(m->ops[i].flops_per_byte), log10(m->ops[i].tflops));
	chart_add_legend(c, run_cat(a, run), MS_MARKERS | MS_NOLINE, true, name);
}

/* Each distinct pair of ceilings once: the flat compute line and the memory slope up to the ridge. */
/*
 * No op can run above its GPU's compute ceiling: a point there means its
 * kernel time is shorter than its FLOPs allow (a timing or shape error), and
 * the subtitle says so instead of letting the chart show the impossible.
 */
static void above_ceiling(const struct analysis *a, const size_t *order, size_t n, struct chart_layout *c)
{
	const char *first = NULL;
	size_t above = 0;

	for (size_t k = 0; k < n; k++) {
		const struct mfu *m = &a->runs[order[k]].mfu;

		for (size_t i = 0; i < m->nops && isfinite(m->peak_tflops); i++)
			if (roof_point(&m->ops[i]) && m->ops[i].tflops > m->peak_tflops) {
				first = first ? first : m->ops[i].op;
				above++;
			}
	}
	if (above)
		c->subtitle = chart_strf(c, "%s; %zu point%s above the compute ceiling (%s%s): faster than the "
					 "GPU can compute, so %s", c->subtitle, above, above == 1 ? "" : "s", first,
					 above == 1 ? "" : " and others", above == 1 ?
					 "its kernel time or its recorded shapes are wrong" :
					 "their kernel times or their recorded shapes are wrong");
}

static void roof_ceilings(const struct analysis *a, const size_t *order, size_t n, struct chart_layout *c,
			  struct panel *p)
{
	const struct mfu *drawn[ROOF_CEILINGS];
	double x0 = lowest_x(a, order, n);
	size_t k, j, nd = 0;
	char b[NUMFMT_LEN], g[NUMFMT_LEN];

	for (k = 0; k < n && nd < ROOF_CEILINGS; k++) {
		const struct mfu *m = &a->runs[order[k]].mfu;

		if (!run_has_roof(&a->runs[order[k]]) || !ceilings_known(m))
			continue;
		for (j = 0; j < nd && (drawn[j]->peak_tflops != m->peak_tflops ||
				       drawn[j]->memory_gbps != m->memory_gbps); j++)
			;
		if (j < nd)
			continue;
		for (j = 0; j < nd && drawn[j]->memory_gbps != m->memory_gbps; j++)
			;
		drawn[nd++] = m;
		panel_hline(p, CAT_REFERENCE, MS_DASHED, log10(m->peak_tflops),
			    chart_strf(c, "compute ceiling: %s dense peak %s TFLOP/s", dtype_name(m->dtype),
				       qty_num(b, m->peak_tflops)));
		panel_line(p, CAT_REFERENCE, MS_DASHED, "memory ceiling");
		panel_point(p, x0, log10(m->memory_gbps / 1000) + x0);
		panel_point(p, log10(ridge(m)), log10(m->peak_tflops));
		if (j == nd - 1)	/* one label per bandwidth: the slopes coincide */
			panel_label(p, CAT_INK, MS_RIGHT, x0, log10(m->memory_gbps / 1000) + x0,
				    chart_strf(c, "memory ceiling: %s", qty_gbps(g, m->memory_gbps)));
	}
}

/* The ROOF_LABELLED ops of most kernel time over every run, each named once at its point. */
static void roof_labels(const struct analysis *a, const size_t *order, size_t n, struct chart_layout *c,
			struct panel *p)
{
	const struct roof_op *done[ROOF_LABELLED];
	size_t nd = 0, k, i, j;

	while (nd < ROOF_LABELLED) {
		const struct roof_op *best = NULL;

		for (k = 0; k < n; k++) {
			const struct mfu *m = &a->runs[order[k]].mfu;

			for (i = 0; i < m->nops; i++) {
				const struct roof_op *o = &m->ops[i];

				for (j = 0; j < nd && strcmp(op_name(done[j]->op), op_name(o->op)); j++)
					;
				if (j == nd && roof_point(o) && (!best || o->time_s > best->time_s))
					best = o;
			}
		}
		if (!best)
			return;
		done[nd++] = best;
		panel_label(p, CAT_INK, MS_ABOVE, log10(best->flops_per_byte), log10(best->tflops),
			    chart_strf(c, "%s", op_name(best->op)));
	}
}

int chart_roofline(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k;
	const char *reason = NULL;
	bool any = false;
	struct panel *p;

	for (k = 0; k < n; k++) {
		any |= run_has_roof(&a->runs[order[k]]);
		if (!reason)
			reason = a->runs[order[k]].mfu.why;
	}
	if (!any) {
		*why = chart_strf(c, "no roofline chart: %s", reason ? reason : ROOF_DEFAULT_WHY);
		return 1;
	}
	chart_init(c, "14-roofline", "Roofline: achieved TFLOP/s of the top ops");
	chart_set_banner(a, c);
	c->subtitle = "each op's FLOPs (from its recorded shapes) over its kernel time, against its FLOPs per byte";
	p = chart_add_panel(c, "FLOPs per byte (log scale)", "achieved TFLOP/s (log scale)");
	p->x.scale = AXIS_LOG10;
	p->y.scale = AXIS_LOG10;
	p->x.tight = p->y.tight = true;
	for (k = 0; k < n; k++) {
		if (run_has_roof(&a->runs[order[k]]))
			roof_points(a, order[k], c, p);
		else
			c->subtitle = chart_strf(c, "%s; %s: %s", c->subtitle, chart_run_name(&a->runs[order[k]], c),
						 a->runs[order[k]].mfu.why ? a->runs[order[k]].mfu.why : ROOF_DEFAULT_WHY);
	}
	above_ceiling(a, order, n, c);
	roof_ceilings(a, order, n, c, p);
	roof_labels(a, order, n, c, p);
	chart_add_legend(c, CAT_REFERENCE, MS_DASHED, true, "ceilings: compute (flat), memory (slope)");
	return 0;
}
