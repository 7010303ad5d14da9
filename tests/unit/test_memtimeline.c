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
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "core/xalloc.h"
#include "ingest/trial.h"
#include "render/analysis_text.h"
#include "render/summary.h"
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

/* Peaks as read (got_*) against those wanted. */
static void check_peaks(int64_t got_peak, const int64_t *got_at, const int64_t *got_cat,
			int64_t peak, const int64_t *at, const int64_t *cat)
{
	assert_int_equal(got_peak, peak);
	for (int c = 0; c < MEMCAT_COUNT; c++) {
		assert_int_equal(got_at[c], at[c]);
		assert_int_equal(got_cat[c], cat[c]);
	}
}

static void check_timeline(const struct mem_timeline *m, int64_t peak, const int64_t *at,
			   const int64_t *cat)
{
	check_peaks(m->peak, m->at_peak, m->cat_peak, peak, at, cat);
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

/*
 * Cut short, or broken: one error names the file and the byte, at every
 * chunk size; the records before it count.
 */
static void test_broken(void **state)
{
	static const struct { const char *name, *text, *want; } cases[] = {
		{ "cut.json", "[[-1, 1, 5, 0], [7, 2, 6, 1], [8, 2,",
		  "cut.json: byte 36: the memory timeline ends inside its JSON (parse error: "
		  "premature EOF): the 2 records before are kept" },
		{ "bad.json", "[[-1, 1, 5, 0], [7, 2, 6, 1]] x",
		  "bad.json: byte 30: invalid JSON: parse error: trailing garbage" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (size_t chunk = 0; chunk <= 64; chunk++) {
			struct loaded x;
			struct buf b;

			load_chunks(&x, cases[i].name, cases[i].text, strlen(cases[i].text), chunk);
			assert_int_equal(x.t->diags.count, 1);
			buf_init(&b, 0);
			diag_format(&x.t->diags.items[0], &b);
			assert_string_equal(b.data, cases[i].want);
			buf_release(&b);
			assert_int_equal(x.r->memtl[0].peak, 11);
			assert_int_equal(x.r->sources[0].events, 2);
			unload(&x);
		}
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

static void put(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* One of the summary's lines is exactly want. */
static void summary_has(const struct analysis *a, const char *want)
{
	struct summary sum;
	size_t found = 0;

	summary_build(&sum, a, NULL, 0);
	for (size_t i = 0; i < sum.n; i++)
		found += !strcmp(sum.lines[i].text, want);
	summary_release(&sum);
	assert_int_equal(found, 1);
}

static const char log_text[] = "step 0 loss 2.0 step_time 0.9\nstep 1 loss 2.0 step_time 0.2\n"
			       "step 2 loss 2.0 step_time 0.2\nstep 3 loss 2.0 step_time 0.2\n";

/*
 * A trial whose 2-GPU run has a raw timeline of device 1 and a coalesced
 * one of device 0: each GPU gets its own, the 1-GPU run none, and analyze's
 * memory section lists the categories at the peak.
 */
static void test_analysis(void **state)
{
	char *dir = xstrdup("/tmp/test_memtimeline.XXXXXX"), sub[4200], *text;
	struct diags d = DIAGS_INIT;
	struct trial_stats st;
	struct trial *t;
	struct analysis *a;
	const struct run_result *rr;
	size_t n;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	put(dir, "trial.ini", "[trial]\nhypothesis = step-time\nbaseline = 1gpu\n");
	snprintf(sub, sizeof(sub), "%s/1gpu", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	put(sub, "run.ini", "[run]\ngpus=1\n");
	put(sub, "train.log", log_text);
	snprintf(sub, sizeof(sub), "%s/2gpu", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	put(sub, "run.ini", "[run]\ngpus=2\n");
	put(sub, "train.log", log_text);
	put(sub, "mem_rank1.raw.json", raw_text);
	put(sub, "mem_rank0.json", "[[1], [[0, 0, 0, 0, 0, 2000000000, 0, 0, 0]]]");
	t = trial_load(dir, &d, &st);
	assert_non_null(t);
	a = analysis_run(t);
	rr = !strcmp(a->runs[0].name, "2gpu") ? &a->runs[0] : &a->runs[1];
	assert_int_equal(rr->ngpu, 2);
	assert_int_equal(rr->gpu[0].timeline_peak, 2000000000);
	assert_int_equal(rr->gpu[0].timeline_at_peak[MEMCAT_ACTIVATION], 2000000000);
	check_peaks(rr->gpu[1].timeline_peak, rr->gpu[1].timeline_at_peak,
		    rr->gpu[1].timeline_cat_peak, 3750, want_at_peak, want_cat_peak);
	rr = rr == &a->runs[0] ? &a->runs[1] : &a->runs[0];
	assert_int_equal(rr->gpu[0].timeline_peak, -1);
	f = open_memstream(&text, &n);
	assert_int_equal(analysis_write_text(a, f, NULL), 0);
	fclose(f);
	assert_non_null(strstr(text, "  GPU 0 tensors at the timeline's peak (GB): activation 2.0, "
				     "in all 2.0\n"));
	free(text);
	summary_has(a, "2gpu GPU 0: tensors at the memory timeline's peak 2.0 GB (activation 2.0 GB)");
	analysis_free(a);
	trial_free(t);
	diags_release(&d);
	trial_stats_release(&st);
	assert_int_equal(remove_tree(dir), 0);
	free(dir);
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_device_from_name),
		cmocka_unit_test(test_raw),
		cmocka_unit_test(test_coalesced),
		cmocka_unit_test(test_chunks),
		cmocka_unit_test(test_bad_record),
		cmocka_unit_test(test_broken),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_real),
		cmocka_unit_test(test_analysis),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
