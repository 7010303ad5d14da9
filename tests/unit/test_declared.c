/*
 * Declared against measured, on runs built by hand: a run.ini value that a
 * log contradicts is a manifest-conflict naming both file:line and the value
 * used (the log's, or the traces' GPU count); run.ini's global_batch against
 * its micro_batch x data-parallel GPUs x grad_accum, and the same product
 * on the values used; the confounds on the values used; runs[].facts, and
 * its round trip through analysis.json.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/analysis.h"
#include "analysis/facts.h"
#include "render/analysis_json.h"
#include "tests/unit/fixture_analysis.h"

#define MS NS_PER_MS
#define BF16_GEMM "nvjet_sm100_tst_128x256_64x4_2x1_v_bz_TNT"

/* A rank: steps 0..9 of 100 ms (step 0: 200 ms), a 90 ms bf16 GEMM in each. */
static void fill(struct trial *t, struct rank *k, int32_t world)
{
	const char *g = intern_str(&t->strings, BF16_GEMM);
	int64_t t0 = 1000 * MS;

	k->dev.name = "NVIDIA B200";
	k->world_size = world;
	k->trace = intern_str(&t->strings, k->rank ? "t/2gpu/rank1.pt.trace.json" :
			      world > 1 ? "t/2gpu/rank0.pt.trace.json" : "t/1gpu/rank0.pt.trace.json");
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

/* A trial in directory "t" with runs 1gpu and 2gpu and nothing read yet. */
static struct trial *two_runs(void)
{
	struct trial *t = trial_new();

	t->dir = "t";
	t->hypothesis = HYP_STEP_TIME;
	trial_add_run(t, "1gpu", "t/1gpu");
	trial_add_run(t, "2gpu", "t/2gpu");
	return t;
}

/* Both runs traced: one rank in 1gpu, two of world size 2 in 2gpu. */
static struct trial *traced(void)
{
	struct trial *t = two_runs();

	fill(t, run_rank(&t->runs[0], 0), -1);
	fill(t, run_rank(&t->runs[1], 0), 2);
	fill(t, run_rank(&t->runs[1], 1), 2);
	return t;
}

static void put(struct fact_i64 *f, int64_t v, const char *file, int64_t line)
{
	struct srcpos pos = SRCPOS_LINE(file, line);

	fact_set_i64(f, v, &pos);
}

/* A log's fact, printed under key. */
static void put_logged(struct trial *t, struct fact_i64 *f, int64_t v, const char *file,
		       int64_t line, const char *key)
{
	put(f, v, file, line);
	f->key = key ? intern_str(&t->strings, key) : NULL;
}

static void put_name(struct trial *t, struct fact_str *f, const char *v, const char *file,
		     int64_t line)
{
	struct srcpos pos = SRCPOS_LINE(file, line);

	fact_set_str(t, f, v, &pos);
}

static size_t count(const struct analysis *a, const char *code)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nfindings; i++)
		n += !strcmp(a->findings[i].code, code);
	return n;
}

/* The i-th finding of code; the case fails without one. */
static const struct finding *nth(const struct analysis *a, const char *code, size_t i)
{
	for (size_t k = 0; k < a->nfindings; k++)
		if (!strcmp(a->findings[k].code, code) && !i--)
			return &a->findings[k];
	fail_msg("no such %s finding", code);
	return NULL;
}



static void string_or_null(const char *got, const char *want)
{
	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
}

static void assert_fact(const struct run_fact *f, enum fact_from from, int64_t value,
			const char *at, int64_t declared, const char *declared_at)
{
	assert_int_equal(f->from, from);
	assert_int_equal(f->value, value);
	string_or_null(f->at, at);
	assert_int_equal(f->declared, declared);
	string_or_null(f->declared_at, declared_at);
}

/*
 * run.ini says global_batch = 16, the log 8: an error naming both lines, 8
 * used, and the runs compared on it (8 against 16: a blocking confound).
 */
static void log_beats_manifest(void **state)
{
	struct trial *t = traced();
	struct analysis *a;
	const struct finding *f;

	(void)state;
	put(&t->runs[0].declared.global_batch, 16, "t/1gpu/run.ini", 6);
	put_logged(t, &t->runs[0].logged.global_batch, 8, "t/1gpu/train.log", 5,
		   "Total train batch size");
	put(&t->runs[1].declared.global_batch, 16, "t/2gpu/run.ini", 6);
	put_logged(t, &t->runs[1].logged.global_batch, 16, "t/2gpu/train.log", 46,
		   "Total train batch size");
	a = analysis_run(t);
	assert_int_equal(count(a, "manifest-conflict"), 1);
	f = nth(a, "manifest-conflict", 0);
	assert_int_equal(f->severity, DIAG_ERROR);
	assert_string_equal(f->source, "t/1gpu/run.ini:6");
	assert_string_equal(f->message, "run '1gpu': run.ini:6 says global_batch = 16, but "
			    "train.log:5 says 8 (Total train batch size): 8 is used");
	assert_int_equal(a->runs[0].global_batch, 8);
	assert_fact(&a->runs[0].facts[FACT_GLOBAL_BATCH], FACT_FROM_LOG, 8, "1gpu/train.log:5",
		    16, "1gpu/run.ini:6");
	assert_fact(&a->runs[1].facts[FACT_GLOBAL_BATCH], FACT_FROM_LOG, 16, "2gpu/train.log:46",
		    16, "2gpu/run.ini:6");
	assert_int_equal(confound_of(a, CF_GLOBAL_BATCH)->severity, CFS_BLOCKING);
	assert_string_equal(confound_of(a, CF_GLOBAL_BATCH)->baseline, "8");
	assert_int_equal(a->cmp.verdict, VERDICT_INCONCLUSIVE);
	analysis_free(a);
	trial_free(t);
}

/*
 * run.ini's own product: 16 against 8 x 1 x 1 on one GPU; a pipeline run
 * splits no batch (1 of its 2 GPUs), a ddp run over both; without a
 * grad_accum nothing is checked.
 */
static void manifest_product(void **state)
{
	struct trial *t = traced();
	struct run_facts *d1 = &t->runs[0].declared, *d2 = &t->runs[1].declared;
	struct srcpos pos = SRCPOS_LINE("t/2gpu/run.ini", 2);
	struct analysis *a;

	(void)state;
	put(&d1->global_batch, 16, "t/1gpu/run.ini", 6);
	put(&d1->micro_batch, 8, "t/1gpu/run.ini", 7);
	put(&d1->grad_accum, 1, "t/1gpu/run.ini", 8);
	put(&d2->global_batch, 16, "t/2gpu/run.ini", 6);
	put(&d2->micro_batch, 8, "t/2gpu/run.ini", 7);
	put(&d2->grad_accum, 1, "t/2gpu/run.ini", 8);
	fact_set_str(t, &d2->strategy, "ddp", &pos);
	a = analysis_run(t);
	assert_int_equal(count(a, "manifest-conflict"), 1);
	assert_string_equal(nth(a, "manifest-conflict", 0)->source, "t/1gpu/run.ini:6");
	assert_string_equal(nth(a, "manifest-conflict", 0)->message,
			    "run '1gpu': run.ini:6 says global_batch = 16, but its micro_batch x "
			    "data-parallel GPUs x grad_accum = 8 x 1 x 1 = 8 (micro_batch at run.ini:7, "
			    "grad_accum at run.ini:8, 1 GPU, single): the global batch used is 16");
	assert_int_equal(a->runs[0].global_batch, 16);	/* nothing measured says otherwise */
	analysis_free(a);

	d1->global_batch.v = 8;		/* now 8 = 8 x 1 x 1 */
	d2->strategy.v = intern_str(&t->strings, "pipeline");
	a = analysis_run(t);
	assert_int_equal(count(a, "manifest-conflict"), 1);
	assert_string_equal(nth(a, "manifest-conflict", 0)->message,
			    "run '2gpu': run.ini:6 says global_batch = 16, but its micro_batch x "
			    "data-parallel GPUs x grad_accum = 8 x 1 x 1 = 8 (micro_batch at run.ini:7, "
			    "grad_accum at run.ini:8, 1 of 2 GPUs, pipeline): the global batch used is 16");
	analysis_free(a);

	d2->grad_accum.set = false;
	a = analysis_run(t);
	assert_int_equal(count(a, "manifest-conflict"), 0);
	analysis_free(a);
	trial_free(t);
}

/*
 * The values used, measured: micro 4 x world 2 x accumulation 2 = 16 holds;
 * accumulation 1 makes 8, a batch-inconsistent warning; with run.ini's
 * micro_batch among the terms, a manifest-conflict; unknown data-parallel
 * GPUs (no strategy, 2 GPUs) check nothing.
 */
static void used_product(void **state)
{
	struct trial *t = two_runs();
	struct run *r = &t->runs[1];
	struct srcpos pos = SRCPOS_LINE("t/2gpu/run.ini", 2);
	struct analysis *a;
	const struct finding *f;

	(void)state;
	put_logged(t, &r->logged.micro_batch, 4, "t/2gpu/train.log", 4, "Batch Size per Device");
	put_logged(t, &r->logged.grad_accum, 2, "t/2gpu/train.log", 5, "Gradient Accumulation Steps");
	put_logged(t, &r->logged.gpus, 2, "t/2gpu/train.log", 6, "World Size");
	put_logged(t, &r->logged.global_batch, 16, "t/2gpu/train.log", 7, "Effective Batch Size");
	fact_set_str(t, &r->declared.strategy, "ddp", &pos);
	a = analysis_run(t);
	assert_int_equal(a->runs[1].gpus, 2);
	assert_fact(&a->runs[1].facts[FACT_GPUS], FACT_FROM_LOG, 2, "2gpu/train.log:6", -1, NULL);
	assert_int_equal(count(a, "batch-inconsistent") + count(a, "manifest-conflict"), 0);
	analysis_free(a);

	r->logged.grad_accum.v = 1;
	a = analysis_run(t);
	f = nth(a, "batch-inconsistent", 0);
	assert_int_equal(f->severity, DIAG_WARNING);
	assert_string_equal(f->source, "t/2gpu/train.log:7");
	assert_string_equal(f->message, "run '2gpu': the global batch used, 16 (train.log:7), is not "
			    "its micro_batch x data-parallel GPUs x grad_accum = 4 x 2 x 1 = 8 "
			    "(micro_batch at train.log:4, grad_accum at train.log:5, 2 GPUs, ddp)");
	analysis_free(a);

	r->logged.grad_accum.set = false;
	put(&r->declared.grad_accum, 1, "t/2gpu/run.ini", 8);
	a = analysis_run(t);
	assert_int_equal(count(a, "batch-inconsistent"), 0);
	f = nth(a, "manifest-conflict", 0);
	assert_int_equal(f->severity, DIAG_ERROR);
	assert_string_equal(f->message, "run '2gpu': the global batch used, 16 (train.log:7), is not "
			    "its micro_batch x data-parallel GPUs x grad_accum = 4 x 2 x 1 = 8 "
			    "(micro_batch at train.log:4, grad_accum at run.ini:8, 2 GPUs, ddp)");
	analysis_free(a);

	r->declared.strategy.v = NULL;
	a = analysis_run(t);
	assert_int_equal(count(a, "batch-inconsistent") + count(a, "manifest-conflict"), 0);
	analysis_free(a);
	trial_free(t);
}

/*
 * Megatron: 8 GPUs split 2-way data-parallel (the size its log prints, or
 * 8 over tensor 2 x pipeline 2): micro 2 x 2 x accumulation 4 = 16 holds,
 * accumulation 1 does not.
 */
static void megatron_data_parallel(void **state)
{
	struct trial *t = two_runs();
	struct run_facts *l = &t->runs[1].logged;
	struct analysis *a;

	(void)state;
	put_logged(t, &l->gpus, 8, "t/2gpu/train.log", 1, "world size");
	put_logged(t, &l->dp_size, 2, "t/2gpu/train.log", 1, "data-parallel size");
	put_logged(t, &l->global_batch, 16, "t/2gpu/train.log", 12, "global_batch_size");
	put_logged(t, &l->micro_batch, 2, "t/2gpu/train.log", 15, "micro_batch_size");
	put_logged(t, &l->grad_accum, 4, "t/2gpu/train.log", 23, "number of micro-batches");
	a = analysis_run(t);
	assert_int_equal(count(a, "batch-inconsistent"), 0);
	analysis_free(a);
	l->grad_accum.v = 1;
	a = analysis_run(t);
	assert_string_equal(nth(a, "batch-inconsistent", 0)->message, "run '2gpu': the global batch "
			    "used, 16 (train.log:12), is not its micro_batch x data-parallel GPUs x "
			    "grad_accum = 2 x 2 x 1 = 4 (micro_batch at train.log:15, grad_accum at "
			    "train.log:23, data-parallel size at train.log:1)");
	analysis_free(a);
	l->dp_size.set = false;
	put_logged(t, &l->tp_size, 2, "t/2gpu/train.log", 18, "tensor_model_parallel_size");
	put_logged(t, &l->pp_size, 2, "t/2gpu/train.log", 16, "pipeline_model_parallel_size");
	assert_int_equal(fact_dp_gpus(&t->runs[1], 8, NULL), 2);
	a = analysis_run(t);
	assert_non_null(strstr(nth(a, "batch-inconsistent", 0)->message,
			       "= 2 x 2 x 1 = 4 (micro_batch at train.log:15, grad_accum at "
			       "train.log:23, 8 GPUs over tensor x pipeline parallel = 4)"));
	analysis_free(a);
	trial_free(t);
}

/*
 * gpus: run.ini against the log's world size; with traces, the traces'
 * world size is used and gpu-count-conflict says so too.
 */
static void gpus_against_log(void **state)
{
	struct trial *t = two_runs();
	struct analysis *a;

	(void)state;
	put(&t->runs[1].declared.gpus, 4, "t/2gpu/run.ini", 3);
	put_logged(t, &t->runs[1].logged.gpus, 2, "t/2gpu/train.log", 9, "World Size");
	a = analysis_run(t);
	assert_int_equal(a->runs[1].gpus, 2);
	assert_string_equal(nth(a, "manifest-conflict", 0)->message, "run '2gpu': run.ini:3 says "
			    "gpus = 4, but train.log:9 says 2 (World Size): 2 is used");
	assert_fact(&a->runs[1].facts[FACT_GPUS], FACT_FROM_LOG, 2, "2gpu/train.log:9", 4,
		    "2gpu/run.ini:3");
	analysis_free(a);
	trial_free(t);

	t = traced();
	put(&t->runs[1].declared.gpus, 4, "t/2gpu/run.ini", 3);
	put_logged(t, &t->runs[1].logged.gpus, 2, "t/2gpu/train.log", 9, "World Size");
	a = analysis_run(t);
	assert_int_equal(a->runs[1].gpus, 2);
	assert_string_equal(nth(a, "manifest-conflict", 0)->message, "run '2gpu': run.ini:3 says "
			    "gpus = 4, but train.log:9 says 2 (World Size): 2 (the traces') is used");
	assert_int_equal(count(a, "gpu-count-conflict"), 1);
	assert_fact(&a->runs[1].facts[FACT_GPUS], FACT_FROM_TRACE, 2, "2gpu/rank0.pt.trace.json", 4,
		    "2gpu/run.ini:3");
	analysis_free(a);
	trial_free(t);
}

/*
 * precision: run.ini fp16 against the log's bf16 flag: an error, the log's
 * bf16 is the declaration used (so the bf16 kernels raise no
 * precision-mismatch), and the kernels' bf16 is the value used.
 */
static void precision_against_log(void **state)
{
	struct trial *t = traced();
	struct analysis *a;

	(void)state;
	put_name(t, &t->runs[0].declared.precision, "float16", "t/1gpu/run.ini", 5);
	put_name(t, &t->runs[0].logged.precision, "bf16", "t/1gpu/train.log", 12);
	a = analysis_run(t);
	assert_string_equal(nth(a, "manifest-conflict", 0)->message, "run '1gpu': run.ini:5 says "
			    "precision = float16, but train.log:12 says bf16: bf16 (the traces') is used");
	assert_int_equal(count(a, "precision-mismatch"), 0);
	assert_string_equal(a->runs[0].precision_declared, "bf16");
	assert_int_equal(a->runs[0].facts[FACT_PRECISION].from, FACT_FROM_TRACE);
	assert_string_equal(a->runs[0].facts[FACT_PRECISION].text, "bf16");
	assert_string_equal(a->runs[0].facts[FACT_PRECISION].at, "1gpu/rank0.pt.trace.json");
	assert_string_equal(a->runs[0].facts[FACT_PRECISION].declared_text, "float16");
	analysis_free(a);
	trial_free(t);
}

/*
 * Names: the log's "allenai/c4" agrees with run.ini's "c4" (run.ini's
 * spelling kept), and with the other run's "C4": no confound; a log that
 * says wikitext-2 where run.ini says wikitext-103 is an error, and the
 * runs then read different data. Steps planned: run.ini against the log.
 */
static void names_and_steps(void **state)
{
	struct trial *t = traced();
	struct analysis *a;
	const struct run_fact *f;

	(void)state;
	put_name(t, &t->runs[0].declared.dataset, "c4", "t/1gpu/run.ini", 10);
	put_name(t, &t->runs[0].logged.dataset, "allenai/c4", "t/1gpu/train.log", 1);
	put_name(t, &t->runs[1].declared.dataset, "C4", "t/2gpu/run.ini", 10);
	put(&t->runs[1].declared.steps, 500, "t/2gpu/run.ini", 11);
	put_logged(t, &t->runs[1].logged.steps, 1000, "t/2gpu/train.log", 8,
		   "Total optimization steps");
	a = analysis_run(t);
	f = &a->runs[0].facts[FACT_DATASET];
	assert_int_equal(f->from, FACT_FROM_LOG);
	assert_string_equal(f->text, "c4");
	assert_string_equal(f->at, "1gpu/train.log:1");
	assert_null(find_confound(a, CF_DATASET));
	assert_int_equal(count(a, "manifest-conflict"), 1);
	assert_string_equal(nth(a, "manifest-conflict", 0)->message, "run '2gpu': run.ini:11 says "
			    "steps = 500, but train.log:8 says 1000 (Total optimization steps): 1000 is used");
	assert_fact(&a->runs[1].facts[FACT_STEPS], FACT_FROM_LOG, 1000, "2gpu/train.log:8", 500,
		    "2gpu/run.ini:11");
	analysis_free(a);
	trial_free(t);

	t = traced();
	put_name(t, &t->runs[0].declared.dataset, "wikitext-103", "t/1gpu/run.ini", 10);
	put_name(t, &t->runs[0].logged.dataset, "/lustre/data/wikitext-2", "t/1gpu/train.log", 24);
	put_name(t, &t->runs[1].declared.dataset, "wikitext-103", "t/2gpu/run.ini", 10);
	a = analysis_run(t);
	assert_string_equal(nth(a, "manifest-conflict", 0)->message, "run '1gpu': run.ini:10 says "
			    "dataset = wikitext-103, but train.log:24 says /lustre/data/wikitext-2: "
			    "/lustre/data/wikitext-2 is used");
	assert_int_equal(confound_of(a, CF_DATASET)->severity, CFS_BLOCKING);
	assert_string_equal(confound_of(a, CF_DATASET)->baseline, "/lustre/data/wikitext-2");
	assert_string_equal(confound_of(a, CF_DATASET)->candidate, "wikitext-103");
	analysis_free(a);
	trial_free(t);
}

static void names_agree(void **state)
{
	static const struct {
		const char *a, *b;
		bool agree;
	} cases[] = {
		{ "allenai/c4", "C4", true }, { "llama3 8B", "Llama-3-8B", true },
		{ "meta-llama/Llama-2-7b-hf", "llama-2-7b", true },
		{ "data/fineweb-10BT-BPE_text_document", "fineweb-10BT", true },
		{ "/lustre/data/wikitext-2/", "wikitext-2", true },
		{ "/lustre/data/wikitext-2", "wikitext-103", false },
		{ "gpt2", "llama3 8B", false }, { "---", "c4", true }, { NULL, "c4", true },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (fact_names_agree(cases[i].a, cases[i].b) != cases[i].agree)
			fail_msg("'%s' and '%s' should %sagree", cases[i].a ? cases[i].a : "(null)",
				 cases[i].b, cases[i].agree ? "" : "not ");
}

/* Nothing known of a fact is FACT_FROM_NONE; a micro batch alone derives the global batch. */
static void unknown_and_derived(void **state)
{
	struct trial *t = traced();
	struct analysis *a;

	(void)state;
	put(&t->runs[0].declared.micro_batch, 8, "t/1gpu/run.ini", 7);
	a = analysis_run(t);
	assert_int_equal(a->runs[0].global_batch, 8);	/* 8 x 1 GPU x 1 */
	assert_fact(&a->runs[0].facts[FACT_GLOBAL_BATCH], FACT_FROM_DERIVED, 8, NULL, -1, NULL);
	assert_int_equal(a->runs[0].facts[FACT_MODEL].from, FACT_FROM_NONE);
	assert_int_equal(a->runs[1].facts[FACT_GLOBAL_BATCH].from, FACT_FROM_NONE);
	assert_int_equal(a->runs[1].facts[FACT_GLOBAL_BATCH].value, -1);
	analysis_free(a);
	trial_free(t);
}

/* runs[].facts is written and read back as it was. */
static void facts_round_trip(void **state)
{
	struct trial *t = traced();
	struct analysis *a, *b;
	struct diags d = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	put(&t->runs[0].declared.global_batch, 16, "t/1gpu/run.ini", 6);
	put_logged(t, &t->runs[0].logged.global_batch, 8, "t/1gpu/train.log", 5, NULL);
	put_name(t, &t->runs[0].declared.model, "Llama-3-8B", "t/1gpu/run.ini", 11);
	put_name(t, &t->runs[1].logged.model, "llama3 8B", "t/2gpu/train.log", 2);
	a = analysis_run(t);
	f = open_memstream(&buf, &len);
	assert_int_equal(analysis_write_json(a, f), 0);
	fclose(f);
	b = analysis_parse_json(buf, len, "analysis.json", &d);
	assert_non_null(b);
	for (size_t i = 0; i < 2; i++) {
		for (int k = 0; k < FACT_COUNT; k++) {
			const struct run_fact *x = &a->runs[i].facts[k], *y = &b->runs[i].facts[k];

			assert_int_equal(x->from, y->from);
			assert_int_equal(x->value, y->value);
			assert_int_equal(x->declared, y->declared);
			if (x->from == FACT_FROM_NONE)
				continue;
			string_or_null(y->text, x->text);
			string_or_null(y->at, x->at);
			string_or_null(y->declared_text, x->declared_text);
			string_or_null(y->declared_at, x->declared_at);
		}
	}
	assert_string_equal(b->runs[0].facts[FACT_MODEL].declared_text, "Llama-3-8B");
	assert_string_equal(b->runs[1].facts[FACT_MODEL].text, "llama3 8B");
	assert_int_equal(b->runs[0].facts[FACT_GLOBAL_BATCH].value, 8);
	assert_null(find_confound(a, CF_MODEL));	/* Llama-3-8B and llama3 8B agree */
	analysis_free(b);
	analysis_free(a);
	free(buf);
	trial_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(log_beats_manifest),
		cmocka_unit_test(manifest_product),
		cmocka_unit_test(used_product),
		cmocka_unit_test(megatron_data_parallel),
		cmocka_unit_test(gpus_against_log),
		cmocka_unit_test(precision_against_log),
		cmocka_unit_test(names_and_steps),
		cmocka_unit_test(names_agree),
		cmocka_unit_test(unknown_and_derived),
		cmocka_unit_test(facts_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
