/*
 * text: measuring and drawing text with pango, in the fonts of the role
 * table. Hinting and glyph rounding are off so that a width measured while
 * laying out is the width drawn on any surface at any scale.
 */
#ifndef RENDER_TEXT_H
#define RENDER_TEXT_H

#include <cairo.h>
#include <stddef.h>

#include "render/style.h"

/* Size of s (lines split at '\n') in role r, in canvas units; wrap > 0 wraps at that width. */
void text_size(enum font_role r, const char *s, double wrap, double *w, double *h);

/*
 * Draws s in role r and colour c. (x, y) is the anchor; ax and ay say which
 * point of the text's box sits there (0 left/top, 0.5 centre, 1 right/bottom).
 * angle is in radians, about the anchor. wrap > 0 wraps at that width.
 * Returns the text's height.
 */
double text_draw(cairo_t *cr, enum font_role r, const char *s, double x, double y,
		 double ax, double ay, double angle, double wrap, struct colour c);

/*
 * Like text_size() and text_draw() with (x, y) the top left, for sentences:
 * a line never breaks inside a hyphenated word ("nvidia-smi") nor between a
 * command and its flags ("nvidia-smi topo -m" inside parentheses, else at
 * least "topo -m"), so a command copied from the page still works.
 */
void text_size_prose(enum font_role r, const char *s, double wrap, double *w, double *h);
double text_draw_prose(cairo_t *cr, enum font_role r, const char *s, double x, double y, double wrap,
		       struct colour c);

/*
 * Where the lines of s, wrapped as prose at wrap, start (byte offsets, at most max); returns how
 * many lines. The offsets are into s when it is clean UTF-8 (core/utf8.h utf8_clean() with
 * UTF8_CONTROLS), into its escaped form otherwise: every function here draws text that is not
 * clean as utf8_escape() writes it (U+FFFD for invalid UTF-8, \xNN for a control character).
 */
size_t text_prose_lines(enum font_role r, const char *s, double wrap, size_t *starts, size_t max);

/*
 * Frees the measuring context and pango's default font map, so that leak
 * checkers see our own objects go. cairo's and fontconfig's static caches
 * are left to the process's exit: tearing them down (cairo_debug_reset_static_data,
 * FcFini) while pango's font-loading thread may still hold a font aborts now
 * and then with a cairo hash-table assertion. Call once at the very end;
 * text_size() and text_draw() start over if called again.
 */
void text_release(void);

#endif
