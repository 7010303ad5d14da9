#include "render/text.h"

#include <dlfcn.h>
#include <pango/pangocairo.h>
#include <string.h>

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

static void layout_setup(PangoLayout *lo, enum font_role r, const char *s, double wrap)
{
	const struct font_style *f = font_style(r);
	PangoFontDescription *fd = pango_font_description_new();

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

void text_size(enum font_role r, const char *s, double wrap, double *w, double *h)
{
	PangoLayout *lo = pango_layout_new(measure_context());
	int pw, ph;

	layout_setup(lo, r, s, wrap);
	pango_layout_get_size(lo, &pw, &ph);
	*w = (double)pw / PANGO_SCALE;
	*h = (double)ph / PANGO_SCALE;
	g_object_unref(lo);
}

double text_draw(cairo_t *cr, enum font_role r, const char *s, double x, double y,
		 double ax, double ay, double angle, double wrap, struct colour c)
{
	PangoLayout *lo = pango_cairo_create_layout(cr);
	int pw, ph;
	double w, h;

	context_setup(pango_layout_get_context(lo));
	pango_layout_context_changed(lo);
	layout_setup(lo, r, s, wrap);
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

/*
 * FcFini() frees fontconfig's caches. fontconfig comes in through pango and
 * cairo rather than being linked by name, so the symbol is looked up.
 */
static void fc_fini(void)
{
	void (*fini)(void);
	void *sym = dlsym(RTLD_DEFAULT, "FcFini");

	if (!sym)
		return;
	memcpy(&fini, &sym, sizeof(fini));	/* ISO C has no object-to-function pointer cast */
	fini();
}

/*
 * The font map outlives set_default(NULL) while pango's fontconfig-init task,
 * a thread started with the map, still holds it; its fonts hold cairo's, and
 * resetting cairo's static data under them aborts in cairo-hash.c. So wait
 * (2 s at most) for the map to go, and leave cairo's data alone if it stays.
 */
#define MAP_WAIT_MS 2000

void text_release(void)
{
	PangoFontMap *map = ctx ? pango_context_get_font_map(ctx) : NULL;

	if (map)
		g_object_add_weak_pointer(G_OBJECT(map), (gpointer *)&map);
	if (ctx)
		g_object_unref(ctx);
	ctx = NULL;
	pango_cairo_font_map_set_default(NULL);
	for (int ms = 0; g_atomic_pointer_get(&map) && ms < MAP_WAIT_MS; ms++)
		g_usleep(1000);
	if (g_atomic_pointer_get(&map)) {
		g_object_remove_weak_pointer(G_OBJECT(map), (gpointer *)&map);
		return;
	}
	cairo_debug_reset_static_data();
	fc_fini();
}
