/*
 * Step windows on hand-made traces whose answers are known: the trailing
 * step, warm-up (step 0 and the 15% rule), the steady steps a verdict needs,
 * and the whole-span window of a trace without a closed step.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "render/charts.h"
#include "tests/unit/fixture_analysis.h"

#define MS NS_PER_MS
#define T0 (1000 * MS)

static void kernel(struct trial *t, struct rank *k, int64_t step, int64_t start, int64_t end,
		   uint8_t cls)
{
	struct gpu_event *e = rank_add_event(k);

	e->start = start;
	e->end = end;
	e->step = (int32_t)step;
	e->cls = cls;
	e->kind = EV_KERNEL;
	e->name = intern_str(&t->strings, cls == EVC_COMM ? "ncclDevKernel_AllReduce_Sum_bf16_RING_LL" :
			     "nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT");
	e->coll = cls == EVC_COMM ? COLL_ALLREDUCE : COLL_NONE;
	e->dtype = cls == EVC_COMM ? DT_BF16 : DT_UNKNOWN;
	e->bytes = cls == EVC_COMM ? 1000000 : -1;
}

/*
 * Steps numbered first, first + 1, ... one after the other, step i taking
 * len[i] ms of which the first busy ms compute. The last step's window ends
 * with its last kernel: busy ms, however long the step really was.
 */
static void steps(struct trial *t, struct rank *k, int64_t first, const int64_t *len, size_t n,
		  int64_t busy)
{
	int64_t at = T0;

	for (size_t i = 0; i < n; i++) {
		kernel(t, k, first + (int64_t)i, at, at + busy * MS, EVC_COMPUTE);
		at += len[i] * MS;
	}
}

static struct analysis *one_run(const int64_t *len, size_t n, int64_t first, int64_t busy)
{
	struct trial *t = trial_new();
	struct analysis *a;

	steps(t, run_rank(trial_add_run(t, "1gpu", "t/1gpu"), 0), first, len, n, busy);
	a = analysis_run(t);
	trial_free(t);
	return a;
}

/* Step 0 is warm-up whatever its time; a capture that starts later has no forced warm-up. */
static void step_zero_is_warmup(void **state)
{
	static const int64_t zero[] = { 0, 1, 2, 3, 4 }, later[] = { 4, 5, 6, 7, 8 };
	static const double flat[] = { 0.040, 0.040, 0.040, 0.040, 0.040 };

	(void)state;
	assert_int_equal(steps_warmup_count(zero, flat, 5), 1);
	assert_int_equal(steps_warmup_count(later, flat, 5), 0);
	assert_int_equal(steps_warmup_count(zero, flat, 1), 1);
	assert_int_equal(steps_warmup_count(later, flat, 0), 0);
}

/* Leading steps more than 15% above the median of the second half are warm-up. */
static void fifteen_percent_rule(void **state)
{
	static const int64_t num[] = { 3, 4, 5, 6, 7 };
	/* second half 40, 40, 40: median 40, limit 46: 80 and 47 are warm-up, 46 is not */
	static const double t1[] = { 0.080, 0.047, 0.046, 0.040, 0.040 };
	/* a slow step later on stops nothing: only leading steps are warm-up */
	static const double t2[] = { 0.040, 0.080, 0.040, 0.040, 0.040 };

	(void)state;
	assert_int_equal(steps_warmup_count(num, t1, 5), 2);
	assert_int_equal(steps_warmup_count(num, t2, 5), 0);
}

/*
 * Four steps of 40 ms each, 10 ms of compute (75% idle); the last window is
 * cut to its 10 ms of GPU work. With it, the median of the second half was
 * 25 ms and the rule threw away the real steps; left out, they are steady.
 */
static void trailing_step_left_out(void **state)
{
	static const int64_t len[] = { 40, 40, 40, 40 };
	struct analysis *a = one_run(len, 4, 1, 10);
	const struct run_result *r = &a->runs[0];
	const struct gpu_result *g = &r->gpu[0];

	(void)state;
	assert_int_equal(r->steps_total, 4);
	assert_int_equal(r->steps_warmup, 0);
	assert_int_equal(r->steps_trailing, 1);
	assert_int_equal(r->steps_measured, 3);
	assert_true(g->steps[3].trailing);
	assert_false(g->steps[2].trailing);
	close_to(g->steps[3].window_s, 0.010);
	assert_int_equal(g->steps[3].start_ns, T0 + 120 * MS);
	close_to(r->step_median_s, 0.040);
	close_to(g->mean_step_s, 0.040);
	close_to(g->step_s.compute, 0.010);
	close_to(g->step_s.idle, 0.030);
	close_to(r->step_p10_s, 0.040);
	assert_true(isnan(g->span_s.compute));	/* steps close windows: no whole-span partition */
	assert_int_equal(findings_with(a, "no-step-windows"), 0);
	analysis_free(a);
}

/* The 15% rule on a run: step 0, then 80 and 50 ms steps before 40 ms ones; the trailing 5 ms out. */
static void warmup_on_a_run(void **state)
{
	static const int64_t len[] = { 90, 80, 50, 40, 40, 40, 40 };
	struct analysis *a = one_run(len, 7, 0, 5);
	const struct run_result *r = &a->runs[0];

	(void)state;
	assert_int_equal(r->steps_warmup, 3);
	assert_int_equal(r->steps_trailing, 1);
	assert_int_equal(r->steps_measured, 3);
	assert_true(r->gpu[0].steps[2].warmup);
	assert_false(r->gpu[0].steps[3].warmup);
	assert_false(r->gpu[0].steps[6].warmup);	/* trailing, not warm-up */
	close_to(r->step_median_s, 0.040);
	analysis_free(a);
}

/* A 1-GPU run with n1 steps and a 2-GPU run with n2, every step 40 ms then 20 ms, numbered from 1. */
static struct analysis *compared(size_t n1, size_t n2)
{
	static const int64_t l1[] = { 40, 40, 40, 40, 40, 40 }, l2[] = { 20, 20, 20, 20, 20, 20 };
	struct trial *t = trial_new();
	struct run *r1 = trial_add_run(t, "1gpu", "t/1gpu");
	struct run *r2 = trial_add_run(t, "2gpu", "t/2gpu");
	struct analysis *a;

	t->hypothesis = HYP_STEP_TIME;
	steps(t, run_rank(r1, 0), 1, l1, n1, 30);
	steps(t, run_rank(r2, 0), 1, l2, n2, 15);
	steps(t, run_rank(r2, 1), 1, l2, n2, 15);
	a = analysis_run(t);
	trial_free(t);
	return a;
}

/* The comparison's steps confound; NULL when it has none. */
static const struct confound *steps_confound(const struct analysis *a)
{
	for (size_t i = 0; i < a->cmp.nconfounds; i++)
		if (a->cmp.confounds[i].what == CF_STEPS)
			return &a->cmp.confounds[i];
	return NULL;
}

/* The steps confound, which the test needs: fails without one. */
static const struct confound *the_steps_confound(const struct analysis *a)
{
	static const struct confound none = { .what = CF_PRECISION, .why = "" };
	const struct confound *c = steps_confound(a);

	if (!c)
		fail_msg("no steps confound");
	return c ? c : &none;
}

static void three_steady_steps_suffice(void **state)
{
	struct analysis *a = compared(4, 5);

	(void)state;
	assert_int_equal(a->runs[0].steps_measured, 3);
	assert_null(steps_confound(a));
	assert_int_equal(a->cmp.verdict, VERDICT_CONFIRMED);
	close_to(a->cmp.speedup, 2.0);
	analysis_free(a);
}

static void two_steady_steps_warn(void **state)
{
	struct analysis *a = compared(5, 3);
	const struct confound *c = the_steps_confound(a);

	(void)state;
	assert_int_equal(c->severity, CFS_WARNING);
	assert_string_equal(c->baseline, "4");
	assert_string_equal(c->candidate, "2");
	assert_string_equal(c->why, "run '2gpu' has 2 steady steps of 3 profiled (0 warm-up, 1 trailing); "
			    "a step time needs 3 on each side: profile 7 or more active steps "
			    "(torch.profiler.schedule(wait=1, warmup=1, active=7))");
	assert_int_equal(a->cmp.verdict, VERDICT_CONFIRMED);
	analysis_free(a);
}

static void one_steady_step_blocks(void **state)
{
	struct analysis *a = compared(2, 6);
	const struct confound *c = the_steps_confound(a);

	(void)state;
	assert_int_equal(c->severity, CFS_BLOCKING);
	assert_string_equal(c->why, "run '1gpu' has 1 steady step of 2 profiled (0 warm-up, 1 trailing); "
			    "a step time needs 3 on each side: profile 7 or more active steps "
			    "(torch.profiler.schedule(wait=1, warmup=1, active=7))");
	assert_int_equal(a->cmp.verdict, VERDICT_INCONCLUSIVE);
	assert_string_equal(a->cmp.reason, c->why);
	assert_null(strstr(a->cmp.reason, "differ in"));
	analysis_free(a);
}

/*
 * A plain `with profile():` (no step labels): one window over the whole span,
 * 10 ms of compute, 5 ms idle, 10 ms of exposed comm, no step time.
 */
static void no_steps_whole_span(void **state)
{
	struct trial *t = trial_new();
	struct rank *k = run_rank(trial_add_run(t, "1gpu", "t/1gpu"), 0);
	struct analysis *a;
	const struct gpu_result *g;

	(void)state;
	kernel(t, k, -1, T0, T0 + 10 * MS, EVC_COMPUTE);
	kernel(t, k, -1, T0 + 15 * MS, T0 + 25 * MS, EVC_COMM);
	a = analysis_run(t);
	g = &a->runs[0].gpu[0];
	assert_int_equal(a->runs[0].steps_total, -1);
	assert_true(isnan(a->runs[0].step_median_s));
	close_to(g->span_s.compute, 0.010);
	close_to(g->span_s.exposed_comm, 0.010);
	close_to(g->span_s.memory, 0);
	close_to(g->span_s.idle, 0.005);
	close_to(g->span_s.comm_total, 0.010);
	assert_int_equal(findings_with(a, "no-step-windows"), 1);
	analysis_free(a);
	trial_free(t);
}

/* A single step trails: no step time, the whole span partitioned, a finding. */
static void single_step_trails(void **state)
{
	static const int64_t len[] = { 40 };
	struct analysis *a = one_run(len, 1, 0, 12);
	const struct run_result *r = &a->runs[0];

	(void)state;
	assert_int_equal(r->steps_total, 1);
	assert_int_equal(r->steps_trailing, 1);
	assert_int_equal(r->steps_warmup, 0);
	assert_int_equal(r->steps_measured, 0);
	assert_true(r->gpu[0].steps[0].trailing);
	assert_false(r->gpu[0].steps[0].warmup);
	assert_true(isnan(r->step_median_s));
	close_to(r->gpu[0].span_s.compute, 0.012);
	close_to(r->gpu[0].span_s.idle, 0);
	assert_int_equal(findings_with(a, "no-step-windows"), 1);
	analysis_free(a);
}

/* The step-time chart joins the closed steps and draws the trailing one apart, hollow. */
static void chart_shows_trailing_hollow(void **state)
{
	static const int64_t len[] = { 40, 40, 40, 40 };
	struct analysis *a = one_run(len, 4, 1, 10);
	struct chart_layout c;
	struct buf b = BUF_INIT;
	const char *why = NULL;

	(void)state;
	assert_int_equal(chart_build(0, a, &c, &why), 0);
	buf_init(&b, 0);
	assert_int_equal(chart_layout_dump(&c, &b), 0);
	assert_non_null(strstr(b.data, "= line baseline n=3 0,40 1,40 2,40 "));
	assert_non_null(strstr(b.data, "= line baseline hollow n=1 3,10 \"trailing\"\n"));
	assert_non_null(strstr(b.data, "\"trailing (not measured)\""));
	buf_release(&b);
	chart_layout_release(&c);
	analysis_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(step_zero_is_warmup),
		cmocka_unit_test(fifteen_percent_rule),
		cmocka_unit_test(trailing_step_left_out),
		cmocka_unit_test(warmup_on_a_run),
		cmocka_unit_test(three_steady_steps_suffice),
		cmocka_unit_test(two_steady_steps_warn),
		cmocka_unit_test(one_steady_step_blocks),
		cmocka_unit_test(no_steps_whole_span),
		cmocka_unit_test(single_step_trails),
		cmocka_unit_test(chart_shows_trailing_hollow),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
