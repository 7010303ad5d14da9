/*
 * evidence: what a verdict rests on (docs/analysis.md "Evidence for a
 * verdict"): unmeasured inputs, a superlinear efficiency, weak evidence.
 */
#include "analysis/evidence.h"

#include <math.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/capacity.h"
#include "analysis/thresholds.h"
#include "core/qty.h"

#define GPU_LIST_MAX 64

const char *weak_what_name(enum weak_what w)
{
	static const char *const names[] = {
		[WEAK_STEPS] = "steps", [WEAK_RANKS] = "ranks", [WEAK_UNVERIFIED] = "unverified",
		[WEAK_LOG_SUMMARY] = "log-summary", [WEAK_SUPERLINEAR] = "superlinear",
		[WEAK_DECLARED_ONLY] = "declared-only",
	};

	return (unsigned)w < WEAK_COUNT ? names[w] : NULL;
}

bool comparison_weak_unsaid(const struct comparison *c, size_t i)
{
	return i < c->nweak && !(c->reason && strstr(c->reason, c->weak[i].message));
}

const char *superlinear_cause_name(enum superlinear_cause c)
{
	static const char *const names[] = {
		[CAUSE_NEAR_CAPACITY] = "baseline-near-capacity", [CAUSE_PER_GPU_BATCH] = "per-gpu-batch",
		[CAUSE_HOST_BOUND] = "host-bound-baseline", [CAUSE_SAVED_MEMORY] = "baseline-saved-memory",
	};

	return (unsigned)c < CAUSE_COUNT ? names[c] : NULL;
}

/* --- the facts a verdict lacks --- */

void gaps_add(struct gaps *g, const char *fact, const char *remedy)
{
	if (g->n < GAPS_MAX)
		g->v[g->n++] = (struct gap){ fact, remedy };
}

const char *gaps_text(struct analysis *a, const struct gaps *g)
{
	const char *s = NULL;

	for (size_t i = 0; i < g->n; i++) {
		bool shared = i + 1 < g->n && !strcmp(g->v[i].remedy, g->v[i + 1].remedy);

		s = analysis_printf(a, "%s%s%s%s%s", s ? s : "", s ? "; " : "", g->v[i].fact,
				    shared ? "" : ": ", shared ? "" : g->v[i].remedy);
	}
	return s;
}

/* How to measure a step time that a verdict can stand on. */
static const char *remedy_steps(struct analysis *a)
{
	return analysis_printf(a, "log per-iteration times, or profile %d or more active steps",
			       PROFILE_ACTIVE_STEPS);
}

/* A figure from a trainer's whole-job summary over too few steps run: it enters no verdict. */
static bool summary_too_short(const struct run_result *r)
{
	return r->time_source && !strcmp(r->time_source, "log-summary") &&
	       r->steps_measured < LOG_SUMMARY_MIN_STEPS;
}

static const char *summary_fact(struct analysis *a, const struct run_result *r, const char *what)
{
	return analysis_printf(a, "the %s of %s comes from a whole-job summary over %lld steps run, "
			       "start-up and saving included (a verdict needs %d)",
			       what, r->name, (long long)(r->steps_measured > 0 ? r->steps_measured : 0),
			       LOG_SUMMARY_MIN_STEPS);
}

bool evidence_step_time(struct analysis *a, const struct run_result *r, struct gaps *g)
{
	if (!(r->step_median_s > 0)) {
		gaps_add(g, analysis_printf(a, "step time of %s unknown", r->name), remedy_steps(a));
		return false;
	}
	if (summary_too_short(r)) {
		gaps_add(g, summary_fact(a, r, "step time"), remedy_steps(a));
		return false;
	}
	return true;
}

bool evidence_throughput(struct analysis *a, const struct run_result *r, struct gaps *g)
{
	if (!(r->samples_per_s > 0)) {
		if (r->global_batch >= 0)	/* else the global batch is what is missing */
			gaps_add(g, analysis_printf(a, "throughput of %s unknown", r->name), remedy_steps(a));
		return false;
	}
	if (summary_too_short(r)) {
		gaps_add(g, summary_fact(a, r, "throughput"), remedy_steps(a));
		return false;
	}
	return true;
}

bool evidence_global_batch(struct analysis *a, const struct run_result *r, struct gaps *g)
{
	if (r->global_batch >= 0)
		return true;
	gaps_add(g, analysis_printf(a, "global batch of %s unknown", r->name),
	    "add global_batch to its run.ini, or keep the trainer's log that prints it");
	return false;
}

/* A GPU's number for people: its rank, else its index. */
static int gpu_number(const struct run_result *r, size_t g)
{
	return r->gpu[g].rank >= 0 ? r->gpu[g].rank : (int)g;
}

#define GPU_LIST_SHOWN 8

/* "GPU 1", "GPUs 0 and 1", "GPUs 0, 1 and 3", "GPUs 0, 1, ..., 7 and 56 more" */
static const char *gpu_list(struct analysis *a, const int *v, size_t n)
{
	size_t shown = n > GPU_LIST_SHOWN ? GPU_LIST_SHOWN : n;
	const char *s = "";

	for (size_t i = 0; i < shown; i++)
		s = analysis_printf(a, "%s%s%d", s, !i ? "" : i + 1 < shown || n > shown ? ", " : " and ", v[i]);
	if (n > shown)
		s = analysis_printf(a, "%s and %zu more", s, n - shown);
	return analysis_printf(a, "GPU%s %s", n == 1 ? "" : "s", s);
}

/* Ranks 0 .. gpus - 1 that no GPU of the run stands for (traces of only some ranks). */
static size_t absent_ranks(const struct run_result *r, int *v, size_t n, size_t max)
{
	for (int k = 0; k < r->gpus && n < max; k++) {
		size_t g;

		for (g = 0; g < r->ngpu && gpu_number(r, g) != k; g++)
			;
		if (g == r->ngpu)
			v[n++] = k;
	}
	return n;
}

bool evidence_memory(struct analysis *a, const struct run_result *r, struct gaps *g)
{
	int peak[GPU_LIST_MAX], cap[GPU_LIST_MAX];
	size_t np = 0, nc = 0;

	if (!r->ngpu) {
		gaps_add(g, analysis_printf(a, "peak memory of %s unknown (no source names its GPUs)", r->name),
		    "record nvidia-smi or profile with profile_memory=True");
		return false;
	}
	for (size_t i = 0; i < r->ngpu; i++) {
		if (r->gpu[i].peak_memory < 0 && np < GPU_LIST_MAX)
			peak[np++] = gpu_number(r, i);
		if (r->gpu[i].memory_total <= 0 && nc < GPU_LIST_MAX)
			cap[nc++] = gpu_number(r, i);
	}
	np = absent_ranks(r, peak, np, GPU_LIST_MAX);
	if (np)
		gaps_add(g, analysis_printf(a, "peak memory of %s %s unknown", r->name, gpu_list(a, peak, np)),
		    "record nvidia-smi or profile with profile_memory=True");
	if (nc)
		gaps_add(g, analysis_printf(a, "memory capacity of %s %s unknown", r->name, gpu_list(a, cap, nc)),
		    "keep the trace's deviceProperties, nvidia-smi's memory.total or collect_env, which name the GPU");
	return !np && !nc;
}

int evidence_at_capacity(const struct run_result *r)
{
	for (size_t g = 0; g < r->ngpu; g++)
		if (r->gpu[g].peak_memory >= 0 && r->gpu[g].memory_total > 0 &&
		    r->gpu[g].peak_memory >= r->gpu[g].memory_total)
			return (int)g;
	return -1;
}

const char *evidence_capacity_text(struct analysis *a, const struct run_result *r, int g)
{
	char cap[CAPACITY_TEXT_LEN];

	return analysis_printf(a, "GPU %d of %s reached its memory capacity: a peak of %s of %s",
			       gpu_number(r, (size_t)g), r->name, analysis_qty(a, qty_gb, (double)r->gpu[g].peak_memory),
			       capacity_gpu_text(cap, sizeof(cap), &r->gpu[g]));
}

const char *evidence_failed_text(struct analysis *a, const struct run_result *r)
{
	if (r->status == RUN_FAILED_OOM && r->failed_allocation > 0)
		return analysis_printf(a, "run '%s' did not run its steps: it ran out of GPU memory (it failed "
				       "to allocate %s)", r->name, analysis_qty(a, qty_gb, (double)r->failed_allocation));
	if (r->status == RUN_FAILED_OOM)
		return analysis_printf(a, "run '%s' did not run its steps: it ran out of GPU memory", r->name);
	return analysis_printf(a, "run '%s' did not run its steps: it failed (its log ends on an error)",
			       r->name);
}

/* Whether every GPU of r has a known capacity and they all print alike. */
static bool one_capacity(const struct run_result *r)
{
	char first[CAPACITY_TEXT_LEN], other[CAPACITY_TEXT_LEN];

	for (size_t g = 0; g < r->ngpu; g++)
		if (r->gpu[g].memory_total <= 0 ||
		    strcmp(capacity_gpu_text(first, sizeof(first), &r->gpu[0]),
			   capacity_gpu_text(other, sizeof(other), &r->gpu[g])))
			return false;
	return true;
}

/*
 * "GPU 0 peaked at 74.9 GB, GPU 1 at 8.7 GB, each of 80 GB nominal (85.0 GB /
 * 79.2 GiB reported)"; the capacity beside each peak when the GPUs differ.
 */
static const char *peaks_text(struct analysis *a, const struct run_result *r)
{
	char buf[CAPACITY_TEXT_LEN];
	const char *s = "";
	size_t known = 0;
	bool once = r->ngpu > 1 && one_capacity(r);

	for (size_t g = 0; g < r->ngpu; g++)
		known += r->gpu[g].peak_memory >= 0;
	if (!known)
		return "the peak memory of its GPUs unknown";

	for (size_t g = 0; g < r->ngpu; g++) {
		const struct gpu_result *u = &r->gpu[g];
		const char *cap = once ? "" : u->memory_total > 0 ?
				  analysis_printf(a, " of %s", capacity_gpu_text(buf, sizeof(buf), u)) :
				  " (capacity unknown)";

		s = u->peak_memory < 0 ?
		    analysis_printf(a, "%s%sGPU %d peak unknown", s, g ? ", " : "", gpu_number(r, g)) :
		    analysis_printf(a, "%s%sGPU %d %s %s%s", s, g ? ", " : "", gpu_number(r, g),
				    g ? "at" : "peaked at", analysis_qty(a, qty_gb, (double)u->peak_memory), cap);
	}
	return once ? analysis_printf(a, "%s, each of %s", s, capacity_gpu_text(buf, sizeof(buf), &r->gpu[0])) : s;
}

const char *evidence_outcome_text(struct analysis *a, const struct run_result *r)
{
	const char *on = r->gpus > 0 ? analysis_printf(a, "%d GPU%s", r->gpus, r->gpus == 1 ? "" : "s") :
			 analysis_printf(a, "'%s' (GPU count unknown)", r->name);

	if (r->status != RUN_COMPLETED)
		return analysis_printf(a, "on %s it did not complete (%s); %s", on, run_status_name(r->status),
				       peaks_text(a, r));
	return analysis_printf(a, "on %s it completed %lld steady steps; %s", on,
			       (long long)(r->steps_measured > 0 ? r->steps_measured : 0), peaks_text(a, r));
}

/* --- superlinear --- */

/*
 * One cause of a superlinear efficiency: holds or not, and the numbers it
 * was judged on (or what was unknown), for the finding.
 */
typedef bool (*cause_check)(struct analysis *a, const struct run_result *b, const struct run_result *c,
			    const char **numbers);

/* The baseline GPU with the largest share of its capacity at its peak; -1 when none has both. */
static int fullest(const struct run_result *r)
{
	int best = -1;

	for (size_t g = 0; g < r->ngpu; g++) {
		const struct gpu_result *u = &r->gpu[g];

		if (u->peak_memory >= 0 && u->memory_total > 0 &&
		    (best < 0 || (double)u->peak_memory / u->memory_total >
		     (double)r->gpu[best].peak_memory / r->gpu[best].memory_total))
			best = (int)g;
	}
	return best;
}

static bool near_capacity(struct analysis *a, const struct run_result *b, const struct run_result *c,
			  const char **numbers)
{
	char cap[CAPACITY_TEXT_LEN];
	int g = fullest(b);
	double share;

	(void)c;
	if (g < 0) {
		*numbers = analysis_printf(a, "the peak memory or capacity of %s unknown", b->name);
		return false;
	}
	share = (double)b->gpu[g].peak_memory / b->gpu[g].memory_total;
	*numbers = analysis_printf(a, "%s GPU %d peaked at %s of %s, %s", b->name,
				   gpu_number(b, (size_t)g), analysis_qty(a, qty_gb, (double)b->gpu[g].peak_memory),
				   capacity_gpu_text(cap, sizeof(cap), &b->gpu[g]), analysis_qty(a, qty_percent, share));
	return share >= SUPERLINEAR_NEAR_CAPACITY;
}

static bool per_gpu_batch(struct analysis *a, const struct run_result *b, const struct run_result *c,
			  const char **numbers)
{
	if (b->micro_batch < 0 || c->micro_batch < 0) {
		*numbers = analysis_printf(a, "the micro batch of %s unknown",
					   b->micro_batch < 0 ? b->name : c->name);
		return false;
	}
	*numbers = analysis_printf(a, "micro batch %lld on %s against %lld on %s", (long long)b->micro_batch,
				   b->name, (long long)c->micro_batch, c->name);
	return b->micro_batch != c->micro_batch;
}

static bool host_bound(struct analysis *a, const struct run_result *b, const struct run_result *c,
		       const char **numbers)
{
	const struct gpu_result *g = b->ngpu ? &b->gpu[b->slowest] : NULL;
	double share = g ? g->step_s.idle / g->mean_step_s : NAN;

	(void)c;
	if (!isfinite(share)) {
		*numbers = analysis_printf(a, "the idle time of %s unknown (no trace)", b->name);
		return false;
	}
	*numbers = analysis_printf(a, "%s's slowest GPU idle %s of its %s mean step, %.1f%%", b->name,
				   analysis_qty(a, qty_duration, g->step_s.idle), analysis_qty(a, qty_duration, g->mean_step_s),
				   100 * share);	/* a tenth, beside the 10% threshold */
	return share >= SUPERLINEAR_HOST_IDLE;
}

static bool saved_memory(struct analysis *a, const struct run_result *b, const struct run_result *c,
			 const char **numbers)
{
	int64_t pb = run_largest_peak(b), pc = run_largest_peak(c);

	if (!c->strategy || strategy_splits_model(c->strategy)) {
		*numbers = analysis_printf(a, "%s's strategy (%s) is not a replica of the model", c->name,
					   c->strategy ? c->strategy : "unknown");
		return false;
	}
	if (pb <= 0 || pc < 0) {
		*numbers = analysis_printf(a, "the peak memory of %s unknown", pb <= 0 ? b->name : c->name);
		return false;
	}
	*numbers = analysis_printf(a, "the %s run %s peaks at %s per GPU against %s on %s, %+.0f%%",
				   c->strategy, c->name, analysis_qty(a, qty_gb, (double)pc), analysis_qty(a, qty_gb, (double)pb), b->name,
				   100 * ((double)pc / (double)pb - 1));
	return pc > (1 + SUPERLINEAR_MEMORY_EXCESS) * (double)pb;
}

static const cause_check cause_checks[CAUSE_COUNT] = {
	[CAUSE_NEAR_CAPACITY] = near_capacity, [CAUSE_PER_GPU_BATCH] = per_gpu_batch,
	[CAUSE_HOST_BOUND] = host_bound, [CAUSE_SAVED_MEMORY] = saved_memory,
};

void evidence_superlinear(struct analysis *a)
{
	struct comparison *cmp = &a->cmp;
	const struct run_result *b, *c;
	const char *causes = "", *numbers;

	cmp->superlinear = (struct superlinear){ .present = false, .efficiency = NAN, .causes = "" };
	/*
	 * A blocking confound already says why the numbers differ (another GPU,
	 * another batch); two runs of one GPU count compare configurations, not
	 * scaling.
	 */
	if (!cmp->valid || !(cmp->scaling_efficiency > SUPERLINEAR_EFFICIENCY) ||
	    comparison_first_blocking(cmp) || !(comparison_gpu_ratio(a) > 1))
		return;
	b = &a->runs[cmp->baseline];
	c = &a->runs[cmp->candidate];
	for (int k = 0; k < CAUSE_COUNT; k++)
		if (cause_checks[k](a, b, c, &numbers))
			causes = analysis_printf(a, "%s%s%s", causes, *causes ? " " : "",
						 superlinear_cause_name((enum superlinear_cause)k));
	cmp->superlinear = (struct superlinear){ .present = true, .efficiency = cmp->scaling_efficiency,
						 .causes = causes };
}

const char *evidence_superlinear_message(struct analysis *a)
{
	const struct comparison *cmp = &a->cmp;
	const struct run_result *b = &a->runs[cmp->baseline], *c = &a->runs[cmp->candidate];
	const char *hold = "", *others = "", *numbers;

	for (int k = 0; k < CAUSE_COUNT; k++) {
		bool holds = cause_checks[k](a, b, c, &numbers);
		const char **list = holds ? &hold : &others;

		*list = analysis_printf(a, "%s%s%s (%s)", *list, **list ? ", " : "",
					superlinear_cause_name((enum superlinear_cause)k), numbers);
	}
	if (!*hold)
		return analysis_printf(a, "run '%s' scales superlinearly against '%s': a scaling efficiency of %.0f%% "
				       "(above %.0f%%) is implausible until explained, and none of the causes "
				       "checked holds: %s; check the step-time measurement (the steps compared, "
				       "warm-up, what else ran on the GPUs)", c->name, b->name,
				       100 * cmp->superlinear.efficiency, 100 * SUPERLINEAR_EFFICIENCY, others);
	return analysis_printf(a, "run '%s' scales superlinearly against '%s': a scaling efficiency of %.0f%% (above "
			       "%.0f%%) is implausible until explained; what explains it: %s%s%s", c->name,
			       b->name, 100 * cmp->superlinear.efficiency, 100 * SUPERLINEAR_EFFICIENCY, hold,
			       *others ? "; checked, not holding: " : "", others);
}

/* "per-gpu-batch, baseline-saved-memory", or "no cause found" */
static const char *cause_list(struct analysis *a)
{
	const char *s = a->cmp.superlinear.causes;
	const char *out = "";

	if (!s || !*s)
		return "no cause found";
	for (; *s; s += strcspn(s, " "), s += *s == ' ') {
		size_t n = strcspn(s, " ");

		out = analysis_printf(a, "%s%s%.*s", out, *out ? ", " : "", (int)n, s);
	}
	return out;
}

/*
 * "114% scaling efficiency is superlinear (per-gpu-batch, ...)": the words
 * the verdict's sentence and the weak evidence share, so that page 1 says
 * them once.
 */
static const char *superlinear_phrase(struct analysis *a)
{
	return analysis_printf(a, "%.0f%% scaling efficiency is superlinear (%s)",
			       100 * a->cmp.superlinear.efficiency, cause_list(a));
}

const char *evidence_efficiency_text(struct analysis *a)
{
	const struct comparison *cmp = &a->cmp;

	if (!cmp->superlinear.present)
		return analysis_printf(a, "%.0f%% scaling efficiency", 100 * cmp->scaling_efficiency);
	return analysis_printf(a, "%s: see the superlinear finding", superlinear_phrase(a));
}

/* --- weak evidence --- */

static void weak(struct analysis *a, enum weak_what w, const char *message)
{
	struct comparison *cmp = &a->cmp;
	struct weak_evidence *v = arena_alloc(&a->arena, (cmp->nweak + 1) * sizeof(*v));

	if (cmp->nweak)
		memcpy(v, cmp->weak, cmp->nweak * sizeof(*v));
	v[cmp->nweak++] = (struct weak_evidence){ w, message };
	cmp->weak = v;
}

/* The two runs whose evidence counts: the baseline's steps not under feasibility or when it failed. */
static bool counts_steps(const struct analysis *a, const struct run_result *r)
{
	return r != &a->runs[a->cmp.baseline] || (a->hypothesis != HYP_FEASIBILITY && !run_failed(r));
}

static void weak_steps(struct analysis *a, const struct run_result *const *run)
{
	const char *s = "";

	for (size_t i = 0; i < 2; i++)
		if (counts_steps(a, run[i]) && run[i]->steps_measured >= 0 &&
		    run[i]->steps_measured < MIN_STEADY_STEPS)
			s = analysis_printf(a, "%s%s%lld on %s", s, *s ? ", " : "",
					    (long long)run[i]->steps_measured, run[i]->name);
	if (*s)
		weak(a, WEAK_STEPS, analysis_printf(a, "few steady steps: %s (%d make a plain verdict)", s,
						    MIN_STEADY_STEPS));
}

static void weak_ranks(struct analysis *a, const struct run_result *const *run)
{
	for (size_t i = 0; i < 2; i++)
		if (run[i]->time_source && !strcmp(run[i]->time_source, "trace") &&
		    run[i]->gpus > 0 && run[i]->ngpu < (size_t)run[i]->gpus)
			weak(a, WEAK_RANKS, analysis_printf(a, "traces of %zu of the %d ranks of %s",
							    run[i]->ngpu, run[i]->gpus, run[i]->name));
}

static void weak_unverified(struct analysis *a)
{
	for (size_t i = 0; i < a->cmp.nconfounds; i++)
		if (a->cmp.confounds[i].severity == CFS_UNVERIFIED && a->cmp.confounds[i].why)
			weak(a, WEAK_UNVERIFIED, a->cmp.confounds[i].why);
}

/*
 * Under step-time and global-batch, step times from whole-job summaries, in
 * one phrase for both runs: "step time from the trainer's whole-job summary,
 * start-up included (1gpu: 125 steps; 2gpu: 125 steps)".
 */
static void weak_summary(struct analysis *a, const struct run_result *const *run)
{
	const char *runs = NULL;

	if (a->hypothesis != HYP_STEP_TIME && a->hypothesis != HYP_GLOBAL_BATCH)
		return;
	for (size_t i = 0; i < 2; i++)
		if (run[i]->time_source && !strcmp(run[i]->time_source, "log-summary"))
			runs = analysis_printf(a, "%s%s%s: %lld steps", runs ? runs : "", runs ? "; " : "",
					       run[i]->name, (long long)run[i]->steps_measured);
	if (runs)
		weak(a, WEAK_LOG_SUMMARY, analysis_printf(a, "step time from the trainer's whole-job "
							  "summary, start-up included (%s)", runs));
}

/* The global batch, or the micro batch it is made of, comes from run.ini alone. */
static bool batch_declared_only(const struct run_result *r)
{
	enum fact_from g = r->facts[FACT_GLOBAL_BATCH].from;

	return g == FACT_FROM_MANIFEST ||
	       (g == FACT_FROM_DERIVED && r->facts[FACT_MICRO_BATCH].from == FACT_FROM_MANIFEST);
}

/* The GPU count comes from run.ini alone: no trace, log or GPU monitor shows the GPUs. */
static bool gpus_declared_only(const struct run_result *r)
{
	return r->facts[FACT_GPUS].from == FACT_FROM_MANIFEST && !r->nmonitor;
}

/* The facts each hypothesis rests on that a run.ini alone may give. */
static const struct {
	bool (*only)(const struct run_result *r);
	const char *label;
	unsigned hypotheses;	/* 1 << enum hypothesis */
} declared_facts[] = {
	{ batch_declared_only, "global batch", 1u << HYP_STEP_TIME | 1u << HYP_GLOBAL_BATCH },
	{ gpus_declared_only, "GPU count", 1u << HYP_GLOBAL_BATCH },
};

static void weak_declared(struct analysis *a, const struct run_result *const *run)
{
	for (size_t f = 0; f < sizeof(declared_facts) / sizeof(declared_facts[0]); f++) {
		bool in[2];

		if (!(declared_facts[f].hypotheses & 1u << a->hypothesis))
			continue;
		for (size_t i = 0; i < 2; i++)
			in[i] = declared_facts[f].only(run[i]);
		if (in[0] || in[1])
			weak(a, WEAK_DECLARED_ONLY,
			     analysis_printf(a, "%s of %s%s%s only from run.ini, in no log or trace",
					     declared_facts[f].label, in[0] ? run[0]->name : "",
					     in[0] && in[1] ? " and " : "", in[1] ? run[1]->name : ""));
	}
}

void evidence_weak(struct analysis *a)
{
	struct comparison *cmp = &a->cmp;
	const struct run_result *run[2];

	cmp->weak = NULL;
	cmp->nweak = 0;
	if (!cmp->valid || (cmp->verdict != VERDICT_CONFIRMED && cmp->verdict != VERDICT_REFUTED))
		return;
	run[0] = &a->runs[cmp->baseline];
	run[1] = &a->runs[cmp->candidate];
	weak_steps(a, run);
	weak_ranks(a, run);
	weak_unverified(a);
	weak_summary(a, run);
	if (cmp->superlinear.present)
		weak(a, WEAK_SUPERLINEAR, superlinear_phrase(a));
	weak_declared(a, run);
	if (cmp->workload.present && cmp->workload.basis == WL_DECLARED)
		weak(a, WEAK_DECLARED_ONLY, "one job by the model, dataset or sequence length the runs "
		     "name, not by their kernels");
}
