/*
 * compare: baseline against candidate (docs/analysis.md): speedup, efficiency,
 * confounds, the exact loss attribution, and the hypothesis verdict.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/thresholds.h"
#include "core/gpu.h"
#include "core/xalloc.h"

/* True when the last component of dir is name. */
static bool ends_with_dir(const char *dir, const char *name)
{
	size_t d = strlen(dir), n = strlen(name);

	return d >= n && !strcmp(dir + d - n, name) && (d == n || dir[d - n - 1] == '/');
}

/* Baseline: trial.ini's, else the run with the fewest GPUs (first in name order). */
static bool pick_runs(struct analysis *a, const struct trial *t)
{
	struct comparison *c = &a->cmp;
	size_t base = SIZE_MAX, cand = SIZE_MAX;

	for (size_t i = 0; t->baseline.v && i < a->nruns; i++)
		if (!strcmp(a->runs[i].name, t->baseline.v) || ends_with_dir(t->runs[i].dir, t->baseline.v))
			base = i;
	if (t->baseline.v && base == SIZE_MAX)
		analysis_finding(a, DIAG_WARNING, "baseline-missing", &t->baseline.src,
				 "trial.ini names baseline '%s', but no run has that name", t->baseline.v);
	for (size_t i = 0; base == SIZE_MAX && i < a->nruns; i++)
		if (a->runs[i].gpus > 0 && (base == SIZE_MAX || a->runs[i].gpus < a->runs[base].gpus))
			base = i;
	for (size_t i = 0; base != SIZE_MAX && i < a->nruns; i++) {
		if (i == base || a->runs[i].gpus <= 0)
			continue;
		if (cand == SIZE_MAX || a->runs[i].gpus > a->runs[cand].gpus)
			cand = i;
	}
	if (base == SIZE_MAX || cand == SIZE_MAX)
		return false;
	c->baseline = base;
	c->candidate = cand;
	return true;
}

/* How each kind of confound is named in sentences; whole: its why is a sentence on its own. */
static const struct {
	const char *label;
	bool whole;
} kinds[CF_COUNT] = {
	[CF_PRECISION] = { "precision", false }, [CF_GLOBAL_BATCH] = { "global batch", false },
	[CF_MICRO_BATCH] = { "micro batch", false }, [CF_SEQ_LEN] = { "sequence length", false },
	[CF_DATASET] = { "dataset", false }, [CF_MODEL] = { "model", false },
	[CF_STEPS] = { "steady steps", true }, [CF_GPU_MODEL] = { "GPU model", false },
};

/*
 * The confound's whole sentence (analysis.json `message`): the values
 * compared and why it matters; "not verified: ..." for an unknown fact.
 */
static const char *confound_message(struct analysis *a, const struct confound *c)
{
	if (kinds[c->what].whole)
		return c->why;
	if (c->severity == CFS_UNVERIFIED)
		return analysis_printf(a, "not verified: %s", c->why);
	if (c->baseline && c->candidate)
		return analysis_printf(a, "the runs differ in %s (%s against %s): %s",
				       kinds[c->what].label, c->baseline, c->candidate, c->why);
	return c->why;
}

static void add_confound(struct analysis *a, enum confound_what what, const char *b,
			 const char *c, enum confound_severity sev, const char *why)
{
	struct comparison *cmp = &a->cmp;
	struct confound *cf;

	xgrow(&cmp->confounds, &a->cap_confounds, cmp->nconfounds + 1, sizeof(*cmp->confounds));
	cf = &cmp->confounds[cmp->nconfounds++];
	*cf = (struct confound){
		.what = what, .baseline = b, .candidate = c, .severity = sev, .why = why,
	};
	cf->message = confound_message(a, cf);
}

static const char *num(struct analysis *a, int64_t v)
{
	return v < 0 ? NULL : analysis_printf(a, "%lld", (long long)v);
}

static void compare_int(struct analysis *a, enum confound_what w, int64_t b, int64_t c,
			enum confound_severity sev, const char *why)
{
	if (b >= 0 && c >= 0 && b != c)
		add_confound(a, w, num(a, b), num(a, c), sev, why);
}

static void compare_str(struct analysis *a, enum confound_what w, const char *b, const char *c,
			const char *why)
{
	if (b && c && strcmp(b, c))
		add_confound(a, w, b, c, CFS_BLOCKING, why);
}

/* "precision of 1gpu unknown", "GPU model of 1gpu and 2gpu unknown" */
static const char *unknown_of(struct analysis *a, enum confound_what w, const char *b,
			      const char *c)
{
	const struct comparison *cmp = &a->cmp;
	const char *bn = a->runs[cmp->baseline].name, *cn = a->runs[cmp->candidate].name;

	return analysis_printf(a, "%s of %s%s%s unknown", kinds[w].label, b ? "" : bn,
			       !b && !c ? " and " : "", c ? "" : cn);
}

/*
 * A fact the comparison rests on: blocking when both runs know it and it
 * differs; when either run does not know it, a confound of severity
 * `unknown` (unverified, or blocking where the hypothesis rests on it) whose
 * why names the run that lacks it, with that side NULL.
 */
static void compare_fact(struct analysis *a, enum confound_what w, const char *b, const char *c,
			 enum confound_severity unknown, const char *why)
{
	if (b && c) {
		if (strcmp(b, c))
			add_confound(a, w, b, c, CFS_BLOCKING, why);
		return;
	}
	add_confound(a, w, b, c, unknown, unknown == CFS_UNVERIFIED ? unknown_of(a, w, b, c) :
		     analysis_printf(a, "%s: %s", unknown_of(a, w, b, c), why));
}

/* A run's precision: the dominant matmul dtype, else the declared one (normalised); NULL. */
static const char *run_precision(const struct run_result *r)
{
	return r->precision_observed != DT_UNKNOWN ? dtype_name(r->precision_observed) :
	       r->precision_declared;
}

/* A run's first GPU with a name; NULL when no source names its GPUs. */
static const struct gpu_result *named_gpu(const struct run_result *r)
{
	for (size_t g = 0; g < r->ngpu; g++)
		if (r->gpu[g].name)
			return &r->gpu[g];
	return NULL;
}

/* The GPU table's short name for the GPU, else its name as the logs spell it; NULL. */
static const char *model_name(const struct gpu_result *g, const struct gpu_model **m)
{
	*m = g ? gpu_lookup(g->name, g->memory_total) : NULL;
	return *m ? (*m)->name : g ? g->name : NULL;
}

#define GPU_MODEL_WHY "the runs used different GPU models: the speedup mixes the second GPU with another GPU"

/*
 * The runs' GPU models (their first named GPUs) through the GPU table:
 * blocking when they are different rows (or, the table knowing neither,
 * different names); unverified when a run's GPU is unnamed, or only one of
 * the two is in the table, so that they cannot be compared.
 */
static void compare_gpu_models(struct analysis *a, const struct run_result *b,
			       const struct run_result *c)
{
	const struct gpu_result *gb = named_gpu(b), *gc = named_gpu(c);
	const struct gpu_model *mb, *mc;
	const char *bn = model_name(gb, &mb), *cn = model_name(gc, &mc);

	if (!gb || !gc)
		compare_fact(a, CF_GPU_MODEL, bn, cn, CFS_UNVERIFIED, GPU_MODEL_WHY);
	else if (gpu_models_differ(gb->name, gb->memory_total, gc->name, gc->memory_total))
		add_confound(a, CF_GPU_MODEL, bn, cn, CFS_BLOCKING, GPU_MODEL_WHY);
	else if (!mb != !mc)
		add_confound(a, CF_GPU_MODEL, bn, cn, CFS_UNVERIFIED,
			     analysis_printf(a, "GPU model of %s unknown (%s is not in the GPU table)",
					     a->runs[mb ? a->cmp.candidate : a->cmp.baseline].name,
					     mb ? gc->name : gb->name));
}

static void confounds(struct analysis *a, const struct trial *t, const struct run_result *b,
		      const struct run_result *c)
{
	const struct run_facts *bd = &t->runs[a->cmp.baseline].declared;
	const struct run_facts *cd = &t->runs[a->cmp.candidate].declared;
	enum hypothesis h = a->hypothesis;

	compare_fact(a, CF_PRECISION, run_precision(b), run_precision(c), CFS_UNVERIFIED,
		     "the matmuls ran in another number format: the speedup cannot be "
		     "attributed to the second GPU");
	if (h != HYP_GLOBAL_BATCH && h != HYP_FEASIBILITY)
		compare_fact(a, CF_GLOBAL_BATCH, num(a, b->global_batch), num(a, c->global_batch),
			     CFS_UNVERIFIED,
			     "a step processed a different number of examples: step times are not comparable");
	if (h == HYP_GLOBAL_BATCH && (b->global_batch < 0 || c->global_batch < 0))
		compare_fact(a, CF_GLOBAL_BATCH, num(a, b->global_batch), num(a, c->global_batch),
			     CFS_BLOCKING, "the global-batch hypothesis rests on it: add global_batch "
			     "to the run's run.ini");
	if (h == HYP_GLOBAL_BATCH)
		compare_int(a, CF_MICRO_BATCH, b->micro_batch, c->micro_batch, CFS_BLOCKING,
			    "each GPU processed a different batch: the throughput gain mixes batch size and hardware");
	compare_int(a, CF_SEQ_LEN, b->seq_len, c->seq_len, CFS_BLOCKING,
		    "the sequence length differs: a step did different work");
	compare_str(a, CF_DATASET, bd->dataset.v, cd->dataset.v, "the runs read different data");
	compare_str(a, CF_MODEL, bd->model.v, cd->model.v,
		    "the runs trained different models");
	compare_gpu_models(a, b, c);
	if ((c->steps_measured >= 0 && c->steps_measured < MIN_STEADY_STEPS) ||
	    (h != HYP_FEASIBILITY && b->steps_measured >= 0 && b->steps_measured < MIN_STEADY_STEPS))
		add_confound(a, CF_STEPS, num(a, b->steps_measured), num(a, c->steps_measured), CFS_BLOCKING,
			     analysis_printf(a, "fewer than %d steady steps: the step time is not reliable",
					     MIN_STEADY_STEPS));
}

/* n Cn - C1 ... with the slowest rank of each run: adds up to n mean_n - mean_1. */
static void attribute(struct comparison *cmp, const struct run_result *b, const struct run_result *c)
{
	const struct step_parts *p1, *pn;
	double n = c->gpus;

	cmp->attribution_s = (struct step_parts){ NAN, NAN, NAN, NAN, NAN, NAN };
	cmp->ideal_s = cmp->actual_s = NAN;
	if (!b->ngpu || !c->ngpu || isnan(b->gpu[b->slowest].mean_step_s) ||
	    isnan(c->gpu[c->slowest].mean_step_s))
		return;
	p1 = &b->gpu[b->slowest].step_s;
	pn = &c->gpu[c->slowest].step_s;
	cmp->attribution_s.compute = n * pn->compute - p1->compute;
	cmp->attribution_s.exposed_comm = n * pn->exposed_comm - p1->exposed_comm;
	cmp->attribution_s.memory = n * pn->memory - p1->memory;
	cmp->attribution_s.idle = n * pn->idle - p1->idle;
	cmp->ideal_s = b->gpu[b->slowest].mean_step_s;
	cmp->actual_s = n * c->gpu[c->slowest].mean_step_s;
}

static const struct confound *first_blocking(const struct comparison *c)
{
	for (size_t i = 0; i < c->nconfounds; i++)
		if (c->confounds[i].severity == CFS_BLOCKING)
			return &c->confounds[i];
	return NULL;
}

static bool under_capacity(const struct run_result *r)
{
	if (!r->ngpu)
		return false;
	for (size_t g = 0; g < r->ngpu; g++)
		if (r->gpu[g].peak_memory < 0 || r->gpu[g].memory_total <= 0 ||
		    r->gpu[g].peak_memory >= r->gpu[g].memory_total)
			return false;
	return true;
}

/* "1 GPU", "2 GPUs" */
static const char *gpus(struct analysis *a, int n)
{
	return analysis_printf(a, "%d GPU%s", n, n == 1 ? "" : "s");
}

static void verdict_step_time(struct analysis *a, const struct run_result *b,
			      const struct run_result *c)
{
	struct comparison *cmp = &a->cmp;

	if (isnan(cmp->speedup)) {
		cmp->verdict = VERDICT_INCONCLUSIVE;
		cmp->reason = "the step time of one of the runs is unknown";
	} else if (cmp->speedup > EXPECTED_SPEEDUP_DEFAULT) {
		cmp->verdict = VERDICT_CONFIRMED;
		cmp->reason = analysis_printf(a, "a step takes %.1f ms on %s against %.1f ms on %s: "
					      "%.2fx faster, %.0f%% scaling efficiency",
					      c->step_median_s * 1e3, gpus(a, c->gpus), b->step_median_s * 1e3,
					      gpus(a, b->gpus), cmp->speedup, 100 * cmp->scaling_efficiency);
	} else {
		cmp->verdict = VERDICT_REFUTED;
		cmp->reason = analysis_printf(a, "a step takes %.1f ms on %s against %.1f ms on %s: "
					      "a speedup of %.2fx, not above %.1fx",
					      c->step_median_s * 1e3, gpus(a, c->gpus), b->step_median_s * 1e3,
					      gpus(a, b->gpus), cmp->speedup, EXPECTED_SPEEDUP_DEFAULT);
	}
}

static void verdict_global_batch(struct analysis *a, const struct run_result *b,
				 const struct run_result *c)
{
	struct comparison *cmp = &a->cmp;
	int64_t want = b->global_batch > 0 && c->gpus > 0 && b->gpus > 0 ?
		       b->global_batch * c->gpus / b->gpus : -1;

	if (want < 0 || c->global_batch < 0 || isnan(cmp->throughput_ratio)) {
		cmp->verdict = VERDICT_INCONCLUSIVE;
		cmp->reason = "the global batch or the throughput of one of the runs is unknown";
	} else if (c->global_batch != want) {
		cmp->verdict = VERDICT_REFUTED;
		cmp->reason = analysis_printf(a, "the candidate ran a global batch of %lld, not %lld",
					      (long long)c->global_batch, (long long)want);
	} else if (cmp->throughput_ratio <= EXPECTED_SPEEDUP_DEFAULT || !under_capacity(c)) {
		cmp->verdict = VERDICT_REFUTED;
		cmp->reason = cmp->throughput_ratio <= EXPECTED_SPEEDUP_DEFAULT ?
			analysis_printf(a, "the global batch grew to %lld but throughput only by %.2fx",
					(long long)c->global_batch, cmp->throughput_ratio) :
			"a GPU of the candidate reached its memory capacity";
	} else {
		cmp->verdict = VERDICT_CONFIRMED;
		cmp->reason = analysis_printf(a, "%s ran a global batch of %lld at %.2fx the throughput, "
					      "every GPU under its memory capacity",
					      gpus(a, c->gpus), (long long)c->global_batch, cmp->throughput_ratio);
	}
}

static void verdict_feasibility(struct analysis *a, const struct run_result *b,
				const struct run_result *c)
{
	struct comparison *cmp = &a->cmp;
	bool base_failed = b->status == RUN_FAILED_OOM || b->steps_measured <= 0;

	if (!base_failed) {
		cmp->verdict = VERDICT_REFUTED;
		cmp->reason = analysis_printf(a, "the run was already possible on %s: it completed %lld steady steps",
					      gpus(a, b->gpus), (long long)b->steps_measured);
	} else if (c->status != RUN_COMPLETED || !under_capacity(c)) {
		cmp->verdict = VERDICT_REFUTED;
		cmp->reason = c->status != RUN_COMPLETED ?
			analysis_printf(a, "the run on %s did not complete (%s)", gpus(a, c->gpus),
					run_status_name(c->status)) :
			"the candidate completed, but a GPU's peak memory is unknown or at capacity";
	} else {
		cmp->verdict = VERDICT_CONFIRMED;
		cmp->reason = analysis_printf(a, "on %s the run %s; on %s it completed %lld steady steps "
					      "with every GPU under its memory capacity", gpus(a, b->gpus),
					      b->status == RUN_FAILED_OOM ? "ran out of memory" : "did not run",
					      gpus(a, c->gpus), (long long)c->steps_measured);
	}
}

void analysis_compare(struct analysis *a, const struct trial *t)
{
	struct comparison *cmp = &a->cmp;
	const struct run_result *b, *c;
	const struct confound *block;

	cmp->speedup = cmp->throughput_ratio = cmp->scaling_efficiency = NAN;
	cmp->attribution_s = (struct step_parts){ NAN, NAN, NAN, NAN, NAN, NAN };
	cmp->ideal_s = cmp->actual_s = NAN;
	if (!pick_runs(a, t)) {
		cmp->reason = "the trial needs two runs with different GPU counts to compare";
		return;
	}
	cmp->valid = true;
	b = &a->runs[cmp->baseline];
	c = &a->runs[cmp->candidate];
	if (b->step_median_s > 0 && c->step_median_s > 0)
		cmp->speedup = b->step_median_s / c->step_median_s;
	if (b->samples_per_s > 0 && c->samples_per_s > 0)
		cmp->throughput_ratio = c->samples_per_s / b->samples_per_s;
	cmp->scaling_efficiency = a->hypothesis == HYP_GLOBAL_BATCH ?
				  cmp->throughput_ratio * b->gpus / c->gpus :
				  cmp->speedup * b->gpus / c->gpus;
	confounds(a, t, b, c);
	attribute(cmp, b, c);
	if (a->hypothesis == HYP_UNSET) {
		cmp->verdict = VERDICT_NONE;
		cmp->reason = "trial.ini states no hypothesis (step-time, global-batch or feasibility)";
	} else if ((block = first_blocking(cmp)) && a->hypothesis != HYP_FEASIBILITY) {
		cmp->verdict = VERDICT_INCONCLUSIVE;
		cmp->reason = analysis_printf(a, "the runs differ in %s (%s against %s): %s",
					      confound_name(block->what),
					      block->baseline ? block->baseline : "unknown",
					      block->candidate ? block->candidate : "unknown", block->why);
	} else if (a->hypothesis == HYP_STEP_TIME) {
		verdict_step_time(a, b, c);
	} else if (a->hypothesis == HYP_GLOBAL_BATCH) {
		verdict_global_batch(a, b, c);
	} else {
		verdict_feasibility(a, b, c);
	}
}
