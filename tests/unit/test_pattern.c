/* core/pattern: tables compiled once, matched, groups read back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/pattern.h"

static const struct rule {
	const char *re;
	int id;
} rules[] = {
	{ "^step (\\d+)(?: loss ([\\d.]+))?", 1 },
	{ "NCCL (INFO|WARN)", 2 },
};

static void compiles_once_and_matches(void **state)
{
	static pcre2_code *slots[2];
	struct pattern_table t = PATTERN_TABLE(rules, slots, 0);
	pcre2_match_data *md = pcre2_match_data_create(4, NULL);
	const char *line = "step 42 loss 1.5";
	const char *g;
	size_t n;

	assert_false(pattern_match(&t, 0, line, strlen(line), md));	/* not compiled yet */
	assert_true(pattern_compile(&t));
	assert_true(pattern_compile(&t));
	assert_ptr_equal(t.code[0], slots[0]);
	assert_true(pattern_match(&t, 0, line, strlen(line), md));
	assert_true(pattern_group(md, 1, line, &g, &n));
	assert_int_equal(n, 2);
	assert_memory_equal(g, "42", 2);
	assert_true(pattern_group(md, 2, line, &g, &n));
	assert_memory_equal(g, "1.5", 3);
	assert_true(pattern_match(&t, 0, "step 7", 6, md));
	assert_false(pattern_group(md, 2, "step 7", &g, &n));	/* did not take part */
	assert_false(pattern_group(md, 9, "step 7", &g, &n));	/* past the ovector */
	assert_false(pattern_match(&t, 1, line, strlen(line), md));
	/* the table's own match data */
	assert_true(pattern_find(&t, 1, "x NCCL WARN y", 13));
	assert_true(pattern_get(&t, 1, "x NCCL WARN y", &g, &n));
	assert_memory_equal(g, "WARN", 4);
	pcre2_match_data_free(md);
	pattern_release(&t);
	assert_int_equal(t.state, 0);
}

static void a_bad_pattern_fails_for_good(void **state)
{
	static const char *const bad[] = { "ok", "broken (" };
	static pcre2_code *slots[2];
	struct pattern_table t = PATTERN_TABLE(bad, slots, 0);

	assert_false(pattern_compile(&t));
	assert_false(pattern_compile(&t));
	assert_int_equal(t.state, -1);
	pattern_release(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(compiles_once_and_matches),
		cmocka_unit_test(a_bad_pattern_fails_for_good),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
