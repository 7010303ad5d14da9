/*
 * advice: recommendations, each with the numbers it rests on (docs/analysis.md, Recommendations).
 */
#include <math.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/thresholds.h"
#include "core/gpu.h"
#include "core/xalloc.h"

#define DAY_S 86400.0

static void add(struct analysis *a, const char *id, const char *text)
{
	xgrow(&a->recs, &a->cap_recs, a->nrecs + 1, sizeof(*a->recs));
	a->recs[a->nrecs++] = (struct recommendation){ .id = id, .text = text };
}

/* Two independent runs instead of one distributed run. */
static void independent_runs(struct analysis *a, const struct run_result *b,
			     const struct run_result *c)
{
	double eff = a->cmp.scaling_efficiency;
	int n = c->gpus;

	if (isnan(eff) || n < 2 || (eff >= ADVICE_MIN_EFFICIENCY && a->question != Q_HPARAM_SWEEP))
		return;
	add(a, "two-independent-runs",
	    analysis_printf(a, "run %d independent %d-GPU jobs instead of one %d-GPU job: at %.0f%% "
			    "scaling efficiency, they finish %d configurations in %.0f%% of the time "
			    "the %d-GPU job needs for them one after another (%.1f ms per step on %d "
			    "GPU against %.1f ms on %d)",
			    n, b->gpus, n, 100 * eff, n, 100 * eff, n, b->step_median_s * 1e3,
			    b->gpus, c->step_median_s * 1e3, n));
}

/* The memory the job needs on one GPU, and where that figure comes from. */
static int64_t one_gpu_need(const struct analysis *a, const char **from)
{
	const struct run_result *b = &a->runs[a->cmp.baseline], *c = &a->runs[a->cmp.candidate];
	int64_t sum = 0;

	if (b->status == RUN_COMPLETED && b->ngpu == 1 && b->gpu[0].peak_memory > 0) {
		*from = "the 1-GPU run's peak";
		return b->gpu[0].peak_memory;
	}
	for (size_t g = 0; g < c->ngpu; g++) {
		if (c->gpu[g].peak_memory < 0)
			return -1;
		sum += c->gpu[g].peak_memory;
	}
	*from = "the sum of the GPUs' peaks";
	return c->ngpu ? sum : -1;
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
	double gb1 = one->memory_nominal / 1e9, gb2 = two->memory_nominal / 1e9;

	if (need < 0)
		return;
	if (need + reserve <= one->memory_nominal)
		add(a, "fits-h200", analysis_printf(a, "the job fits one %s (%.0f GB): %s is %.1f GB%s",
						    one->name, gb1, from, need / 1e9, rsv));
	else if (need + reserve <= two->memory_nominal)
		add(a, "fits-mi300x", analysis_printf(a, "the job does not fit one %s but fits one %s "
						      "(%.0f GB): %s is %.1f GB%s", one->name, two->name,
						      gb2, from, need / 1e9, rsv));
	else
		add(a, "needs-split", analysis_printf(a, "the job fits neither one %s (%.0f GB) nor one "
						      "%s (%.0f GB): %s is %.1f GB%s", one->name, gb1,
						      two->name, gb2, from, need / 1e9, rsv));
}

static void nccl_transport(struct analysis *a, const struct run_result *c)
{
	if (!c->transport || (strcmp(c->transport, "shm") && strcmp(c->transport, "net-socket")))
		return;
	add(a, "fix-nccl-transport",
	    analysis_printf(a, "NCCL moved the data over %s instead of GPU peer-to-peer: check "
			    "NCCL_P2P_DISABLE, the GPUs' topology (nvidia-smi topo -m) and, on "
			    "one host, NCCL_SHM/NCCL_SOCKET settings; exposed communication costs "
			    "%.1f ms per step", !strcmp(c->transport, "shm") ? "shared host memory" : "sockets",
			    c->ngpu ? c->gpu[c->slowest].step_s.exposed_comm * 1e3 : NAN));
}

/*
 * Rebalance the split on a flagged imbalance, with every reason. Waiting for
 * a slower peer is a pipeline bubble or a straggler, not a slow link: the
 * advice says so, so that nobody tunes NCCL for it.
 */
static void rebalance(struct analysis *a, const struct run_result *c)
{
	const struct imbalance *im = &c->imbalance;

	if (!im->flagged)
		return;
	if (!(im->peer_wait_share > ADVICE_PEER_WAIT_SHARE)) {
		add(a, "rebalance", analysis_printf(a, "rebalance the split: %s", im->reason));
		return;
	}
	add(a, "rebalance",
	    analysis_printf(a, "rebalance the split: %s; the waiting is for a slower peer (a "
			    "pipeline bubble or a straggler), not a slow link: give the GPU that "
			    "waits more of the work (layers, micro-batches) rather than tuning NCCL",
			    im->reason));
}

/* The smallest rental window (3, 7 or 30 days) that reaches the target. */
static void rental(struct analysis *a, const struct trial *t, const struct run_result *c)
{
	static const int windows[] = { 3, 7, 30 };
	double need_s = NAN;
	const char *what = NULL;
	int pick = 0;

	if (t->target_samples.set && c->samples_per_s > 0) {
		need_s = (double)t->target_samples.v / c->samples_per_s;
		what = analysis_printf(a, "%lld samples at %.1f samples/s", (long long)t->target_samples.v,
				       c->samples_per_s);
	} else if (t->target_tokens.set && c->tokens_per_s > 0) {
		need_s = (double)t->target_tokens.v / c->tokens_per_s;
		what = analysis_printf(a, "%lld tokens at %.0f tokens/s", (long long)t->target_tokens.v,
				       c->tokens_per_s);
	}
	if (isnan(need_s))
		return;
	for (size_t i = 0; i < 3 && !pick; i++)
		if (need_s <= windows[i] * DAY_S)
			pick = windows[i];
	if (!pick) {
		add(a, "rental-window", analysis_printf(a, "%s take %.1f days: longer than a 30-day campaign",
							what, need_s / DAY_S));
		return;
	}
	if (t->gpu_hour_price.set)
		add(a, "rental-window",
		    analysis_printf(a, "%s take %.1f days: a %d-day window fits; at %.2f per GPU-hour the "
				    "training costs %.0f on %d GPUs", what, need_s / DAY_S, pick,
				    t->gpu_hour_price.v, need_s / 3600 * c->gpus * t->gpu_hour_price.v,
				    c->gpus));
	else
		add(a, "rental-window", analysis_printf(a, "%s take %.1f days: a %d-day window fits",
							what, need_s / DAY_S, pick));
}

void analysis_advise(struct analysis *a, const struct trial *t)
{
	const struct run_result *b, *c;

	if (!a->cmp.valid)
		return;
	b = &a->runs[a->cmp.baseline];
	c = &a->runs[a->cmp.candidate];
	independent_runs(a, b, c);
	fits(a);
	nccl_transport(a, c);
	rebalance(a, c);
	rental(a, t, c);
}
