/* The priority partition of step windows on hand-made interval sets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "analysis/partition.h"

#define C EVC_COMPUTE
#define N EVC_COMM
#define M EVC_MEMORY

static void check(const struct parts_ns *p, int64_t compute, int64_t comm, int64_t mem,
		  int64_t idle, int64_t comm_total)
{
	assert_int_equal(p->compute, compute);
	assert_int_equal(p->exposed_comm, comm);
	assert_int_equal(p->memory, mem);
	assert_int_equal(p->idle, idle);
	assert_int_equal(p->comm_total, comm_total);
}

static void compute_hides_comm(void **state)
{
	/* comm 20..80 under compute 0..50: 30 of it is exposed, 30 overlapped */
	struct interval iv[] = { { 20, 80, N, 0 }, { 0, 50, C, 0 }, { 90, 95, M, 0 } };
	int64_t b[] = { 0, 100 };
	struct parts_ns p;

	partition_windows(iv, 3, b, 1, &p);
	check(&p, 50, 30, 5, 15, 60);
}

static void nested_identical_zero_length(void **state)
{
	struct interval iv[] = {
		{ 10, 40, C, 0 }, { 15, 20, C, 0 },	/* nested */
		{ 10, 40, C, 0 },			/* identical */
		{ 50, 50, C, 0 },			/* zero length: nothing */
		{ 60, 55, N, 0 },			/* reversed: nothing */
		{ 40, 45, M, 0 }, { 45, 50, N, 0 },	/* touching: no gap, no overlap */
	};
	int64_t b[] = { 0, 60 };
	struct parts_ns p;

	partition_windows(iv, 7, b, 1, &p);
	check(&p, 30, 5, 5, 20, 5);
}

static void intervals_cross_windows(void **state)
{
	/* windows [0,10) [10,30) [30,30) [30,50); a compute kernel 5..35 spans three */
	struct interval iv[] = { { 5, 35, C, 0 }, { 25, 45, N, 0 }, { -10, 2, M, 0 }, { 48, 70, M, 0 } };
	int64_t b[] = { 0, 10, 30, 30, 50 };
	struct parts_ns p[4];

	partition_windows(iv, 4, b, 4, p);
	check(&p[0], 5, 0, 2, 3, 0);
	check(&p[1], 20, 0, 0, 0, 5);
	check(&p[2], 0, 0, 0, 0, 0);
	check(&p[3], 5, 10, 2, 3, 15);
}

static void every_window_adds_up(void **state)
{
	struct interval iv[64];
	int64_t b[9];
	struct parts_ns p[8];
	uint32_t x = 12345;

	for (size_t i = 0; i < 64; i++) {	/* a fixed pseudo-random mix */
		x = x * 1103515245u + 12345u;
		iv[i].start = (int64_t)(x % 1000);
		x = x * 1103515245u + 12345u;
		iv[i].end = iv[i].start + (int64_t)(x % 90);
		iv[i].cls = (uint8_t)(i % IV_NCLASSES);
	}
	for (size_t i = 0; i < 9; i++)
		b[i] = (int64_t)i * 125;
	partition_windows(iv, 64, b, 8, p);
	for (size_t i = 0; i < 8; i++) {
		assert_int_equal(p[i].compute + p[i].exposed_comm + p[i].memory + p[i].idle, 125);
		assert_true(p[i].comm_total >= p[i].exposed_comm);
		assert_true(p[i].kernel_busy == 125 - p[i].idle);
		assert_true(p[i].memory_total >= p[i].memory);
		assert_true(p[i].exposed_comm_wait <= p[i].exposed_comm && p[i].comm_wait <= p[i].comm_total);
	}
}

static void waiting_and_transfer(void **state)
{
	/*
	 * compute 0..20; a kernel waits 10..40 then transfers 40..60; another
	 * transfers 30..50; a copy 55..70. Waiting alone is exposed only 20..30;
	 * 30..40 transfers, as one kernel does.
	 */
	struct interval iv[] = { { 0, 20, C, 0 }, { 10, 40, IV_COMM_WAIT, 0 }, { 40, 60, N, 0 },
				 { 30, 50, N, 0 }, { 55, 70, M, 0 } };
	int64_t b[] = { 0, 100 };
	struct parts_ns p;

	partition_windows(iv, 5, b, 1, &p);
	check(&p, 20, 40, 10, 30, 50);
	assert_int_equal(p.exposed_comm_wait, 10);
	assert_int_equal(p.comm_wait, 20);
	assert_int_equal(p.memory_total, 15);
	assert_int_equal(p.kernel_busy, 70);
}

static void no_intervals_is_idle(void **state)
{
	int64_t b[] = { 100, 250 };
	struct parts_ns p;

	partition_windows(NULL, 0, b, 1, &p);
	check(&p, 0, 0, 0, 150, 0);
}

static void idle_by_cause(void **state)
{
	/*
	 * Windows [0,50) [50,100). Gaps: 10..20 closed by work launched at 15
	 * (host), 30..60 by work launched at 5 (sync; cut by the window edge),
	 * 70..80 by two, launched at 90 and at 65 (the earliest decides: sync),
	 * 85..90 by work of no known launch (other), 95..100 by nothing (other).
	 */
	struct interval iv[] = {
		{ 0, 10, C, 0 }, { 20, 30, C, 15 }, { 60, 70, N, 5 },
		{ 80, 85, C, 90 }, { 80, 82, M, 65 }, { 90, 95, C, LAUNCH_UNKNOWN },
	};
	int64_t b[] = { 0, 50, 100 };
	struct parts_ns p[2];

	partition_windows(iv, 6, b, 2, p);
	assert_int_equal(p[0].idle, 30);
	assert_int_equal(p[0].idle_host, 10);
	assert_int_equal(p[0].idle_sync, 20);
	assert_int_equal(p[1].idle, 30);
	assert_int_equal(p[1].idle_host, 0);
	assert_int_equal(p[1].idle_sync, 20);	/* 10 of 30..60, 10 of 70..80 */
}

static void leading_gap_is_other(void **state)
{
	/* nothing ran before 40: the cause of 0..40 is not known */
	struct interval iv[] = { { 40, 60, C, 50 } };
	int64_t b[] = { 0, 60 };
	struct parts_ns p;

	partition_windows(iv, 1, b, 1, &p);
	assert_int_equal(p.idle, 40);
	assert_int_equal(p.idle_host + p.idle_sync, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compute_hides_comm),
		cmocka_unit_test(nested_identical_zero_length),
		cmocka_unit_test(intervals_cross_windows),
		cmocka_unit_test(every_window_adds_up),
		cmocka_unit_test(no_intervals_is_idle),
		cmocka_unit_test(waiting_and_transfer),
		cmocka_unit_test(idle_by_cause),
		cmocka_unit_test(leading_gap_is_other),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
