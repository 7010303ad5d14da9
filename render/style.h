/*
 * style: what every chart shares, as const tables: one colour per category
 * (Okabe-Ito, safe for colour-blind readers) used the same way in every
 * chart, and one font per text role. Sizes are in canvas units (points on a
 * 640 x 400 canvas), chosen to stay readable when a chart is pasted at half
 * a page width.
 */
#ifndef RENDER_STYLE_H
#define RENDER_STYLE_H

enum category {
	CAT_COMPUTE,
	CAT_EXPOSED_COMM,
	CAT_MEMORY,
	CAT_IDLE,
	CAT_OVERLAPPED_COMM,
	CAT_BASELINE,
	CAT_CANDIDATE,
	CAT_OTHER_RUN,		/* a third run of a sweep */
	CAT_OTHER_RUN2,
	CAT_REFERENCE,		/* capacity and ceiling lines */
	CAT_WARMUP,		/* the warm-up shading */
	CAT_INK,		/* text, axes */
	CAT_GRID,
	CAT_WARNING,		/* the not-comparable banner */
	/* memory by category (04-memory, from a PyTorch memory timeline) */
	CAT_MEM_PARAMETER, CAT_MEM_GRADIENT, CAT_MEM_OPTIMIZER, CAT_MEM_ACTIVATION, CAT_MEM_OTHER,
	CAT_COUNT
};

struct colour {
	double r, g, b;
};

struct category_style {
	const char *name;	/* for layout dumps: "compute" */
	const char *label;	/* for legends: "exposed comm" */
	struct colour c;	/* fills and lines */
	struct colour text;	/* text and headings in the category's colour: 4.5:1 or more on white */
};

const struct category_style *category_style(enum category c);

enum font_role {
	FONT_TITLE, FONT_SUBTITLE, FONT_AXIS, FONT_TICK, FONT_LEGEND, FONT_NOTE,	/* charts */
	FONT_PAGE_TITLE, FONT_VERDICT, FONT_HEADING, FONT_BODY, FONT_CAPTION,	/* report pages */
	FONT_ROLES
};

struct font_style {
	const char *name;	/* for dumps: "title" */
	const char *family;	/* a fontconfig list: the first one present wins */
	double size;		/* canvas units */
	int bold;
};

const struct font_style *font_style(enum font_role r);

#define CANVAS_W 640.0
#define CANVAS_H 400.0

#endif
