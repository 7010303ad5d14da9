/* core/imap: the int64 -> uint32 map of the trace readers' id lookups. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "core/imap.h"

static void test_put_get(void **state)
{
	struct imap m = IMAP_INIT;
	uint32_t v = 0;

	(void)state;
	assert_false(imap_get(&m, 1, &v));	/* empty, never allocated */
	/* sequential ids (correlation ids are), negative ones, and far apart ones */
	for (int64_t i = 0; i < 100000; i++)
		assert_true(imap_put(&m, i * 3 - 1000, (uint32_t)i));
	assert_true(imap_put(&m, INT64_MAX, 7));
	assert_int_equal(m.count, 100001);
	for (int64_t i = 0; i < 100000; i++) {
		assert_true(imap_get(&m, i * 3 - 1000, &v));
		assert_int_equal(v, (uint32_t)i);
		assert_false(imap_get(&m, i * 3 - 999, &v));
	}
	assert_true(imap_get(&m, INT64_MAX, &v));
	assert_int_equal(v, 7);
	imap_release(&m);
	assert_null(m.keys);
}

static void test_first_wins(void **state)
{
	struct imap m = IMAP_INIT;
	uint32_t v = 0;

	(void)state;
	assert_true(imap_put(&m, 42, 1));
	assert_false(imap_put(&m, 42, 2));
	assert_true(imap_get(&m, 42, &v));
	assert_int_equal(v, 1);
	assert_false(imap_put(&m, INT64_MIN, 3));	/* the empty mark is no key */
	assert_false(imap_get(&m, INT64_MIN, &v));
	assert_int_equal(m.count, 1);
	imap_release(&m);
}

/* A reserved map takes its n keys without growing, at 3/4 load; wrapped probes still find keys. */
static void test_reserve(void **state)
{
	struct imap m = IMAP_INIT;
	uint32_t v = 0;
	size_t cap;

	(void)state;
	imap_reserve(&m, 30000);
	cap = m.cap;
	assert_true(cap >= 40000 && cap <= 40004);	/* 4/3 of the keys, not a power of two */
	for (int64_t i = 0; i < 30000; i++)
		assert_true(imap_put(&m, i * 7919, (uint32_t)i));
	assert_int_equal(m.cap, cap);
	for (int64_t i = 1; i <= 10; i++)	/* past what was reserved: it grows, keeping them all */
		assert_true(imap_put(&m, -i, 30000 + (uint32_t)i));
	assert_true(m.cap > cap);
	for (int64_t i = 0; i < 30000; i++) {
		assert_true(imap_get(&m, i * 7919, &v));
		assert_int_equal(v, (uint32_t)i);
	}
	assert_true(imap_get(&m, -10, &v));
	assert_int_equal(v, 30010);
	imap_reserve(&m, 10);	/* never shrinks */
	assert_true(m.cap > cap);
	imap_release(&m);
	imap_reserve(&m, 0);	/* a tiny map: every probe wraps around its end */
	for (int64_t i = 0; i < 3; i++)
		assert_true(imap_put(&m, i, (uint32_t)i));
	for (int64_t i = 0; i < 3; i++)
		assert_true(imap_get(&m, i, &v) && v == (uint32_t)i);
	assert_false(imap_get(&m, 3, &v));
	imap_release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_get),
		cmocka_unit_test(test_first_wins),
		cmocka_unit_test(test_reserve),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
