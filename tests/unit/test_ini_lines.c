/*
 * core/ini_lines: inih's line source counts lines, passes a cut line on as fgets() leaves
 * it without a too_long callback, and with one skips its rest and hands it on empty.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/ini_lines.h"

static char text[] = "a = 1\nkey = too long\nc\nlast";

static int64_t cut_line = -1;
static int cut_max = -1;

static void record(struct ini_lines *src, int max)
{
	cut_line = src->line;
	cut_max = max;
	*(int *)src->user += 1;
}

static void without_callback_a_cut_line_reads_on(void **state)
{
	FILE *f = fmemopen(text, strlen(text), "r");
	struct ini_lines src = { .f = f };
	char buf[9];

	(void)state;
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "a = 1\n");
	assert_int_equal(src.line, 1);
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "key = to");
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "o long\n");
	assert_int_equal(src.line, 3);
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "c\n");
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "last");
	assert_int_equal(src.line, 5);
	assert_null(ini_lines_next(buf, sizeof(buf), &src));
	assert_int_equal(src.line, 5);
	fclose(f);
}

static void with_callback_a_cut_line_reads_empty(void **state)
{
	FILE *f = fmemopen(text, strlen(text), "r");
	int calls = 0;
	struct ini_lines src = { .f = f, .too_long = record, .user = &calls };
	char buf[9];

	(void)state;
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "a = 1\n");
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "");
	assert_int_equal(calls, 1);
	assert_int_equal(cut_line, 2);
	assert_int_equal(cut_max, 8);
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "c\n");
	assert_int_equal(src.line, 3);
	/* "last" fills 4 of 8 and the file ends: not cut */
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "last");
	assert_null(ini_lines_next(buf, sizeof(buf), &src));
	assert_int_equal(calls, 1);
	fclose(f);
}

/* A line of exactly num - 1 characters that the file ends (or a newline follows) is whole. */
static void a_line_that_just_fits_is_not_cut(void **state)
{
	static char exact[] = "12345678\nabcdefgh";
	FILE *f = fmemopen(exact, strlen(exact), "r");
	int calls = 0;
	struct ini_lines src = { .f = f, .too_long = record, .user = &calls };
	char buf[9];

	(void)state;
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "12345678");
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "abcdefgh");
	assert_null(ini_lines_next(buf, sizeof(buf), &src));
	assert_int_equal(calls, 0);
	assert_int_equal(src.line, 2);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(without_callback_a_cut_line_reads_on),
		cmocka_unit_test(with_callback_a_cut_line_reads_empty),
		cmocka_unit_test(a_line_that_just_fits_is_not_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
