/*
 * The limits on what a load keeps: sizes as --max-memory reads them, the
 * memory budget's count (arena blocks, growable arrays), and ingest_keep()'s
 * caps, including the trial's, counted from parallel threads as the ranks
 * of a trial may be read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>
#include <threads.h>

#include "core/arena.h"
#include "core/budget.h"
#include "core/buf.h"
#include "core/model.h"
#include "core/xalloc.h"
#include "ingest/ingest.h"
#include "ingest/reader.h"

static void test_parse_size(void **state)
{
	static const struct { const char *s; int64_t v; } good[] = {
		{ "8G", 8LL << 30 }, { "500M", 500LL << 20 }, { "64k", 64LL << 10 },
		{ "1048576", 1048576 }, { "2KiB", 2048 }, { "3mb", 3LL << 20 }, { "1T", 1LL << 40 },
		{ "7B", 7 },
	};
	static const char *const bad[] = {
		"", "0", "0G", "8X", "-1", "G", "8GG", "8 G", "1.5G", "99999999999T", "+8G",
	};
	int64_t v;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = -1;
		assert_int_equal(budget_parse_size(good[i].s, &v), 0);
		assert_int_equal(v, good[i].v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(budget_parse_size(bad[i], &v), -1);
}

static void test_default(void **state)
{
	(void)state;
	assert_true(budget_default() > 0);
	assert_true(budget_default() <= BUDGET_DEFAULT_CAP);
	budget_set_max(12345);
	assert_int_equal(budget_max(), 12345);
	budget_set_max(0);
	assert_int_equal(budget_max(), budget_default());
}

/* An arena block and a growable array are counted while held, and given back. */
static void test_counted(void **state)
{
	struct arena a = ARENA_INIT;
	int64_t before = budget_used(), block;
	int *v = NULL, *w;
	size_t cap = 0, wcap;

	(void)state;
	arena_alloc(&a, 100);
	block = budget_used() - before;
	assert_true(block >= 64 * 1024 && block < 64 * 1024 + 64);
	arena_alloc(&a, 200000);	/* a block of its own */
	assert_true(budget_used() - before >= block + 200000);
	arena_release(&a);
	assert_int_equal(budget_used(), before);
	xgrow(&v, &cap, 100, sizeof(*v));
	assert_int_equal(budget_used() - before, (int64_t)(cap * sizeof(*v)));
	xgrow(&v, &cap, 1000, sizeof(*v));
	assert_int_equal(budget_used() - before, (int64_t)(cap * sizeof(*v)));
	xgrow_free(&v, &cap, sizeof(*v));
	assert_null(v);
	assert_int_equal(budget_used(), before);
	xgrow(&v, &cap, 100, sizeof(*v));	/* handed over: the pointer copied, then NULL */
	w = v, wcap = cap;
	v = NULL;
	xgrow_free(&v, &cap, sizeof(*v));
	assert_int_equal(budget_used() - before, (int64_t)(wcap * sizeof(*w)));
	xgrow_free(&w, &wcap, sizeof(*w));
	assert_int_equal(budget_used(), before);
}

/* The one diagnostic in d, formatted. */
static void assert_said(const struct diags *d, const char *want)
{
	struct buf line = BUF_INIT;

	assert_int_equal(d->count, 1);
	diag_format(&d->items[0], &line);
	assert_string_equal(line.data, want);
	assert_string_equal(d->items[0].code, "limit");
	buf_release(&line);
}

static void test_file_and_memory(void **state)
{
	struct trial *t = trial_new();
	struct ingest_ctx ctx = { .trial = t, .path = "f.log", .diags = &t->diags };
	struct ingest_cap c = { 0 };
	struct srcpos pos;
	char want[256];
	int64_t max;

	(void)state;
	ingest_set_max_events(3);
	ingest_trial_begin();
	for (int64_t line = 1; line <= 3; line++)
		assert_int_equal(ingest_keep_line(&ctx, &c, line), 0);
	assert_int_equal(ingest_keep_line(&ctx, &c, 4), -1);
	assert_int_equal(ingest_keep_line(&ctx, &c, 5), -1);	/* said once */
	assert_said(&t->diags, "f.log:4: more than 3 events: the rest is not kept "
		    "(--max-events raises the cap)");
	assert_int_equal(ingest_trial_events(), 3);
	ingest_set_max_events(0);
	trial_free(t);

	t = trial_new();
	ctx = (struct ingest_ctx){ .trial = t, .path = "r.json", .diags = &t->diags };
	c = (struct ingest_cap){ 0 };
	assert_true(budget_used() >= 0);	/* all given back: nothing is subtracted twice */
	max = budget_used() + 1;
	budget_set_max(max);	/* an arena block is past it */
	arena_alloc(&t->arena, 1);
	pos = SRCPOS_BYTE("r.json", 77);
	assert_false(ingest_keep(&ctx, &c.kept, &c.capped, &pos));
	budget_set_max(0);
	snprintf(want, sizeof(want), "r.json: byte 77: more than %lld bytes of memory kept: the rest "
		 "is not kept (--max-memory raises the cap)", (long long)max);
	assert_said(&t->diags, want);
	trial_free(t);
}

/*
 * Files read one after the other under a trial cap large enough for the
 * trial's count to be taken in blocks: each file's unused part is given
 * back at its end (ingest_keep_end()), so the count is exact between files
 * and the cap is passed by the event it would be with each counted alone.
 */
static void test_trial_cap_blocks(void **state)
{
	struct trial *t = trial_new();
	char path[32], want[256];
	int64_t kept = 0;

	(void)state;
	ingest_set_max_events(10000);	/* the trial: 40000 */
	ingest_trial_begin();
	for (int file = 0; file < 5; file++) {
		struct ingest_ctx ctx;
		struct ingest_cap c = { 0 };
		int64_t line = 1;

		snprintf(path, sizeof(path), "rank%d.log", file);
		ctx = (struct ingest_ctx){ .trial = t, .path = path, .diags = &t->diags };
		for (; line <= 9000 && ingest_keep_line(&ctx, &c, line) == 0; line++)
			kept++;
		ingest_keep_end(&ctx);
		if (file < 4) {
			assert_int_equal(line, 9001);
			assert_int_equal(ingest_trial_events(), 9000 * (file + 1));	/* none ahead */
		} else {
			assert_int_equal(line, 4001);	/* 36000 + 4000: the 4001st passes it */
		}
	}
	assert_int_equal(kept, 40000);
	assert_int_equal(ingest_trial_events(), 40001);	/* the refused one counted */
	assert_true(ingest_trial_limited());
	snprintf(want, sizeof(want), "rank4.log:4001: more than 40000 events in the trial: "
		 "the rest is not kept (--max-events raises the cap)");
	assert_said(&t->diags, want);
	ingest_set_max_events(0);
	trial_free(t);
}

/*
 * Readers of one trial in parallel threads, each under the file cap and each
 * into a trial struct of its own, as worker threads read traces.
 */
#define THREADS 8
#define PER_FILE 999

struct reader_thread {
	struct ingest_ctx ctx;
	struct trial *t;	/* each thread its own, diagnostics too, as workers have */
	int64_t kept;		/* ingest_keep() said yes */
};

static int read_events(void *arg)
{
	struct reader_thread *r = arg;
	struct ingest_cap c = { 0 };

	for (int64_t line = 1; line <= PER_FILE; line++)
		r->kept += ingest_keep_line(&r->ctx, &c, line) == 0;
	return 0;
}

static void test_trial_cap_threads(void **state)
{
	struct reader_thread r[THREADS] = { 0 };
	thrd_t th[THREADS];
	int64_t kept = 0, said = 0;
	char path[THREADS][32], want[512];

	(void)state;
	ingest_set_max_events(1000);	/* the trial: 4000 of the 8 x 999 */
	ingest_trial_begin();
	assert_int_equal(ingest_max_trial_events(), 4000);
	for (int i = 0; i < THREADS; i++) {
		snprintf(path[i], sizeof(path[i]), "rank%d.log", i);
		r[i].t = trial_new();
		r[i].ctx = (struct ingest_ctx){ .trial = r[i].t, .path = path[i],
						.diags = &r[i].t->diags };
		assert_int_equal(thrd_create(&th[i], read_events, &r[i]), thrd_success);
	}
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(thrd_join(th[i], NULL), thrd_success);
	for (int i = 0; i < THREADS; i++) {
		kept += r[i].kept;
		said += (int64_t)r[i].t->diags.count;
		if (r[i].t->diags.count) {
			snprintf(want, sizeof(want), "%s:%lld: more than 4000 events in the trial: "
				 "the rest is not kept (--max-events raises the cap)", path[i],
				 (long long)r[i].kept + 1);	/* the first line refused */
			assert_said(&r[i].t->diags, want);
		}
		trial_free(r[i].t);
	}
	assert_int_equal(kept, 4000);
	assert_true(said >= 4);		/* at least the files left with events to keep */
	assert_int_equal(ingest_trial_events(), 4000 + said);	/* each refused once counted */
	ingest_set_max_events(0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_counted),
		cmocka_unit_test(test_file_and_memory),
		cmocka_unit_test(test_trial_cap_blocks),
		cmocka_unit_test(test_trial_cap_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
