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
	if (a->scale == AXIS_LOG2_BYTES && isfinite(e.lo) && isfinite(e.hi)) {
		/* whole powers of two, at least two apart: one size still gets labelled neighbours */
		e.lo = floor(e.lo);
		e.hi = ceil(e.hi);
		if (e.hi - e.lo < 2) {
			e.lo -= 1;
			e.hi = e.lo + 2 + (e.hi - e.lo > 1);
		}
	}
	ticks_nice(e.lo, e.hi, target, a->scale == AXIS_LOG2_BYTES ? fmax(1, a->min_step) : a->min_step,
		   &a->ticks);
	if (a->tight && e.hi > e.lo && a->scale != AXIS_LOG2_BYTES) {
		double pad = (e.hi - e.lo) * TIGHT_PAD;

		ticks_clip(&a->ticks, a->zero && e.lo == 0 ? 0 : e.lo - pad, e.hi + pad);
	}
	if (a->scale == AXIS_LOG2_BYTES)
		ticks_label_log2_bytes(&a->ticks);
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
	y += h + 2;
	if (c->subtitle) {
		c->subtitle_at = (struct point){ PAD, y };
		text_size(FONT_SUBTITLE, c->subtitle, c->width - 2 * PAD, &w, &h);
		y += h + 2;
	}
	if (c->note) {
		c->note_at = (struct point){ PAD, y };
		text_size(FONT_NOTE, c->note, c->width - 2 * PAD, &w, &h);
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
		x += sw + GAP + w + LEGEND_SEP;
	}
	return c->nlegend ? y + row + 8 : y;
}

static void place_panel(struct panel *p, struct rect area, struct extent ex, struct extent ey)
{
	double yw, yh, xw, xh, lw, lh, tw, th, right;
	int target_x = area.w < CANVAS_W * 0.6 ? 4 : 7;

	p->area = area;
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
}

void chart_finish(struct chart_layout *c)
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

double panel_px(const struct panel *p, double x)
{
	return p->plot.x + (x - p->x.lo) / (p->x.hi - p->x.lo) * p->plot.w;
}

double panel_py(const struct panel *p, double y)
{
	return p->plot.y + p->plot.h - (y - p->y.lo) / (p->y.hi - p->y.lo) * p->plot.h;
}

static const char *const scale_names[] = { "linear", "log2-bytes", "category" };
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

int chart_layout_dump(const struct chart_layout *c, struct buf *out)
{
	int i;
	size_t k;

	buf_addf(out, "chart = %s\ntitle = %s\n", c->id, c->title);
	if (c->subtitle)
		buf_addf(out, "subtitle = %s\n", c->subtitle);
	if (c->note)
		buf_addf(out, "note = %s\n", c->note);
	buf_addf(out, "canvas = %g x %g\n", c->width, c->height);
	for (i = 0; i < c->nlegend; i++) {
		const struct legend_entry *e = &c->legend[i];

		buf_addf(out, "legend.%d = %s%s \"%s\" at=%.1f,%.1f\n", i, category_style(e->cat)->name,
			 e->style & MS_LIGHT ? " light" : "", e->label, e->swatch.x, e->swatch.y);
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
	return out->overflow ? -1 : 0;
}
