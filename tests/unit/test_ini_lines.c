/*
 * core/ini_lines: inih's line source counts lines, passes a cut line on as fgets() leaves
 * it without a too_long callback, and with one skips its rest and hands it on empty; a line
 * with a control byte (a NUL too) is named at its column and handed on empty; a repeated key
 * names the line where it was first given.
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

static int64_t ctl_line = -1, ctl_col = -1;
static unsigned ctl_byte;

static void record_control(struct ini_lines *src, int64_t col, unsigned byte)
{
	ctl_line = src->line;
	ctl_col = col;
	ctl_byte = byte;
	*(int *)src->user += 1;
}

static void a_control_byte_is_named_and_the_line_dropped(void **state)
{
	static char bytes[] = "a = 1\nt = ab\x01" "c\nn = x\0y\nok = \t2\r\n  # a\x01 comment\n";
	FILE *f = fmemopen(bytes, sizeof(bytes) - 1, "r");
	int calls = 0;
	struct ini_lines src = { .f = f, .control = record_control, .user = &calls };
	char buf[64];

	(void)state;
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "a = 1\n");
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "");
	assert_int_equal(calls, 1);
	assert_int_equal(ctl_line, 2);
	assert_int_equal(ctl_col, 7);
	assert_int_equal(ctl_byte, 1);
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "");	/* a NUL, at column 6 */
	assert_int_equal(calls, 2);
	assert_int_equal(ctl_line, 3);
	assert_int_equal(ctl_col, 6);
	assert_int_equal(ctl_byte, 0);
	/* tab is not a control byte here; CR LF ends the line as LF does */
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "ok = \t2\n");
	/* nobody reads a comment: its control byte is no error */
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "  # a\x01 comment\n");
	assert_null(ini_lines_next(buf, sizeof(buf), &src));
	assert_int_equal(calls, 2);
	fclose(f);
}

/* Lines that end in CR alone, and UTF-16 with its byte-order mark (LE and BE), read as UTF-8 lines. */
static void cr_lines_and_utf16_read_as_utf8(void **state)
{
	static char cr[] = "[trial]\rtitle = a\r\rb = 2";
	static char le[] = "\xff\xfe[\0t\0]\0\r\0\n\0x\0=\0\xac\x20\x3d\xd8\x00\xde\n\0";
	static char be[] = "\xfe\xff\0a\0\r\0b\xd8\x3d";	/* a high surrogate cut at the end */
	char buf[64];
	struct ini_lines src = { 0 };

	(void)state;
	src.f = fmemopen(cr, sizeof(cr) - 1, "r");
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "[trial]\n");
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "title = a\n");
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "\n");
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "b = 2");
	assert_null(ini_lines_next(buf, sizeof(buf), &src));
	assert_int_equal(src.line, 4);
	fclose(src.f);

	src = (struct ini_lines){ .f = fmemopen(le, sizeof(le) - 1, "r") };
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "[t]\n");
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "x=\xe2\x82\xac\xf0\x9f\x98\x80\n");	/* € and U+1F600 */
	assert_null(ini_lines_next(buf, sizeof(buf), &src));
	fclose(src.f);

	src = (struct ini_lines){ .f = fmemopen(be, sizeof(be) - 1, "r") };
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "a\n");
	assert_string_equal(ini_lines_next(buf, sizeof(buf), &src), "b\xef\xbf\xbd");	/* U+FFFD */
	assert_null(ini_lines_next(buf, sizeof(buf), &src));
	fclose(src.f);
}

static void a_repeated_key_names_its_first_line(void **state)
{
	struct ini_lines src = { .line = 3 };

	(void)state;
	assert_int_equal(ini_lines_repeat(&src, "run", "global_batch"), 0);
	src.line = 5;
	assert_int_equal(ini_lines_repeat(&src, "trial", "global_batch"), 0);	/* another section */
	src.line = 7;
	assert_int_equal(ini_lines_repeat(&src, "run", "global_batch"), 3);
	src.line = 9;
	assert_int_equal(ini_lines_repeat(&src, "run", "global_batch"), 3);	/* still the first */
	ini_lines_release(&src);
	assert_int_equal(src.nseen, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(without_callback_a_cut_line_reads_on),
		cmocka_unit_test(with_callback_a_cut_line_reads_empty),
		cmocka_unit_test(a_line_that_just_fits_is_not_cut),
		cmocka_unit_test(a_control_byte_is_named_and_the_line_dropped),
		cmocka_unit_test(cr_lines_and_utf16_read_as_utf8),
		cmocka_unit_test(a_repeated_key_names_its_first_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
