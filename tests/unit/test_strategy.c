/*
 * Strategy and stragglers (analysis/strategy.h, docs/analysis.md "Strategy
 * and stragglers") on runs built by hand: the strategy from the collectives
 * and where the ops that launched them ran, mixes named in a fixed order;
 * a straggler is the rank the others wait for, computing or host-bound,
 * over steady steps or over the profiled span without one.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/analysis.h"
#include "analysis/strategy.h"
#include "core/kname.h"
#include "core/launchop.h"
#include "core/manifest_keys.h"

#define MS NS_PER_MS

#define GEMM "nvjet_tst_256x128_64x4_2x1_2cta_v_bz_TNT"
#define ALLREDUCE "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
#define ALLGATHER "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
#define REDUCESCATTER "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
#define SENDRECV "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)"

static struct gpu_event *kernel(struct trial *t, struct rank *k, const char *name, int64_t from,
				int64_t to, int32_t step)
{
	struct gpu_event *e = rank_add_event(k);

	e->start = from;
	e->end = to;
	e->step = step;
	e->kind = EV_KERNEL;
	e->name = intern_str(&t->strings, name);
	kname_classify(e);
	return e;
}

/* A communication kernel launched by op `op`, which ran where `where` says. */
static void comm(struct trial *t, struct rank *k, const char *name, const char *op, unsigned where,
		 enum coll_op coll, int64_t from, int64_t to, int32_t step)
{
	struct gpu_event *e = kernel(t, k, name, from, to, step);

	e->op = launch_op_get_at(&t->launch_ops, intern_str(&t->strings, op), NULL, NULL, where);
	e->coll = (uint8_t)coll;
}

/* One collective of a job, as launched on every rank. */
struct call {
	const char *kernel, *op;
	unsigned where;
	enum coll_op coll;
};

/* A 2-GPU run, 10 steps of 100 ms: a 40 ms GEMM, then each call for 5 ms. */
static char *strategy_of(const struct call *calls, size_t n)
{
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "2gpu", "t/2gpu");
	struct analysis *a;
	char *s;

	for (int32_t rank = 0; rank < 2; rank++) {
		struct rank *k = run_rank(r, rank);

		for (int32_t step = 0; step < 10; step++) {
			int64_t at = 1000 * MS + step * 100 * MS;

			kernel(t, k, GEMM, at, at + 40 * MS, step);
			at += 40 * MS;
			for (size_t i = 0; i < n; i++, at += 5 * MS)
				comm(t, k, calls[i].kernel, calls[i].op, calls[i].where, calls[i].coll, at,
				     at + 5 * MS, step);
		}
	}
	a = analysis_run(t);
	s = a->runs[0].inferred_strategy ? strdup(a->runs[0].inferred_strategy) : NULL;
	analysis_free(a);
	trial_free(t);
	return s;
}

static void expect_strategy(const struct call *calls, size_t n, const char *want)
{
	char *got = strategy_of(calls, n);

	if (want)
		assert_string_equal(got, want);
	else
		assert_null(got);
	free(got);
}

#define AR_TP { ALLREDUCE, "nccl:all_reduce", LAUNCH_IN_TENSOR, COLL_ALLREDUCE }
#define AR_BWD { ALLREDUCE, "nccl:all_reduce", LAUNCH_IN_BACKWARD, COLL_ALLREDUCE }
#define AR_FWD { ALLREDUCE, "nccl:all_reduce", LAUNCH_IN_FORWARD, COLL_ALLREDUCE }
#define A2A { SENDRECV, "nccl:all_to_all", LAUNCH_IN_FORWARD | LAUNCH_IN_ALLTOALL, COLL_ALLTOALL }
#define AG { ALLGATHER, "nccl:_all_gather_base", 0, COLL_ALLGATHER }
#define AG_OPT { ALLGATHER, "nccl:_all_gather_base", LAUNCH_IN_OPTIMIZER, COLL_ALLGATHER }
#define RS { REDUCESCATTER, "nccl:_reduce_scatter_base", LAUNCH_IN_BACKWARD, COLL_REDUCESCATTER }
#define P2P { SENDRECV, "nccl:send", 0, COLL_SENDRECV }

static void strategies(void **state)
{
	(void)state;
	expect_strategy((const struct call[]){ AR_TP, AR_TP }, 2, "tensor");
	expect_strategy((const struct call[]){ AR_FWD }, 1, "tensor");	/* the forward pass */
	expect_strategy((const struct call[]){ AR_BWD }, 1, "ddp");
	expect_strategy((const struct call[]){ A2A, AR_BWD }, 2, "ddp+alltoall");
	expect_strategy((const struct call[]){ AR_TP, AR_BWD }, 2, "tensor+ddp");
	expect_strategy((const struct call[]){ AG, RS }, 2, "fsdp");
	expect_strategy((const struct call[]){ AG, RS, AR_BWD }, 3, "fsdp");	/* no DDP beside FSDP */
	expect_strategy((const struct call[]){ P2P, AR_TP }, 2, "tensor+pipeline");
	expect_strategy((const struct call[]){ AG_OPT }, 1, NULL);	/* an optimizer's gather alone */
}

static void strategy_names(void **state)
{
	(void)state;
	assert_true(strategy_has("ddp+alltoall", "alltoall"));
	assert_true(strategy_has("ddp+alltoall", "ddp"));
	assert_false(strategy_has("ddp+alltoall", "all"));
	assert_true(strategy_has("fsdp", "zero"));
	assert_true(strategy_same("tensor+ddp", "ddp+tensor"));
	assert_true(strategy_same("zero", "fsdp"));
	assert_false(strategy_same("ddp", "ddp+alltoall"));
	assert_true(manifest_strategy_valid("tensor+pipeline+ddp"));
	assert_true(manifest_strategy_valid("alltoall"));
	assert_false(manifest_strategy_valid("tensor+"));
	assert_false(manifest_strategy_valid("tp"));
}

/*
 * Four GPUs, an all-reduce each step that ends at once everywhere (one
 * clock). host_bound: GPU 2 idles 40 ms between two 20 ms halves of its
 * 40 ms of compute; else GPU 2 computes 80 ms to the others' 40. Either way the others
 * wait 40 ms for it. steps: numbered steps, else one unnumbered span.
 */
static struct analysis *four_gpus(struct trial **tp, bool host_bound, bool steps)
{
	struct trial *t = *tp = trial_new();
	struct run *r = trial_add_run(t, "4gpu", "t/4gpu");

	for (int32_t rank = 0; rank < 4; rank++) {
		struct rank *k = run_rank(r, rank);

		for (int32_t step = 0; step < (steps ? 10 : 1); step++) {
			int64_t at = 1000 * MS + step * 100 * MS, to = at + (rank == 2 ? 80 : 40) * MS;

			if (rank == 2 && host_bound) {	/* 20 ms, 40 ms for the host, 20 ms */
				kernel(t, k, GEMM, at, at + 20 * MS, steps ? step : -1);
				kernel(t, k, GEMM, at + 60 * MS, to, steps ? step : -1);
			} else {
				kernel(t, k, GEMM, at, to, steps ? step : -1);
			}
			comm(t, k, ALLREDUCE, "nccl:all_reduce", LAUNCH_IN_BACKWARD, COLL_ALLREDUCE, to,
			     at + 85 * MS, steps ? step : -1);
		}
	}
	return analysis_run(t);
}

static void straggler_computing(void **state)
{
	struct trial *t;
	struct analysis *a = four_gpus(&t, false, true);
	const struct imbalance *im = &a->runs[0].imbalance;

	(void)state;
	assert_true(im->flagged);
	assert_int_equal(im->nstragglers, 1);
	assert_int_equal(im->stragglers[0].rank, 2);
	assert_string_equal(im->stragglers[0].cause, "computing");
	assert_string_equal(im->per, "step");
	assert_true(fabs(im->straggler_cost_s - 0.040) < 1e-9);
	assert_true(fabs(im->straggler_cost_share - 0.40) < 1e-9);
	assert_string_equal(im->straggler_reason,
			    "GPU 2 is a straggler: the other 3 GPUs wait a median 40.0 ms per step "
			    "(40% of their step) in collectives for it; GPU 2 is computing (its GPU "
			    "computes 80.0 ms, the others a median 40.0 ms)");
	assert_ptr_equal(strstr(im->reason, im->straggler_reason), im->reason);
	analysis_free(a);
	trial_free(t);
}

static void straggler_host_bound_over_span(void **state)
{
	struct trial *t;
	struct analysis *a = four_gpus(&t, true, false);
	const struct imbalance *im = &a->runs[0].imbalance;

	(void)state;
	assert_true(isnan(a->runs[0].gpu[0].mean_step_s));	/* no step: the span */
	assert_true(im->flagged);
	assert_int_equal(im->nstragglers, 1);
	assert_int_equal(im->stragglers[0].rank, 2);
	assert_string_equal(im->stragglers[0].cause, "host-bound");
	assert_string_equal(im->per, "span");
	/* spans: GPU 2 idles 40 ms and waits for nobody; the others wait 40 of their 85 ms */
	assert_true(fabs(im->stragglers[0].idle_s - 0.040) < 1e-9);
	assert_true(fabs(im->stragglers[0].wait_s) < 1e-9);
	assert_true(fabs(im->straggler_cost_s - 0.040) < 1e-9);
	assert_string_equal(a->runs[0].coll_per, "span");
	analysis_free(a);
	trial_free(t);
}

/* Waiting under a quarter of the step is no straggler, however uneven. */
static void no_straggler_below_a_quarter(void **state)
{
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "2gpu", "t/2gpu");
	struct analysis *a;

	(void)state;
	for (int32_t rank = 0; rank < 2; rank++) {
		struct rank *k = run_rank(r, rank);

		for (int32_t step = 0; step < 10; step++) {
			int64_t at = 1000 * MS + step * 100 * MS, to = at + (rank ? 60 : 40) * MS;

			kernel(t, k, GEMM, at, to, step);
			comm(t, k, ALLREDUCE, "nccl:all_reduce", LAUNCH_IN_BACKWARD, COLL_ALLREDUCE, to,
			     at + 65 * MS, step);
		}
	}
	a = analysis_run(t);
	assert_int_equal(a->runs[0].imbalance.nstragglers, 0);	/* GPU 0 waits 20 ms: 20% */
	assert_null(a->runs[0].imbalance.straggler_reason);
	analysis_free(a);
	trial_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strategies),
		cmocka_unit_test(strategy_names),
		cmocka_unit_test(straggler_computing),
		cmocka_unit_test(straggler_host_bound_over_span),
		cmocka_unit_test(no_straggler_below_a_quarter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
