/*
 * layout: a chart as pure data, computed before anything is drawn: the
 * canvas, the title, the legend boxes, one or two panels each with its plot
 * rectangle, axes (range, ticks with their labels, units in the label) and
 * marks (bars, lines, reference lines, shaded spans, labels) in data
 * coordinates. chart_finish() measures the text and places everything,
 * every text box included: its label placer keeps any two texts apart and
 * off the lines and bars, moving a text (stacked, with a leader) or moving
 * it into the legend rather than overprinting. draw.c only paints what is
 * here, and tests read chart_layout_dump().
 *
 * Ownership: a chart_layout owns its strings (an arena) and arrays;
 * chart_layout_release() frees them.
 */
#ifndef RENDER_LAYOUT_H
#define RENDER_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/buf.h"
#include "render/style.h"
#include "render/ticks.h"

#define LEGEND_MAX 12
#define PANELS_MAX 3		/* 10-options: throughput, GPU-hours, days to the target */

struct rect {
	double x, y, w, h;
};

struct point {
	double x, y;
};

/* AXIS_LOG2_BYTES and AXIS_LOG10 take marks as log2 / log10 of the value and label the ticks with it. */
enum axis_scale { AXIS_LINEAR, AXIS_LOG2_BYTES, AXIS_CATEGORY, AXIS_LOG10 };

struct axis {
	const char *label;	/* with its unit: "step time (ms)" */
	enum axis_scale scale;
	bool zero;		/* the range includes 0 (bars) */
	bool tight;		/* the range is the data's, not rounded to ticks (time, steps) */
	double min_hi;		/* the range reaches at least this; NaN: no floor */
	double max_hi;		/* the range stops at this (100%); NaN: no ceiling */
	double min_step;	/* the smallest tick step (1 for step numbers); 0: any */
	struct ticks ticks;	/* numeric axes: range, ticks and their labels */
	double lo, hi;		/* the data values at the plot's edges */
	const char **cats;	/* AXIS_CATEGORY: label of index i, drawn at i */
	size_t ncats, cap_cats;
};

enum mark_kind {
	MARK_RECT,	/* x0..x1 by y0..y1 */
	MARK_LINE,	/* a polyline: npts points from pts[first] */
	MARK_HLINE,	/* across the plot at y0, text at its right end */
	MARK_VSPAN,	/* shaded from x0 to x1, full height, text at its top */
	MARK_LABEL,	/* text at (x0, y0) */
};

enum mark_style {
	MS_DASHED = 1 << 0,
	MS_MARKERS = 1 << 1,	/* a dot at each point */
	MS_SQUARES = 1 << 2,	/* a square at each point */
	MS_LIGHT = 1 << 3,	/* the category's colour, lighter (a second GPU) */
	MS_ABOVE = 1 << 4,	/* label: centred above its point */
	MS_RIGHT = 1 << 5,	/* label: left-aligned right of its point */
	MS_BOLD = 1 << 6,	/* label: in the category's colour rather than ink */
	MS_NOLINE = 1 << 7,	/* line: markers only, not joined */
	MS_BELOW = 1 << 8,	/* hline: its text under the line */
	MS_HOLLOW = 1 << 9,	/* markers: an outline, not filled (a point that is not measured) */
	/* a warm-up strip per run, a p10-p90 band, hatched boxes (waiting, a failed request): */
	MS_STRIP = 1 << 10,	/* vspan: a strip along the plot's foot, row y0 from 0, not full height */
	MS_BAND = 1 << 11,	/* rect: translucent, under the lines (a p10-p90 band) */
	MS_HATCHED = 1 << 12,	/* rect, legend box: lighter, with diagonal lines (waiting for a peer) */
};

#define STRIP_H 5.0		/* an MS_STRIP row's height, canvas units */

struct mark {
	enum mark_kind kind;
	enum category cat;
	unsigned style;		/* enum mark_style */
	double x0, y0, x1, y1;
	size_t first, npts;	/* MARK_LINE */
	const char *text;	/* label, or a line's name; NULL */
	/* set by chart_finish's label placer, which keeps texts apart: for a label's, hline's or vspan's text: */
	struct rect box;	/* where the text is drawn, canvas units; w == 0: not drawn */
	struct point anchor;	/* the point of the mark the text names */
	bool leader;		/* moved away from its mark: a thin line joins box and anchor */
	bool in_legend;		/* no room near its mark: the text is a legend entry instead */
};

struct panel {
	const char *title;	/* above the plot; NULL */
	struct rect area;	/* canvas units, set by chart_finish: the panel with its axes */
	struct rect plot;	/* the data area inside it */
	struct axis x, y;
	struct mark *marks;
	size_t nmarks, cap_marks;
	struct point *pts;
	size_t npts, cap_pts;
	struct rect title_box;	/* the title's text, set by chart_finish: labels keep off it */
};

struct legend_entry {
	enum category cat;
	unsigned style;		/* MS_LIGHT, MS_DASHED: as the marks it stands for */
	bool line;		/* a line swatch rather than a box */
	const char *label;
	struct rect swatch;	/* set by chart_finish */
	struct point text;	/* top-left of the label */
	struct rect box;	/* swatch and label together, set by chart_finish: labels keep off it */
};

struct chart_layout {
	const char *id;		/* "01-step-time": the file names */
	const char *title;
	const char *subtitle;	/* what is shown, in one line; NULL */
	const char *note;	/* a call-out under the subtitle (imbalance); NULL */
	double width, height;	/* canvas units */
	struct point title_at, subtitle_at, note_at;
	struct legend_entry legend[LEGEND_MAX];
	int nlegend;
	struct panel panel[PANELS_MAX];
	int npanels;
	struct arena arena;	/* strings */
	struct rect title_box, subtitle_box, note_box;	/* set by chart_finish: labels keep off them */
	/* a warning band under the title while a blocking confound stands, so that a chart
	   of runs that cannot be compared never reads as a result; NULL none */
	const char *banner;
	struct rect banner_box;	/* set by chart_finish: the band; its text inset by BANNER_PAD */
	/* charts whose point depends on the data (04, 05, 08) say what to look at in it */
	const char *caption;	/* what to look at, written from the data; NULL: chart_defs' caption */
};

#define BANNER_PAD 4.0		/* the banner's text inside its band */

void chart_init(struct chart_layout *c, const char *id, const char *title);
void chart_layout_release(struct chart_layout *c);
const char *chart_strf(struct chart_layout *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));	/* a string owned by c */

struct panel *chart_add_panel(struct chart_layout *c, const char *xlabel, const char *ylabel);
void chart_add_legend(struct chart_layout *c, enum category cat, unsigned style, bool line,
		      const char *label);
size_t axis_add_cat(struct axis *a, const char *label);	/* returns its index */

struct mark *panel_rect(struct panel *p, enum category cat, double x0, double y0, double x1, double y1);
struct mark *panel_hline(struct panel *p, enum category cat, unsigned style, double y, const char *text);
struct mark *panel_vspan(struct panel *p, enum category cat, double x0, double x1, const char *text);
struct mark *panel_label(struct panel *p, enum category cat, unsigned style, double x, double y,
			 const char *text);
/* Starts a polyline; panel_point() adds points to the panel's latest line. */
struct mark *panel_line(struct panel *p, enum category cat, unsigned style, const char *name);
void panel_point(struct panel *p, double x, double y);

/*
 * Computes the axes' ranges and ticks, measures text and places every box.
 * Texts of marks are placed in mark order, each at the first free spot of
 * its candidates (its usual spot first, then the other sides of its mark,
 * then stacked away with a leader): free means inside the plot (or up to
 * 20 units above it), clear of every other text box by a unit, and off
 * every line, marker and bar. With no free spot the text takes a spot clear
 * of other texts that crosses the fewest marks; with none at all it becomes
 * a legend entry (up to LEGEND_MAX) and the chart is laid out again.
 */
void chart_finish(struct chart_layout *c);

/*
 * Computes the axes and the boxes around the plots but places no mark's text:
 * for a build function that positions marks from the finished scale before
 * chart_finish places the texts.
 */
void chart_frame(struct chart_layout *c);

/* Canvas coordinates of data values in a finished panel. */
double panel_px(const struct panel *p, double x);
double panel_py(const struct panel *p, double y);

/*
 * Appends the layout as "key = value" lines, for tests: ranges, ticks, marks,
 * then every text box as "box.N = x y w h what \"text\"" (what: title,
 * subtitle, note, legend.I, panel.P.title, panel.P.mark.K; a moved text adds
 * " leader"). Returns 0; -1 if out grew past its ceiling.
 */
int chart_layout_dump(const struct chart_layout *c, struct buf *out);

#endif
