/*
 * advice: recommendations, each with the numbers it rests on, and the rental
 * options (docs/analysis.md, Recommendations). None is drawn from a
 * comparison blocked by a confound other than global_batch: then the only
 * advice is to repeat the trial without it.
 */
#include <math.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/capacity.h"
#include "analysis/evidence.h"
#include "analysis/readiness.h"
#include "analysis/strategy.h"
#include "analysis/thresholds.h"
#include "core/gpu.h"
#include "core/money.h"
#include "core/qty.h"
#include "core/xalloc.h"


static void add(struct analysis *a, const char *id, const char *text)
{
	xgrow(&a->recs, &a->cap_recs, a->nrecs + 1, sizeof(*a->recs));
	a->recs[a->nrecs++] = (struct recommendation){ .id = id, .text = text };
}

/*
 * Two independent runs instead of one distributed run, by samples per second
 * (the step time says nothing when the global batch changed): advised when
 * the c-GPU run's throughput is under 0.8 n times the b-GPU baseline's
 * (n = c / b), or under n times it when the question is a sweep.
 */
static void independent_runs(struct analysis *a, const struct run_result *b,
			     const struct run_result *c)
{
	double n = comparison_gpu_ratio(a);	/* NaN with a GPU count unknown */
	double eff = c->samples_per_s / (n * b->samples_per_s);

	if (isnan(eff) || !(n > 1) ||
	    !(eff < ADVICE_MIN_EFFICIENCY || (a->question == Q_HPARAM_SWEEP && eff < 1)))
		return;
	add(a, "two-independent-runs",
	    analysis_printf(a, "run %g independent %d-GPU jobs instead of one %d-GPU job: together they "
			    "process %s (%g x %s) against %s, a scaling efficiency of %.0f%% "
			    "by samples per second, so %g configurations finish in %.0f%% of the time the "
			    "%d-GPU job needs for them one after another",
			    n, b->gpus, c->gpus, analysis_rate(a, n * b->samples_per_s, "samples"), n,
			    analysis_qty(a, qty_num, b->samples_per_s), analysis_qty(a, qty_num, c->samples_per_s),
			    100 * eff, n, 100 * eff, c->gpus));
}

/*
 * Strategies whose GPUs hold a share of the model (their peaks add up); the
 * others hold replicas. An all-to-all exchange shards embeddings or experts.
 */
static const char *const split_strategies[] = {
	"pipeline", "tensor", "fsdp", "zero", "device_map", "alltoall",
};

static bool splits(const char *part, size_t len, const void *ctx)
{
	(void)ctx;
	for (size_t i = 0; i < sizeof(split_strategies) / sizeof(split_strategies[0]); i++)
		if (strlen(split_strategies[i]) == len && !strncmp(part, split_strategies[i], len))
			return true;
	return false;
}

bool strategy_splits_model(const char *strategy)
{
	if (!strategy)
		return true;	/* unknown: the sum is the bound that cannot fall short */
	return strategy_any(strategy, splits, NULL);
}

/* "2-GPU", "?-GPU" where the count is unknown */
static const char *sized(struct analysis *a, int32_t gpus)
{
	return gpus > 0 ? analysis_printf(a, "%d-GPU", gpus) : "?-GPU";
}

/* "2-GPU ddp run's memory model (one GPU's peak: each holds a replica)" */
static const char *model_words(struct analysis *a, const struct run_result *r)
{
	return analysis_printf(a, "%s %s run's memory model (%s)", sized(a, r->gpus),
			       r->strategy ? r->strategy : "(strategy unknown)",
			       strategy_splits_model(r->strategy) ? "the sum of its GPUs' peaks" :
			       "one GPU's peak: each holds a replica");
}

/* A run's memory model: the sum of its GPUs' peaks for a split, one GPU's for replicas. */
static int64_t model_need(struct analysis *a, const struct run_result *r, const char **why)
{
	bool split = strategy_splits_model(r->strategy);
	int64_t need = 0;

	for (size_t g = 0; g < r->ngpu; g++) {
		if (r->gpu[g].peak_memory < 0)
			return -1;
		need = split ? need + r->gpu[g].peak_memory :
		       r->gpu[g].peak_memory > need ? r->gpu[g].peak_memory : need;
	}
	*why = analysis_printf(a, "the %s", model_words(a, r));
	return r->ngpu ? need : -1;
}

/*
 * A failed baseline of several GPUs: its memory model plus the allocation
 * that failed; -1 when a GPU's peak is unknown.
 */
static int64_t failed_model_need(struct analysis *a, const struct run_result *b, const char **why)
{
	const char *mw = NULL;
	int64_t model = model_need(a, b, &mw);

	if (model < 0)
		return -1;
	if (b->failed_allocation < 0) {
		*why = analysis_printf(a, "the failed %s, %s (its log names no failed allocation)",
				       model_words(a, b), analysis_qty(a, qty_gb, (double)model));
		return model;
	}
	*why = analysis_printf(a, "the failed %s, %s, plus the %s it failed to allocate",
			       model_words(a, b), analysis_qty(a, qty_gb, (double)model), analysis_qty(a, qty_gb, (double)b->failed_allocation));
	return model + b->failed_allocation;
}

/* What the baseline that ran out of memory needed: its peak plus the allocation that failed. */
static int64_t failed_need(struct analysis *a, const struct run_result *b, const char **why)
{
	int64_t peak = run_largest_peak(b);

	if (b->status != RUN_FAILED_OOM)
		return -1;
	if (b->gpus > 1 && b->ngpu > 1)
		return failed_model_need(a, b, why);
	if (peak < 0)
		return -1;
	if (b->failed_allocation < 0) {
		*why = analysis_printf(a, "the failed %s run's peak of %s (its log names no "
				       "failed allocation)", sized(a, b->gpus), analysis_qty(a, qty_gb, (double)peak));
		return peak;
	}
	*why = analysis_printf(a, "the failed %s run's peak of %s plus the %s it failed "
			       "to allocate", sized(a, b->gpus), analysis_qty(a, qty_gb, (double)peak), analysis_qty(a, qty_gb, (double)b->failed_allocation));
	return peak + b->failed_allocation;
}

/*
 * A completed baseline of several GPUs: the larger of its memory model and
 * the candidate's, each with its figure; -1 when neither is known.
 */
static int64_t models_need(struct analysis *a, const struct run_result *b, const struct run_result *c,
			   const char **from)
{
	const char *bw = NULL, *cw = NULL;
	int64_t nb = model_need(a, b, &bw), nc = model_need(a, c, &cw);

	if (b->gpus == c->gpus) {	/* 2 against 2: the counts do not tell the runs apart */
		bw = bw ? analysis_printf(a, "%s of run '%s'", bw, b->name) : NULL;
		cw = cw ? analysis_printf(a, "%s of run '%s'", cw, c->name) : NULL;
	}
	if (nb < 0 || nc < 0) {
		*from = nb < 0 ? cw : bw;
		return nb < 0 ? nc : nb;
	}
	*from = analysis_printf(a, "the larger of %s, %s, and %s, %s", bw, analysis_qty(a, qty_gb, (double)nb), cw, analysis_qty(a, qty_gb, (double)nc));
	return nb > nc ? nb : nc;
}

/*
 * The memory the job needs on one GPU, and where that figure comes from: a
 * completed 1-GPU run's peak; for a completed baseline of several GPUs, the
 * larger of its memory model and the candidate's; else the larger of what
 * the failed baseline needed and the candidate's memory model.
 */
static int64_t one_gpu_need(struct analysis *a, const char **from)
{
	const struct run_result *b = &a->runs[a->cmp.baseline], *c = &a->runs[a->cmp.candidate];
	const char *fw = NULL, *mw = NULL;
	int64_t fail, model;

	if (b->status == RUN_COMPLETED && b->gpus == 1 && b->ngpu == 1 && b->gpu[0].peak_memory > 0) {
		*from = "the 1-GPU run's peak";
		return b->gpu[0].peak_memory;
	}
	if (b->status == RUN_COMPLETED && b->gpus > 1)
		return models_need(a, b, c, from);
	fail = failed_need(a, b, &fw);
	model = model_need(a, c, &mw);
	if (fail < 0 && model < 0)
		return -1;
	if (fail < 0 || model < 0) {
		*from = fail < 0 ? mw : fw;
		return fail < 0 ? model : fail;
	}
	*from = analysis_printf(a, "the larger of %s, and %s, %s", fw, mw, analysis_qty(a, qty_gb, (double)model));
	return fail > model ? fail : model;
}

static void fits(struct analysis *a)
{
	const char *from = NULL;
	int64_t need = one_gpu_need(a, &from);
	bool has_reserve = !isnan(a->memory_reserve_bytes);
	double reserve = has_reserve ? a->memory_reserve_bytes : 0;
	const char *rsv = has_reserve ?
			  analysis_printf(a, " plus a reserve of %.0f GB", reserve / 1e9) :
			  " (no memory_reserve_gb in trial.ini)";
	const struct gpu_model *one = gpu_lookup(FIT_GPU_FIRST, -1), *two = gpu_lookup(FIT_GPU_SECOND, -1);
	char t1[CAPACITY_TEXT_LEN], t2[CAPACITY_TEXT_LEN];
	const char *cap1 = capacity_model_text(t1, sizeof(t1), a, one);
	const char *cap2 = capacity_model_text(t2, sizeof(t2), a, two);
	const char *needs;

	if (need < 0)
		return;
	needs = analysis_printf(a, "it needs %s, %s%s%s", analysis_qty(a, qty_gb, (double)need), from, has_reserve ? "," : "", rsv);
	if (need + reserve <= capacity_model_bytes(a, one))
		add(a, "fits-h200", analysis_printf(a, "the job fits one %s of %s: %s", one->name, cap1, needs));
	else if (need + reserve <= capacity_model_bytes(a, two))
		add(a, "fits-mi300x", analysis_printf(a, "the job does not fit one %s of %s but fits one %s "
						      "of %s: %s", one->name, cap1, two->name, cap2, needs));
	else
		add(a, "needs-split", analysis_printf(a, "the job fits neither one %s of %s nor one %s of "
						      "%s: %s", one->name, cap1, two->name, cap2, needs));
}

/* "NCCL_P2P_DISABLE=1 and NCCL_SHM_DISABLE=1", the settings of c that block a transport; NULL none. */
static const char *blockers(struct analysis *a, const struct run_result *c, size_t *n)
{
	const char *list = NULL;

	*n = 0;
	for (size_t i = 0; i < c->nnccl_env; i++) {
		const struct env_setting *e = &c->nccl_env[i];

		if (!nccl_setting_turns_off(e->name, e->value))
			continue;
		list = list ? analysis_printf(a, "%s and %s=%s", list, e->name, e->value) :
		       analysis_printf(a, "%s=%s", e->name, e->value);
		(*n)++;
	}
	return list;
}

static void nccl_transport(struct analysis *a, const struct run_result *c)
{
	const char *over, *check, *set;
	size_t n;

	if (!c->transport || (strcmp(c->transport, "shm") && strcmp(c->transport, "net-socket")))
		return;
	over = !strcmp(c->transport, "shm") ? "shared host memory" : "sockets";
	set = blockers(a, c, &n);
	check = set ? analysis_printf(a, "the log sets %s: unset %s, then check the GPUs' topology "
				      "(nvidia-smi topo -m)", set, n > 1 ? "them" : "it") :
		"check NCCL_P2P_DISABLE, the GPUs' topology (nvidia-smi topo -m) and, on one host, "
		"NCCL_SHM/NCCL_SOCKET settings";
	add(a, "fix-nccl-transport",
	    analysis_printf(a, "NCCL moved the data over %s instead of GPU peer-to-peer: %s; exposed "
			    "transfer (not waiting for a peer) costs %s per step", over, check,
			    analysis_qty(a, qty_duration, c->ngpu ? c->gpu[c->slowest].step_s.exposed_comm_transfer : NAN)));
}

/*
 * Rebalance the split on a flagged imbalance, with every reason. Waiting for
 * a slower peer is a pipeline bubble or a straggler, not a slow link: the
 * advice says so, so that nobody tunes NCCL for it.
 */
/* How many of a run's stragglers have the cause. */
static size_t stragglers_of(const struct imbalance *im, const char *cause)
{
	size_t n = 0;

	for (size_t i = 0; i < im->nstragglers; i++)
		n += !strcmp(im->stragglers[i].cause, cause);
	return n;
}

/*
 * Stragglers whose GPUs idle wait for their host, not for work: the advice
 * is on the host's side of the step, never to move layers.
 */
static void host_bound(struct analysis *a, const struct run_result *r)
{
	const struct imbalance *im = &r->imbalance;

	if (!stragglers_of(im, "host-bound"))
		return;
	add(a, "fix-host-bound",
	    analysis_printf(a, "feed %s of %s: %s idle waiting for the host while the other GPUs wait a "
			    "median %s %s (%.0f%%) in collectives for %s; give the data loader more "
			    "workers and pinned memory, take Python work out of the step (torch.compile, "
			    "CUDA graphs), and pin each rank's process to the CPU cores and NUMA node of "
			    "its GPU", stragglers_named(a, im, "host-bound"), r->name,
			    stragglers_of(im, "host-bound") > 1 ? "they" : "it",
			    analysis_qty(a, qty_duration, im->straggler_cost_s),
			    !strcmp(im->per, "span") ? "over the profiled span" : "per step",
			    100 * im->straggler_cost_share,
			    stragglers_of(im, "host-bound") > 1 ? "them" : "it"));
}

static bool advised(const struct analysis *a, const char *id)
{
	for (size_t i = 0; i < a->nrecs; i++)
		if (!strcmp(a->recs[i].id, id))
			return true;
	return false;
}

/*
 * Every GPU of the candidate waits for its host, not one straggler: the loss
 * is host-bound (comparison_host_bound: idle its largest term, host wait over
 * ADVICE_HOST_IDLE_SHARE of that idle). The fix is on
 * the host's side of every rank's step; a second GPU bought little because
 * the CPUs could not feed it.
 */
static void host_bound_loss(struct analysis *a, const struct run_result *c)
{
	const struct step_parts *l = &a->cmp.attribution_s, *s;
	double host = comparison_host_wait(a);

	if (advised(a, "fix-host-bound") || !comparison_host_bound(a))
		return;
	s = &c->gpu[c->slowest].step_s;
	add(a, "fix-host-bound",
	    analysis_printf(a, "feed the GPUs of %s: idle is the largest part of the loss against perfect "
			    "scaling, %s per step, and %s of it is waiting for the CPU to launch work; its "
			    "slowest GPU idles %s per step (host %s, sync %s, other %s); give each rank's "
			    "data loader more workers (within its share of the host's cores), pinned memory and "
			    "prefetching, move CPU preprocessing out of the step (pre-tokenize or decode on "
			    "the GPU), take Python work out of the step (torch.compile, CUDA graphs), and pin "
			    "each rank's process to the CPU cores and NUMA node of its GPU", c->name,
			    analysis_qty(a, qty_duration, l->idle), analysis_qty(a, qty_duration, host),
			    analysis_qty(a, qty_duration, s->idle), analysis_qty(a, qty_duration, s->idle_host),
			    analysis_qty(a, qty_duration, s->idle_sync), analysis_qty(a, qty_duration, s->idle_other)));
}

/*
 * A pipeline bubble: a pipeline run whose GPUs wait for each other above
 * ADVICE_PEER_WAIT_SHARE of a step while their compute and memory are
 * balanced and no GPU is a computing straggler. Moving work between the
 * stages does not shrink it; more micro-batches per step do.
 */
static bool is_bubble(const struct run_result *r)
{
	const struct imbalance *im = &r->imbalance;

	return strategy_has(r->strategy, "pipeline") && im->peer_wait_share > ADVICE_PEER_WAIT_SHARE &&
	       im->busy_ratio <= IMBALANCE_BUSY_RATIO && !(im->memory_ratio > IMBALANCE_MEMORY_RATIO) &&
	       !stragglers_of(im, "computing");
}

/*
 * "with 2 stages and 1 micro-batch per step, a bubble of (p-1)/(m+p-1) =
 * 1/2 = 50% of the step; 8 micro-batches (4 per stage) would make it 11%":
 * p is known for a run that is only a pipeline (every GPU a stage), m as its
 * grad_accum (the micro-batches a pipeline step runs); "" when either is not.
 */
static const char *bubble_fraction(struct analysis *a, const struct run_result *r)
{
	int64_t p = r->strategy && !strcmp(r->strategy, "pipeline") ? r->gpus : -1, m = r->grad_accum;
	int64_t more = BUBBLE_MICRO_BATCHES_PER_STAGE * p;

	if (p < 2 || m < 1)
		return "";
	return analysis_printf(a, "; with %lld stages and %lld micro-batch%s per step the bubble is "
			       "(p-1)/(m+p-1) = %lld/%lld = %.0f%% of the step%s", (long long)p, (long long)m,
			       m == 1 ? "" : "es", (long long)(p - 1), (long long)(m + p - 1),
			       100.0 * (p - 1) / (m + p - 1),
			       m < more ? analysis_printf(a, ", with %lld micro-batches (%d per stage) %.0f%%",
							  (long long)more, BUBBLE_MICRO_BATCHES_PER_STAGE,
							  100.0 * (p - 1) / (more + p - 1)) : "");
}

static void bubble(struct analysis *a, const struct run_result *r)
{
	const struct imbalance *im = &r->imbalance;

	add(a, "fix-pipeline-bubble",
	    analysis_printf(a, "shrink the pipeline bubble: %s; compute is balanced (busiest GPU %s the "
			    "least busy), so the stages wait for each other at the start and end of each "
			    "step%s: split the batch into more micro-batches per step (grad_accum) or use an "
			    "interleaved schedule (several model chunks per GPU), rather than moving layers "
			    "between the GPUs or tuning NCCL", im->reason, analysis_qty(a, ratio_text, im->busy_ratio),
			    bubble_fraction(a, r)));
}

static void rebalance(struct analysis *a, const struct run_result *c)
{
	const struct imbalance *im = &c->imbalance;

	if (!im->flagged)
		return;
	host_bound(a, c);
	if (is_bubble(c)) {
		bubble(a, c);
		return;
	}
	if (im->reason == im->straggler_reason && !stragglers_of(im, "computing"))
		return;	/* only host-bound stragglers: nothing to move between GPUs */
	if (!(im->peer_wait_share > ADVICE_PEER_WAIT_SHARE) && !stragglers_of(im, "computing")) {
		add(a, "rebalance", analysis_printf(a, "rebalance the split: %s", im->reason));
		return;
	}
	add(a, "rebalance",
	    analysis_printf(a, "rebalance the split: %s; the waiting is for a slower peer (a "
			    "pipeline bubble or a straggler), not a slow link: give the GPU that "
			    "waits more of the work (layers, micro-batches) rather than tuning NCCL",
			    im->reason));
}

/* Without a comparison, each run's own imbalance still gets its advice. */
static void runs_alone(struct analysis *a)
{
	for (size_t i = 0; i < a->nruns; i++)
		rebalance(a, &a->runs[i]);
}

/* "on 2 GPUs 3.1 days, a 7-day window of 1 lot (336 GPU-hours rented, cost 1,848 USD)" */
static const char *option_text(struct analysis *a, const struct rental_option *o)
{
	char m[MONEY_LEN], h[MONEY_LEN];
	const char *cost = isnan(o->cost) ? "" :
			   analysis_printf(a, ", cost %s", money_cost(m, o->cost, a->currency));
	const char *win;

	if (isnan(o->days_to_target))
		return analysis_printf(a, "on %d GPU%s %s GPU-hours used per million samples%s", o->gpus,
				       o->gpus == 1 ? "" : "s", gpu_hours_text(h, o->gpu_hours_per_million_samples),
				       isnan(o->cost_per_million_samples) ? "" :
				       analysis_printf(a, " (cost %s)",
						       money_cost(m, o->cost_per_million_samples, a->currency)));
	win = o->windows > 1 ? analysis_printf(a, "%d consecutive %d-day windows", o->windows, o->window_days) :
	      analysis_printf(a, "a %d-day window", o->window_days);
	return analysis_printf(a, "on %d GPU%s %.1f days, %s of %d lot%s (%s GPU-hours rented%s)", o->gpus,
			       o->gpus == 1 ? "" : "s", o->days_to_target, win, o->lots, o->lots == 1 ? "" : "s",
			       gpu_hours_text(h, o->window_gpu_hours), cost);
}

/* One recommendation that compares the rental options (analysis/decision.c sized them). */
static void rental(struct analysis *a, const struct trial *t, const struct run_result *b,
		   const struct run_result *c)
{
	const struct comparison *cmp = &a->cmp;
	const struct decision *d = &cmp->decision;
	const char *text = NULL, *target;
	char n[MONEY_LEN];

	for (size_t i = 0; i < cmp->noptions; i++) {
		const struct run_result *r = cmp->noptions == 2 ? (i ? c : b) :
					     b->samples_per_s > 0 && b->gpus > 0 ? b : c;

		text = analysis_printf(a, "%s%s%s%s", text ? text : "", text ? "; " : "",
				       b->gpus == c->gpus ? analysis_printf(a, "%s: ", r->name) : "",
				       option_text(a, &cmp->options[i]));
	}
	if (!text)
		return;
	target = t->target_samples.set ?
		 analysis_printf(a, "to %s samples", count_text(n, (double)t->target_samples.v)) :
		 t->target_tokens.set ? analysis_printf(a, "to %s tokens", count_text(n, (double)t->target_tokens.v)) :
		 NULL;
	add(a, "rental-window",
	    analysis_printf(a, "%s%s%s%s: %s%s",
			    target ? target : "without a target",
			    t->gpu_hour_price.set ? ", at " : "",
			    t->gpu_hour_price.set ? analysis_printf(a, "%s per GPU-hour",
								  money_cost(n, t->gpu_hour_price.v, a->currency)) : "",
			    target ? analysis_printf(a, ", in lots of %d GPU%s with a %.0f%% margin", d->rent.gpus,
						     d->rent.gpus == 1 ? "" : "s", d->margin_required * 100) : "",
			    text, target ? "" : " (set target_samples or target_tokens in trial.ini for "
			    "the days and the rental window)"));
}

/*
 * A baseline that failed under step-time or global-batch left no step time
 * to compare: the trial answered whether the run is possible, and says so
 * with the candidate's outcome, rather than asking for more steps.
 */
static void use_feasibility(struct analysis *a, const struct run_result *b, const struct run_result *c)
{
	if ((a->hypothesis != HYP_STEP_TIME && a->hypothesis != HYP_GLOBAL_BATCH) || !run_failed(b))
		return;
	add(a, "use-feasibility",
	    analysis_printf(a, "the trial answered whether the run is possible, not how fast it is: %s; %s; "
			    "set hypothesis = feasibility in trial.ini", evidence_failed_text(a, b),
			    evidence_outcome_text(a, c)));
}

/*
 * The smallest trial that removes a blocking confound: one run, the
 * baseline again with the candidate's value (its GPUs are the fewer, so the
 * cheaper run), everything else held. NULL hold: no one run removes it.
 */
static const struct {
	const char *setting;	/* what the baseline runs again with, as people say it */
	const char *hold;	/* what stays as it was */
} next_trials[CF_COUNT] = {
	[CF_GPU_MODEL] = { "GPU model", "the model, the batch, the precision and the sequence length" },
	[CF_PRECISION] = { "precision", "the model, the batch, the sequence length and the GPU model" },
	[CF_GLOBAL_BATCH] = { "global batch", "the model, the precision, the sequence length and the GPU model" },
	[CF_MICRO_BATCH] = { "micro batch", "the model, the global batch, the precision and the GPU model" },
	[CF_SEQ_LEN] = { "sequence length", "the model, the batch, the precision and the GPU model" },
	[CF_DATASET] = { "dataset", "the model, the batch, the precision and the GPU model" },
	[CF_MODEL] = { "model", "the batch, the precision, the sequence length and the GPU model" },
};

/*
 * The next-trial advice, "HEAD answers the question: RUN, REST"; the decision
 * names RUN as what to rent next.
 */
static void next_trial_add(struct analysis *a, const char *head, const char *run, const char *rest)
{
	add(a, "next-trial", analysis_printf(a, "%s answers the question: %s, %s", head, run, rest));
	analysis_decide_next(a, run);
}

/* "one run answers the question: a 1x B200 baseline, run '1gpu' again on B200 (as '2gpu' ran), holding ..." */
static void next_trial(struct analysis *a, const struct confound *cf, const struct run_result *b,
		       const struct run_result *c)
{
	const char *run;

	if ((unsigned)cf->what >= CF_COUNT || !next_trials[cf->what].hold || !cf->candidate)
		return;
	run = cf->what == CF_GPU_MODEL ?
	      analysis_printf(a, "a %s baseline, run '%s' again on %s",
			      b->gpus > 0 ? analysis_printf(a, "%dx %s", b->gpus, cf->candidate) : cf->candidate, b->name,
			      cf->candidate) :
	      analysis_printf(a, "run '%s' again with the %s %s", b->name, next_trials[cf->what].setting,
			      cf->candidate);
	next_trial_add(a, "one run", analysis_printf(a, "%s (as '%s' ran)", run, c->name),
		       analysis_printf(a, "holding %s constant, and compare '%s' with it",
				       next_trials[cf->what].hold, c->name));
}

/* "'2gpu'", "'1gpu' and '2gpu'": the runs with too few steady steps for a step time. */
static const char *short_runs(struct analysis *a, const struct run_result *b, const struct run_result *c)
{
	bool sb = !run_failed(b) && !(b->steps_measured >= MIN_STEADY_STEPS);
	bool sc = !(c->steps_measured >= MIN_STEADY_STEPS);

	if (sb && sc)
		return analysis_printf(a, "both runs, '%s' and '%s',", b->name, c->name);
	return analysis_printf(a, "run '%s'", sb ? b->name : c->name);
}

/* The run whose build does not target its GPU, and the build that would. */
static const char *arch_run(struct analysis *a, const struct run_result *b, const struct run_result *c)
{
	const struct run_result *bad = readiness_blocks(&b->readiness) ? b : c;
	const struct readiness *r = &bad->readiness;

	return analysis_printf(a, "run '%s' again with %s built for its GPU (%s%s%s)", bad->name,
			       r->arch_warning ? "a PyTorch" : "its compiled extensions",
			       r->gpu ? r->gpu : "GPU unknown", r->isa ? ", " : "", r->isa ? r->isa : "");
}

/* "'1gpu' ran mostly attention (17%), '2gpu' conv (79%)": the largest family found on one side only. */
static const char *workload_diff(struct analysis *a, const struct confound *cf, const struct run_result *b,
				 const struct run_result *c)
{
	const struct workload *w = &a->cmp.workload;

	if (w->basis != WL_KERNELS || !w->nbaseline_only || !w->ncandidate_only)
		return analysis_printf(a, "the runs differ: %s", cf->why ? cf->why : "their declared jobs");
	return analysis_printf(a, "only '%s' ran %s (%.0f%% of its kernel time), only '%s' ran %s (%.0f%%)",
			       b->name, w->baseline_only[0].family, 100 * w->baseline_only[0].share, c->name,
			       w->candidate_only[0].family, 100 * w->candidate_only[0].share);
}

/*
 * The confounds no single run with another setting removes: too few steps
 * (the short runs profiled again), a build that does not target its GPU
 * (that run with a build for it), two different jobs (one job on both).
 */
static void next_trial_whole(struct analysis *a, const struct confound *cf, const struct run_result *b,
			     const struct run_result *c)
{
	if (cf->what == CF_STEPS)
		next_trial_add(a, "one trial",
			       analysis_printf(a, "profile %s again with %d or more active steps "
					       "(torch.profiler.schedule(wait=1, warmup=1, active=%d)), so that each "
					       "run has %d or more steady steps", short_runs(a, b, c),
					       PROFILE_ACTIVE_STEPS, PROFILE_ACTIVE_STEPS, MIN_STEADY_STEPS),
			       "holding the model, the batch, the precision and the GPU model constant");
	else if (cf->what == CF_GPU_ARCH)
		next_trial_add(a, "one run", arch_run(a, b, c),
			       "holding the model, the batch, the precision and the GPU model constant, and "
			       "compare it with the other run");
	else if (cf->what == CF_WORKLOAD)
		next_trial_add(a, "one run",
			       analysis_printf(a, "run the same job on both GPU counts (%s): run '%s' again with "
					       "the job '%s' ran (or '%s' with the job of '%s')",
					       workload_diff(a, cf, b, c), b->name, c->name, c->name, b->name),
			       "holding the batch, the precision and the GPU model constant");
}

/*
 * What the same runs do answer when a confound blocks the question asked:
 * a changed global batch is the global-batch hypothesis's reading, another
 * GPU model a comparison of the two rentals. Marked as another question.
 */
static void another_question(struct analysis *a, const struct confound *cf, const struct run_result *b,
			     const struct run_result *c)
{
	const double tr = a->cmp.throughput_ratio, n = comparison_gpu_ratio(a);

	if (!(tr > 0) || !(b->samples_per_s > 0) || !(c->samples_per_s > 0))
		return;
	if (cf->what == CF_GLOBAL_BATCH && a->hypothesis == HYP_STEP_TIME)
		add(a, "another-question",
		    analysis_printf(a, "another question, not the one asked: under hypothesis = global-batch "
				    "(more GPUs carry a larger global batch) the same runs read %s the "
				    "throughput (%s against %s), a scaling efficiency of %.0f%% by "
				    "samples per second; set hypothesis = global-batch in trial.ini if that is the "
				    "question", analysis_qty(a, ratio_text, tr), analysis_qty(a, qty_num, c->samples_per_s),
				    analysis_rate(a, b->samples_per_s, "samples"), 100 * tr / n));
	else if (cf->what == CF_GPU_MODEL && cf->baseline && cf->candidate)
		add(a, "another-question",
		    analysis_printf(a, "another question, not the one asked: the same runs compare two "
				    "rentals, %dx %s against %dx %s: %s the throughput (%s against %s), "
				    "which says nothing about what the extra GPU adds", c->gpus,
				    cf->candidate, b->gpus, cf->baseline, analysis_qty(a, ratio_text, tr),
				    analysis_qty(a, qty_num, c->samples_per_s), analysis_rate(a, b->samples_per_s, "samples")));
}

/* Under a blocking confound: repeat the trial, the one run that would answer, what the runs do answer. */
static void blocked(struct analysis *a, const struct confound *cf, const struct run_result *b,
		    const struct run_result *c)
{
	if (cf->what != CF_GLOBAL_BATCH && cf->what != CF_GPUS)	/* run.ini, not a new trial, gives a GPU count */
		add(a, "repeat-trial", analysis_printf(a, "no advice is drawn from this comparison while "
						       "this stands: %s", confound_sentence(a, cf)));
	next_trial(a, cf, b, c);
	next_trial_whole(a, cf, b, c);
	another_question(a, cf, b, c);
}

/*
 * The order: what the run can fix itself (its transport, a bubble or a
 * straggler, its split), then the alternatives (independent runs, another
 * GPU), then the rental; independent runs first when the question is a sweep.
 */
void analysis_advise(struct analysis *a, const struct trial *t)
{
	const struct run_result *b, *c;
	const struct confound *block, *first;
	bool sweep = a->question == Q_HPARAM_SWEEP;

	if (!a->cmp.valid) {
		runs_alone(a);
		return;
	}
	b = &a->runs[a->cmp.baseline];
	c = &a->runs[a->cmp.candidate];
	use_feasibility(a, b, c);
	first = comparison_first_blocking(&a->cmp);
	if ((block = comparison_blocked(&a->cmp))) {
		blocked(a, block, b, c);
		return;
	}
	if (first)	/* the global batch changed, or a GPU count is unknown: the advice below still stands on the runs */
		blocked(a, first, b, c);
	if (sweep)
		independent_runs(a, b, c);
	nccl_transport(a, c);
	rebalance(a, c);
	host_bound_loss(a, c);
	if (!sweep)
		independent_runs(a, b, c);
	fits(a);
	rental(a, t, b, c);
}
