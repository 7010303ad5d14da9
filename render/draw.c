#include "render/draw.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/xalloc.h"
#include "render/text.h"

#define MARKER_R 2.8
#define LINE_W 1.8
#define BAND_ALPHA 0.22		/* an MS_BAND rect: the lines show through */

cairo_status_t file_write(void *closure, const unsigned char *data, unsigned int len)
{
	return fwrite(data, 1, len, closure) == len ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_WRITE_ERROR;
}

static void set_colour(cairo_t *cr, enum category cat, unsigned style)
{
	struct colour c = category_style(cat)->c;

	if (style & MS_LIGHT)
		cairo_set_source_rgb(cr, c.r + (1 - c.r) * 0.5, c.g + (1 - c.g) * 0.5, c.b + (1 - c.b) * 0.5);
	else
		cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

/* The category's colour mixed with white: keep = 0 white, 1 the colour. */
static void set_tint(cairo_t *cr, enum category cat, double keep)
{
	struct colour c = category_style(cat)->c;

	cairo_set_source_rgb(cr, 1 - (1 - c.r) * keep, 1 - (1 - c.g) * keep, 1 - (1 - c.b) * keep);
}

#define HATCH_GAP 4.0

/* A box in the category's colour, lighter, struck through by diagonal lines of the colour. */
static void fill_hatched(cairo_t *cr, enum category cat, double x, double y, double w, double h)
{
	double d;

	cairo_save(cr);
	cairo_rectangle(cr, x, y, w, h);
	cairo_clip(cr);
	set_tint(cr, cat, 0.35);
	cairo_paint(cr);
	set_tint(cr, cat, 1);
	cairo_set_dash(cr, NULL, 0, 0);
	cairo_set_line_width(cr, 1.1);
	for (d = -h; d < w; d += HATCH_GAP) {
		cairo_move_to(cr, x + d, y + h);
		cairo_line_to(cr, x + d + h, y);
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

static void fill_box(cairo_t *cr, enum category cat, unsigned style, double x, double y, double w, double h)
{
	if (style & MS_HATCHED) {
		fill_hatched(cr, cat, x, y, w, h);
		return;
	}
	set_colour(cr, cat, style);
	cairo_rectangle(cr, x, y, w, h);
	cairo_fill(cr);
}

static void set_dash(cairo_t *cr, unsigned style)
{
	static const double dash[] = { 5, 3 };

	cairo_set_dash(cr, dash, style & MS_DASHED ? 2 : 0, 0);
}

static struct colour ink(void)
{
	return category_style(CAT_INK)->c;
}

static void draw_marker(cairo_t *cr, double x, double y, unsigned style)
{
	if (style & MS_SQUARES)
		cairo_rectangle(cr, x - MARKER_R, y - MARKER_R, 2 * MARKER_R, 2 * MARKER_R);
	else
		cairo_arc(cr, x, y, MARKER_R, 0, 2 * M_PI);
	if (!(style & MS_HOLLOW)) {
		cairo_fill(cr);
		return;
	}
	cairo_set_dash(cr, NULL, 0, 0);
	cairo_stroke(cr);
}

/* A box of diagonal strokes in the category's colour over its lighter tint, outlined in ink. */
static void draw_line(cairo_t *cr, const struct panel *p, const struct mark *m)
{
	size_t k;

	set_colour(cr, m->cat, m->style);
	set_dash(cr, m->style);
	cairo_set_line_width(cr, LINE_W);
	cairo_new_path(cr);
	if (!(m->style & MS_NOLINE)) {
		for (k = m->first; k < m->first + m->npts; k++)
			cairo_line_to(cr, panel_px(p, p->pts[k].x), panel_py(p, p->pts[k].y));
		cairo_stroke(cr);
	}
	if (!(m->style & (MS_MARKERS | MS_SQUARES)))
		return;
	for (k = m->first; k < m->first + m->npts; k++)
		draw_marker(cr, panel_px(p, p->pts[k].x), panel_py(p, p->pts[k].y), m->style);
}

static void draw_mark(cairo_t *cr, const struct panel *p, const struct mark *m)
{
	const struct rect *r = &p->plot;
	double x0 = panel_px(p, m->x0), x1 = panel_px(p, m->x1);
	double y0 = panel_py(p, m->y0), y1 = panel_py(p, m->y1);

	switch (m->kind) {
	case MARK_RECT:
		if (m->style & MS_BAND) {
			struct colour c = category_style(m->cat)->c;

			cairo_set_source_rgba(cr, c.r, c.g, c.b, BAND_ALPHA);
			cairo_rectangle(cr, x0, y1, x1 - x0, y0 - y1);
			cairo_fill(cr);
			break;
		}
		fill_box(cr, m->cat, m->style, x0, y1, x1 - x0, y0 - y1);
		break;
	case MARK_VSPAN:
		set_colour(cr, m->cat, m->style);
		if (m->style & MS_STRIP)	/* one run's rows at the plot's foot */
			cairo_rectangle(cr, x0, r->y + r->h - (m->y0 + 1) * STRIP_H, x1 - x0, STRIP_H);
		else
			cairo_rectangle(cr, x0, r->y, x1 - x0, r->h);
		cairo_fill(cr);
		break;
	case MARK_HLINE:
		set_colour(cr, m->cat, m->style);
		set_dash(cr, m->style);
		cairo_set_line_width(cr, 1.3);
		cairo_move_to(cr, r->x, y0);
		cairo_line_to(cr, r->x + r->w, y0);
		cairo_stroke(cr);
		break;
	case MARK_LABEL:
		break;
	case MARK_LINE:
		draw_line(cr, p, m);
		break;
	}
}

/* The colour of a mark's text: a label's own, a line's, ink for reference lines and spans. */
static struct colour text_colour(const struct mark *m)
{
	if (m->kind == MARK_VSPAN || (m->kind == MARK_HLINE && m->cat == CAT_REFERENCE))
		return ink();
	return category_style(m->cat)->text;
}

/* The texts of p's marks where the placer put them, a leader to a moved one's mark. */
static void draw_texts(cairo_t *cr, const struct panel *p)
{
	size_t i;

	for (i = 0; i < p->nmarks; i++) {
		const struct mark *m = &p->marks[i];
		const struct rect *b = &m->box;

		if (!m->text || b->w <= 0)
			continue;
		if (m->leader) {
			struct colour c = text_colour(m);

			cairo_set_source_rgb(cr, c.r, c.g, c.b);
			set_dash(cr, 0);
			cairo_set_line_width(cr, 0.6);
			cairo_move_to(cr, m->anchor.x, m->anchor.y);
			cairo_line_to(cr, fmin(fmax(m->anchor.x, b->x), b->x + b->w),
				      m->anchor.y < b->y ? b->y : b->y + b->h);
			cairo_stroke(cr);
		}
		text_draw(cr, FONT_NOTE, m->text, b->x, b->y, 0, 0, 0, 0, text_colour(m));
	}
}

static void draw_grid(cairo_t *cr, const struct panel *p)
{
	const struct rect *r = &p->plot;
	int i;

	set_colour(cr, CAT_GRID, 0);
	set_dash(cr, 0);
	cairo_set_line_width(cr, 0.8);
	cairo_new_path(cr);
	if (p->y.scale != AXIS_CATEGORY)
		for (i = 0; i < p->y.ticks.n; i++) {
			double y = panel_py(p, p->y.ticks.v[i]);

			cairo_move_to(cr, r->x, y);
			cairo_line_to(cr, r->x + r->w, y);
		}
	if (p->y.scale == AXIS_CATEGORY && p->x.scale != AXIS_CATEGORY)
		for (i = 0; i < p->x.ticks.n; i++) {
			double x = panel_px(p, p->x.ticks.v[i]);

			cairo_move_to(cr, x, r->y);
			cairo_line_to(cr, x, r->y + r->h);
		}
	cairo_stroke(cr);
}

static void draw_x_axis(cairo_t *cr, const struct panel *p)
{
	const struct rect *r = &p->plot;
	double y = r->y + r->h + 4, h = 0, lw, lh;
	size_t i;

	if (p->x.scale == AXIS_CATEGORY)
		for (i = 0; i < p->x.ncats; i++)
			h = fmax(h, text_draw(cr, FONT_TICK, p->x.cats[i], panel_px(p, (double)i), y, 0.5, 0, 0, 0, ink()));
	else
		for (i = 0; i < (size_t)p->x.ticks.n; i++)
			h = fmax(h, text_draw(cr, FONT_TICK, p->x.ticks.label[i], panel_px(p, p->x.ticks.v[i]), y,
					      0.5, 0, 0, 0, ink()));
	text_size(FONT_AXIS, p->x.label, 0, &lw, &lh);
	text_draw(cr, FONT_AXIS, p->x.label, r->x + r->w / 2, y + h + 3, 0.5, 0, 0, 0, ink());
}

static void draw_y_axis(cairo_t *cr, const struct panel *p, double left)
{
	const struct rect *r = &p->plot;
	size_t i;

	if (p->y.scale == AXIS_CATEGORY)
		for (i = 0; i < p->y.ncats; i++)
			text_draw(cr, FONT_TICK, p->y.cats[i], r->x - 6, panel_py(p, (double)i), 1, 0.5, 0, 0, ink());
	else
		for (i = 0; i < (size_t)p->y.ticks.n; i++)
			text_draw(cr, FONT_TICK, p->y.ticks.label[i], r->x - 6, panel_py(p, p->y.ticks.v[i]),
				  1, 0.5, 0, 0, ink());
	if (p->y.label && *p->y.label)
		text_draw(cr, FONT_AXIS, p->y.label, left, r->y + r->h / 2, 0.5, 0, -M_PI / 2, 0, ink());
}

static void draw_panel(cairo_t *cr, const struct panel *p, double left)
{
	const struct rect *r = &p->plot;
	size_t i;

	if (p->title)
		text_draw(cr, FONT_SUBTITLE, p->title, r->x, r->y - 8, 0, 1, 0, 0, ink());
	draw_grid(cr, p);
	cairo_save(cr);
	cairo_rectangle(cr, r->x, r->y - 20, r->w, r->h + 20);
	cairo_clip(cr);
	for (i = 0; i < p->nmarks; i++)
		draw_mark(cr, p, &p->marks[i]);
	cairo_restore(cr);
	draw_texts(cr, p);
	set_colour(cr, CAT_INK, 0);
	set_dash(cr, 0);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, r->x, r->y);
	cairo_line_to(cr, r->x, r->y + r->h);
	cairo_line_to(cr, r->x + r->w, r->y + r->h);
	cairo_stroke(cr);
	draw_x_axis(cr, p);
	draw_y_axis(cr, p, left);
}

static void draw_legend(cairo_t *cr, const struct chart_layout *c)
{
	int i;

	for (i = 0; i < c->nlegend; i++) {
		const struct legend_entry *e = &c->legend[i];
		const struct rect *s = &e->swatch;

		set_colour(cr, e->cat, e->style);
		if (e->line) {
			set_dash(cr, e->style);
			cairo_set_line_width(cr, LINE_W);
			if (!(e->style & MS_NOLINE)) {
				cairo_move_to(cr, s->x, s->y + s->h / 2);
				cairo_line_to(cr, s->x + s->w, s->y + s->h / 2);
				cairo_stroke(cr);
			}
			if (e->style & (MS_MARKERS | MS_SQUARES))
				draw_marker(cr, s->x + s->w / 2, s->y + s->h / 2, e->style);
		} else {
			fill_box(cr, e->cat, e->style, s->x, s->y, s->w, s->h);
		}
		text_draw(cr, FONT_LEGEND, e->label, e->text.x, e->text.y, 0, 0, 0, 0, ink());
	}
}

/* The not-comparable warning: a pale band with a border, its text in the warning colour. */
static void draw_banner(cairo_t *cr, const struct chart_layout *c)
{
	const struct rect *b = &c->banner_box;

	set_tint(cr, CAT_WARNING, 0.1);
	cairo_rectangle(cr, b->x, b->y, b->w, b->h);
	cairo_fill_preserve(cr);
	set_colour(cr, CAT_WARNING, 0);
	set_dash(cr, 0);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
	text_draw(cr, FONT_SUBTITLE, c->banner, b->x + BANNER_PAD, b->y + BANNER_PAD, 0, 0, 0,
		  b->w - 2 * BANNER_PAD, category_style(CAT_WARNING)->text);
}

void chart_draw(cairo_t *cr, const struct chart_layout *c)
{
	int i;

	cairo_save(cr);
	cairo_rectangle(cr, 0, 0, c->width, c->height);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_fill(cr);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	text_draw(cr, FONT_TITLE, c->title, c->title_at.x, c->title_at.y, 0, 0, 0, c->width - 28, ink());
	if (c->banner)
		draw_banner(cr, c);
	if (c->subtitle)
		text_draw(cr, FONT_SUBTITLE, c->subtitle, c->subtitle_at.x, c->subtitle_at.y, 0, 0, 0,
			  c->width - 28, category_style(CAT_REFERENCE)->c);
	if (c->note)
		text_draw(cr, FONT_NOTE, c->note, c->note_at.x, c->note_at.y, 0, 0, 0, c->width - 28,
			  category_style(CAT_EXPOSED_COMM)->text);
	draw_legend(cr, c);
	for (i = 0; i < c->npanels; i++)
		draw_panel(cr, &c->panel[i], c->panel[i].area.x);
	cairo_restore(cr);
}

void pdf_set_date(cairo_surface_t *s)
{
	const char *env = getenv("SOURCE_DATE_EPOCH");
	time_t t = 0;
	struct tm tm;
	char date[32];

	if (env && *env) {
		char *end;
		long long v;

		errno = 0;
		v = strtoll(env, &end, 10);
		if (!errno && !*end && v >= 0)
			t = (time_t)v;
	}
	gmtime_r(&t, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, date);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_MOD_DATE, date);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATOR, "scaleaudit");
}

static cairo_surface_t *png_create(FILE *f, double w, double h)
{
	return cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)lround(w), (int)lround(h));
}

static cairo_status_t png_finish(cairo_surface_t *s, FILE *f)
{
	cairo_surface_flush(s);
	return cairo_surface_write_to_png_stream(s, file_write, f);
}

/*
 * cairo names SVG groups after a process-wide surface counter ("surface6"),
 * so the same chart drawn second in a process would differ. The SVG is kept
 * in memory and its surface ids renumbered in order of appearance.
 */
#define SVG_IDS_MAX 64

static const cairo_user_data_key_t svg_key;

static cairo_status_t buf_write(void *closure, const unsigned char *data, unsigned int len)
{
	return buf_add(closure, data, len) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_NO_MEMORY;
}

static void buf_free(void *p)
{
	buf_release(p);
	free(p);
}

static cairo_surface_t *svg_create(FILE *f, double w, double h)
{
	struct buf *b = xmalloc(sizeof(*b));
	cairo_surface_t *s;

	buf_init(b, 0);
	s = cairo_svg_surface_create_for_stream(buf_write, b, w, h);
	cairo_surface_set_user_data(s, &svg_key, b, buf_free);
	return s;
}

/* Copies svg to out with "surfaceN" ids numbered 1, 2, ... in order of first appearance. */
static void svg_renumber(const char *svg, size_t len, struct buf *out)
{
	static const char word[] = "surface";
	unsigned long seen[SVG_IDS_MAX];
	size_t nseen = 0, i = 0, j, k;

	while (i < len) {
		const char *p = memmem(svg + i, len - i, word, sizeof(word) - 1);
		char *end;
		unsigned long n;

		if (!p) {
			buf_add(out, svg + i, len - i);
			break;
		}
		j = (size_t)(p - svg) + sizeof(word) - 1;
		buf_add(out, svg + i, j - i);
		i = j;
		if (j >= len || svg[j] < '0' || svg[j] > '9')
			continue;
		n = strtoul(svg + j, &end, 10);
		for (k = 0; k < nseen && seen[k] != n; k++)
			;
		if (k == nseen && nseen < SVG_IDS_MAX)
			seen[nseen++] = n;
		buf_addf(out, "%zu", k < SVG_IDS_MAX ? k + 1 : (size_t)n);
		i = (size_t)(end - svg);
	}
}

static cairo_status_t svg_finish(cairo_surface_t *s, FILE *f)
{
	struct buf *b = cairo_surface_get_user_data(s, &svg_key), out;
	cairo_status_t st;

	cairo_surface_finish(s);
	st = cairo_surface_status(s);
	if (st != CAIRO_STATUS_SUCCESS)
		return st;
	buf_init(&out, 0);
	svg_renumber(b->data, b->len, &out);
	st = out.overflow || fwrite(out.data, 1, out.len, f) != out.len ? CAIRO_STATUS_WRITE_ERROR
		: CAIRO_STATUS_SUCCESS;
	buf_release(&out);
	return st;
}

static cairo_surface_t *pdf_create(FILE *f, double w, double h)
{
	cairo_surface_t *s = cairo_pdf_surface_create_for_stream(file_write, f, w, h);

	pdf_set_date(s);
	return s;
}

static cairo_status_t vector_finish(cairo_surface_t *s, FILE *f)
{
	cairo_surface_finish(s);
	return cairo_surface_status(s);
}

/* PNG at 2.5x: 1600 x 1000 pixels for the 640 x 400 canvas. */
const struct surface_kind surface_kinds[] = {
	{ "png", 2.5, png_create, png_finish },
	{ "svg", 1.0, svg_create, svg_finish },
	{ "pdf", 1.0, pdf_create, vector_finish },
};

const size_t surface_nkinds = sizeof(surface_kinds) / sizeof(surface_kinds[0]);

int chart_write(const struct chart_layout *c, const struct surface_kind *k, FILE *f)
{
	cairo_surface_t *s = k->create(f, c->width * k->scale, c->height * k->scale);
	cairo_status_t st;
	cairo_t *cr = cairo_create(s);

	cairo_scale(cr, k->scale, k->scale);
	chart_draw(cr, c);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (st == CAIRO_STATUS_SUCCESS)
		st = k->finish(s, f);
	cairo_surface_destroy(s);
	return st == CAIRO_STATUS_SUCCESS ? 0 : -1;
}
