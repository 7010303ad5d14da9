#include "render/report.h"

#include <cairo-pdf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/utf8.h"
#include "core/xalloc.h"
#include "render/analysis_json.h"
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
#define PDF_TITLE_MAX 200	/* characters of the title in the PDF's metadata */

struct report {
	const struct analysis *a;
	struct diags *d;
	struct chart_layout charts[CHARTS_MAX];	/* the charts drawn, in order */
	const char *captions[CHARTS_MAX];
	size_t ncharts;
	struct left_out out[CHARTS_MAX];	/* the charts left out */
	char *out_why[CHARTS_MAX];	/* their reasons, copied out of the released layouts */
	size_t nout;
	struct summary sum;
	struct chart_layout headline;	/* page 1's chart */
	bool has_headline;
};

int write_atomic(const char *path, write_fn fn, void *ctx, struct diags *d)
{
	return write_atomic_as("report-write", path, fn, ctx, d);
}

/* A report registers its staging directory, charts/ and each file it stages at once. */
_Static_assert(4 * CHARTS_MAX + 8 <= OUTFILE_SLOTS, "a report's temporary paths fit the registry");

/* write_atomic into the staging directory, the file then registered for removal on a signal. */
static int stage_file(const char *path, write_fn fn, void *ctx, struct diags *d)
{
	int slot = outfile_register(path, OUTFILE_FILE);	/* before it exists: no moment unregistered */

	if (!write_atomic(path, fn, ctx, d))
		return 0;
	outfile_release(slot);
	return -1;
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
		rc = stage_file(path, write_chart_file, &cf, d);
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
			if (rc == 1) {	/* 2: the chart does not apply to this trial's question */
				r->out_why[r->nout] = xstrdup(why);
				r->out[r->nout] = (struct left_out){ chart_defs[i].id, r->out_why[r->nout] };
				r->nout++;
			}
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
	struct buf title;
	const char *t = r->a->title ? r->a->title : "Scaling trial";

	pdf_set_date(s);
	buf_init(&title, 0);	/* cairo refuses invalid UTF-8: the whole PDF would fail */
	utf8_cut(t, strlen(t), UTF8_CONTROLS | UTF8_ONE_LINE, PDF_TITLE_MAX, &title);
	cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_TITLE, title.data);
	buf_release(&title);
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
	const char *ids[CHARTS_MAX + 1], *titles[CHARTS_MAX + 1], *captions[CHARTS_MAX + 1];
	struct buf b;
	size_t i, n = 0;
	int rc;

	if (r->has_headline) {	/* page 1's chart first, as its number says */
		ids[n] = r->headline.id;
		titles[n] = r->headline.title;
		captions[n++] = r->headline.caption;
	}
	for (i = 0; i < r->ncharts; i++, n++) {
		ids[n] = r->charts[i].id;
		titles[n] = r->charts[i].title;
		captions[n] = r->captions[i];
	}
	buf_init(&b, 0);
	summary_markdown(&r->sum, ids, titles, captions, n, &b);
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
	rc = html_report(r->a, r->has_headline ? &r->headline : NULL, r->charts, r->captions, r->ncharts, r->out,
			 r->nout, &b);
	if (!rc && fwrite(b.data, 1, b.len, f) != b.len)
		rc = -1;
	buf_release(&b);
	return rc;
}

static int write_json(FILE *f, void *ctx)
{
	const struct report *r = ctx;

	return analysis_write_json(r->a, f) < 0 ? -1 : 0;
}

/* What a report puts in its directory; publish swaps each in from the staging directory. */
static const char *const report_entries[] = {
	"charts", "report.pdf", "summary.md", "report.html", "analysis.json",
};
#define NENTRIES (sizeof(report_entries) / sizeof(report_entries[0]))

/*
 * Creates dir and takes its lock: returns the locked descriptor of dir, or -1
 * after a diagnostic (another report holds it, or dir/charts is not a directory).
 */
static int lock_dir(const char *dir, struct diags *d)
{
	char *charts = xasprintf("%s/charts", dir);
	struct stat st;
	int fd = -1;

	if (make_dirs_as("report-write", dir, d))
		goto out;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		diag_error(d, "report-write", &SRCPOS_FILE(dir), "cannot open directory: %s", strerror(errno));
	} else if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			diag_error(d, "report-write", &SRCPOS_NONE, "another report is being written to %s", dir);
		else
			diag_error(d, "report-write", &SRCPOS_FILE(dir), "cannot lock: %s", strerror(errno));
	} else if (!lstat(charts, &st) && !S_ISDIR(st.st_mode)) {
		diag_error(d, "report-write", &SRCPOS_FILE(charts),
			   "not a directory (a symbolic link is not followed): nothing written");
	} else {
		goto out;
	}
	if (fd >= 0)
		close(fd);
	fd = -1;
out:
	free(charts);
	return fd;
}

/* Swaps from and to (either may be absent); what was at to is left at from. */
static int swap_in(const char *from, const char *to)
{
	char *old;
	int rc;

	if (!renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_EXCHANGE))
		return 0;
	if (errno == ENOENT)
		return rename(from, to);
	if (errno != EINVAL && errno != ENOSYS)
		return -1;
	old = xasprintf("%s.old", from);	/* a file system without the exchange: two renames */
	rc = (rename(to, old) && errno != ENOENT) || rename(from, to) ? -1 : 0;
	free(old);
	return rc;
}

/* Swaps every entry of the report from stage into dir, charts/ first; the old ones stay in stage. */
static int publish(const char *stage, const char *dir, struct diags *d)
{
	int rc = 0;

	for (size_t i = 0; i < NENTRIES && !rc; i++) {
		char *from = xasprintf("%s/%s", stage, report_entries[i]);
		char *to = xasprintf("%s/%s", dir, report_entries[i]);

		if (swap_in(from, to))
			rc = diag_error(d, "report-write", &SRCPOS_FILE(to), "cannot rename into place: %s",
					strerror(errno));
		else if (i + 1 == NENTRIES)
			outfile_sync_dir_of(to);
		free(from);
		free(to);
	}
	return rc;
}

/* Removes the staging directory with what is left in it (the old report), and forgets it. */
static void remove_stage(char *stage)
{
	outfile_remove_tree(stage);
	outfile_release_all();
	free(stage);
}

/*
 * Under the lock: removes the staging directories a report killed past its
 * signal handlers (SIGKILL) left, and marks dir as a report's, so that a
 * report written inside a trial is never read as one of its runs.
 */
static void mark_dir(const char *dir)
{
	outfile_remove_temp_dirs(dir, ".report.tmp");
	/* where it cannot be written, neither can the report, which says why; its three files still tell */
	(void)output_mark(dir, OUTPUT_MARK_REPORT);
}

/* Creates the staging directory dir/.report.tmpXXXXXX and its charts/; returns it, or NULL. */
static char *make_stage(const char *dir, struct diags *d)
{
	char *stage = xasprintf("%s/.report.tmpXXXXXX", dir), *charts;
	sigset_t old;
	bool made;

	outfile_block_signals(&old);	/* no moment between creating it and registering it */
	made = mkdtemp(stage) != NULL;
	if (made)
		outfile_register(stage, OUTFILE_DIR);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (!made) {
		diag_error(d, "report-write", &SRCPOS_FILE(dir), "cannot create a directory in it: %s", strerror(errno));
		free(stage);
		return NULL;
	}
	charts = xasprintf("%s/charts", stage);
	outfile_register(charts, OUTFILE_DIR);	/* before it exists: no moment unregistered */
	if (mkdir(charts, 0777)) {
		diag_error(d, "report-write", &SRCPOS_FILE(charts), "cannot create directory: %s", strerror(errno));
		remove_stage(stage);
		stage = NULL;
	}
	free(charts);
	return stage;
}

int report_write(const struct analysis *a, const char *dir, struct diags *d)
{
	struct report *r;
	char *stage = NULL, *pdf = NULL, *md = NULL, *html = NULL, *json = NULL;
	size_t i;
	int rc = -1, lock;

	if (!dir || !*dir)
		return diag_error(d, "report-write", &SRCPOS_NONE, "no output directory given");
	r = xcalloc(1, sizeof(*r));
	r->a = a;
	r->d = d;
	lock = lock_dir(dir, d);
	if (lock >= 0)
		mark_dir(dir);
	if (lock >= 0 && (stage = make_stage(dir, d))) {
		pdf = xasprintf("%s/report.pdf", stage);
		md = xasprintf("%s/summary.md", stage);
		html = xasprintf("%s/report.html", stage);
		json = xasprintf("%s/analysis.json", stage);
		rc = build_charts(r, stage);
	}
	summary_build(&r->sum, a, r->out, r->nout);
	r->has_headline = !page1_chart(a, &r->headline);
	if (!rc && r->has_headline)	/* written like the others, for summary.md and slides */
		rc = write_chart(stage, &r->headline, d);
	if (!rc)
		rc = stage_file(pdf, write_pdf, r, d);
	if (!rc)
		rc = stage_file(md, write_markdown, r, d);
	if (!rc)
		rc = stage_file(html, write_html, r, d);
	if (!rc)
		rc = stage_file(json, write_json, r, d);
	if (!rc)
		rc = publish(stage, dir, d);
	if (stage)
		remove_stage(stage);
	if (lock >= 0)
		close(lock);	/* releases the lock */
	summary_release(&r->sum);
	if (r->has_headline)
		chart_layout_release(&r->headline);
	for (i = 0; i < r->ncharts; i++)
		chart_layout_release(&r->charts[i]);
	for (i = 0; i < r->nout; i++)
		free(r->out_why[i]);
	free(pdf);
	free(md);
	free(html);
	free(json);
	free(r);
	return rc;
}
