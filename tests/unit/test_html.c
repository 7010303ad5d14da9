/*
 * Unit tests of render/html: escaping, the page's structure (the verdict the
 * first and only h1, one inline SVG per chart drawn, the charts left out
 * listed after the charts), ids that never collide between two charts,
 * nothing fetched from anywhere else, and the same bytes for the same input.
 * Charts are built here from the fixture analyses, as report.c builds them.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/buf.h"
#include "render/charts.h"
#include "render/html.h"
#include "render/page1.h"
#include "tests/unit/fixture_analysis.h"

#define HOSTILE "<script>alert(\"x\")</script> & 'y'"
#define HOSTILE_ESCAPED "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"

struct page {
	struct chart_layout charts[16];
	const char *captions[16];
	size_t ncharts;
	struct left_out out[16];
	char why[16][512];	/* each reason copied: it lives in its chart, released once left out */
	size_t nout;
	struct buf html;
	struct chart_layout headline;	/* page 1's */
	bool has_headline;
};

/* Builds every chart of a, then the page. */
static void page_write(struct page *p, const struct analysis *a)
{
	memset(p, 0, sizeof(*p));
	assert_true(chart_ndefs <= 16);
	for (size_t i = 0; i < chart_ndefs; i++) {
		const char *why;

		if (chart_build(i, a, &p->charts[p->ncharts], &why)) {
			snprintf(p->why[p->nout], sizeof(p->why[p->nout]), "%s", why ? why : "");
			chart_layout_release(&p->charts[p->ncharts]);
			p->out[p->nout] = (struct left_out){ chart_defs[i].id, p->why[p->nout] };
			p->nout++;
			continue;
		}
		p->captions[p->ncharts++] = chart_defs[i].caption;
	}
	buf_init(&p->html, 0);
	p->has_headline = !page1_chart(a, &p->headline);
	assert_int_equal(html_report(a, p->has_headline ? &p->headline : NULL, p->charts, p->captions, p->ncharts,
				     p->out, p->nout, &p->html), 0);
}

static void page_release(struct page *p)
{
	for (size_t i = 0; i < p->ncharts; i++)
		chart_layout_release(&p->charts[i]);
	if (p->has_headline)
		chart_layout_release(&p->headline);
	buf_release(&p->html);
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

static void escapes_markup(void **state)
{
	struct buf b;

	buf_init(&b, 0);
	html_escape(&b, HOSTILE);
	assert_string_equal(b.data, HOSTILE_ESCAPED);
	buf_reset(&b);
	html_escape(&b, "1.73x, 86% \xc3\xa9");	/* nothing else is touched, UTF-8 included */
	assert_string_equal(b.data, "1.73x, 86% \xc3\xa9");
	buf_reset(&b);
	/* invalid UTF-8 as U+FFFD, an escape sequence visible, a newline kept */
	html_escape(&b, "caf\xe9 \x1b[31m<b>\nx");
	assert_string_equal(b.data, "caf\xef\xbf\xbd \\x1b[31m&lt;b&gt;\nx");
	buf_release(&b);
}

/* A title and a run name with markup in them are text on the page, never markup. */
static void user_text_is_escaped(void **state)
{
	struct analysis a;
	struct page p;

	fixture_analysis_ddp(&a);
	a.title = HOSTILE;
	a.runs[1].name = "<b>2gpu</b>";
	page_write(&p, &a);
	assert_null(strstr(p.html.data, "<script"));
	assert_null(strstr(p.html.data, "<b>"));
	assert_non_null(strstr(p.html.data, "<title>" HOSTILE_ESCAPED "</title>"));
	assert_non_null(strstr(p.html.data, "<p class=\"title\">" HOSTILE_ESCAPED "</p>"));
	assert_non_null(strstr(p.html.data, "&lt;b&gt;2gpu&lt;/b&gt;"));
	page_release(&p);
	fixture_analysis_release(&a);
}

/* The verdict is the first heading and the only h1; each chart drawn is one section with one svg. */
static void one_svg_per_chart(void **state)
{
	struct analysis a;
	struct page p;
	const char *h, *v;

	fixture_analysis_ddp(&a);
	page_write(&p, &a);
	h = p.html.data;
	assert_int_equal(count(h, "<h1"), 1);
	v = strstr(h, "<h1 class=\"verdict\">CONFIRMED");	/* the verdict word leads the line */
	assert_non_null(v);
	assert_true(v < strstr(h, "<h2"));
	assert_true(p.ncharts >= 8);		/* all but replay, as test_render counts */
	assert_true(p.has_headline);
	assert_int_equal(count(h, "<svg"), p.ncharts + 1);	/* page 1's chart too */
	assert_int_equal(count(h, "</svg>"), p.ncharts + 1);
	assert_int_equal(count(h, "<section class=\"chart\""), p.ncharts);
	assert_int_equal(count(h, "viewBox=\"0 0 640 400\" style=\"min-width:640px\""), p.ncharts);
	assert_int_equal(count(h, "<div class=\"scroll fig\"><svg"), p.ncharts + 1);
	/* page 1's chart under the verdict, before the run table, its ids its own */
	assert_true(v < strstr(h, "<div class=\"headline\" id=\"chart-0\">"));
	assert_true(strstr(h, "<div class=\"headline\"") < strstr(h, "<table>"));
	assert_non_null(strstr(h, "viewBox=\"0 0 420 270\" style=\"min-width:420px\" role=\"img\" "
				  "aria-label=\"Samples per second\""));
	assert_non_null(strstr(h, "id=\"c0-"));
	assert_null(strstr(h, "<?xml"));
	for (size_t i = 0; i < p.ncharts; i++) {
		struct buf cap;

		buf_init(&cap, 0);
		html_escape(&cap, p.captions[i]);
		assert_non_null(strstr(h, cap.data));
		buf_release(&cap);
	}
	assert_int_equal(p.ncharts + p.nout, chart_ndefs);
	assert_non_null(strstr(h, "<h2>Charts left out</h2>"));
	assert_int_equal(count(strstr(h, "<h2>Charts left out</h2>"), "<li>"), p.nout);
	assert_non_null(strstr(h, "<li>09-replay: "));		/* no fixture has a replay */
	page_release(&p);
	fixture_analysis_release(&a);
}

/* The single-run fixture leaves charts out: they are listed, with their reasons, after the last chart. */
static void left_out_follow_the_charts(void **state)
{
	struct analysis a;
	struct page p;
	const char *h, *list;

	fixture_analysis_single(&a);
	page_write(&p, &a);
	h = p.html.data;
	list = strstr(h, "<h2>Charts left out</h2>");
	assert_non_null(list);
	assert_true(p.nout >= 2);
	assert_int_equal(count(list, "<li>"), p.nout);
	assert_int_equal(count(h, "Charts left out"), 1);
	assert_null(strstr(list, "</svg>"));	/* no chart after the list */
	for (size_t i = 0; i < p.nout; i++)
		assert_non_null(strstr(list, p.out[i].id));
	assert_int_equal(count(h, "<svg"), p.ncharts + p.has_headline);
	page_release(&p);
	fixture_analysis_release(&a);
}

/* Every id of chart N, and every reference to one, starts "cN-" (page 1's chart "c0-"): none is shared. */
static void ids_are_per_chart(void **state)
{
	static const char *const marks[] = { " id=\"", "href=\"#", "url(#" };
	struct analysis a;
	struct page p;
	const char *sec;
	size_t n = 0, ids = 0;	/* page 1's chart first, as chart 0 */

	fixture_analysis_ddp(&a);
	page_write(&p, &a);
	for (sec = strstr(p.html.data, "<svg"); sec; sec = strstr(sec + 1, "<svg")) {
		const char *end = strstr(sec, "</svg>");
		char want[16];

		snprintf(want, sizeof(want), "c%zu-", n++);
		for (size_t k = 0; k < 3; k++)
			for (const char *m = strstr(sec, marks[k]); m && m < end; m = strstr(m + 1, marks[k])) {
				if (strncmp(m + strlen(marks[k]), want, strlen(want)))
					fail_msg("chart %zu: %.40s", n, m);
				ids++;
			}
	}
	assert_int_equal(n, p.ncharts + 1);
	assert_true(ids > 100);		/* glyphs and clips were there to rename */
	page_release(&p);
	fixture_analysis_release(&a);
}

/* No script, style sheet, font or image from anywhere else: the page stands alone. */
static void nothing_external(void **state)
{
	static const char *const banned[] = { "http", "src=", "<link", "@import", "<script", "url(\"", "@font-face" };
	struct analysis a;
	struct page p;

	fixture_analysis_ddp(&a);
	page_write(&p, &a);
	for (size_t i = 0; i < sizeof(banned) / sizeof(banned[0]); i++)
		if (strstr(p.html.data, banned[i]))
			fail_msg("the page holds %s", banned[i]);
	assert_non_null(strstr(p.html.data, "<meta name=\"viewport\""));
	assert_non_null(strstr(p.html.data, "@media print{"));
	page_release(&p);
	fixture_analysis_release(&a);
}

static void same_bytes_twice(void **state)
{
	struct analysis a;
	struct page p1, p2;

	fixture_analysis_ddp(&a);
	page_write(&p1, &a);
	page_write(&p2, &a);
	assert_int_equal(p1.html.len, p2.html.len);
	assert_memory_equal(p1.html.data, p2.html.data, p1.html.len);
	page_release(&p1);
	page_release(&p2);
	fixture_analysis_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes_markup),
		cmocka_unit_test(user_text_is_escaped),
		cmocka_unit_test(one_svg_per_chart),
		cmocka_unit_test(left_out_follow_the_charts),
		cmocka_unit_test(ids_are_per_chart),
		cmocka_unit_test(nothing_external),
		cmocka_unit_test(same_bytes_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
