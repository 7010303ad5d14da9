/*
 * Process groups: the trial's group table (a name alone, or a name with its
 * members as pg_config gives them) and the bus bandwidth factor that a
 * collective on a subgroup takes from its group's size.
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

/* Same name, other members: distinct entries; same members: the same one. */
static void test_group_table(void **state)
{
	static const int32_t pair[] = { 0, 1 }, one[] = { 0 }, other[] = { 2, 3 };
	struct trial *t = trial_new();
	uint16_t plain, g01, g0, g23;

	(void)state;
	plain = trial_group(t, "0", 1);
	g01 = trial_group_add(t, &(struct process_group){ .name = "0", .desc = "default_pg",
							  .size = 2, .ranks = pair, .nranks = 2 });
	g0 = trial_group_add(t, &(struct process_group){ .name = "0", .size = 1, .ranks = one,
							 .nranks = 1 });
	g23 = trial_group_add(t, &(struct process_group){ .name = "0", .size = -1,
							  .ranks = other, .nranks = 2 });
	assert_int_equal(plain, 1);
	assert_int_equal(g01, 2);
	assert_int_equal(g0, 3);
	assert_int_equal(g23, 4);	/* size -1 with ranks: their count */
	assert_int_equal(trial_group(t, "0", 1), plain);	/* the name-only entry */
	assert_int_equal(trial_group_add(t, &(struct process_group){ .name = "0", .size = 2,
								     .ranks = pair, .nranks = 2 }), g01);
	assert_int_equal(trial_group_add(t, &(struct process_group){ .name = "0", .size = -1 }),
			 plain);	/* nothing but the name */
	assert_int_equal(trial_group_add(t, &(struct process_group){ .name = "", .size = 2 }), 0);
	assert_int_equal(t->ngroups, 4);
	assert_int_equal(trial_group_size(t, plain), -1);
	assert_int_equal(trial_group_size(t, g01), 2);
	assert_int_equal(trial_group_size(t, g0), 1);
	assert_int_equal(trial_group_size(t, g23), 2);
	assert_int_equal(trial_group_size(t, 0), -1);
	assert_int_equal(trial_group_size(t, 99), -1);
	assert_string_equal(t->groups[g01 - 1].desc, "default_pg");
	assert_null(t->groups[g0 - 1].desc);
	assert_int_equal(t->groups[g23 - 1].ranks[1], 3);
	assert_null(t->groups[plain - 1].ranks);
	trial_free(t);
}

static void kernel(struct rank *k, int64_t step, int64_t start, int64_t len, uint8_t cls,
		   uint16_t group)
{
	struct gpu_event *e = rank_add_event(k);

	e->start = start;
	e->end = start + len;
	e->step = (int32_t)step;
	e->cls = cls;
	e->kind = EV_KERNEL;
	e->name = cls == EVC_COMM ? "ncclDevKernel_AllReduce_Sum_bf16_RING_LL" : "gemm";
	e->coll = cls == EVC_COMM ? COLL_ALLREDUCE : COLL_NONE;
	e->dtype = cls == EVC_COMM ? DT_BF16 : DT_UNKNOWN;
	e->bytes = cls == EVC_COMM ? 100000000 : -1;
	e->group = group;
}

/*
 * Two traced ranks of an 8-rank job (world_size 8): steps 0..9 of 100 ms,
 * a 40 ms GEMM then a 10 ms all-reduce of 1e8 bytes. Even steps' all-reduce
 * runs in group_even, odd steps' in group_odd.
 */
static struct trial *subgroup_trial(bool known_even, bool known_odd)
{
	static const int32_t pair[] = { 0, 1 };
	struct trial *t = trial_new();
	struct run *r = trial_add_run(t, "8gpu", "t/8gpu");
	struct process_group tp = { .name = "tp", .size = 2, .ranks = pair, .nranks = 2 };
	uint16_t sub = trial_group_add(t, &tp), world = trial_group(t, "0", 1);

	for (int32_t g = 0; g < 2; g++) {
		struct rank *k = run_rank(r, g);
		int64_t t0 = 1000 * MS;

		k->world_size = 8;
		k->dev.name = "NVIDIA H200";
		for (int64_t s = 0; s < 10; s++, t0 += 100 * MS) {
			uint16_t grp = s % 2 ? (known_odd ? sub : world) : (known_even ? sub : world);

			kernel(k, s, t0, 40 * MS, EVC_COMPUTE, 0);
			kernel(k, s, t0 + 40 * MS, 10 * MS, EVC_COMM, grp);
		}
	}
	return t;
}

/*
 * 1e8 B in 10 ms is 10 GB/s of algorithm bandwidth. On the 2-rank group an
 * all-reduce's factor is 2(2-1)/2 = 1, so the bus bandwidth is 10 GB/s; with
 * the group unknown, the run's 8 GPUs give 2(8-1)/8 = 1.75, 17.5 GB/s; half
 * of each (equal bytes) weighs the two factors equally: 1.375, 13.75 GB/s.
 */
static void test_subgroup_busbw(void **state)
{
	static const struct {
		bool even, odd;
		double busbw;
	} cases[] = {
		{ true, true, 10.0 }, { false, false, 17.5 }, { true, false, 13.75 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct trial *t = subgroup_trial(cases[i].even, cases[i].odd);
		struct analysis *a = analysis_run(t);
		const struct run_result *rr = &a->runs[0];

		assert_int_equal(rr->gpus, 8);
		assert_int_equal(rr->ncoll, 1);
		close_to(rr->coll[0].algbw_gbps, 10.0);
		close_to(rr->coll[0].busbw_gbps, cases[i].busbw);
		close_to(rr->coll[0].transfer_busbw_gbps, cases[i].busbw);
		if (cases[i].even == cases[i].odd) {	/* every call at one factor */
			assert_int_equal(rr->nbw, 1);
			close_to(rr->bw[0].busbw_gbps, cases[i].busbw);
		}
		analysis_free(a);
		trial_free(t);
	}
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_table),
		cmocka_unit_test(test_subgroup_busbw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
