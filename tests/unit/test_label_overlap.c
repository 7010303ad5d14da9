/*
 * Unit tests of the label placer (render/layout's chart_finish): every chart
 * of every sample trial (each directory under samples/trials and tests/data/trials, loaded and
 * analysed as the report does) is built, and its layout dump's text boxes
 * ("box.N = x y w h ...") must lie inside the canvas with no two of them
 * intersecting. Before the placer, 01-step-time of a two-run trial with
 * different warm-ups drew its second "warm-up" text over the first, and close
 * medians printed their labels over each other. A hand-made case checks that
 * texts with nowhere to go near their mark are stacked with a leader or moved
 * to the legend, never overprinted.
 */
#include <glob.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "core/diag.h"
#include "ingest/trial.h"
#include "render/charts.h"
#include "render/layout.h"
#include "render/text.h"
#include "tests/unit/fixture_analysis.h"

#define BOXES_MAX 512
#define EPS 0.01		/* the dump's rounding */

struct box {
	double x, y, w, h;
	char what[64];
};

/* The "box.N = x y w h what ..." lines of a dump; returns how many. */
static size_t parse_boxes(const char *dump, struct box *b, size_t max)
{
	const char *p = dump;
	size_t n = 0;

	while ((p = strstr(p, "box.")) && n < max) {
		if (p == dump || p[-1] == '\n') {
			int k;

			if (sscanf(p, "box.%d = %lf %lf %lf %lf %63s", &k, &b[n].x, &b[n].y, &b[n].w, &b[n].h,
				   b[n].what) == 6)
				n++;
		}
		p++;
	}
	return n;
}

static bool intersect(const struct box *a, const struct box *b)
{
	return a->x + EPS < b->x + b->w && b->x + EPS < a->x + a->w && a->y + EPS < b->y + b->h &&
	       b->y + EPS < a->y + a->h;
}

/* Fails with the chart's dump when two boxes meet or one leaves the canvas; returns how many boxes. */
static size_t check_boxes(const char *where, const char *dump, double cw, double ch)
{
	static struct box b[BOXES_MAX];
	size_t n = parse_boxes(dump, b, BOXES_MAX), i, j;

	for (i = 0; i < n; i++) {
		if (b[i].x < -EPS || b[i].y < -EPS || b[i].x + b[i].w > cw + EPS || b[i].y + b[i].h > ch + EPS)
			fail_msg("%s: %s leaves the %g x %g canvas:\n%s", where, b[i].what, cw, ch, dump);
		for (j = i + 1; j < n; j++)
			if (intersect(&b[i], &b[j]))
				fail_msg("%s: %s and %s intersect:\n%s", where, b[i].what, b[j].what, dump);
	}
	return n;
}

/* Builds every chart of a and checks its boxes; returns how many charts were built. */
static size_t check_analysis(const char *name, const struct analysis *a)
{
	size_t i, built = 0;

	for (i = 0; i < chart_ndefs; i++) {
		struct chart_layout c;
		struct buf d;
		const char *why;
		char where[512];

		if (chart_build(i, a, &c, &why)) {
			chart_layout_release(&c);	/* a chart left out may hold what it drew so far */
			continue;
		}
		buf_init(&d, 0);
		assert_int_equal(chart_layout_dump(&c, &d), 0);
		buf_addch(&d, '\0');
		snprintf(where, sizeof(where), "%s %s", name, chart_defs[i].id);
		/* at least the title and one legend entry: a chart whose boxes are not dumped fails */
		assert_true(check_boxes(where, d.data, c.width, c.height) >= 2);
		buf_release(&d);
		chart_layout_release(&c);
		built++;
	}
	return built;
}

static size_t check_trial(const char *dir)
{
	struct diags d = DIAGS_INIT;
	struct trial_stats st;
	struct trial *t = trial_load(dir, &d, &st);
	struct analysis *a;
	size_t built;

	diags_release(&d);
	assert_non_null(t);
	a = analysis_run(t);
	assert_non_null(a);
	built = check_analysis(dir, a);
	analysis_free(a);
	trial_free(t);
	trial_stats_release(&st);
	return built;
}

static void every_chart_of_every_sample(void **state)
{
	static const char *const patterns[] = { "samples/trials/*", "tests/data/trials/*" };
	const char *top = getenv("TOP");
	size_t trials = 0, charts = 0, i, k;

	(void)state;
	for (i = 0; i < sizeof(patterns) / sizeof(patterns[0]); i++) {
		char pat[4096];
		glob_t g;

		snprintf(pat, sizeof(pat), "%s/%s", top ? top : ".", patterns[i]);
		assert_int_equal(glob(pat, GLOB_ONLYDIR, NULL, &g), 0);
		for (k = 0; k < g.gl_pathc; k++) {
			charts += check_trial(g.gl_pathv[k]);
			trials++;
		}
		globfree(&g);
	}
	/* 15 samples and 4 log-only trials today; each has at least its step-time chart */
	assert_true(trials >= 19);
	assert_true(charts >= 60);
}

/*
 * Five medians 1 ms apart and a line through their right ends: the texts
 * cannot all sit at their usual spot; none may overprint another or lie on
 * another median's line.
 */
static void close_medians_are_kept_apart(void **state)
{
	struct chart_layout c;
	struct panel *p;
	struct buf d;
	int k, placed = 0;
	size_t i, j;

	(void)state;
	chart_init(&c, "close", "Close medians");
	p = chart_add_panel(&c, "step", "ms");
	p->y.zero = true;
	panel_line(p, CAT_BASELINE, MS_MARKERS, "steps");
	for (k = 0; k < 10; k++)
		panel_point(p, k, 100 + k % 3);
	for (k = 0; k < 5; k++)
		panel_hline(p, k % 2 ? CAT_CANDIDATE : CAT_BASELINE, MS_DASHED, 100 + k,
			    chart_strf(&c, "median %d ms", 100 + k));
	chart_add_legend(&c, CAT_BASELINE, 0, true, "steps");
	chart_finish(&c);
	buf_init(&d, 0);
	assert_int_equal(chart_layout_dump(&c, &d), 0);
	buf_addch(&d, '\0');
	check_boxes("close medians", d.data, c.width, c.height);
	for (i = 0; i < p->nmarks; i++) {
		const struct mark *m = &p->marks[i];

		if (m->kind != MARK_HLINE)
			continue;
		/* placed or moved into the legend, never dropped */
		assert_true(m->box.w > 0 || m->in_legend);
		for (j = 0; j < p->nmarks && m->box.w > 0; j++) {
			double y = panel_py(p, p->marks[j].y0);

			/* no text's inked part (2 units in from its box) on any median line */
			if (p->marks[j].kind == MARK_HLINE && m->box.y + 2 < y && y < m->box.y + m->box.h - 2)
				fail_msg("\"%s\" lies on the line of \"%s\"", m->text, p->marks[j].text);
		}
		placed += m->box.w > 0;
	}
	assert_true(placed >= 4);
	buf_release(&d);
	chart_layout_release(&c);
}

/* The dump of chart 01 of a, finished; the caller frees it. */
static char *step_time_dump(const struct analysis *a)
{
	struct chart_layout c;
	struct buf d;
	const char *why;

	buf_init(&d, 0);
	assert_int_equal(chart_build(0, a, &c, &why), 0);
	assert_int_equal(chart_layout_dump(&c, &d), 0);
	buf_addch(&d, '\0');
	check_boxes("01-step-time", d.data, c.width, c.height);
	chart_layout_release(&c);
	return buf_detach(&d);
}

static void contains(const char *dump, const char *line)
{
	if (!strstr(dump, line))
		fail_msg("no \"%s\" in:\n%s", line, dump);
}

/*
 * Chart 01 shades warm-up over the full height only when every run warms
 * up over the same steps; when the candidate warms up one step longer, each
 * run gets a strip at the foot in its colour, so that the candidate's third
 * step, counted for the baseline, is not shaded, and "warm-up" is written once.
 */
static void warm_ups_that_differ_get_a_strip_per_run(void **state)
{
	struct analysis a;
	struct gpu_result *g;
	char *d;

	(void)state;
	fixture_analysis_ddp(&a);
	d = step_time_dump(&a);
	contains(d, "panel.0.mark.0 = vspan warmup x=-0.5..1.5 \"warm-up\"\n");
	assert_null(strstr(d, "strip"));
	free(d);

	g = &a.runs[a.cmp.candidate].gpu[a.runs[a.cmp.candidate].slowest];
	g->steps[2].warmup = true;
	d = step_time_dump(&a);
	contains(d, "panel.0.mark.0 = vspan baseline light strip x=-0.5..1.5 \"warm-up\"\n");
	contains(d, "panel.0.mark.1 = vspan candidate light strip x=-0.5..2.5\n");
	contains(d, "\"warm-up (strip per run)\"");
	free(d);
	fixture_analysis_release(&a);
}

static int teardown(void **state)
{
	(void)state;
	text_release();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_chart_of_every_sample),
		cmocka_unit_test(close_medians_are_kept_apart),
		cmocka_unit_test(warm_ups_that_differ_get_a_strip_per_run),
	};

	return cmocka_run_group_tests(tests, NULL, teardown);
}
