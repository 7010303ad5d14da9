#include "render/text.h"

#include <ctype.h>
#include <stdbool.h>
#include <pango/pangocairo.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

static void context_setup(PangoContext *ctx)
{
	cairo_font_options_t *fo = cairo_font_options_create();

	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_font_options_set_antialias(fo, CAIRO_ANTIALIAS_GRAY);
	pango_cairo_context_set_font_options(ctx, fo);
	cairo_font_options_destroy(fo);
#if PANGO_VERSION_CHECK(1, 44, 0)
	pango_context_set_round_glyph_positions(ctx, FALSE);
#endif
}

static size_t word_start(const char *s, size_t i)
{
	while (i > 0 && s[i - 1] != ' ')
		i--;
	return i;
}

static size_t word_end(const char *s, size_t i)
{
	while (s[i] && s[i] != ' ')
		i++;
	return i;
}

/* Where the command a flag at i belongs to starts: just inside a "(" close before it; else 0. */
static size_t command_start(const char *s, size_t i)
{
	for (size_t k = i; k > 0 && i - k < 48; k--) {
		if (strchr("),;", s[k - 1]))
			return 0;
		if (s[k - 1] == '(')
			return k;
	}
	return 0;
}

static void no_breaks(PangoAttrList *l, size_t from, size_t to)
{
	PangoAttribute *at = pango_attr_allow_breaks_new(FALSE);

	at->start_index = (guint)from;
	at->end_index = (guint)to;
	pango_attr_list_insert(l, at);
}

/*
 * No line break inside a hyphenated word ("nvidia-smi") nor between a flag
 * and what it belongs to: the words since an open "(" close before it, else
 * the word before it ("topo -m").
 */
static void keep_together(PangoLayout *lo, const char *s)
{
	PangoAttrList *l = pango_attr_list_new();

	for (size_t i = 1; s[i]; i++) {
		size_t from;

		if (s[i] != '-' || !(isalnum((unsigned char)s[i + 1]) || s[i + 1] == '-'))
			continue;
		from = s[i - 1] != ' ' ? word_start(s, i) : command_start(s, i);
		if (s[i - 1] == ' ' && !from)
			from = word_start(s, i - 1);
		no_breaks(l, from, word_end(s, i));
	}
	pango_layout_set_attributes(lo, l);
	pango_attr_list_unref(l);
}

/*
 * Pango takes valid UTF-8 only (it warns and draws nothing else) and shows control characters
 * as boxes, or acts on them: the text it is given is s with both made safe by core/utf8.
 */
static void layout_setup(PangoLayout *lo, enum font_role r, const char *s, double wrap, bool keep)
{
	const struct font_style *f = font_style(r);
	PangoFontDescription *fd = pango_font_description_new();
	char *safe = utf8_clean(s, strlen(s), UTF8_CONTROLS) ? NULL : utf8_dup(s, UTF8_CONTROLS);

	if (safe)
		s = safe;

	pango_font_description_set_family(fd, f->family);
	pango_font_description_set_absolute_size(fd, f->size * PANGO_SCALE);
	pango_font_description_set_weight(fd, f->bold ? PANGO_WEIGHT_BOLD : PANGO_WEIGHT_NORMAL);
	pango_layout_set_font_description(lo, fd);
	pango_font_description_free(fd);
	if (wrap > 0) {
		pango_layout_set_width(lo, (int)(wrap * PANGO_SCALE));
		pango_layout_set_wrap(lo, PANGO_WRAP_WORD_CHAR);
	}
	pango_layout_set_text(lo, s, -1);
	if (keep)
		keep_together(lo, s);
	free(safe);
}

static PangoContext *ctx;	/* the measuring context: one per process, made on first use */

static PangoContext *measure_context(void)
{
	if (!ctx) {
		ctx = pango_font_map_create_context(pango_cairo_font_map_get_default());
		context_setup(ctx);
	}
	return ctx;
}

static void size_of(enum font_role r, const char *s, double wrap, bool keep, double *w, double *h)
{
	PangoLayout *lo = pango_layout_new(measure_context());
	int pw, ph;

	layout_setup(lo, r, s, wrap, keep);
	pango_layout_get_size(lo, &pw, &ph);
	*w = (double)pw / PANGO_SCALE;
	*h = (double)ph / PANGO_SCALE;
	g_object_unref(lo);
}

void text_size(enum font_role r, const char *s, double wrap, double *w, double *h)
{
	size_of(r, s, wrap, false, w, h);
}

void text_size_prose(enum font_role r, const char *s, double wrap, double *w, double *h)
{
	size_of(r, s, wrap, true, w, h);
}

size_t text_prose_lines(enum font_role r, const char *s, double wrap, size_t *starts, size_t max)
{
	PangoLayout *lo = pango_layout_new(measure_context());
	PangoLayoutIter *it;
	size_t n = 0;

	layout_setup(lo, r, s, wrap, true);
	it = pango_layout_get_iter(lo);
	do {
		if (n < max)
			starts[n] = (size_t)pango_layout_iter_get_line_readonly(it)->start_index;
		n++;
	} while (pango_layout_iter_next_line(it));
	pango_layout_iter_free(it);
	g_object_unref(lo);
	return n;
}

static double draw(cairo_t *cr, enum font_role r, const char *s, double x, double y,
		   double ax, double ay, double angle, double wrap, bool keep, struct colour c)
{
	PangoLayout *lo = pango_cairo_create_layout(cr);
	int pw, ph;
	double w, h;

	context_setup(pango_layout_get_context(lo));
	pango_layout_context_changed(lo);
	layout_setup(lo, r, s, wrap, keep);
	if (ax > 0.25)
		pango_layout_set_alignment(lo, ax > 0.75 ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_CENTER);
	pango_layout_get_size(lo, &pw, &ph);
	w = (double)pw / PANGO_SCALE;
	h = (double)ph / PANGO_SCALE;
	cairo_save(cr);
	cairo_translate(cr, x, y);
	cairo_rotate(cr, angle);
	cairo_move_to(cr, -ax * w, -ay * h);
	cairo_set_source_rgb(cr, c.r, c.g, c.b);
	pango_cairo_update_layout(cr, lo);
	pango_cairo_show_layout(cr, lo);
	cairo_new_path(cr);
	cairo_restore(cr);
	g_object_unref(lo);
	return h;
}

double text_draw(cairo_t *cr, enum font_role r, const char *s, double x, double y,
		 double ax, double ay, double angle, double wrap, struct colour c)
{
	return draw(cr, r, s, x, y, ax, ay, angle, wrap, false, c);
}

double text_draw_prose(cairo_t *cr, enum font_role r, const char *s, double x, double y, double wrap,
		       struct colour c)
{
	return draw(cr, r, s, x, y, 0, 0, 0, wrap, true, c);
}

void text_release(void)
{
	if (ctx)
		g_object_unref(ctx);
	ctx = NULL;
	pango_cairo_font_map_set_default(NULL);
}
