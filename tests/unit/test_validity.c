/*
 * Validity shown, never assumed: confounds of each kind and severity on
 * runs built by hand (gpu_model, unverified precision / global batch /
 * GPU model, blocking under global-batch), declared precisions parsed and
 * checked, the GPU count against run.ini, and the cross-source checks
 * (GPU model by source, the monitor left out of the peak memory, GPU work
 * outside any step).
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

/* Rank k: steps 0..9 of 100 ms (step 0: 200 ms), a 90 ms GEMM named gemm in each. */
static void fill(struct trial *t, struct rank *k, const char *gemm, const char *gpu)
{
	const char *g = intern_str(&t->strings, gemm);
	int64_t t0 = 1000 * MS;

	k->dev.name = gpu;
	for (int64_t s = 0; s < 10; s++) {
		struct gpu_event *e = rank_add_event(k);
		int64_t len = s ? 100 : 200;

		e->start = t0;
		e->end = t0 + (len - 10) * MS;
		e->step = (int32_t)s;
		e->cls = EVC_COMPUTE;
		e->kind = EV_KERNEL;
		e->name = g;
		t0 += len * MS;
	}
}

#define BF16_GEMM "nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT"
/*
 * A GEMM whose name spells no dtype: the precision stays unknown, and its
 * family (gemm) is BF16_GEMM's, so that the runs stay one job.
 */
#define NO_DTYPE "my_custom_gemm_kernel"

/*
 * A 1-GPU and a 2-GPU run under hyp: GPU names and kernels per run, global
 * batch 64 on each side unless gb < 0 (then unset on the 2-GPU side).
 */
static struct trial *trial_of(enum hypothesis hyp, const char *gpu1, const char *gpu2,
			      const char *gemm1, const char *gemm2, int64_t gb2)
{
	struct trial *t = trial_new();
	struct run *r1 = trial_add_run(t, "1gpu", "t/1gpu");
	struct run *r2 = trial_add_run(t, "2gpu", "t/2gpu");
	struct srcpos pos = SRCPOS_LINE("t/1gpu/run.ini", 2);

	t->hypothesis = hyp;
	fact_set_i64(&r1->declared.global_batch, 64, &pos);
	if (gb2 >= 0)
		fact_set_i64(&r2->declared.global_batch, gb2, &pos);
	fill(t, run_rank(r1, 0), gemm1, gpu1);
	fill(t, run_rank(r2, 0), gemm2, gpu2);
	fill(t, run_rank(r2, 1), gemm2, gpu2);
	return t;
}



static const struct finding *find_finding(const struct analysis *a, const char *code)
{
	for (size_t i = 0; i < a->nfindings; i++)
		if (!strcmp(a->findings[i].code, code))
			return &a->findings[i];
	return NULL;
}

/* The first finding of code; the case fails without one. */
static const struct finding *finding_of(const struct analysis *a, const char *code)
{
	const struct finding *f = find_finding(a, code);

	if (!f)
		fail_msg("no %s finding", code);
	return f;
}

static void string_or_null(const char *got, const char *want)
{
	if (!want)
		assert_null(got);
	else
		assert_string_equal(got, want);
}

/* A V100 baseline against an A100 candidate: blocking, whatever the speedup. */
static void gpu_model_differs_blocks(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "Tesla V100-SXM2-32GB", "NVIDIA A100-SXM4-80GB",
				   BF16_GEMM, BF16_GEMM, 64);
	struct analysis *a = analysis_run(t);
	const struct confound *c = confound_of(a, CF_GPU_MODEL);

	assert_non_null(c);
	assert_int_equal(a->cmp.nconfounds, 1);
	assert_int_equal(c->severity, CFS_BLOCKING);
	assert_string_equal(c->baseline, "V100 SXM2 32GB");
	assert_string_equal(c->candidate, "A100 SXM4 80GB");
	assert_string_equal(confound_name(c->what), "gpu_model");
	assert_string_equal(c->message, "the runs differ in GPU model (V100 SXM2 32GB against "
			    "A100 SXM4 80GB): the runs used different GPU models: the speedup mixes "
			    "the second GPU with another GPU");
	assert_int_equal(a->cmp.verdict, VERDICT_INCONCLUSIVE);
	analysis_free(a);
	trial_free(t);
}

/* One model in two spellings is one model: the table decides, not the strings. */
static void gpu_model_spellings_agree(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "NVIDIA B200", "B200", BF16_GEMM, BF16_GEMM, 64);
	struct analysis *a = analysis_run(t);

	assert_int_equal(a->cmp.nconfounds, 0);
	assert_int_equal(a->cmp.verdict, VERDICT_REFUTED);	/* 100 ms on both: nothing blocks */
	analysis_free(a);
	trial_free(t);
}

/* A name the GPU table does not know cannot be compared with one it knows: unverified. */
static void gpu_model_not_in_table(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "NVIDIA GA100", "NVIDIA A100-SXM4-40GB",
				   BF16_GEMM, BF16_GEMM, 64);
	struct analysis *a = analysis_run(t);
	const struct confound *c = confound_of(a, CF_GPU_MODEL);

	assert_int_equal(c->severity, CFS_UNVERIFIED);
	assert_string_equal(c->baseline, "NVIDIA GA100");
	assert_string_equal(c->candidate, "A100 SXM4 40GB");
	assert_string_equal(c->why, "GPU model of 1gpu unknown (NVIDIA GA100 is not in the GPU table)");
	analysis_free(a);
	t->runs[1].ranks[0].dev.name = t->runs[1].ranks[1].dev.name = "nvidia ga100";
	a = analysis_run(t);	/* neither in the table: the names decide, case aside */
	assert_null(find_confound(a, CF_GPU_MODEL));
	analysis_free(a);
	trial_free(t);
}

/* Unknown facts: unverified, the unknown side null, the why naming the run; no block. */
static void unknown_facts_are_unverified(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "NVIDIA B200", NULL, BF16_GEMM, NO_DTYPE, -1);
	struct analysis *a = analysis_run(t);
	static const struct {
		enum confound_what what;
		const char *baseline, *candidate, *why;
	} want[] = {
		{ CF_PRECISION, "bf16", NULL, "precision of 2gpu unknown" },
		{ CF_GLOBAL_BATCH, "64", NULL, "global batch of 2gpu unknown" },
		{ CF_GPU_MODEL, "B200", NULL, "GPU model of 2gpu unknown" },
	};

	assert_int_equal(a->cmp.nconfounds, 3);
	for (size_t i = 0; i < 3; i++) {
		const struct confound *c = &a->cmp.confounds[i];

		assert_int_equal(c->what, want[i].what);
		assert_int_equal(c->severity, CFS_UNVERIFIED);
		string_or_null(c->baseline, want[i].baseline);
		string_or_null(c->candidate, want[i].candidate);
		assert_string_equal(c->why, want[i].why);
	}
	assert_string_equal(a->cmp.confounds[0].message, "not verified: precision of 2gpu unknown");
	assert_string_equal(confound_severity_name(CFS_UNVERIFIED), "unverified");
	assert_int_not_equal(a->cmp.verdict, VERDICT_INCONCLUSIVE);
	analysis_free(a);
	trial_free(t);
}

/* Neither run knows: both sides null, both runs named. */
static void unknown_on_both_sides(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, NULL, NULL, NO_DTYPE, NO_DTYPE, 64);
	struct analysis *a = analysis_run(t);
	const struct confound *c = confound_of(a, CF_PRECISION);

	assert_non_null(c);
	assert_null(c->baseline);
	assert_null(c->candidate);
	assert_string_equal(c->why, "precision of 1gpu and 2gpu unknown");
	assert_null(find_confound(a, CF_GLOBAL_BATCH));	/* 64 on both sides */
	analysis_free(a);
	trial_free(t);
}

/* Under global-batch the hypothesis rests on the global batch: unknown blocks. */
static void unknown_global_batch_blocks_global_batch(void **state)
{
	struct trial *t = trial_of(HYP_GLOBAL_BATCH, "NVIDIA B200", "NVIDIA B200", BF16_GEMM,
				   BF16_GEMM, -1);
	struct analysis *a = analysis_run(t);
	const struct confound *c = confound_of(a, CF_GLOBAL_BATCH);

	assert_non_null(c);
	assert_int_equal(c->severity, CFS_BLOCKING);
	assert_string_equal(c->baseline, "64");
	assert_null(c->candidate);
	assert_string_equal(c->why, "global batch of 2gpu unknown: the global-batch hypothesis "
			    "rests on it: add global_batch to the run's run.ini");
	assert_int_equal(a->cmp.verdict, VERDICT_INCONCLUSIVE);
	analysis_free(a);
	trial_free(t);
}

/* No kernel shows the precision: the declared one (normalised) stands for it. */
static void declared_precision_stands_in(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "NVIDIA B200", "NVIDIA B200", BF16_GEMM, NO_DTYPE, 64);
	struct srcpos pos = SRCPOS_LINE("t/2gpu/run.ini", 4);
	struct analysis *a;

	fact_set_str(t, &t->runs[1].declared.precision, "torch.bfloat16", &pos);
	a = analysis_run(t);
	assert_string_equal(a->runs[1].precision_declared, "bf16");
	assert_null(find_confound(a, CF_PRECISION));
	analysis_free(a);
	fact_set_str(t, &t->runs[1].declared.precision, "x", &pos);	/* set already: no change */
	t->runs[1].declared.precision.v = "fp16-mixed";
	a = analysis_run(t);
	assert_string_equal(a->runs[1].precision_declared, "fp16");
	assert_int_equal(confound_of(a, CF_PRECISION)->severity, CFS_BLOCKING);
	analysis_free(a);
	trial_free(t);
}

/* A declaration that names no dtype is unknown, said with its file:line. */
static void bad_declared_precision_is_unknown(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "NVIDIA B200", "NVIDIA B200", BF16_GEMM, BF16_GEMM, 64);
	struct srcpos pos = SRCPOS_LINE("t/2gpu/run.ini", 4);
	struct analysis *a;
	const struct finding *f;

	fact_set_str(t, &t->runs[1].declared.precision, "banana", &pos);
	a = analysis_run(t);
	f = finding_of(a, "precision-unchecked");
	assert_non_null(f);
	assert_int_equal(f->severity, DIAG_WARNING);
	assert_string_equal(f->source, "t/2gpu/run.ini:4");
	assert_string_equal(f->message, "run '2gpu': the declared precision 'banana' names no dtype, "
			    "so it is unknown: the observed bf16 is checked against no declaration");
	assert_null(a->runs[1].precision_declared);
	assert_null(find_finding(a, "precision-mismatch"));
	analysis_free(a);
	trial_free(t);
}

static void precision_spellings(void **state)
{
	static const struct {
		const char *text;
		enum dtype want;
	} cases[] = {
		{ "bf16", DT_BF16 }, { "bfloat16", DT_BF16 }, { "torch.bfloat16", DT_BF16 },
		{ "bf16-mixed", DT_BF16 }, { "amp-bf16", DT_BF16 }, { "AMP_BF16", DT_BF16 },
		{ "bf16-true", DT_BF16 }, { "16-mixed", DT_FP16 }, { "torch.float16", DT_FP16 },
		{ "half", DT_FP16 }, { "fp16", DT_FP16 }, { " fp32 ", DT_FP32 }, { "32", DT_FP32 },
		{ "32-true", DT_FP32 }, { "tf32", DT_TF32 }, { "fp8", DT_FP8 },
		{ "fp8-e4m3", DT_FP8_E4M3 }, { "float8_e5m2", DT_FP8_E5M2 }, { "fp4", DT_FP4 },
		{ "int8", DT_INT8 }, { "fp64", DT_FP64 }, { "64-true", DT_FP64 },
		{ "banana", DT_UNKNOWN }, { "int32", DT_UNKNOWN }, { "bool", DT_UNKNOWN },
		{ "mixed", DT_UNKNOWN }, { "", DT_UNKNOWN }, { "-mixed", DT_UNKNOWN },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (precision_parse(cases[i].text, strlen(cases[i].text)) != cases[i].want)
			fail_msg("'%s': got %s, want %s", cases[i].text,
				 dtype_name(precision_parse(cases[i].text, strlen(cases[i].text))),
				 dtype_name(cases[i].want));
}

/* run.ini gpus = 2 against world_size = 128 in the traces: an error, the traces believed. */
static void declared_gpus_against_world_size(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "NVIDIA B200", "NVIDIA B200", BF16_GEMM, BF16_GEMM, 64);
	struct srcpos pos = SRCPOS_LINE("t/2gpu/run.ini", 3);
	struct analysis *a;
	const struct finding *f;

	fact_set_i64(&t->runs[1].declared.gpus, 2, &pos);
	t->runs[1].ranks[0].world_size = t->runs[1].ranks[1].world_size = 128;
	a = analysis_run(t);
	assert_int_equal(a->runs[1].gpus, 128);
	f = finding_of(a, "gpu-count-conflict");
	assert_non_null(f);
	assert_int_equal(f->severity, DIAG_ERROR);
	assert_string_equal(f->source, "t/2gpu/run.ini:3");
	assert_string_equal(f->message, "run '2gpu': run.ini says gpus = 2, but its traces say "
			    "world_size = 128: the run is counted as 128 GPUs");
	assert_non_null(find_finding(a, "missing-rank"));	/* 2 of 128 ranks: a partial job */
	analysis_free(a);
	trial_free(t);
}

/* Without world_size: fewer declared than traced is an error, more is a partial job. */
static void declared_gpus_against_ranks(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "NVIDIA B200", "NVIDIA B200", BF16_GEMM, BF16_GEMM, 64);
	struct srcpos pos = SRCPOS_LINE("t/2gpu/run.ini", 3);
	struct analysis *a;

	fact_set_i64(&t->runs[1].declared.gpus, 1, &pos);
	a = analysis_run(t);
	assert_int_equal(a->runs[1].gpus, 2);
	assert_string_equal(finding_of(a, "gpu-count-conflict")->message, "run '2gpu': run.ini says "
			    "gpus = 1, but there are traces of 2 ranks: the run is counted as 2 GPUs");
	analysis_free(a);
	t->runs[1].declared.gpus.v = 4;
	a = analysis_run(t);
	assert_int_equal(a->runs[1].gpus, 4);
	assert_null(find_finding(a, "gpu-count-conflict"));
	assert_int_equal(finding_of(a, "gpu-count")->severity, DIAG_WARNING);
	analysis_free(a);
	trial_free(t);
}

static void smi_sample(struct run *r, int64_t ts, int64_t used, const char *name)
{
	struct gpu_sample *s = run_add_gpu_sample(r);

	*s = (struct gpu_sample){ .ts = ts, .gpu = 0, .memory_used = used,
				  .memory_total = 16 * 1073741824LL, .util_gpu = -1, .power_w = -1,
				  .name = name };
}

static void reserved(struct rank *k, int64_t bytes)
{
	struct mem_sample *m = rank_add_mem(k);

	*m = (struct mem_sample){ .ts = 1500 * MS, .allocated = bytes / 2, .reserved = bytes,
				  .device = 0 };
}

/*
 * The case: one nvidia-smi sample from another GPU model, 4 MiB
 * used, against the trace's 12.8 GB reserved: the monitor heads nothing.
 */
static void monitor_of_another_gpu_is_not_used(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "NVIDIA H200", "NVIDIA H200", BF16_GEMM, BF16_GEMM, 64);
	struct run *r1 = &t->runs[0];
	struct analysis *a;
	const struct gpu_result *g;

	r1->ranks[0].dev.index = 0;
	r1->ranks[0].dev.memory_total = 150754820096LL;
	reserved(&r1->ranks[0], 12800000000LL);
	smi_sample(r1, 1000 * MS, 4 * 1048576LL, "Tesla V100-PCIE-16GB");
	a = analysis_run(t);
	g = &a->runs[0].gpu[0];
	assert_int_equal(g->peak_by_source[MEM_NVSMI], 4 * 1048576LL);
	assert_int_equal(g->peak_memory, 12800000000LL);
	assert_string_equal(g->peak_source, "reserved");
	assert_int_equal(g->memory_total, 150754820096LL);
	assert_string_equal(g->name, "NVIDIA H200");
	assert_string_equal(finding_of(a, "monitor-not-used")->message,
			    "run '1gpu', GPU 0: nvidia-smi's peak of 4 MB is not the headline: it "
			    "names another GPU (Tesla V100-PCIE-16GB) than the trace (NVIDIA H200)");
	assert_string_equal(finding_of(a, "gpu-model-conflict")->message,
			    "run '1gpu', GPU 0: the trace says NVIDIA H200, nvidia-smi says "
			    "Tesla V100-PCIE-16GB: the trace is believed");
	analysis_free(a);
	trial_free(t);
}

/* The same model, but reading less than reserved, or covering too little time. */
static void monitor_short_or_low_is_not_used(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "NVIDIA H200", "NVIDIA H200", BF16_GEMM, BF16_GEMM, 64);
	struct run *r1 = &t->runs[0];
	struct analysis *a;

	r1->ranks[0].dev.index = 0;
	reserved(&r1->ranks[0], 12800000000LL);
	smi_sample(r1, 1000 * MS, 10000000000LL, "NVIDIA H200");
	smi_sample(r1, 1500 * MS, 12000000000LL, "NVIDIA H200");
	a = analysis_run(t);
	assert_string_equal(a->runs[0].gpu[0].peak_source, "reserved");
	assert_string_equal(finding_of(a, "monitor-not-used")->message,
			    "run '1gpu', GPU 0: nvidia-smi's peak of 12.0 GB is not the headline: it "
			    "reads less than the 12.8 GB the profiler reserved");
	analysis_free(a);
	r1->gpu[1].memory_used = 14000000000LL;	/* above reserved: 2 samples 0.5 s apart cover 1.0 s */
	a = analysis_run(t);
	assert_string_equal(a->runs[0].gpu[0].peak_source, "reserved");
	assert_string_equal(finding_of(a, "monitor-not-used")->message,
			    "run '1gpu', GPU 0: nvidia-smi's peak of 14.0 GB is not the headline: its "
			    "2 samples cover 1.0 s of the 1.1 s profiled");
	analysis_free(a);
	smi_sample(r1, 2000 * MS, 13000000000LL, "NVIDIA H200");	/* now 1.5 s: covered */
	a = analysis_run(t);
	assert_string_equal(a->runs[0].gpu[0].peak_source, "nvidia-smi");
	assert_int_equal(a->runs[0].gpu[0].peak_memory, 14000000000LL);
	assert_null(find_finding(a, "monitor-not-used"));
	analysis_free(a);
	trial_free(t);
}

/* collect_env against the trace, and where no trace names the GPU, against nvidia-smi. */
static void gpu_model_by_source(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3",
				   BF16_GEMM, BF16_GEMM, 64);
	struct run *r2 = &t->runs[1];
	const char *gpus[] = { "NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB" };
	struct analysis *a;

	r2->ranks[0].dev.index = 0;
	r2->ranks[1].dev.index = 1;
	r2->env.gpus = gpus;
	r2->env.ngpus = 2;
	a = analysis_run(t);
	assert_string_equal(finding_of(a, "gpu-model-conflict")->message,
			    "run '2gpu', GPU 1: the trace says NVIDIA H100 80GB HBM3, collect_env says "
			    "NVIDIA A100-SXM4-80GB: the trace is believed");
	analysis_free(a);
	r2->ranks[1].dev.name = NULL;	/* no trace name: collect_env is believed, and named */
	a = analysis_run(t);
	assert_string_equal(a->runs[1].gpu[1].name, "NVIDIA A100-SXM4-80GB");
	assert_null(find_finding(a, "gpu-model-conflict"));
	analysis_free(a);
	trial_free(t);
}

/* Kernels launched outside any ProfilerStep: how many and how long, per rank. */
static void work_outside_steps(void **state)
{
	struct trial *t = trial_of(HYP_STEP_TIME, "NVIDIA B200", "NVIDIA B200", BF16_GEMM, BF16_GEMM, 64);
	struct rank *k = &t->runs[1].ranks[1];
	struct analysis *a;

	for (int i = 0; i < 2; i++) {
		struct gpu_event *e = rank_add_event(k);

		e->start = 5000 * MS + i * 10 * MS;
		e->end = e->start + 3 * MS + i * MS;	/* 3 ms and 4 ms */
		e->step = -1;
		e->cls = EVC_COMPUTE;
		e->name = intern_str(&t->strings, "optimizer_kernel");
	}
	a = analysis_run(t);
	assert_string_equal(finding_of(a, "gpu-work-outside-steps")->message,
			    "run '2gpu', GPU 1: 2 of its 12 GPU activities (7.0 ms of GPU time) were "
			    "launched outside any profiled step and enter no step's numbers");
	assert_int_equal(finding_of(a, "gpu-work-outside-steps")->severity, DIAG_INFO);
	analysis_free(a);
	trial_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gpu_model_differs_blocks),
		cmocka_unit_test(gpu_model_spellings_agree),
		cmocka_unit_test(gpu_model_not_in_table),
		cmocka_unit_test(unknown_facts_are_unverified),
		cmocka_unit_test(unknown_on_both_sides),
		cmocka_unit_test(unknown_global_batch_blocks_global_batch),
		cmocka_unit_test(declared_precision_stands_in),
		cmocka_unit_test(bad_declared_precision_is_unknown),
		cmocka_unit_test(precision_spellings),
		cmocka_unit_test(declared_gpus_against_world_size),
		cmocka_unit_test(declared_gpus_against_ranks),
		cmocka_unit_test(monitor_of_another_gpu_is_not_used),
		cmocka_unit_test(monitor_short_or_low_is_not_used),
		cmocka_unit_test(gpu_model_by_source),
		cmocka_unit_test(work_outside_steps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
