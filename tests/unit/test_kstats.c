/* Per-kernel and launch statistics (analysis/kstats.h) on hand-made ranks. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "analysis/kstats.h"
#include "analysis/thresholds.h"

#define NS(x) ((int64_t)(x))

static struct gpu_event ev(const char *name, int64_t start, int64_t dur, int32_t step)
{
	return (struct gpu_event){ .start = start, .end = start + dur, .name = name, .bytes = -1,
				   .stream = 7, .step = step, .device = 0, .kind = EV_KERNEL,
				   .cls = EVC_COMPUTE, .dtype = DT_UNKNOWN };
}

static void close_to(double got, double want)
{
	if (fabs(got - want) > 1e-15)
		fail_msg("%.17g, want %.17g", got, want);
}

/* One call: every statistic is that call; events outside the steady steps do not count. */
static void one_call(void **state)
{
	struct gpu_event e[] = { ev("k", 0, 500, 1), ev("k", 1000, 700, 2), ev("k", 2000, 900, 3),
				 ev("k", 3000, 300, -1) };
	struct rank k = { .rank = 3, .ev = e, .nev = 4 };
	struct analysis a = { .arena = ARENA_INIT };
	struct kernel_stats s;

	(void)state;
	kernel_stats(&a, &s, &k, &(struct steady_range){ 1, 3 }, false, 1);	/* steady: step 2 only */
	assert_true(s.present);
	assert_string_equal(s.per, "step");
	assert_int_equal(s.rank, 3);
	assert_int_equal(s.steps, 1);
	assert_int_equal(s.nkernels, 1);
	assert_int_equal(s.kernels[0].calls, 1);
	close_to(s.kernels[0].total_s, 700e-9);
	close_to(s.kernels[0].mean_s, 700e-9);
	close_to(s.kernels[0].min_s, 700e-9);
	close_to(s.kernels[0].max_s, 700e-9);
	close_to(s.kernels[0].p50_s, 700e-9);
	close_to(s.kernels[0].p90_s, 700e-9);
	kernel_stats(&a, &s, &k, &(struct steady_range){ 1, 3 }, true, 1);	/* the span: all four, step -1 too */
	assert_string_equal(s.per, "span");
	assert_int_equal(s.steps, -1);
	assert_int_equal(s.kernels[0].calls, 4);
	close_to(s.kernels[0].p50_s, 600e-9);	/* 300 500 700 900: between 500 and 700 */
	close_to(s.kernels[0].p90_s, 840e-9);	/* 700 + 0.7 x 200 */
	close_to(s.kernels[0].min_s, 300e-9);
	arena_release(&a.arena);
}

/* Equal totals are ordered by name; past KSTATS_TOP names the smallest go. */
static void ties_and_top(void **state)
{
	static char names[KSTATS_TOP + 2][8];
	struct gpu_event e[KSTATS_TOP + 3];
	struct rank k = { .rank = -1, .ev = e };
	struct analysis a = { .arena = ARENA_INIT };
	struct kernel_stats s;

	(void)state;
	for (int i = 0; i < KSTATS_TOP + 2; i++) {
		snprintf(names[i], sizeof(names[i]), "n%02d", KSTATS_TOP + 1 - i);	/* n21 ... n00 */
		e[k.nev++] = ev(names[i], 100 * i, 100, 0);
	}
	e[k.nev++] = ev(names[0], 5000, 100, 0);	/* n21: 200 ns, the largest */
	kernel_stats(&a, &s, &k, &(struct steady_range){ -1, 1 }, false, 1);
	assert_int_equal(s.nkernels, KSTATS_TOP);
	assert_string_equal(s.kernels[0].name, "n21");
	assert_int_equal(s.kernels[0].calls, 2);
	assert_string_equal(s.kernels[1].name, "n00");	/* then the ties, by name */
	assert_string_equal(s.kernels[2].name, "n01");
	assert_string_equal(s.kernels[KSTATS_TOP - 1].name, "n18");	/* n19, n20 left out */
	assert_non_null(s.kernels[0].label);
	arena_release(&a.arena);
}

static void no_kernels(void **state)
{
	struct rank k = { .rank = 0 };
	struct analysis a = { .arena = ARENA_INIT };
	struct kernel_stats s;
	struct launch_stats l;

	(void)state;
	kernel_stats(&a, &s, &k, &(struct steady_range){ -1, 9 }, false, 3);
	assert_false(s.present);
	assert_int_equal(s.nkernels, 0);
	launch_stats(&l, &k, &(struct steady_range){ -1, 9 }, false, 3);
	assert_false(l.present);
	arena_release(&a.arena);
}

/* Delays' percentiles, sums per steady step, and host-bound. */
static void launch_numbers(void **state)
{
	struct gpu_event e[] = { ev("k", 0, 10, 1) };
	struct launch_delay d[] = { { 40, 1 }, { -10, 1 }, { 20, 2 }, { 1000000, 3 }, { 30, 2 } };
	struct launch_step ls[] = {
		{ .kernels = 3, .short_kernels = 1, .launch_ns = 300, .op_cpu_ns = 5000,
		  .op_kernel_ns = 3000, .step = 1 },
		{ .kernels = 2, .short_kernels = 0, .launch_ns = 100, .op_cpu_ns = 1000,
		  .op_kernel_ns = 1000, .step = 2 },
		{ .kernels = 1, .short_kernels = 1, .launch_ns = 999, .op_cpu_ns = 1,
		  .op_kernel_ns = 99999, .step = 3 },	/* the trailing step: not counted */
	};
	struct rank k = { .rank = 1, .ev = e, .nev = 1, .delays = d, .ndelays = 5, .lsteps = ls,
			  .nlsteps = 3 };
	struct launch_stats l;

	(void)state;
	launch_stats(&l, &k, &(struct steady_range){ 0, 3 }, false, 2);
	assert_true(l.present);
	assert_null(l.why);
	assert_int_equal(l.kernels, 5);
	assert_int_equal(l.short_kernels, 1);
	close_to(l.short_share, 0.2);
	close_to(l.delay_p50_s, 25e-9);	/* -10 20 30 40: between 20 and 30 */
	close_to(l.delay_p90_s, 37e-9);
	close_to(l.delay_max_s, 40e-9);
	close_to(l.launch_cpu_s, 200e-9);	/* 400 over 2 steps */
	close_to(l.op_cpu_s, 3000e-9);
	close_to(l.op_kernel_s, 2000e-9);
	assert_string_equal(l.bound, "host-bound");
	ls[0].op_cpu_ns = 3000;	/* 4000 against 4000: not more than the kernels */
	launch_stats(&l, &k, &(struct steady_range){ 0, 3 }, false, 2);
	assert_string_equal(l.bound, "gpu-bound");
	k.ndelays = 0;	/* no kernel linked to a launch call */
	launch_stats(&l, &k, &(struct steady_range){ 0, 3 }, false, 2);
	assert_true(l.present);
	assert_non_null(l.why);
	assert_int_equal(l.kernels, -1);
	assert_true(isnan(l.delay_p50_s));
	assert_null(l.bound);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_call),
		cmocka_unit_test(ties_and_top),
		cmocka_unit_test(no_kernels),
		cmocka_unit_test(launch_numbers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
