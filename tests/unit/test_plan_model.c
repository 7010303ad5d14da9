/*
 * The pre-rental model (analysis/plan): worked examples whose answers are
 * known (the ZeRO paper's 7.5B model, a 7B model on one H200 or two B200s),
 * each strategy's fit decision one byte either side of the boundary, the
 * communication per step, Young/Daly, the rental window and the key parser.
 * Expected values are computed here from the published formulas, not by the
 * module's functions.
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

#include "analysis/plan.h"

#define MIB(n) ((double)(n) * 1048576)

static void set(struct plan_inputs *in, const char *key, const char *value)
{
	char err[160] = "";

	if (plan_set(in, key, value, err, sizeof(err)) < 0)
		fail_msg("%s = %s: %s", key, value, err);
}

static void near(double got, double want)
{
	if (fabs(got - want) > 1e-9 * fabs(want) + 1e-9)
		fail_msg("got %.17g, want %.17g", got, want);
}

static double states(const struct plan_memory *m)
{
	return m->weights + m->gradients + m->optimizer;
}

/* ZeRO section 3/5: 7.5B parameters, mixed-precision Adam: 16 bytes each, 120 GB; /64 at ZeRO-3. */
static void zero_paper(void **state)
{
	struct plan_inputs in;
	struct plan_result r;
	char err[160];

	plan_inputs_init(&in);
	set(&in, "model", "ZeRO-7.5B");
	set(&in, "gpus", "64");
	set(&in, "gpu", "H200");
	assert_int_equal(plan_check(&in, err, sizeof(err)), 0);
	plan_compute(&in, &r);
	assert_true(r.optimizer_k == 12);
	assert_true(r.s[PLAN_SINGLE].mem.weights == 15e9);
	assert_true(r.s[PLAN_SINGLE].mem.gradients == 15e9);
	assert_true(r.s[PLAN_SINGLE].mem.optimizer == 90e9);
	assert_true(states(&r.s[PLAN_SINGLE].mem) == 120e9);
	assert_true(states(&r.s[PLAN_DDP].mem) == 120e9);
	assert_true(states(&r.s[PLAN_ZERO1].mem) == 15e9 + 15e9 + 90e9 / 64);	/* 31.4 GB */
	assert_true(states(&r.s[PLAN_ZERO2].mem) == 15e9 + (15e9 + 90e9) / 64);	/* 16.6 GB */
	assert_true(states(&r.s[PLAN_ZERO3].mem) == 1.875e9);
	assert_true(states(&r.s[PLAN_FSDP].mem) == 1.875e9);
	assert_int_equal(r.s[PLAN_ZERO3].gpus, 64);
	/* no shape: activations unknown, so the total is too, and the fit unless states overflow */
	assert_true(isnan(r.s[PLAN_SINGLE].mem.activations));
	assert_true(isnan(r.s[PLAN_SINGLE].mem.total));
	assert_int_equal(r.s[PLAN_SINGLE].fit[0].fits, -1);	/* 127 GB known < 150.8 GB */
	assert_int_equal(r.recommended, -1);
	assert_non_null(strstr(r.reason, "activations are unknown"));
}

/*
 * 7B, bf16 with Adam, micro batch 1, 4096 tokens, h 4096, 32 layers, 32 heads:
 * 112 GB of states; activations per layer s*b*h*(34 + 5*a*s/h) = 16777216 * 194.
 */
static void seven_b_h200_b200(void **state)
{
	struct plan_inputs in;
	struct plan_result r;
	double act = 32 * 16777216.0 * 194;	/* 104.2 GB */
	double single = 112e9 + act + 1e9 + 0.05 * (112e9 + act);
	double zero3 = 56e9 + act + 1e9 + 0.5e9 + 0.05 * (56e9 + act);

	plan_inputs_init(&in);
	set(&in, "params", "7B");
	set(&in, "micro-batch", "1");
	set(&in, "seq-len", "4096");
	set(&in, "hidden", "4096");
	set(&in, "layers", "32");
	set(&in, "heads", "32");
	set(&in, "gpu", "H200,B200");
	plan_compute(&in, &r);
	near(r.s[PLAN_SINGLE].mem.activations, act);
	near(r.s[PLAN_SINGLE].mem.total, single);	/* 228.0 GB */
	near(r.s[PLAN_ZERO3].mem.total, zero3);		/* 169.6 GB */
	assert_true(r.s[PLAN_SINGLE].fit[0].capacity == MIB(143771));
	assert_true(r.s[PLAN_SINGLE].fit[0].capacity_reported);
	assert_true(r.s[PLAN_SINGLE].fit[1].capacity == 191503138816.0);
	assert_int_equal(r.s[PLAN_SINGLE].fit[0].fits, 0);	/* not on one H200 */
	assert_int_equal(r.s[PLAN_SINGLE].fit[1].fits, 0);	/* nor one B200 */
	assert_int_equal(r.s[PLAN_DDP].fit[1].fits, 0);		/* a replica each: no */
	assert_int_equal(r.s[PLAN_ZERO3].fit[1].fits, 1);	/* sharded over two B200s: yes */
	assert_int_equal(r.s[PLAN_ZERO3].fit[0].fits, 0);	/* two H200s: 169.6 > 150.8 GB */
	/* tensor-parallel activations: s*b*h*(10 + 24/2 + 5*a*s/(2h)) per layer */
	near(r.s[PLAN_TENSOR].mem.activations, 32 * 16777216.0 * (10 + 12 + 80));
	assert_int_equal(r.s[PLAN_TENSOR].fit[0].fits, 1);	/* 56 + 54.8 + 1.5 + 5.5 GB */
	assert_string_equal(r.s[PLAN_TENSOR].tests, "feasibility");
	assert_null(r.s[PLAN_ZERO3].tests);			/* does not fit the H200 */
	/* 1F1B with one micro-batch: the first stage holds it for its 16 layers only */
	near(r.s[PLAN_PIPELINE].mem.activations, act / 2);
	assert_int_equal(r.s[PLAN_PIPELINE].fit[0].fits, 1);	/* 56 + 52.1 + 1.5 + 5.4 GB */
	assert_int_equal(r.recommended, PLAN_TENSOR);		/* before pipeline over NVLink */
	set(&in, "grad-accum", "4");	/* 2 micro-batches in flight of 16 layers: 32 layers' worth */
	plan_compute(&in, &r);
	near(r.s[PLAN_PIPELINE].mem.activations, act);
	set(&in, "grad-accum", "1");

	assert_null(r.hypothesis_note);				/* none given */
	set(&in, "hypothesis", "step-time");
	plan_compute(&in, &r);
	assert_non_null(strstr(r.hypothesis_note, "1-GPU baseline would fail"));
	set(&in, "hypothesis", "feasibility");
	plan_compute(&in, &r);
	assert_null(r.hypothesis_note);

	set(&in, "checkpointing", "full");	/* 2*s*b*h per layer */
	plan_compute(&in, &r);
	assert_non_null(strstr(r.hypothesis_note, "cannot show feasibility"));
	near(r.s[PLAN_SINGLE].mem.activations, 32 * 2 * 16777216.0);
	assert_int_equal(r.s[PLAN_SINGLE].fit[0].fits, 1);
	assert_int_equal(r.recommended, PLAN_DDP);
	/* one GPU holds the job: no run of any strategy can show feasibility */
	for (int i = 0; i < PLAN_NSTRATEGY; i++)
		assert_null(r.s[i].tests);
	in.hypothesis = NULL;	/* unset: what each shows best */
	plan_compute(&in, &r);
	assert_string_equal(r.s[PLAN_DDP].tests, "global-batch");
	assert_string_equal(r.s[PLAN_PIPELINE].tests, "step-time");
	/* step-time: every strategy can hold the global batch; global-batch: data parallelism only */
	set(&in, "hypothesis", "step-time");
	plan_compute(&in, &r);
	assert_string_equal(r.s[PLAN_DDP].tests, "step-time");
	assert_string_equal(r.s[PLAN_ZERO3].tests, "step-time");
	assert_string_equal(r.s[PLAN_PIPELINE].tests, "step-time");
	set(&in, "hypothesis", "global-batch");
	plan_compute(&in, &r);
	assert_string_equal(r.s[PLAN_DDP].tests, "global-batch");
	assert_null(r.s[PLAN_PIPELINE].tests);
	assert_null(r.s[PLAN_TENSOR].tests);
	in.hypothesis = NULL;
	set(&in, "checkpointing", "selective");	/* s*b*h*34 per layer */
	plan_compute(&in, &r);
	near(r.s[PLAN_SINGLE].mem.activations, 32 * 34 * 16777216.0);

	/* flash attention stores no s*s scores: s*b*h*34 without checkpointing, 10 + 24/t over t GPUs */
	set(&in, "checkpointing", "none");
	set(&in, "attention", "flash");
	plan_compute(&in, &r);
	near(r.s[PLAN_SINGLE].mem.activations, 32 * 34 * 16777216.0);
	near(r.s[PLAN_TENSOR].mem.activations, 32 * 22 * 16777216.0);
	set(&in, "attention", "eager");	/* back to the paper's 5as/h term */
	plan_compute(&in, &r);
	assert_true(r.s[PLAN_SINGLE].mem.activations > 32 * 34 * 16777216.0);
	{
		char err[160];

		assert_int_equal(plan_set(&in, "attention", "sdpa", err, sizeof(err)), -1);
	}
}

/* Every strategy: fits at total == capacity and one byte under, not one byte over. */
static void fit_boundaries(void **state)
{
	struct plan_inputs in;
	struct plan_result r;
	static const int delta[] = { -1, 0, 1 };

	plan_inputs_init(&in);
	set(&in, "params", "7e9");
	set(&in, "micro-batch", "2");
	set(&in, "seq-len", "2048");
	set(&in, "hidden", "4096");
	set(&in, "layers", "32");
	set(&in, "heads", "32");
	set(&in, "gpu", "B200");
	for (int s = 0; s < PLAN_NSTRATEGY; s++)
		for (size_t d = 0; d < 3; d++) {
			double alloc, cap = 191503138816.0;

			in.reserve_bytes = 0;
			plan_compute(&in, &r);
			alloc = r.s[s].mem.total;
			in.reserve_bytes = cap - alloc + delta[d];
			plan_compute(&in, &r);
			assert_true(r.s[s].mem.total == cap + delta[d]);
			assert_int_equal(r.s[s].fit[0].fits, delta[d] <= 0);
		}
}

/* Ring all-reduce sends 2(n-1)/n of its payload, all-gather/reduce-scatter (n-1)/n. */
static void comm_bytes(void **state)
{
	struct plan_inputs in;
	struct plan_result r;

	plan_inputs_init(&in);
	set(&in, "params", "7e9");
	set(&in, "gpu", "H200");
	plan_compute(&in, &r);
	assert_true(r.s[PLAN_SINGLE].comm_bytes == 0);
	assert_true(r.s[PLAN_DDP].comm_payload_bytes == 14e9);	/* bf16 gradients */
	assert_true(r.s[PLAN_DDP].comm_bytes == 14e9);		/* 2 x 1/2 */
	near(r.s[PLAN_DDP].fit[0].comm_s, 14e9 / 450e9);
	assert_true(r.s[PLAN_ZERO3].comm_payload_bytes == 42e9);	/* 3 Psi x 2 bytes */
	assert_true(r.s[PLAN_ZERO3].comm_bytes == 21e9);
	assert_true(isnan(r.s[PLAN_TENSOR].comm_bytes));		/* no shape */

	set(&in, "gpus", "64");
	set(&in, "grad-accum", "4");
	plan_compute(&in, &r);
	near(r.s[PLAN_DDP].comm_bytes, 2 * 14e9 * 63 / 64);	/* ZeRO's 2 Psi as n grows */
	near(r.s[PLAN_ZERO3].comm_bytes, 4 * 42e9 * 63 / 64);	/* gathered every micro-batch */

	set(&in, "gpus", "2");
	set(&in, "micro-batch", "1");
	set(&in, "seq-len", "4096");
	set(&in, "hidden", "4096");
	set(&in, "layers", "32");
	/* 4 all-reduces of s*b*h*2 bytes per layer and micro-batch */
	plan_compute(&in, &r);
	assert_true(r.s[PLAN_TENSOR].comm_payload_bytes == 4 * 4 * 32 * 33554432.0);
	assert_true(r.s[PLAN_PIPELINE].comm_bytes == 4 * 33554432.0);	/* one boundary */
}

/*
 * Young/Daly: C = 7e9 x (2 + 12) bytes / 1 GB/s = 98 s, M = 1 h:
 * sqrt(2 x 98 x 3600) - 98 = 840 - 98 = 742 s.
 * Throughput 0.4 x 989.5e12 / (6 x 7e9) = 9423.8 tokens/s a GPU; 1e10 tokens:
 * 1 GPU 12.28 days, x 1.15 = 14.1: a 30-day window; 2 GPUs 6.14 days, x 1.15
 * = 7.06 > 7: a 30-day window too (7 with no margin). Either rents one lot of
 * 2 GPUs: 2 x 30 x 24 = 1440 GPU-hours, 4320 at 3 an hour; a 7-day window
 * 2 x 7 x 24 = 336 GPU-hours, 1008.
 */
static void young_daly_and_window(void **state)
{
	struct plan_inputs in;
	struct plan_result r;
	double tps = 0.4 * 989.5e12 / (6 * 7e9);

	plan_inputs_init(&in);
	set(&in, "params", "7e9");
	set(&in, "micro-batch", "1");
	set(&in, "seq-len", "1024");
	set(&in, "hidden", "4096");
	set(&in, "layers", "32");
	set(&in, "heads", "32");
	set(&in, "gpu", "H200");
	set(&in, "ckpt-write-gbps", "1");
	set(&in, "mtbf-hours", "1");
	set(&in, "target-tokens", "10B");
	set(&in, "price", "3");
	plan_compute(&in, &r);
	assert_int_equal(r.noption, 2);
	assert_int_equal(r.option[0].strategy, PLAN_SINGLE);
	assert_int_equal(r.option[1].strategy, PLAN_DDP);
	near(r.option[0].ckpt_write_s, 98);
	near(r.option[0].ckpt_interval_s, 742);
	near(r.option[0].tokens_per_s, tps);
	near(r.option[0].samples_per_s, tps / 1024);
	near(r.option[0].days_to_target, 1e10 / tps / 86400);	/* 12.3 days */
	assert_int_equal(r.option[0].window_days, 30);
	assert_int_equal(r.option[0].window.count, 1);
	assert_int_equal(r.option[0].lots, 1);			/* one GPU of a 2-GPU lot */
	near(r.option[0].gpu_hours, 1440);
	near(r.option[0].gpu_hours_used, 1e10 / tps / 3600);	/* 294.8 */
	assert_int_equal(r.option[1].window_days, 30);		/* 6.14 x 1.15 = 7.06 days */
	near(r.option[1].gpu_hours, 1440);
	near(r.option[1].cost, 4320);
	/* stop: in tokens (no sample target); 90% of 2 x 9423.8; half of 1e10 by day 4 (half of the
	   6.14 days needed, rounded up) */
	assert_false(r.option[1].stop.samples);
	near(r.option[1].stop.min_rate, 0.9 * 2 * tps);
	near(r.option[1].stop.half_target, 5e9);
	near(r.option[1].stop.half_days, 4);
	near(r.option[1].stop.end_days, 30);

	set(&in, "margin", "0");
	plan_compute(&in, &r);
	assert_int_equal(r.option[1].window_days, 7);		/* 6.14 days */
	near(r.option[1].gpu_hours, 336);
	near(r.option[1].cost, 1008);

	/* lots of 1 GPU: the 1-GPU option rents 1 GPU; 4 GPUs in lots of 3 take 2 lots */
	set(&in, "lot-gpus", "1");
	plan_compute(&in, &r);
	assert_int_equal(r.option[0].lots, 1);
	near(r.option[0].gpu_hours, 30 * 24);			/* 12.28 days: 30 */
	set(&in, "lot-gpus", "3");
	set(&in, "gpus", "4");
	plan_compute(&in, &r);
	assert_int_equal(r.option[1].lots, 2);
	assert_int_equal(r.option[1].window_days, 7);		/* 3.07 days: 7 */
	near(r.option[1].gpu_hours, 2 * 3 * 7 * 24);		/* 1008 */
	near(r.option[1].cost, 3024);

	/* beyond 30 days, consecutive 30-day windows: 1e11 tokens on 1 GPU = 122.8 days, 5 x 30 */
	set(&in, "target-tokens", "100B");
	set(&in, "target-samples", "1e8");	/* the tokens win; the stop criteria count samples */
	plan_compute(&in, &r);
	assert_int_equal(r.option[0].window_days, 30);
	assert_int_equal(r.option[0].window.count, 5);
	near(r.option[0].gpu_hours, 5 * 30 * 24 * 3);		/* one lot of 3 */
	assert_true(r.option[0].stop.samples);
	near(r.option[0].stop.min_rate, 0.9 * tps / 1024);
	near(r.option[0].stop.half_target, 5e7);
	near(r.option[0].stop.half_days, 62);		/* half of 122.8 days, rounded up */
}

static void expect_error(const char *key, const char *value, const char *want)
{
	struct plan_inputs in;
	char err[160] = "";

	plan_inputs_init(&in);
	assert_int_equal(plan_set(&in, key, value, err, sizeof(err)), -1);
	assert_string_equal(err, want);
}

static void keys_and_errors(void **state)
{
	struct plan_inputs in;
	char err[160];

	assert_true(plan_parse_count("7e9") == 7e9);
	assert_true(plan_parse_count("7B") == 7e9);
	assert_true(plan_parse_count("1.5b") == 1.5e9);
	assert_true(plan_parse_count("350M") == 350e6);
	assert_true(isnan(plan_parse_count("7x")));
	assert_true(isnan(plan_parse_count("7BB")));
	assert_true(isnan(plan_parse_count("-1")));
	assert_true(isnan(plan_parse_count("")));
	expect_error("params", "7x", "params: '7x' is not a count (7e9, 7B, 1.5B)");
	expect_error("gpu", "H900", "gpu: 'H900' is not a GPU model scaleaudit knows");
	expect_error("gpu", "H100", "gpu: 'H100' is one of H100 SXM, H100 PCIe, H100 NVL: say which");
	expect_error("gpus", "1", "gpus: '1' is not a whole number from 2 to 1000000000");
	expect_error("micro-batch", "0", "micro_batch: '0' is not a whole number from 1 to 1000000000");
	expect_error("layers", "1000000001", "layers: '1000000001' is not a whole number from 1 to 1000000000");
	expect_error("params", "2e18", "params: '2e18' is more than 1e+18");
	expect_error("strategy", "zero4",
		     "strategy: 'zero4' is not single, ddp, zero1, zero2, zero3, fsdp, pipeline or tensor");
	expect_error("optimizer", "lion",
		     "optimizer: 'lion' is not adam, adamw, sgd, adafactor, adam8bit or adamw8bit");
	expect_error("bucket-view", "maybe",
		     "bucket_view: 'maybe' is not no, yes, false, true, 0 or 1");
	expect_error("margin", "-0.1", "margin: '-0.1' is not a number from 0 to 100");
	expect_error("lot-gpus", "0", "lot_gpus: '0' is not a whole number from 1 to 1000000000");
	expect_error("micro-batch", "1.5", "micro_batch: '1.5' is not a whole number from 1 to 1000000000");
	expect_error("micro-batch", "2x", "micro_batch: '2x' is not a whole number from 1 to 1000000000");
	expect_error("precision", "fp8", "precision: 'fp8' is not bf16, fp16 or fp32");
	expect_error("mfu", "1.5", "mfu: '1.5' is not a number from 1e-06 to 1");
	expect_error("model", "gpt-5", "model: 'gpt-5' is not a model scaleaudit knows");
	expect_error("colour", "x", "'colour' is not a plan key");
	plan_inputs_init(&in);
	assert_int_equal(plan_check(&in, err, sizeof(err)), -1);
	assert_string_equal(err, "no parameter count: give --params N or --model NAME");
	set(&in, "model", "llama-3-8b");
	assert_int_equal(plan_check(&in, err, sizeof(err)), -1);
	assert_string_equal(err, "no GPU model: give --gpu MODEL (H200, B200...)");
	assert_true(in.params == 8030261248.0 && in.hidden == 4096 && in.layers == 32);
	set(&in, "optimizer", "adamw");	/* counted as Adam, named as given */
	assert_int_equal(in.optimizer, PLAN_ADAM);
	assert_string_equal(in.optimizer_name, "adamw");
	/* the count syntax for whole numbers too: 2k = 2000, 1e3 = 1000, 1.5k = 1500 */
	set(&in, "seq-len", "2k");
	assert_int_equal(in.seq_len, 2000);
	set(&in, "micro-batch", "1e3");
	assert_int_equal(in.micro_batch, 1000);
	set(&in, "grad-accum", "1.5k");
	assert_int_equal(in.grad_accum, 1500);
	set(&in, "optimizer", "sgd");
	set(&in, "precision", "fp32");
	set(&in, "gpu", "H200");
	set(&in, "gpu", "MI300X");
	assert_int_equal(in.ngpu, 2);
	assert_int_equal(plan_check(&in, err, sizeof(err)), 0);
}

/* K per optimizer and precision (ZeRO section 3.1 for Adam). */
static void optimizer_states(void **state)
{
	static const struct { const char *precision, *optimizer; double k; } want[] = {
		{ "bf16", "adam", 12 }, { "bf16", "sgd", 8 }, { "bf16", "adafactor", 4 },
		{ "fp32", "adam", 8 }, { "fp32", "sgd", 4 }, { "fp32", "adafactor", 0 },
		{ "bf16", "adamw", 12 }, { "fp32", "adamw", 8 },
		/* 8-bit Adam: one byte per moment, + the fp32 master under mixed precision */
		{ "bf16", "adam8bit", 6 }, { "bf16", "adamw8bit", 6 }, { "fp32", "adam8bit", 2 },
	};
	struct plan_inputs in;
	struct plan_result r;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		plan_inputs_init(&in);
		set(&in, "params", "1B");
		set(&in, "gpu", "H200");
		set(&in, "precision", want[i].precision);
		set(&in, "optimizer", want[i].optimizer);
		plan_compute(&in, &r);
		assert_true(r.optimizer_k == want[i].k);
		assert_true(r.s[PLAN_SINGLE].mem.optimizer == want[i].k * 1e9);
	}
}

/*
 * DDP against the ZeRO paper's accounting (section 3.1: 2Ψ + 2Ψ + KΨ, K = 12
 * for mixed-precision Adam) plus DDP's buckets, a second 2Ψ copy of the
 * gradients unless gradient_as_bucket_view=True.
 * Llama-3-8B (Ψ = 8030261248) on B200, micro batch 2 of 4096 tokens, flash
 * attention: activations 32 layers x 34 x s·b·h = 32 x 34 x 33554432 =
 * 36507222016 bytes; reserve 1e9 + 0.5e9 + 5% of the allocated bytes.
 *   with buckets: 18Ψ = 144544702464 + 36507222016 = 181051924480;
 *     + 1.5e9 + 9052596224 = 191604520704 > 191503138816 (B200): no
 *   bucket view: 16Ψ = 128484179968 + 36507222016 = 164991401984;
 *     + 1.5e9 + 8249570099.2 = 174740972083.2 <= 191503138816: yes
 * A 7B model, full checkpointing, micro batch 1 of 4096 tokens, on H200
 * (150.8 GB reported): activations 32 x 2 x 16777216 = 1073741824;
 *   with buckets: 18 x 7e9 = 126e9 + 1073741824 = 127073741824;
 *     x 1.05 + 1.5e9 = 134927428915.2 <= 150751363072: yes
 *   bucket view: 112e9 + 1073741824 = 113073741824; x 1.05 + 1.5e9 = 120227428915.2
 */
static void ddp_buckets(void **state)
{
	struct plan_inputs in;
	struct plan_result r;
	double psi = 8030261248.0, act = 36507222016.0;

	plan_inputs_init(&in);
	set(&in, "model", "llama-3-8b");
	set(&in, "micro-batch", "2");
	set(&in, "seq-len", "4096");
	set(&in, "attention", "flash");
	set(&in, "gpu", "B200");
	plan_compute(&in, &r);
	near(r.s[PLAN_DDP].mem.weights + r.s[PLAN_DDP].mem.gradients + r.s[PLAN_DDP].mem.optimizer,
	     16 * psi);
	near(r.s[PLAN_DDP].mem.buckets, 2 * psi);
	assert_true(r.s[PLAN_ZERO1].mem.buckets == 0 && r.s[PLAN_SINGLE].mem.buckets == 0);
	near(r.s[PLAN_DDP].mem.activations, act);
	near(r.s[PLAN_DDP].mem.total, 191604520704.0);
	assert_int_equal(r.s[PLAN_DDP].fit[0].fits, 0);
	assert_int_equal(r.recommended, PLAN_ZERO1);		/* the replica no longer fits */
	set(&in, "bucket-view", "yes");
	plan_compute(&in, &r);
	assert_true(r.s[PLAN_DDP].mem.buckets == 0);
	near(r.s[PLAN_DDP].mem.total, 174740972083.2);
	assert_int_equal(r.s[PLAN_DDP].fit[0].fits, 1);
	assert_int_equal(r.recommended, PLAN_DDP);

	plan_inputs_init(&in);
	set(&in, "params", "7B");
	set(&in, "micro-batch", "1");
	set(&in, "seq-len", "4096");
	set(&in, "hidden", "4096");
	set(&in, "layers", "32");
	set(&in, "heads", "32");
	set(&in, "checkpointing", "full");
	set(&in, "gpu", "H200");
	plan_compute(&in, &r);
	near(r.s[PLAN_DDP].mem.buckets, 14e9);
	near(r.s[PLAN_DDP].mem.total, 134927428915.2);
	assert_int_equal(r.s[PLAN_DDP].fit[0].fits, 1);
	set(&in, "bucket-view", "true");
	plan_compute(&in, &r);
	near(r.s[PLAN_DDP].mem.total, 120227428915.2);
}

/*
 * The link a GPU's collectives get: NVLink through NVSwitch (H100 SXM, H200,
 * B200) gives its full 450/900 GB/s to any peer at any count; an MI300X mesh
 * gives one 64 GB/s Infinity Fabric link per peer: 2 GPUs one link, 4 three
 * (192), 8 seven (448, the platform's aggregate). DDP of 7e9 bf16 on 2 GPUs
 * sends 14e9 bytes: 14e9 / 64e9 = 0.21875 s on MI300X, 14e9 / 450e9 on H200.
 */
static void peer_links(void **state)
{
	struct plan_inputs in;
	struct plan_result r;
	const struct gpu_model *mi = gpu_lookup("MI300X", -1), *h = gpu_lookup("H200", -1);

	assert_true(gpu_link_gbps_for(mi, 2) == 64);
	assert_true(gpu_link_gbps_for(mi, 4) == 3 * 64);
	assert_true(gpu_link_gbps_for(mi, 8) == 7 * 64);
	assert_true(gpu_link_gbps_for(mi, 16) == 7 * 64);
	assert_true(gpu_link_gbps_for(h, 2) == 450 && gpu_link_gbps_for(h, 8) == 450);
	assert_true(gpu_link_gbps_for(gpu_lookup("B200", -1), 2) == 900);
	assert_true(gpu_link_gbps_for(gpu_lookup("MI355X", -1), 2) == 76.8);

	plan_inputs_init(&in);
	set(&in, "params", "7e9");
	set(&in, "gpu", "MI300X,H200");
	plan_compute(&in, &r);
	near(r.s[PLAN_DDP].fit[0].link_gbps, 64);
	near(r.s[PLAN_DDP].fit[0].comm_s, 14e9 / 64e9);
	near(r.s[PLAN_DDP].fit[1].comm_s, 14e9 / 450e9);
	set(&in, "gpus", "8");	/* 2 x 7/8 x 14e9 = 24.5e9 sent over 7 links */
	plan_compute(&in, &r);
	near(r.s[PLAN_DDP].fit[0].link_gbps, 448);
	near(r.s[PLAN_DDP].fit[0].comm_s, 24.5e9 / 448e9);
}

/*
 * --strategy single is chosen, not replaced by ddp; a chosen strategy that
 * does not fit gives none. Fallbacks: 7B, micro batch 1 of 4096 tokens, full
 * checkpointing, the H200 first: single needs 113073741824 x 1.05 + 1e9 (no
 * NCCL buffers) = 119.7 GB and ddp 134.9 GB (ddp_buckets); both fit the H200
 * and the B200, neither an H100 SXM (81559 MiB = 85.5 GB reported).
 */
static void chosen_and_fallbacks(void **state)
{
	struct plan_inputs in;
	struct plan_result r;
	struct plan_fallback fb[4];

	plan_inputs_init(&in);
	set(&in, "params", "7B");
	set(&in, "micro-batch", "1");
	set(&in, "seq-len", "4096");
	set(&in, "hidden", "4096");
	set(&in, "layers", "32");
	set(&in, "heads", "32");
	set(&in, "checkpointing", "full");
	set(&in, "gpu", "H200,H100 SXM,B200");
	plan_compute(&in, &r);
	assert_int_equal(r.recommended, PLAN_DDP);
	assert_false(r.chosen);
	assert_int_equal(plan_fallbacks(&r, &in, fb, 4), 2);
	assert_string_equal(fb[0].gpu->name, "H100 SXM");
	assert_int_equal(fb[0].strategy, PLAN_SINGLE);
	near(fb[0].need, 113073741824.0 * 1.05 + 1e9);
	near(fb[0].capacity, MIB(81559));
	assert_int_equal(fb[1].strategy, PLAN_DDP);
	near(fb[1].need, 134927428915.2);
	assert_int_equal(plan_fallbacks(&r, &in, fb, 1), 1);	/* no more than room */

	set(&in, "strategy", "single");
	plan_compute(&in, &r);
	assert_int_equal(r.recommended, PLAN_SINGLE);
	assert_true(r.chosen);
	assert_int_equal(r.noption, 1);
	assert_int_equal(r.option[0].strategy, PLAN_SINGLE);
	set(&in, "strategy", "tensor");
	set(&in, "checkpointing", "none");	/* tensor: 56 + 54.8 + ... fits the H200 */
	plan_compute(&in, &r);
	assert_int_equal(r.recommended, PLAN_TENSOR);
	set(&in, "strategy", "ddp");		/* 228.5 GB: no */
	plan_compute(&in, &r);
	assert_int_equal(r.recommended, -1);
	assert_non_null(strstr(r.reason, "the strategy asked for does not fit"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zero_paper),
		cmocka_unit_test(seven_b_h200_b200),
		cmocka_unit_test(fit_boundaries),
		cmocka_unit_test(comm_bytes),
		cmocka_unit_test(young_daly_and_window),
		cmocka_unit_test(keys_and_errors),
		cmocka_unit_test(optimizer_states),
		cmocka_unit_test(ddp_buckets),
		cmocka_unit_test(peer_links),
		cmocka_unit_test(chosen_and_fallbacks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
