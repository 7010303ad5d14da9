/*
 * Unit tests of render/charts_more.c and charts_roof.c: the options, sweep,
 * precision, waiting and roofline charts, laid out from the hand-built fixtures and from sample
 * trials, their bars read back from chart_layout_dump() and compared with
 * the numbers the analysis gives (worked out by hand from the fixture, or
 * copied from the sample's analysis.json), and each chart left out with its
 * reason where the data is absent.
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
#include "core/buf.h"
#include "core/diag.h"
#include "core/xalloc.h"
#include "ingest/trial.h"
#include "render/charts.h"
#include "render/layout.h"
#include "tests/unit/fixture_analysis.h"

#define RECTS_MAX 32

/* One bar of a dump: its panel, category name and extent. */
struct bar {
	int panel;
	char cat[32];
	double x0, x1, y0, y1;
};

/* "lo..hi" at s (a dump's range: strtod alone would take "155." of "155..200"). */
static void range_at(const char *s, double *lo, double *hi)
{
	const char *dots = strstr(s, "..");

	assert_non_null(dots);
	*lo = strtod(s, NULL);
	*hi = strtod(dots + 2, NULL);
}

/* The bars of a dump, in the order they were laid out; returns how many. */
static size_t bars_of(const char *dump, struct bar *out, size_t max)
{
	const char *line;
	size_t n = 0;

	for (line = dump; line && *line && n < max; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		int mark;
		struct bar b;

		if (sscanf(line, "panel.%d.mark.%d = rect %31s x=", &b.panel, &mark, b.cat) == 3) {
			range_at(strstr(line, " x=") + 3, &b.x0, &b.x1);
			range_at(strstr(line, " y=") + 3, &b.y0, &b.y1);
			out[n++] = b;
		}
	}
	return n;
}

/* The y values of the dashed lines of panel (two points each: a tick across a bar); returns how many. */
static size_t ticks_of(const char *dump, int panel, double *y, size_t max)
{
	const char *line;
	size_t n = 0;

	for (line = dump; line && *line && n < max; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		int p, mark;
		double x0, y0, x1, y1;

		if (sscanf(line, "panel.%d.mark.%d = line ink dashed n=2 %lf,%lf %lf,%lf", &p, &mark, &x0, &y0,
			   &x1, &y1) == 6 && p == panel) {
			assert_true(y0 == y1);
			y[n++] = y0;
		}
	}
	return n;
}

/* got equals want to the 6 significant digits of a dump. */
static void near(double got, double want)
{
	if (fabs(got - want) > 1e-5 * fmax(1, fabs(want)))
		fail_msg("%.9g is not %.9g", got, want);
}

/* --- 10-options --- */

static void options_from_the_fixture(void **state)
{
	struct analysis a;
	struct bar b[RECTS_MAX];
	const char *why;
	char *d;

	(void)state;
	fixture_analysis_ddp(&a);
	d = dump_chart(&a, "10-options", &why);
	assert_non_null(d);
	/* no target: throughput and GPU-hours only; 64 samples per step of 0.412 s and 0.231 s */
	assert_int_equal(bars_of(d, b, RECTS_MAX), 4);
	assert_null(strstr(d, "panel.2."));
	assert_int_equal(b[0].panel, 0);
	assert_string_equal(b[0].cat, "baseline");
	near(b[0].y1, 64 / 0.412);
	assert_string_equal(b[1].cat, "candidate");
	near(b[1].y1, 64 / 0.231);
	/* GPU-hours per million samples: 1e6 / samples_per_s x GPUs / 3600 */
	assert_int_equal(b[2].panel, 1);
	near(b[2].y1, 1e6 / (64 / 0.412) / 3600);
	near(b[3].y1, 2 * 1e6 / (64 / 0.231) / 3600);
	has_line(d, "panel.0.x.cats = 1 GPU | 2 GPUs");
	/* 277.056 / 155.340 = 1.78; 2.00521 / 1.78819 = 1.12 */
	has_line(d, "subtitle = 2 GPUs: 1.78x the samples/s of 1 GPU, at 1.12x the GPU-hours per million samples; "
		    "no target set, so no days to it");
	free(d);
	fixture_analysis_release(&a);
}

/* target_samples = 90000000, gpu_hour_price = 5.50: the numbers of its analysis.json */
static void options_with_a_target_and_a_price(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/expected-speedup-missed");
	struct bar b[RECTS_MAX];
	const char *why;
	char *d;

	(void)state;
	d = dump_chart(a, "10-options", &why);
	assert_non_null(d);
	assert_int_equal(bars_of(d, b, RECTS_MAX), 8);
	near(b[0].y1, 218.1103022922227);
	near(b[1].y1, 376.21164839673173);
	near(b[2].y1, 1.2735655989583334);
	near(b[3].y1, 1.4767101388888888);
	/* each option's days inside the window it rents: 4.8 days (5.5 with the 15% margin) and
	   2.8 (3.2): both a 7-day window of 1 lot of 2 GPUs, 7 x 24 x 2 x 5.50 = 1848 as rented */
	assert_int_equal(b[4].panel, 2);
	near(b[4].y1, 7);
	near(b[5].y1, 4.77587099609375);
	near(b[6].y1, 7);
	near(b[7].y1, 2.7688315104166668);
	assert_null(strstr(d, "dashed y="));
	has_line(d, "panel.2.x.cats = 1 GPU\\n7 d, 1 lot\\n1,848 | 2 GPUs\\n7 d, 1 lot\\n1,848");
	assert_non_null(strstr(d, "\"window rented, days needed + 15% fit in it\""));
	assert_non_null(strstr(d, "Rent 1 lot of 2x B200 for 7 days: 2.8 days needed at 376.2 samples/s "
			       "(margin 153%), 1,848 for the window"));
	has_line(d, "panel.1.x.cats = 1 GPU\\ncost 7.00 | 2 GPUs\\ncost 8.12");
	/* three panels side by side, each wide enough to read, none over the next */
	for (int i = 0; i < 3; i++) {
		double x, y, w, h, nx = 640;
		char key[32];

		snprintf(key, sizeof(key), "panel.%d.plot = ", i);
		assert_int_equal(sscanf(strstr(d, key) + strlen(key), "%lf %lf %lf %lf", &x, &y, &w, &h), 4);
		snprintf(key, sizeof(key), "panel.%d.plot = ", i + 1);
		if (i < 2)
			nx = strtod(strstr(d, key) + strlen(key), NULL);
		assert_true(w > 100 && h > 100 && x + w < nx);
	}
	free(d);
	analysis_free(a);
}

/* Longer than the longest window: consecutive 30-day windows, drawn as the days they rent. */
static void options_past_every_window(void **state)
{
	struct analysis a;
	struct bar b[RECTS_MAX];
	const char *why;
	char *d;

	(void)state;
	fixture_analysis_ddp(&a);
	a.cmp.options[0].days_to_target = 40;	/* 46 with the margin: 2 consecutive 30-day windows */
	a.cmp.options[0].window_days = 30;
	a.cmp.options[0].windows = 2;
	a.cmp.options[1].days_to_target = 12;
	a.cmp.options[1].window_days = 30;
	a.cmp.options[1].windows = 1;
	d = dump_chart(&a, "10-options", &why);
	assert_non_null(d);
	assert_int_equal(bars_of(d, b, RECTS_MAX), 8);
	near(b[4].y1, 60);
	near(b[5].y1, 40);
	near(b[6].y1, 30);
	near(b[7].y1, 12);
	has_line(d, "panel.2.x.cats = 1 GPU\\n60 d, 1 lot | 2 GPUs\\n30 d, 1 lot");
	free(d);
	fixture_analysis_release(&a);
}

/* hf-log-only's throughput is the trainer's whole-job summary: the subtitle says so. */
static void options_from_a_log_summary(void **state)
{
	struct analysis *a = analyse_dir("tests/data/trials/hf-log-only");
	struct bar b[RECTS_MAX];
	const char *why;
	char *d = dump_chart(a, "10-options", &why);

	(void)state;
	assert_non_null(d);
	assert_int_equal(bars_of(d, b, RECTS_MAX), 4);
	near(b[0].y1, 8);
	near(b[1].y1, 14.286);
	assert_non_null(strstr(d, "; throughput from a whole-job log summary, start-up included\n"));
	free(d);
	analysis_free(a);
}

static void options_left_out(void **state)
{
	struct analysis a, *b;
	const char *why;

	(void)state;
	fixture_analysis_single(&a);
	assert_null(dump_chart(&a, "10-options", &why));
	assert_string_equal(why, "no options chart: needs a baseline and a candidate");
	fixture_analysis_release(&a);
	b = analyse_dir("samples/trials/ddp-precision-changed");	/* options: [] */
	assert_null(dump_chart(b, "10-options", &why));
	assert_string_equal(why, "no options chart: the runs differ in precision (bf16 against tf32), a blocking confound that makes "
			    "the runs' throughputs incomparable; a trial without that difference supplies them");
	analysis_free(b);
}

/* The 1-GPU run failed: one option, and the subtitle says why. */
static void options_after_an_oom(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/pipeline-oom-feasibility");
	struct bar b[RECTS_MAX];
	const char *why;
	char *d = dump_chart(a, "10-options", &why);

	(void)state;
	assert_non_null(d);
	assert_int_equal(bars_of(d, b, RECTS_MAX), 2);
	near(b[0].y1, 31.837895951893515);
	near(b[1].y1, 17.44950597222222);
	has_line(d, "subtitle = 1gpu (1 GPU) has no throughput (it ran out of memory): only the 2-GPU option is shown; "
		    "no target set, so no days to it");
	free(d);
	analysis_free(a);
}

/* --- 11-sweep --- */

/*
 * A sample sweep without a target: a configuration is 1 M samples, so the bars are
 * samples/s x 86400 / 1e6, twice for the 2 independent runs (sps: its analysis.json).
 */
static void sweep_sample(const char *dir, double sps1, double sps2, const char *answer)
{
	struct analysis *a = analyse_dir(dir);
	struct bar b[RECTS_MAX];
	const char *why;
	char *d = dump_chart(a, "11-sweep", &why);
	char *note = xasprintf("\nnote = Answer: %s: ", answer);

	assert_non_null(d);
	assert_int_equal(bars_of(d, b, RECTS_MAX), 2);
	near(b[0].y1, 2 * sps1 * 86400 / 1e6);
	near(b[1].y1, sps2 * 86400 / 1e6);
	/* the taller bar is the answer, in words, not analysis.json's id */
	assert_true((b[0].y1 > b[1].y1) == !strcmp(answer, "2 independent 1-GPU runs"));
	has_line(d, "panel.0.x.cats = 2 independent\\n1-GPU runs | one 2-GPU run");
	assert_non_null(strstr(d, note));
	free(note);
	free(d);
	analysis_free(a);
}

static void sweep_independent(void **state)
{
	(void)state;
	sweep_sample("samples/trials/hparam-sweep-independent", 77.18714230091301, 110.11143614554204,
		     "2 independent 1-GPU runs");
}

static void sweep_distributed(void **state)
{
	(void)state;
	sweep_sample("samples/trials/hparam-sweep-distributed", 77.93685043455895, 176.9581410936586,
		     "one 2-GPU run");
}

/* A configuration trains to the target: n runs of days_1, or one of days_n. */
static void sweep_with_a_target(void **state)
{
	struct analysis a;
	struct bar b[RECTS_MAX];
	const char *why;
	char *d;

	(void)state;
	fixture_analysis_ddp(&a);
	assert_null(dump_chart(&a, "11-sweep", &why));
	assert_string_equal(why, "no sweep chart: the trial's question is not hparam-sweep");
	a.question = Q_HPARAM_SWEEP;
	a.cmp.options[0].days_to_target = 4;
	a.cmp.options[1].days_to_target = 2.5;
	d = dump_chart(&a, "11-sweep", &why);
	assert_non_null(d);
	assert_int_equal(bars_of(d, b, RECTS_MAX), 2);
	near(b[0].y1, 2 / 4.0);
	near(b[1].y1, 1 / 2.5);
	free(d);
	a.cmp.noptions = 1;
	assert_null(dump_chart(&a, "11-sweep", &why));
	assert_string_equal(why, "no sweep chart: needs the throughput of a 1-GPU and an n-GPU run");
	fixture_analysis_release(&a);
}

/* --- 12-precision --- */

/* Each run's bars stack to 100% in the order of its shares. */
static void precision_changed(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/ddp-precision-changed");
	struct bar b[RECTS_MAX];
	const char *why;
	char *d = dump_chart(a, "12-precision", &why);
	size_t n, k;

	(void)state;
	assert_non_null(d);
	n = bars_of(d, b, RECTS_MAX);
	assert_int_equal(n, 4);
	/* 1gpu: bf16 0.9972957588867118 then fp32 0.0027042411132881783 */
	assert_string_equal(b[0].cat, "compute");
	near(b[0].y1, 99.72957588867118);
	near(b[1].y0, b[0].y1);		/* fp32's 0.27% on top */
	/* 2gpu: tf32 0.8094160457805586 then fp32 0.19058395421944124 */
	assert_string_equal(b[2].cat, "overlapped_comm");
	near(b[2].y1, 80.94160457805586);
	assert_string_equal(b[3].cat, "memory");
	near(b[3].y1 - b[3].y0, 19.058395421944124);
	for (k = 0; k < n; k += 2)
		near(b[k + 1].y1, 100);
	has_line(d, "panel.0.x.cats = 1gpu (1 GPU)\\ndeclared bf16\\nobserved bf16 | "
		    "2gpu (2 GPUs)\\ndeclared bf16\\nobserved tf32");
	assert_non_null(strstr(d, "legend.1 = overlapped_comm \"tf32\""));
	has_line(d, "panel.0.y.range = 0 100");
	free(d);
	analysis_free(a);
}

static void precision_left_out(void **state)
{
	struct analysis *a = analyse_dir("tests/data/trials/log-only"), f;
	struct bar b[RECTS_MAX];
	const char *why;
	char *d;

	(void)state;
	assert_null(dump_chart(a, "12-precision", &why));
	assert_string_equal(why, "no precision chart: no run has matmul kernels with a known time by dtype");
	analysis_free(a);
	/* the single fixture: 0.97 bf16 and 0.03 fp32 */
	fixture_analysis_single(&f);
	d = dump_chart(&f, "12-precision", &why);
	assert_non_null(d);
	assert_int_equal(bars_of(d, b, RECTS_MAX), 2);
	near(b[0].y1, 97);
	near(b[1].y1, 100);
	free(d);
	fixture_analysis_release(&f);
	/* a run without matmul kernels of a known dtype has no bar, and the subtitle names it */
	fixture_analysis_ddp(&f);
	for (size_t t = 0; t < DT_COUNT; t++)
		f.runs[f.cmp.candidate].matmul_share[t] = NAN;
	d = dump_chart(&f, "12-precision", &why);
	assert_non_null(d);
	assert_int_equal(bars_of(d, b, RECTS_MAX), 2);
	has_line(d, "subtitle = share of each run's matmul-class kernel time (GEMM, conv, attention) by dtype; "
		    "b200-2gpu-ddp: no matmul kernel with a known dtype");
	free(d);
	fixture_analysis_release(&f);
}

/* --- 13-waiting --- */

/* pipeline-oom-feasibility: GPU 1 waits 70% of its step for GPU 0 (its analysis.json). */
static void waiting_pipeline(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/pipeline-oom-feasibility");
	struct bar b[RECTS_MAX];
	double y[8];
	const char *why;
	char *d = dump_chart(a, "13-waiting", &why);

	(void)state;
	assert_non_null(d);
	assert_int_equal(bars_of(d, b, RECTS_MAX), 3 * 2 + 2);
	/* GPU 0: waiting, busy (compute + memory), rest */
	assert_string_equal(b[0].cat, "exposed_comm");
	near(b[0].y1, 68.71888257142857);
	near(b[1].y0, b[0].y1);
	assert_string_equal(b[3].cat, "exposed_comm");
	near(b[3].y1, 179.66556371428571);
	/* the dashed tick is 25% of each GPU's step, where its stack ends */
	assert_int_equal(ticks_of(d, 0, y, 8), 2);
	near(y[0], 0.25 * b[2].y1);
	near(y[1], 0.25 * b[5].y1);
	assert_true(b[3].y1 > y[1] && b[0].y1 > y[0]);
	/* ratios: memory 8.653268765133172 against 2, busy 2.459178586386792 against 1.25 */
	assert_int_equal(b[6].panel, 1);
	near(b[6].y1, 8.653268765133172);
	near(b[7].y1, 2.459178586386792);
	assert_int_equal(ticks_of(d, 1, y, 8), 2);
	near(y[0], 2);
	near(y[1], 1.25);
	has_line(d, "panel.1.x.cats = 2gpu\\nmemory 8.65x | 2gpu\\nbusy 2.46x");
	/* GPU 0 is the straggler GPU 1 waits for, busy in its larger share of the model */
	assert_non_null(strstr(d, "\nnote = Imbalance (2gpu): GPU 0 is a straggler: GPU 1 waits 179.7 ms "
			       "per step (70% of its step) in collectives for it; GPU 0 is computing"));
	assert_non_null(strstr(d, "; GPU 0 holds 74.9 GB"));
	assert_non_null(strstr(d, "\"straggler\\n(computing)\""));
	assert_non_null(strstr(d, "\"waits 70%\""));
	has_line(d, "subtitle = mean steady step per GPU; the most waiting: 2gpu GPU 1, 70% of its step "
		    "(dashed: 25%); ratios against the 2x memory and 1.25x busy flags");
	free(d);
	analysis_free(a);
}

static void waiting_fixture_and_left_out(void **state)
{
	struct analysis a;
	struct bar b[RECTS_MAX];
	const char *why;
	char *d;

	(void)state;
	fixture_analysis_ddp(&a);
	d = dump_chart(&a, "13-waiting", &why);
	assert_non_null(d);
	/* the candidate's GPU 0: no waiting, busy 194 + 6 ms, the rest to its 229 ms step */
	assert_int_equal(bars_of(d, b, RECTS_MAX), 3 * 2 + 2);
	near(b[0].y1, 0);
	near(b[1].y1, 200);
	near(b[2].y1, 229);
	near(b[5].y1, 231);
	assert_null(strstr(d, "\nnote = "));
	free(d);
	fixture_analysis_release(&a);
	fixture_analysis_single(&a);
	assert_null(dump_chart(&a, "13-waiting", &why));
	assert_string_equal(why, "no waiting chart: no multi-GPU run has a step breakdown with waiting for a peer per GPU");
	fixture_analysis_release(&a);
}

/* --- 14-roofline --- */

/* The points of panel 0's line mark k of a dump (log10 x, log10 y); returns how many. */
static size_t points_of(const char *dump, int k, double *x, double *y, size_t max)
{
	char key[48];
	const char *line, *s;
	size_t n = 0;
	int used;

	snprintf(key, sizeof(key), "panel.0.mark.%d = line ", k);
	line = strstr(dump, key);
	assert_non_null(line);
	s = strstr(line, " n=");
	assert_non_null(s);
	s = strchr(s + 1, ' ');
	while (s && n < max && sscanf(s, " %lf,%lf%n", &x[n], &y[n], &used) == 2) {
		n++;
		s += used;
	}
	return n;
}

static int count_of(const char *s, const char *what)
{
	int n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

/*
 * ddp-scales-well: 1gpu's first op is aten::mm [[32768,2048],[2048,2048]] at
 * 992.969696969697 FLOPs/byte and 207.61705408827441 TFLOP/s; both runs' GPU
 * has a bf16 dense peak of 2250 TFLOP/s and 8000 GB/s (their analysis.json).
 */
static void roofline_points_and_ceilings(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/ddp-scales-well");
	const char *why;
	char *d = dump_chart(a, "14-roofline", &why);
	double x[16], y[16];

	(void)state;
	assert_non_null(d);
	has_line(d, "panel.0.x.scale = log10");
	has_line(d, "panel.0.y.scale = log10");
	assert_int_equal(points_of(d, 0, x, y, 16), 9);
	near(x[0], log10(992.969696969697));
	near(y[0], log10(207.61705408827441));
	assert_int_equal(points_of(d, 1, x, y, 16), 9);
	assert_non_null(strstr(d, "panel.0.mark.0 = line baseline "));
	assert_non_null(strstr(d, "panel.0.mark.1 = line candidate "));
	/* one pair of ceilings: the runs share the GPU and dtype */
	has_line(d, "panel.0.mark.2 = hline reference dashed y=3.35218 \"compute ceiling: bf16 dense peak 2250.0 TFLOP/s\"");
	near(log10(2250), 3.35218);
	/* the memory slope: 8 TB/s, from the axis's lowest decade (10) to the ridge (2250 / 8 = 281.25) */
	assert_int_equal(points_of(d, 3, x, y, 16), 2);
	near(x[0], 1);
	near(y[0], log10(8 * 10.0));
	near(x[1], log10(281.25));
	near(y[1], log10(2250));
	has_line(d, "panel.0.mark.4 = label ink at=1,1.90309 \"memory ceiling: 8000.0 GB/s\"");
	/* the three ops of most kernel time, named once each */
	has_line(d, "panel.0.mark.5 = label ink at=2.98397,2.2927 \"mm\"");
	has_line(d, "panel.0.mark.7 = label ink at=3.17302,2.78369 \"linear\"");
	assert_null(strstr(d, "panel.0.mark.8 ="));
	assert_null(strstr(d, "banner ="));
	/* every op of the sample is under its ceiling */
	assert_null(strstr(d, "above the compute ceiling"));
	free(d);
	/* an op timed faster than a B200 computes: said, not shown as possible */
	a->runs[0].mfu.ops[0].tflops = 3000;
	d = dump_chart(a, "14-roofline", &why);
	assert_non_null(d);
	assert_non_null(strstr(d, "; 1 point above the compute ceiling (aten::mm): faster than the GPU can "
			       "compute, so its kernel time or its recorded shapes are wrong"));
	free(d);
	a->runs[1].mfu.ops[0].tflops = 2500;
	d = dump_chart(a, "14-roofline", &why);
	assert_non_null(d);
	assert_non_null(strstr(d, "; 2 points above the compute ceiling (aten::mm and others): faster than "
			       "the GPU can compute, so their kernel times or their recorded shapes are wrong"));
	free(d);
	analysis_free(a);
}

/* Runs in different dtypes: a compute ceiling each, one memory label, and the banner. */
static void roofline_precision_changed(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/ddp-precision-changed");
	const char *why;
	char *d = dump_chart(a, "14-roofline", &why);

	(void)state;
	assert_non_null(d);
	assert_non_null(strstr(d, "banner = Not comparable: precision differs (1gpu bf16, 2gpu tf32)"));
	assert_non_null(strstr(d, "= hline reference dashed y=3.35218 \"compute ceiling: bf16 dense peak 2250.0 TFLOP/s\""));
	assert_non_null(strstr(d, "= hline reference dashed y=3.05115 \"compute ceiling: tf32 dense peak 1125.0 TFLOP/s\""));
	near(log10(1125), 3.05115);
	assert_int_equal(count_of(d, "dashed n=2 1,1.90309 "), 2);	/* one slope each, ... */
	assert_int_equal(count_of(d, "= label ink at=1,1.90309 \"memory ceiling: 8000.0 GB/s\""), 1);	/* named once */
	free(d);
	analysis_free(a);
}

static void roofline_left_out(void **state)
{
	struct analysis *a = analyse_dir("tests/data/trials/log-only"), f;
	const char *why;
	char *d;

	(void)state;
	assert_null(dump_chart(a, "14-roofline", &why));
	assert_string_equal(why, "no roofline chart: no trace with GPU kernels");
	analysis_free(a);
	/* the fixture's runs carry no op shapes and no reason of their own */
	fixture_analysis_ddp(&f);
	assert_null(dump_chart(&f, "14-roofline", &why));
	assert_string_equal(why, "no roofline chart: op shapes not recorded (profile with record_shapes=True)");
	fixture_analysis_release(&f);
	/* one run with shapes, one without: drawn, and the subtitle names the one left out */
	a = analyse_dir("samples/trials/unknown-precision");
	d = dump_chart(a, "14-roofline", &why);
	assert_non_null(d);
	has_line(d, "subtitle = each op's FLOPs (from its recorded shapes) over its kernel time, against its "
		    "FLOPs per byte; 2gpu: op shapes not recorded (profile with record_shapes=True)");
	assert_null(strstr(d, "line candidate"));
	free(d);
	analysis_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(options_from_the_fixture),
		cmocka_unit_test(options_with_a_target_and_a_price),
		cmocka_unit_test(options_past_every_window),
		cmocka_unit_test(options_from_a_log_summary),
		cmocka_unit_test(options_left_out),
		cmocka_unit_test(options_after_an_oom),
		cmocka_unit_test(sweep_independent),
		cmocka_unit_test(sweep_distributed),
		cmocka_unit_test(sweep_with_a_target),
		cmocka_unit_test(precision_changed),
		cmocka_unit_test(precision_left_out),
		cmocka_unit_test(waiting_pipeline),
		cmocka_unit_test(waiting_fixture_and_left_out),
		cmocka_unit_test(roofline_points_and_ceilings),
		cmocka_unit_test(roofline_precision_changed),
		cmocka_unit_test(roofline_left_out),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
