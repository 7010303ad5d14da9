/*
 * Workload identity (analysis/workload.h, docs/analysis.md "Workload
 * identity") on runs built by hand: two jobs whose kernels share little are
 * a blocking `workload` confound that leads the others and names the
 * evidence; a precision change is one job; compiled kernels and a run
 * without a trace fall back to the model, dataset and sequence length the
 * runs name, and to `unverified` when there is nothing to compare; only
 * steady steps count, or the whole span when no step is steady; 50% is one job.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/analysis.h"
#include "core/kname.h"
#include "tests/unit/fixture_analysis.h"

#define US NS_PER_US
#define MS NS_PER_MS

/* Real names (samples/gen/kernels.c, realdata's traces), shortened where the rest does not matter. */
#define GEMM_BF16 "nvjet_tst_256x128_64x4_2x1_2cta_v_bz_TNT"
#define GEMM_TF32 "nvjet_sss_tf32_128x128_32x6_2x1_v_bz_TNT"
#define LN_BF16 "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float)"
#define LN_FP32 "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float)"
#define ADD_BF16 "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, std::array<char*, 3ul> >(int)"
#define ADD_FP32 "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul> >(int)"
#define CONV "sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_tf32f32_f32_nhwckrsc_nchw_tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_alignc4_execute_kernel_cudnn"
#define EMBED "void split_embedding_codegen_forward_unweighted_kernel<float, float, float, false, long, 1ul, 8ul>(int)"
#define NCCL "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"

/* One kernel of each step of a hand-made rank. */
struct kstep {
	const char *name;
	int64_t us;
};

/* The eager job of the 1-GPU runs below: 60 + 20 + 10 ms of compute. */
static const struct kstep llama[] = { { GEMM_BF16, 60000 }, { LN_BF16, 20000 }, { ADD_BF16, 10000 } };

/* Rank k: steps 0..9 of 100 ms (step 0: 200 ms), ks one after another from each step's start. */
static void fill(struct trial *t, struct rank *k, const struct kstep *ks, size_t n)
{
	int64_t t0 = 1000 * MS;

	k->dev.name = "NVIDIA B200";
	for (int32_t s = 0; s < 10; s++) {
		int64_t at = t0;

		for (size_t i = 0; i < n; i++) {
			struct gpu_event *e = rank_add_event(k);

			e->start = at;
			e->end = at += ks[i].us * US;
			e->step = s;
			e->kind = EV_KERNEL;
			e->name = intern_str(&t->strings, ks[i].name);
			kname_classify(e);
		}
		t0 += (s ? 100 : 200) * MS;
	}
}

/* A 1-GPU run of kernels b (none: no trace, gpus = 1 from run.ini) and a 2-GPU run of c. */
static struct trial *trial_of(const struct kstep *b, size_t nb, const struct kstep *c, size_t nc)
{
	struct trial *t = trial_new();
	struct run *r1 = trial_add_run(t, "1gpu", "t/1gpu");
	struct run *r2 = trial_add_run(t, "2gpu", "t/2gpu");
	struct srcpos pos = SRCPOS_LINE("t/1gpu/run.ini", 2);

	t->hypothesis = HYP_STEP_TIME;
	fact_set_i64(&r1->declared.global_batch, 64, &pos);
	fact_set_i64(&r2->declared.global_batch, 64, &pos);
	fact_set_i64(&r1->declared.gpus, 1, &pos);
	if (nb)
		fill(t, run_rank(r1, 0), b, nb);
	fill(t, run_rank(r2, 0), c, nc);
	fill(t, run_rank(r2, 1), c, nc);
	return t;
}



/* Two jobs: a GEMM-heavy one against a convolution and embedding one, an add in common. */
static void unrelated_jobs_block(void **state)
{
	static const struct kstep dlrm[] = { { CONV, 50000 }, { EMBED, 30000 }, { ADD_FP32, 10000 }, { NCCL, 5000 } };
	struct trial *t = trial_of(llama, 3, dlrm, 4);
	struct analysis *a = analysis_run(t);
	const struct confound *c = &a->cmp.confounds[0];
	const struct workload *w = &a->cmp.workload;
	const char *why = "not one job: each run of one job has 50% or more of its kernel time in "
			  "kernel families both ran; only 1gpu ran gemm (67%) and "
			  "vectorized_layer_norm_kernel (22%); only 2gpu ran conv (56%) and "
			  "split_embedding_codegen_forward_unweighted_kernel (33%)";

	(void)state;
	assert_true(a->cmp.nconfounds >= 2);	/* the precision differs too: workload leads */
	assert_int_equal(c->what, CF_WORKLOAD);
	assert_int_equal(c->severity, CFS_BLOCKING);
	assert_string_equal(c->baseline, "11% overlap");
	assert_string_equal(c->candidate, "11% overlap");
	assert_string_equal(c->why, why);
	assert_string_equal(c->message, analysis_printf(a, "the runs differ in workload (11%% overlap "
							"against 11%% overlap): %s", why));
	assert_int_equal(confound_of(a, CF_PRECISION)->severity, CFS_BLOCKING);
	assert_ptr_equal(comparison_blocked(&a->cmp), c);
	assert_int_equal(a->cmp.verdict, VERDICT_INCONCLUSIVE);
	assert_string_equal(a->cmp.reason, c->message);
	assert_int_equal(a->cmp.noptions, 0);	/* no advice from a blocked comparison */
	assert_true(w->present);
	assert_int_equal(w->basis, WL_KERNELS);
	close_to(w->baseline_overlap, 10.0 / 90);
	close_to(w->candidate_overlap, 10.0 / 90);	/* NCCL left out */
	assert_int_equal(w->nbaseline_only, 2);
	assert_string_equal(w->baseline_only[0].family, "gemm");
	close_to(w->baseline_only[0].share, 60.0 / 90);
	assert_string_equal(w->baseline_only[1].family, "vectorized_layer_norm_kernel");
	assert_int_equal(w->ncandidate_only, 2);
	assert_string_equal(w->candidate_only[1].family, "split_embedding_codegen_forward_unweighted_kernel");
	close_to(w->candidate_only[1].share, 30.0 / 90);
	/* each run's families: over the 8 steady steps, summed over its ranks */
	assert_int_equal(a->runs[1].nfamilies, 3);
	assert_false(a->runs[1].families_span);
	close_to(a->runs[1].kernel_time_s, 2 * 8 * 0.090);
	close_to(a->runs[1].families[0].time_s, 2 * 8 * 0.050);
	close_to(a->runs[0].generated_share, 0);
	analysis_free(a);
	trial_free(t);
}

/* The same job in tf32: the kernels' names change, their families do not; precision says it. */
static void precision_change_is_one_job(void **state)
{
	static const struct kstep tf32[] = { { GEMM_TF32, 60000 }, { LN_FP32, 20000 }, { ADD_FP32, 10000 } };
	struct trial *t = trial_of(llama, 3, tf32, 3);
	struct analysis *a = analysis_run(t);

	(void)state;
	assert_null(find_confound(a, CF_WORKLOAD));
	assert_int_equal(confound_of(a, CF_PRECISION)->severity, CFS_BLOCKING);
	assert_int_equal(a->cmp.workload.basis, WL_KERNELS);
	assert_true(a->cmp.workload.baseline_overlap == 1 && a->cmp.workload.candidate_overlap == 1);
	assert_int_equal(a->cmp.workload.nbaseline_only + a->cmp.workload.ncandidate_only, 0);
	analysis_free(a);
	trial_free(t);
}

/*
 * A torch.compile'd candidate names its kernels as Inductor does: no
 * evidence either way. Nothing named by both runs: unverified, the verdict
 * stands and says so; a dataset both name: one job by what they declare.
 */
static void compiled_kernels_fall_back(void **state)
{
	static const struct kstep compiled[] = { { "triton_tem_fused_mm_2", 60000 },
		{ "triton_per_fused_native_layer_norm_1", 20000 }, { "triton_poi_fused_add_5", 10000 } };
	struct trial *t = trial_of(llama, 3, compiled, 3);
	struct analysis *a = analysis_run(t);
	const struct confound *c = confound_of(a, CF_WORKLOAD);
	const char *why = "workload not compared: 2gpu's kernels are compiled (100% of its kernel time in Triton kernels) and "
			  "1gpu's are not, so their names say nothing of each other, and neither run names "
			  "its model, dataset or sequence length";
	struct srcpos pos = SRCPOS_LINE("t/2gpu/run.ini", 5);

	(void)state;
	assert_int_equal(c->severity, CFS_UNVERIFIED);
	assert_string_equal(c->baseline, "eager kernels");
	assert_string_equal(c->candidate, "compiled kernels");
	assert_string_equal(c->why, why);
	assert_string_equal(c->message, analysis_printf(a, "not verified: %s", why));
	assert_int_equal(a->cmp.verdict, VERDICT_REFUTED);	/* 100 ms steps on both: a speedup of 1 */
	assert_non_null(strstr(a->cmp.reason, analysis_printf(a, "; %s)", why)));	/* after the precision's */
	assert_int_equal(a->cmp.workload.basis, WL_NONE);
	assert_true(isnan(a->cmp.workload.baseline_overlap) && isnan(a->cmp.workload.candidate_overlap));
	close_to(a->runs[1].generated_share, 1);
	analysis_free(a);
	fact_set_str(t, &t->runs[0].declared.dataset, "wikitext-103", &pos);
	fact_set_str(t, &t->runs[1].declared.dataset, "wikitext-103", &pos);
	a = analysis_run(t);
	assert_null(find_confound(a, CF_WORKLOAD));
	assert_int_equal(a->cmp.workload.basis, WL_DECLARED);
	assert_true(isnan(a->cmp.workload.baseline_overlap));
	analysis_free(a);
	trial_free(t);
}

/*
 * A baseline without a trace (it died before profiling): model, dataset and
 * sequence length decide. A declared model that differs is the model
 * confound's; one only the logs name is this one's, since nothing else
 * raised it.
 */
static void no_trace_falls_back(void **state)
{
	struct trial *t = trial_of(NULL, 0, llama, 3);
	struct srcpos pos = SRCPOS_LINE("t/1gpu/run.ini", 6);
	struct analysis *a = analysis_run(t);
	const struct confound *c = confound_of(a, CF_WORKLOAD);

	(void)state;
	assert_int_equal(c->severity, CFS_UNVERIFIED);
	assert_string_equal(c->baseline, "no trace");
	assert_string_equal(c->candidate, "kernels");
	assert_string_equal(c->why, "workload not compared: 1gpu has no trace, and neither run names "
			    "its model, dataset or sequence length");
	analysis_free(a);
	fact_set_i64(&t->runs[1].declared.seq_len, 2048, &pos);	/* one side only */
	a = analysis_run(t);
	assert_string_equal(confound_of(a, CF_WORKLOAD)->why, "workload not compared: 1gpu has no trace, "
			    "and no model, dataset or sequence length is named by both runs");
	analysis_free(a);
	fact_set_i64(&t->runs[0].logged.seq_len, 2048, &pos);	/* from the baseline's log */
	a = analysis_run(t);
	assert_null(find_confound(a, CF_WORKLOAD));
	assert_int_equal(a->cmp.workload.basis, WL_DECLARED);
	analysis_free(a);
	fact_set_str(t, &t->runs[0].declared.model, "llama-1b", &pos);
	fact_set_str(t, &t->runs[1].declared.model, "resnet-50", &pos);
	a = analysis_run(t);
	assert_null(find_confound(a, CF_WORKLOAD));	/* the model confound blocks */
	assert_int_equal(confound_of(a, CF_MODEL)->severity, CFS_BLOCKING);
	assert_int_equal(a->cmp.workload.basis, WL_DECLARED);
	analysis_free(a);
	memset(&t->runs[0].declared.model, 0, sizeof(struct fact_str));
	memset(&t->runs[1].declared.model, 0, sizeof(struct fact_str));
	fact_set_str(t, &t->runs[0].logged.model, "llama-1b", &pos);
	fact_set_str(t, &t->runs[1].logged.model, "resnet-50", &pos);
	a = analysis_run(t);		/* the logs' models are the runs' models: that confound blocks */
	assert_null(find_confound(a, CF_WORKLOAD));
	assert_int_equal(confound_of(a, CF_MODEL)->severity, CFS_BLOCKING);
	assert_string_equal(confound_of(a, CF_MODEL)->baseline, "llama-1b");
	assert_int_equal(a->cmp.verdict, VERDICT_INCONCLUSIVE);
	analysis_free(a);
	trial_free(t);
}

/* Neither run has a trace nor names anything: said once for both. */
static void nothing_to_compare(void **state)
{
	struct trial *t = trial_new();
	struct srcpos pos = SRCPOS_LINE("t/1gpu/run.ini", 2);
	struct analysis *a;

	(void)state;
	t->hypothesis = HYP_STEP_TIME;
	fact_set_i64(&trial_add_run(t, "1gpu", "t/1gpu")->declared.gpus, 1, &pos);
	fact_set_i64(&trial_add_run(t, "2gpu", "t/2gpu")->declared.gpus, 2, &pos);
	a = analysis_run(t);
	assert_string_equal(confound_of(a, CF_WORKLOAD)->why, "workload not compared: the runs have no "
			    "trace, and neither run names its model, dataset or sequence length");
	assert_string_equal(confound_of(a, CF_WORKLOAD)->baseline, "no trace");
	assert_int_equal(a->cmp.workload.basis, WL_NONE);
	analysis_free(a);
	trial_free(t);
}

/*
 * Only steady steps count: a kernel of another family in the warm-up step
 * and in the trailing step is no evidence. Without a steady step, the
 * whole span counts, that kernel too.
 */
static void steady_steps_or_span(void **state)
{
	struct trial *t = trial_of(llama, 3, llama, 3);
	struct rank *k = &t->runs[0].ranks[0];
	struct analysis *a;

	(void)state;
	for (size_t i = 0; i < k->nev; i++)	/* step 0 (warm-up) and 9 (trailing) run a convolution */
		if (k->ev[i].step == 0 || k->ev[i].step == 9)
			k->ev[i].name = k->ev[i].name == intern_str(&t->strings, GEMM_BF16) ?
					intern_str(&t->strings, CONV) : k->ev[i].name;
	a = analysis_run(t);
	assert_null(find_confound(a, CF_WORKLOAD));
	assert_true(a->cmp.workload.baseline_overlap == 1);
	assert_int_equal(a->runs[0].nfamilies, 3);
	close_to(a->runs[0].kernel_time_s, 8 * 0.090);
	analysis_free(a);
	for (size_t i = 0; i < k->nev; i++)	/* no step at all: the whole span */
		k->ev[i].step = -1;
	a = analysis_run(t);
	assert_true(a->runs[0].families_span);
	assert_int_equal(a->runs[0].nfamilies, 4);
	close_to(a->runs[0].kernel_time_s, 10 * 0.090);
	close_to(a->cmp.workload.baseline_overlap, 1 - 2 * 0.060 / 0.9);
	analysis_free(a);
	trial_free(t);
}

/* 50% on each side is one job; 49.9% is not, and reads as 49.9%, not 50%. */
static void half_is_one_job(void **state)
{
	static const struct kstep half1[] = { { GEMM_BF16, 45000 }, { ADD_BF16, 45000 } };
	static const struct kstep half2[] = { { GEMM_BF16, 45000 }, { CONV, 45000 } };
	static const struct kstep less1[] = { { GEMM_BF16, 44950 }, { ADD_BF16, 45050 } };
	static const struct kstep less2[] = { { GEMM_BF16, 44950 }, { CONV, 45050 } };
	struct trial *t = trial_of(half1, 2, half2, 2);
	struct analysis *a = analysis_run(t);
	const struct confound *c;

	(void)state;
	assert_true(a->cmp.workload.baseline_overlap == 0.5 && a->cmp.workload.candidate_overlap == 0.5);
	assert_null(find_confound(a, CF_WORKLOAD));
	analysis_free(a);
	trial_free(t);
	t = trial_of(less1, 2, less2, 2);
	a = analysis_run(t);
	c = confound_of(a, CF_WORKLOAD);
	assert_string_equal(c->baseline, "49.9% overlap");
	assert_non_null(strstr(c->message, "(49.9% overlap against 49.9% overlap)"));
	analysis_free(a);
	trial_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unrelated_jobs_block),
		cmocka_unit_test(precision_change_is_one_job),
		cmocka_unit_test(compiled_kernels_fall_back),
		cmocka_unit_test(no_trace_falls_back),
		cmocka_unit_test(nothing_to_compare),
		cmocka_unit_test(steady_steps_or_span),
		cmocka_unit_test(half_is_one_job),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
