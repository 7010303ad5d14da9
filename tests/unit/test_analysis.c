/*
 * The analysis on trials built by hand in the model, whose answers are
 * known: step windows, warm-up, partition means, speedup, efficiency, the
 * attribution identity, confounds and verdicts.
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


/*
 * One rank, steps 0..9 every `period` ms: a GEMM of `gemm` ms at the step's
 * start, then (if comm) an all-reduce of `comm` ms of which `hidden` ms run
 * under the GEMM's end, then a 1 ms copy. Step 0 is twice as long.
 */
static void fill_rank(struct trial *t, struct rank *k, int64_t period, int64_t gemm,
		      int64_t comm, int64_t hidden, const char *gemm_name)
{
	const char *g = intern_str(&t->strings, gemm_name);
	const char *n = intern_str(&t->strings, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
	const char *m = intern_str(&t->strings, "Memcpy DtoD (Device -> Device)");
	int64_t t0 = 1000 * MS;

	for (int64_t s = 0; s < 10; s++) {
		int64_t len = s == 0 ? 2 * period : period;
		int64_t end = t0 + gemm * MS * (s == 0 ? 2 : 1);

		fixture_kernel(k, s, t0, end, EVC_COMPUTE, g);
		if (comm)
			fixture_kernel(k, s, end - hidden * MS, end - hidden * MS + comm * MS, EVC_COMM, n);
		fixture_kernel(k, s, t0 + len * MS - 2 * MS, t0 + len * MS - 1 * MS, EVC_MEMORY, m);
		t0 += len * MS;
	}
}

static struct trial *two_runs(const char *prec2, int64_t gb2)
{
	struct trial *t = trial_new();
	struct run *r1 = trial_add_run(t, "1gpu", "t/1gpu");
	struct run *r2 = trial_add_run(t, "2gpu", "t/2gpu");
	struct srcpos pos = SRCPOS_LINE("t/trial.ini", 2);

	t->hypothesis = HYP_STEP_TIME;
	fact_set_i64(&r1->declared.global_batch, 64, &pos);
	fact_set_i64(&r2->declared.global_batch, gb2, &pos);
	/* 1 GPU: 100 ms steps, 90 ms of GEMM, no comm, 1 ms copy */
	fill_rank(t, run_rank(r1, 0), 100, 90, 0, 0, "nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT");
	/* 2 GPUs: 60 ms steps, 45 ms GEMM, 10 ms all-reduce with 4 ms hidden */
	fill_rank(t, run_rank(r2, 0), 60, 45, 10, 4, prec2);
	fill_rank(t, run_rank(r2, 1), 60, 45, 10, 4, prec2);
	for (size_t i = 0; i < 2; i++)	/* one GPU model on both sides: no gpu_model confound */
		for (size_t k = 0; k < t->runs[i].nranks; k++)
			t->runs[i].ranks[k].dev.name = "NVIDIA B200";
	return t;
}

static void scaling_numbers(void **state)
{
	struct trial *t = two_runs("nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT", 64);
	struct analysis *a = analysis_run(t);
	const struct run_result *r1 = &a->runs[0], *r2 = &a->runs[1];
	const struct gpu_result *g = &r2->gpu[0];
	const struct comparison *c = &a->cmp;

	assert_int_equal(r1->steps_total, 10);
	assert_int_equal(r1->steps_warmup, 1);
	assert_int_equal(r1->steps_trailing, 1);
	assert_int_equal(r1->steps_measured, 8);
	close_to(r1->step_median_s, 0.100);
	close_to(r2->step_median_s, 0.060);
	/* the trailing window (1 ms short of the period: it ends with its last activity) is left out */
	close_to(r1->step_p10_s, 0.100);
	close_to(r1->gpu[0].steps[9].window_s, 0.099);
	assert_true(r1->gpu[0].steps[9].trailing);
	assert_false(r1->gpu[0].steps[9].warmup);
	close_to(g->step_s.compute, 0.045);
	close_to(g->step_s.exposed_comm, 0.006);
	close_to(g->step_s.overlapped_comm, 0.004);
	close_to(g->step_s.memory, 0.001);
	close_to(g->step_s.compute + g->step_s.exposed_comm + g->step_s.memory + g->step_s.idle,
		 g->mean_step_s);
	assert_int_equal(r1->precision_observed, DT_BF16);
	close_to(r1->matmul_share[DT_BF16], 1.0);
	assert_true(c->valid);
	assert_int_equal(c->baseline, 0);
	assert_int_equal(c->candidate, 1);
	close_to(c->speedup, 0.100 / 0.060);
	close_to(c->scaling_efficiency, 0.100 / 0.120);
	close_to(c->attribution_s.compute + c->attribution_s.exposed_comm +
		 c->attribution_s.memory + c->attribution_s.idle, c->actual_s - c->ideal_s);
	assert_int_equal(c->verdict, VERDICT_CONFIRMED);
	assert_int_equal(c->nconfounds, 0);
	assert_int_equal(r2->ncoll, 1);
	assert_int_equal(r2->coll[0].op, COLL_ALLREDUCE);
	close_to(r2->coll[0].bytes_per_step, 1e8);
	close_to(r2->coll[0].time_per_step_s, 0.010);
	close_to(r2->coll[0].busbw_gbps, 10.0);	/* 1e8 B / 10 ms, factor 1 for 2 ranks */
	assert_string_equal(r2->strategy, "ddp");
	close_to(r2->samples_per_s, 64 / 0.060);
	assert_int_equal(r2->examples_processed, 64 * 8);
	analysis_free(a);
	trial_free(t);
}

/* A declared precision in any spelling of its dtype is checked against the observed one. */
static void declared_precision_spellings(void **state)
{
	static const struct {
		const char *declared;
		size_t mismatches;	/* the 2-GPU run ran tf32 */
	} cases[] = {
		{ "tf32", 0 }, { "bf16", 1 }, { "bfloat16", 1 }, { "torch.bfloat16", 1 },
		{ "bf16-mixed", 1 }, { "TF32", 0 }, { "no-such-type", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trial *t = two_runs("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32", 64);
		struct srcpos pos = SRCPOS_LINE("t/2gpu/run.ini", 3);
		struct analysis *a;

		fact_set_str(t, &t->runs[1].declared.precision, cases[i].declared, &pos);
		a = analysis_run(t);
		if (findings_with(a, "precision-mismatch") != cases[i].mismatches)
			fail_msg("declared %s: %zu precision-mismatch findings, want %zu",
				 cases[i].declared, findings_with(a, "precision-mismatch"),
				 cases[i].mismatches);
		analysis_free(a);
		trial_free(t);
	}
}

static void precision_change_blocks(void **state)
{
	struct trial *t = two_runs("sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x32", 64);
	struct analysis *a = analysis_run(t);

	assert_int_equal(a->runs[1].precision_observed, DT_TF32);
	assert_int_equal(a->cmp.nconfounds, 1);
	assert_int_equal(a->cmp.confounds[0].what, CF_PRECISION);
	assert_int_equal(a->cmp.confounds[0].severity, CFS_BLOCKING);
	assert_string_equal(a->cmp.confounds[0].baseline, "bf16");
	assert_string_equal(a->cmp.confounds[0].candidate, "tf32");
	assert_int_equal(a->cmp.verdict, VERDICT_INCONCLUSIVE);
	analysis_free(a);
	trial_free(t);
}

static void global_batch_change_blocks(void **state)
{
	struct trial *t = two_runs("nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT", 128);
	struct analysis *a = analysis_run(t);

	assert_int_equal(a->cmp.nconfounds, 1);
	assert_int_equal(a->cmp.confounds[0].what, CF_GLOBAL_BATCH);
	assert_int_equal(a->cmp.verdict, VERDICT_INCONCLUSIVE);
	assert_string_equal(a->cmp.reason, "the runs differ in global batch (64 against 128): a step "
			    "processed a different number of examples: step times are not comparable");
	analysis_free(a);
	trial_free(t);
}

static void low_efficiency_advises_independent_runs(void **state)
{
	struct trial *t = two_runs("nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT", 64);
	struct analysis *a = analysis_run(t);
	bool found = false;

	for (size_t i = 0; i < a->nrecs; i++)	/* efficiency 0.83: not below 0.8 */
		found |= !strcmp(a->recs[i].id, "two-independent-runs");
	assert_false(found);
	analysis_free(a);
	t->question = Q_HPARAM_SWEEP;		/* but the question is a sweep */
	a = analysis_run(t);
	for (size_t i = 0; i < a->nrecs; i++)
		if (!strcmp(a->recs[i].id, "two-independent-runs")) {
			found = true;
			assert_string_equal(a->recs[i].text,
					    "run 2 independent 1-GPU jobs instead of one 2-GPU job: together "
					    "they process 1280.0 samples/s (2 x 640.0) against 1066.7, a scaling "
					    "efficiency of 83% by samples per second, so 2 configurations finish "
					    "in 83% of the time the 2-GPU job needs for them one after another");
		}
	assert_true(found);
	analysis_free(a);
	trial_free(t);
}

static void link_fraction_from_nccl_tests(void **state)
{
	struct trial *t = two_runs("nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT", 64);
	struct run *r2 = &t->runs[1];
	const char *op = intern_str(&t->strings, "all_reduce");
	struct analysis *a;
	const double bw[] = { 12.5, 40.0, 38.0 };

	for (size_t i = 0; i < 3; i++) {
		struct nccl_test_row *row = run_add_nccl_test_row(r2);

		row->op = op;
		row->bytes = (int64_t)1 << (20 + i);
		row->busbw_oop = bw[i];
		row->busbw_ip = -1;
	}
	a = analysis_run(t);
	close_to(a->runs[1].link_busbw_gbps, 40.0);
	assert_string_equal(a->runs[1].link_busbw_source, "nccl-tests");
	close_to(a->runs[1].coll[0].link_fraction, 10.0 / 40.0);	/* 10 GB/s of 40 */
	assert_true(isnan(a->runs[0].link_busbw_gbps));
	analysis_free(a);
	trial_free(t);
}

static void add_row(struct trial *t, struct run *r, const char *op, int64_t bytes,
		    int32_t nranks, double busbw)
{
	struct nccl_test_row *row = run_add_nccl_test_row(r);

	row->op = intern_str(&t->strings, op);
	row->bytes = bytes;
	row->nranks = nranks;
	row->busbw_oop = busbw;
	row->busbw_ip = -1;
}

/* The nccl-tests bandwidth of (op, bytes) in a run's bandwidth points; NaN when none. */
static double tests_bw(const struct run_result *rr, enum coll_op op, int64_t bytes)
{
	for (size_t i = 0; i < rr->nbw; i++)
		if (rr->bw[i].from_nccl_tests && rr->bw[i].op == op && rr->bw[i].bytes == bytes)
			return rr->bw[i].busbw_gbps;
	return NAN;
}

/*
 * nccl-tests tables of different GPU counts are never averaged: the 2-GPU run
 * takes its 2-GPU rows (not the mean with the 8-GPU 200 GB/s or the 1-GPU
 * reduce's local copy); the 1-GPU run, with no 1-GPU table, the largest count.
 */
static void nccl_tests_kept_apart_by_gpus(void **state)
{
	struct trial *t = two_runs("nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT", 64);
	struct analysis *a;

	add_row(t, &t->runs[1], "all_reduce", 1 << 20, 2, 40.0);
	add_row(t, &t->runs[1], "all_reduce", 1 << 20, 8, 200.0);
	add_row(t, &t->runs[1], "reduce", 1 << 21, 1, 5000.0);
	add_row(t, &t->runs[1], "reduce", 1 << 21, 2, 10.0);
	add_row(t, &t->runs[0], "all_reduce", 1 << 20, 4, 30.0);
	add_row(t, &t->runs[0], "all_reduce", 1 << 20, 8, 150.0);
	a = analysis_run(t);
	assert_int_equal(a->runs[1].gpus, 2);
	close_to(a->runs[1].link_busbw_gbps, 40.0);
	close_to(tests_bw(&a->runs[1], COLL_ALLREDUCE, 1 << 20), 40.0);
	close_to(tests_bw(&a->runs[1], COLL_REDUCE, 1 << 21), 10.0);
	assert_int_equal(a->runs[0].gpus, 1);
	close_to(a->runs[0].link_busbw_gbps, 150.0);
	close_to(tests_bw(&a->runs[0], COLL_ALLREDUCE, 1 << 20), 150.0);
	analysis_free(a);
	trial_free(t);
}

/* A 1-GPU all_reduce table reports 0 GB/s: it crossed no link and sets no ceiling. */
static void one_gpu_nccl_tests_set_no_ceiling(void **state)
{
	struct trial *t = two_runs("nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT", 64);
	struct analysis *a;

	add_row(t, &t->runs[0], "all_reduce", 1 << 20, 1, 0.0);
	a = analysis_run(t);
	assert_true(isnan(a->runs[0].link_busbw_gbps));
	assert_null(a->runs[0].link_busbw_source);
	analysis_free(a);
	trial_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scaling_numbers),
		cmocka_unit_test(precision_change_blocks),
		cmocka_unit_test(declared_precision_spellings),
		cmocka_unit_test(global_batch_change_blocks),
		cmocka_unit_test(low_efficiency_advises_independent_runs),
		cmocka_unit_test(link_fraction_from_nccl_tests),
		cmocka_unit_test(nccl_tests_kept_apart_by_gpus),
		cmocka_unit_test(one_gpu_nccl_tests_set_no_ceiling),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
