#include "render/html.h"

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "render/draw.h"

/*
 * Readable on a phone: one column, a table wider than the screen scrolls in
 * its box, a chart never drawn below its natural size (one canvas unit a CSS
 * pixel, its smallest text about 11 px) but scrolled sideways in its box. On
 * a desktop a table's cells wrap so that the table fits the column. One chart
 * a printed page; page 1's chart stays on the summary's page.
 */
static const char css[] =
	"*{box-sizing:border-box}\n"
	"body{margin:0;background:#fff;color:#212121;font:16px/1.45 \"DejaVu Sans\",sans-serif}\n"
	"main{max-width:60rem;margin:0 auto;padding:1rem}\n"
	"p,li,h1,h2{overflow-wrap:anywhere}\n"
	"p{margin:.3em 0}\n"
	".title{font-size:1.25em;font-weight:bold;margin:0}\n"
	".meta{color:#555;margin:.1em 0}\n"
	"h1{font-size:1.45em;margin:.5em 0 .2em}\n"
	".answer{font-size:1.3em;font-weight:bold;margin:.5em 0 .2em}\n"
	".reason{font-size:.95em}\n"
	".lead{font-weight:bold}\n"
	".decision{font-size:1.15em;font-weight:bold;margin:.5em 0 .2em}\n"
	".weak{font-weight:bold}\n"
	"h2{font-size:1.2em;margin:1.2em 0 .3em}\n"
	"ul{margin:.2em 0;padding-left:1.4em}\n"
	".scroll{overflow-x:auto}\n"
	"table{border-collapse:collapse;font-size:.9em}\n"
	"th,td{padding:.2em .5em;border-bottom:1px solid #ddd;text-align:left;vertical-align:top}\n"
	".fig svg{display:block;width:100%;height:auto}\n"
	".headline{max-width:40rem;margin:.6em 0}\n"
	".caption{font-size:.9em;color:#444}\n"
	"@media print{main{max-width:none;padding:0}.chart{break-before:page;page-break-before:always;"
	"break-inside:avoid}}\n";

/* How a summary line is written; consecutive lines of one group (a list) share its container. */
struct group {
	const char *open, *close;
};

static const struct group list = { "<ul>\n", "</ul>\n" };
static const struct group table = { "<div class=\"scroll\"><table>\n", "</table></div>\n" };

struct tag {
	const char *open, *close;
	const struct group *group;	/* NULL: none */
	const char *sep;		/* between a table line's cells */
};

static struct tag line_tag(enum sline_kind k)
{
	switch (k) {
	case SL_TITLE:
		return (struct tag){ "<p class=\"title\">", "</p>", NULL, NULL };
	case SL_META:
		return (struct tag){ "<p class=\"meta\">", "</p>", NULL, NULL };
	case SL_VERDICT:
		return (struct tag){ "<h1 class=\"verdict\">", "</h1>", NULL, NULL };
	case SL_REASON:
		return (struct tag){ "<p class=\"reason\">", "</p>", NULL, NULL };
	case SL_HEADING:
		return (struct tag){ "<h2>", "</h2>", NULL, NULL };
	case SL_ITEM:
		return (struct tag){ "<li>", "</li>", &list, NULL };
	case SL_TEXT:
		return (struct tag){ "<p>", "</p>", NULL, NULL };
	case SL_ANSWER:
		return (struct tag){ "<p class=\"answer\">", "</p>", NULL, NULL };
	case SL_LEAD:
		return (struct tag){ "<p class=\"lead\">", "</p>", NULL, NULL };
	case SL_TABLE_HEAD:
		return (struct tag){ "<tr><th>", "</th></tr>", &table, "</th><th>" };
	case SL_TABLE_ROW:
		return (struct tag){ "<tr><td>", "</td></tr>", &table, "</td><td>" };
	case SL_WEAK:
		return (struct tag){ "<p class=\"weak\">", "</p>", NULL, NULL };
	case SL_DECISION:
		return (struct tag){ "<p class=\"decision\">", "</p>", NULL, NULL };
	default:	/* a kind this file does not know yet: its text as a paragraph */
		return (struct tag){ "<p>", "</p>", NULL, NULL };
	}
}

void html_escape(struct buf *out, const char *text)
{
	static const char *const entities[256] = {
		['&'] = "&amp;", ['<'] = "&lt;", ['>'] = "&gt;", ['"'] = "&quot;", ['\''] = "&#39;",
	};

	struct buf t;

	buf_init(&t, 0);
	utf8_escape(text, strlen(text), UTF8_CONTROLS, &t);
	for (const char *p = t.data; *p; p++) {
		const char *e = entities[(unsigned char)*p];

		if (e)
			buf_addstr(out, e);
		else
			buf_addch(out, *p);
	}
	buf_release(&t);
}

static void head(struct buf *h, const char *title, enum verdict v)
{
	struct colour c = category_style(summary_verdict_category(v))->text;
	struct colour w = category_style(summary_verdict_category(VERDICT_INCONCLUSIVE))->text;	/* as page 1 */

	buf_addstr(h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
	html_escape(h, title);
	buf_addf(h, "</title>\n<style>\n%sh1.verdict{color:#%02lx%02lx%02lx}\n.weak{color:#%02lx%02lx%02lx}\n"
		 "</style>\n</head>\n<body>\n<main>\n", css, lround(c.r * 255), lround(c.g * 255),
		 lround(c.b * 255), lround(w.r * 255), lround(w.g * 255), lround(w.b * 255));
}

/*
 * A table cell, escaped, a number kept on one line with the word after it
 * ("73.4 ms", "7 steady"): a cell wraps only between the quantities.
 */
static void cell_escape(struct buf *h, const char *text)
{
	struct buf e;

	buf_init(&e, 0);
	html_escape(&e, text);
	for (size_t i = 0; i < e.len; i++)
		if (e.data[i] == ' ' && i && isdigit((unsigned char)e.data[i - 1]) && isalpha((unsigned char)e.data[i + 1]))
			buf_addstr(h, "&#160;");
		else
			buf_addch(h, e.data[i]);
	buf_release(&e);
}

/* Where page 1's chart goes: after the decision's text, before its run table (as page 1 draws it). */
static size_t headline_at(const struct summary *s)
{
	size_t i;

	for (i = 0; i < s->decision_end && i < s->n; i++)
		if (s->lines[i].kind == SL_TABLE_HEAD || s->lines[i].kind == SL_HEADING)
			break;
	return i;
}

static int headline(struct buf *h, const struct chart_layout *c);

/* The summary's lines, page 1's chart (when not NULL) among them. */
static int summary_lines(struct buf *h, const struct summary *s, const struct chart_layout *chart)
{
	const struct group *in = NULL;
	size_t i, at = headline_at(s);
	int rc = 0;

	for (i = 0; i <= s->n && !rc; i++) {
		struct tag t;

		if (i == at && chart) {
			if (in)
				buf_addstr(h, in->close);
			in = NULL;
			rc = headline(h, chart);
		}
		if (i == s->n)
			break;
		t = line_tag(s->lines[i].kind);

		if (t.group != in && in)
			buf_addstr(h, in->close);
		if (t.group != in && t.group)
			buf_addstr(h, t.group->open);
		in = t.group;
		buf_addstr(h, t.open);
		if (s->lines[i].cells && t.sep)
			for (size_t c = 0; c < s->lines[i].ncells; c++) {
				buf_addstr(h, c ? t.sep : "");
				cell_escape(h, s->lines[i].cells[c]);
			}
		else
			html_escape(h, s->lines[i].text);
		buf_addstr(h, t.close);
		buf_addch(h, '\n');
	}
	if (in)
		buf_addstr(h, in->close);
	return rc;
}

/* What in cairo's SVG names an id or refers to one: each is followed by the id itself. */
static const char *const id_marks[] = { " id=\"", "href=\"#", "url(#" };

/* Appends svg[0..len) with prefix put before every id and every reference to one. */
static void prefix_ids(struct buf *h, const char *svg, size_t len, const char *prefix)
{
	size_t i, from = 0, k;

	for (i = 0; i < len; i++)
		for (k = 0; k < sizeof(id_marks) / sizeof(id_marks[0]); k++) {
			size_t n = strlen(id_marks[k]);

			if (len - i < n || memcmp(svg + i, id_marks[k], n))
				continue;
			buf_add(h, svg + from, i + n - from);
			buf_addstr(h, prefix);
			from = i + n;
			i += n - 1;
			break;
		}
	buf_add(h, svg + from, len - from);
}

static const struct surface_kind *svg_kind(void)
{
	size_t k;

	for (k = 0; k < surface_nkinds && strcmp(surface_kinds[k].ext, "svg"); k++)
		;
	return k < surface_nkinds ? &surface_kinds[k] : NULL;
}

/*
 * Appends chart c (number n in the page) as an inline <svg>: cairo's drawing
 * without its XML prolog and root element, under a root of our own that
 * scales to its box, its ids prefixed "cN-".
 */
static int inline_svg(struct buf *h, const struct chart_layout *c, size_t n, bool natural)
{
	const struct surface_kind *k = svg_kind();
	char *svg = NULL, prefix[32];
	size_t len = 0;
	const char *body, *end;
	FILE *f = open_memstream(&svg, &len);
	int rc = f && k ? chart_write(c, k, f) : -1;

	if (f && fclose(f))
		rc = -1;
	body = rc ? NULL : strstr(svg, "<svg");
	body = body ? strchr(body, '>') : NULL;
	for (end = svg ? svg + len : NULL; body && end > body && strncmp(end, "</svg>", 6); end--)
		;
	if (!body || end <= body) {
		free(svg);
		return -1;
	}
	snprintf(prefix, sizeof(prefix), "c%zu-", n);
	buf_addf(h, "<svg viewBox=\"0 0 %g %g\"", c->width, c->height);
	if (natural)	/* never narrower than its canvas: the box around it scrolls instead */
		buf_addf(h, " style=\"min-width:%gpx\"", c->width);
	buf_addstr(h, " role=\"img\" aria-label=\"");
	html_escape(h, c->title ? c->title : c->id);
	buf_addstr(h, "\">");
	prefix_ids(h, body + 1, (size_t)(end - body - 1), prefix);
	buf_addstr(h, "</svg>\n");
	free(svg);
	return 0;
}

int html_inline_svg(struct buf *h, const struct chart_layout *c, size_t n)
{
	return inline_svg(h, c, n, false);
}

/* Chart c at its box's width, scrolled sideways in the box where that is narrower than its canvas. */
static int figure(struct buf *h, const struct chart_layout *c, size_t n)
{
	buf_addstr(h, "<div class=\"scroll fig\">");
	if (inline_svg(h, c, n, true))
		return -1;
	buf_addstr(h, "</div>\n");
	return 0;
}

static int chart_section(struct buf *h, const struct chart_layout *c, const char *caption, size_t n)
{
	buf_addf(h, "<section class=\"chart\" id=\"chart-%zu\">\n<h2>", n);
	html_escape(h, c->title ? c->title : c->id);
	buf_addstr(h, "</h2>\n");
	if (figure(h, c, n))
		return -1;
	buf_addstr(h, "<p class=\"caption\">");
	html_escape(h, caption ? caption : "");
	buf_addstr(h, "</p>\n</section>\n");
	return 0;
}

/* Page 1's chart, under the verdict and its reasons as on page 1; its ids "c0-". */
static int headline(struct buf *h, const struct chart_layout *c)
{
	buf_addstr(h, "<div class=\"headline\" id=\"chart-0\">\n");
	if (figure(h, c, 0))
		return -1;
	if (c->caption) {
		buf_addstr(h, "<p class=\"caption\">");
		html_escape(h, c->caption);
		buf_addstr(h, "</p>\n");
	}
	buf_addstr(h, "</div>\n");
	return 0;
}

static void left_out(struct buf *h, const struct left_out *out, size_t nout)
{
	size_t i;

	if (!nout)
		return;
	buf_addstr(h, "<section class=\"left-out\">\n<h2>Charts left out</h2>\n<ul>\n");
	for (i = 0; i < nout; i++) {
		buf_addstr(h, "<li>");
		html_escape(h, out[i].id);
		buf_addstr(h, ": ");
		html_escape(h, out[i].why);
		buf_addstr(h, "</li>\n");
	}
	buf_addstr(h, "</ul>\n</section>\n");
}

int html_report(const struct analysis *a, const struct chart_layout *headline, const struct chart_layout *charts,
		const char *const *captions, size_t ncharts, const struct left_out *out, size_t nout,
		struct buf *html)
{
	struct summary s;
	size_t i;
	int rc;

	summary_build(&s, a, NULL, 0);	/* the charts left out follow the charts */
	head(html, a->title ? a->title : "Scaling trial", s.verdict);
	rc = summary_lines(html, &s, headline);
	for (i = 0; i < ncharts && !rc; i++)
		rc = chart_section(html, &charts[i], captions[i], i + 1);
	left_out(html, out, nout);
	buf_addstr(html, "</main>\n</body>\n</html>\n");
	summary_release(&s);
	return rc || html->overflow ? -1 : 0;
}
