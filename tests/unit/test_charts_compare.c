/*
 * Unit tests of the charts that compare runs: the not-comparable
 * banner, the per-sample waterfall under a global-batch change, exposed
 * communication split into waiting and transfer, and the timeline on each
 * run's common clock. Charts are built from the sample trials and read
 * through chart_layout_dump(); expected numbers are the sample's
 * analysis.json values, worked through by hand here.
 */
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
#include "render/charts.h"
#include "tests/unit/fixture_analysis.h"

/* The layout dump of chart `id` of a, malloc'd; NULL when the chart is left out. */
static char *chart_dump(const struct analysis *a, const char *id)
{
	const char *why;

	return dump_chart(a, id, &why);
}

/* The value of "key = value" in dump, malloc'd; NULL when absent. */
static char *value_of(const char *dump, const char *key)
{
	size_t n = strlen(key);
	const char *p, *end;
	char *v;

	for (p = dump; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, key, n) && !strncmp(p + n, " = ", 3))
			break;
	if (!p)
		return NULL;
	p += n + 3;
	end = strchr(p, '\n');
	end = end ? end : p + strlen(p);
	v = malloc((size_t)(end - p) + 1);
	assert_non_null(v);
	memcpy(v, p, (size_t)(end - p));
	v[end - p] = '\0';
	return v;
}

static void value_is(const char *dump, const char *key, const char *want)
{
	char *v = value_of(dump, key);

	if (!v || strcmp(v, want))
		fail_msg("%s: got \"%s\", want \"%s\"", key, v ? v : "(none)", want);
	free(v);
}

/* The range "key=lo..hi" at s ("0..40.8" too, which sscanf's %lf misreads as "0." and ".40.8"). */
static bool range_of(const char *s, const char *key, double *lo, double *hi)
{
	const char *p = strstr(s, key), *dots, *nl = strchr(s, '\n');
	char left[64];

	if (!p || (nl && p > nl) || !(dots = strstr(p, "..")) || (size_t)(dots - p) >= sizeof(left) + strlen(key))
		return false;
	p += strlen(key);
	memcpy(left, p, (size_t)(dots - p));
	left[dots - p] = '\0';
	*lo = strtod(left, NULL);
	*hi = strtod(dots + 2, NULL);
	return true;
}

/*
 * The summed height (y1 - y0) of the rects of category cat, hatched or not,
 * whose x range holds x; and in *x0 the left end of the first one.
 */
static double rects_at(const char *dump, const char *cat, bool hatched, double x, double *x0)
{
	char name[64], rest[32];
	double sum = 0, a, b, lo, hi;
	const char *p;
	bool first = true;

	for (p = strstr(dump, " = rect "); p; p = strstr(p + 1, " = rect ")) {
		if (sscanf(p, " = rect %63s %31s", name, rest) != 2 || strcmp(name, cat) ||
		    hatched != !strcmp(rest, "hatched") || !range_of(p, " x=", &a, &b) || !range_of(p, " y=", &lo, &hi))
			continue;
		if (a > x || b < x)
			continue;
		if (first && x0)
			*x0 = a;
		first = false;
		sum += hi - lo;
	}
	return sum;
}

/* The summed width (x1 - x0) of the rects of category cat, hatched or not, whose y range holds y. */
static double widths_at(const char *dump, const char *cat, bool hatched, double y)
{
	char name[64], rest[32];
	double sum = 0, a, b, lo, hi;
	const char *p;

	for (p = strstr(dump, " = rect "); p; p = strstr(p + 1, " = rect "))
		if (sscanf(p, " = rect %63s %31s", name, rest) == 2 && !strcmp(name, cat) &&
		    hatched == !strcmp(rest, "hatched") && range_of(p, " x=", &a, &b) &&
		    range_of(p, " y=", &lo, &hi) && lo <= y && y <= hi)
			sum += b - a;
	return sum;
}

static void near(double got, double want, double tol)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("got %.9g, want %.9g (within %g)", got, want, tol);
}

#define PRECISION_BANNER "Not comparable: precision differs (1gpu bf16, 2gpu tf32); numbers shown for reference"

/* Every chart of ddp-precision-changed compares its runs and carries the banner, word for word. */
static void banner_on_precision_changed(void **state)
{
	static const char *const ids[] = { "01-step-time", "02-breakdown", "03-waterfall", "04-memory",
					   "05-communication", "06-top-kernels", "07-timeline", "08-monitor",
					   "12-precision", "13-waiting", "14-roofline", "15-diff" };
	struct analysis *a = analyse_dir("samples/trials/ddp-precision-changed");
	size_t drawn = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
		char *d = chart_dump(a, ids[i]);

		assert_non_null(d);
		value_is(d, "banner", PRECISION_BANNER);
		free(d);
	}
	/* and no other chart is drawn that could go without it */
	for (size_t i = 0; i < chart_ndefs; i++) {
		char *d = chart_dump(a, chart_defs[i].id);

		drawn += d != NULL;
		free(d);
	}
	assert_int_equal(drawn, sizeof(ids) / sizeof(ids[0]));
	analysis_free(a);
}

/* A comparison without a blocking confound: no chart has a banner. */
static void no_banner_on_scales_well(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/ddp-scales-well");
	size_t drawn = 0;

	(void)state;
	for (size_t i = 0; i < chart_ndefs; i++) {
		char *d = chart_dump(a, chart_defs[i].id);

		if (!d)
			continue;
		drawn++;
		assert_null(value_of(d, "banner"));
		free(d);
	}
	assert_int_equal(drawn, 13);	/* all but the replay and the sweep (single-config) */
	analysis_free(a);
}

/*
 * ddp-global-batch-changed: the candidate's step did 16 samples, the
 * baseline's 8. Its analysis.json: baseline GPU 0 and candidate GPU 1 (the
 * slowest) step parts, below. The waterfall is per 8 samples: each category
 * n Cn 8/16 - C1, never the per-step n Cn - C1 (+39.2 ms compute).
 */
static void waterfall_per_sample(void **state)
{
	static const double base[4] = { 0.03917054357142857, 0, 6.631599999999998e-05, 0.0016094275714285714 };
	static const double cand[4] = { 0.039205017857142865, 0.0015089602857142857, 6.631599999999998e-05,
					0.0016144105714285715 };
	static const char *const cats[4] = { "compute", "exposed_comm", "memory", "idle" };
	static const double xs[4] = { 1, 2, 4, 5 };	/* exposed comm: transfer at 2, waiting (hatched) at 3 */
	struct analysis *a = analyse_dir("samples/trials/ddp-global-batch-changed");
	char *d = chart_dump(a, "03-waterfall"), *v;
	double ideal = 0.040846287142857145e3, actual = 0.08478940942857141e3 * 8 / 16, sum = ideal;

	(void)state;
	assert_non_null(d);
	value_is(d, "panel.0.y.label", "GPU time per 8 samples (ms)");
	v = value_of(d, "subtitle");
	assert_non_null(strstr(v, "did 2x the work (global batch 16 against 8)"));
	free(v);
	assert_null(value_of(d, "banner"));	/* the chart corrects for the one blocking confound */
	near(rects_at(d, "baseline", false, 0, NULL), ideal, 1e-3);
	for (int i = 0; i < 4; i++) {
		double want = (2 * cand[i] * 8 / 16 - base[i]) * 1e3;

		double got = rects_at(d, cats[i], false, xs[i], NULL) + (i == 1 ? rects_at(d, cats[i], true, 3, NULL) : 0);

		near(got, fabs(want), 2e-4);
		sum += want;
	}
	near(rects_at(d, "compute", false, 1, NULL), 0.0344743, 2e-4);	/* not 39.2 */
	near(rects_at(d, "candidate", false, 6, NULL), actual, 1e-3);
	near(sum, actual, 1e-9);	/* the bars add up */
	free(d);
	analysis_free(a);
}

/*
 * pipeline-bubble: of the candidate's slowest GPU (GPU 1) 39.0 ms of its
 * 40.0 ms exposed comm per step waits for GPU 0 (analysis.json's step_s:
 * exposed_comm_wait 0.03903904, exposed_comm_transfer 0.00092096825); the
 * 1-GPU baseline has none. The waterfall draws 2 x each: +1.8 ms of
 * transfer, +78.1 ms of waiting (hatched), never one "+79.9 ms exposed comm".
 */
static void waterfall_splits_waiting(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/pipeline-bubble");
	char *d = chart_dump(a, "03-waterfall"), *v;

	(void)state;
	assert_non_null(d);
	value_is(d, "panel.0.x.cats", "ideal | compute | comm\\ntransfer | comm\\nwaiting | memory | "
		 "idle | actual\\n(2 GPUs)");
	near(rects_at(d, "exposed_comm", false, 2, NULL), 2 * 0.00092096825e3, 1e-3);
	near(rects_at(d, "exposed_comm", true, 3, NULL), 2 * 0.03903904e3, 1e-3);
	near(rects_at(d, "exposed_comm", true, 2, NULL) + rects_at(d, "exposed_comm", false, 3, NULL), 0, 0);
	assert_non_null(strstr(d, "\"+78.1 ms\""));
	assert_non_null(strstr(d, "\"+1.8 ms\""));
	assert_null(strstr(d, "\"+79.9 ms\""));
	assert_non_null(strstr(d, "legend.3 = exposed_comm hatched \"exposed comm: waiting for a peer\""));
	v = value_of(d, "subtitle");
	assert_non_null(strstr(v, "; exposed comm split into transfer and waiting for a slower peer (hatched)"));
	free(v);
	free(d);
	analysis_free(a);
	/* nccl-over-sockets' GPUs wait for nobody (exposed_comm_wait 0): one exposed-comm bar */
	a = analyse_dir("samples/trials/nccl-over-sockets");
	d = chart_dump(a, "03-waterfall");
	assert_non_null(d);
	value_is(d, "panel.0.x.cats", "ideal | compute | exposed\\ncomm | memory | idle | actual\\n(2 GPUs)");
	free(d);
	analysis_free(a);
}

/*
 * pipeline-bubble's 2-GPU run: GPU 0 exposes 42.003666 ms of communication
 * per step, of it 41.08269775 ms waiting for GPU 1 (analysis.json); the
 * breakdown draws the two boxes, which add up to the exposed part.
 */
/*
 * pipeline-oom-feasibility: the 1-GPU baseline ran out of memory before its
 * first step ("0/500" then the CUDA OOM in its train.log): it has no line,
 * and the legend says it failed rather than leaving it out.
 */
static void step_time_names_a_failed_run(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/pipeline-oom-feasibility");
	char *d = chart_dump(a, "01-step-time");

	(void)state;
	assert_non_null(d);
	assert_non_null(strstr(d, "legend.1 = baseline \"baseline: 1gpu (1 GPU): failed, out of memory "
			       "before its first step\""));
	assert_non_null(strstr(d, "a failed run without profiled steps has no line: the legend says so"));
	free(d);
	analysis_free(a);
	/* a run that completed keeps its plain label */
	a = analyse_dir("samples/trials/ddp-scales-well");
	d = chart_dump(a, "01-step-time");
	assert_non_null(d);
	assert_null(strstr(d, "failed"));
	free(d);
	analysis_free(a);
}

/* Chart id's caption on a as the report prints it, compared with want. */
static void caption_is(const struct analysis *a, const char *id, const char *want)
{
	struct chart_layout c;
	const char *why;
	size_t i;

	for (i = 0; i < chart_ndefs && strcmp(chart_defs[i].id, id); i++)
		;
	assert_true(i < chart_ndefs);
	assert_int_equal(chart_build(i, a, &c, &why), 0);
	if (!c.caption || strcmp(c.caption, want))
		fail_msg("%s: caption \"%s\", want \"%s\"", id, c.caption ? c.caption : "(none)", want);
	chart_layout_release(&c);
}

/* Captions of 01 and 02 say what is drawn: no speedup gap or baseline bar where the baseline has none. */
static void captions_follow_the_content(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/pipeline-oom-feasibility");

	(void)state;
	caption_is(a, "01-step-time", "Each run's step time (slowest GPU) over the profiled steps. The dashed line "
		   "is the run's steady median; no other run has one to compare with. Steps in the shaded warm-up "
		   "are left out of every number; a line that keeps moving after it means the run never settled. A "
		   "run that failed before a profiled step has no line: the legend names it and what stopped it.");
	caption_is(a, "02-breakdown", "Each GPU's mean steady step split into compute, exposed communication, "
		   "memory copies and idle. The baseline (1gpu) has no bar: it has no steady step with a known "
		   "split, so there is nothing to compare the candidate's bars with.");
	analysis_free(a);
	a = analyse_dir("samples/trials/ddp-scales-well");
	caption_is(a, "02-breakdown", "Each GPU's mean steady step split into compute, exposed communication, "
		   "memory copies and idle. Look at what grows from the baseline to the candidate: that is what "
		   "the second GPU costs.");
	caption_is(a, "01-step-time", "Each run's step time (slowest GPU) over the profiled steps. Look at the gap "
		   "between the dashed medians: that is the speedup. Steps in the shaded warm-up are left out of "
		   "every number; a line that keeps moving after it means the run never settled.");
	analysis_free(a);
}

static void breakdown_wait_and_transfer(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/pipeline-bubble");
	char *d = chart_dump(a, "02-breakdown");
	double wait, transfer;

	(void)state;
	assert_non_null(d);
	wait = rects_at(d, "exposed_comm", true, 1, NULL);
	transfer = rects_at(d, "exposed_comm", false, 1, NULL);
	near(wait, 41.08269775, 1e-3);
	near(transfer, 42.003666 - 41.08269775, 1e-3);
	near(wait + transfer, 42.003666, 1e-3);
	near(rects_at(d, "exposed_comm", true, 0, NULL), 0, 0);	/* the 1-GPU run waits for nobody */
	assert_non_null(strstr(d, "legend.1 = exposed_comm \"exposed comm: transfer\""));
	assert_non_null(strstr(d, "legend.2 = exposed_comm hatched \"exposed comm: waiting for a peer\""));
	free(d);
	analysis_free(a);
}

/*
 * ddp-scales-well: idle is split by cause in the breakdown. The 1-GPU run's
 * GPU idles 1.546521142857 ms per step because the CPU launched late and
 * 0.000034 ms held by a stream (analysis.json step_s.idle_host, idle_sync):
 * a solid box and a hatched one; the sliver is under 0.2% of the step, so
 * the legend names only the host's cause.
 */
static void breakdown_idle_by_cause(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/ddp-scales-well");
	char *d = chart_dump(a, "02-breakdown");

	(void)state;
	assert_non_null(d);
	near(rects_at(d, "idle", false, 0, NULL), 1.546521142857, 1e-4);
	assert_non_null(strstr(d, "= rect idle hatched x=-0.32..0.32 y="));	/* 0.000034 ms: too thin for the dump's digits */
	near(rects_at(d, "idle", false, 1, NULL), 1.6397405714285716, 1e-4);
	near(rects_at(d, "idle", true, 1, NULL), 0, 0);
	assert_non_null(strstr(d, "legend.4 = idle \"idle: the CPU launched the next work late\""));
	assert_null(strstr(d, "cause unknown"));
	assert_null(strstr(d, "idle: work launched"));
	assert_non_null(strstr(d, "; idle split by cause"));
	free(d);
	analysis_free(a);
}

/*
 * host-bound-input: 2gpu's GPU 0 idles 18.979 ms per step, 13.8755378 ms of
 * it host, 2.5465 sync and 2.556533 other (analysis.json step_s): a solid,
 * a hatched and a light box, and the legend names all three causes.
 */
static void breakdown_three_idle_causes(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/host-bound-input");
	char *d = chart_dump(a, "02-breakdown");

	(void)state;
	assert_non_null(d);
	near(rects_at(d, "idle", true, 1, NULL), 2.5465, 1e-3);
	near(rects_at(d, "idle", false, 1, NULL), 13.8755378 + 2.556533, 1e-3);	/* solid and light */
	assert_non_null(strstr(d, "= rect idle light x=0.68..1.32 y="));
	near(rects_at(d, "idle", false, 0, NULL), 7.8849806, 1e-3);	/* 1gpu: all host */
	assert_non_null(strstr(d, "\"idle: the CPU launched the next work late\""));
	assert_non_null(strstr(d, "= idle hatched \"idle: work launched, held by a stream, event or peer\""));
	assert_non_null(strstr(d, "= idle light \"idle: cause unknown\""));
	free(d);
	analysis_free(a);
}

/*
 * clock-offset: GPU 1's trace clock runs 37 ms ahead (clock_offset_s
 * -0.037). Both GPUs show step 28 (steady on both; its slower window,
 * 86.523 ms, is the median of the steps' slower windows), which GPU 0
 * started at 1764451841856931646 ns on its clock and GPU 1 at
 * 1764451841894200810 on its own: on the common clock GPU 1 started
 * 0.269164 ms after GPU 0, so its first memcpy (12.485 us) starts there.
 * Before, each GPU showed its own median step (24 and 26) on one clock.
 */
static void timeline_on_common_clock(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/clock-offset");
	char *d = chart_dump(a, "07-timeline"), *v;
	double shift = (double)(1764451841894200810LL - 1764451841856931646LL) / 1e9 - 0.037;

	(void)state;
	assert_non_null(d);
	value_is(d, "panel.0.y.cats", "memory | comm | 2gpu GPU 1: compute | memory | comm | 2gpu GPU 0: compute | "
		 "memory | comm | 1gpu GPU 0: compute");
	v = value_of(d, "subtitle");
	assert_non_null(strstr(v, "step 22 of 1gpu, step 28 of 2gpu (the same step on each GPU of a run), on its "
				"run's common clock"));
	free(v);
	near(shift, 0.269164e-3, 1e-12);
	assert_non_null(strstr(d, "rect memory x=0.269164..0.281649 y=-0.38..0.38"));	/* GPU 1's memory lane */
	assert_non_null(strstr(d, "rect memory x=0..0.012485 y=2.62..3.38"));		/* GPU 0's */
	assert_non_null(strstr(d, " = overlapped_comm \"overlapped comm (under compute)\""));
	free(d);
	analysis_free(a);
}

/*
 * ddp-scales-well: both GPUs show step 7 (its slower window, 42.652 ms, is
 * the median of the steady steps' slower windows), whose partition in
 * analysis.json gives GPU 0 1.644 ms of exposed comm, 0.140 ms of it
 * waiting, and GPU 1 1.202 ms, none waiting. The timeline's comm lane colours the same time:
 * exposed where no compute kernel runs, hatched while GPU 1 had not started.
 */
static void timeline_agrees_with_the_partition(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/ddp-scales-well");
	char *d = chart_dump(a, "07-timeline");

	(void)state;
	assert_non_null(d);
	value_is(d, "panel.0.y.cats", "memory | comm | 2gpu GPU 1: compute | memory | comm | 2gpu GPU 0: compute | "
		 "memory | comm | 1gpu GPU 0: compute");
	near(widths_at(d, "exposed_comm", true, 4), 0.140292, 2e-3);	/* GPU 0's comm lane */
	near(widths_at(d, "exposed_comm", false, 4) + widths_at(d, "exposed_comm", true, 4), 1.644199, 2e-3);
	near(widths_at(d, "exposed_comm", true, 1), 0, 0);		/* GPU 1's */
	near(widths_at(d, "exposed_comm", false, 1), 1.201522, 2e-3);
	assert_true(widths_at(d, "overlapped_comm", false, 1) > 5);	/* most of the AllReduce hides under backward */
	free(d);
	analysis_free(a);
}

/*
 * pipeline-bubble: both GPUs of the 2-GPU run show step 5 (before, GPU 0
 * showed step 4 and GPU 1 step 5 on one clock, and nothing was hatched).
 * analysis.json's step 5: GPU 0 exposes 41.901 ms of communication, 40.981
 * ms of it waiting for GPU 1; GPU 1 38.595 ms, 37.676 ms waiting. The comm
 * lanes hatch the same waiting.
 */
static void timeline_hatches_the_bubble(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/pipeline-bubble");
	char *d = chart_dump(a, "07-timeline"), *v;

	(void)state;
	assert_non_null(d);
	value_is(d, "panel.0.y.cats", "memory | comm | 2gpu GPU 1: compute | memory | comm | 2gpu GPU 0: compute | "
		 "memory | comm | 1gpu GPU 0: compute");
	v = value_of(d, "subtitle");
	assert_non_null(strstr(v, "step 5 of 2gpu (the same step on each GPU of a run)"));
	free(v);
	near(widths_at(d, "exposed_comm", true, 4), 40.98081, 2e-3);	/* GPU 0's comm lane */
	near(widths_at(d, "exposed_comm", false, 4) + widths_at(d, "exposed_comm", true, 4), 41.900507, 2e-3);
	near(widths_at(d, "exposed_comm", true, 1), 37.675735, 2e-3);	/* GPU 1's */
	near(widths_at(d, "exposed_comm", false, 1) + widths_at(d, "exposed_comm", true, 1), 38.595432, 2e-3);
	assert_non_null(strstr(d, " = exposed_comm hatched \"exposed comm: waiting for a peer\""));
	free(d);
	analysis_free(a);
}

/* The hand-built DDP run with GPU 1's clock 37 ms ahead and its step started 0.1 ms after GPU 0's. */
static void timeline_applies_clock_offsets(void **state)
{
	struct analysis a;
	struct run_result *r;
	char *d;

	(void)state;
	fixture_analysis_ddp(&a);
	r = &a.runs[a.cmp.candidate];
	for (size_t k = 0; k < r->gpu[0].nsteps; k++) {
		r->gpu[0].steps[k].start_ns = 1000000000 + (int64_t)k * 250000000;
		r->gpu[1].steps[k].start_ns = r->gpu[0].steps[k].start_ns + 37100000;
	}
	r->gpu[0].clock_offset_s = 0;
	r->gpu[1].clock_offset_s = -0.037;
	d = chart_dump(&a, "07-timeline");
	assert_non_null(d);
	/* GPU 1 (memory lane 0): its memcpy from 0 to 3 ms of its step, 0.1 ms after GPU 0's start */
	assert_non_null(strstr(d, "panel.0.mark.0 = rect memory x=0.1..3.1 y=-0.38..0.38\n"));
	assert_non_null(strstr(d, "rect memory x=0..3 y=2.62..3.38\n"));	/* GPU 0 (memory lane 3) */
	r->gpu[1].clock_offset_s = NAN;	/* unknown: each GPU on its own clock, and said */
	free(d);
	d = chart_dump(&a, "07-timeline");
	assert_non_null(strstr(d, "panel.0.mark.0 = rect memory x=0..3 y=-0.38..0.38\n"));
	assert_non_null(strstr(d, "each GPU on its own clock (no clock offset to align them)"));
	free(d);
	fixture_analysis_release(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(banner_on_precision_changed),
		cmocka_unit_test(no_banner_on_scales_well),
		cmocka_unit_test(waterfall_per_sample),
		cmocka_unit_test(waterfall_splits_waiting),
		cmocka_unit_test(breakdown_wait_and_transfer),
		cmocka_unit_test(breakdown_idle_by_cause),
		cmocka_unit_test(breakdown_three_idle_causes),
		cmocka_unit_test(step_time_names_a_failed_run),
		cmocka_unit_test(captions_follow_the_content),
		cmocka_unit_test(timeline_on_common_clock),
		cmocka_unit_test(timeline_applies_clock_offsets),
		cmocka_unit_test(timeline_agrees_with_the_partition),
		cmocka_unit_test(timeline_hatches_the_bubble),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
