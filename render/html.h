/*
 * html: report.html, the report as one self-contained page: the decision
 * summary, then each chart as inline SVG with its title and caption, then
 * the charts left out with their reasons. Inline CSS only: no script, no
 * font, image or style sheet from anywhere else. It reads on a phone (a
 * chart scales to the width but never below its natural size: narrower, it
 * scrolls sideways in its box) and prints one chart a page.
 */
#ifndef RENDER_HTML_H
#define RENDER_HTML_H

#include <stddef.h>

#include "analysis/result.h"
#include "core/buf.h"
#include "render/layout.h"
#include "render/summary.h"

/*
 * Appends report.html to out: the summary of a with page 1's chart headline
 * (NULL: none) after its decision's text, the ncharts finished charts
 * (captions[i] under charts[i]) and the nout charts left out. Every string
 * from the analysis is HTML-escaped; each chart's SVG ids carry its own
 * prefix, so charts on one page never share a glyph or a clip. The bytes
 * depend on the arguments alone. Returns 0, or -1 when cairo failed to draw
 * a chart or out refused an append.
 */
int html_report(const struct analysis *a, const struct chart_layout *headline, const struct chart_layout *charts,
		const char *const *captions, size_t ncharts, const struct left_out *out, size_t nout,
		struct buf *html);

/*
 * Appends chart c as an inline <svg> that scales to its box, every id in it
 * prefixed "cN-" with N = n, so that charts on one page never clash.
 * Returns 0, or -1 when cairo failed to draw it.
 */
int html_inline_svg(struct buf *h, const struct chart_layout *c, size_t n);

/* Appends text with & < > " ' written as entities, invalid UTF-8 as U+FFFD and control characters
 * (tab and newline kept) as \xNN (core/utf8.h utf8_escape()). */
void html_escape(struct buf *out, const char *text);

#endif
