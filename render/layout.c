#include "render/layout.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "render/text.h"

#define PAD 14.0		/* canvas edge to content */
#define GAP 5.0			/* text to what it labels */
#define PANEL_GAP 22.0
#define SWATCH_W 14.0
#define SWATCH_LINE_W 24.0
#define LEGEND_SEP 16.0
#define HEADROOM 0.04		/* bars and labels keep off the plot's top edge */
#define TIGHT_PAD 0.02		/* a tight axis' margin beyond its data, each side */

void chart_init(struct chart_layout *c, const char *id, const char *title)
{
	memset(c, 0, sizeof(*c));
	c->id = id;
	c->title = title;
	c->width = CANVAS_W;
	c->height = CANVAS_H;
}

void chart_layout_release(struct chart_layout *c)
{
	int i;

	for (i = 0; i < c->npanels; i++) {
		struct panel *p = &c->panel[i];

		free(p->marks);
		free(p->pts);
		free(p->x.cats);
		free(p->y.cats);
	}
	arena_release(&c->arena);
	memset(c, 0, sizeof(*c));
}

const char *chart_strf(struct chart_layout *c, const char *fmt, ...)
{
	char tmp[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	return arena_strdup(&c->arena, tmp);
}

static void axis_init(struct axis *a, const char *label)
{
	a->label = label;
	a->min_hi = NAN;
	a->max_hi = NAN;
}

struct panel *chart_add_panel(struct chart_layout *c, const char *xlabel, const char *ylabel)
{
	struct panel *p;

	assert(c->npanels < PANELS_MAX);
	p = &c->panel[c->npanels++];
	axis_init(&p->x, xlabel);
	axis_init(&p->y, ylabel);
	return p;
}

void chart_add_legend(struct chart_layout *c, enum category cat, unsigned style, bool line,
		      const char *label)
{
	struct legend_entry *e;

	if (c->nlegend >= LEGEND_MAX)
		return;
	e = &c->legend[c->nlegend++];
	e->cat = cat;
	e->style = style;
	e->line = line;
	e->label = label;
}

size_t axis_add_cat(struct axis *a, const char *label)
{
	a->scale = AXIS_CATEGORY;
	xgrow(&a->cats, &a->cap_cats, a->ncats + 1, sizeof(*a->cats));
	a->cats[a->ncats] = label;
	return a->ncats++;
}

static struct mark *add_mark(struct panel *p, enum mark_kind kind, enum category cat, unsigned style)
{
	struct mark *m;

	xgrow(&p->marks, &p->cap_marks, p->nmarks + 1, sizeof(*p->marks));
	m = &p->marks[p->nmarks++];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->cat = cat;
	m->style = style;
	return m;
}

struct mark *panel_rect(struct panel *p, enum category cat, double x0, double y0, double x1, double y1)
{
	struct mark *m = add_mark(p, MARK_RECT, cat, 0);

	m->x0 = fmin(x0, x1);
	m->x1 = fmax(x0, x1);
	m->y0 = fmin(y0, y1);
	m->y1 = fmax(y0, y1);
	return m;
}

struct mark *panel_hline(struct panel *p, enum category cat, unsigned style, double y, const char *text)
{
	struct mark *m = add_mark(p, MARK_HLINE, cat, style);

	m->y0 = m->y1 = y;
	m->text = text;
	return m;
}

struct mark *panel_vspan(struct panel *p, enum category cat, double x0, double x1, const char *text)
{
	struct mark *m = add_mark(p, MARK_VSPAN, cat, 0);

	m->x0 = x0;
	m->x1 = x1;
	m->text = text;
	return m;
}

struct mark *panel_label(struct panel *p, enum category cat, unsigned style, double x, double y,
			 const char *text)
{
	struct mark *m = add_mark(p, MARK_LABEL, cat, style);

	m->x0 = m->x1 = x;
	m->y0 = m->y1 = y;
	m->text = text;
	return m;
}

struct mark *panel_line(struct panel *p, enum category cat, unsigned style, const char *name)
{
	struct mark *m = add_mark(p, MARK_LINE, cat, style);

	m->first = p->npts;
	m->text = name;
	return m;
}

void panel_point(struct panel *p, double x, double y)
{
	struct mark *m = &p->marks[p->nmarks - 1];

	assert(p->nmarks > 0 && m->kind == MARK_LINE);
	xgrow(&p->pts, &p->cap_pts, p->npts + 1, sizeof(*p->pts));
	p->pts[p->npts++] = (struct point){ x, y };
	m->npts++;
}

/* The extent of the data on one axis, widened by v. */
struct extent {
	double lo, hi;
};

static void extent_add(struct extent *e, double v)
{
	if (!isfinite(v))
		return;
	e->lo = fmin(e->lo, v);
	e->hi = fmax(e->hi, v);
}

static void panel_extents(const struct panel *p, struct extent *ex, struct extent *ey)
{
	size_t i, k;

	for (i = 0; i < p->nmarks; i++) {
		const struct mark *m = &p->marks[i];

		switch (m->kind) {
		case MARK_RECT:
		case MARK_LABEL:
			extent_add(ex, m->x0);
			extent_add(ex, m->x1);
			extent_add(ey, m->y0);
			extent_add(ey, m->y1);
			break;
		case MARK_HLINE:
			extent_add(ey, m->y0);
			break;
		case MARK_VSPAN:
			extent_add(ex, m->x0);
			extent_add(ex, m->x1);
			break;
		case MARK_LINE:
			for (k = m->first; k < m->first + m->npts; k++) {
				extent_add(ex, p->pts[k].x);
				extent_add(ey, p->pts[k].y);
			}
			break;
		}
	}
}

static void axis_range(struct axis *a, struct extent e, int target, double headroom)
{
	if (a->scale == AXIS_CATEGORY) {
		a->lo = -0.5;
		a->hi = (a->ncats ? (double)a->ncats : 1) - 0.5;
		return;
	}
	if (e.lo > e.hi)
		e.lo = e.hi = 0;
	if (a->zero) {
		e.lo = fmin(e.lo, 0);
		e.hi = fmax(e.hi, 0);
	}
	if (!a->tight && e.hi > 0 && e.lo >= 0)
		e.hi += (e.hi - e.lo) * headroom;
	if (isfinite(a->min_hi))
		e.hi = fmax(e.hi, a->min_hi);
	if (isfinite(a->max_hi))
		e.hi = fmin(e.hi, a->max_hi);
	if (a->scale == AXIS_LOG10 && isfinite(e.lo) && isfinite(e.hi)) {
		/* whole decades, at least one apart */
		e.lo = floor(e.lo);
		e.hi = fmax(ceil(e.hi), e.lo + 1);
	}
	if (a->scale == AXIS_LOG2_BYTES && isfinite(e.lo) && isfinite(e.hi)) {
		/* whole powers of two, at least two apart: one size still gets labelled neighbours */
		e.lo = floor(e.lo);
		e.hi = ceil(e.hi);
		if (e.hi - e.lo < 2) {
			e.lo -= 1;
			e.hi = e.lo + 2 + (e.hi - e.lo > 1);
		}
	}
	ticks_nice(e.lo, e.hi, target, a->scale == AXIS_LOG2_BYTES || a->scale == AXIS_LOG10 ? fmax(1, a->min_step)
		   : a->min_step, &a->ticks);
	if (a->tight && e.hi > e.lo && a->scale != AXIS_LOG2_BYTES && a->scale != AXIS_LOG10) {
		double pad = (e.hi - e.lo) * TIGHT_PAD;

		ticks_clip(&a->ticks, a->zero && e.lo == 0 ? 0 : e.lo - pad, e.hi + pad);
	}
	if (a->scale == AXIS_LOG2_BYTES)
		ticks_label_log2_bytes(&a->ticks);
	if (a->scale == AXIS_LOG10)
		ticks_label_log10(&a->ticks);
	a->lo = a->ticks.lo;
	a->hi = a->ticks.hi;
}

/* Width and height of the widest and tallest tick (or category) label of a. */
static void axis_label_size(const struct axis *a, double *w, double *h)
{
	double tw, th;
	int i;

	*w = *h = 0;
	if (a->scale == AXIS_CATEGORY) {
		for (i = 0; i < (int)a->ncats; i++) {
			text_size(FONT_TICK, a->cats[i], 0, &tw, &th);
			*w = fmax(*w, tw);
			*h = fmax(*h, th);
		}
		return;
	}
	for (i = 0; i < a->ticks.n; i++) {
		text_size(FONT_TICK, a->ticks.label[i], 0, &tw, &th);
		*w = fmax(*w, tw);
		*h = fmax(*h, th);
	}
}

static double place_header(struct chart_layout *c)
{
	double y = PAD, w, h;

	c->title_at = (struct point){ PAD, y };
	text_size(FONT_TITLE, c->title, c->width - 2 * PAD, &w, &h);
	c->title_box = (struct rect){ PAD, y, w, h };
	y += h + 2;
	c->subtitle_box = c->note_box = (struct rect){ 0, 0, 0, 0 };
	if (c->banner) {
		text_size(FONT_SUBTITLE, c->banner, c->width - 2 * PAD - 2 * BANNER_PAD, &w, &h);
		c->banner_box = (struct rect){ PAD, y + 1, c->width - 2 * PAD, h + 2 * BANNER_PAD };
		y += c->banner_box.h + 4;
	}
	if (c->subtitle) {
		c->subtitle_at = (struct point){ PAD, y };
		text_size(FONT_SUBTITLE, c->subtitle, c->width - 2 * PAD, &w, &h);
		c->subtitle_box = (struct rect){ PAD, y, w, h };
		y += h + 2;
	}
	if (c->note) {
		c->note_at = (struct point){ PAD, y };
		text_size(FONT_NOTE, c->note, c->width - 2 * PAD, &w, &h);
		c->note_box = (struct rect){ PAD, y, w, h };
		y += h + 2;
	}
	return y + 4;
}

static double place_legend(struct chart_layout *c, double y)
{
	double x = PAD, w, h = 0, row = 0;
	int i;

	for (i = 0; i < c->nlegend; i++) {
		struct legend_entry *e = &c->legend[i];
		double sw = e->line ? SWATCH_LINE_W : SWATCH_W;

		text_size(FONT_LEGEND, e->label, 0, &w, &h);
		if (x > PAD && x + sw + GAP + w > c->width - PAD) {
			x = PAD;
			y += row + 4;
		}
		row = h;
		e->swatch = (struct rect){ x, y + h / 2 - 5, sw, 10 };
		e->text = (struct point){ x + sw + GAP, y };
		e->box = (struct rect){ x, fmin(y, e->swatch.y), sw + GAP + w, fmax(h, e->swatch.h) };
		x += sw + GAP + w + LEGEND_SEP;
	}
	return c->nlegend ? y + row + 8 : y;
}

static void place_panel(struct panel *p, struct rect area, struct extent ex, struct extent ey)
{
	double yw, yh, xw, xh, lw, lh, tw, th, right;
	int target_x = area.w < CANVAS_W * 0.6 ? 4 : 7;

	p->area = area;
	p->title_box = (struct rect){ 0, 0, 0, 0 };
	if (p->title) {
		text_size(FONT_SUBTITLE, p->title, area.w, &tw, &th);
		area.y += th + 4;
		area.h -= th + 4;
	}
	axis_range(&p->y, ey, 5, HEADROOM);
	axis_range(&p->x, ex, target_x, p->y.scale == AXIS_CATEGORY ? HEADROOM : 0);
	axis_label_size(&p->y, &yw, &yh);
	axis_label_size(&p->x, &xw, &xh);
	if (p->y.scale == AXIS_CATEGORY)
		yw = fmin(yw, area.w * 0.45);
	text_size(FONT_AXIS, p->y.label, 0, &lw, &lh);
	p->plot.x = area.x + lh + GAP + 2 + yw + GAP;
	right = p->x.scale == AXIS_CATEGORY ? 4 : fmax(xw / 2, 6);
	p->plot.w = area.x + area.w - right - p->plot.x;
	text_size(FONT_AXIS, p->x.label, 0, &lw, &lh);
	p->plot.y = area.y + yh / 2;
	p->plot.h = area.y + area.h - (xh + GAP + lh + 2) - p->plot.y;
	if (p->title)	/* draw.c: its foot 8 units over the plot */
		p->title_box = (struct rect){ p->plot.x, p->plot.y - 8 - th, tw, th };
}

static void place_frame(struct chart_layout *c)
{
	double top = place_legend(c, place_header(c));
	double w = (c->width - 2 * PAD - PANEL_GAP * (c->npanels - 1)) / c->npanels;
	int i;

	for (i = 0; i < c->npanels; i++) {
		struct panel *p = &c->panel[i];
		struct rect area = { PAD + i * (w + PANEL_GAP), top, w, c->height - PAD - top };
		struct extent ex = { INFINITY, -INFINITY }, ey = { INFINITY, -INFINITY };

		panel_extents(p, &ex, &ey);
		place_panel(p, area, ex, ey);
	}
}

/* The label placer: every text box of the chart, placed one at a time. */

#define LABEL_PAD 1.0		/* clearance between two texts */
#define INK_INSET 2.0		/* a text box's empty edge above the capitals and below the descenders */
#define ABOVE_PLOT 20.0		/* how far over the plot a text may rise */
#define STACK_MAX 8		/* stacked spots tried each way */
#define CANDS_MAX (8 + 4 * STACK_MAX)
#define PASSES_MAX 3		/* layouts tried as texts move to the legend */

struct placed {
	struct rect *box;
	size_t n, cap;
};

struct cand {
	struct rect r;
	bool leader;
};

static bool overlaps(struct rect a, struct rect b, double pad)
{
	return a.x < b.x + b.w + pad && b.x < a.x + a.w + pad && a.y < b.y + b.h + pad && b.y < a.y + a.h + pad;
}

static bool inside(struct rect r, struct rect in)
{
	return r.x >= in.x && r.y >= in.y && r.x + r.w <= in.x + in.w && r.y + r.h <= in.y + in.h;
}

/* Whether the segment a-b crosses r (Liang-Barsky clipping). */
static bool segment_hits(struct rect r, struct point a, struct point b)
{
	double t0 = 0, t1 = 1, dx = b.x - a.x, dy = b.y - a.y;
	double pv[4] = { -dx, dx, -dy, dy };
	double qv[4] = { a.x - r.x, r.x + r.w - a.x, a.y - r.y, r.y + r.h - a.y };
	int i;

	for (i = 0; i < 4; i++) {
		double t = qv[i] / pv[i];

		if (pv[i] == 0) {
			if (qv[i] < 0)
				return false;
		} else if (pv[i] < 0) {
			t0 = fmax(t0, t);
		} else {
			t1 = fmin(t1, t);
		}
	}
	return t0 <= t1;
}

static int line_hits(const struct panel *p, const struct mark *m, struct rect r)
{
	int hits = 0;
	size_t k;

	for (k = m->first; k < m->first + m->npts; k++) {
		struct point a = { panel_px(p, p->pts[k].x), panel_py(p, p->pts[k].y) }, b;

		if (!isfinite(a.x) || !isfinite(a.y))
			continue;
		if ((m->style & (MS_MARKERS | MS_SQUARES)) && overlaps(r, (struct rect){ a.x - 3, a.y - 3, 6, 6 }, 0))
			hits++;
		if ((m->style & MS_NOLINE) || k + 1 == m->first + m->npts)
			continue;
		b = (struct point){ panel_px(p, p->pts[k + 1].x), panel_py(p, p->pts[k + 1].y) };
		if (isfinite(b.x) && isfinite(b.y) && segment_hits(r, a, b))
			hits++;
	}
	return hits;
}

/* How many lines, markers and bars of p the inked part of box r lies on. */
static int mark_hits(const struct panel *p, struct rect r)
{
	int hits = 0;
	size_t i;

	r = (struct rect){ r.x + INK_INSET / 2, r.y + INK_INSET, r.w - INK_INSET, r.h - 2 * INK_INSET };
	for (i = 0; i < p->nmarks; i++) {
		const struct mark *m = &p->marks[i];
		double y = panel_py(p, m->y0);

		if (m->kind == MARK_LINE)
			hits += line_hits(p, m, r);
		else if (m->kind == MARK_HLINE)
			hits += r.y < y && y < r.y + r.h && r.x < p->plot.x + p->plot.w && p->plot.x < r.x + r.w;
		else if (m->kind == MARK_RECT && !(m->style & MS_BAND))
			hits += overlaps(r, (struct rect){ panel_px(p, m->x0), panel_py(p, m->y1),
							   panel_px(p, m->x1) - panel_px(p, m->x0),
							   panel_py(p, m->y0) - panel_py(p, m->y1) }, -0.5);
	}
	return hits;
}

static bool clear_of_texts(const struct placed *pl, struct rect r)
{
	size_t i;

	for (i = 0; i < pl->n; i++)
		if (overlaps(r, pl->box[i], LABEL_PAD))
			return false;
	return true;
}

static void placed_add(struct placed *pl, struct rect r)
{
	if (r.w <= 0)
		return;
	xgrow(&pl->box, &pl->cap, pl->n + 1, sizeof(*pl->box));
	pl->box[pl->n++] = r;
}

static void add_cand(struct cand *cs, int *n, double x, double y, double w, double h, bool leader)
{
	if (*n < CANDS_MAX)
		cs[(*n)++] = (struct cand){ { x, y, w, h }, leader };
}

/* A label at point (px, py): its own side first, then the others, then stacked away. */
static int label_cands(const struct mark *m, double px, double py, double w, double h, struct cand *cs)
{
	struct point side[4] = {
		{ px - w / 2, py - 2 - h },	/* above */
		{ px + 3, py - h / 2 },		/* right */
		{ px - 3 - w, py - h / 2 },	/* left */
		{ px - w / 2, py + 2 },		/* below */
	};
	int n = 0, k, i;

	if (m->style & MS_RIGHT)
		add_cand(cs, &n, side[1].x, side[1].y, w, h, false);
	else if (!(m->style & MS_ABOVE))
		add_cand(cs, &n, px - w / 2, py - h / 2, w, h, false);
	for (i = 0; i < 4; i++)
		add_cand(cs, &n, side[i].x, side[i].y, w, h, false);
	for (k = 1; k <= STACK_MAX; k++) {
		double dy = k * (h + 2);

		if (m->style & MS_RIGHT) {
			add_cand(cs, &n, side[1].x + 6, side[1].y - dy, w, h, true);
			add_cand(cs, &n, side[1].x + 6, side[1].y + dy, w, h, true);
		} else {
			add_cand(cs, &n, side[0].x, side[0].y - dy, w, h, true);
			add_cand(cs, &n, side[3].x, side[3].y + dy, w, h, true);
		}
	}
	return n;
}

/* An hline's text: at the right end on its side, the other side, the left end, then stacked. */
static int hline_cands(const struct mark *m, const struct rect *pr, double y, double w, double h,
		       struct cand *cs)
{
	double above = y - 1 - h, below = y + 2, right = pr->x + pr->w - 3 - w, left = pr->x + 3;
	double first = m->style & MS_BELOW ? below : above, second = m->style & MS_BELOW ? above : below;
	int n = 0, k;

	add_cand(cs, &n, right, first, w, h, false);
	add_cand(cs, &n, right, second, w, h, false);
	add_cand(cs, &n, left, first, w, h, false);
	add_cand(cs, &n, left, second, w, h, false);
	add_cand(cs, &n, pr->x + (pr->w - w) / 2, first, w, h, false);
	add_cand(cs, &n, pr->x + (pr->w - w) / 2, second, w, h, false);
	for (k = 1; k <= STACK_MAX; k++) {
		add_cand(cs, &n, right, first - (m->style & MS_BELOW ? -1 : 1) * k * (h + 2), w, h, true);
		add_cand(cs, &n, right, second + (m->style & MS_BELOW ? -1 : 1) * k * (h + 2), w, h, true);
	}
	return n;
}

/* A shaded span's text: at its foot (over any strips), at its top, then up from the foot. */
static int vspan_cands(const struct mark *m, const struct rect *pr, double cx, double w, double h,
		       struct cand *cs)
{
	double foot = pr->y + pr->h - 3 - h - (m->style & MS_STRIP ? (m->y0 + 1) * STRIP_H : 0);
	int n = 0, k;

	add_cand(cs, &n, cx - w / 2, foot, w, h, false);
	add_cand(cs, &n, cx - w / 2, pr->y + 3, w, h, false);
	for (k = 1; k <= 3 * STACK_MAX; k++)
		add_cand(cs, &n, cx - w / 2, foot - k * (h / 2 + 1), w, h, false);
	return n;
}

/* The canvas point a text names, and its candidate spots; 0 for a mark without text. */
static int text_cands(const struct panel *p, struct mark *m, struct cand *cs)
{
	double w, h;

	if (!m->text || m->kind == MARK_LINE || m->kind == MARK_RECT || m->in_legend)
		return 0;
	text_size(FONT_NOTE, m->text, 0, &w, &h);
	switch (m->kind) {
	case MARK_LABEL:
		m->anchor = (struct point){ panel_px(p, m->x0), panel_py(p, m->y0) };
		return label_cands(m, m->anchor.x, m->anchor.y, w, h, cs);
	case MARK_HLINE:
		m->anchor = (struct point){ p->plot.x + p->plot.w - 3, panel_py(p, m->y0) };
		return hline_cands(m, &p->plot, m->anchor.y, w, h, cs);
	case MARK_VSPAN:
		m->anchor = (struct point){ (panel_px(p, m->x0) + panel_px(p, m->x1)) / 2, p->plot.y + p->plot.h };
		return vspan_cands(m, &p->plot, m->anchor.x, w, h, cs);
	default:
		return 0;
	}
}

/* The first free candidate; else the one clear of texts on the fewest marks; -1: none. */
static int best_cand(const struct panel *p, const struct placed *pl, const struct cand *cs, int n,
		     struct rect region)
{
	int i, best = -1, best_hits = 0;

	for (i = 0; i < n; i++) {
		int hits;

		if (!inside(cs[i].r, region) || !clear_of_texts(pl, cs[i].r))
			continue;
		hits = mark_hits(p, cs[i].r);
		if (hits == 0)
			return i;
		if (best < 0 || hits < best_hits) {
			best = i;
			best_hits = hits;
		}
	}
	return best;
}

/* Places the texts of p's marks; returns how many went to the legend (none unless may_move). */
static int place_panel_texts(struct chart_layout *c, struct panel *p, struct placed *pl, bool may_move)
{
	struct rect canvas = { 0, 0, c->width, c->height };
	struct rect region = { p->plot.x, fmax(p->plot.y - ABOVE_PLOT, 0), p->plot.w, 0 };
	struct cand cs[CANDS_MAX];
	int moved = 0;
	size_t i;

	region.h = fmin(p->plot.y + p->plot.h, canvas.h) - region.y;
	for (i = 0; i < p->nmarks; i++) {
		struct mark *m = &p->marks[i];
		int n = text_cands(p, m, cs), k;

		m->box = (struct rect){ 0, 0, 0, 0 };
		m->leader = false;
		if (n == 0)
			continue;
		k = best_cand(p, pl, cs, n, region);
		if (k >= 0) {
			m->box = cs[k].r;
			m->leader = cs[k].leader;
			placed_add(pl, m->box);
		} else if (may_move && c->nlegend < LEGEND_MAX) {
			m->in_legend = true;
			chart_add_legend(c, m->kind == MARK_LABEL ? CAT_INK : m->cat, m->style,
					 m->kind == MARK_HLINE, m->text);
			moved++;
		}
	}
	return moved;
}

static int place_texts(struct chart_layout *c, bool may_move)
{
	struct placed pl = { NULL, 0, 0 };
	int i, moved = 0;

	placed_add(&pl, c->title_box);
	placed_add(&pl, c->banner_box);
	placed_add(&pl, c->subtitle_box);
	placed_add(&pl, c->note_box);
	for (i = 0; i < c->nlegend; i++)
		placed_add(&pl, c->legend[i].box);
	for (i = 0; i < c->npanels; i++)
		placed_add(&pl, c->panel[i].title_box);
	for (i = 0; i < c->npanels; i++)
		moved += place_panel_texts(c, &c->panel[i], &pl, may_move);
	free(pl.box);
	return moved;
}

void chart_frame(struct chart_layout *c)
{
	place_frame(c);
}

void chart_finish(struct chart_layout *c)
{
	int pass;

	for (pass = 0; pass < PASSES_MAX; pass++) {
		place_frame(c);
		if (place_texts(c, pass + 1 < PASSES_MAX) == 0)
			return;
	}
}

double panel_px(const struct panel *p, double x)
{
	return p->plot.x + (x - p->x.lo) / (p->x.hi - p->x.lo) * p->plot.w;
}

double panel_py(const struct panel *p, double y)
{
	return p->plot.y + p->plot.h - (y - p->y.lo) / (p->y.hi - p->y.lo) * p->plot.h;
}

static const char *const scale_names[] = { "linear", "log2-bytes", "category", "log10" };
static const char *const mark_names[] = { "rect", "line", "hline", "vspan", "label" };

/* Appends s with its newlines as the two characters \\n, so one value stays on one line. */
static void dump_str(struct buf *out, const char *s)
{
	for (; *s; s++)
		if (*s == '\n')
			buf_addstr(out, "\\n");
		else
			buf_addch(out, *s);
}

static void dump_axis(const struct axis *a, const char *key, struct buf *out)
{
	int i;

	buf_addf(out, "%s.label = %s\n", key, a->label ? a->label : "");
	buf_addf(out, "%s.scale = %s\n", key, scale_names[a->scale]);
	buf_addf(out, "%s.range = %g %g\n", key, a->lo, a->hi);
	if (a->scale == AXIS_CATEGORY) {
		buf_addf(out, "%s.cats =", key);
		for (i = 0; i < (int)a->ncats; i++) {
			buf_addstr(out, i ? " | " : " ");
			dump_str(out, a->cats[i]);
		}
		buf_addch(out, '\n');
		return;
	}
	buf_addf(out, "%s.step = %g\n%s.ticks =", key, a->ticks.step, key);
	for (i = 0; i < a->ticks.n; i++)
		buf_addf(out, " %s", a->ticks.label[i]);
	buf_addch(out, '\n');
}

static void dump_mark(const struct panel *p, const struct mark *m, struct buf *out)
{
	size_t k;

	buf_addf(out, "%s %s", mark_names[m->kind], category_style(m->cat)->name);
	if (m->style & MS_LIGHT)
		buf_addstr(out, " light");
	if (m->style & MS_DASHED)
		buf_addstr(out, " dashed");
	if (m->style & MS_HOLLOW)
		buf_addstr(out, " hollow");
	if (m->style & MS_STRIP)
		buf_addstr(out, " strip");
	if (m->style & MS_BAND)
		buf_addstr(out, " band");
	if (m->style & MS_HATCHED)
		buf_addstr(out, " hatched");
	switch (m->kind) {
	case MARK_RECT:
		buf_addf(out, " x=%g..%g y=%g..%g", m->x0, m->x1, m->y0, m->y1);
		break;
	case MARK_HLINE:
		buf_addf(out, " y=%g", m->y0);
		break;
	case MARK_VSPAN:
		buf_addf(out, " x=%g..%g", m->x0, m->x1);
		break;
	case MARK_LABEL:
		buf_addf(out, " at=%g,%g", m->x0, m->y0);
		break;
	case MARK_LINE:
		buf_addf(out, " n=%zu", m->npts);
		for (k = m->first; k < m->first + m->npts; k++)
			buf_addf(out, " %g,%g", p->pts[k].x, p->pts[k].y);
		break;
	}
	if (m->text) {
		buf_addstr(out, " \"");
		dump_str(out, m->text);
		buf_addch(out, '"');
	}
	buf_addch(out, '\n');
}

static void dump_box(struct buf *out, int *n, struct rect r, const char *what, const char *text, bool leader)
{
	if (r.w <= 0 || !text)
		return;
	buf_addf(out, "box.%d = %.2f %.2f %.2f %.2f %s%s \"", (*n)++, r.x, r.y, r.w, r.h, what,
		 leader ? " leader" : "");
	dump_str(out, text);
	buf_addstr(out, "\"\n");
}

/* Every placed text box, numbered in drawing order. */
static void dump_boxes(const struct chart_layout *c, struct buf *out)
{
	char what[48];
	int i, n = 0;
	size_t k;

	dump_box(out, &n, c->title_box, "title", c->title, false);
	dump_box(out, &n, c->subtitle_box, "subtitle", c->subtitle, false);
	dump_box(out, &n, c->note_box, "note", c->note, false);
	for (i = 0; i < c->nlegend; i++) {
		snprintf(what, sizeof(what), "legend.%d", i);
		dump_box(out, &n, c->legend[i].box, what, c->legend[i].label, false);
	}
	for (i = 0; i < c->npanels; i++) {
		const struct panel *p = &c->panel[i];

		snprintf(what, sizeof(what), "panel.%d.title", i);
		dump_box(out, &n, p->title_box, what, p->title, false);
		for (k = 0; k < p->nmarks; k++) {
			snprintf(what, sizeof(what), "panel.%d.mark.%zu", i, k);
			dump_box(out, &n, p->marks[k].box, what, p->marks[k].text, p->marks[k].leader);
		}
	}
}

int chart_layout_dump(const struct chart_layout *c, struct buf *out)
{
	int i;
	size_t k;

	buf_addf(out, "chart = %s\ntitle = %s\n", c->id, c->title);
	if (c->banner)
		buf_addf(out, "banner = %s\n", c->banner);
	if (c->subtitle)
		buf_addf(out, "subtitle = %s\n", c->subtitle);
	if (c->note)
		buf_addf(out, "note = %s\n", c->note);
	buf_addf(out, "canvas = %g x %g\n", c->width, c->height);
	for (i = 0; i < c->nlegend; i++) {
		const struct legend_entry *e = &c->legend[i];

		buf_addf(out, "legend.%d = %s%s%s \"%s\" at=%.1f,%.1f\n", i, category_style(e->cat)->name,
			 e->style & MS_LIGHT ? " light" : "", e->style & MS_HATCHED ? " hatched" : "",
			 e->label, e->swatch.x, e->swatch.y);
	}
	for (i = 0; i < c->npanels; i++) {
		const struct panel *p = &c->panel[i];
		char key[32];

		if (p->title)
			buf_addf(out, "panel.%d.title = %s\n", i, p->title);
		buf_addf(out, "panel.%d.plot = %.1f %.1f %.1f %.1f\n", i,
			 p->plot.x, p->plot.y, p->plot.w, p->plot.h);
		snprintf(key, sizeof(key), "panel.%d.x", i);
		dump_axis(&p->x, key, out);
		snprintf(key, sizeof(key), "panel.%d.y", i);
		dump_axis(&p->y, key, out);
		for (k = 0; k < p->nmarks; k++) {
			buf_addf(out, "panel.%d.mark.%zu = ", i, k);
			dump_mark(p, &p->marks[k], out);
		}
	}
	dump_boxes(c, out);
	return out->overflow ? -1 : 0;
}
