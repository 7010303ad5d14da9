/*
 * core/utf8: invalid UTF-8 becomes one U+FFFD per maximal invalid subpart (the cases of
 * Unicode's table 3-8 and its neighbours), control characters are escaped as \xNN on
 * request, and a cut text ends with an ellipsis at a code point boundary.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "core/utf8.h"

#define R UTF8_REPLACEMENT

/* utf8_escape() of the n bytes s, checked against want and its count of changes. */
static void check(const char *s, size_t n, unsigned flags, const char *want, size_t changes)
{
	struct buf b;

	buf_init(&b, 0);
	assert_int_equal(utf8_escape(s, n, flags, &b), changes);
	assert_string_equal(b.data, want);
	assert_true(utf8_valid(b.data, b.len));
	assert_int_equal(utf8_clean(s, n, flags), changes == 0);
	buf_release(&b);
}

#define CHECK(lit, flags, want, changes) check(lit, sizeof(lit) - 1, flags, want, changes)

static void valid_text_is_kept(void **state)
{
	(void)state;
	CHECK("", 0, "", 0);
	CHECK("plain ascii", 0, "plain ascii", 0);
	CHECK("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 0, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 0);
	/* the edges of each range: U+0080, U+07FF, U+0800, U+D7FF, U+E000, U+FFFF, U+10000, U+10FFFF */
	CHECK("\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", 0,
	      "\xc2\x80\xdf\xbf\xe0\xa0\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf", 0);
}

/* One U+FFFD per maximal subpart: a byte that can start nothing is one on its own. */
static void invalid_bytes_are_replaced_one_by_one(void **state)
{
	(void)state;
	CHECK("a\xff" "b", 0, "a" R "b", 1);
	CHECK("\x80\xbf", 0, R R, 2);			/* lone continuation bytes */
	CHECK("\xc0\xaf", 0, R R, 2);			/* overlong '/': C0 never leads */
	CHECK("\xc1\xbf", 0, R R, 2);
	CHECK("\xe0\x80\xaf", 0, R R R, 3);		/* overlong: E0 takes A0..BF second */
	CHECK("\xf0\x80\x80\xaf", 0, R R R R, 4);	/* overlong: F0 takes 90..BF second */
	CHECK("\xed\xa0\x80", 0, R R R, 3);		/* surrogate U+D800 */
	CHECK("\xed\xbf\xbf", 0, R R R, 3);		/* surrogate U+DFFF */
	CHECK("\xf4\x90\x80\x80", 0, R R R R, 4);	/* U+110000 */
	CHECK("\xf5\x80\x80\x80", 0, R R R R, 4);	/* F5..FF never lead */
	CHECK("\xfe\xff", 0, R R, 2);
}

/* A valid start cut short is one U+FFFD for all its bytes, then reading resumes. */
static void a_truncated_sequence_is_one_replacement(void **state)
{
	(void)state;
	CHECK("\xe2\x82", 0, R, 1);
	CHECK("\xe2\x82" "x", 0, R "x", 1);
	CHECK("\xf0\x9f\x98", 0, R, 1);
	CHECK("\xf0\x9f\x98\xe2\x82\xac", 0, R "\xe2\x82\xac", 1);
	CHECK("\xc3", 0, R, 1);
	CHECK("\xc3\xc3\xa9", 0, R "\xc3\xa9", 1);
	/* Unicode's own example: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 */
	CHECK("\x61\xf1\x80\x80\xe1\x80\xc2\x62\x80\x63\x80\xbf\x64", 0,
	      "a" R R R "b" R "c" R R "d", 6);
}

static void utf8_seq_reports_lengths(void **state)
{
	size_t bad;

	(void)state;
	assert_int_equal(utf8_seq("\xf0\x9f\x98\x80", 4, &bad), 4);
	assert_int_equal(bad, 0);
	assert_int_equal(utf8_seq("\xf0\x9f\x98\x80", 3, &bad), 0);	/* n ends it */
	assert_int_equal(bad, 3);
	assert_int_equal(utf8_seq("\xe0\x9f\x80", 3, &bad), 0);
	assert_int_equal(bad, 1);
}

static void controls_are_escaped_on_request(void **state)
{
	(void)state;
	CHECK("a\x1b[31mred", 0, "a\x1b[31mred", 0);	/* not asked: kept */
	CHECK("a\x1b[31mred", UTF8_CONTROLS, "a\\x1b[31mred", 1);
	CHECK("\x01\x7f", UTF8_CONTROLS, "\\x01\\x7f", 2);
	CHECK("\xc2\x9b" "1m", UTF8_CONTROLS, "\\x9b1m", 1);	/* C1 CSI */
	CHECK("l1\nl2\tx\r", UTF8_CONTROLS, "l1\nl2\tx\\x0d", 1);
	CHECK("l1\nl2\tx", UTF8_CONTROLS | UTF8_ONE_LINE, "l1\\x0al2\\x09x", 2);
	CHECK("a\0b", UTF8_CONTROLS, "a\\x00b", 1);
	CHECK("\xff\x1b", UTF8_CONTROLS, R "\\x1b", 2);
}

static void cut(const char *s, unsigned flags, size_t max, const char *want, bool was_cut)
{
	struct buf b;

	buf_init(&b, 0);
	assert_int_equal(utf8_cut(s, strlen(s), flags, max, &b), was_cut);
	assert_string_equal(b.data, want);
	buf_release(&b);
}

static void a_long_text_is_cut_with_an_ellipsis(void **state)
{
	(void)state;
	cut("abcdef", 0, 6, "abcdef", false);
	cut("abcdefg", 0, 6, "abcde" UTF8_ELLIPSIS, true);
	/* é is one code point of two bytes: never split */
	cut("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 0, 3, "\xc3\xa9\xc3\xa9" UTF8_ELLIPSIS, true);
	/* an escape is four characters and is never split either */
	cut("ab\x1b" "cdef", UTF8_CONTROLS, 6, "ab" UTF8_ELLIPSIS, true);
	cut("a\xff", 0, 2, "a" R, false);
	cut("abc", 0, 1, UTF8_ELLIPSIS, true);
}

static void a_prefix_never_splits_a_sequence(void **state)
{
	(void)state;
	assert_int_equal(utf8_prefix("abcdef", 6, 0, 4), 4);
	assert_int_equal(utf8_prefix("ab", 2, 0, 4), 2);
	assert_int_equal(utf8_prefix("\xc3\xa9\xc3\xa9\xc3\xa9", 6, 0, 2), 4);
	assert_int_equal(utf8_prefix("a\x1b" "bc", 4, UTF8_CONTROLS, 4), 1);	/* \x1b is 4 wide */
	assert_int_equal(utf8_prefix("a\x1b" "bc", 4, 0, 3), 3);
}

static void a_10000_character_title_is_cut(void **state)
{
	char *s = malloc(10001);
	struct buf b;

	(void)state;
	memset(s, 'x', 10000);
	s[10000] = '\0';
	buf_init(&b, 0);
	assert_true(utf8_cut(s, 10000, UTF8_CONTROLS, 80, &b));
	assert_int_equal(b.len, 79 + 3);
	assert_memory_equal(b.data + 79, UTF8_ELLIPSIS, 3);
	buf_release(&b);
	free(s);
}

static void valid_text_is_passed_through(void **state)
{
	static const char ok[] = "caf\xc3\xa9", bad[] = "caf\xe9!";
	struct buf tmp;
	size_t n = sizeof(ok) - 1;

	(void)state;
	assert_ptr_equal(utf8_valid_text(ok, &n, &tmp), ok);
	assert_int_equal(n, 5);
	buf_release(&tmp);
	n = sizeof(bad) - 1;
	assert_string_equal(utf8_valid_text(bad, &n, &tmp), "caf" R "!");
	assert_int_equal(n, 7);
	buf_release(&tmp);
}

static void dup_escapes_and_keeps_null(void **state)
{
	char *s = utf8_dup("t\x1b\xff", UTF8_CONTROLS);

	(void)state;
	assert_string_equal(s, "t\\x1b" R);
	free(s);
	assert_null(utf8_dup(NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(valid_text_is_kept),
		cmocka_unit_test(invalid_bytes_are_replaced_one_by_one),
		cmocka_unit_test(a_truncated_sequence_is_one_replacement),
		cmocka_unit_test(utf8_seq_reports_lengths),
		cmocka_unit_test(controls_are_escaped_on_request),
		cmocka_unit_test(a_long_text_is_cut_with_an_ellipsis),
		cmocka_unit_test(a_prefix_never_splits_a_sequence),
		cmocka_unit_test(a_10000_character_title_is_cut),
		cmocka_unit_test(valid_text_is_passed_through),
		cmocka_unit_test(dup_escapes_and_keeps_null),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
