#include "render/batch_charts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"
#include "core/xalloc.h"

#define NCHARTS 3
#define MODELS_MAX 16		/* GPU models shown; the rest are "other" */
#define MODEL_CHARS 32		/* of a GPU model's name on an axis */

/* The GPU models of the analysed trials, in order of first appearance by id. */
struct models {
	const char *name[MODELS_MAX];
	size_t n;
};

static bool analysed(const struct trial_row *t)
{
	return t->status && !strcmp(t->status, "ok");
}

/* "NVIDIA B200" reads "B200" on an axis. */
static const char *short_model(const char *m)
{
	if (!m)
		return "unknown GPU";
	return strncmp(m, "NVIDIA ", 7) ? m : m + 7;
}

static size_t model_index(struct models *m, const char *name)
{
	const char *s = short_model(name);

	for (size_t i = 0; i < m->n; i++)
		if (!strcmp(m->name[i], s))
			return i;
	if (m->n == MODELS_MAX)
		return MODELS_MAX - 1;
	m->name[m->n] = s;
	return m->n++;
}

/*
 * name with its spaces as line breaks, so that long names share the axis; owned by c. A name
 * read from a log may be anything: it is cut to MODEL_CHARS and made one line by core/utf8.
 */
static const char *wrapped(struct chart_layout *c, const char *name)
{
	struct buf b;
	char *s;

	buf_init(&b, 0);
	utf8_cut(name, strlen(name), UTF8_CONTROLS | UTF8_ONE_LINE, MODEL_CHARS, &b);
	s = arena_strdup(&c->arena, b.data);
	buf_release(&b);

	for (char *p = s; *p; p++)
		if (*p == ' ')
			*p = '\n';
	return s;
}

/* 1. Speedup and scaling efficiency of each trial, one column of dots per GPU model. */

/* A trial's dot: spread across its column by its rank among the column's trials, so none hide another. */
static double spread_x(size_t col, size_t k, size_t count)
{
	return (double)col + (count > 1 ? ((double)k / (double)(count - 1) - 0.5) * 0.5 : 0);
}

static void dots(struct panel *p, const struct trial_row *rows, size_t n, struct models *m, bool eff)
{
	size_t count[MODELS_MAX] = { 0 }, seen[MODELS_MAX] = { 0 };

	for (size_t i = 0; i < n; i++)
		if (analysed(&rows[i]) && isfinite(rows[i].speedup))
			count[model_index(m, rows[i].gpu_model)]++;
	panel_line(p, CAT_CANDIDATE, MS_MARKERS | MS_NOLINE, eff ? "efficiency" : "speedup");
	for (size_t i = 0; i < n; i++) {
		size_t col;
		double v = eff ? rows[i].efficiency * 100 : rows[i].speedup;

		if (!analysed(&rows[i]) || !isfinite(rows[i].speedup) || !isfinite(v))
			continue;
		col = model_index(m, rows[i].gpu_model);
		panel_point(p, spread_x(col, seen[col]++, count[col]), v);
	}
}

static int chart_speedup(const struct trial_row *rows, size_t n, struct chart_layout *c)
{
	struct models m = { .n = 0 };
	struct panel *s, *e;

	chart_init(c, "b1-speedup", "Speedup and scaling efficiency by GPU model");
	c->subtitle = "one dot per analysed trial with a comparison";
	s = chart_add_panel(c, "GPU model", "speedup (x)");
	e = chart_add_panel(c, "GPU model", "scaling efficiency (%)");
	s->y.zero = e->y.zero = true;
	dots(s, rows, n, &m, false);
	dots(e, rows, n, &m, true);
	if (!s->npts)
		return 1;
	for (size_t i = 0; i < m.n; i++) {
		axis_add_cat(&s->x, wrapped(c, m.name[i]));
		axis_add_cat(&e->x, wrapped(c, m.name[i]));
	}
	panel_hline(s, CAT_REFERENCE, MS_DASHED, 1, "1x: no gain");
	panel_hline(e, CAT_REFERENCE, MS_DASHED, 100, "100%: perfect");
	return 0;
}

/* 2. How many trials got each verdict, and how many failed. */

static const char *const verdicts[] = { "confirmed", "refuted", "inconclusive", "no verdict", "failed" };
static const enum category verdict_cats[] = {
	CAT_CANDIDATE, CAT_EXPOSED_COMM, CAT_WARNING, CAT_OTHER_RUN, CAT_IDLE,
};
#define NVERDICTS (sizeof(verdicts) / sizeof(verdicts[0]))

static size_t verdict_of(const struct trial_row *t)
{
	if (!analysed(t))
		return NVERDICTS - 1;
	for (size_t i = 0; i < 3; i++)
		if (t->verdict && !strcmp(t->verdict, verdicts[i]))
			return i;
	return 3;
}

static int chart_verdicts(const struct trial_row *rows, size_t n, struct chart_layout *c)
{
	size_t count[NVERDICTS] = { 0 };
	struct panel *p;

	if (!n)
		return 1;
	for (size_t i = 0; i < n; i++)
		count[verdict_of(&rows[i])]++;
	chart_init(c, "b2-verdicts", "Verdicts");
	c->subtitle = chart_strf(c, "%zu trials", n);
	p = chart_add_panel(c, "verdict", "trials");
	p->y.zero = true;
	p->y.min_step = 1;
	for (size_t i = 0; i < NVERDICTS; i++) {
		double x = (double)axis_add_cat(&p->x, verdicts[i]);

		panel_rect(p, verdict_cats[i], x - 0.32, 0, x + 0.32, (double)count[i]);
		panel_label(p, CAT_INK, MS_ABOVE, x, (double)count[i], chart_strf(c, "%zu", count[i]));
	}
	return 0;
}

/* 3. Where the time lost to scaling went: each part's mean per trial, by GPU model. */

static const char *const lost_names[] = { "compute", "exposed comm", "memory", "idle" };
static const enum category lost_cats[] = { CAT_COMPUTE, CAT_EXPOSED_COMM, CAT_MEMORY, CAT_IDLE };

static bool lost_known(const struct trial_row *t)
{
	for (size_t k = 0; k < 4; k++)
		if (!isfinite(t->lost_s[k]))
			return false;
	return analysed(t);
}

static int chart_lost(const struct trial_row *rows, size_t n, struct chart_layout *c)
{
	struct models m = { .n = 0 };
	double sum[MODELS_MAX][4] = { { 0 } };
	size_t count[MODELS_MAX] = { 0 };
	struct panel *p;

	for (size_t i = 0; i < n; i++) {
		size_t col;

		if (!lost_known(&rows[i]))
			continue;
		col = model_index(&m, rows[i].gpu_model);
		count[col]++;
		for (size_t k = 0; k < 4; k++)	/* a part that gained time is not a loss */
			sum[col][k] += fmax(rows[i].lost_s[k], 0) * 1e3;
	}
	if (!m.n)
		return 1;
	chart_init(c, "b3-lost-time", "Where the time lost to scaling went");
	c->subtitle = "mean over trials of n x candidate step - baseline step (n = candidate GPUs / baseline "
		      "GPUs), by part; gains count as 0";
	p = chart_add_panel(c, "GPU model", "time lost per step (ms)");
	p->y.zero = true;
	for (size_t col = 0; col < m.n; col++) {
		double x = (double)axis_add_cat(&p->x, chart_strf(c, "%s\n%zu trial%s", wrapped(c, m.name[col]),
								count[col], count[col] == 1 ? "" : "s"));
		double y = 0;

		for (size_t k = 0; k < 4; k++) {
			double v = sum[col][k] / (double)count[col];

			panel_rect(p, lost_cats[k], x - 0.32, y, x + 0.32, y + v);
			y += v;
		}
	}
	for (size_t k = 0; k < 4; k++)
		chart_add_legend(c, lost_cats[k], 0, false, lost_names[k]);
	return 0;
}

static int (*const builders[NCHARTS])(const struct trial_row *, size_t, struct chart_layout *) = {
	chart_speedup, chart_verdicts, chart_lost,
};

size_t batch_charts(const struct trial_row *rows, size_t n, struct chart_layout **charts)
{
	struct chart_layout *c = xcalloc(NCHARTS, sizeof(*c));
	size_t k = 0;

	for (size_t i = 0; i < NCHARTS; i++) {
		memset(&c[k], 0, sizeof(c[k]));
		if (builders[i](rows, n, &c[k]) == 0) {
			chart_finish(&c[k]);
			k++;
		} else if (c[k].id) {
			chart_layout_release(&c[k]);
		}
	}
	if (!k) {
		free(c);
		c = NULL;
	}
	*charts = c;
	return k;
}

void batch_charts_release(struct chart_layout *charts, size_t n)
{
	for (size_t i = 0; i < n; i++)
		chart_layout_release(&charts[i]);
	free(charts);
}
