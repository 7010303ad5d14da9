/*
 * draw: paints a finished chart_layout with cairo, and writes it to a file
 * through one of the surfaces of a table (PNG at 2.5x, SVG, PDF page). It
 * decides nothing about placement: everything comes from the layout.
 */
#ifndef RENDER_DRAW_H
#define RENDER_DRAW_H

#include <cairo.h>
#include <stdio.h>

#include "render/layout.h"

struct surface_kind {
	const char *ext;	/* "png" */
	double scale;		/* device units per canvas unit */
	/* Makes a surface of w x h canvas units that writes to f (PNG: written at the end). */
	cairo_surface_t *(*create)(FILE *f, double w, double h);
	/* Finishes s, writing what is left to f; returns a cairo status. */
	cairo_status_t (*finish)(cairo_surface_t *s, FILE *f);
};

extern const struct surface_kind surface_kinds[];
extern const size_t surface_nkinds;

/* Paints c at the current transformation of cr (canvas units). */
void chart_draw(cairo_t *cr, const struct chart_layout *c);

/* Writes c to f as kind k. Returns 0, or -1 when cairo or the write failed. */
int chart_write(const struct chart_layout *c, const struct surface_kind *k, FILE *f);

/* The PDF creation date: from SOURCE_DATE_EPOCH, else 1970-01-01, so output is reproducible. */
void pdf_set_date(cairo_surface_t *s);

/* A cairo write callback writing to the FILE * in closure. */
cairo_status_t file_write(void *closure, const unsigned char *data, unsigned int len);

#endif
