#include "render/batch_index.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/money.h"
#include "core/qty.h"
#include "core/utf8.h"
#include "core/xalloc.h"
#include "render/batch_charts.h"
#include "render/html.h"
#include "render/report.h"

/* One column of the table: its heading and how a row shows it. */
struct column {
	const char *head;
	const char *(*text)(const struct trial_row *t, char *buf, size_t size);
	double (*num)(const struct trial_row *t);	/* sorts by this when not NULL */
	bool prose;	/* a sentence: a column wide enough to read it on a phone, which scrolls */
};

static const char *c_status(const struct trial_row *t, char *b, size_t n) { return t->status; }
static const char *c_gpu(const struct trial_row *t, char *b, size_t n) { return t->gpu_model; }
static const char *c_prec(const struct trial_row *t, char *b, size_t n) { return t->precision; }
static const char *c_verdict(const struct trial_row *t, char *b, size_t n) { return t->verdict; }
static const char *c_conf(const struct trial_row *t, char *b, size_t n) { return t->confounds; }
static const char *c_decision(const struct trial_row *t, char *b, size_t n) { return t->decision; }
static double n_speedup(const struct trial_row *t) { return t->speedup; }
static double n_eff(const struct trial_row *t) { return t->efficiency; }

/* The reason of the verdict, or why the trial failed. */
static const char *c_reason(const struct trial_row *t, char *b, size_t n)
{
	return t->error && !strcmp(t->status, "error") ? t->error : t->reason;
}

static const char *c_speedup(const struct trial_row *t, char *b, size_t n)
{
	if (!isfinite(t->speedup))
		return NULL;
	if (n < MONEY_LEN)
		return NULL;
	return ratio_text(b, t->speedup);	/* as analyze and the report print a speedup */
}

static const char *c_eff(const struct trial_row *t, char *b, size_t n)
{
	if (!isfinite(t->efficiency))
		return NULL;
	if (n < QTY_LEN)
		return NULL;
	return qty_percent(b, t->efficiency);
}

static const struct column columns[] = {
	{ "status", c_status, NULL, false },
	{ "GPU", c_gpu, NULL, false },
	{ "precision", c_prec, NULL, false },
	{ "verdict", c_verdict, NULL, false },
	{ "decision", c_decision, NULL, true },
	{ "speedup", c_speedup, n_speedup, false },
	{ "efficiency", c_eff, n_eff, false },
	{ "confounds", c_conf, NULL, false },
	{ "reason", c_reason, NULL, true },
};
#define NCOLUMNS (sizeof(columns) / sizeof(columns[0]))

static size_t count_status(const struct trial_row *rows, size_t n, const char *status)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += rows[i].status && !strcmp(rows[i].status, status);
	return k;
}

/* ---------------------------------------------------------------- Markdown */

/*
 * Text in a Markdown table cell: | and line breaks would end it. Invalid UTF-8 is written as
 * U+FFFD and control characters, a line break included, as \xNN (core/utf8).
 */
static void md_cell(FILE *f, const char *s)
{
	struct buf t;

	buf_init(&t, 0);
	if (s)
		utf8_escape(s, strlen(s), UTF8_CONTROLS | UTF8_ONE_LINE, &t);
	fputs(" ", f);
	for (const char *p = t.data; *p; p++) {
		if (*p == '|')
			fputs("\\|", f);
		else
			fputc(*p, f);
	}
	fputs(s ? " |" : "- |", f);
	buf_release(&t);
}

int batch_index_md(const struct trial_row *rows, size_t n, FILE *f)
{
	char b[64];

	fprintf(f, "# Batch: %zu trials, %zu analysed, %zu failed\n\n", n,
		count_status(rows, n, "ok"), count_status(rows, n, "error"));
	fputs("| trial |", f);
	for (size_t c = 0; c < NCOLUMNS; c++)
		fprintf(f, " %s |", columns[c].head);
	fputs("\n|---|", f);
	for (size_t c = 0; c < NCOLUMNS; c++)
		fputs("---|", f);
	fputc('\n', f);
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(rows[i].status, "ok"))
			fprintf(f, "| [%s](%s/summary.md) |", rows[i].id, rows[i].id);
		else
			fprintf(f, "| %s |", rows[i].id);
		for (size_t c = 0; c < NCOLUMNS; c++)
			md_cell(f, columns[c].text(&rows[i], b, sizeof(b)));
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

/* ---------------------------------------------------------------- HTML */

static const char css[] =
	"body{margin:0;color:#212121;font:15px/1.4 \"DejaVu Sans\",sans-serif}\n"
	"main{max-width:80rem;margin:0 auto;padding:1rem}\n"
	".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(26rem,100%),1fr));gap:1rem}\n"
	".charts svg{display:block;width:100%;height:auto}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse}\n"
	"th{cursor:pointer;text-align:left;background:#f3f3f3}\n"
	"th,td{padding:.2em .5em;border-bottom:1px solid #ddd;vertical-align:top}\n"
	"td.n{text-align:right;white-space:nowrap}\n"
	"td.p{min-width:16rem}\n"
	"tr.error td{background:#fff3f3}\n"
	/* a phone: each trial a card of `heading: value` lines, its decision and reason whole */
	"@media (max-width:40rem){thead{display:none}table,tbody,tr,td{display:block}"
	"tr{padding:.4em 0;border-bottom:2px solid #bbb}td{border:0;padding:.1em 0;overflow-wrap:anywhere}"
	"td.n{text-align:left}td.p{min-width:0}td[data-h]::before{content:attr(data-h) \": \";color:#616161}}\n";

/* Sorts the table by the clicked column: by data-v where cells have it, else by text; again reverses. */
static const char script[] =
	"document.querySelectorAll('th').forEach(function(th,col){th.onclick=function(){"
	"var tb=th.closest('table').tBodies[0],rows=Array.from(tb.rows),"
	"dir=th.dataset.dir==='1'?-1:1;th.dataset.dir=dir===1?'1':'0';"
	"function key(r){var c=r.cells[col],v=c.dataset.v;return v!==undefined?parseFloat(v):c.textContent;}"
	"rows.sort(function(a,b){var x=key(a),y=key(b);"
	"if(typeof x==='number'&&typeof y==='number')return (x-y)*dir;"
	"return String(x).localeCompare(String(y))*dir;});"
	"rows.forEach(function(r){tb.appendChild(r);});};});\n";

static void html_cell(struct buf *h, const struct column *c, const struct trial_row *t)
{
	char b[64];
	const char *s = c->text(t, b, sizeof(b));
	double v = c->num ? c->num(t) : NAN;

	if (c->num)
		buf_addf(h, "<td class=\"n\" data-v=\"%.17g\"", isfinite(v) ? v : -1.0);
	else
		buf_addstr(h, c->prose ? "<td class=\"p\"" : "<td");
	buf_addf(h, " data-h=\"%s\">", c->head);
	html_escape(h, s ? s : "-");
	buf_addstr(h, "</td>");
}

static void html_row(struct buf *h, const struct trial_row *t)
{
	bool ok = !strcmp(t->status, "ok");

	buf_addstr(h, ok ? "<tr><td>" : "<tr class=\"error\"><td>");
	if (ok) {
		buf_addstr(h, "<a href=\"");
		html_escape(h, t->id);
		buf_addstr(h, "/report.html\">");
	}
	html_escape(h, t->id);
	buf_addstr(h, ok ? "</a></td>" : "</td>");
	for (size_t c = 0; c < NCOLUMNS; c++)
		html_cell(h, &columns[c], t);
	buf_addstr(h, "</tr>\n");
}

static int html_charts(struct buf *h, const struct chart_layout *charts, size_t n)
{
	if (!n)
		return 0;
	buf_addstr(h, "<div class=\"charts\">\n");
	for (size_t i = 0; i < n; i++)
		if (html_inline_svg(h, &charts[i], i + 1) < 0)
			return -1;
	buf_addstr(h, "</div>\n");
	return 0;
}

int batch_index_html(const struct trial_row *rows, size_t n, const struct chart_layout *charts,
		     size_t ncharts, FILE *f)
{
	struct buf h = BUF_INIT;
	int rc = 0;

	buf_init(&h, 0);
	buf_addf(&h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		 "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
		 "<title>scaleaudit batch: %zu trials</title>\n<style>\n%s</style>\n</head>\n"
		 "<body>\n<main>\n<h1>%zu trials: %zu analysed, %zu failed</h1>\n",
		 n, css, n, count_status(rows, n, "ok"), count_status(rows, n, "error"));
	if (html_charts(&h, charts, ncharts) < 0)
		rc = -1;
	buf_addstr(&h, "<div class=\"scroll\"><table>\n<thead><tr><th>trial</th>");
	for (size_t c = 0; c < NCOLUMNS; c++)
		buf_addf(&h, "<th>%s</th>", columns[c].head);
	buf_addstr(&h, "</tr></thead>\n<tbody>\n");
	for (size_t i = 0; i < n; i++)
		html_row(&h, &rows[i]);
	buf_addf(&h, "</tbody>\n</table></div>\n</main>\n<script>\n%s</script>\n</body>\n</html>\n", script);
	if (rc == 0 && (fwrite(h.data, 1, h.len, f) != h.len || ferror(f)))
		rc = -1;
	buf_release(&h);
	return rc;
}

/* ---- the summary files ---- */

/* What the summary writers write. */
struct summaries {
	const struct trial_row *rows;
	size_t n;
	struct chart_layout *charts;
	size_t ncharts;
};

static int w_csv(FILE *f, void *ctx)
{
	const struct summaries *s = ctx;

	return results_write_csv(s->rows, s->n, f);
}

static int w_json(FILE *f, void *ctx)
{
	const struct summaries *s = ctx;

	return results_write_json(s->rows, s->n, f);
}

static int w_md(FILE *f, void *ctx)
{
	const struct summaries *s = ctx;

	return batch_index_md(s->rows, s->n, f);
}

static int w_html(FILE *f, void *ctx)
{
	const struct summaries *s = ctx;

	return batch_index_html(s->rows, s->n, s->charts, s->ncharts, f);
}

static const struct summary_file {
	const char *name;
	write_fn write;
} summary_files[] = {
	{ "summary.csv", w_csv }, { "summary.json", w_json }, { "index.md", w_md }, { "index.html", w_html },
};

int batch_index_write(const struct trial_row *rows, size_t n, const char *dir, struct diags *d)
{
	struct summaries s = { .rows = rows, .n = n };
	int rc = 0;

	s.ncharts = batch_charts(rows, n, &s.charts);
	for (size_t i = 0; rc == 0 && i < sizeof(summary_files) / sizeof(summary_files[0]); i++) {
		char *path = xasprintf("%s/%s", dir, summary_files[i].name);

		rc = write_atomic(path, summary_files[i].write, &s, d);
		free(path);
	}
	batch_charts_release(s.charts, s.ncharts);
	return rc;
}
