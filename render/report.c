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

/*
 * Temporary files being written, unlinked by on_signal when SIGINT or SIGTERM
 * ends the process mid-way. A slot is claimed and released by the writer only.
 */
#define TMP_SLOTS 4
static char tmp_slot[TMP_SLOTS][PATH_MAX];
static volatile sig_atomic_t tmp_used[TMP_SLOTS];
static const int tmp_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* Unlinks the registered temporary files (async-signal-safe calls only), then dies of sig. */
static void on_signal(int sig)
{
	for (int i = 0; i < TMP_SLOTS; i++)
		if (tmp_used[i])
			unlink(tmp_slot[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* Installs on_signal once, leaving alone a signal the caller ignores (nohup). */
static void install_handlers(void)
{
	static bool done;
	struct sigaction sa = { .sa_handler = on_signal }, old;

	if (done)
		return;
	done = true;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(tmp_signals) / sizeof(tmp_signals[0]); i++)
		if (!sigaction(tmp_signals[i], NULL, &old) && old.sa_handler != SIG_IGN)
			sigaction(tmp_signals[i], &sa, NULL);
}

/* Registers path for removal on a signal; returns its slot, or -1 when none is free. */
static int tmp_register(const char *path)
{
	install_handlers();
	for (int i = 0; i < TMP_SLOTS; i++) {
		if (tmp_used[i] || strlen(path) >= PATH_MAX)
			continue;
		memcpy(tmp_slot[i], path, strlen(path) + 1);
		tmp_used[i] = 1;
		return i;
	}
	return -1;
}

static void tmp_release(int slot)
{
	if (slot >= 0)
		tmp_used[slot] = 0;
}

/* Flushes the directory holding path to disk, so that a rename into it survives a crash. */
static void sync_dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xasprintf("%.*s", (int)(slash - path + (slash == path)), path) : xstrdup(".");
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		fsync(fd);	/* best effort: some file systems cannot sync a directory */
		close(fd);
	}
	free(dir);
}

/* Runs fn on the new file fd, then flushes it to disk; returns 0, or -1 with errno set. */
static int fill(int fd, write_fn fn, void *ctx)
{
	FILE *f = fdopen(fd, "wb");
	int rc;

	if (!f) {
		close(fd);
		return -1;
	}
	errno = 0;
	rc = fn(f, ctx);
	if (fflush(f) || ferror(f) || fsync(fileno(f)))
		rc = -1;
	if (fclose(f))
		rc = -1;
	return rc;
}

int write_atomic_as(const char *code, const char *path, write_fn fn, void *ctx, struct diags *d)
{
	char *tmp = xasprintf("%s.tmpXXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC), slot, rc = 0;

	if (fd < 0) {
		rc = diag_error(d, code, &SRCPOS_FILE(path), "cannot create: %s", strerror(errno));
		goto out;
	}
	slot = tmp_register(tmp);
	if (fchmod(fd, 0644) || fill(fd, fn, ctx)) {
		rc = diag_error(d, code, &SRCPOS_FILE(path), "cannot write: %s",
				errno ? strerror(errno) : "the renderer failed");
	} else if (rename(tmp, path)) {
		rc = diag_error(d, code, &SRCPOS_FILE(path), "cannot rename into place: %s", strerror(errno));
	} else {
		tmp_release(slot);
		sync_dir_of(path);
		goto out;
	}
	unlink(tmp);
	tmp_release(slot);
out:
	free(tmp);
	return rc;
}

int write_atomic(const char *path, write_fn fn, void *ctx, struct diags *d)
{
	return write_atomic_as("report-write", path, fn, ctx, d);
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
		rc = write_atomic(path, write_chart_file, &cf, d);
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

static int write_json(FILE *f, void *ctx)
{
	const struct report *r = ctx;

	return analysis_write_json(r->a, f) < 0 ? -1 : 0;
}

/*
 * Creates dir/charts and takes dir's lock: returns the locked descriptor of dir,
 * or -1 after a diagnostic (another report holds it, or charts is a link).
 */
static int lock_dir(const char *dir, const char *charts, struct diags *d)
{
	struct stat st;
	int fd;

	if (make_dirs(charts, d))
		return -1;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return diag_error(d, "report-write", &SRCPOS_FILE(dir), "cannot open directory: %s", strerror(errno));
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno == EWOULDBLOCK)
			diag_error(d, "report-write", &SRCPOS_NONE, "another report is being written to %s", dir);
		else
			diag_error(d, "report-write", &SRCPOS_FILE(dir), "cannot lock: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (lstat(charts, &st) || !S_ISDIR(st.st_mode)) {
		diag_error(d, "report-write", &SRCPOS_FILE(charts),
			   "not a directory (a symbolic link, not followed): nothing written");
		close(fd);
		return -1;
	}
	return fd;
}

int report_write(const struct analysis *a, const char *dir, struct diags *d)
{
	struct report *r;
	char *charts, *pdf, *md, *html, *json;
	size_t i;
	int rc, lock;

	if (!dir || !*dir)
		return diag_error(d, "report-write", &SRCPOS_NONE, "no output directory given");
	r = xcalloc(1, sizeof(*r));
	charts = xasprintf("%s/charts", dir);
	pdf = xasprintf("%s/report.pdf", dir);
	md = xasprintf("%s/summary.md", dir);
	html = xasprintf("%s/report.html", dir);
	json = xasprintf("%s/analysis.json", dir);
	r->a = a;
	r->d = d;
	lock = lock_dir(dir, charts, d);
	rc = lock < 0 ? -1 : 0;
	if (!rc)
		rc = build_charts(r, dir);
	summary_build(&r->sum, a, r->out, r->nout);
	r->has_headline = !page1_chart(a, &r->headline);
	if (!rc)
		rc = write_atomic(pdf, write_pdf, r, d);
	if (!rc)
		rc = write_atomic(md, write_markdown, r, d);
	if (!rc)
		rc = write_atomic(html, write_html, r, d);
	if (!rc)
		rc = write_atomic(json, write_json, r, d);
	if (lock >= 0)
		close(lock);	/* releases the lock */
	summary_release(&r->sum);
	if (r->has_headline)
		chart_layout_release(&r->headline);
	for (i = 0; i < r->ncharts; i++)
		chart_layout_release(&r->charts[i]);
	free(charts);
	free(pdf);
	free(md);
	free(html);
	free(json);
	free(r);
	return rc;
}
