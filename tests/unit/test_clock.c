/*
 * One clock per run and waiting vs transfer (analysis/clock.c) on hand-made
 * ranks whose answers are known: the offset of a rank whose clock runs 5 ms
 * ahead, the wait of the rank that arrives early, an unmatched kernel that
 * counts as transfer, the finding on a count mismatch, and the imbalance
 * and advice that waiting for a peer brings.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/analysis.h"
#include "tests/unit/fixture_analysis.h"

#define MS NS_PER_MS
#define NSTEPS 6

static void kernel(struct trial *t, struct rank *k, int64_t step, int64_t start, int64_t end,
		   uint8_t cls, uint8_t coll, const char *name)
{
	struct gpu_event *e = rank_add_event(k);

	*e = (struct gpu_event){ .start = start, .end = end, .step = (int32_t)step, .cls = cls,
				 .kind = cls == EVC_MEMORY ? EV_MEMCPY : EV_KERNEL,
				 .name = intern_str(&t->strings, name), .coll = coll,
				 .dtype = DT_BF16, .launched = LAUNCH_UNKNOWN, .stream = -1, .device = -1,
				 .bytes = cls == EVC_COMM ? 100 * 1000 * 1000 : -1 };
	if (cls == EVC_COMM)
		e->group = trial_group(t, "0", 1);
}

/*
 * Steps of 100 ms on one true clock. Rank 0 computes 60 ms, then all-reduces
 * until 80; rank 1 computes 30 ms and starts the same all-reduce at 30, so it
 * waits 30 ms for rank 0 and transfers 20. Both copy 99..100. Rank 1's trace
 * runs `skew` ms ahead. With `extra`, rank 0 alone broadcasts 85..87.
 */
static struct trial *pipeline_in(int64_t skew, bool extra, bool rank1_first)
{
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "2gpu", "t/2gpu");
	struct rank *k0, *k1;

	run_rank(r, rank1_first ? 1 : 0);	/* the run's first rank, then the other */
	run_rank(r, rank1_first ? 0 : 1);
	k0 = run_rank(r, 0);
	k1 = run_rank(r, 1);

	for (int64_t s = 0; s < NSTEPS; s++) {
		int64_t t0 = 1000 * MS + s * 100 * MS, t1 = t0 + skew * MS;

		kernel(t, k0, s, t0, t0 + 60 * MS, EVC_COMPUTE, COLL_NONE, "gemm");
		kernel(t, k0, s, t0 + 60 * MS, t0 + 80 * MS, EVC_COMM, COLL_ALLREDUCE, "ncclAllReduce");
		if (extra)
			kernel(t, k0, s, t0 + 85 * MS, t0 + 87 * MS, EVC_COMM, COLL_BROADCAST, "ncclBroadcast");
		kernel(t, k0, s, t0 + 99 * MS, t0 + 100 * MS, EVC_MEMORY, COLL_NONE, "Memcpy DtoD");
		kernel(t, k1, s, t1, t1 + 30 * MS, EVC_COMPUTE, COLL_NONE, "gemm");
		kernel(t, k1, s, t1 + 30 * MS, t1 + 80 * MS, EVC_COMM, COLL_ALLREDUCE, "ncclAllReduce");
		kernel(t, k1, s, t1 + 99 * MS, t1 + 100 * MS, EVC_MEMORY, COLL_NONE, "Memcpy DtoD");
	}
	return t;
}

static struct trial *pipeline(int64_t skew, bool extra)
{
	return pipeline_in(skew, extra, false);
}

/* A middle step, whatever warm-up and the last step's treatment are. */
static const struct step_parts *step2(const struct gpu_result *g)
{
	for (size_t i = 0; i < g->nsteps; i++)
		if (g->steps[i].number == 2)
			return &g->steps[i].parts;
	static const struct step_parts none = { NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN,
						 NAN, NAN, NAN };

	fail_msg("no step 2");
	return &none;
}

static void offset_of_a_clock_ahead(void **state)
{
	struct trial *t = pipeline(5, false);
	struct analysis *a = analysis_run(t);
	const struct run_result *r = &a->runs[0];

	close_to(r->gpu[0].clock_offset_s, 0);
	close_to(r->gpu[1].clock_offset_s, -0.005);
	assert_int_equal(findings_with(a, "collective-count-mismatch"), 0);
	analysis_free(a);
	trial_free(t);
}

static void early_rank_waits(void **state)
{
	struct trial *t = pipeline(5, false);
	struct analysis *a = analysis_run(t);
	const struct step_parts *p0 = step2(&a->runs[0].gpu[0]), *p1 = step2(&a->runs[0].gpu[1]);
	const struct coll_result *c = &a->runs[0].coll[0];

	close_to(p1->compute, 0.030);
	close_to(p1->exposed_comm, 0.050);
	close_to(p1->exposed_comm_wait, 0.030);
	close_to(p1->exposed_comm_transfer, 0.020);
	close_to(p1->memory_total, 0.001);
	close_to(p1->kernel_busy, 0.081);
	close_to(p0->exposed_comm_wait, 0);
	close_to(p0->exposed_comm_transfer, 0.020);
	/* per step and GPU: 100 MB in 35 ms, of which 20 ms transfer */
	assert_int_equal(a->runs[0].ncoll, 1);
	close_to(c->time_per_step_s, 0.035);
	close_to(c->transfer_time_per_step_s, 0.020);
	close_to(c->busbw_gbps, 1e8 / 0.035 / 1e9);
	close_to(c->transfer_busbw_gbps, 1e8 / 0.020 / 1e9);
	analysis_free(a);
	trial_free(t);
}

static void without_skew_the_same(void **state)
{
	struct trial *t = pipeline(0, false);
	struct analysis *a = analysis_run(t);

	close_to(a->runs[0].gpu[1].clock_offset_s, 0);
	close_to(step2(&a->runs[0].gpu[1])->exposed_comm_wait, 0.030);
	analysis_free(a);
	trial_free(t);
}

static void unmatched_counts_as_transfer(void **state)
{
	struct trial *t = pipeline(5, true);
	struct analysis *a = analysis_run(t);
	const struct step_parts *p0 = step2(&a->runs[0].gpu[0]);
	const char *want = "run '2gpu': the GPUs ran different numbers of Broadcast kernels of "
			   "process group 0 (GPU 0: 6, GPU 1: 0): they are not matched across "
			   "GPUs, so their time counts as transfer and aligns no clock";
	size_t i;

	close_to(p0->exposed_comm, 0.022);
	close_to(p0->exposed_comm_transfer, 0.022);
	close_to(p0->exposed_comm_wait, 0);
	close_to(a->runs[0].gpu[1].clock_offset_s, -0.005);	/* the all-reduces still align */
	assert_int_equal(findings_with(a, "collective-count-mismatch"), 1);
	for (i = 0; strcmp(a->findings[i].code, "collective-count-mismatch"); i++)
		;
	assert_string_equal(a->findings[i].message, want);
	assert_int_equal(a->findings[i].severity, DIAG_WARNING);
	analysis_free(a);
	trial_free(t);
}

/*
 * The reference clock is the lowest rank's, here the run's second: each
 * key's counts are compared once all of them are in (they were compared
 * with the reference's count of the key before, which read past the end of
 * its kernels and flagged the wrong collective).
 */
static void reference_rank_second(void **state)
{
	struct trial *t = pipeline_in(5, true, true);
	struct analysis *a = analysis_run(t);
	const char *want = "run '2gpu': the GPUs ran different numbers of Broadcast kernels of "
			   "process group 0 (GPU 1: 0, GPU 0: 6): they are not matched across "
			   "GPUs, so their time counts as transfer and aligns no clock";
	size_t i;

	assert_int_equal(t->runs[0].ranks[0].rank, 1);
	assert_int_equal(findings_with(a, "collective-count-mismatch"), 1);
	for (i = 0; strcmp(a->findings[i].code, "collective-count-mismatch"); i++)
		;
	assert_string_equal(a->findings[i].message, want);
	close_to(a->runs[0].gpu[1].clock_offset_s, 0);	/* rank 0, the reference */
	close_to(a->runs[0].gpu[0].clock_offset_s, -0.005);	/* rank 1, 5 ms ahead */
	analysis_free(a);
	trial_free(t);
}

static void groups_are_not_mixed(void **state)
{
	struct trial *t = pipeline(5, false);
	struct run *r = &t->runs[0];
	struct analysis *a;

	for (size_t i = 0; i < r->ranks[1].nev; i++)	/* rank 1's all-reduces in another group */
		if (r->ranks[1].ev[i].cls == EVC_COMM)
			r->ranks[1].ev[i].group = trial_group(t, "tp", 2);
	a = analysis_run(t);
	assert_int_equal(findings_with(a, "collective-count-mismatch"), 2);
	assert_true(isnan(a->runs[0].gpu[1].clock_offset_s));	/* nothing aligns it */
	close_to(step2(&a->runs[0].gpu[1])->exposed_comm_wait, 0);
	analysis_free(a);
	trial_free(t);
}

static void waiting_is_imbalance(void **state)
{
	struct trial *t = pipeline(5, false);
	struct analysis *a = analysis_run(t);
	const struct imbalance *im = &a->runs[0].imbalance;

	assert_true(im->flagged);
	close_to(im->peer_wait_s, 0.030);
	close_to(im->peer_wait_share, 0.30);
	/* GPU 0 is the straggler GPU 1 waits for, computing: its sentence says the busy time too */
	assert_string_equal(im->reason, "GPU 0 is a straggler: GPU 1 waits 30.0 ms per step (30% of "
			    "its step) in collectives for it; GPU 0 is computing (its GPU computes "
			    "61.0 ms, the others a median 31.0 ms)");
	close_to(im->busy_ratio, 61.0 / 31.0);
	assert_int_equal(im->saturated_rank, 0);
	assert_int_equal(im->waiting_rank, 1);
	analysis_free(a);
	trial_free(t);
}

static void waiting_is_advised_as_rebalance(void **state)
{
	struct trial *t = pipeline(5, false);
	struct run *r1 = trial_add_run(t, "1gpu", "t/1gpu");
	struct rank *k = run_rank(r1, 0);
	struct analysis *a;
	const char *text = NULL;
	struct srcpos pos = SRCPOS_LINE("t/trial.ini", 3);

	t->hypothesis = HYP_STEP_TIME;
	fact_set_str(t, &t->baseline, "1gpu", &pos);
	for (int64_t s = 0; s < NSTEPS; s++) {
		int64_t t0 = 1000 * MS + s * 100 * MS;

		kernel(t, k, s, t0, t0 + 90 * MS, EVC_COMPUTE, COLL_NONE, "gemm");
		kernel(t, k, s, t0 + 99 * MS, t0 + 100 * MS, EVC_MEMORY, COLL_NONE, "Memcpy DtoD");
	}
	a = analysis_run(t);
	for (size_t i = 0; i < a->nrecs; i++)
		if (!strcmp(a->recs[i].id, "rebalance"))
			text = a->recs[i].text;
	assert_non_null(text);
	assert_non_null(strstr(text, "GPU 1 waits 30.0 ms per step (30% of its step) in collectives for "
			   "it; GPU 0 is computing (its GPU computes 61.0 ms, the others a median "
			   "31.0 ms); the waiting is for a slower peer (a pipeline bubble or a "
			   "straggler), not a slow link"));
	analysis_free(a);
	trial_free(t);
}

static void one_rank_is_its_own_clock(void **state)
{
	struct trial *t = pipeline(5, false);
	struct analysis *a;

	t->runs[0].nranks = 1;	/* rank 1 left out (its arrays are still freed: cap kept) */
	a = analysis_run(t);
	close_to(a->runs[0].gpu[0].clock_offset_s, 0);
	close_to(step2(&a->runs[0].gpu[0])->exposed_comm_transfer, 0.020);
	assert_true(isnan(a->runs[0].imbalance.peer_wait_s));
	t->runs[0].nranks = 2;
	analysis_free(a);
	trial_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(offset_of_a_clock_ahead),
		cmocka_unit_test(early_rank_waits),
		cmocka_unit_test(without_skew_the_same),
		cmocka_unit_test(unmatched_counts_as_transfer),
		cmocka_unit_test(reference_rank_second),
		cmocka_unit_test(groups_are_not_mixed),
		cmocka_unit_test(waiting_is_imbalance),
		cmocka_unit_test(waiting_is_advised_as_rebalance),
		cmocka_unit_test(one_rank_is_its_own_clock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
