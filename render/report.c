#include "render/report.h"

#include <cairo-pdf.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/xalloc.h"
#include "render/charts.h"
#include "render/draw.h"
#include "render/html.h"
#include "render/page1.h"
#include "render/summary.h"
#include "render/text.h"

/* report.pdf pages: A4 landscape, in points. */
#define PAGE_W 842.0
#define PAGE_H 595.0
#define MARGIN 40.0
#define CHARTS_MAX 16

struct report {
	const struct analysis *a;
	struct diags *d;
	struct chart_layout charts[CHARTS_MAX];	/* the charts drawn, in order */
	const char *captions[CHARTS_MAX];
	size_t ncharts;
	struct left_out out[CHARTS_MAX];	/* the charts left out */
	size_t nout;
	struct summary sum;
	struct chart_layout headline;	/* page 1's chart */
	bool has_headline;
};

/* Creates dir and its missing parents, like mkdir -p. */
static int make_dirs(const char *dir, struct diags *d)
{
	char *p = xstrdup(dir), *s;
	int rc = 0;

	for (s = p + (*p == '/'); ; s++) {
		char c = *s;

		if (c != '/' && c != '\0')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) && errno != EEXIST) {
			rc = diag_error(d, "report-write", &SRCPOS_FILE(p), "cannot create directory: %s", strerror(errno));
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return rc;
}

int report_write_atomic(const char *path, report_write_fn fn, void *ctx, struct diags *d)
{
	char *tmp = xasprintf("%s.tmp", path);
	FILE *f = fopen(tmp, "wb");
	int rc = 0;

	if (!f) {
		rc = diag_error(d, "report-write", &SRCPOS_FILE(path), "cannot create: %s", strerror(errno));
		goto out;
	}
	errno = 0;
	rc = fn(f, ctx);
	if (fflush(f) || ferror(f))
		rc = -1;
	if (fclose(f))
		rc = -1;
	if (rc) {
		unlink(tmp);
		rc = diag_error(d, "report-write", &SRCPOS_FILE(path), "cannot write: %s",
				errno ? strerror(errno) : "the writer failed");
		goto out;
	}
	if (rename(tmp, path)) {
		unlink(tmp);
		rc = diag_error(d, "report-write", &SRCPOS_FILE(path), "cannot rename into place: %s",
				strerror(errno));
	}
out:
	free(tmp);
	return rc;
}

struct chart_file {
	const struct chart_layout *c;
	const struct surface_kind *k;
};

static int write_chart_file(FILE *f, void *ctx)
{
	const struct chart_file *cf = ctx;

	return chart_write(cf->c, cf->k, f);
}

static int write_chart(const char *dir, const struct chart_layout *c, struct diags *d)
{
	size_t k;
	int rc = 0;

	for (k = 0; k < surface_nkinds && !rc; k++) {
		struct chart_file cf = { c, &surface_kinds[k] };
		char *path = xasprintf("%s/charts/%s.%s", dir, c->id, surface_kinds[k].ext);

		errno = 0;
		rc = report_write_atomic(path, write_chart_file, &cf, d);
		free(path);
	}
	return rc;
}

/* Builds every chart: those with data are written and kept for report.pdf. */
static int build_charts(struct report *r, const char *dir)
{
	size_t i;

	for (i = 0; i < chart_ndefs && i < CHARTS_MAX; i++) {
		struct chart_layout *c = &r->charts[r->ncharts];
		const char *why;

		int rc = chart_build(i, r->a, c, &why);

		if (rc) {
			if (rc == 1)	/* 2: the chart does not apply to this trial's question */
				r->out[r->nout++] = (struct left_out){ chart_defs[i].id, why };
			chart_layout_release(c);
			continue;
		}
		r->captions[r->ncharts++] = c->caption ? c->caption : chart_defs[i].caption;
		if (write_chart(dir, c, r->d))
			return -1;
	}
	return 0;
}

static void draw_chart_page(cairo_t *cr, const struct chart_layout *c, const char *caption)
{
	double scale = (PAGE_W - 2 * MARGIN) / c->width;

	cairo_save(cr);
	cairo_translate(cr, MARGIN, MARGIN - 8);
	cairo_scale(cr, scale, scale);
	chart_draw(cr, c);
	cairo_restore(cr);
	text_draw(cr, FONT_CAPTION, caption, MARGIN, MARGIN - 8 + c->height * scale + 10, 0, 0, 0,
		  PAGE_W - 2 * MARGIN, category_style(CAT_INK)->c);
	cairo_show_page(cr);
}

static int write_pdf(FILE *f, void *ctx)
{
	const struct report *r = ctx;
	cairo_surface_t *s = cairo_pdf_surface_create_for_stream(file_write, f, PAGE_W, PAGE_H);
	cairo_t *cr;
	cairo_status_t st;
	size_t i;

	pdf_set_date(s);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, r->a->title ? r->a->title : "Scaling trial");
	cr = cairo_create(s);
	summary_pages_draw(cr, &r->sum, r->has_headline ? &r->headline : NULL,
			   &(struct page_geom){ PAGE_W, PAGE_H, MARGIN });
	for (i = 0; i < r->ncharts; i++)
		draw_chart_page(cr, &r->charts[i], r->captions[i]);
	st = cairo_status(cr);
	cairo_destroy(cr);
	cairo_surface_finish(s);
	if (st == CAIRO_STATUS_SUCCESS)
		st = cairo_surface_status(s);
	cairo_surface_destroy(s);
	return st == CAIRO_STATUS_SUCCESS ? 0 : -1;
}

static int write_markdown(FILE *f, void *ctx)
{
	const struct report *r = ctx;
	const char *ids[CHARTS_MAX], *titles[CHARTS_MAX];
	struct buf b;
	size_t i;
	int rc;

	for (i = 0; i < r->ncharts; i++) {
		ids[i] = r->charts[i].id;
		titles[i] = r->charts[i].title;
	}
	buf_init(&b, 0);
	summary_markdown(&r->sum, ids, titles, r->captions, r->ncharts, &b);
	rc = fwrite(b.data, 1, b.len, f) == b.len ? 0 : -1;
	buf_release(&b);
	return rc;
}

static int write_html(FILE *f, void *ctx)
{
	const struct report *r = ctx;
	struct buf b;
	int rc;

	buf_init(&b, 0);
	rc = html_report(r->a, r->charts, r->captions, r->ncharts, r->out, r->nout, &b);
	if (!rc && fwrite(b.data, 1, b.len, f) != b.len)
		rc = -1;
	buf_release(&b);
	return rc;
}

int report_write(const struct analysis *a, const char *dir, struct diags *d)
{
	struct report *r;
	char *charts, *pdf, *md, *html;
	size_t i;
	int rc;

	if (!dir || !*dir)
		return diag_error(d, "report-write", &SRCPOS_NONE, "no output directory given");
	r = xcalloc(1, sizeof(*r));
	charts = xasprintf("%s/charts", dir);
	pdf = xasprintf("%s/report.pdf", dir);
	md = xasprintf("%s/summary.md", dir);
	html = xasprintf("%s/report.html", dir);
	r->a = a;
	r->d = d;
	rc = make_dirs(charts, d);
	if (!rc)
		rc = build_charts(r, dir);
	summary_build(&r->sum, a, r->out, r->nout);
	r->has_headline = !page1_chart(a, &r->headline);
	if (!rc)
		rc = report_write_atomic(pdf, write_pdf, r, d);
	if (!rc)
		rc = report_write_atomic(md, write_markdown, r, d);
	if (!rc)
		rc = report_write_atomic(html, write_html, r, d);
	summary_release(&r->sum);
	if (r->has_headline)
		chart_layout_release(&r->headline);
	for (i = 0; i < r->ncharts; i++)
		chart_layout_release(&r->charts[i]);
	free(charts);
	free(pdf);
	free(md);
	free(html);
	free(r);
	return rc;
}
