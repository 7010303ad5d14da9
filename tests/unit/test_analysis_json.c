/*
 * Unit tests of render/analysis_json: every sample trial's analysis, written,
 * read back and written again, is the same bytes (its reports are compared by
 * tests/sh/test_analysis_json_cli.sh); and hostile documents get one exact error.
 */
#include <glob.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "ingest/trial.h"
#include "render/analysis_json.h"
#include "render/text.h"
#include "tests/unit/fixture_analysis.h"
#include "tests/unit/ingest_fixture.h"

/* The document of a, in a malloc'd string. */
static char *to_json(const struct analysis *a, size_t *len)
{
	char *s = NULL;
	FILE *f = open_memstream(&s, len);

	assert_non_null(f);
	assert_int_equal(analysis_write_json(a, f), 0);
	assert_int_equal(fclose(f), 0);
	return s;
}

/* Parses s, asserting success and no diagnostic. */
static struct analysis *from_json(const char *s, size_t len)
{
	struct diags d = DIAGS_INIT;
	struct analysis *a = analysis_parse_json(s, len, "x.json", &d);

	assert_int_equal(d.count, 0);
	assert_non_null(a);
	diags_release(&d);
	return a;
}

/* The one diagnostic parsing s gives, formatted; NULL when it parsed. */
static char *parse_error(const char *s, size_t len)
{
	struct diags d = DIAGS_INIT;
	struct analysis *a = analysis_parse_json(s, len, "x.json", &d);
	struct buf b = BUF_INIT;

	if (a) {
		assert_int_equal(d.count, 0);
		analysis_free(a);
		return NULL;
	}
	assert_int_equal(d.count, 1);
	assert_int_equal(d.items[0].severity, DIAG_ERROR);
	buf_init(&b, 0);
	diag_format(&d.items[0], &b);
	diags_release(&d);
	return buf_detach(&b);
}

static void expect_error(const char *doc, const char *want)
{
	char *got = parse_error(doc, strlen(doc));

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

/* One trial: JSON -> struct -> JSON is the same bytes. */
static void round_trip(const char *dir)
{
	struct analysis *a = analyse_dir(dir), *b;
	size_t n1, n2;
	char *j1 = to_json(a, &n1), *j2;

	b = from_json(j1, n1);
	j2 = to_json(b, &n2);
	if (n1 != n2 || memcmp(j1, j2, n1))
		fail_msg("%s: analysis.json read back and written again differs", dir);
	free(j1);
	free(j2);
	analysis_free(a);
	analysis_free(b);
}

/* Every trial directory that pattern matches; returns how many. */
static size_t round_trip_all(const char *pattern)
{
	glob_t g;

	assert_int_equal(glob(pattern, GLOB_ONLYDIR, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++)
		round_trip(g.gl_pathv[i]);
	globfree(&g);
	return g.gl_pathc;
}

/*
 * The report drawn from a trial equals the report drawn from its analysis.json
 * (the trial freed before drawing, as here), and each trial has the charts it
 * should: tests/sh/test_analysis_json_cli.sh, on the same trials, from the
 * reports the other scripts share.
 */
static void samples_round_trip(void **state)
{
	size_t trials;

	(void)state;
	trials = round_trip_all("samples/trials/*/") + round_trip_all("tests/data/trials/*/");
	assert_int_equal(trials, 29);
}

/*
 * The NCCL_* settings the log echoes (nccl-over-sockets: P2P and SHM disabled)
 * are in the document as an object and come back in order; the advice names
 * them; nccl_tests_gpus is null without nccl-tests tables and comes back as set.
 */
static void nccl_settings_round_trip(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/nccl-over-sockets"), *b;
	const struct run_result *x;
	const char *fix = "";
	size_t n;
	char *j;

	(void)state;
	x = &a->runs[a->cmp.candidate];
	assert_int_equal(x->nnccl_env, 2);
	assert_string_equal(x->nccl_env[0].name, "NCCL_P2P_DISABLE");
	assert_string_equal(x->nccl_env[0].value, "1");
	assert_string_equal(x->nccl_env[1].name, "NCCL_SHM_DISABLE");
	assert_int_equal(a->runs[a->cmp.baseline].nnccl_env, 0);
	assert_int_equal(x->nccl_tests_gpus, -1);
	for (size_t i = 0; i < a->nrecs; i++)
		if (!strcmp(a->recs[i].id, "fix-nccl-transport"))
			fix = a->recs[i].text;
	assert_non_null(strstr(fix, "the log sets NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1: "
				     "unset them"));
	a->runs[a->cmp.candidate].nccl_tests_gpus = 2;
	j = to_json(a, &n);
	assert_non_null(strstr(j, "\"nccl_env\": {\n"));
	assert_non_null(strstr(j, "\"nccl_tests_gpus\": null"));	/* the baseline's */
	b = from_json(j, n);
	x = &b->runs[b->cmp.candidate];
	assert_int_equal(x->nnccl_env, 2);
	assert_string_equal(x->nccl_env[1].name, "NCCL_SHM_DISABLE");
	assert_string_equal(x->nccl_env[1].value, "1");
	assert_int_equal(x->nccl_tests_gpus, 2);
	assert_int_equal(b->runs[b->cmp.baseline].nnccl_env, 0);
	assert_int_equal(b->runs[b->cmp.baseline].nccl_tests_gpus, -1);
	free(j);
	analysis_free(a);
	analysis_free(b);
}

/* What the report draws is in the document: a reader of the JSON alone gets the same numbers. */
static void document_carries_what_charts_draw(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/ddp-scales-well"), *b;
	size_t n;
	char *j = to_json(a, &n);
	const struct run_result *x, *y;

	b = from_json(j, n);
	assert_int_equal(b->nruns, a->nruns);
	assert_true(b->cmp.valid);
	assert_int_equal(b->cmp.baseline, a->cmp.baseline);
	assert_int_equal(b->cmp.candidate, a->cmp.candidate);
	x = &a->runs[a->cmp.candidate];
	y = &b->runs[b->cmp.candidate];
	assert_int_equal(y->slowest, x->slowest);
	assert_int_equal(y->nmonitor, x->nmonitor);
	assert_true(y->nmonitor > 0);
	assert_int_equal(y->monitor[y->nmonitor - 1].memory_used, x->monitor[x->nmonitor - 1].memory_used);
	assert_int_equal(y->nbw, x->nbw);
	assert_int_equal(y->nsources, x->nsources);
	assert_string_equal(y->sources[0].path, x->sources[0].path);
	for (size_t g = 0; g < x->ngpu; g++) {
		assert_int_equal(y->gpu[g].nsteps, x->gpu[g].nsteps);
		assert_int_equal(y->gpu[g].steps[0].warmup, x->gpu[g].steps[0].warmup);
		assert_true(y->gpu[g].steps[3].parts.idle == x->gpu[g].steps[3].parts.idle);
		assert_int_equal(y->gpu[g].ntop, x->gpu[g].ntop);
		assert_string_equal(y->gpu[g].top[0].label, x->gpu[g].top[0].label);
		assert_int_equal(y->gpu[g].nlanes, x->gpu[g].nlanes);
		assert_true(y->gpu[g].lanes_window_s == x->gpu[g].lanes_window_s);
		assert_true(y->gpu[g].busy_s == x->gpu[g].busy_s);
		assert_true(y->gpu[g].steps[x->gpu[g].nsteps - 1].trailing);
		assert_int_equal(y->gpu[g].steps[3].start_ns, x->gpu[g].steps[3].start_ns);
		assert_true(x->gpu[g].steps[3].start_ns > 0);
	}
	assert_int_equal(y->steps_trailing, 1);
	assert_true(y->status_from_log == x->status_from_log);
	free(j);
	analysis_free(a);
	analysis_free(b);
}

#define HEAD "{\"tool\": {\"name\": \"scaleaudit\", \"format\": 1}, "

/* comparison.workload: an object where the runs were compared, null otherwise; it comes back whole. */
static void workload_round_trip(void **state)
{
	static struct family_share base_only[] = { { "conv", 0.55 }, { "bn_bw_1C11_kernel_new", 0.2 } };
	static struct family_share cand_only[] = { { "split_embedding_codegen_forward_unweighted_kernel", 0.4 } };
	struct analysis a, *b;
	const struct workload *w;
	size_t n;
	char *j;

	(void)state;
	fixture_analysis_ddp(&a);
	a.cmp.workload = (struct workload){ true, WL_KERNELS, 0.25, 0.125, base_only, 2, cand_only, 1 };
	j = to_json(&a, &n);
	assert_non_null(strstr(j, "\"basis\": \"kernels\",\n      \"baseline_overlap\": 0.25,\n"
				  "      \"candidate_overlap\": 0.125,\n      \"baseline_only\": [\n"
				  "        {\n          \"family\": \"conv\",\n          \"share\": 0.55\n"));
	b = from_json(j, n);
	w = &b->cmp.workload;
	assert_true(w->present);
	assert_int_equal(w->basis, WL_KERNELS);
	assert_true(w->baseline_overlap == 0.25 && w->candidate_overlap == 0.125);
	assert_int_equal(w->nbaseline_only, 2);
	assert_string_equal(w->baseline_only[1].family, "bn_bw_1C11_kernel_new");
	assert_true(w->baseline_only[1].share == 0.2);
	assert_int_equal(w->ncandidate_only, 1);
	assert_string_equal(w->candidate_only[0].family, "split_embedding_codegen_forward_unweighted_kernel");
	free(j);
	analysis_free(b);
	a.cmp.workload = (struct workload){ true, WL_DECLARED, NAN, NAN, NULL, 0, NULL, 0 };
	j = to_json(&a, &n);
	assert_non_null(strstr(j, "\"basis\": \"declared\",\n      \"baseline_overlap\": null,\n"
				  "      \"candidate_overlap\": null,\n      \"baseline_only\": [],\n"));
	b = from_json(j, n);
	assert_true(b->cmp.workload.present);
	assert_int_equal(b->cmp.workload.basis, WL_DECLARED);
	assert_true(isnan(b->cmp.workload.baseline_overlap));
	free(j);
	analysis_free(b);
	a.cmp.workload.present = false;	/* no comparison made */
	j = to_json(&a, &n);
	assert_non_null(strstr(j, "\"workload\": null,"));
	b = from_json(j, n);
	assert_false(b->cmp.workload.present);
	free(j);
	analysis_free(b);
	fixture_analysis_release(&a);
	expect_error(HEAD "\"comparison\": {\"workload\": 3}}",
		     "x.json: byte 73: 'comparison.workload' is a number, not an object");
	expect_error(HEAD "\"comparison\": {\"workload\": {\"basis\": \"names\"}}}",
		     "x.json: byte 83: 'comparison.workload.basis' is 'names', which this scaleaudit does not know");
	expect_error(HEAD "\"comparison\": {\"workload\": {\"baseline_only\": [{\"share\": 0.5}]}}}",
		     "x.json: byte 92: 'comparison.workload.baseline_only[0].family' is missing, not a string");
}

static void hostile_documents_get_one_error(void **state)
{
	char deep[200] = HEAD "\"x\": ";

	expect_error("", "x.json: byte 0: not JSON: the file is empty");
	expect_error(" \n", "x.json: byte 2: not JSON: the file is empty");
	expect_error("garbage", "x.json: byte 0: not JSON: lexical error: invalid char in json text");
	expect_error("{\"tool\": }", "x.json: byte 9: not JSON: parse error: unallowed token at this point in JSON text");
	expect_error(HEAD "\"runs\": [", "x.json: byte 55: truncated: the JSON ends before the document is complete");
	expect_error("[1, 2]", "x.json: byte 0: not a scaleaudit analysis: the document is an array, not an object");
	expect_error("{}", "x.json: byte 0: not a scaleaudit analysis: no 'tool.name'");
	expect_error("{\"tool\": {\"name\": \"nsys\"}}",
		     "x.json: byte 18: not a scaleaudit analysis: 'tool.name' is 'nsys'");
	expect_error("{\"tool\": {\"name\": \"scaleaudit\", \"version\": \"0.1.0\"}}",
		     "x.json: byte 9: no 'tool.format': written by a scaleaudit older than format 1, "
		     "which left out what a report is drawn from");
	expect_error("{\"tool\": {\"name\": \"scaleaudit\", \"format\": 2}}",
		     "x.json: byte 42: 'tool.format' is 2: this scaleaudit reads format 1");
	expect_error("{\"tool\": {\"name\": \"scaleaudit\", \"format\": \"1\"}}",
		     "x.json: byte 42: 'tool.format' is a string, not an integer");
	expect_error(HEAD "\"runs\": [{\"name\": \"a\", \"gpus\": \"two\"}]}",
		     "x.json: byte 77: 'runs[0].gpus' is a string, not an integer");
	expect_error(HEAD "\"runs\": [{\"name\": \"a\", \"gpus\": 1.5}]}",
		     "x.json: byte 77: 'runs[0].gpus' is a number, not an integer");
	expect_error(HEAD "\"runs\": [{\"name\": \"a\", \"gpus\": 4294967296}]}",
		     "x.json: byte 77: 'runs[0].gpus' is out of range");
	expect_error(HEAD "\"runs\": [{\"gpus\": 1}]}",
		     "x.json: byte 55: 'runs[0].name' is missing, not a string");
	expect_error(HEAD "\"runs\": [{\"name\": \"a\", \"status\": \"finished\"}]}",
		     "x.json: byte 79: 'runs[0].status' is 'finished', which this scaleaudit does not know");
	expect_error(HEAD "\"runs\": [{\"name\": \"a\", \"step_time_s\": {\"median\": 1e999}}]}",
		     "x.json: byte 95: 'runs[0].step_time_s.median' is out of range");
	expect_error(HEAD "\"runs\": [{\"name\": \"a\", \"per_gpu\": [{\"steps\": [{\"warmup\": 1}]}]}]}",
		     "x.json: byte 103: 'runs[0].per_gpu[0].steps[0].warmup' is a number, not true or false");
	expect_error(HEAD "\"runs\": [{\"name\": \"a\", \"per_gpu\": [7]}]}",
		     "x.json: byte 81: 'runs[0].per_gpu[0]' is a number, not an object");
	expect_error(HEAD "\"runs\": [{\"name\": \"a\", \"slowest_gpu\": 3}]}",
		     "x.json: byte 0: 'runs[0].slowest_gpu' is 3, but the run has 0 GPUs");
	expect_error(HEAD "\"runs\": [{\"name\": \"a\"}], \"comparison\": {\"baseline\": \"b\"}}",
		     "x.json: byte 98: 'comparison.baseline' names no run: 'b'");
	expect_error(HEAD "\"runs\": [{\"name\": \"a\", \"per_gpu\": [{\"rank\": 0, \"steps\": [{\"step\": 1, "
		     "\"window_s\": 0.04}]}], \"step_windows\": [{\"step\": 1, \"rank\": 0, \"dur_s\": 0.05}]}]}",
		     "x.json: byte 154: 'runs[0].step_windows[0]' (rank 0, step 1) is not the window of per_gpu's steps");
	for (int i = 0; i < 40; i++)
		strcat(deep, "[");
	expect_error(deep, "x.json: byte 82: nested deeper than 32 levels");
}

/* Keys of a later version are ignored; missing ones read as null. */
static void unknown_keys_are_ignored(void **state)
{
	const char *doc = HEAD "\"later\": {\"x\": [1, {\"y\": null}]}, "
		"\"runs\": [{\"name\": \"a\", \"gpus\": 2, \"new_key\": [true], "
		"\"precision\": {\"matmul_share\": {\"bf16\": 0.9, \"fp12\": 0.1}}}]}";
	struct analysis *a = from_json(doc, strlen(doc));

	assert_int_equal(a->nruns, 1);
	assert_string_equal(a->runs[0].name, "a");
	assert_int_equal(a->runs[0].gpus, 2);
	assert_int_equal(a->runs[0].global_batch, -1);
	assert_true(isnan(a->runs[0].step_median_s));
	assert_true(a->runs[0].matmul_share[DT_BF16] == 0.9);
	assert_true(isnan(a->runs[0].matmul_share[DT_FP16]));
	assert_false(a->cmp.valid);
	assert_int_equal(a->cmp.verdict, VERDICT_NONE);
	analysis_free(a);
}

/* analysis.json is told by its opening: an object whose first key is "tool". */
static void sniffed_by_content(void **state)
{
	static const struct {
		const char *head;
		bool yes;
	} cases[] = {
		{ "{\"tool\": {", true }, { " \n\t{\n  \"tool\"", true }, { "{\"tool\"", true },
		{ "{\"traceEvents\": [", false }, { "{\"too", false }, { "{", false }, { "", false },
		{ "[{\"tool\": 1}]", false }, { "\"tool\"", false }, { "# trial.ini", false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (analysis_json_sniff(cases[i].head, strlen(cases[i].head)) != cases[i].yes)
			fail_msg("sniffing '%s' should say %d", cases[i].head, cases[i].yes);
}

/* Every prefix and many one-byte changes of a real document: an analysis or one error, never a crash. */
static void damaged_documents_never_crash(void **state)
{
	struct analysis *a = analyse_dir("samples/trials/fsdp-allgather");
	size_t n, errors = 0;
	char *j = to_json(a, &n), *err;

	for (size_t len = 0; len < n; len += 1 + len / 8) {
		err = parse_error(j, len);
		errors += err != NULL;
		free(err);
	}
	for (size_t at = 0; at < n; at += 37) {
		char keep = j[at];

		j[at] = (char)(at % 2 ? '"' : '{');
		free(parse_error(j, n));
		j[at] = keep;
	}
	assert_true(errors > 50);
	free(j);
	analysis_free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(samples_round_trip),
		cmocka_unit_test(document_carries_what_charts_draw),
		cmocka_unit_test(hostile_documents_get_one_error),
		cmocka_unit_test(unknown_keys_are_ignored),
		cmocka_unit_test(nccl_settings_round_trip),
		cmocka_unit_test(workload_round_trip),
		cmocka_unit_test(sniffed_by_content),
		cmocka_unit_test(damaged_documents_never_crash),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	text_release();
	return rc;
}
