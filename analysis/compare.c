/*
 * compare: baseline against candidate (docs/analysis.md): speedup, efficiency,
 * confounds, the exact loss attribution, and the hypothesis verdict.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/evidence.h"
#include "analysis/facts.h"
#include "analysis/readiness.h"
#include "analysis/thresholds.h"
#include "analysis/workload.h"
#include "core/gpu.h"
#include "core/qty.h"
#include "core/xalloc.h"

/* True when the last component of dir is name. */
static bool ends_with_dir(const char *dir, const char *name)
{
	size_t d = strlen(dir), n = strlen(name);

	return d >= n && !strcmp(dir + d - n, name) && (d == n || dir[d - n - 1] == '/');
}

/*
 * Baseline: trial.ini's, else the run with the fewest GPUs (first in name
 * order); candidate: the run with the most GPUs among the others (first in
 * name order), else, beside a named baseline, the first other run whose GPU
 * count is unknown (the gpus confound then says so). Two runs of one GPU
 * count compare (n = 1), with a warning when trial.ini does not say which is
 * the baseline.
 */
static bool pick_runs(struct analysis *a, const struct trial *t)
{
	struct comparison *c = &a->cmp;
	size_t base = SIZE_MAX, cand = SIZE_MAX;
	bool named;

	for (size_t i = 0; t->baseline.v && i < a->nruns; i++)
		if (!strcmp(a->runs[i].name, t->baseline.v) || ends_with_dir(t->runs[i].dir, t->baseline.v))
			base = i;
	named = base != SIZE_MAX;
	if (t->baseline.v && base == SIZE_MAX)
		analysis_finding(a, DIAG_WARNING, "baseline-missing", &t->baseline.src,
				 "trial.ini names baseline '%s', but no run has that name", t->baseline.v);
	if (base == SIZE_MAX)	/* the fewest GPUs: the first such run in name order */
		for (size_t i = 0; i < a->nruns; i++)
			if (a->runs[i].gpus > 0 && (base == SIZE_MAX || a->runs[i].gpus < a->runs[base].gpus))
				base = i;
	for (size_t i = 0; base != SIZE_MAX && i < a->nruns; i++) {
		if (i == base || a->runs[i].gpus <= 0)
			continue;
		if (cand == SIZE_MAX || a->runs[i].gpus > a->runs[cand].gpus)
			cand = i;
	}
	for (size_t i = 0; named && cand == SIZE_MAX && i < a->nruns; i++)
		if (i != base)
			cand = i;
	if (base == SIZE_MAX || cand == SIZE_MAX)
		return false;
	if (!named && a->runs[cand].gpus == a->runs[base].gpus)
		analysis_finding(a, DIAG_WARNING, "baseline-ambiguous", NULL,
				 "trial.ini names no baseline and runs '%s' and '%s' both have %d GPUs: '%s', "
				 "the first in name order, is taken as the baseline; name it in trial.ini "
				 "(baseline = %s) to say so", a->runs[base].name, a->runs[cand].name,
				 a->runs[base].gpus, a->runs[base].name, a->runs[base].name);
	c->baseline = base;
	c->candidate = cand;
	return true;
}

/* "1gpu/run.ini": where run r declares its GPU count */
static const char *manifest_of(const struct run_result *r)
{
	return r->manifest ? r->manifest : "its run.ini";
}

/*
 * Why no two runs compare: the runs whose GPU count is unknown and the key
 * that gives it, else too few runs.
 */
static const char *no_pair(struct analysis *a)
{
	const char *runs = NULL, *where = NULL;
	size_t n = 0;

	for (size_t i = 0; i < a->nruns; i++) {
		if (a->runs[i].gpus > 0)
			continue;
		runs = analysis_printf(a, "%s%s'%s'", runs ? runs : "", runs ? " and " : "", a->runs[i].name);
		where = analysis_printf(a, "%s%s%s", where ? where : "", where ? " and " : "",
					manifest_of(&a->runs[i]));
		n++;
	}
	if (!n)
		return "the trial needs two runs with different GPU counts to compare";
	return analysis_printf(a, "the trial needs two runs with different GPU counts to compare: the GPU "
			       "count of %s is unknown (no trace or log says it); set gpus = N in %s", runs, where);
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
	[CF_GPU_ARCH] = { "GPU architecture support", true },
	[CF_WORKLOAD] = { "workload", false },
	[CF_GPUS] = { "GPU count", true },
};

/* "GPU model", "global batch": how sentences name a confound (confound_name() is the JSON id). */
const char *confound_label(enum confound_what w)
{
	return (unsigned)w < CF_COUNT && kinds[w].label ? kinds[w].label : confound_name(w);
}

bool confound_whole(enum confound_what w)
{
	return (unsigned)w < CF_COUNT && kinds[w].whole;
}

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

/* Two names (model, dataset) that do not agree in any spelling: blocking. */
static void compare_str(struct analysis *a, enum confound_what w, const char *b, const char *c,
			const char *why)
{
	if (b && c && !fact_names_agree(b, c))
		add_confound(a, w, b, c, CFS_BLOCKING, why);
}

/* "run '2gpu' has 1 steady step of 3 profiled (1 warm-up, 1 trailing)" */
static const char *steady_count(struct analysis *a, const struct run_result *r)
{
	int64_t n = r->steps_measured > 0 ? r->steps_measured : 0;

	if (r->steps_total <= 0)
		return analysis_printf(a, "run '%s' has no profiled step", r->name);
	return analysis_printf(a, "run '%s' has %lld steady step%s of %lld profiled (%lld warm-up, "
			       "%lld trailing)", r->name, (long long)n, n == 1 ? "" : "s",
			       (long long)r->steps_total, (long long)r->steps_warmup,
			       (long long)r->steps_trailing);
}

/*
 * Steady steps needed (docs/analysis.md): MIN_STEADY_STEPS on each side (the
 * baseline's not under feasibility, where it may have failed, nor when it
 * failed: more steps would not make it run); exactly WARN_STEADY_STEPS
 * qualify the verdict; fewer block it. A run without steps has none.
 */
static void steps_confound(struct analysis *a, const struct run_result *b,
			   const struct run_result *c, enum hypothesis h)
{
	int64_t nb = b->steps_measured > 0 ? b->steps_measured : 0;
	int64_t nc = c->steps_measured > 0 ? c->steps_measured : 0;
	bool base = h != HYP_FEASIBILITY && !run_failed(b) && nb < nc;	/* the baseline has fewer */
	const struct run_result *few = base ? b : c;
	int64_t n = base ? nb : nc;

	if (n >= MIN_STEADY_STEPS)
		return;
	add_confound(a, CF_STEPS, num(a, nb), num(a, nc),
		     n >= WARN_STEADY_STEPS ? CFS_WARNING : CFS_BLOCKING,
		     analysis_printf(a, "%s; a step time needs %d on each side: profile %d or more "
				     "active steps (torch.profiler.schedule(wait=1, warmup=1, active=%d))",
				     steady_count(a, few), MIN_STEADY_STEPS, PROFILE_ACTIVE_STEPS,
				     PROFILE_ACTIVE_STEPS));
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

/* A run whose build does not target its GPU (readiness.c): no verdict stands on it. */
static void arch_confound(struct analysis *a, const struct run_result *b, const struct run_result *c)
{
	const struct run_result *bad = readiness_blocks(&b->readiness) ? b :
				       readiness_blocks(&c->readiness) ? c : NULL;

	if (bad)
		add_confound(a, CF_GPU_ARCH, b->readiness.verdict, c->readiness.verdict, CFS_BLOCKING,
			     analysis_printf(a, "run '%s' ran on a GPU %s does not "
					     "target (%s, %s): its kernels did not run as they would on a "
					     "build for that GPU", bad->name, bad->readiness.arch_warning ?
					     "its PyTorch build" : "a compiled extension in its directory",
					     bad->readiness.gpu ? bad->readiness.gpu : "unknown",
					     bad->readiness.isa ? bad->readiness.isa : "architecture unknown"));
}

/*
 * Two runs that are not one job (workload.c): blocking, it leads the
 * confounds, since it explains every other difference between the runs.
 */
static void workload_confound(struct analysis *a, const struct trial *t)
{
	struct comparison *cmp = &a->cmp;
	struct confound cf;

	if (!workload_compare(a, t, &cf))
		return;
	add_confound(a, cf.what, cf.baseline, cf.candidate, cf.severity, cf.why);
	if (cf.severity != CFS_BLOCKING)
		return;
	cf = cmp->confounds[cmp->nconfounds - 1];
	memmove(cmp->confounds + 1, cmp->confounds, (cmp->nconfounds - 1) * sizeof(*cmp->confounds));
	cmp->confounds[0] = cf;
}

/*
 * A GPU count unknown on either side leaves n = c / b unknown: blocking
 * where the criterion rests on n (step-time, global-batch), unverified
 * under feasibility, whose criterion needs no n.
 */
static void gpus_confound(struct analysis *a, const struct run_result *b, const struct run_result *c)
{
	const struct run_result *u[2];
	size_t n = 0;
	const char *why;

	if (b->gpus <= 0)
		u[n++] = b;
	if (c->gpus <= 0)
		u[n++] = c;
	if (!n)
		return;
	why = n == 1 ?
	      analysis_printf(a, "GPU count of %s unknown: no trace or log says it; set gpus = N in %s",
			      u[0]->name, manifest_of(u[0])) :
	      analysis_printf(a, "GPU count of %s and %s unknown: no trace or log says them; set gpus = N "
			      "in %s and %s", u[0]->name, u[1]->name, manifest_of(u[0]), manifest_of(u[1]));
	add_confound(a, CF_GPUS, num(a, b->gpus), num(a, c->gpus),
		     a->hypothesis == HYP_FEASIBILITY ? CFS_UNVERIFIED : CFS_BLOCKING, why);
}

static void confounds(struct analysis *a, const struct trial *t, const struct run_result *b,
		      const struct run_result *c)
{
	enum hypothesis h = a->hypothesis;

	gpus_confound(a, b, c);
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
	compare_str(a, CF_DATASET, b->facts[FACT_DATASET].text, c->facts[FACT_DATASET].text,
		    "the runs read different data");
	compare_str(a, CF_MODEL, b->facts[FACT_MODEL].text, c->facts[FACT_MODEL].text,
		    "the runs trained different models");
	compare_gpu_models(a, b, c);
	steps_confound(a, b, c, h);
	arch_confound(a, b, c);
	workload_confound(a, t);
}

double comparison_gpu_ratio(const struct analysis *a)
{
	const struct comparison *cmp = &a->cmp;
	int32_t b, c;

	if (!cmp->valid || cmp->baseline >= a->nruns || cmp->candidate >= a->nruns)
		return NAN;
	b = a->runs[cmp->baseline].gpus;
	c = a->runs[cmp->candidate].gpus;
	return b > 0 && c > 0 ? (double)c / b : NAN;
}

double comparison_host_wait(const struct analysis *a)
{
	const struct run_result *b, *c;
	double n = comparison_gpu_ratio(a);

	if (!isfinite(n))
		return NAN;
	b = &a->runs[a->cmp.baseline];
	c = &a->runs[a->cmp.candidate];
	if (!b->ngpu || !c->ngpu || b->slowest >= b->ngpu || c->slowest >= c->ngpu)
		return NAN;
	return n * c->gpu[c->slowest].step_s.idle_host - b->gpu[b->slowest].step_s.idle_host;
}

bool comparison_host_bound(const struct analysis *a)
{
	const struct step_parts *l = &a->cmp.attribution_s;

	return l->idle > 0 && l->idle >= fabs(l->compute) && l->idle >= fabs(l->exposed_comm) &&
	       l->idle >= fabs(l->memory) && comparison_host_wait(a) > ADVICE_HOST_IDLE_SHARE * l->idle;
}

/*
 * n Cc - Cb ... with the slowest rank of each run, n = c / b GPUs: adds up to
 * n mean_c - mean_b, so a 4-GPU run whose GPUs each compute half of what a
 * 2-GPU run's did loses no compute.
 */
static void attribute(struct analysis *a, const struct run_result *b, const struct run_result *c)
{
	struct comparison *cmp = &a->cmp;
	const struct step_parts *p1, *pn;
	double n = comparison_gpu_ratio(a);

	cmp->attribution_s = (struct step_parts){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN,
						   NAN, NAN, NAN };
	cmp->ideal_s = cmp->actual_s = NAN;
	if (!b->ngpu || !c->ngpu || isnan(n) || isnan(b->gpu[b->slowest].mean_step_s) ||
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

const struct confound *comparison_first_blocking(const struct comparison *c)
{
	for (size_t i = 0; i < c->nconfounds; i++)
		if (c->confounds[i].severity == CFS_BLOCKING)
			return &c->confounds[i];
	return NULL;
}

const struct confound *comparison_blocked(const struct comparison *c)
{
	for (size_t i = 0; i < c->nconfounds; i++)
		if (c->confounds[i].severity == CFS_BLOCKING && c->confounds[i].what != CF_GLOBAL_BATCH &&
		    c->confounds[i].what != CF_GPUS)
			return &c->confounds[i];
	return NULL;
}

const char *confound_sentence(struct analysis *a, const struct confound *cf)
{
	return cf->message ? cf->message : confound_message(a, cf);
}

const char *answer_name(enum answer v)
{
	static const char *const names[] = {
		[ANSWER_NONE] = NULL, [ANSWER_INDEPENDENT] = "independent-runs",
		[ANSWER_DISTRIBUTED] = "distributed", [ANSWER_UNKNOWN] = "unknown",
	};

	return (unsigned)v < sizeof(names) / sizeof(names[0]) ? names[v] : NULL;
}

/* "1 GPU", "2 GPUs", "an unknown number of GPUs" */
static const char *gpus(struct analysis *a, int n)
{
	if (n <= 0)
		return "an unknown number of GPUs";
	return analysis_printf(a, "%d GPU%s", n, n == 1 ? "" : "s");
}

/*
 * A ratio as "1.73x", with as many decimals (up to 6) as it takes not to
 * read as the threshold it was compared with: 1.0999 against 1.1 is
 * "1.0999x", never "1.10x, below 1.1x".
 */
static const char *ratio(struct analysis *a, double v, double threshold)
{
	int dec = 2;

	while (dec < 6 && v != threshold &&
	       !strcmp(analysis_printf(a, "%.*f", dec, v), analysis_printf(a, "%.*f", dec, threshold)))
		dec++;
	return analysis_printf(a, "%.*fx", dec, v);
}

/* Inconclusive, with what the verdict lacks. */
static void lacking(struct analysis *a, const struct gaps *g)
{
	a->cmp.verdict = VERDICT_INCONCLUSIVE;
	a->cmp.reason = gaps_text(a, g);
}

static void refuted(struct analysis *a, const char *reason)
{
	a->cmp.verdict = VERDICT_REFUTED;
	a->cmp.reason = reason;
}

/* step-time rests on both step times, measured over steps a verdict can stand on. */
static void verdict_step_time(struct analysis *a, const struct run_result *b,
			      const struct run_result *c)
{
	struct comparison *cmp = &a->cmp;
	struct gaps g = { 0 };
	const char *steps;

	evidence_step_time(a, b, &g);
	evidence_step_time(a, c, &g);
	if (g.n || isnan(cmp->speedup)) {
		lacking(a, &g);
		if (!cmp->reason)
			cmp->reason = "the step time of one of the runs is unknown";
		return;
	}
	steps = analysis_printf(a, "a step takes %s on %s against %s on %s",
				analysis_qty(a, qty_duration, c->step_median_s), gpus(a, c->gpus),
				analysis_qty(a, qty_duration, b->step_median_s), gpus(a, b->gpus));
	if (cmp->speedup >= a->expected_speedup) {
		cmp->verdict = VERDICT_CONFIRMED;
		cmp->reason = analysis_printf(a, "%s: %s faster, at least the expected %gx; %s", steps,
					      ratio(a, cmp->speedup, a->expected_speedup), a->expected_speedup,
					      evidence_efficiency_text(a));
	} else {
		refuted(a, analysis_printf(a, "%s: a speedup of %s, below the expected %gx", steps,
					   ratio(a, cmp->speedup, a->expected_speedup), a->expected_speedup));
	}
}

/*
 * global-batch rests on both global batches, both throughputs and every
 * candidate GPU's peak memory and capacity. A condition measured false
 * refutes it whatever else is unknown; otherwise anything unknown leaves it
 * inconclusive.
 */
static void verdict_global_batch(struct analysis *a, const struct run_result *b,
				 const struct run_result *c)
{
	struct comparison *cmp = &a->cmp;
	struct gaps g = { 0 };
	bool batches = evidence_global_batch(a, b, &g) & evidence_global_batch(a, c, &g);
	bool rates = evidence_throughput(a, b, &g) & evidence_throughput(a, c, &g);
	int64_t want = batches && c->gpus > 0 && b->gpus > 0 ? b->global_batch * c->gpus / b->gpus : -1;
	int full = evidence_at_capacity(c);

	evidence_memory(a, c, &g);
	if (want >= 0 && c->global_batch != want)
		refuted(a, analysis_printf(a, "the candidate ran a global batch of %lld, not %lld",
					   (long long)c->global_batch, (long long)want));
	else if (rates && cmp->throughput_ratio < a->expected_speedup)
		refuted(a, analysis_printf(a, "the global batch grew to %lld but throughput only by %s, below "
					   "the expected %gx", (long long)c->global_batch,
					   ratio(a, cmp->throughput_ratio, a->expected_speedup), a->expected_speedup));
	else if (full >= 0)
		refuted(a, evidence_capacity_text(a, c, full));
	else if (g.n || want < 0)
		lacking(a, &g);
	else {
		cmp->verdict = VERDICT_CONFIRMED;
		cmp->reason = analysis_printf(a, "%s ran a global batch of %lld at %s the throughput (expected "
					      "%gx), every GPU under its memory capacity", gpus(a, c->gpus),
					      (long long)c->global_batch,
					      ratio(a, cmp->throughput_ratio, a->expected_speedup), a->expected_speedup);
	}
	if (cmp->verdict == VERDICT_INCONCLUSIVE && !cmp->reason)
		cmp->reason = "the GPU count of one of the runs is unknown";
}

/*
 * The baseline's outcome: 1 it failed (out of memory, an error, or no
 * steady step: it did not run), 0 it ran, -1 unknown (nothing says how it
 * ended: a run of memory timelines only).
 */
static int baseline_failed(const struct run_result *b)
{
	if (run_failed(b) || (b->steps_measured <= 0 && b->status != RUN_UNKNOWN))
		return 1;
	return b->steps_measured > 0 ? 0 : -1;
}

/*
 * feasibility rests on the baseline's outcome, the candidate's status and
 * every candidate GPU's peak memory and capacity; as global-batch, a
 * condition measured false refutes it whatever else is unknown.
 */
static void verdict_feasibility(struct analysis *a, const struct run_result *b,
				const struct run_result *c)
{
	struct comparison *cmp = &a->cmp;
	struct gaps g = { 0 };
	int base_failed = baseline_failed(b), full = evidence_at_capacity(c);
	const char *remedy = "keep the run's training log to its end (its error, if it failed)";

	if (base_failed < 0)
		gaps_add(&g, analysis_printf(a, "whether run '%s' ran is unknown", b->name), remedy);
	if (c->status == RUN_UNKNOWN)
		gaps_add(&g, analysis_printf(a, "whether run '%s' completed is unknown", c->name), remedy);
	evidence_memory(a, c, &g);
	if (!base_failed)
		refuted(a, analysis_printf(a, "the run was already possible on %s: it completed %lld steady steps",
					   gpus(a, b->gpus), (long long)b->steps_measured));
	else if (c->status != RUN_COMPLETED && c->status != RUN_UNKNOWN)
		refuted(a, analysis_printf(a, "the run on %s did not complete (%s)", gpus(a, c->gpus),
					   run_status_name(c->status)));
	else if (full >= 0)
		refuted(a, evidence_capacity_text(a, c, full));
	else if (g.n)
		lacking(a, &g);
	else {
		cmp->verdict = VERDICT_CONFIRMED;
		cmp->reason = analysis_printf(a, "on %s the run %s; on %s it completed %lld steady steps "
					      "with every GPU under its memory capacity", gpus(a, b->gpus),
					      b->status == RUN_FAILED_OOM ? "ran out of memory" : "did not run",
					      gpus(a, c->gpus), (long long)c->steps_measured);
	}
}

/*
 * The speedup's terms: "1-GPU step time / n-GPU step time" against one GPU,
 * else the runs' own counts ("2-GPU step time / 4-GPU step time").
 */
static const char *speedup_terms(struct analysis *a, const struct run_result *b,
				 const struct run_result *c)
{
	if (b->gpus == 1 && c->gpus > 0)
		return "1-GPU step time / n-GPU step time";
	if (b->gpus <= 0 || c->gpus <= 0)
		return "baseline step time / candidate step time";
	if (b->gpus == c->gpus)
		return analysis_printf(a, "baseline step time / candidate step time, %s each",
				       gpus(a, b->gpus));
	return analysis_printf(a, "%d-GPU step time / %d-GPU step time", b->gpus, c->gpus);
}

static const char *criterion_step_time(struct analysis *a, const struct run_result *b,
				       const struct run_result *c)
{
	return analysis_printf(a, "step-time: confirmed when the speedup (%s, medians) is at least %g "
			       "(expected_speedup) with no blocking confound", speedup_terms(a, b, c),
			       a->expected_speedup);
}

static const char *criterion_global_batch(struct analysis *a, const struct run_result *b,
					  const struct run_result *c)
{
	const char *times = b->gpus > 0 && c->gpus > 0 ? analysis_printf(a, "%d/%d", c->gpus, b->gpus) :
			    "n (unknown: a GPU count is unknown)";

	return analysis_printf(a, "global-batch: confirmed when %s run %s times the global batch with "
			       "a throughput ratio of at least %g (expected_speedup) and every GPU's peak "
			       "memory under its capacity, with no blocking confound", gpus(a, c->gpus),
			       times, a->expected_speedup);
}

static const char *criterion_feasibility(struct analysis *a, const struct run_result *b,
					 const struct run_result *c)
{
	return analysis_printf(a, "feasibility: confirmed when the run failed on %s (out of memory, or "
			       "no steady step) and completed its steps on %s with every GPU's peak "
			       "memory under its capacity", gpus(a, b->gpus), gpus(a, c->gpus));
}

/* What each hypothesis is judged by. */
static const struct {
	void (*verdict)(struct analysis *a, const struct run_result *b, const struct run_result *c);
	const char *(*criterion)(struct analysis *a, const struct run_result *b, const struct run_result *c);
	bool blockable;		/* a blocking confound makes it inconclusive */
} rules[] = {
	[HYP_STEP_TIME] = { verdict_step_time, criterion_step_time, true },
	[HYP_GLOBAL_BATCH] = { verdict_global_batch, criterion_global_batch, true },
	[HYP_FEASIBILITY] = { verdict_feasibility, criterion_feasibility, false },
};

/* "precision of 1gpu unknown": what an unverified confound leaves open. */
static const char *unverified_text(struct analysis *a, const struct confound *cf)
{
	const struct comparison *cmp = &a->cmp;
	const char *b = a->runs[cmp->baseline].name, *c = a->runs[cmp->candidate].name;
	const char *what = kinds[cf->what].label;

	if (!cf->baseline && !cf->candidate)
		return analysis_printf(a, "%s of %s and %s unknown", what, b, c);
	if (!cf->baseline || !cf->candidate)
		return analysis_printf(a, "%s of %s unknown", what, cf->baseline ? c : b);
	return cf->why;		/* both known, yet not comparable: its why says why */
}

/*
 * A verdict's sentence (confirmed or refuted) ends with what could not be
 * verified: "(not verified: precision of 1gpu unknown)".
 */
static void qualify(struct analysis *a)
{
	struct comparison *cmp = &a->cmp;
	const char *open = NULL;

	for (size_t i = 0; i < cmp->nconfounds; i++) {
		if (cmp->confounds[i].severity != CFS_UNVERIFIED)
			continue;
		open = analysis_printf(a, "%s%s%s", open ? open : "", open ? "; " : "",
				       unverified_text(a, &cmp->confounds[i]));
	}
	if (open && cmp->reason &&	/* an inconclusive verdict's reason is its blocking confound */
	    (cmp->verdict == VERDICT_CONFIRMED || cmp->verdict == VERDICT_REFUTED))
		cmp->reason = analysis_printf(a, "%s (not verified: %s)", cmp->reason, open);
}

/*
 * A confirmed or refuted verdict over a superlinear efficiency says so in
 * its sentence (step-time's confirmation already gives the efficiency).
 */
static void carry_superlinear(struct analysis *a)
{
	struct comparison *cmp = &a->cmp;

	if (!cmp->superlinear.present || !cmp->reason || strstr(cmp->reason, "superlinear") ||
	    (cmp->verdict != VERDICT_CONFIRMED && cmp->verdict != VERDICT_REFUTED))
		return;
	cmp->reason = analysis_printf(a, "%s; %s", cmp->reason, evidence_efficiency_text(a));
}

/*
 * question = hparam-sweep: n = c / b independent b-GPU runs against one
 * c-GPU run, by samples per second.
 */
static void answer(struct analysis *a, const struct run_result *b, const struct run_result *c)
{
	struct comparison *cmp = &a->cmp;
	const struct confound *block = comparison_blocked(cmp);
	double n = comparison_gpu_ratio(a);	/* NaN with a GPU count unknown */

	if (a->question != Q_HPARAM_SWEEP)
		return;
	cmp->answer = ANSWER_UNKNOWN;
	if (block) {
		cmp->answer_reason = analysis_printf(a, "samples per second cannot be compared: %s",
						     confound_sentence(a, block));
	} else if (b->status == RUN_FAILED_OOM && c->samples_per_s > 0) {
		cmp->answer = ANSWER_DISTRIBUTED;
		cmp->answer_reason = analysis_printf(a, "the job ran out of memory on %s: only the %s run, at "
						     "%s, can train it", gpus(a, b->gpus),
						     gpus(a, c->gpus), analysis_rate(a, c->samples_per_s, "samples"));
	} else if (isnan(n)) {
		cmp->answer_reason = "how many independent runs match the distributed one is unknown: a GPU "
				     "count is unknown (set gpus = N in the run's run.ini)";
	} else if (!(b->samples_per_s > 0) || !(c->samples_per_s > 0)) {
		cmp->answer_reason = "the throughput of one of the runs is unknown";
	} else {
		cmp->answer = n * b->samples_per_s > c->samples_per_s ? ANSWER_INDEPENDENT : ANSWER_DISTRIBUTED;
		cmp->answer_reason = analysis_printf(a, "%g independent %s runs process %s together "
						     "(%g x %s), %s the %s of one %s run", n,
						     analysis_printf(a, "%d-GPU", b->gpus),
						     analysis_rate(a, n * b->samples_per_s, "samples"),
						     n, analysis_qty(a, qty_num, b->samples_per_s),
						     cmp->answer == ANSWER_INDEPENDENT ? "more than" : "no more than",
						     analysis_rate(a, c->samples_per_s, "samples"), analysis_printf(a, "%d-GPU", c->gpus));
	}
}

void analysis_verdict(struct analysis *a)
{
	struct comparison *cmp = &a->cmp;
	const struct run_result *b = &a->runs[cmp->baseline], *c = &a->runs[cmp->candidate];
	const struct confound *block = comparison_first_blocking(cmp);
	enum hypothesis h = a->hypothesis;

	cmp->answer = ANSWER_NONE;
	cmp->answer_reason = cmp->criterion = NULL;
	if (!cmp->valid)
		return;
	answer(a, b, c);
	if ((unsigned)h >= sizeof(rules) / sizeof(rules[0]) || !rules[h].verdict) {
		cmp->verdict = VERDICT_NONE;
		cmp->reason = "trial.ini states no hypothesis (step-time, global-batch or feasibility)";
		return;
	}
	cmp->criterion = rules[h].criterion(a, b, c);
	evidence_superlinear(a);
	if (rules[h].blockable && run_failed(b)) {	/* the trial answered feasibility: use-feasibility */
		cmp->verdict = VERDICT_INCONCLUSIVE;
		cmp->reason = analysis_printf(a, "%s, so there is nothing to compare: the trial answered "
					      "whether the run is possible (hypothesis = feasibility)",
					      evidence_failed_text(a, b));
	} else if (block && rules[h].blockable) {
		cmp->verdict = VERDICT_INCONCLUSIVE;
		cmp->reason = confound_sentence(a, block);
	} else {
		rules[h].verdict(a, b, c);
	}
	carry_superlinear(a);
	qualify(a);
	evidence_weak(a);
}

/* What trial.ini and the logs give the verdict and the advice besides the runs' numbers. */
static void trial_facts(struct analysis *a, const struct trial *t)
{
	a->expected_speedup = t->expected_speedup.set ? t->expected_speedup.v : EXPECTED_SPEEDUP_DEFAULT;
	for (size_t i = 0; i < a->nruns && i < t->nruns; i++)
		a->runs[i].failed_allocation = t->runs[i].oom.src.file ? t->runs[i].oom.tried_bytes : -1;
}

void analysis_compare(struct analysis *a, const struct trial *t)
{
	struct comparison *cmp = &a->cmp;
	const struct run_result *b, *c;

	cmp->speedup = cmp->throughput_ratio = cmp->scaling_efficiency = NAN;
	cmp->attribution_s = (struct step_parts){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN,
						   NAN, NAN, NAN };
	cmp->ideal_s = cmp->actual_s = NAN;
	trial_facts(a, t);
	if (!pick_runs(a, t)) {
		cmp->reason = no_pair(a);
		return;
	}
	cmp->valid = true;
	b = &a->runs[cmp->baseline];
	c = &a->runs[cmp->candidate];
	if (b->step_median_s > 0 && c->step_median_s > 0)
		cmp->speedup = b->step_median_s / c->step_median_s;
	if (b->samples_per_s > 0 && c->samples_per_s > 0)
		cmp->throughput_ratio = c->samples_per_s / b->samples_per_s;
	cmp->scaling_efficiency = (a->hypothesis == HYP_GLOBAL_BATCH ? cmp->throughput_ratio : cmp->speedup) /
				  comparison_gpu_ratio(a);	/* NaN with a GPU count unknown */
	confounds(a, t, b, c);
	attribute(a, b, c);
	analysis_verdict(a);
	if (cmp->superlinear.present)
		analysis_finding(a, DIAG_WARNING, "superlinear", NULL, "%s", evidence_superlinear_message(a));
}
