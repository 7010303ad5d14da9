/*
 * Unit tests of the decision page (render/summary.c's decision lines,
 * render/page1.c): the verdict sentence, the why line's rules, the run table
 * with a failed run's cause, the Markdown table, commands never broken inside
 * when text wraps, and a page 1 that cuts long advice instead of spilling
 * (read back with poppler's pdftotext; skipped when absent).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/buf.h"
#include "core/diag.h"
#include "core/xalloc.h"
#include "render/report.h"
#include "render/summary.h"
#include "render/text.h"
#include "tests/unit/fixture_analysis.h"
#include "tests/unit/ingest_fixture.h"
#include "tests/unit/skip.h"

/* The first line of kind k; the case fails when there is none. */
static const struct sline *line_of(const struct summary *s, enum sline_kind k)
{
	static const char *const none[1] = { "" };
	static const struct sline missing[3] = { { SL_TEXT, "", none, 1 }, { SL_TEXT, "", none, 1 },
						   { SL_TEXT, "", none, 1 } };

	for (size_t i = 0; i < s->n; i++)
		if (s->lines[i].kind == k)
			return &s->lines[i];
	fail_msg("no line of kind %d", (int)k);
	return missing;
}

static void decision_comes_first(void **state)
{
	static const enum sline_kind order[] = {
		SL_TITLE, SL_VERDICT, SL_REASON, SL_LEAD, SL_TABLE_HEAD, SL_TABLE_ROW, SL_TABLE_ROW,
		SL_HEADING, SL_ITEM, SL_HEADING, SL_ITEM, SL_ITEM,
	};
	struct analysis a;
	struct summary s;

	(void)state;
	fixture_analysis_ddp(&a);
	summary_build(&s, &a, NULL, 0);
	assert_int_equal(s.decision_end, sizeof(order) / sizeof(order[0]));
	for (size_t i = 0; i < s.decision_end; i++)
		assert_int_equal(s.lines[i].kind, order[i]);
	assert_string_equal(s.lines[1].text, "CONFIRMED \xe2\x80\x94 speedup 1.78x (0.412 s -> 0.231 s per step) at "
			    "the same global batch of 64, above 1.1, with no blocking confound");
	/* attribution 2 x (196, 21, 6, 8) ms - (380, 0, 12, 20) ms = 12 + 42 + 0 - 4 = 50 ms */
	assert_string_equal(s.lines[3].text, "Why: 2 GPUs lose 50.0 ms of GPU time per step against perfect scaling "
			    "(counted on mean steps, so that the parts add up); the largest part is exposed communication: 42.0 ms");
	assert_string_equal(s.lines[7].text, "Confounds and unverified facts");
	assert_string_equal(s.lines[9].text, "Recommendations");
	assert_string_equal(s.lines[s.decision_end].text, "Key numbers");
	summary_release(&s);
	fixture_analysis_release(&a);
}

static void run_table_cells(void **state)
{
	static const char *const head[] = {
		"Run", "GPUs", "Status", "Precision", "Global batch", "Step time", "Samples/s",
		"Peak / capacity", "Transport / link",
	};
	/* 64 / 0.412 = 155.3 samples/s; 64 / 0.231 = 277.1; GPU 0 holds the candidate's larger peak */
	static const char *const base[] = {
		"b200-1gpu (baseline)", "1 x NVIDIA B200", "completed, 10 steady steps", "bf16", "64", "412.0 ms",
		"155.3", "151.3 GB / 191.5 GB", "none (1 GPU)",
	};
	static const char *const cand[] = {
		"b200-2gpu-ddp (candidate)", "2 x NVIDIA B200", "completed, 10 steady steps", "bf16", "64", "231.0 ms",
		"277.1", "96.2 GB / 191.5 GB (GPU 0)", "p2p / nvlink",
	};
	struct analysis a;
	struct summary s;
	const struct sline *h;

	(void)state;
	fixture_analysis_ddp(&a);
	summary_build(&s, &a, NULL, 0);
	h = line_of(&s, SL_TABLE_HEAD);
	assert_int_equal(h->ncells, 9);
	for (size_t c = 0; c < 9; c++) {
		assert_string_equal(h[0].cells[c], head[c]);
		assert_string_equal(h[1].cells[c], base[c]);
		assert_string_equal(h[2].cells[c], cand[c]);
	}
	assert_string_equal(h[1].text, "b200-1gpu (baseline); 1 x NVIDIA B200; completed, 10 steady steps; bf16; "
			    "64; 412.0 ms; 155.3; 151.3 GB / 191.5 GB; none (1 GPU)");
	summary_release(&s);
	fixture_analysis_release(&a);
}

/* The baseline ran out of memory: its status says so with PyTorch's figure, never "step n/a". */
static void failed_run_reads_its_cause(void **state)
{
	struct analysis a;
	struct summary s;
	const struct sline *h;

	(void)state;
	fixture_analysis_ddp(&a);
	a.runs[0].status = RUN_FAILED_OOM;
	a.runs[0].failed_allocation = 3584LL << 20;	/* "Tried to allocate 3.50 GiB" */
	a.runs[0].step_median_s = a.runs[0].samples_per_s = NAN;
	summary_build(&s, &a, NULL, 0);
	h = line_of(&s, SL_TABLE_HEAD);
	assert_string_equal(h[1].cells[2], "failed: CUDA out of memory (needed 3.5 GiB more)");
	assert_string_equal(h[1].cells[5], "n/a");
	assert_string_equal(line_of(&s, SL_LEAD)->text, "Why: on 1 GPU the run failed: CUDA out of memory "
			    "(needed 3.5 GiB more), at a peak of 151.3 GB / 191.5 GB; on 2 GPUs it completed, at a "
			    "peak of 96.2 GB / 191.5 GB (GPU 0)");
	summary_release(&s);
	a.runs[0].failed_allocation = -1;	/* no figure printed: the cause alone */
	summary_build(&s, &a, NULL, 0);
	assert_string_equal(line_of(&s, SL_TABLE_HEAD)[1].cells[2], "failed: CUDA out of memory");
	summary_release(&s);
	fixture_analysis_release(&a);
}

/* Sockets are the cause and lead the why line; a blocking confound comes before even that. */
static void why_rules_in_order(void **state)
{
	struct analysis a;
	struct summary s;

	(void)state;
	fixture_analysis_ddp(&a);
	a.runs[1].transport = "net-socket";
	summary_build(&s, &a, NULL, 0);
	assert_string_equal(line_of(&s, SL_LEAD)->text, "Why: NCCL sent the data over sockets (net-socket), not "
			    "GPU to GPU: exposed communication takes 42.0 ms of the 50.0 ms per step that 2 GPUs "
			    "lose against 1");
	summary_release(&s);
	a.cmp.confounds[0].severity = CFS_BLOCKING;
	summary_build(&s, &a, NULL, 0);
	assert_string_equal(line_of(&s, SL_LEAD)->text, "Why: the measured speedup of 1.78x (412.0 ms against "
			    "231.0 ms) mixes the extra GPU with the change of dataset (c4-en shards 0-7 against c4-en "
			    "shards 0-15): repeat the trial with it unchanged");
	summary_release(&s);
	/* without a speedup, and the verdict's sentence already naming the confound: not said twice */
	a.cmp.speedup = NAN;
	a.cmp.confounds[0].why = "a step processed different examples";
	a.cmp.reason = "the runs differ in dataset: a step processed different examples";
	summary_build(&s, &a, NULL, 0);
	assert_string_equal(line_of(&s, SL_LEAD)->text, "Why: the runs differ in dataset (c4-en shards 0-7 against "
			    "c4-en shards 0-15), which blocks the comparison; the numbers below are for reference only");
	summary_release(&s);
	a.cmp.reason = "inconclusive";
	summary_build(&s, &a, NULL, 0);
	assert_string_equal(line_of(&s, SL_LEAD)->text, "Why: the runs differ in dataset (c4-en shards 0-7 against "
			    "c4-en shards 0-15): a step processed different examples");
	summary_release(&s);
	fixture_analysis_release(&a);
}

/* Idle that is mostly the CPU launching late is named host-bound, with its share of the idle term. */
static void why_names_host_bound_idle(void **state)
{
	struct analysis a;
	struct summary s;
	struct run_result *b, *c;

	(void)state;
	fixture_analysis_ddp(&a);
	b = &a.runs[a.cmp.baseline];
	c = &a.runs[a.cmp.candidate];
	a.cmp.attribution_s.compute = 0.002;
	a.cmp.attribution_s.exposed_comm = 0.003;
	a.cmp.attribution_s.memory = 0.001;
	a.cmp.attribution_s.idle = 0.020;
	b->gpu[b->slowest].step_s.idle_host = 0.001;
	c->gpu[c->slowest].step_s.idle_host = 0.009;	/* 2 x 9 - 1 = 17 ms of the 20 */
	summary_build(&s, &a, NULL, 0);
	assert_string_equal(line_of(&s, SL_LEAD)->text, "Why: 2 GPUs lose 26.0 ms of GPU time per step against "
			    "perfect scaling (counted on mean steps, so that the parts add up); the largest part is "
			    "idle waiting for the CPU to launch work (host-bound): 17.0 ms of the 20.0 ms of idle");
	summary_release(&s);
	c->gpu[c->slowest].step_s.idle_host = 0.004;	/* 7 ms of 20: idle, not host-bound */
	summary_build(&s, &a, NULL, 0);
	assert_string_equal(line_of(&s, SL_LEAD)->text, "Why: 2 GPUs lose 26.0 ms of GPU time per step against "
			    "perfect scaling (counted on mean steps, so that the parts add up); the largest part is "
			    "idle time: 20.0 ms");
	summary_release(&s);
	fixture_analysis_release(&a);
}

static void markdown_has_the_table(void **state)
{
	struct analysis a;
	struct summary s;
	struct buf md;

	(void)state;
	fixture_analysis_ddp(&a);
	summary_build(&s, &a, NULL, 0);
	buf_init(&md, 0);
	summary_markdown(&s, NULL, NULL, NULL, 0, &md);
	buf_addch(&md, '\0');
	assert_non_null(strstr(md.data, "# Does a second B200 halve the step time?\n\n**Verdict: CONFIRMED \xe2\x80\x94 "
				       "speedup 1.78x"));
	assert_non_null(strstr(md.data, "\n\nWhy: 2 GPUs lose 50.0 ms of GPU time per step"));
	assert_non_null(strstr(md.data, "\n\n| Run | GPUs | Status | Precision | Global batch | Step time | "
				       "Samples/s | Peak / capacity | Transport / link |\n"
				       "|---|---|---|---|---|---|---|---|---|\n"
				       "| b200-1gpu (baseline) | 1 x NVIDIA B200 | completed, 10 steady steps | bf16 | "
				       "64 | 412.0 ms | 155.3 | 151.3 GB / 191.5 GB | none (1 GPU) |\n"));
	assert_non_null(strstr(md.data, "| p2p / nvlink |\n\n## Confounds and unverified facts\n"));
	/* the decision, then what followed before */
	assert_true(strstr(md.data, "## Recommendations") < strstr(md.data, "## Key numbers"));
	buf_release(&md);
	summary_release(&s);
	fixture_analysis_release(&a);
}

/* At every width, a wrapped line starts neither inside "nvidia-smi" nor inside "topo -m". */
static void commands_wrap_whole(void **state)
{
	const char *text = "NCCL moved the data over sockets: check NCCL_P2P_DISABLE, the GPUs' topology "
			   "(nvidia-smi topo -m) and, on one host, the settings";
	const char *cmd = strstr(text, "nvidia-smi topo -m");

	size_t at = (size_t)(cmd - text), starts[64], breaks_before_cmd = 0;

	(void)state;
	for (double w = 40; w < 700; w += 1.5) {
		size_t n = text_prose_lines(FONT_BODY, text, w, starts, 64);

		assert_true(n <= 64);
		for (size_t i = 1; i < n; i++) {
			assert_false(starts[i] > at - 1 && starts[i] < at + strlen("nvidia-smi topo -m"));
			breaks_before_cmd += starts[i] == at - 1;	/* before its "(" */
		}
	}
	assert_true(breaks_before_cmd > 0);	/* the command moves to the next line whole */
}

/* The text of page p of dir/report.pdf, by pdftotext into a file beside it. */
static char *page_text(const char *dir, int p)
{
	char *cmd = xasprintf("pdftotext -f %d -l %d '%s/report.pdf' '%s/page.txt'", p, p, dir, dir);
	char *path = xasprintf("%s/page.txt", dir), *text, *z;
	size_t n;

	assert_int_equal(system(cmd), 0);
	text = read_file(path, &n);
	z = xrealloc(text, n + 1);
	z[n] = '\0';
	free(cmd);
	free(path);
	return z;
}

/* Twenty-five long recommendations: page 1 shows what fits and says how many follow on page 2. */
static void long_advice_is_cut_not_spilled(void **state)
{
	char dir[] = "/tmp/test_page1.XXXXXX", *p1, *p2;
	struct diags d = DIAGS_INIT;
	struct analysis a;
	size_t shown = 0, more = 0;
	char want[64];
	const char *m;

	(void)state;
	skip_unless_tool("pdftotext");
	assert_non_null(mkdtemp(dir));
	fixture_analysis_ddp(&a);
	a.nrecs = 25;
	a.recs = arena_alloc(&a.arena, a.nrecs * sizeof(*a.recs));
	for (size_t i = 0; i < a.nrecs; i++) {
		char *t = arena_alloc(&a.arena, 200);

		snprintf(t, 200, "advice-%02zu: a recommendation long enough to take two lines of the page when it "
			 "wraps, as the rental and sizing advice do with all their numbers, GPU-hours and windows", i);
		a.recs[i] = (struct recommendation){ "x", t };
	}
	assert_int_equal(report_write(&a, dir, &d), 0);
	p1 = page_text(dir, 1);
	p2 = page_text(dir, 2);
	for (size_t i = 0; i < a.nrecs; i++) {
		snprintf(want, sizeof(want), "advice-%02zu:", i);
		shown += strstr(p1, want) != NULL;
	}
	assert_true(shown >= 3 && shown < a.nrecs);
	m = strstr(p1, "\xe2\x80\xa6 ");
	assert_non_null(m);
	assert_int_equal(sscanf(m, "\xe2\x80\xa6 %zu more on page 2", &more), 1);
	assert_int_equal(more, a.nrecs - shown);
	assert_non_null(strstr(p2, "Recommendations (continued)"));
	snprintf(want, sizeof(want), "advice-%02zu:", shown);
	assert_non_null(strstr(p2, want));
	assert_null(strstr(p1, "Key numbers"));
	free(p1);
	free(p2);
	diags_release(&d);
	fixture_analysis_release(&a);
	assert_int_equal(remove_tree(dir), 0);
}

/* Forty runs: page 1 takes the rows that fit and page 2 goes on with the rest of the table. */
static void many_runs_stay_on_the_page(void **state)
{
	char dir[] = "/tmp/test_page1.XXXXXX", *p1, *p2, want[64];
	struct diags d = DIAGS_INIT;
	struct run_result *runs;
	struct analysis a;
	size_t shown = 0, more = 0, nruns = 40;
	const char *m;

	(void)state;
	skip_unless_tool("pdftotext");
	assert_non_null(mkdtemp(dir));
	fixture_analysis_ddp(&a);
	runs = a.runs;		/* the copies share its arrays: the fixture frees them once, through runs */
	a.runs = arena_alloc(&a.arena, nruns * sizeof(*a.runs));
	for (size_t i = 0; i < nruns; i++) {
		char *name = arena_alloc(&a.arena, 16);

		a.runs[i] = runs[i ? 1 : 0];
		snprintf(name, 16, "run-%02zu", i);
		a.runs[i].name = name;
	}
	a.nruns = nruns;
	assert_int_equal(report_write(&a, dir, &d), 0);
	a.runs = runs;
	a.nruns = 2;
	p1 = page_text(dir, 1);
	p2 = page_text(dir, 2);
	/* page 2 goes on from the first row page 1 left out, to the last */
	for (shown = 0; shown < nruns; shown++) {
		snprintf(want, sizeof(want), "run-%02zu", shown);
		if (strstr(p2, want))
			break;
	}
	assert_true(shown >= 6 && shown < nruns);	/* the chart names the first 6: the table more */
	for (size_t i = shown; i < nruns; i++) {
		snprintf(want, sizeof(want), "run-%02zu", i);
		assert_null(strstr(p1, want));
	}
	m = strstr(p1, "\xe2\x80\xa6 ");
	assert_non_null(m);
	assert_int_equal(sscanf(m, "\xe2\x80\xa6 %zu more on page 2", &more), 1);
	assert_int_equal(more, nruns - shown + 1 + 2);	/* the rows left, the confound, 2 recommendations */
	assert_null(strstr(p1, "Recommendations"));
	assert_memory_equal(p2, "Run\n\nGPUs\n", 10);	/* the table's head again on top */
	free(p2);
	p2 = page_text(dir, 3);		/* the table goes on over a third page, rows in order */
	assert_non_null(strstr(p2, "run-39"));
	assert_true(strstr(p2, "run-39") < strstr(p2, "Recommendations"));
	free(p1);
	free(p2);
	diags_release(&d);
	fixture_analysis_release(&a);
	assert_int_equal(remove_tree(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decision_comes_first),
		cmocka_unit_test(run_table_cells),
		cmocka_unit_test(failed_run_reads_its_cause),
		cmocka_unit_test(why_rules_in_order),
		cmocka_unit_test(why_names_host_bound_idle),
		cmocka_unit_test(markdown_has_the_table),
		cmocka_unit_test(commands_wrap_whole),
		cmocka_unit_test(long_advice_is_cut_not_spilled),
		cmocka_unit_test(many_runs_stay_on_the_page),
	};
	int rc = cmocka_run_group_tests(tests, NULL, NULL);

	text_release();
	return rc;
}
