/*
 * What reading ranks in threads relies on: diags_merge() ends as recording
 * in one list would (the per-code cap counted over both), and pattern
 * tables compiled and matched from several threads at once, each with its
 * own match data.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/diag.h"
#include "core/pattern.h"

/* Records bad events first..last of file in d, then one truncation error. */
static void record(struct diags *d, const char *file, int first, int last)
{
	for (int i = first; i <= last; i++) {
		struct srcpos pos = SRCPOS_BYTE(file, i * 100);

		diag_warn(d, "bad-event", &pos, "event \"k%d\" has no usable \"dur\": skipped", i);
	}
	diag_error(d, "truncated", &(struct srcpos)SRCPOS_FILE(file), "the file is cut short");
}

static void merge_is_recording_in_turn(void **state)
{
	struct diags one = DIAGS_INIT, merged = DIAGS_INIT, b = DIAGS_INIT;

	(void)state;
	record(&one, "a.json", 1, 5);	/* as read in turn: a then b, one list */
	record(&one, "b.json", 1, 23);
	record(&merged, "a.json", 1, 5);	/* b read apart, then merged */
	record(&b, "b.json", 1, 23);
	assert_int_equal(b.count, 21);	/* b alone: 20 of its 23 under the cap, + 1 error */
	assert_int_equal(b.suppressed, 3);
	diags_merge(&merged, &b);
	assert_int_equal(b.count, 0);
	assert_null(b.items);
	/* 5 of a + 15 of b make the 20; b's other 8 are suppressed; 2 errors */
	assert_int_equal(merged.count, 5 + 1 + 15 + 1);
	assert_int_equal(merged.suppressed, 8);
	assert_int_equal(merged.warnings, 28);
	assert_int_equal(merged.errors, 2);
	assert_int_equal(merged.count, one.count);
	assert_int_equal(merged.suppressed, one.suppressed);
	assert_int_equal(merged.warnings, one.warnings);
	assert_int_equal(merged.errors, one.errors);
	for (size_t i = 0; i < one.count; i++) {
		assert_string_equal(merged.items[i].code, one.items[i].code);
		assert_string_equal(merged.items[i].message, one.items[i].message);
		assert_string_equal(merged.items[i].file, one.items[i].file);
		assert_int_equal(merged.items[i].pos.byte, one.items[i].pos.byte);
	}
	assert_string_equal(merged.items[20].message, "event \"k15\" has no usable \"dur\": skipped");
	assert_string_equal(merged.items[21].message, "the file is cut short");
	diags_release(&one);
	diags_release(&merged);
}

static const struct rule {
	const char *re;
} rules[] = {
	{ "^step (\\d+) rank (\\d+)" },
};
static pcre2_code *slots[1];
static struct pattern_table table = PATTERN_TABLE(rules, slots, 0);

#define ROUNDS 20000

/* Matches "step N rank R" ROUNDS times and checks both groups each time; returns the misses. */
static void *match_rounds(void *arg)
{
	int rank = (int)(intptr_t)arg;
	intptr_t bad = 0;
	char line[64], want[16];

	pattern_thread_begin();
	for (int i = 0; i < ROUNDS; i++) {
		const char *g;
		size_t n;
		int len = snprintf(line, sizeof(line), "step %d rank %d", i, rank);

		snprintf(want, sizeof(want), "%d", i);
		bad += !pattern_compile(&table) || !pattern_find(&table, 0, line, (size_t)len) ||
		       !pattern_get(&table, 1, line, &g, &n) || n != strlen(want) ||
		       memcmp(g, want, n) != 0 || !pattern_get(&table, 2, line, &g, &n) ||
		       n != 1 || *g != '0' + rank;
	}
	pattern_thread_end();
	return (void *)bad;
}

static void threads_match_apart(void **state)
{
	pthread_t th[3];
	const char *line = "step 9 rank 7", *g;
	size_t n;

	(void)state;
	for (int i = 0; i < 3; i++)	/* compiled by whichever thread comes first */
		assert_int_equal(pthread_create(&th[i], NULL, match_rounds, (void *)(intptr_t)(i + 1)), 0);
	assert_true(pattern_compile(&table));
	assert_true(pattern_find(&table, 0, line, strlen(line)));	/* the main thread's own */
	for (int i = 0; i < 3; i++) {
		void *bad;

		assert_int_equal(pthread_join(th[i], &bad), 0);
		assert_int_equal((intptr_t)bad, 0);
	}
	assert_true(pattern_get(&table, 2, line, &g, &n));	/* untouched by the threads */
	assert_int_equal(n, 1);
	assert_int_equal(*g, '7');
	assert_false(pattern_get(&table, 3, line, &g, &n));
	pattern_release(&table);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(merge_is_recording_in_turn),
		cmocka_unit_test(threads_match_apart),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
