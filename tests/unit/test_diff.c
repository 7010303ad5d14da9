/*
 * The ranking of the per-op diff (analysis/diff.c diff_rank): rows by the
 * time they add, largest first, equal ones by name with an unnamed op last,
 * and how many are kept of DIFF_TOP_ROWS (the rest is counted left out).
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

#include "analysis/diff.h"
#include "analysis/thresholds.h"

static struct diff_row row(const char *name, double added)
{
	return (struct diff_row){ .kind = DIFF_OP, .name = name, .added_s = added };
}

static void ranks_largest_first(void **state)
{
	struct diff_row r[] = {
		row("aten::add", -0.002), row("aten::mm", 0.010), row(NULL, 0.003),
		row("nccl:all_reduce", 0.030), row("aten::copy_", 0.003), row("aten::bmm", 0.003),
	};
	const char *want[] = { "nccl:all_reduce", "aten::mm", "aten::bmm", "aten::copy_", NULL,
			       "aten::add" };

	(void)state;
	assert_int_equal(diff_rank(r, 6, DIFF_TOP_ROWS), 6);
	for (size_t i = 0; i < 6; i++) {
		if (!want[i])
			assert_null(r[i].name);
		else
			assert_string_equal(r[i].name, want[i]);
	}
}

static void keeps_the_top(void **state)
{
	struct diff_row r[DIFF_TOP_ROWS + 3];
	char names[DIFF_TOP_ROWS + 3][8];

	(void)state;
	for (size_t i = 0; i < DIFF_TOP_ROWS + 3; i++) {
		snprintf(names[i], sizeof(names[i]), "op%02zu", i);
		r[i] = row(names[i], (double)i * 1e-3);	/* op12 adds most */
	}
	assert_int_equal(diff_rank(r, DIFF_TOP_ROWS + 3, DIFF_TOP_ROWS), DIFF_TOP_ROWS);
	assert_string_equal(r[0].name, "op12");
	assert_string_equal(r[DIFF_TOP_ROWS - 1].name, "op03");	/* op02, op01, op00 left out */
	assert_int_equal(diff_rank(r, 0, DIFF_TOP_ROWS), 0);
	assert_int_equal(diff_rank(r, 2, 1), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ranks_largest_first),
		cmocka_unit_test(keeps_the_top),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
