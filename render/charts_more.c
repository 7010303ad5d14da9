/*
 * The charts that weigh the options (the baseline's b GPUs or the
 * candidate's c, a sweep's independent runs or one distributed run) and the ones that look inside a run
 * (precision mix, waiting for a peer): 10 to 13 of chart_defs, and 09, a
 * replay's kernels against the logged ones (replay.json). Like the
 * others they read struct analysis alone and are left out without data.
 */
#include "render/charts_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/strategy.h"
#include "analysis/thresholds.h"
#include "core/money.h"
#include "core/qty.h"
#include "render/charts.h"
#include "render/decision_text.h"
#include "render/numfmt.h"

#define SECONDS_PER_DAY 86400.0
#define SWEEP_UNIT 1e6		/* without a target, a configuration is this many samples */


static const char *plural(int n)
{
	return n == 1 ? "" : "s";
}

/* A blocking confound other than global batch stands (it blocks the options too). */
static bool blocked(const struct analysis *a)
{
	size_t i;

	for (i = 0; i < a->cmp.nconfounds; i++)
		if (a->cmp.confounds[i].severity == CFS_BLOCKING && a->cmp.confounds[i].what != CF_GLOBAL_BATCH)
			return true;
	return false;
}

/* The first blocking confound other than global batch is no difference between the runs. */
static bool blocked_whole(const struct analysis *a)
{
	for (size_t i = 0; i < a->cmp.nconfounds; i++) {
		const struct confound *f = &a->cmp.confounds[i];

		if (f->severity == CFS_BLOCKING && f->what != CF_GLOBAL_BATCH)
			return confound_whole(f->what) && f->message;
	}
	return false;
}

/*
 * "the runs differ in GPU model (H100 SXM against B200)": the first
 * blocking confound other than global batch, named with its values; one
 * that is no difference between the runs (too few steps, an unknown GPU
 * count) by its own message, which says what to do.
 */
static const char *blocking_words(const struct analysis *a, struct chart_layout *c)
{
	for (size_t i = 0; i < a->cmp.nconfounds; i++) {
		const struct confound *f = &a->cmp.confounds[i];

		if (f->severity != CFS_BLOCKING || f->what == CF_GLOBAL_BATCH)
			continue;
		if (confound_whole(f->what) && f->message)
			return f->message;
		if (f->baseline && f->candidate)
			return chart_strf(c, "the runs differ in %s (%s against %s)", confound_label(f->what),
					  f->baseline, f->candidate);
		return chart_strf(c, "%s stands", confound_label(f->what));
	}
	return "a confound stands";
}

/* Why a trial has no rental options, for the options chart (sweep false) or the sweep chart. */
static const char *no_options_why(const struct analysis *a, bool sweep, struct chart_layout *c)
{
	static const char *const why[][2] = {
		{ "no options chart: needs a baseline and a candidate",
		  "no sweep chart: needs a baseline and a candidate" },
		{ "no options chart: no run has a throughput",
		  "no sweep chart: needs the throughput of a 1-GPU and an n-GPU run" },
		{ "no options chart: no run has a throughput",
		  "no sweep chart: needs the throughput of the baseline and of the candidate" },
	};

	if (compared(a) && blocked_whole(a))
		return chart_strf(c, "no %s chart: a blocking confound stands: %s", sweep ? "sweep" : "options",
				  blocking_words(a, c));
	if (compared(a) && blocked(a))
		return chart_strf(c, "no %s chart: %s, a blocking confound that makes the runs' throughputs "
				  "incomparable; a trial without that difference supplies them",
				  sweep ? "sweep" : "options", blocking_words(a, c));
	return why[!compared(a) ? 0 : a->runs[a->cmp.baseline].gpus == 1 ? 1 : 2][sweep];
}

/* Both runs have the same GPU count (2 against 2): their options differ by run, not by count. */
static bool same_count(const struct analysis *a)
{
	return a->runs[a->cmp.baseline].gpus == a->runs[a->cmp.candidate].gpus;
}

/* The run an option was sized from: the one with its GPU count, or with equal counts its throughput. */
static size_t option_run(const struct analysis *a, const struct rental_option *o)
{
	const struct run_result *b = &a->runs[a->cmp.baseline];

	if (same_count(a))
		return o->samples_per_s == b->samples_per_s ? a->cmp.baseline : a->cmp.candidate;
	return o->gpus == b->gpus ? a->cmp.baseline : a->cmp.candidate;
}

/* The colour of an option: its run's. */
static enum category option_cat(const struct analysis *a, const struct rental_option *o)
{
	return run_cat(a, option_run(a, o));
}

static bool option_known(const struct rental_option *o)
{
	return o->gpus > 0 && isfinite(o->samples_per_s) && o->samples_per_s > 0;
}

/* 10. The rental options: the baseline's b GPUs vs the candidate's c GPUs. */

/* One bar per option of the value at offset in struct rental_option, labelled; cat names its category. */
static void option_bars(const struct analysis *a, struct chart_layout *c, struct panel *p, size_t offset,
			  const char *(*cat)(const struct analysis *, const struct rental_option *,
					     struct chart_layout *),
			  const char *(*label)(double, struct chart_layout *))
{
	size_t k;

	for (k = 0; k < a->cmp.noptions; k++) {
		const struct rental_option *o = &a->cmp.options[k];
		double v, x;

		memcpy(&v, (const char *)o + offset, sizeof(v));
		if (!option_known(o))
			continue;
		x = (double)axis_add_cat(&p->x, cat(a, o, c));
		if (!isfinite(v))
			continue;
		panel_rect(p, option_cat(a, o), x - 0.3, 0, x + 0.3, v);
		panel_label(p, CAT_INK, MS_ABOVE, x, v, label(v, c));
	}
}

static const char *label_num(double v, struct chart_layout *c)
{
	char n[NUMFMT_LEN];

	return chart_strf(c, "%s", qty_num(n, v));
}

/* GPU-hours as the text says them: 1.27, not 1.3 */
static const char *label_gpu_hours(double v, struct chart_layout *c)
{
	char n[MONEY_LEN];

	return chart_strf(c, "%s", gpu_hours_text(n, v));
}

/* "2 GPUs"; "2gpu-a\n2 GPUs" when both runs have that many, so that the bars differ */
static const char *cat_gpus(const struct analysis *a, const struct rental_option *o, struct chart_layout *c)
{
	if (same_count(a))
		return chart_strf(c, "%s\n%d GPU%s", chart_run_name(&a->runs[option_run(a, o)], c), o->gpus,
				  plural(o->gpus));
	return chart_strf(c, "%d GPU%s", o->gpus, plural(o->gpus));
}

/* "2 GPUs"; "2gpu-a (2 GPUs)" when both runs have that many */
static const char *option_words(const struct analysis *a, const struct rental_option *o, struct chart_layout *c)
{
	if (same_count(a))
		return chart_strf(c, "%s (%d GPU%s)", chart_run_name(&a->runs[option_run(a, o)], c), o->gpus,
				  plural(o->gpus));
	return chart_strf(c, "%d GPU%s", o->gpus, plural(o->gpus));
}

/* "1 GPU\ncost 7.00 USD" at gpu_hour_price */
static const char *cat_hours(const struct analysis *a, const struct rental_option *o, struct chart_layout *c)
{
	if (!isfinite(o->cost_per_million_samples))
		return cat_gpus(a, o, c);
	char m[MONEY_LEN];

	return chart_strf(c, "%s\ncost %s", cat_gpus(a, o, c), money_cost(m, o->cost_per_million_samples, a->currency));
}

/* "2 GPUs\n7 d, 1 lot\n1,512": the option, the window rented and what it costs as rented */
static const char *cat_days(const struct analysis *a, const struct rental_option *o, struct chart_layout *c)
{
	char m[MONEY_LEN];
	const char *win = o->window_days <= 0 ? "" :
			  o->windows > 1 ? chart_strf(c, "\n%lld d, %d lot%s", (long long)o->windows * o->window_days,
						      o->lots, plural(o->lots)) :
			  chart_strf(c, "\n%d d, %d lot%s", o->window_days, o->lots, plural(o->lots));

	if (isfinite(o->cost))
		win = chart_strf(c, "%s\n%s", win, money_cost(m, o->cost, a->currency));
	return chart_strf(c, "%s%s", cat_gpus(a, o, c), win);
}

/*
 * Days to the target: each option's days (the bar) inside the window it
 * rents (the shaded box behind it, with the margin's room).
 */
static void days_bars(const struct analysis *a, struct chart_layout *c, struct panel *p)
{
	char n[NUMFMT_LEN];

	for (size_t k = 0; k < a->cmp.noptions; k++) {
		const struct rental_option *o = &a->cmp.options[k];
		double x;

		if (!option_known(o))
			continue;
		x = (double)axis_add_cat(&p->x, cat_days(a, o, c));
		if (o->window_days > 0 && o->windows > 0)
			/* translucent reference grey: the legend's light box, and labels may sit on it */
			panel_rect(p, CAT_REFERENCE, x - 0.42, 0, x + 0.42, (double)o->window_days * o->windows)->style =
				MS_BAND;
		if (!isfinite(o->days_to_target))
			continue;
		panel_rect(p, option_cat(a, o), x - 0.3, 0, x + 0.3, o->days_to_target);
		panel_label(p, CAT_INK, MS_ABOVE, x, o->days_to_target, chart_strf(c, "%s", qty_num(n, o->days_to_target)));
	}
}

/* "the window rented: the days and a 15% margin fit in it" */
static const char *windows_legend(const struct analysis *a, struct chart_layout *c)
{
	return chart_strf(c, "window rented, days needed + %.0f%% fit in it", a->cmp.decision.margin_required * 100);
}

/* The known option of the baseline (base true) or of the candidate; NULL when it has none. */
static const struct rental_option *option_of_run(const struct analysis *a, bool base)
{
	size_t k, want = base ? a->cmp.baseline : a->cmp.candidate;

	for (k = 0; k < a->cmp.noptions; k++)
		if (option_known(&a->cmp.options[k]) && option_run(a, &a->cmp.options[k]) == want)
			return &a->cmp.options[k];
	return NULL;
}

/* A run's status in words, by enum run_status: chart text never shows the analysis.json id. */
static const char *status_words(enum run_status st)
{
	static const char *const words[] = {
		[RUN_UNKNOWN] = "status unknown", [RUN_COMPLETED] = "completed",
		[RUN_FAILED_OOM] = "it ran out of memory", [RUN_FAILED] = "it failed",
		[RUN_INCOMPLETE] = "it did not complete",
	};

	return (size_t)st < sizeof(words) / sizeof(words[0]) && words[st] ? words[st] : "status unknown";
}

/* "2 GPUs: 1.72x the samples/s of 1 GPU, at 1.16x the GPU-hours per million samples" */
static const char *options_subtitle(const struct analysis *a, struct chart_layout *c)
{
	const struct rental_option *one = option_of_run(a, true), *many = option_of_run(a, false);
	char r1[NUMFMT_LEN], r2[NUMFMT_LEN];

	if (!one || !many) {
		const struct run_result *r = &a->runs[one ? a->cmp.candidate : a->cmp.baseline];

		return chart_strf(c, "%s (%s) has no throughput (%s): only the %d-GPU option is shown",
				  chart_run_name(r, c), numfmt_gpus(r1, r->gpus), status_words(r->status),
				  one ? one->gpus : many ? many->gpus : 0);
	}
	return chart_strf(c, "%s: %s the samples/s of %s, at %s the GPU-hours per million samples",
			  option_words(a, many, c), ratio_text(r1, many->samples_per_s / one->samples_per_s),
			  option_words(a, one, c),
			  ratio_text(r2, many->gpu_hours_per_million_samples / one->gpu_hours_per_million_samples));
}

/* "The options: 1 GPU or more"; against b > 1 GPUs the counts, "The options: 2 GPUs or 4" */
static const char *options_title(const struct analysis *a, struct chart_layout *c)
{
	int nb = a->runs[a->cmp.baseline].gpus, nc = a->runs[a->cmp.candidate].gpus;

	if (nb <= 0 || nc <= 0)	/* a GPU count unknown: no count to name */
		return "The options";
	if (nb == 1)
		return "The options: 1 GPU or more";
	if (nb == nc)
		return chart_strf(c, "The options: two runs on %d GPUs", nb);
	return chart_strf(c, "The options: %d GPUs or %d", nb, nc);
}

/*
 * The option whose GPUs leave some of a lot idle (1 GPU on a lot of 2), of a
 * trial that rents for one run: the chart's GPU-hours are those the run used,
 * the note's those rented, so the two differ and the subtitle says why. NULL
 * when every option fills its lots.
 */
static const struct rental_option *idle_option(const struct analysis *a)
{
	const struct decision *d = &a->cmp.decision;

	if (!d->present || !d->rent.present || d->rent.gpus <= 0 || d->variants > 1)
		return NULL;
	for (size_t k = 0; k < a->cmp.noptions; k++)
		if (option_known(&a->cmp.options[k]) && a->cmp.options[k].gpus % d->rent.gpus)
			return &a->cmp.options[k];
	return NULL;
}

int chart_options(const struct analysis *a, struct chart_layout *c, const char **why)
{
	const struct rental_option *idle;
	bool days = false, cost = false, seen[CAT_COUNT] = { false };
	struct panel *p;
	size_t k, n = 0;

	for (k = 0; compared(a) && k < a->cmp.noptions; k++) {
		n += option_known(&a->cmp.options[k]);
		days |= option_known(&a->cmp.options[k]) && isfinite(a->cmp.options[k].days_to_target);
		cost |= isfinite(a->cmp.options[k].cost_per_million_samples);
	}
	if (!n) {
		*why = no_options_why(a, false, c);
		return 1;
	}
	chart_init(c, "10-options", "");
	c->title = options_title(a, c);
	chart_set_banner(a, c);
	c->subtitle = days ? options_subtitle(a, c)
		: chart_strf(c, "%s; no target set, so no days to it", options_subtitle(a, c));
	if ((idle = idle_option(a)))
		c->subtitle = chart_strf(c, "%s; GPU-hours used by the runs, while the note counts GPU-hours rented, "
					 "in lots of %d GPUs: the %d-GPU option leaves %d of a lot idle", c->subtitle,
					 a->cmp.decision.rent.gpus, idle->gpus,
					 a->cmp.decision.rent.gpus - idle->gpus % a->cmp.decision.rent.gpus);
	for (k = 0; k < a->nruns; k++)
		if (a->runs[k].time_source && !strcmp(a->runs[k].time_source, "log-summary")) {
			c->subtitle = chart_strf(c, "%s; throughput from a whole-job log summary, start-up included",
						 c->subtitle);
			break;
		}
	p = chart_add_panel(c, "option", "samples/s");
	p->title = "Throughput";
	p->y.zero = true;
	option_bars(a, c, p, offsetof(struct rental_option, samples_per_s), cat_gpus, label_num);
	p = chart_add_panel(c, cost ? "option, cost per M samples" : "option", "GPU-hours per M samples");
	p->title = idle ? "GPU-hours used per M samples" : "GPU-hours per M samples";
	p->y.zero = true;
	option_bars(a, c, p, offsetof(struct rental_option, gpu_hours_per_million_samples), cat_hours, label_gpu_hours);
	if (days) {
		p = chart_add_panel(c, cost ? "option, window, cost" : "option, window", "days");
		p->title = "Days to the target";
		p->y.zero = true;
		days_bars(a, c, p);
	}
	for (k = 0; k < a->cmp.noptions; k++) {
		const struct rental_option *o = &a->cmp.options[k];

		if (option_known(o) && !seen[option_cat(a, o)])
			chart_add_legend(c, option_cat(a, o), 0, false, run_label(a, option_run(a, o), c));
		seen[option_cat(a, o)] |= option_known(o);
	}
	if (days)
		chart_add_legend(c, CAT_WARMUP, 0, false, windows_legend(a, c));
	if (a->cmp.decision.present && a->cmp.decision.rent.present) {
		struct buf b;

		buf_init(&b, 0);
		decision_line(&b, &a->cmp.decision);
		c->note = chart_strf(c, "%s", b.data);
		buf_release(&b);
	}
	return 0;
}

/* 11. A sweep: n = c / b independent b-GPU runs or one c-GPU run. */

/*
 * Configurations per day: with a target, a configuration trains to it (n
 * runs of days_b each, or one of days_c); without one, it is SWEEP_UNIT samples.
 */
static double per_day(const struct rental_option *o, double runs, bool target)
{
	if (target)
		return runs / o->days_to_target;
	return runs * o->samples_per_s * SECONDS_PER_DAY / SWEEP_UNIT;
}

/* Against b > 1 GPUs the caption names the independent runs' size. */
static void sweep_caption(const struct analysis *a, struct chart_layout *c)
{
	int nb = a->runs[a->cmp.baseline].gpus;

	if (nb > 1)
		c->caption = chart_strf(c, "For a sweep of configurations: the same GPUs used as independent "
					"%d-GPU runs (the baseline's size), one configuration each, or together as "
					"one distributed run. The taller bar finishes more configurations per day.", nb);
}

/*
 * The sweep's answer in words, not its analysis.json id: "2 independent
 * 1-GPU runs", "one 2-GPU run", "unknown". n: how many independent runs the
 * distributed run's GPUs make.
 */
static const char *answer_words(enum answer v, double n, int one_gpus, int many_gpus, struct chart_layout *c)
{
	if (v == ANSWER_INDEPENDENT)
		return chart_strf(c, "%g independent %d-GPU runs", n, one_gpus);
	if (v == ANSWER_DISTRIBUTED)
		return chart_strf(c, "one %d-GPU run", many_gpus);
	return "unknown";
}

int chart_sweep(const struct analysis *a, struct chart_layout *c, const char **why)
{
	const struct rental_option *one, *many;
	char s1[NUMFMT_LEN], s2[NUMFMT_LEN];
	double x, v[2], n;
	bool target;
	struct panel *p;

	if (a->question != Q_HPARAM_SWEEP) {
		*why = "no sweep chart: the trial's question is not hparam-sweep";
		return 2;	/* does not apply: not listed among the charts left out */
	}
	one = compared(a) ? option_of_run(a, true) : NULL;
	many = compared(a) ? option_of_run(a, false) : NULL;
	if (!one || !many) {
		*why = no_options_why(a, true, c);
		return 1;
	}
	n = (double)many->gpus / one->gpus;
	target = isfinite(one->days_to_target) && isfinite(many->days_to_target);
	v[0] = per_day(one, n, target);
	v[1] = per_day(many, 1, target);
	chart_init(c, "11-sweep", "A sweep: independent runs or one distributed run");
	chart_set_banner(a, c);
	sweep_caption(a, c);
	c->subtitle = chart_strf(c, "%d GPUs either way: %g x %s samples/s independently, %s samples/s together; "
				 "a configuration trains on %s", many->gpus, n, qty_num(s1, one->samples_per_s),
				 qty_num(s2, many->samples_per_s),
				 target ? "the trial's target" : "1 M samples (the trial sets no target)");
	if (a->cmp.answer != ANSWER_NONE && a->cmp.answer_reason)
		c->note = chart_strf(c, "Answer: %s: %s", answer_words(a->cmp.answer, n, one->gpus, many->gpus, c),
				     a->cmp.answer_reason);
	p = chart_add_panel(c, "how the GPUs are used", "configurations per day");
	p->y.zero = true;
	x = (double)axis_add_cat(&p->x, chart_strf(c, "%g independent\n%d-GPU runs", n, one->gpus));
	panel_rect(p, option_cat(a, one), x - 0.3, 0, x + 0.3, v[0]);
	panel_label(p, CAT_INK, MS_ABOVE, x, v[0], chart_strf(c, "%s per day", qty_num(s1, v[0])));
	x = (double)axis_add_cat(&p->x, chart_strf(c, "one %d-GPU run", many->gpus));
	panel_rect(p, option_cat(a, many), x - 0.3, 0, x + 0.3, v[1]);
	panel_label(p, CAT_INK, MS_ABOVE, x, v[1], chart_strf(c, "%s per day", qty_num(s2, v[1])));
	chart_add_legend(c, option_cat(a, one), 0, false, run_label(a, option_run(a, one), c));
	chart_add_legend(c, option_cat(a, many), 0, false, run_label(a, option_run(a, many), c));
	return 0;
}

/* 12. Precision mix: matmul time by dtype, per run. */

/* Each dtype's colour here, in stacking order (bottom first); the legend names them. */
static const struct {
	enum dtype t;
	enum category cat;
} dtype_colours[] = {
	{ DT_BF16, CAT_COMPUTE },
	{ DT_FP16, CAT_BASELINE },
	{ DT_TF32, CAT_OVERLAPPED_COMM },
	{ DT_FP32, CAT_MEMORY },
	{ DT_FP8, CAT_EXPOSED_COMM },
	{ DT_FP8_E4M3, CAT_CANDIDATE },
	{ DT_FP8_E5M2, CAT_OTHER_RUN },
	{ DT_FP4, CAT_OTHER_RUN2 },
	{ DT_INT8, CAT_REFERENCE },
	{ DT_FP64, CAT_REFERENCE },
	{ DT_UNKNOWN, CAT_IDLE },
};

#define NCOLOURS (sizeof(dtype_colours) / sizeof(dtype_colours[0]))

static bool has_mix(const struct run_result *r)
{
	size_t k;

	for (k = 0; k < NCOLOURS; k++)
		if (isfinite(r->matmul_share[dtype_colours[k].t]) && r->matmul_share[dtype_colours[k].t] > 0)
			return true;
	return false;
}

/* "1gpu (1 GPU)\ndeclared bf16\nobserved bf16": the run, and its declared precision against the observed */
static const char *precision_cat(const struct run_result *r, struct chart_layout *c)
{
	const char *obs = r->precision_observed == DT_UNKNOWN ? "none over 50%" : dtype_name(r->precision_observed);

	char g[NUMFMT_LEN];

	return chart_strf(c, "%s (%s)\ndeclared %s\nobserved %s", chart_run_name(r, c), numfmt_gpus(g, r->gpus),
			  r->precision_declared ? r->precision_declared : "none", obs);
}

static void mix_bar(const struct analysis *a, size_t run, struct chart_layout *c, struct panel *p, bool *used)
{
	const struct run_result *r = &a->runs[run];
	double x = (double)axis_add_cat(&p->x, precision_cat(r, c)), y = 0;
	size_t k;

	for (k = 0; k < NCOLOURS; k++) {
		double v = r->matmul_share[dtype_colours[k].t];

		if (!isfinite(v) || v <= 0)
			continue;
		panel_rect(p, dtype_colours[k].cat, x - 0.3, y, x + 0.3, y + 100 * v);
		y += 100 * v;
		used[k] = true;
	}
}

int chart_precision(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k;
	bool used[NCOLOURS] = { false };
	struct panel *p;

	chart_init(c, "12-precision", "Precision: matmul time by data type");
	chart_set_banner(a, c);
	c->subtitle = "share of each run's matmul-class kernel time (GEMM, conv, attention) by dtype";
	p = chart_add_panel(c, "run, declared and observed precision", "share of matmul time (%)");
	p->y.zero = true;
	p->y.min_hi = 100;
	p->y.max_hi = 100;
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		if (has_mix(r))
			mix_bar(a, order[k], c, p, used);
		else
			c->subtitle = chart_strf(c, "%s; %s: no matmul kernel with a known dtype", c->subtitle,
						 chart_run_name(r, c));
	}
	if (!p->x.ncats) {
		*why = "no precision chart: no run has matmul kernels with a known time by dtype";
		return 1;
	}
	panel_hline(p, CAT_REFERENCE, MS_DASHED, 100 * DOMINANT_DTYPE_SHARE, NULL);
	for (k = 0; k < NCOLOURS; k++)
		if (used[k])
			chart_add_legend(c, dtype_colours[k].cat, 0, false, dtype_name(dtype_colours[k].t));
	chart_add_legend(c, CAT_REFERENCE, MS_DASHED, true,
			 chart_strf(c, "%.0f%%: above it, the observed precision", 100 * DOMINANT_DTYPE_SHARE));
	return 0;
}

/* 13. Waiting for a peer, and imbalance, per GPU of each multi-GPU run. */

static bool wait_known(const struct gpu_result *g)
{
	double len;
	const struct step_parts *s = gpu_wait_basis(g, &len);

	return isfinite(len) && len > 0 && isfinite(s->compute) && isfinite(s->memory) &&
	       isfinite(s->exposed_comm_wait);
}

static bool multi_known(const struct run_result *r)
{
	size_t gi;

	if (r->ngpu < 2)
		return false;
	for (gi = 0; gi < r->ngpu; gi++)
		if (!wait_known(&r->gpu[gi]))
			return false;
	return true;
}

/* Runs of more GPUs label only their stragglers' bars: the labels would not fit. */
#define WAIT_LABELLED_GPUS 4

/* A GPU's waiting share: a whole percentage, but one above zero never reads "0%" ("0.3%", "under 0.1%"). */
static const char *wait_share(char out[NUMFMT_LEN], double fraction)
{
	if (fraction > 0 && fraction < 0.005)
		return qty_share(out, fraction);
	return qty_percent(out, fraction);
}

/*
 * Waiting at the bottom (against the threshold tick), busy, then the rest of
 * the step, or of the profiled span where no step closes. A straggler's bar
 * says so, and why.
 */
static void wait_bar(const struct analysis *a, size_t run, size_t gi, bool one_run, struct chart_layout *c,
		     struct panel *p)
{
	const struct run_result *r = &a->runs[run];
	const struct gpu_result *g = &r->gpu[gi];
	const struct straggler *st = straggler_at(&r->imbalance, g->rank);
	double len;
	const struct step_parts *s = gpu_wait_basis(g, &len);
	bool many = r->ngpu > WAIT_LABELLED_GPUS;
	double x = (double)axis_add_cat(&p->x, one_run ? chart_strf(c, "%d", gpu_number(g, gi)) :
					chart_strf(c, "%s\nGPU %d", chart_run_name(r, c), gpu_number(g, gi)));
	double wait = MS(s->exposed_comm_wait), busy = MS(s->compute + s->memory);
	double step = MS(len), limit = step * ADVICE_PEER_WAIT_SHARE;
	char pc[NUMFMT_LEN];

	panel_rect(p, CAT_EXPOSED_COMM, x - 0.3, 0, x + 0.3, wait);
	panel_rect(p, CAT_COMPUTE, x - 0.3, wait, x + 0.3, wait + busy);
	panel_rect(p, CAT_IDLE, x - 0.3, wait + busy, x + 0.3, fmax(step, wait + busy));
	if (st || !many)	/* many GPUs: only the stragglers say so, the bars say the rest */
		panel_label(p, CAT_INK, MS_ABOVE, x, fmax(step, wait + busy),
			    st ? (many ? "straggler" : chart_strf(c, "straggler\n(%s)", st->cause)) :
			    chart_strf(c, "waits %s", wait_share(pc, s->exposed_comm_wait / len)));
	panel_line(p, CAT_INK, MS_DASHED, "rebalance");
	panel_point(p, x - 0.42, limit);
	panel_point(p, x + 0.42, limit);
}

/* The two ratios of one run (their values under the bars), each with its flag threshold across the bar. */
static void ratio_bars(const struct analysis *a, size_t run, struct chart_layout *c, struct panel *p)
{
	const struct run_result *r = &a->runs[run];
	const struct {
		const char *what;
		double v, limit;
	} ratios[] = {
		{ "memory", r->imbalance.memory_ratio, IMBALANCE_MEMORY_RATIO },
		{ "busy", r->imbalance.busy_ratio, IMBALANCE_BUSY_RATIO },
	};
	size_t k;

	for (k = 0; k < sizeof(ratios) / sizeof(ratios[0]); k++) {
		char rt[NUMFMT_LEN];
		double x;

		if (!isfinite(ratios[k].v))
			continue;
		x = (double)axis_add_cat(&p->x, chart_strf(c, "%s\n%s %s", chart_run_name(r, c),
							    ratios[k].what, ratio_text(rt, ratios[k].v)));
		panel_rect(p, run_cat(a, run), x - 0.3, 0, x + 0.3, ratios[k].v);
		panel_line(p, CAT_INK, MS_DASHED, "flag");
		panel_point(p, x - 0.42, ratios[k].limit);
		panel_point(p, x + 0.42, ratios[k].limit);
	}
}

/* "the most waiting: 2gpu GPU 1, 70% of its step (dashed: 25%); ..." over the GPUs drawn */
static const char *most_waiting(const struct analysis *a, const size_t *order, size_t n, bool ratios,
				struct chart_layout *c)
{
	const struct run_result *top_run = NULL;
	char pc[NUMFMT_LEN];
	size_t k, gi, top_gpu = 0;
	double top = -1, len;
	bool span = false;

	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		for (gi = 0; multi_known(r) && gi < r->ngpu; gi++) {
			const struct step_parts *s = gpu_wait_basis(&r->gpu[gi], &len);

			if (s->exposed_comm_wait / len > top) {
				top = s->exposed_comm_wait / len;
				top_run = r;
				top_gpu = gi;
				span = isnan(r->gpu[gi].mean_step_s);
			}
		}
	}
	if (!top_run)
		return NULL;
	return chart_strf(c, "%s per GPU; the most waiting: %s GPU %d, %s of its %s "
			  "(dashed: %.0f%%)%s", span ? "the profiled span (no step closes)" : "mean steady step",
			  chart_run_name(top_run, c), gpu_number(&top_run->gpu[top_gpu], top_gpu),
			  wait_share(pc, top), span ? "span" : "step", 100 * ADVICE_PEER_WAIT_SHARE,
			  ratios ? chart_strf(c, "; ratios against the %.0fx memory and %.2fx busy flags",
					      IMBALANCE_MEMORY_RATIO, IMBALANCE_BUSY_RATIO) : "");
}

/* The y axis of the waiting panel: per step, over the span, or both among the runs drawn. */
static const char *wait_axis(const struct analysis *a, const size_t *order, size_t n)
{
	bool step = false, span = false;

	for (size_t k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		if (!multi_known(r))
			continue;
		span |= isnan(r->gpu[0].mean_step_s);
		step |= !isnan(r->gpu[0].mean_step_s);
	}
	return span && step ? "time per step, or over the span without one (ms)" :
	       span ? "time over the profiled span (ms)" : "time per step (ms)";
}

int chart_waiting(const struct analysis *a, struct chart_layout *c, const char **why)
{
	size_t order[MAX_ORDER], n = run_order(a, order), k, gi, drawn = 0;
	const struct run_result *last = NULL;
	bool ratios = false;
	struct panel *w, *q;

	for (k = 0; k < n && !multi_known(&a->runs[order[k]]); k++)
		;
	if (k == n) {
		*why = "no waiting chart: no multi-GPU run has a step breakdown with waiting for a peer per GPU";
		return 1;
	}
	chart_init(c, "13-waiting", "Waiting for a peer, and imbalance");
	chart_set_banner(a, c);
	c->note = imbalance_note(a, c);
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		if (multi_known(r)) {
			drawn++;
			last = r;
			ratios |= isfinite(r->imbalance.memory_ratio) || isfinite(r->imbalance.busy_ratio);
		}
	}
	c->subtitle = most_waiting(a, order, n, ratios, c);
	w = chart_add_panel(c, drawn == 1 ? chart_strf(c, "GPU of %s", chart_run_name(last, c)) :
			    "run and GPU", wait_axis(a, order, n));
	w->title = "Waiting for a peer per GPU";
	w->y.zero = true;
	q = ratios ? chart_add_panel(c, "run and ratio", "max / min across GPUs") : NULL;
	if (q) {
		q->title = "Imbalance ratios";
		q->y.zero = true;
	}
	for (k = 0; k < n; k++) {
		const struct run_result *r = &a->runs[order[k]];

		if (!multi_known(r))
			continue;
		for (gi = 0; gi < r->ngpu; gi++)
			wait_bar(a, order[k], gi, drawn == 1, c, w);
		if (q)
			ratio_bars(a, order[k], c, q);
	}
	chart_add_legend(c, CAT_EXPOSED_COMM, 0, false, "waiting for a peer");
	chart_add_legend(c, CAT_COMPUTE, 0, false, "busy (compute + memory)");
	chart_add_legend(c, CAT_IDLE, 0, false, "rest (transfer, idle)");
	chart_add_legend(c, CAT_INK, MS_DASHED, true, "flag threshold");
	return 0;
}

/* 09. Each re-run kernel's logged time against its time on replay's GPU (replay.json). */

#define REPLAY_ROWS 12

/* "replayed on NVIDIA H200 (trial: NVIDIA B200); projected step 42.4 ms -> 30.1 ms" */
static const char *replay_subtitle(const struct replay_view *v, struct chart_layout *c)
{
	char a[NUMFMT_LEN], b[NUMFMT_LEN];
	const char *s = chart_strf(c, "per call; trial on %s", v->logged_gpu ? v->logged_gpu : "an unknown GPU");

	if (!isfinite(v->projected_step_s) || !isfinite(v->logged_step_s))
		return s;
	return chart_strf(c, "%s; projected step %s -> %s", s, qty_duration(a, v->logged_step_s),
			  qty_duration(b, v->projected_step_s));
}

int chart_replay(const struct analysis *a, struct chart_layout *c, const char **why)
{
	const struct replay_view *v = &a->replay;
	size_t n = v->nbars < REPLAY_ROWS ? v->nbars : REPLAY_ROWS;
	bool projected = false, measured = false;
	struct panel *p;
	const char *dev;

	chart_init(c, "09-replay", "Critical kernels: logged against replayed");
	if (!v->present || !n) {
		*why = v->present ? "no replay chart: replay.json holds no kernel that was re-run"
				  : "no replay: the trial has no replay.json of its kernels re-run on a GPU (write one "
				    "with scaleaudit replay TRIAL -o TRIAL/replay.json on a machine with the GPU)";
		return 1;
	}
	c->subtitle = replay_subtitle(v, c);
	p = chart_add_panel(c, "time per call (ms)", "");
	p->x.zero = true;
	for (size_t i = n; i-- > 0;) {
		const struct replay_bar *b = &v->bars[i];
		double y = (double)axis_add_cat(&p->y, b->label), hi = fmax(b->logged_s, b->replayed_s);
		bool proj = !strcmp(b->verdict, "projected");
		char r[NUMFMT_LEN];

		projected |= proj;
		measured |= !proj;
		panel_rect(p, CAT_BASELINE, 0, y + 0.02, MS(b->logged_s), y + 0.38);
		panel_rect(p, CAT_CANDIDATE, 0, y - 0.38, MS(b->replayed_s), y - 0.02)->style =
			proj ? MS_HATCHED : 0;
		panel_label(p, CAT_INK, MS_RIGHT, MS(hi), y,
			    chart_strf(c, "%s %s", ratio_text(r, b->replayed_s / b->logged_s), b->verdict));
		p->x.min_hi = fmax(isnan(p->x.min_hi) ? 0 : p->x.min_hi, MS(hi) * 1.45);
	}
	dev = v->device ? v->device : "?";
	chart_add_legend(c, CAT_BASELINE, 0, false, "logged (the trial)");
	if (measured)
		chart_add_legend(c, CAT_CANDIDATE, 0, false, chart_strf(c, "replayed on %s", dev));
	if (projected)
		chart_add_legend(c, CAT_CANDIDATE, MS_HATCHED, false,
				 chart_strf(c, "replayed on %s: a projection", dev));
	return 0;
}
