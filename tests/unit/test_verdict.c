/*
 * The verdict, its criterion, the hparam-sweep answer and the advice, on
 * analyses built by hand (tests/unit/fixture_analysis.c): each rule at and
 * around its threshold, advice withheld under each blocking confound, the
 * one-GPU sizing rule, the rental options, and analyze's first screen.
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

#include "analysis/analysis.h"
#include "analysis/evidence.h"
#include "analysis/readiness.h"
#include "render/analysis_text.h"
#include "render/summary.h"
#include "tests/unit/fixture_analysis.h"

#define GIB 1073741824LL

/* The ddp fixture with no confound and no advice yet: the verdict is to be decided. */
static void fresh(struct analysis *a)
{
	fixture_analysis_ddp(a);
	a->cmp.nconfounds = 0;
	a->cmp.confounds = NULL;
	a->nrecs = 0;
	a->recs = NULL;
	a->cap_recs = 0;
}

static void done(struct analysis *a)
{
	free(a->recs);
	free(a->cmp.confounds);
	fixture_analysis_release(a);
}

/* Adds a confound to a fresh analysis (the array is malloc'd, as the analysis' own). */
static void confound(struct analysis *a, enum confound_what w, const char *b, const char *c,
		     enum confound_severity sev, const char *why)
{
	struct comparison *m = &a->cmp;

	m->confounds = realloc(m->confounds, (m->nconfounds + 1) * sizeof(*m->confounds));
	assert_non_null(m->confounds);
	m->confounds[m->nconfounds++] = (struct confound){ w, b, c, sev, why, NULL };
}

static const struct recommendation *rec(const struct analysis *a, const char *id)
{
	for (size_t i = 0; i < a->nrecs; i++)
		if (!strcmp(a->recs[i].id, id))
			return &a->recs[i];
	return NULL;
}

/* The text of the recommendation `id`; the test fails when there is none. */
static const char *rec_text(const struct analysis *a, const char *id)
{
	const struct recommendation *r = rec(a, id);

	if (!r)
		fail_msg("no recommendation '%s'", id);
	return r ? r->text : "";
}

static void advise(struct analysis *a, struct trial *t)
{
	a->nrecs = 0;
	analysis_decide(a, t);
	analysis_advise(a, t);
}

/* step-time: confirmed from speedup == expected_speedup exactly, refuted just below. */
static void step_time_at_the_threshold(void **state)
{
	static const struct {
		double speedup, expected;
		enum verdict want;
	} cases[] = {
		{ 1.1, 1.1, VERDICT_CONFIRMED }, { 1.0999, 1.1, VERDICT_REFUTED },
		{ 1.1001, 1.1, VERDICT_CONFIRMED }, { 1.9, 1.9, VERDICT_CONFIRMED },
		{ 1.8999, 1.9, VERDICT_REFUTED }, { 0.95, 0.9, VERDICT_CONFIRMED },
	};
	struct analysis a;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fresh(&a);
		a.cmp.speedup = cases[i].speedup;
		a.expected_speedup = cases[i].expected;
		analysis_verdict(&a);
		if (a.cmp.verdict != cases[i].want)
			fail_msg("speedup %g against %g: %s, want %s", cases[i].speedup, cases[i].expected,
				 verdict_name(a.cmp.verdict), verdict_name(cases[i].want));
		done(&a);
	}
}

/* The trial: "does a second B200 halve the step time?" at 1.78x with expected_speedup = 1.9. */
static void expected_speedup_missed(void **state)
{
	struct analysis a;

	(void)state;
	fresh(&a);
	a.expected_speedup = 1.9;
	analysis_verdict(&a);
	assert_int_equal(a.cmp.verdict, VERDICT_REFUTED);
	assert_string_equal(a.cmp.reason, "a step takes 231.0 ms on 2 GPUs against 412.0 ms on 1 GPU: "
			    "a speedup of 1.78x, below the expected 1.9x");
	assert_string_equal(a.cmp.criterion, "step-time: confirmed when the speedup (1-GPU step time / "
			    "n-GPU step time, medians) is at least 1.9 (expected_speedup) with no blocking "
			    "confound");
	assert_int_equal(a.cmp.answer, ANSWER_NONE);
	assert_null(a.cmp.answer_reason);
	a.expected_speedup = 1.1;
	analysis_verdict(&a);
	assert_int_equal(a.cmp.verdict, VERDICT_CONFIRMED);
	assert_string_equal(a.cmp.reason, "a step takes 231.0 ms on 2 GPUs against 412.0 ms on 1 GPU: "
			    "1.78x faster, at least the expected 1.1x; 89% scaling efficiency");
	done(&a);
}

/* A speedup that rounds to the threshold is printed with the digits that tell them apart. */
static void ratio_never_reads_as_the_threshold(void **state)
{
	struct analysis a;

	(void)state;
	fresh(&a);
	a.cmp.speedup = 1.0999;
	analysis_verdict(&a);
	assert_non_null(strstr(a.cmp.reason, "a speedup of 1.0999x, below the expected 1.1x"));
	done(&a);
}

/* global-batch: n times the batch, throughput ratio >= expected, every GPU under capacity. */
static void global_batch_rules(void **state)
{
	static const struct {
		int64_t batch;		/* the candidate's global batch (the baseline's is 64) */
		double ratio;
		int64_t peak0;		/* GPU 0's peak */
		enum verdict want;
	} cases[] = {
		{ 128, 1.1, FX_CAND_PEAK0, VERDICT_CONFIRMED },
		{ 128, 1.0999, FX_CAND_PEAK0, VERDICT_REFUTED },
		{ 64, 1.8, FX_CAND_PEAK0, VERDICT_REFUTED },
		{ 128, 1.8, FX_B200_TOTAL, VERDICT_REFUTED },		/* at capacity: not under */
		{ 128, 1.8, FX_B200_TOTAL - 1, VERDICT_CONFIRMED },
		{ 128, 1.8, -1, VERDICT_INCONCLUSIVE },		/* unknown peak: not refuted */
		{ 128, 1.0999, -1, VERDICT_REFUTED },		/* ... unless a measured condition fails */
		{ -1, 1.8, FX_CAND_PEAK0, VERDICT_INCONCLUSIVE },
	};
	struct analysis a;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fresh(&a);
		a.hypothesis = HYP_GLOBAL_BATCH;
		a.runs[1].global_batch = cases[i].batch;
		a.runs[1].gpu[0].peak_memory = cases[i].peak0;
		a.cmp.throughput_ratio = cases[i].ratio;
		analysis_verdict(&a);
		if (a.cmp.verdict != cases[i].want)
			fail_msg("case %zu: %s, want %s: %s", i, verdict_name(a.cmp.verdict),
				 verdict_name(cases[i].want), a.cmp.reason);
		done(&a);
	}
	fresh(&a);
	a.hypothesis = HYP_GLOBAL_BATCH;
	a.runs[1].global_batch = 128;
	a.runs[1].gpu[1].peak_memory = -1;
	analysis_verdict(&a);
	assert_string_equal(a.cmp.reason, "peak memory of b200-2gpu-ddp GPU 1 unknown: record nvidia-smi "
			    "or profile with profile_memory=True");
	a.runs[1].gpu[0].peak_memory = FX_B200_TOTAL;	/* at capacity is refuted, the other GPU unknown */
	analysis_verdict(&a);
	assert_string_equal(a.cmp.reason, "GPU 0 of b200-2gpu-ddp reached its memory capacity: a peak "
			    "of 191.5 GB of 180 GB nominal (191.5 GB / 178.4 GiB reported)");
	a.runs[0].global_batch = -1;	/* each missing input is named, with how to measure it */
	a.runs[1].gpu[0].peak_memory = -1;
	a.runs[1].gpu[1].memory_total = -1;
	analysis_verdict(&a);
	assert_int_equal(a.cmp.verdict, VERDICT_INCONCLUSIVE);
	assert_string_equal(a.cmp.reason, "global batch of b200-1gpu unknown: add global_batch to its "
			    "run.ini, or keep the trainer's log that prints it; peak memory of b200-2gpu-ddp GPUs "
			    "0 and 1 unknown: record nvidia-smi or profile with profile_memory=True; memory "
			    "capacity of b200-2gpu-ddp GPU 1 unknown: keep the trace's deviceProperties, "
			    "nvidia-smi's memory.total or collect_env, which name the GPU");
	done(&a);
	fresh(&a);		/* traces of 2 of 16 ranks: the other 14 GPUs' peaks are unknown */
	a.hypothesis = HYP_GLOBAL_BATCH;
	a.runs[1].gpus = 16;
	a.runs[1].global_batch = 64 * 16;
	analysis_verdict(&a);
	assert_string_equal(a.cmp.reason, "peak memory of b200-2gpu-ddp GPUs 2, 3, 4, 5, 6, 7, 8, 9 and 6 "
			    "more unknown: record nvidia-smi or profile with profile_memory=True");
	done(&a);
	fresh(&a);
	a.hypothesis = HYP_GLOBAL_BATCH;
	a.runs[1].global_batch = 128;
	a.cmp.throughput_ratio = 1.05;
	analysis_verdict(&a);
	assert_string_equal(a.cmp.reason, "the global batch grew to 128 but throughput only by 1.05x, "
			    "below the expected 1.1x");
	assert_string_equal(a.cmp.criterion, "global-batch: confirmed when 2 GPUs run 2/1 times the "
			    "global batch with a throughput ratio of at least 1.1 (expected_speedup) and every "
			    "GPU's peak memory under its capacity, with no blocking confound");
	done(&a);
}

/* feasibility: the baseline failed and the candidate completed with every GPU under capacity. */
static void feasibility_rules(void **state)
{
	static const struct {
		enum run_status base;
		int64_t base_steps;
		enum run_status cand;
		int64_t peak1;
		enum verdict want;
	} cases[] = {
		{ RUN_FAILED_OOM, -1, RUN_COMPLETED, FX_CAND_PEAK1, VERDICT_CONFIRMED },
		{ RUN_INCOMPLETE, 0, RUN_COMPLETED, FX_CAND_PEAK1, VERDICT_CONFIRMED },	/* did not run */
		{ RUN_FAILED, -1, RUN_COMPLETED, FX_CAND_PEAK1, VERDICT_CONFIRMED },
		{ RUN_COMPLETED, 10, RUN_COMPLETED, FX_CAND_PEAK1, VERDICT_REFUTED },
		{ RUN_FAILED_OOM, -1, RUN_FAILED_OOM, FX_CAND_PEAK1, VERDICT_REFUTED },
		{ RUN_FAILED_OOM, -1, RUN_COMPLETED, FX_B200_TOTAL, VERDICT_REFUTED },	/* at capacity */
		{ RUN_FAILED_OOM, -1, RUN_COMPLETED, -1, VERDICT_INCONCLUSIVE },	/* peak unknown */
		{ RUN_COMPLETED, 10, RUN_COMPLETED, -1, VERDICT_REFUTED },	/* already possible */
		{ RUN_UNKNOWN, 0, RUN_COMPLETED, FX_CAND_PEAK1, VERDICT_INCONCLUSIVE },	/* outcome unknown */
		{ RUN_FAILED_OOM, -1, RUN_UNKNOWN, FX_CAND_PEAK1, VERDICT_INCONCLUSIVE },
	};
	struct analysis a;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fresh(&a);
		a.hypothesis = HYP_FEASIBILITY;
		a.runs[0].status = cases[i].base;
		a.runs[0].steps_measured = cases[i].base_steps;
		a.runs[1].status = cases[i].cand;
		a.runs[1].gpu[1].peak_memory = cases[i].peak1;
		analysis_verdict(&a);
		if (a.cmp.verdict != cases[i].want)
			fail_msg("case %zu: %s, want %s: %s", i, verdict_name(a.cmp.verdict),
				 verdict_name(cases[i].want), a.cmp.reason);
		assert_string_equal(a.cmp.criterion, "feasibility: confirmed when the run failed on 1 GPU "
				    "(out of memory, or no steady step) and completed its steps on 2 GPUs with "
				    "every GPU's peak memory under its capacity");
		done(&a);
	}
	fresh(&a);		/* the logs-only trial: unknown is not refuted, and the reason says what to record */
	a.hypothesis = HYP_FEASIBILITY;
	a.runs[0].status = RUN_FAILED_OOM;
	a.runs[0].steps_measured = -1;
	a.runs[1].gpu[1].peak_memory = -1;
	analysis_verdict(&a);
	assert_string_equal(a.cmp.reason, "peak memory of b200-2gpu-ddp GPU 1 unknown: record nvidia-smi "
			    "or profile with profile_memory=True");
	a.runs[1].gpu[0].peak_memory = FX_B200_TOTAL;
	analysis_verdict(&a);
	assert_string_equal(a.cmp.reason, "GPU 0 of b200-2gpu-ddp reached its memory capacity: a peak "
			    "of 191.5 GB of 180 GB nominal (191.5 GB / 178.4 GiB reported)");
	done(&a);
}

/* A baseline that failed leaves nothing to compare under step-time: inconclusive, use-feasibility. */
static void failed_baseline_answers_feasibility(void **state)
{
	static const enum hypothesis hyps[] = { HYP_STEP_TIME, HYP_GLOBAL_BATCH };
	struct trial *t = trial_new();
	struct analysis a;

	(void)state;
	for (size_t i = 0; i < sizeof(hyps) / sizeof(hyps[0]); i++) {
		fresh(&a);
		a.hypothesis = hyps[i];
		a.runs[0].status = RUN_FAILED_OOM;
		a.runs[0].failed_allocation = 7 * GIB / 2;
		a.runs[0].steps_measured = -1;
		a.runs[0].step_median_s = a.runs[0].samples_per_s = NAN;
		a.cmp.speedup = a.cmp.throughput_ratio = a.cmp.scaling_efficiency = NAN;
		analysis_verdict(&a);
		advise(&a, t);
		assert_int_equal(a.cmp.verdict, VERDICT_INCONCLUSIVE);
		assert_string_equal(a.cmp.reason, "run 'b200-1gpu' did not run its steps: it ran out of GPU "
				    "memory (it failed to allocate 3.8 GB), so there is nothing to compare: the "
				    "trial answered whether the run is possible (hypothesis = feasibility)");
		assert_string_equal(a.recs[0].id, "use-feasibility");
		assert_string_equal(a.recs[0].text, "the trial answered whether the run is possible, not how "
				    "fast it is: run 'b200-1gpu' did not run its steps: it ran out of GPU memory (it "
				    "failed to allocate 3.8 GB); on 2 GPUs it completed 10 steady steps; GPU 0 peaked "
				    "at 96.2 GB, GPU 1 at 88.4 GB, each of 180 GB nominal (191.5 GB / 178.4 GiB "
				    "reported); set hypothesis = "
				    "feasibility in trial.ini");
		assert_null(rec(&a, "repeat-trial"));
		for (size_t r = 0; r < a.nrecs; r++)
			assert_null(strstr(a.recs[r].text, "profile 7"));
		assert_int_equal(a.cmp.nweak, 0);
		done(&a);
	}
	fresh(&a);		/* failed on an error; under feasibility no such advice */
	a.runs[0].status = RUN_FAILED;
	analysis_verdict(&a);
	assert_string_equal(a.cmp.reason, "run 'b200-1gpu' did not run its steps: it failed (its log ends "
			    "on an error), so there is nothing to compare: the trial answered whether the run is "
			    "possible (hypothesis = feasibility)");
	a.hypothesis = HYP_FEASIBILITY;
	analysis_verdict(&a);
	advise(&a, t);
	assert_int_equal(a.cmp.verdict, VERDICT_CONFIRMED);
	assert_null(rec(&a, "use-feasibility"));
	done(&a);
	trial_free(t);
}

/* A step time from a whole-job summary enters a verdict over 100 steps run, as weak evidence. */
static void summary_step_time_needs_100_steps(void **state)
{
	struct analysis a;

	(void)state;
	fresh(&a);
	a.runs[0].time_source = a.runs[1].time_source = "log-summary";
	a.runs[0].steps_measured = 10;
	a.runs[1].steps_measured = 99;
	analysis_verdict(&a);
	assert_int_equal(a.cmp.verdict, VERDICT_INCONCLUSIVE);
	assert_string_equal(a.cmp.reason, "the step time of b200-1gpu comes from a whole-job summary over 10 "
			    "steps run, start-up and saving included (a verdict needs 100); the step time of "
			    "b200-2gpu-ddp comes from a whole-job summary over 99 steps run, start-up and saving "
			    "included (a verdict needs 100): log per-iteration times, or profile 7 or more "
			    "active steps");
	a.runs[0].steps_measured = a.runs[1].steps_measured = 100;
	analysis_verdict(&a);
	assert_int_equal(a.cmp.verdict, VERDICT_CONFIRMED);
	assert_int_equal(a.cmp.nweak, 1);
	assert_int_equal(a.cmp.weak[0].what, WEAK_LOG_SUMMARY);
	assert_string_equal(a.cmp.weak[0].message, "step time from the trainer's whole-job summary, "
			    "start-up included (b200-1gpu: 100 steps; b200-2gpu-ddp: 100 steps)");
	a.runs[1].step_median_s = NAN;	/* no step time at all (a summary without a count of steps run) */
	a.cmp.speedup = NAN;
	analysis_verdict(&a);
	assert_string_equal(a.cmp.reason, "step time of b200-2gpu-ddp unknown: log per-iteration times, or "
			    "profile 7 or more active steps");
	done(&a);
}

/* superlinear: above 105% efficiency, each cause checked on its own numbers, in a fixed order. */
static void superlinear_causes(void **state)
{
	struct analysis a;

	(void)state;
	fresh(&a);
	a.cmp.scaling_efficiency = 1.05;	/* at the threshold: plausible */
	analysis_verdict(&a);
	assert_false(a.cmp.superlinear.present);
	a.cmp.scaling_efficiency = 1.2;		/* the fixture: micro batch 64 against 32 */
	analysis_verdict(&a);
	assert_true(a.cmp.superlinear.present);
	close_to(a.cmp.superlinear.efficiency, 1.2);
	assert_string_equal(a.cmp.superlinear.causes, "per-gpu-batch");
	assert_string_equal(a.cmp.reason, "a step takes 231.0 ms on 2 GPUs against 412.0 ms on 1 GPU: "
			    "1.78x faster, at least the expected 1.1x; 120% scaling efficiency is superlinear "
			    "(per-gpu-batch): see the superlinear finding");
	assert_string_equal(evidence_superlinear_message(&a), "run 'b200-2gpu-ddp' scales superlinearly "
			    "against 'b200-1gpu': a scaling efficiency of 120% (above 105%) is implausible until "
			    "explained; what explains it: per-gpu-batch (micro batch 64 on b200-1gpu against 32 on "
			    "b200-2gpu-ddp); checked, not holding: baseline-near-capacity (b200-1gpu GPU 0 peaked "
			    "at 151.3 GB of 180 GB nominal (191.5 GB / 178.4 GiB reported), 79%), "
			    "host-bound-baseline (b200-1gpu's slowest GPU idle 20.0 "
			    "ms of its 412.0 ms mean step, 4.9%), baseline-saved-memory (the ddp run b200-2gpu-ddp "
			    "peaks at 96.2 GB per GPU against 151.3 GB on b200-1gpu, -36%)");
	a.runs[1].micro_batch = 64;		/* none holds: check the measurement */
	analysis_verdict(&a);
	assert_string_equal(a.cmp.superlinear.causes, "");
	assert_non_null(strstr(a.cmp.reason, "is superlinear (no cause found): see the superlinear finding"));
	assert_non_null(strstr(evidence_superlinear_message(&a), "none of the causes checked holds: "));
	a.runs[0].gpu[0].peak_memory = (int64_t)(0.85 * FX_B200_TOTAL) + 1;
	analysis_verdict(&a);
	assert_string_equal(a.cmp.superlinear.causes, "baseline-near-capacity");
	a.runs[0].gpu[0].peak_memory = FX_BASE_PEAK;
	a.runs[0].gpu[0].step_s.idle = 0.1 * a.runs[0].gpu[0].mean_step_s;
	analysis_verdict(&a);
	assert_string_equal(a.cmp.superlinear.causes, "host-bound-baseline");
	a.runs[0].gpu[0].step_s.idle = 0.020;
	a.runs[0].gpu[0].peak_memory = 90000000000LL;	/* 96.2 GB per ddp GPU: +6.9% */
	analysis_verdict(&a);
	assert_string_equal(a.cmp.superlinear.causes, "baseline-saved-memory");
	a.runs[1].strategy = "fsdp";		/* not a replica: the baseline saved nothing to compare */
	analysis_verdict(&a);
	assert_string_equal(a.cmp.superlinear.causes, "");
	a.runs[1].strategy = "ddp";		/* all four, in their order */
	a.runs[1].micro_batch = 16;
	a.runs[0].gpu[0].peak_memory = 90000000000LL;
	a.runs[0].gpu[0].memory_total = 100000000000LL;
	a.runs[0].gpu[0].step_s.idle = 0.2;
	analysis_verdict(&a);
	assert_string_equal(a.cmp.superlinear.causes, "baseline-near-capacity per-gpu-batch "
			    "host-bound-baseline baseline-saved-memory");
	confound(&a, CF_GPU_MODEL, "H100 SXM", "B200", CFS_BLOCKING, "different GPUs");
	analysis_verdict(&a);			/* a blocking confound already explains the numbers */
	assert_false(a.cmp.superlinear.present);
	done(&a);
}

/* Weak evidence: what weakens a confirmed or refuted verdict, and nothing for an inconclusive one. */
static void weak_evidence_list(void **state)
{
	static const struct {
		enum weak_what what;
		const char *message;
	} want[] = {
		{ WEAK_STEPS, "few steady steps: 2 on b200-2gpu-ddp (3 make a plain verdict)" },
		{ WEAK_RANKS, "traces of 2 of the 4 ranks of b200-2gpu-ddp" },
		{ WEAK_UNVERIFIED, "precision of b200-1gpu unknown" },
		{ WEAK_SUPERLINEAR, "120% scaling efficiency is superlinear (per-gpu-batch)" },
		{ WEAK_DECLARED_ONLY, "global batch of b200-1gpu and b200-2gpu-ddp only from run.ini, in no "
		  "log or trace" },
	};
	struct analysis a;
	struct summary s;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	fresh(&a);
	analysis_verdict(&a);
	assert_int_equal(a.cmp.nweak, 0);
	a.runs[1].steps_measured = 2;
	a.runs[1].time_source = "trace";
	a.runs[1].gpus = 4;
	confound(&a, CF_PRECISION, NULL, "bf16", CFS_UNVERIFIED, "precision of b200-1gpu unknown");
	a.cmp.scaling_efficiency = 1.2;
	for (size_t i = 0; i < 2; i++) {	/* the global batch and GPU count come from run.ini alone, */
		a.runs[i].facts[FACT_GLOBAL_BATCH].from = a.runs[i].facts[FACT_GPUS].from = FACT_FROM_MANIFEST;
		a.runs[i].nmonitor = 0;		/* and no GPU monitor saw the GPUs */
	}
	analysis_verdict(&a);
	assert_int_equal(a.cmp.verdict, VERDICT_CONFIRMED);
	assert_int_equal(a.cmp.nweak, sizeof(want) / sizeof(want[0]));
	for (size_t i = 0; i < a.cmp.nweak; i++) {
		assert_int_equal(a.cmp.weak[i].what, want[i].what);
		assert_string_equal(a.cmp.weak[i].message, want[i].message);
	}
	f = open_memstream(&text, &len);	/* analyze: right under the verdict */
	assert_non_null(f);
	assert_int_equal(analysis_write_text(&a, f, NULL), 0);
	fclose(f);
	assert_non_null(strstr(text, "(per-gpu-batch): see the superlinear finding (not verified: precision "
			       "of b200-1gpu unknown)\n"
			       "Weak evidence: few steady steps: 2 on b200-2gpu-ddp (3 make a plain verdict); "
			       "traces of 2 of the 4 ranks of b200-2gpu-ddp; global batch of b200-1gpu "
			       "and b200-2gpu-ddp only from run.ini, in no log or trace\nCriterion: "));
	free(text);
	summary_build(&s, &a, NULL, 0);		/* page 1 and summary.md: the line after the verdict */
	assert_int_equal(s.lines[1].kind, SL_VERDICT);
	assert_int_equal(s.lines[2].kind, SL_WEAK);
	assert_non_null(strstr(s.lines[2].text, "Weak evidence: few steady steps"));
	summary_release(&s);
	a.hypothesis = HYP_GLOBAL_BATCH;	/* the GPU count is a fact of that criterion */
	a.runs[1].gpus = 2;			/* (the missing ranks' peak memory would be unknown) */
	a.runs[1].global_batch = 128;
	a.cmp.throughput_ratio = 1.8;
	a.cmp.scaling_efficiency = 0.9;
	analysis_verdict(&a);
	assert_int_equal(a.cmp.verdict, VERDICT_CONFIRMED);
	assert_string_equal(a.cmp.weak[a.cmp.nweak - 1].message, "GPU count of b200-1gpu and b200-2gpu-ddp "
			    "only from run.ini, in no log or trace");
	a.cmp.throughput_ratio = NAN;		/* inconclusive: nothing beside it */
	a.runs[0].samples_per_s = NAN;
	analysis_verdict(&a);
	assert_int_equal(a.cmp.verdict, VERDICT_INCONCLUSIVE);
	assert_int_equal(a.cmp.nweak, 0);
	summary_build(&s, &a, NULL, 0);
	for (size_t i = 0; i < s.n; i++)
		assert_int_not_equal(s.lines[i].kind, SL_WEAK);
	summary_release(&s);
	done(&a);
}

/* Unverified facts do not block, but the verdict's sentence names them. */
static void unverified_qualifies_the_verdict(void **state)
{
	struct analysis a;
	const char *base = "a step takes 231.0 ms on 2 GPUs against 412.0 ms on 1 GPU: 1.78x faster, "
			   "at least the expected 1.1x; 89% scaling efficiency";
	char want[512];

	(void)state;
	fresh(&a);
	confound(&a, CF_PRECISION, NULL, "bf16", CFS_UNVERIFIED, "the precision of one run is unknown");
	analysis_verdict(&a);
	assert_int_equal(a.cmp.verdict, VERDICT_CONFIRMED);
	snprintf(want, sizeof(want), "%s (not verified: precision of b200-1gpu unknown)", base);
	assert_string_equal(a.cmp.reason, want);
	confound(&a, CF_GLOBAL_BATCH, "64", NULL, CFS_UNVERIFIED, "the global batch of one run is unknown");
	confound(&a, CF_DATASET, "c4", "c4", CFS_WARNING, "a warning qualifies nothing here");
	analysis_verdict(&a);
	snprintf(want, sizeof(want), "%s (not verified: precision of b200-1gpu unknown; global batch of "
		 "b200-2gpu-ddp unknown)", base);
	assert_string_equal(a.cmp.reason, want);
	done(&a);
	fresh(&a);	/* both sides unknown, and the verdict is refuted */
	a.expected_speedup = 1.9;
	confound(&a, CF_PRECISION, NULL, NULL, CFS_UNVERIFIED, "the precision of both runs is unknown");
	analysis_verdict(&a);
	assert_string_equal(a.cmp.reason, "a step takes 231.0 ms on 2 GPUs against 412.0 ms on 1 GPU: a "
			    "speedup of 1.78x, below the expected 1.9x (not verified: precision of b200-1gpu "
			    "and b200-2gpu-ddp unknown)");
	done(&a);
}

/* hparam-sweep: independent-runs when n x samples/s of 1 GPU > the n-GPU run's, else distributed. */
static void sweep_answer(void **state)
{
	static const struct {
		double thr1, thrn;
		enum answer want;
	} cases[] = {
		{ 100, 199.99, ANSWER_INDEPENDENT }, { 100, 200, ANSWER_DISTRIBUTED },
		{ 100, 250, ANSWER_DISTRIBUTED }, { NAN, 200, ANSWER_UNKNOWN },
	};
	struct analysis a;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fresh(&a);
		a.question = Q_HPARAM_SWEEP;
		a.runs[0].samples_per_s = cases[i].thr1;
		a.runs[1].samples_per_s = cases[i].thrn;
		analysis_verdict(&a);
		if (a.cmp.answer != cases[i].want)
			fail_msg("%g and %g samples/s: %s, want %s", cases[i].thr1, cases[i].thrn,
				 answer_name(a.cmp.answer), answer_name(cases[i].want));
		done(&a);
	}
	fresh(&a);
	a.question = Q_HPARAM_SWEEP;
	a.runs[0].samples_per_s = 100;
	a.runs[1].samples_per_s = 150;
	analysis_verdict(&a);
	assert_string_equal(a.cmp.answer_reason, "2 independent 1-GPU runs process 200.0 samples/s "
			    "together (2 x 100.0), more than the 150.0 samples/s of one 2-GPU run");
	a.question = Q_SINGLE_CONFIG;
	analysis_verdict(&a);
	assert_int_equal(a.cmp.answer, ANSWER_NONE);
	done(&a);
	fresh(&a);		/* the 1-GPU run ran out of memory: only the distributed run trains */
	a.question = Q_HPARAM_SWEEP;
	a.runs[0].status = RUN_FAILED_OOM;
	a.runs[0].samples_per_s = NAN;
	analysis_verdict(&a);
	assert_int_equal(a.cmp.answer, ANSWER_DISTRIBUTED);
	done(&a);
}

static const struct {
	enum confound_what what;
	const char *b, *c;
} blockers[] = {
	{ CF_PRECISION, "bf16", "tf32" }, { CF_MICRO_BATCH, "64", "32" }, { CF_SEQ_LEN, "2048", "4096" },
	{ CF_DATASET, "c4", "wiki" }, { CF_MODEL, "llama-1b", "llama-3b" }, { CF_STEPS, "10", "2" },
};

/* The ids of the recommendations, in order, joined by spaces. */
static const char *rec_ids(const struct analysis *a, char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < a->nrecs && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, "%s%s", i ? " " : "", a->recs[i].id);
	return buf;
}

/*
 * The confounds that no run with one other setting removes: too few steps
 * (the short runs profiled again, with the fixture's 8 steady steps on
 * 1gpu: only the other), a build that does not target its GPU, two jobs.
 */
static void next_trial_for_steps_arch_and_workload(void **state)
{
	static struct family_share bonly[] = { { "attention", 0.17 } }, conly[] = { { "conv", 0.79 } };
	struct trial *t = trial_new();
	struct analysis a;

	(void)state;
	fresh(&a);
	a.runs[1].steps_measured = 1;
	confound(&a, CF_STEPS, "8", "1", CFS_BLOCKING, "run 'b200-2gpu-ddp' has 1 steady step");
	advise(&a, t);
	assert_string_equal(rec_text(&a, "next-trial"), "one trial answers the question: profile run "
			    "'b200-2gpu-ddp' again with 7 or more active steps (torch.profiler.schedule("
			    "wait=1, warmup=1, active=7)), so that each run has 3 or more steady steps, "
			    "holding the model, the batch, the precision and the GPU model constant");
	a.runs[0].steps_measured = 2;
	advise(&a, t);
	assert_string_equal(rec_text(&a, "next-trial"), "one trial answers the question: profile both "
			    "runs, 'b200-1gpu' and 'b200-2gpu-ddp', again with 7 or more active steps "
			    "(torch.profiler.schedule(wait=1, warmup=1, active=7)), so that each run has 3 "
			    "or more steady steps, holding the model, the batch, the precision and the GPU "
			    "model constant");
	done(&a);

	fresh(&a);
	a.runs[1].readiness.present = true;
	a.runs[1].readiness.verdict = "not-ready";
	a.runs[1].readiness.gpu = "B200";
	a.runs[1].readiness.isa = "sm_100";
	a.runs[1].readiness.arch_warning = "2gpu/train.log:3: B200 with CUDA capability sm_100 is not compatible";
	confound(&a, CF_GPU_ARCH, "ready", "not-ready", CFS_BLOCKING, "its PyTorch build does not target it");
	advise(&a, t);
	assert_true(readiness_blocks(&a.runs[1].readiness));
	assert_string_equal(rec_text(&a, "next-trial"), "one run answers the question: run "
			    "'b200-2gpu-ddp' again with a PyTorch built for its GPU (B200, sm_100), "
			    "holding the model, the batch, the precision and the GPU model constant, "
			    "and compare it with the other run");
	done(&a);

	fresh(&a);
	a.cmp.workload = (struct workload){ .basis = WL_KERNELS, .baseline_overlap = 0.78,
					    .candidate_overlap = 0.01, .baseline_only = bonly,
					    .nbaseline_only = 1, .candidate_only = conly, .ncandidate_only = 1 };
	confound(&a, CF_WORKLOAD, "78% overlap", "1% overlap", CFS_BLOCKING, "not one job");
	advise(&a, t);
	assert_string_equal(rec_text(&a, "next-trial"), "one run answers the question: run the same job "
			    "on both GPU counts (only 'b200-1gpu' ran attention (17% of its kernel time), "
			    "only 'b200-2gpu-ddp' ran conv (79%)): run 'b200-1gpu' again with the job "
			    "'b200-2gpu-ddp' ran (or 'b200-2gpu-ddp' with the job of 'b200-1gpu'), holding "
			    "the batch, the precision and the GPU model constant");
	a.cmp.workload = (struct workload){ .basis = WL_DECLARED };
	a.cmp.confounds[0].why = "model llama-1b against resnet50";
	advise(&a, t);
	assert_string_equal(rec_text(&a, "next-trial"), "one run answers the question: run the same job "
			    "on both GPU counts (the runs differ: model llama-1b against resnet50): run "
			    "'b200-1gpu' again with the job 'b200-2gpu-ddp' ran (or 'b200-2gpu-ddp' with the "
			    "job of 'b200-1gpu'), holding the batch, the precision and the GPU model constant");
	done(&a);
	trial_free(t);
}

/*
 * A transport fault in a sweep: independent runs answer the sweep first,
 * then the transport fix; in a single-config trial the run's own fault first.
 */
static void sweep_first_against_a_transport_fault(void **state)
{
	struct trial *t = trial_new();
	struct analysis a;
	char ids[256];

	(void)state;
	fresh(&a);
	a.question = Q_HPARAM_SWEEP;
	a.runs[1].samples_per_s = 64 / 0.412;	/* 50% efficiency */
	a.runs[1].transport = "net-socket";
	analysis_verdict(&a);
	advise(&a, t);
	assert_string_equal(rec_ids(&a, ids, sizeof(ids)), "two-independent-runs fix-nccl-transport fits-mi300x rental-window");
	a.question = Q_SINGLE_CONFIG;
	analysis_verdict(&a);
	advise(&a, t);
	assert_string_equal(rec_ids(&a, ids, sizeof(ids)), "fix-nccl-transport two-independent-runs fits-mi300x rental-window");
	done(&a);
	trial_free(t);
}

/* A blocking confound other than global_batch: inconclusive, answer unknown, no advice but repeat-trial. */
static void blocked_comparison_gives_no_advice(void **state)
{
	struct trial *t = trial_new();
	struct analysis a;

	(void)state;
	for (size_t i = 0; i < sizeof(blockers) / sizeof(blockers[0]); i++) {
		fresh(&a);
		a.question = Q_HPARAM_SWEEP;
		a.runs[1].samples_per_s = 64 / 0.412;	/* 50% efficiency: would advise independent runs */
		a.runs[1].transport = "net-socket";	/* ... and a transport fix */
		a.cmp.throughput_ratio = 1.0;
		confound(&a, blockers[i].what, blockers[i].b, blockers[i].c, CFS_BLOCKING, "they differ");
		analysis_verdict(&a);
		advise(&a, t);
		assert_int_equal(a.cmp.verdict, VERDICT_INCONCLUSIVE);
		assert_int_equal(a.cmp.answer, ANSWER_UNKNOWN);
		assert_string_equal(a.recs[0].id, "repeat-trial");
		for (size_t r = 1; r < a.nrecs; r++)	/* only what would answer, never advice from the runs */
			assert_true(!strcmp(a.recs[r].id, "next-trial") ||
				    !strcmp(a.recs[r].id, "another-question"));
		assert_int_equal(a.cmp.noptions, 0);
		done(&a);
	}
	fresh(&a);
	confound(&a, CF_PRECISION, "bf16", "tf32", CFS_BLOCKING, "the matmuls ran in another format");
	advise(&a, t);
	assert_string_equal(a.recs[0].text, "no advice is drawn from this comparison while this "
			    "stands: the runs differ in precision (bf16 against tf32): the matmuls ran in "
			    "another format");
	assert_string_equal(rec_text(&a, "next-trial"), "one run answers the question: run 'b200-1gpu' again "
			    "with the precision tf32 (as 'b200-2gpu-ddp' ran), holding the model, the "
			    "batch, the sequence length and the GPU model constant, and compare "
			    "'b200-2gpu-ddp' with it");
	assert_null(rec(&a, "another-question"));
	done(&a);
	fresh(&a);		/* too few steps is no difference: the message names the run */
	confound(&a, CF_STEPS, "10", "1", CFS_BLOCKING, "run '2gpu' has 1 steady step of 3 profiled "
		 "(1 warm-up, 1 trailing); a step time needs 3 on each side: profile 7 or more "
		 "active steps");
	analysis_verdict(&a);
	assert_string_equal(a.cmp.reason, "run '2gpu' has 1 steady step of 3 profiled (1 warm-up, "
			    "1 trailing); a step time needs 3 on each side: profile 7 or more active steps");
	done(&a);
	trial_free(t);
}

/*
 * The trial: a global batch of 8 against 16 blocks the step-time
 * verdict, but samples per second still compare: 1.93x is 96% efficiency,
 * so no two-independent-runs (48% by step time would have advised them).
 */
static void global_batch_confound_still_advises_by_samples(void **state)
{
	struct trial *t = trial_new();
	struct analysis a;

	(void)state;
	fresh(&a);
	a.runs[0].global_batch = 8;
	a.runs[1].global_batch = 16;
	a.runs[0].samples_per_s = 196.0;
	a.runs[1].samples_per_s = 378.0;
	a.cmp.speedup = 0.96;
	a.cmp.scaling_efficiency = 0.48;
	a.cmp.throughput_ratio = 378.0 / 196.0;
	confound(&a, CF_GLOBAL_BATCH, "8", "16", CFS_BLOCKING, "a step processed a different number of examples");
	analysis_verdict(&a);
	advise(&a, t);
	assert_int_equal(a.cmp.verdict, VERDICT_INCONCLUSIVE);
	assert_null(rec(&a, "two-independent-runs"));
	assert_null(rec(&a, "repeat-trial"));
	assert_non_null(rec(&a, "fits-mi300x"));
	assert_int_equal(a.cmp.noptions, 2);
	a.question = Q_HPARAM_SWEEP;		/* a sweep: 2 x 196 > 378, so independent runs */
	analysis_verdict(&a);
	advise(&a, t);
	assert_int_equal(a.cmp.answer, ANSWER_INDEPENDENT);
	assert_non_null(rec(&a, "two-independent-runs"));
	assert_string_equal(rec_text(&a, "two-independent-runs"),
			    "run 2 independent 1-GPU jobs instead of one 2-GPU job: together they process "
			    "392.0 samples/s (2 x 196.0) against 378.0, a scaling efficiency of 96% by "
			    "samples per second, so 2 configurations finish in 96% of the time the 2-GPU "
			    "job needs for them one after another");
	done(&a);
	trial_free(t);
}

/* The sizing: the failed 1-GPU run's 83.9 GB plus a 3.5 GiB request, not the 83.6 GB sum. */
static void sizing_from_the_larger_need(void **state)
{
	struct trial *t = trial_new();
	struct analysis a;

	(void)state;
	fresh(&a);
	a.hypothesis = HYP_FEASIBILITY;
	a.memory_reserve_bytes = 8e9;
	a.runs[0].status = RUN_FAILED_OOM;
	a.runs[0].gpu[0].peak_memory = 83900000000LL;
	a.runs[0].failed_allocation = 7 * GIB / 2;
	a.runs[0].samples_per_s = NAN;
	a.runs[1].strategy = "pipeline";
	a.runs[1].gpu[0].peak_memory = 74900000000LL;
	a.runs[1].gpu[1].peak_memory = 8700000000LL;
	analysis_verdict(&a);
	advise(&a, t);
	assert_string_equal(rec_text(&a, "fits-h200"), "the job fits one H200 of 141 GB nominal "
			    "(150.8 GB / 140.4 GiB reported): it needs 87.7 GB, "
			    "the larger of the failed 1-GPU run's peak of 83.9 GB plus the 3.8 GB it failed to allocate, and "
			    "the 2-GPU pipeline run's memory model (the sum of its GPUs' peaks), 83.6 GB, "
			    "plus a reserve of 8 GB");
	/*
	 * a larger split: the sum 74.9 + 60 = 134.9 GB wins over 87.7; with the reserve, 142.9 GB,
	 * it fits the 150.8 GB an H200 reports (not its nominal 141); 74.9 + 70 + 8 = 152.9 does not
	 */
	a.runs[1].gpu[1].peak_memory = 60000000000LL;
	advise(&a, t);
	assert_non_null(strstr(rec_text(&a, "fits-h200"), "it needs 134.9 GB"));
	a.runs[1].gpu[1].peak_memory = 70000000000LL;
	advise(&a, t);
	assert_null(rec(&a, "fits-h200"));
	assert_non_null(strstr(rec_text(&a, "fits-mi300x"), "it needs 144.9 GB"));
	/* replicas: one GPU's peak (96.2 GB), not the sum of both (184.6 GB) */
	a.runs[1].strategy = "ddp";
	a.runs[1].gpu[0].peak_memory = FX_CAND_PEAK0;
	a.runs[1].gpu[1].peak_memory = FX_CAND_PEAK1;
	a.runs[0].failed_allocation = -1;
	advise(&a, t);
	assert_string_equal(rec_text(&a, "fits-h200"), "the job fits one H200 of 141 GB nominal "
			    "(150.8 GB / 140.4 GiB reported): it needs "
			    "96.2 GB, the larger of the failed 1-GPU run's peak of 83.9 GB (its log names no "
			    "failed allocation), and the 2-GPU ddp run's memory model (one GPU's peak: each "
			    "holds a replica), 96.2 GB, plus a reserve of 8 GB");
	done(&a);
	fresh(&a);		/* a completed 1-GPU run: its own peak is the need */
	advise(&a, t);
	assert_string_equal(rec_text(&a, "fits-mi300x"), "the job does not fit one H200 of 141 GB nominal "
			    "(150.8 GB / 140.4 GiB reported) but fits one MI300X of 192 GB nominal (205.8 GB / "
			    "191.7 GiB reported): it needs 151.3 GB, the 1-GPU run's peak, plus a reserve of 0 GB");
	done(&a);
	trial_free(t);
}

/* The advice for a completed 1-GPU run of peak bytes: its id, and its text in *text. */
static const char *fit_for(struct analysis *a, struct trial *t, int64_t peak, const char **text)
{
	static const char *const ids[] = { "fits-h200", "fits-mi300x", "needs-split" };

	a->runs[0].gpu[0].peak_memory = peak;
	advise(a, t);
	for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
		if (rec(a, ids[i])) {
			*text = rec_text(a, ids[i]);
			return ids[i];
		}
	*text = NULL;
	return NULL;
}

/*
 * One capacity rule: a job fits a GPU when it fits the memory the driver
 * reports (an H200 143771 MiB = 150754820096 bytes, an MI300X 205822885888),
 * not the nominal 141 and 192 GB; a GPU of the trial of that model gives its
 * own figure instead of the table's.
 */
static void fits_follow_the_reported_capacity(void **state)
{
	struct trial *t = trial_new();
	struct analysis a;
	const char *text;

	(void)state;
	fresh(&a);
	assert_string_equal(fit_for(&a, t, 145000000000LL, &text), "fits-h200");
	assert_string_equal(text, "the job fits one H200 of 141 GB nominal (150.8 GB / 140.4 GiB reported): "
			    "it needs 145.0 GB, the 1-GPU run's peak, plus a reserve of 0 GB");
	assert_string_equal(fit_for(&a, t, 150754820096LL, &text), "fits-h200");	/* to the byte */
	assert_string_equal(fit_for(&a, t, 150754820097LL, &text), "fits-mi300x");
	assert_string_equal(fit_for(&a, t, 152000000000LL, &text), "fits-mi300x");
	assert_string_equal(text, "the job does not fit one H200 of 141 GB nominal (150.8 GB / 140.4 GiB "
			    "reported) but fits one MI300X of 192 GB nominal (205.8 GB / 191.7 GiB reported): "
			    "it needs 152.0 GB, the 1-GPU run's peak, plus a reserve of 0 GB");
	a.memory_reserve_bytes = 8e9;		/* 145 + 8 = 153 GB: over the H200's 150.8 */
	assert_string_equal(fit_for(&a, t, 145000000000LL, &text), "fits-mi300x");
	a.memory_reserve_bytes = 0;
	assert_string_equal(fit_for(&a, t, 205822885888LL, &text), "fits-mi300x");
	assert_string_equal(fit_for(&a, t, 206000000000LL, &text), "needs-split");
	assert_string_equal(text, "the job fits neither one H200 of 141 GB nominal (150.8 GB / 140.4 GiB "
			    "reported) nor one MI300X of 192 GB nominal (205.8 GB / 191.7 GiB reported): it "
			    "needs 206.0 GB, the 1-GPU run's peak, plus a reserve of 0 GB");
	/* the trial's own H200 reported 149 GB: that, not the table's 150.8, is what 149.5 GB must fit */
	a.runs[1].gpu[1].name = "NVIDIA H200";
	a.runs[1].gpu[1].memory_total = 149000000000LL;
	assert_string_equal(fit_for(&a, t, 149500000000LL, &text), "fits-mi300x");
	assert_non_null(strstr(text, "does not fit one H200 of 141 GB nominal (149.0 GB / 138.8 GiB reported)"));
	assert_string_equal(fit_for(&a, t, 148000000000LL, &text), "fits-h200");
	done(&a);
	trial_free(t);
}

/* Options for 1 and 2 GPUs: per million samples without a target, days, window and cost with one. */
static void rental_options(void **state)
{
	struct trial *t = trial_new();
	struct srcpos pos = SRCPOS_LINE("t/trial.ini", 3);
	double thr1 = 64 / 0.412, thr2 = 64 / 0.231;
	struct analysis a;
	const struct rental_option *o;

	(void)state;
	fresh(&a);
	advise(&a, t);
	assert_int_equal(a.cmp.noptions, 2);
	o = &a.cmp.options[0];
	assert_int_equal(o->gpus, 1);
	close_to(o->samples_per_s, thr1);
	close_to(o->gpu_hours_per_million_samples, 1e6 / thr1 / 3600);
	assert_true(isnan(o->days_to_target) && isnan(o->cost) && isnan(o->cost_per_million_samples));
	assert_int_equal(o->window_days, -1);
	close_to(a.cmp.options[1].gpu_hours_per_million_samples, 2 * 1e6 / thr2 / 3600);
	assert_string_equal(rec_text(&a, "rental-window"), "without a target: on 1 GPU 1.79 GPU-hours used per "
			    "million samples; on 2 GPUs 2.01 GPU-hours used per million samples (set target_samples "
			    "or target_tokens in trial.ini for the days and the rental window)");
	fact_set_f64(&t->gpu_hour_price, 2.5, &pos);
	advise(&a, t);
	close_to(a.cmp.options[0].cost_per_million_samples, 2.5 * 1e6 / thr1 / 3600);
	assert_true(isnan(a.cmp.options[0].cost));
	/* 2e8 samples: 14.90 days on 1 GPU (a 30-day window), 8.35 days on 2 (a 30-day window too) */
	fact_set_i64(&t->target_samples, 200000000, &pos);
	advise(&a, t);
	o = &a.cmp.options[0];
	close_to(o->days_to_target, 2e8 / thr1 / 86400);
	assert_int_equal(o->window_days, 30);
	close_to(o->gpu_hours, 2e8 / thr1 / 3600);
	/* what is rented: 1 lot of 2 GPUs for 30 days, 1440 GPU-hours, 3600 at 2.50 */
	assert_int_equal(o->lots, 1);
	assert_int_equal(o->windows, 1);
	close_to(o->window_gpu_hours, 1440);
	close_to(o->cost, 3600);
	o = &a.cmp.options[1];
	close_to(o->days_to_target, 2e8 / thr2 / 86400);
	close_to(o->gpu_hours, 2 * 2e8 / thr2 / 3600);
	assert_int_equal(o->window_days, 30);
	close_to(o->cost, 3600);
	assert_string_equal(rec_text(&a, "rental-window"), "to 200,000,000 samples, at 2.50 per GPU-hour, in "
			    "lots of 2 GPUs with a 15% margin: on 1 GPU 14.9 days, a 30-day window of 1 lot "
			    "(1,440 GPU-hours rented, cost 3,600); on 2 GPUs 8.4 days, a 30-day window of 1 lot "
			    "(1,440 GPU-hours rented, cost 3,600)");
	/* 1e9 samples: 74.5 days on 1 GPU, 85.7 with the margin: 3 consecutive 30-day windows;
	   41.8 on 2, 48.0 with the margin: 2 */
	t->target_samples.v = 1000000000;
	advise(&a, t);
	assert_int_equal(a.cmp.options[0].window_days, 30);
	assert_int_equal(a.cmp.options[0].windows, 3);
	close_to(a.cmp.options[0].cost, 3 * 30 * 24 * 2 * 2.5);
	assert_int_equal(a.cmp.options[1].windows, 2);
	/* 4e7: 2.98 days on 1 GPU, 3.43 with the margin (a 7-day window); 1.67 on 2, 1.92 (3 days) */
	t->target_samples.v = 40000000;
	advise(&a, t);
	assert_int_equal(a.cmp.options[0].window_days, 7);
	assert_int_equal(a.cmp.options[1].window_days, 3);
	/* 8e7: 5.96 days on 1 GPU, 6.85 with the margin (7 days); 3.34 on 2, 3.84 (7 days) */
	t->target_samples.v = 80000000;
	advise(&a, t);
	assert_int_equal(a.cmp.options[0].window_days, 7);
	assert_int_equal(a.cmp.options[1].window_days, 7);
	/* a token target: days from tokens/s */
	t->target_samples.set = false;
	fact_set_i64(&t->target_tokens, 100000000000LL, &pos);
	advise(&a, t);
	close_to(a.cmp.options[0].days_to_target, 1e11 / a.runs[0].tokens_per_s / 86400);
	done(&a);
	trial_free(t);
}

/* analyze's first screen leads with the answer, then the verdict and its criterion. */
static void first_screen_leads_with_the_answer(void **state)
{
	struct analysis a;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	fresh(&a);
	a.question = Q_HPARAM_SWEEP;
	a.runs[0].samples_per_s = 100;
	a.runs[1].samples_per_s = 150;
	analysis_verdict(&a);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(analysis_write_text(&a, f, NULL), 0);
	fclose(f);
	*strstr(text, "\n\n") = '\0';		/* the first block */
	assert_string_equal(text,
			    "Trial: Does a second B200 halve the step time?\n"
			    "Answer (hparam-sweep): INDEPENDENT-RUNS: 2 independent 1-GPU runs process 200.0 "
			    "samples/s together (2 x 100.0), more than the 150.0 samples/s of one 2-GPU run\n"
			    "Hypothesis: step-time\n"
			    "Verdict: CONFIRMED: a step takes 231.0 ms on 2 GPUs against 412.0 ms on 1 GPU: "
			    "1.78x faster, at least the expected 1.1x; 89% scaling efficiency\n"
			    "Criterion: step-time: confirmed when the speedup (1-GPU step time / n-GPU step "
			    "time, medians) is at least 1.1 (expected_speedup) with no blocking confound");
	free(text);
	done(&a);
}

/* summary.md and the report's first page: the answer comes right after the title. */
static void summary_leads_with_the_answer(void **state)
{
	struct analysis a;
	struct summary s;
	struct buf md;

	(void)state;
	fresh(&a);
	a.question = Q_HPARAM_SWEEP;
	a.runs[0].samples_per_s = 100;
	a.runs[1].samples_per_s = 250;
	analysis_verdict(&a);
	summary_build(&s, &a, NULL, 0);
	assert_true(s.n > 3);
	assert_int_equal(s.lines[1].kind, SL_ANSWER);
	assert_string_equal(s.lines[1].text, "Answer: one distributed run \xe2\x80\x94 2 independent 1-GPU runs process "
			    "200.0 samples/s together (2 x 100.0), no more than the 250.0 samples/s of one 2-GPU run");
	assert_int_equal(s.lines[2].kind, SL_VERDICT);
	buf_init(&md, 0);
	summary_markdown(&s, NULL, NULL, NULL, 0, &md);
	buf_addch(&md, '\0');
	assert_non_null(strstr(md.data, "\n\n**Answer: one distributed run \xe2\x80\x94 2 independent"));
	assert_non_null(strstr(md.data, "\nCriterion: step-time: confirmed when"));
	buf_release(&md);
	summary_release(&s);
	a.question = Q_SINGLE_CONFIG;		/* no question: no answer line */
	analysis_verdict(&a);
	summary_build(&s, &a, NULL, 0);
	for (size_t i = 0; i < s.n; i++)
		assert_int_not_equal(s.lines[i].kind, SL_ANSWER);
	summary_release(&s);
	done(&a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(step_time_at_the_threshold),
		cmocka_unit_test(expected_speedup_missed),
		cmocka_unit_test(ratio_never_reads_as_the_threshold),
		cmocka_unit_test(global_batch_rules),
		cmocka_unit_test(feasibility_rules),
		cmocka_unit_test(failed_baseline_answers_feasibility),
		cmocka_unit_test(summary_step_time_needs_100_steps),
		cmocka_unit_test(superlinear_causes),
		cmocka_unit_test(weak_evidence_list),
		cmocka_unit_test(unverified_qualifies_the_verdict),
		cmocka_unit_test(sweep_answer),
		cmocka_unit_test(blocked_comparison_gives_no_advice),
		cmocka_unit_test(next_trial_for_steps_arch_and_workload),
		cmocka_unit_test(sweep_first_against_a_transport_fault),
		cmocka_unit_test(global_batch_confound_still_advises_by_samples),
		cmocka_unit_test(sizing_from_the_larger_need),
		cmocka_unit_test(fits_follow_the_reported_capacity),
		cmocka_unit_test(rental_options),
		cmocka_unit_test(first_screen_leads_with_the_answer),
		cmocka_unit_test(summary_leads_with_the_answer),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
