/*
 * Attribution with a baseline of b GPUs (docs/analysis.md, "Attribution
 * with b GPUs"): trials built by hand in the model, with a 2-GPU baseline
 * and a 4-GPU candidate (n = 2) or two 2-GPU runs (n = 1), whose partitions
 * are known to the millisecond. Each step of a rank: a GEMM, an all-reduce
 * that nothing hides, a 1 ms copy, then idle; so each GPU's mean step is
 * compute + exposed comm + 1 ms + idle as written below, and every number
 * asserted here is worked out from those by hand.
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
#include "render/analysis_text.h"
#include "core/buf.h"
#include "render/charts.h"
#include "render/page1.h"
#include "render/summary.h"
#include "tests/unit/fixture_analysis.h"

#define MS NS_PER_MS

/* One run's shape: its ranks, step period, GEMM and all-reduce per step (ms). */
struct shape {
	const char *name;
	size_t ranks;
	int64_t period;
	int64_t gemm;
	int64_t comm;
};


/*
 * Steps 0..9 every period ms (step 0 twice as long, so warm-up): the GEMM
 * from the step's start, the all-reduce right after it, a copy in the
 * step's last 2 ms but one. Every rank of a run does the same at the same
 * instants: no rank waits for another.
 */
static void fill_rank(struct trial *t, struct rank *k, const struct shape *s)
{
	const char *g = intern_str(&t->strings, "nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT");
	const char *n = intern_str(&t->strings, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
	const char *m = intern_str(&t->strings, "Memcpy DtoD (Device -> Device)");
	int64_t t0 = 1000 * MS;

	for (int64_t i = 0; i < 10; i++) {
		int64_t len = i == 0 ? 2 * s->period : s->period;
		int64_t end = t0 + s->gemm * MS * (i == 0 ? 2 : 1);

		fixture_kernel(k, i, t0, end, EVC_COMPUTE, g);
		if (s->comm)
			fixture_kernel(k, i, end, end + s->comm * MS, EVC_COMM, n);
		fixture_kernel(k, i, t0 + len * MS - 2 * MS, t0 + len * MS - 1 * MS, EVC_MEMORY, m);
		t0 += len * MS;
	}
}

static void add_run(struct trial *t, const struct shape *s)
{
	struct run *r = trial_add_run(t, s->name, s->name);
	struct srcpos pos = SRCPOS_LINE("t/run.ini", 2);

	fact_set_i64(&r->declared.global_batch, 64, &pos);
	for (size_t k = 0; k < s->ranks; k++) {
		fill_rank(t, run_rank(r, (int32_t)k), s);
		r->ranks[k].dev.name = "NVIDIA B200";
	}
}

/* The trial of two runs, baseline first; baseline = names it in trial.ini unless NULL. */
static struct trial *trial_of(const struct shape *b, const struct shape *c, const char *baseline,
			      enum question q)
{
	struct trial *t = trial_new();
	struct srcpos pos = SRCPOS_LINE("t/trial.ini", 3);

	t->hypothesis = HYP_STEP_TIME;
	t->question = q;
	add_run(t, b);
	add_run(t, c);
	if (baseline)
		fact_set_str(t, &t->baseline, baseline, &pos);
	return t;
}

/*
 * 2 GPUs: 100 ms steps of 80 ms compute, 10 ms exposed comm, 1 ms copy, 9 ms idle.
 * 4 GPUs: 55 ms steps of 40 ms compute (half each: the same work over twice
 * the GPUs), 10 ms exposed comm, 1 ms copy, 4 ms idle.
 */
static const struct shape two = { "2gpu", 2, 100, 80, 10 };
static const struct shape four = { "4gpu", 4, 55, 40, 10 };
/* 2 GPUs again, faster: 90 ms steps of 70 ms compute, 10 ms comm, 1 ms copy, 9 ms idle. */
static const struct shape two_b = { "2gpu-b", 2, 90, 70, 10 };

static struct analysis *analyse(struct trial *t)
{
	struct analysis *a = analysis_run(t);

	trial_free(t);		/* the result must not need it */
	assert_true(a->cmp.valid);
	return a;
}

/* The text analyze prints for a, malloc'd. */
static char *analyze_text(const struct analysis *a)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(analysis_write_text(a, f, NULL), 0);
	fclose(f);
	return text;
}

/* The text of a's recommendation id; the test fails when there is none. */
static const char *rec_text(const struct analysis *a, const char *id)
{
	for (size_t i = 0; i < a->nrecs; i++)
		if (!strcmp(a->recs[i].id, id))
			return a->recs[i].text;
	fail_msg("no recommendation '%s'", id);
	return "";
}

/* The message of a's first finding with the code; the test fails when there is none. */
static const char *finding_text(const struct analysis *a, const char *code)
{
	for (size_t i = 0; i < a->nfindings; i++)
		if (!strcmp(a->findings[i].code, code))
			return a->findings[i].message;
	fail_msg("no finding '%s'", code);
	return "";
}

static void has_text(const char *text, const char *line)
{
	if (!strstr(text, line))
		fail_msg("no \"%s\" in:\n%s", line, text);
}

/* 2 against 4: n = 2; each term is 2 x the 4-GPU part less the 2-GPU part. */
static void two_against_four(void **state)
{
	struct analysis *a = analyse(trial_of(&two, &four, "2gpu", Q_SINGLE_CONFIG));
	const struct comparison *c = &a->cmp;
	const struct run_result *b = &a->runs[c->baseline], *n = &a->runs[c->candidate];

	(void)state;
	assert_string_equal(b->name, "2gpu");
	assert_int_equal(b->gpus, 2);
	assert_int_equal(n->gpus, 4);
	close_to(comparison_gpu_ratio(a), 2);
	close_to(b->gpu[b->slowest].step_s.compute, 0.080);
	close_to(n->gpu[n->slowest].step_s.compute, 0.040);
	close_to(n->gpu[n->slowest].step_s.exposed_comm, 0.010);
	close_to(c->speedup, 0.100 / 0.055);
	close_to(c->scaling_efficiency, 0.100 / (2 * 0.055));	/* T2 / (2 T4), 90.9% */
	close_to(c->attribution_s.compute, 0);			/* 2 x 40 - 80: half the compute each */
	close_to(c->attribution_s.exposed_comm, 0.010);		/* 2 x 10 - 10 */
	close_to(c->attribution_s.memory, 0.001);		/* 2 x 1 - 1 */
	close_to(c->attribution_s.idle, -0.001);		/* 2 x 4 - 9 */
	close_to(c->ideal_s, 0.100);
	close_to(c->actual_s, 2 * 0.055);
	close_to(c->attribution_s.compute + c->attribution_s.exposed_comm + c->attribution_s.memory +
		 c->attribution_s.idle, 2 * 0.055 - 0.100);
	assert_int_equal(c->verdict, VERDICT_CONFIRMED);
	assert_string_equal(c->reason, "a step takes 55.0 ms on 4 GPUs against 100.0 ms on 2 GPUs: 1.82x "
			    "faster, at least the expected 1.1x; 91% scaling efficiency");
	assert_string_equal(c->criterion, "step-time: confirmed when the speedup (2-GPU step time / 4-GPU "
			    "step time, medians) is at least 1.1 (expected_speedup) with no blocking confound");
	assert_int_equal(findings_with(a, "baseline-ambiguous"), 0);
	analysis_free(a);
}

/* The "Why: ..." line under the verdict, wherever the lines above it put it. */
static const char *lead_text(const struct summary *s)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->lines[i].kind == SL_LEAD)
			return s->lines[i].text;
	return "";
}

/* analyze's line names both counts; summary.md's why says where perfect scaling starts. */
static void two_against_four_text(void **state)
{
	struct analysis *a = analyse(trial_of(&two, &four, "2gpu", Q_SINGLE_CONFIG));
	char *text = analyze_text(a);
	struct summary s;

	(void)state;
	has_text(text, "4gpu against 2gpu: speedup 1.82x, scaling efficiency 91%, throughput ratio 1.82x\n");
	has_text(text, "Lost against perfect scaling (2 x 4-GPU mean step - 2-GPU mean step, slowest GPU, ms): compute 0, "
		 "exposed comm +10.0, memory +1.0, idle -1.0 = +10.0\n");
	free(text);
	summary_build(&s, a, NULL, 0);
	assert_string_equal(lead_text(&s), "Why: 4 GPUs lose 10.0 ms of GPU time per step against perfect scaling from "
			    "2 GPUs (counted on mean steps, so that the parts add up); the largest part is exposed communication: "
			    "10.0 ms");
	summary_release(&s);
	analysis_free(a);
}

/* The value of "key = value" in a chart's dump; the test fails when it is absent. */
static void value_is(const char *dump, const char *key, const char *want)
{
	char *line = malloc(strlen(key) + strlen(want) + 4);

	assert_non_null(line);
	sprintf(line, "%s = %s", key, want);
	has_line(dump, line);
	free(line);
}

/* Chart 03: the bars add up from the 2-GPU step to 2 x the 4-GPU step; no compute bar. */
static void two_against_four_waterfall(void **state)
{
	struct analysis *a = analyse(trial_of(&two, &four, "2gpu", Q_SINGLE_CONFIG));
	const char *why;
	char *d = dump_chart(a, "03-waterfall", &why);

	(void)state;
	assert_non_null(d);
	value_is(d, "subtitle", "GPU time per step over the baseline's 2 GPUs: ideal = the baseline's mean step; "
		 "actual = 4/2 = 2 x the candidate's mean step");
	value_is(d, "panel.0.x.cats", "ideal | compute | exposed\\ncomm | memory | idle | actual\\n(4 GPUs)");
	assert_non_null(strstr(d, "\"100.0 ms\""));	/* the ideal: the 2-GPU step */
	assert_non_null(strstr(d, "\"110.0 ms\""));	/* the actual: 2 x 55 ms */
	assert_non_null(strstr(d, "\"+10.0 ms\""));	/* exposed comm */
	assert_non_null(strstr(d, "\"-1.0 ms\""));	/* idle */
	assert_null(strstr(d, "\"+80.0 ms\""));		/* n = 4 would have said 4 x 40 - 80 */
	free(d);
	d = dump_chart(a, "10-options", &why);
	assert_non_null(d);
	value_is(d, "title", "The options: 2 GPUs or 4");
	value_is(d, "subtitle", "4 GPUs: 1.82x the samples/s of 2 GPUs, at 1.10x the GPU-hours per million "
		 "samples; no target set, so no days to it");
	value_is(d, "panel.0.x.cats", "2 GPUs | 4 GPUs");
	free(d);
	analysis_free(a);
}

/* 2 against 2, baseline named: n = 1, the terms are the plain differences, efficiency = speedup. */
static void two_against_two(void **state)
{
	struct analysis *a = analyse(trial_of(&two, &two_b, "2gpu", Q_SINGLE_CONFIG));
	const struct comparison *c = &a->cmp;
	char *text;

	(void)state;
	assert_string_equal(a->runs[c->baseline].name, "2gpu");
	close_to(comparison_gpu_ratio(a), 1);
	close_to(c->speedup, 0.100 / 0.090);
	close_to(c->scaling_efficiency, 0.100 / 0.090);
	close_to(c->attribution_s.compute, -0.010);		/* 70 - 80 */
	close_to(c->attribution_s.exposed_comm, 0);
	close_to(c->attribution_s.memory, 0);
	close_to(c->attribution_s.idle, 0);			/* 9 - 9 */
	close_to(c->actual_s - c->ideal_s, -0.010);
	assert_string_equal(c->criterion, "step-time: confirmed when the speedup (baseline step time / "
			    "candidate step time, 2 GPUs each, medians) is at least 1.1 (expected_speedup) "
			    "with no blocking confound");
	assert_int_equal(findings_with(a, "baseline-ambiguous"), 0);
	text = analyze_text(a);
	has_text(text, "Lost against perfect scaling (candidate mean step - baseline mean step, slowest GPU, 2 GPUs each, ms): "
		 "compute -10.0, exposed comm 0, memory 0, idle 0 = -10.0\n");
	free(text);
	analysis_free(a);
}

/* 2 against 2 without baseline =: the first in name order, with a warning that says so. */
static void two_against_two_unnamed(void **state)
{
	struct analysis *a = analyse(trial_of(&two, &two_b, NULL, Q_SINGLE_CONFIG));
	struct summary s;

	(void)state;
	assert_string_equal(a->runs[a->cmp.baseline].name, "2gpu");
	assert_string_equal(a->runs[a->cmp.candidate].name, "2gpu-b");
	assert_int_equal(findings_with(a, "baseline-ambiguous"), 1);
	assert_string_equal(finding_text(a, "baseline-ambiguous"), "trial.ini names no baseline and runs "
			    "'2gpu' and '2gpu-b' both have 2 GPUs: '2gpu', the first in name order, is taken "
			    "as the baseline; name it in trial.ini (baseline = 2gpu) to say so");
	summary_build(&s, a, NULL, 0);
	assert_string_equal(lead_text(&s), "Why: on 2 GPUs each, the candidate's step is 10.0 ms shorter "
			    "than the baseline's (counted on mean steps, so that the parts add up); compute changed most: -10.0 ms");
	summary_release(&s);
	analysis_free(a);
}

/*
 * hparam-sweep, 2 against 4: n = 2 independent 2-GPU runs at 640 samples/s
 * each (64 / 0.1 s) process 1280, more than one 4-GPU run's 1163.6 (64 / 0.055 s).
 */
static void sweep_two_against_four(void **state)
{
	struct analysis *a = analyse(trial_of(&two, &four, "2gpu", Q_HPARAM_SWEEP));
	const char *why;
	char *d;

	(void)state;
	assert_int_equal(a->cmp.answer, ANSWER_INDEPENDENT);
	assert_string_equal(a->cmp.answer_reason, "2 independent 2-GPU runs process 1280.0 samples/s together "
			    "(2 x 640.0), more than the 1163.6 samples/s of one 4-GPU run");
	assert_string_equal(rec_text(a, "two-independent-runs"), "run 2 independent 2-GPU jobs instead of "
			    "one 4-GPU job: together they process 1280.0 samples/s (2 x 640.0) against 1163.6, "
			    "a scaling efficiency of 91% by samples per second, so 2 configurations finish in "
			    "91% of the time the 4-GPU job needs for them one after another");
	d = dump_chart(a, "11-sweep", &why);
	if (!d)
		fail_msg("no sweep chart: %s", why);
	value_is(d, "panel.0.x.cats", "2 independent\\n2-GPU runs | one 4-GPU run");
	value_is(d, "subtitle", "4 GPUs either way: 2 x 640.0 samples/s independently, 1163.6 samples/s "
		 "together; a configuration trains on 1 M samples (the trial sets no target)");
	free(d);
	analysis_free(a);
}

/* Page 1's throughput chart: the sweep's other option is 2 x the 2-GPU baseline, 1280 samples/s. */
static void sweep_page1_bar(void **state)
{
	struct analysis *a = analyse(trial_of(&two, &four, "2gpu", Q_HPARAM_SWEEP));
	struct chart_layout c;
	struct buf b;

	(void)state;
	assert_int_equal(page1_chart(a, &c), 0);
	buf_init(&b, 0);
	assert_int_equal(chart_layout_dump(&c, &b), 0);
	has_line(b.data, "panel.0.x.cats = 2gpu\\n2 GPUs | 4gpu\\n4 GPUs | 2 x 2gpu\\nindependent");
	assert_non_null(strstr(b.data, "\"1280.0\""));
	buf_release(&b);
	chart_layout_release(&c);
	analysis_free(a);
}

/* Sets every GPU's peak of run r (bytes) and its strategy. */
static void peaks(struct run_result *r, const char *strategy, const int64_t *peak)
{
	r->strategy = strategy;
	for (size_t g = 0; g < r->ngpu; g++)
		r->gpu[g].peak_memory = peak[g];
}

static void advise(struct analysis *a, struct trial *t)
{
	a->nrecs = 0;
	analysis_advise(a, t);
}

/*
 * The need on one GPU from a 2-GPU baseline: completed, the larger of both
 * runs' memory models (50 GB, one replica's peak, over 4 x 30 GB ... as
 * replicas 30 GB); failed, its memory model (70 + 60 GB, a pipeline) plus the
 * 4 GB it failed to allocate, over the 4-GPU pipeline's 4 x 30 GB.
 */
static void one_gpu_need_from_two_gpus(void **state)
{
	static const int64_t base[] = { 50000000000LL, 48000000000LL };
	static const int64_t split[] = { 70000000000LL, 60000000000LL };
	static const int64_t cand[] = { 30000000000LL, 30000000000LL, 30000000000LL, 30000000000LL };
	struct analysis *a = analyse(trial_of(&two, &four, "2gpu", Q_SINGLE_CONFIG));
	struct trial *t = trial_new();

	(void)state;
	peaks(&a->runs[0], "ddp", base);
	peaks(&a->runs[1], "ddp", cand);
	advise(a, t);
	assert_string_equal(rec_text(a, "fits-h200"), "the job fits one H200 of 141 GB nominal "
			    "(150.8 GB / 140.4 GiB reported): it needs 50.0 GB, the "
			    "larger of the 2-GPU ddp run's memory model (one GPU's peak: each holds a replica), "
			    "50.0 GB, and the 4-GPU ddp run's memory model (one GPU's peak: each holds a "
			    "replica), 30.0 GB (no memory_reserve_gb in trial.ini)");
	peaks(&a->runs[0], "pipeline", split);
	peaks(&a->runs[1], "pipeline", cand);
	a->runs[0].status = RUN_FAILED_OOM;
	a->runs[0].failed_allocation = 4000000000LL;
	advise(a, t);
	assert_string_equal(rec_text(a, "fits-h200"), "the job fits one H200 of 141 GB nominal "
			    "(150.8 GB / 140.4 GiB reported): it needs 134.0 GB, the "
			    "larger of the failed 2-GPU pipeline run's memory model (the sum of its GPUs' peaks), "
			    "130.0 GB, plus the 4.0 GB it failed to allocate, and the 4-GPU pipeline run's memory "
			    "model (the sum of its GPUs' peaks), 120.0 GB (no memory_reserve_gb in trial.ini)");
	analysis_free(a);
	trial_free(t);
}

/* 2 against 2: the options name their runs, 2 x 1e6 / (64 / 0.1) / 3600 and 2 x 1e6 / (64 / 0.09) / 3600 GPU-hours. */
static void options_of_two_against_two(void **state)
{
	struct analysis *a = analyse(trial_of(&two, &two_b, "2gpu", Q_SINGLE_CONFIG));
	const char *why;
	char *d;

	(void)state;
	assert_int_equal(a->cmp.noptions, 2);
	close_to(a->cmp.options[0].gpu_hours_per_million_samples, 2 * 1e6 / (64 / 0.100) / 3600);
	close_to(a->cmp.options[1].gpu_hours_per_million_samples, 2 * 1e6 / (64 / 0.090) / 3600);
	assert_string_equal(rec_text(a, "rental-window"), "without a target: 2gpu: on 2 GPUs 0.87 GPU-hours "
			    "used per million samples; 2gpu-b: on 2 GPUs 0.78 GPU-hours used per million samples (set "
			    "target_samples or target_tokens in trial.ini for the days and the rental window)");
	d = dump_chart(a, "10-options", &why);
	assert_non_null(d);
	value_is(d, "title", "The options: two runs on 2 GPUs");
	value_is(d, "panel.0.x.cats", "2gpu\\n2 GPUs | 2gpu-b\\n2 GPUs");
	value_is(d, "subtitle", "2gpu-b (2 GPUs): 1.11x the samples/s of 2gpu (2 GPUs), at 0.90x the "
		 "GPU-hours per million samples; no target set, so no days to it");
	free(d);
	analysis_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(two_against_four),
		cmocka_unit_test(two_against_four_text),
		cmocka_unit_test(two_against_four_waterfall),
		cmocka_unit_test(two_against_two),
		cmocka_unit_test(two_against_two_unnamed),
		cmocka_unit_test(sweep_two_against_four),
		cmocka_unit_test(sweep_page1_bar),
		cmocka_unit_test(one_gpu_need_from_two_gpus),
		cmocka_unit_test(options_of_two_against_two),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
