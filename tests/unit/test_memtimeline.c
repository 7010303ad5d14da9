/*
 * The memory timeline reader: the real raw export of ../shared against
 * peaks computed independently, hand-made raw and coalesced files for each
 * category and a second device, every chunk size from 1 to 64 bytes, and
 * cut or broken input.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "core/buf.h"
#include "ingest/memtimeline.h"
#include "tests/unit/ingest_fixture.h"
#include "tests/unit/skip.h"

/*
 * One record per category, all at one instant after two pre-existing
 * parameters, then a second instant where the activation is freed and a
 * gradient changes version into a parameter-category one. Peak: the first
 * instant, 100+200 parameter, 300 optimizer state ... 800 unknown.
 */
static const char raw_text[] =
	"[[-1, 1, 100, 0], [-1, 1, 200, 0],\n"
	" [1000, 2, 300, 1], [1000, 2, 400, 2], [1000, 2, 500, 3], [1000, 2, 600, 4],\n"
	" [1000, 2, 700, 5], [1000, 2, 150, 6], [1000, 2, 800, 7],\n"
	" [2000, 4, -600, 4], [2000, 3, -700, 5], [2000, 3, 700, 0], [2000, 2, 50, 3]]\n";

/* The same profile as PyTorch coalesces it (times in µs, a leading 0 in each row). */
static const char coalesced_text[] =
	"[[1, 1, 2],\n"
	" [[0, 300, 0, 0, 0, 0, 0, 0, 0],\n"
	"  [0, 300, 300, 400, 500, 600, 700, 150, 800],\n"
	"  [0, 1000, 300, 400, 550, 0, 0, 150, 800]]]";

static const int64_t want_at_peak[MEMCAT_COUNT] = { 300, 300, 400, 500, 600, 700, 150, 800 };
static const int64_t want_cat_peak[MEMCAT_COUNT] = { 1000, 300, 400, 550, 600, 700, 150, 800 };

static void check_timeline(const struct mem_timeline *m, int64_t peak, const int64_t *at,
			   const int64_t *cat)
{
	assert_int_equal(m->peak, peak);
	for (int c = 0; c < MEMCAT_COUNT; c++) {
		assert_int_equal(m->at_peak[c], at[c]);
		assert_int_equal(m->cat_peak[c], cat[c]);
	}
}

static void test_device_from_name(void **state)
{
	(void)state;
	assert_int_equal(memtimeline_device("out/mem.raw.json.gz"), 0);
	assert_int_equal(memtimeline_device("out/mem_rank1.raw.json.gz"), 1);
	assert_int_equal(memtimeline_device("run/cuda:3.json"), 3);
	assert_int_equal(memtimeline_device("run/GPU_2_timeline.json"), 2);
	assert_int_equal(memtimeline_device("rank7/device-5.json"), 5);	/* the base name only */
	assert_int_equal(memtimeline_device("rank0/timeline.json"), 0);
}

static void test_raw(void **state)
{
	struct loaded x;
	const struct info *o;

	(void)state;
	load_chunks(&x, "t/mem_rank1.raw.json", raw_text, sizeof(raw_text) - 1, 0);
	assert_string_equal(get_str(x.f.info, "format"), "memory-timeline");
	assert_string_equal(get_str(x.f.info, "form"), "raw");
	assert_int_equal(get_int(x.f.info, "records"), 13);
	assert_int_equal(get_int(x.f.info, "instants"), 3);
	assert_int_equal(get_int(x.f.info, "peak_bytes"), 3750);
	o = info_object(&x, "at_peak_bytes");
	assert_int_equal(get_int(o, "optimizer_state"), 300);
	assert_int_equal(get_int(o, "autograd_detail"), 150);
	assert_int_equal(x.r->nmemtl, 1);
	assert_int_equal(x.r->memtl[0].device, 1);
	assert_int_equal(x.r->memtl[0].samples, 3);
	check_timeline(&x.r->memtl[0], 3750, want_at_peak, want_cat_peak);
	assert_int_equal(x.t->diags.count, 0);
	unload(&x);
}

static void test_coalesced(void **state)
{
	struct loaded x;

	(void)state;
	load_chunks(&x, "t/mem.json", coalesced_text, sizeof(coalesced_text) - 1, 0);
	assert_string_equal(get_str(x.f.info, "form"), "coalesced");
	assert_int_equal(get_int(x.f.info, "records"), 3);
	assert_int_equal(x.r->memtl[0].device, 0);
	check_timeline(&x.r->memtl[0], 3750, want_at_peak, want_cat_peak);
	assert_int_equal(x.t->diags.count, 0);
	unload(&x);
}

/* Every chunk size gives the same peaks, records and diagnostics. */
static void test_chunks(void **state)
{
	static const struct { const char *text; size_t n; } in[] = {
		{ raw_text, sizeof(raw_text) - 1 },
		{ coalesced_text, sizeof(coalesced_text) - 1 },
		{ "[[-1, 1, 5, 0], [7, 2, 6], [8, 2, 9, 7]]", 40 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++) {
		struct loaded w;

		load_chunks(&w, "gpu1.json", in[i].text, in[i].n, 0);
		for (size_t chunk = 1; chunk <= 64; chunk++) {
			struct loaded x;

			load_chunks(&x, "gpu1.json", in[i].text, in[i].n, chunk);
			assert_int_equal(x.r->nmemtl, 1);
			assert_int_equal(x.r->memtl[0].device, 1);
			assert_int_equal(x.r->memtl[0].samples, w.r->memtl[0].samples);
			check_timeline(&x.r->memtl[0], w.r->memtl[0].peak, w.r->memtl[0].at_peak,
				       w.r->memtl[0].cat_peak);
			assert_int_equal(x.r->sources[0].events, w.r->sources[0].events);
			assert_int_equal(x.r->sources[0].errors, w.r->sources[0].errors);
			assert_int_equal(x.t->diags.count, w.t->diags.count);
			unload(&x);
		}
		unload(&w);
	}
}

/* A bad record is skipped with a warning at its byte; the others count. */
static void test_bad_record(void **state)
{
	static const char text[] = "[[-1, 1, 5, 0], [7, 2, 6], [8, 9, 1, 0], [9, 2, 1.5, 0], "
				   "[10, 2, 9, 7]]";
	static const int64_t at[MEMCAT_COUNT] = { 5, 0, 0, 0, 0, 0, 0, 9 };
	static const int64_t cat[MEMCAT_COUNT] = { 5, 0, 0, 0, 0, 0, 0, 9 };
	struct loaded x;
	struct buf b;

	(void)state;
	load_chunks(&x, "m.json", text, sizeof(text) - 1, 0);
	check_timeline(&x.r->memtl[0], 14, at, cat);
	assert_int_equal(x.r->sources[0].events, 2);
	assert_int_equal(x.r->sources[0].errors, 3);
	assert_int_equal(x.t->diags.count, 3);
	buf_init(&b, 0);
	diag_format(&x.t->diags.items[0], &b);
	assert_string_equal(b.data, "m.json: byte 16: warning: record 2 is not [time, action 1-4, "
			    "bytes, category 0-7]: skipped");
	buf_release(&b);
	assert_string_equal(x.t->diags.items[1].code, "bad-memory-record");
	assert_int_equal(x.t->diags.items[2].pos.byte, 41);
	unload(&x);
}

/* Cut short: an error at the end names the file and byte; the records before count. */
static void test_truncated(void **state)
{
	static const char text[] = "[[-1, 1, 5, 0], [7, 2, 6, 1], [8, 2,";
	struct loaded x;
	struct buf b;

	(void)state;
	for (size_t chunk = 0; chunk <= 64; chunk++) {
		load_chunks(&x, "cut.json", text, sizeof(text) - 1, chunk);
		assert_int_equal(x.t->diags.count, 1);
		buf_init(&b, 0);
		diag_format(&x.t->diags.items[0], &b);
		assert_string_equal(b.data, "cut.json: byte 36: the memory timeline ends inside its "
				    "JSON (parse error: premature EOF): the 2 records before are kept");
		buf_release(&b);
		assert_int_equal(x.r->memtl[0].peak, 11);
		unload(&x);
	}
}

static void test_invalid(void **state)
{
	static const char text[] = "[[-1, 1, 5, 0], [7, 2, 6, 1]] x";
	struct loaded x;
	struct buf b;

	(void)state;
	for (size_t chunk = 0; chunk <= 64; chunk++) {
		load_chunks(&x, "bad.json", text, sizeof(text) - 1, chunk);
		assert_int_equal(x.t->diags.count, 1);
		buf_init(&b, 0);
		diag_format(&x.t->diags.items[0], &b);
		assert_string_equal(b.data, "bad.json: byte 30: invalid JSON: parse error: trailing "
				    "garbage");
		buf_release(&b);
		assert_int_equal(x.r->memtl[0].peak, 11);
		unload(&x);
	}
}

/* A coalesced export of a device without tensors: nothing measured, no peak. */
static void test_empty(void **state)
{
	struct loaded x;

	(void)state;
	load_chunks(&x, "e.json", "[[], []]", 8, 0);
	assert_string_equal(get_str(x.f.info, "form"), "coalesced");
	assert_int_equal(x.r->memtl[0].peak, -1);
	assert_int_equal(x.r->memtl[0].at_peak[MEMCAT_PARAMETER], -1);
	assert_int_equal(x.r->memtl[0].samples, 0);
	assert_int_equal(x.t->diags.count, 0);
	unload(&x);
}

/*
 * The real raw export (HTA's test data). Numbers from a 15-line Python
 * script run once: json.load of the file, one row per change of time
 * holding each category's running sum after that time's records (as
 * PyTorch's _coalesce_timeline builds its rows), then the row with the
 * largest sum and each category's largest value.
 */
static void test_real(void **state)
{
	static const int64_t at[MEMCAT_COUNT] = { 102440608, 102228128, 19395584, 0,
						  2592465920, 67858432, 64225280, 134218152 };
	static const int64_t cat[MEMCAT_COUNT] = { 102440608, 102228128, 19395584, 129024,
						   2746497024, 107868160, 256901120, 168297384 };
	struct loaded x;

	(void)state;
	if (!load_real(&x, "kineto_trace/hta__memory_analysis__memory_timeline.raw.gz"))
		skip_without_shared();
	assert_string_equal(get_str(x.f.info, "format"), "memory-timeline");
	assert_int_equal(get_int(x.f.info, "records"), 16845);
	assert_int_equal(x.r->memtl[0].samples, 7721);
	check_timeline(&x.r->memtl[0], 3082832104LL, at, cat);
	assert_int_equal(x.t->diags.count, 0);
	unload(&x);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_from_name),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_coalesced),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_bad_record),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_invalid),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_real),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
