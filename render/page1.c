#include "render/page1.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "core/xalloc.h"
#include "render/charts.h"
#include "render/draw.h"
#include "render/numfmt.h"
#include "render/text.h"

/* The headline chart's canvas, and the box it is painted into on page 1 (points). */
#define CHART_CANVAS_W 420.0
#define CHART_CANVAS_H 270.0
#define CHART_BOX_W 300.0
#define COLUMN_GAP 18.0
#define TITLE_CHARS 160	/* of the trial's title on the page; more is cut with an ellipsis */
#define CHART_RUNS_MAX 6	/* bars: more would not be read at this size */
#define CELL_PAD 4.0

/* --- the headline chart --- */

static bool compared(const struct analysis *a)
{
	return a->cmp.valid && a->cmp.baseline < a->nruns && a->cmp.candidate < a->nruns;
}

/* The numbers of the chart's labels: one local function, as the summary's. */
static const char *fmt_rate(struct chart_layout *c, double v)
{
	char b[NUMFMT_LEN];

	return chart_strf(c, "%s", qty_num(b, v));
}

static enum category bar_cat(const struct analysis *a, size_t i)
{
	if (!compared(a))
		return i == 0 ? CAT_BASELINE : i == 1 ? CAT_CANDIDATE : CAT_OTHER_RUN;
	return i == a->cmp.baseline ? CAT_BASELINE : i == a->cmp.candidate ? CAT_CANDIDATE : CAT_OTHER_RUN;
}

/* The k-th run in the chart's order: the baseline and the candidate first, then the others. */
static size_t chart_run(const struct analysis *a, size_t k)
{
	size_t seen = 1;

	if (!compared(a) || a->cmp.baseline == a->cmp.candidate)
		return k;
	if (k < 2)
		return k == 0 ? a->cmp.baseline : a->cmp.candidate;
	for (size_t i = 0; i < a->nruns; i++)
		if (i != a->cmp.baseline && i != a->cmp.candidate && ++seen == k)
			return i;
	return k;
}

static void run_bar(const struct analysis *a, size_t i, struct chart_layout *c, struct panel *p)
{
	const struct run_result *r = &a->runs[i];
	char g[NUMFMT_LEN];
	double x = (double)axis_add_cat(&p->x, chart_strf(c, "%s\n%s", chart_run_name(r, c), numfmt_gpus(g, r->gpus)));

	if (!isfinite(r->samples_per_s)) {
		panel_label(p, CAT_INK, MS_ABOVE, x, 0, run_failed(r) ? (r->status == RUN_FAILED_OOM ?
			    "failed:\nout of memory" : "failed") : "n/a");
		return;
	}
	panel_rect(p, bar_cat(a, i), x - 0.3, 0, x + 0.3, r->samples_per_s);
	panel_label(p, CAT_INK, MS_ABOVE, x, r->samples_per_s, fmt_rate(c, r->samples_per_s));
}

/* A sweep's other option: n = c / b independent b-GPU runs, at n times the baseline's rate; true: drawn. */
static bool independent_bar(const struct analysis *a, struct chart_layout *c, struct panel *p)
{
	const struct run_result *b = &a->runs[a->cmp.baseline];
	double n = comparison_gpu_ratio(a), x, v = n * b->samples_per_s;

	if (a->cmp.answer == ANSWER_NONE || !(n > 1) || !isfinite(v))
		return false;
	x = (double)axis_add_cat(&p->x, chart_strf(c, "%g x %s\nindependent", n, chart_run_name(b, c)));
	panel_rect(p, CAT_BASELINE, x - 0.3, 0, x + 0.3, v)->style = MS_LIGHT;
	panel_label(p, CAT_INK, MS_ABOVE, x, v, fmt_rate(c, v));
	return true;
}

int page1_chart(const struct analysis *a, struct chart_layout *c)
{
	struct panel *p;
	size_t i, shown = 0;

	chart_init(c, "00-throughput", "Samples per second");	/* 00: the charts' files list it first */
	c->width = CHART_CANVAS_W;
	c->height = CHART_CANVAS_H;
	c->caption = "Samples per second of each run, the throughput the decision compares (higher is "
		     "better); a run that failed is marked failed.";
	p = chart_add_panel(c, "run", "samples/s");
	p->y.zero = true;
	for (i = 0; i < a->nruns; i++)
		shown += isfinite(a->runs[i].samples_per_s) || run_failed(&a->runs[i]);
	if (!shown) {
		chart_layout_release(c);
		return 1;
	}
	for (i = 0; i < a->nruns && i < CHART_RUNS_MAX; i++)
		run_bar(a, chart_run(a, i), c, p);
	if (compared(a) && independent_bar(a, c, p))
		c->caption = "Samples per second of each run and of the baseline's GPUs run as independent "
			     "jobs together (higher is better); a run that failed is marked failed.";
	for (i = 0; i < a->cmp.nconfounds && compared(a); i++)
		if (a->cmp.confounds[i].severity == CFS_BLOCKING) {
			enum confound_what w = a->cmp.confounds[i].what;

			c->note = w == CF_GPUS ?	/* unknown, not different */
				  "not comparable: a GPU count is unknown (set gpus = N in the run's run.ini)" :
				  confound_whole(w) ?	/* too few steps: not a difference either */
				  chart_strf(c, "not comparable: %s", chart_confound_phrase(w)) :
				  chart_strf(c, "not comparable: the runs differ in %s", summary_confound_text(w));
			break;
		}
	chart_finish(c);
	return 0;
}

/* --- the summary's pages --- */

static const struct pstyle {
	enum font_role font;
	double scale;		/* of the font's size */
	double before;		/* space above, points */
	double indent;		/* an item's text, right of its bullet */
} pstyles[] = {
	[SL_TITLE] = { FONT_PAGE_TITLE, 1, 0, 0 },
	[SL_META] = { FONT_BODY, 1, 2, 0 },
	[SL_VERDICT] = { FONT_HEADING, 1.15, 8, 0 },
	[SL_REASON] = { FONT_CAPTION, 0.85, 4, 0 },
	[SL_HEADING] = { FONT_HEADING, 1, 10, 0 },
	[SL_ITEM] = { FONT_BODY, 0.9, 2.5, 12 },
	[SL_TEXT] = { FONT_BODY, 0.9, 2.5, 12 },
	[SL_ANSWER] = { FONT_HEADING, 1.15, 8, 0 },
	[SL_LEAD] = { FONT_HEADING, 0.85, 8, 0 },
	[SL_TABLE_HEAD] = { FONT_HEADING, 0.64, 12, 0 },
	[SL_TABLE_ROW] = { FONT_BODY, 0.78, 0, 0 },
	[SL_WEAK] = { FONT_HEADING, 0.85, 4, 0 },
	[SL_DECISION] = { FONT_HEADING, 0.8, 4, 0 },
};

static const struct pstyle *style_of(enum sline_kind k)
{
	return (unsigned)k < sizeof(pstyles) / sizeof(pstyles[0]) ? &pstyles[k] : &pstyles[SL_TEXT];
}

static double text_h(const struct pstyle *st, const char *text, double width)
{
	double w, h;

	text_size_prose(st->font, text, width / st->scale, &w, &h);
	return h * st->scale;
}

static double text_w(const struct pstyle *st, const char *text)
{
	double w, h;

	text_size_prose(st->font, text, 0, &w, &h);
	return w * st->scale;
}

static void text_at(cairo_t *cr, const struct pstyle *st, const char *text, double x, double y, double width,
		    struct colour c)
{
	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_scale(cr, st->scale, st->scale);
	text_draw_prose(cr, st->font, text, 0, 0, width / st->scale, c);
	cairo_restore(cr);
}

static struct colour line_colour(const struct summary *s, const struct sline *l)
{
	if (l->kind == SL_WEAK)	/* in the colour of an inconclusive verdict: it qualifies this one */
		return category_style(summary_verdict_category(VERDICT_INCONCLUSIVE))->text;
	return l->kind == SL_VERDICT ? category_style(summary_verdict_category(s->verdict))->text : category_style(CAT_INK)->text;
}

/* A line's height with the space above it, at width. */
static double line_h(const struct sline *l, double width)
{
	const struct pstyle *st = style_of(l->kind);

	return st->before + text_h(st, l->text, width - st->indent);
}

/* Draws a line at y (the space above it included); returns the y under it. */
static double line_draw(cairo_t *cr, const struct summary *s, const struct sline *l, double x, double y,
			double width)
{
	const struct pstyle *st = style_of(l->kind);
	struct colour c = line_colour(s, l);

	y += st->before;
	if (l->kind == SL_ITEM)
		text_at(cr, st, "\xe2\x80\xa2", x + 3, y, 10, c);
	text_at(cr, st, l->text, x + st->indent, y, width - st->indent, c);
	return y + text_h(st, l->text, width - st->indent);
}

/* --- the table of the runs --- */

#define COLS_MAX 12

/* The width all columns take when none is wider than cap. */
static double capped(const double *cw, size_t cols, double cap)
{
	double sum = 0;

	for (size_t c = 0; c < cols; c++)
		sum += fmin(cw[c], cap);
	return sum;
}

/*
 * Column widths: each column's widest cell, unwrapped. When they do not fit
 * width, the widest columns are cut down to one common width, found by
 * bisection, so that narrow columns stay whole and only the longest cells
 * wrap; when they fit, the room left is shared out evenly.
 */
/* Each cell's width unwrapped, nat[i * COLS_MAX + c] for line i: text is laid out once per cell. */
static double *natural_widths(const struct sline *l, size_t n)
{
	double *nat = xcalloc(n ? n * COLS_MAX : 1, sizeof(*nat));

	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < l[i].ncells && c < COLS_MAX; c++)
			nat[i * COLS_MAX + c] = text_w(style_of(l[i].kind), l[i].cells[c]) + 2 * CELL_PAD + 2;
	return nat;
}

/* nat: the lines' natural_widths(), or NULL to measure them here. */
static size_t table_widths(const struct sline *l, size_t n, double width, double *cw, const double *nat)
{
	size_t cols = l[0].ncells < COLS_MAX ? l[0].ncells : COLS_MAX, i, c;
	double total = 0, lo = 0, hi = width;
	double *own = nat ? NULL : natural_widths(l, n);

	nat = nat ? nat : own;
	for (c = 0; c < cols; c++) {
		cw[c] = 0;
		for (i = 0; i < n; i++)
			if (c < l[i].ncells)
				cw[c] = fmax(cw[c], nat[i * COLS_MAX + c]);
		total += cw[c];
	}
	free(own);
	for (c = 0; c < cols && total <= width; c++)
		cw[c] += (width - total) / cols;
	if (total <= width)
		return cols;
	for (int k = 0; k < 40; k++) {
		double mid = (lo + hi) / 2;

		*(capped(cw, cols, mid) > width ? &hi : &lo) = mid;
	}
	for (c = 0; c < cols; c++)
		cw[c] = fmin(cw[c], lo);
	return cols;
}

static double row_h(const struct sline *l, const double *cw, size_t cols)
{
	double h = 0;

	for (size_t c = 0; c < cols && c < l->ncells; c++)
		h = fmax(h, text_h(style_of(l->kind), l->cells[c], cw[c] - 2 * CELL_PAD));
	return h + 2 * CELL_PAD;
}

static void rule(cairo_t *cr, double x0, double x1, double y, enum category cat)
{
	struct colour c = category_style(cat)->c;

	cairo_set_source_rgb(cr, c.r, c.g, c.b);
	cairo_set_line_width(cr, 0.6);
	cairo_move_to(cr, x0, y);
	cairo_line_to(cr, x1, y);
	cairo_stroke(cr);
}

/* A table's column widths. */
struct table_cols {
	double w[COLS_MAX];
	size_t n;
};

/*
 * Draws the table lines l[0..n) (a head and its rows, or rows that go on)
 * from *y, as many as end above bottom, but at least one row, in the
 * columns tc; draw false only measures. Returns how many lines it took.
 */
static size_t table_draw(cairo_t *cr, const struct sline *l, size_t n, double x, double *y,
			 const struct table_cols *tc, double width, double bottom, bool draw)
{
	size_t at_least = l[0].kind == SL_TABLE_HEAD ? 2 : 1, i;
	const double *cw = tc->w;
	size_t cols = tc->n;

	*y += style_of(SL_TABLE_HEAD)->before;
	for (i = 0; i < n; i++) {
		double h = row_h(&l[i], cw, cols), cx = x;

		if (i >= at_least && *y + h > bottom)
			break;
		for (size_t c = 0; draw && c < cols && c < l[i].ncells; c++) {
			text_at(cr, style_of(l[i].kind), l[i].cells[c], cx + CELL_PAD, *y + CELL_PAD,
				cw[c] - 2 * CELL_PAD, category_style(CAT_INK)->c);
			cx += cw[c];
		}
		*y += h;
		if (draw)
			rule(cr, x, x + width, *y, l[i].kind == SL_TABLE_HEAD ? CAT_INK : CAT_GRID);
	}
	return i;
}

static bool is_table(const struct sline *l)
{
	return l->kind == SL_TABLE_HEAD || l->kind == SL_TABLE_ROW;
}

/* The end of the table that starts at line i. */
static size_t table_end(const struct summary *s, size_t i)
{
	for (i++; i < s->n && s->lines[i].kind == SL_TABLE_ROW; i++)
		;
	return i;
}

/* --- page 1 --- */

struct pager {
	cairo_t *cr;
	const struct summary *s;
	const struct page_geom *g;
	double y;
};

static double width_of(const struct pager *p)
{
	return p->g->w - 2 * p->g->margin;
}

static double bottom_of(const struct pager *p)
{
	return p->g->h - p->g->margin;
}

/* The title, cut to TITLE_CHARS with an ellipsis: a title of any length leaves room for the page. */
static double title_draw(struct pager *p, const struct sline *title, double width)
{
	struct sline cut = *title;
	struct buf b;
	double y;

	buf_init(&b, 0);
	utf8_cut(title->text, strlen(title->text), UTF8_CONTROLS | UTF8_ONE_LINE, TITLE_CHARS, &b);
	cut.text = b.data;
	y = line_draw(p->cr, p->s, &cut, p->g->margin, p->y, width);
	buf_release(&b);
	return y;
}

/*
 * The title and the decision across the page, then the answer, the verdict
 * and the why line beside the chart; returns the next line.
 */
static size_t page1_head(struct pager *p, const struct chart_layout *chart)
{
	const struct summary *s = p->s;
	double m = p->g->margin, width = width_of(p), left = chart ? width - CHART_BOX_W - COLUMN_GAP : width;
	double y, chart_bottom = p->y;
	size_t i = 0;

	if (s->n && s->lines[0].kind == SL_TITLE)
		p->y = title_draw(p, &s->lines[i++], width);
	/* what to rent, and a long window's checkpoint and stop lines, across the page above the chart */
	if (i < s->decision_end && s->lines[i].kind == SL_DECISION)
		for (p->y = line_draw(p->cr, s, &s->lines[i++], m, p->y, width);
		     i < s->decision_end && s->lines[i].kind == SL_REASON; i++)
			p->y = line_draw(p->cr, s, &s->lines[i], m, p->y, width);
	y = p->y;
	for (; i < s->decision_end && s->lines[i].kind != SL_TABLE_HEAD && s->lines[i].kind != SL_HEADING; i++)
		y = line_draw(p->cr, s, &s->lines[i], m, y, left);
	if (chart) {	/* after the text, so that the text comes first when read or copied */
		double scale = CHART_BOX_W / chart->width;

		cairo_save(p->cr);
		cairo_translate(p->cr, m + width - CHART_BOX_W, p->y + 4);
		cairo_scale(p->cr, scale, scale);
		chart_draw(p->cr, chart);
		cairo_restore(p->cr);
		chart_bottom = p->y + 4 + chart->height * scale;
	}
	p->y = fmax(y, chart_bottom);
	return i;
}

static size_t items_after(const struct summary *s, size_t from, size_t to)
{
	size_t n = 0;

	for (size_t i = from; i < to; i++)
		n += s->lines[i].kind == SL_ITEM || s->lines[i].kind == SL_TABLE_ROW;
	return n;
}

/* The Recommendations heading at or after i, before end; end when none. */
static size_t recommendations_at(const struct summary *s, size_t i, size_t end)
{
	for (; i < end; i++)
		if (s->lines[i].kind == SL_HEADING && !strcmp(s->lines[i].text, "Recommendations"))
			return i;
	return end;
}

/* "... N more on page 2 and in summary.md", for the items of [from, to) left off page 1 */
static void more_line(struct pager *p, size_t from, size_t to)
{
	char more[160];
	const struct sline *l = &p->s->lines[from];

	if (l->kind == SL_HEADING)	/* a whole section left off: its name says what follows */
		snprintf(more, sizeof(more), "%s: %zu on page 2 and in summary.md", l->text,
			 items_after(p->s, from, to));
	else
		snprintf(more, sizeof(more), "\xe2\x80\xa6 %zu more on page 2 and in summary.md",
			 items_after(p->s, from, to));
	p->y = line_draw(p->cr, p->s, &(struct sline){ SL_TEXT, more, NULL, 0 }, p->g->margin, p->y,
			 width_of(p));
}

/* What page 1 left for page 2: [skip_from, skip_to), a section cut to keep the recommendations, then [cut, end). */
struct page1_cut {
	size_t skip_from, skip_to;
	size_t cut;
};

/*
 * Lines from i to the decision's end, as many as fit above the page's
 * bottom: a heading only with its first item, and room kept for the line
 * that says how many more follow. Room is kept too for the recommendations'
 * heading and first item: a list before them (confounds) is cut short, or
 * left to page 2 whole, so that page 1 always says what to do.
 */
static struct page1_cut page1_rest(struct pager *p, size_t i)
{
	const struct summary *s = p->s;
	const struct sline more = { SL_TEXT, "\xe2\x80\xa6 00 more on page 2 and in summary.md", NULL, 0 };
	double m = p->g->margin, width = width_of(p), reserve = line_h(&more, width);
	size_t end = s->decision_end, rec = recommendations_at(s, i, end);
	double keep = rec + 1 < end ? line_h(&s->lines[rec], width) + line_h(&s->lines[rec + 1], width) + reserve
		: 0;
	struct page1_cut c = { 0, 0, end };

	for (; i < end; i++) {
		const struct sline *l = &s->lines[i];
		double need = line_h(l, width), room = bottom_of(p) - (i < rec ? keep : 0);

		if (is_table(l)) {
			size_t k = table_end(s, i);
			struct table_cols tc;

			tc.n = table_widths(l, k - i, width, tc.w, NULL);
			i += table_draw(p->cr, l, k - i, m, &p->y, &tc, width, room - reserve, true);
			if (i < k)
				break;
			i--;
			continue;
		}
		if (l->kind == SL_HEADING && i + 1 < end)
			need += line_h(&s->lines[i + 1], width);
		if (p->y + need + (i + 1 < end ? reserve : 0) <= room) {
			p->y = line_draw(p->cr, s, l, m, p->y, width);
			continue;
		}
		if (i >= rec)
			break;
		more_line(p, i, rec);	/* this list goes on on page 2; the recommendations follow here */
		c.skip_from = i;
		c.skip_to = rec;
		i = rec - 1;
		keep = 0;
		rec = end;
	}
	if (i < end)
		more_line(p, i, end);
	c.cut = i;
	return c;
}

/* The last heading before line i, for the continued section; NULL when none. */
static const char *heading_before(const struct summary *s, size_t i)
{
	while (i-- > 0)
		if (s->lines[i].kind == SL_HEADING)
			return s->lines[i].text;
	return NULL;
}

static void new_page(struct pager *p)
{
	cairo_show_page(p->cr);
	p->y = p->g->margin;
}

/*
 * Flows the table lines from i over pages, its head again on top of each
 * page it goes on to; returns the line after the table.
 */
static size_t table_flow(struct pager *p, size_t i)
{
	const struct sline *lines = p->s->lines;
	size_t k = table_end(p->s, i), head = i;
	struct sline *chunk = xmalloc((k - i + 1) * sizeof(*chunk));
	double y = p->y, *nat, *chunk_nat = xmalloc((k - i + 1) * COLS_MAX * sizeof(*chunk_nat));
	struct table_cols tc;

	while (head > 0 && lines[head].kind != SL_TABLE_HEAD)
		head--;
	/* each cell laid out once: laid out again on every page, the table was quadratic in its rows */
	nat = natural_widths(&lines[head], k - head);
	tc.n = table_widths(&lines[i], k - i < 2 ? k - i : 2, width_of(p), tc.w, nat + (i - head) * COLS_MAX);
	table_draw(p->cr, &lines[i], k - i < 2 ? k - i : 2, p->g->margin, &y, &tc, width_of(p), INFINITY, false);
	if (y > bottom_of(p) && p->y > p->g->margin)	/* not even the head and a row: the next page */
		new_page(p);
	while (i < k) {
		size_t n = 0, took;

		if (lines[i].kind != SL_TABLE_HEAD && lines[head].kind == SL_TABLE_HEAD) {
			memcpy(chunk_nat, nat, COLS_MAX * sizeof(*nat));
			chunk[n++] = lines[head];
		}
		memcpy(chunk + n, lines + i, (k - i) * sizeof(*chunk));
		memcpy(chunk_nat + n * COLS_MAX, nat + (i - head) * COLS_MAX, (k - i) * COLS_MAX * sizeof(*nat));
		/* the columns of what is left to draw, as wide as its widest cells */
		tc.n = table_widths(chunk, n + k - i, width_of(p), tc.w, chunk_nat);
		took = table_draw(p->cr, chunk, n + k - i, p->g->margin, &p->y, &tc, width_of(p), bottom_of(p), true);
		i += took - n;
		if (i < k)
			new_page(p);
	}
	free(chunk);
	free(chunk_nat);
	free(nat);
	return k;
}

/* Flows lines [from, to) over pages: a heading moves to the next page with its first line. */
static void flow(struct pager *p, size_t from, size_t to)
{
	double m = p->g->margin, width = width_of(p);

	for (size_t i = from; i < to; i++) {
		const struct sline *l = &p->s->lines[i];
		double need = line_h(l, width);

		if (is_table(l)) {
			i = table_flow(p, i) - 1;
			continue;
		}
		if (l->kind == SL_HEADING && i + 1 < to)
			need += line_h(&p->s->lines[i + 1], width);
		if (p->y + need > bottom_of(p) && p->y > m)
			new_page(p);
		p->y = line_draw(p->cr, p->s, l, m, p->y, width);
	}
}

/* Lines [from, to) that page 1 left, under "HEADING (continued)" when they start inside a section. */
static void continued(struct pager *p, size_t from, size_t to)
{
	const struct summary *s = p->s;
	const char *h;
	char cont[256];

	if (from >= to)
		return;
	h = heading_before(s, from);
	if (h && s->lines[from].kind != SL_HEADING) {
		snprintf(cont, sizeof(cont), "%s (continued)", h);
		p->y = line_draw(p->cr, s, &(struct sline){ SL_HEADING, cont, NULL, 0 }, p->g->margin,
				 p->y - pstyles[SL_HEADING].before, width_of(p));
	}
	flow(p, from, to);
}

size_t summary_pages_draw(cairo_t *cr, const struct summary *s, const struct chart_layout *chart,
			  const struct page_geom *g)
{
	struct pager p = { cr, s, g, g->margin };
	struct page1_cut c = page1_rest(&p, page1_head(&p, chart));
	size_t left = s->decision_end - c.cut + c.skip_to - c.skip_from;

	if (left || s->decision_end < s->n)
		new_page(&p);
	continued(&p, c.skip_from, c.skip_to);
	continued(&p, c.cut, s->decision_end);
	flow(&p, s->decision_end, s->n);
	cairo_show_page(cr);
	return left;
}
