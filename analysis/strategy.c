/*
 * strategy: how a run shares its model, from its collectives and the ops
 * that launched them, and which of its ranks the others wait for
 * (docs/analysis.md, "Strategy and stragglers").
 */
#include "analysis/strategy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/stats.h"
#include "analysis/thresholds.h"
#include "core/buf.h"
#include "core/launchop.h"
#include "core/qty.h"
#include "core/xalloc.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- strategy ----------------------------------------------------------- */

/* The parts of a strategy, in the order a mix names them. */
enum part { P_TENSOR, P_PIPELINE, P_FSDP, P_DDP, P_ALLTOALL, P_COUNT };

static const char *const part_names[P_COUNT] = {
	[P_TENSOR] = "tensor", [P_PIPELINE] = "pipeline", [P_FSDP] = "fsdp", [P_DDP] = "ddp",
	[P_ALLTOALL] = "alltoall",
};

/* Calls of the run's measured collectives, by what they say of the strategy. */
struct tally {
	size_t tensor;		/* all-reduce, all-gather, reduce-scatter of a tensor-parallel layer,
				   or an all-reduce in a module's forward pass */
	size_t allreduce;	/* any other all-reduce: gradients */
	size_t allgather, reducescatter;	/* outside tensor-parallel layers */
	size_t fsdp;		/* launched under FSDP */
	size_t p2p;		/* send and receive */
	size_t alltoall;
};

static void tally_event(struct tally *t, const struct gpu_event *e)
{
	unsigned where = e->op ? e->op->where : 0;
	bool tensor = where & LAUNCH_IN_TENSOR, forward = (where & LAUNCH_IN_FORWARD) &&
							  !(where & LAUNCH_IN_BACKWARD);

	switch ((enum coll_op)e->coll) {
	case COLL_ALLREDUCE:
		if (tensor || forward)
			t->tensor++;
		else
			t->allreduce++;
		break;
	case COLL_ALLGATHER:
	case COLL_REDUCESCATTER:
		if (tensor)
			t->tensor++;
		else if (e->coll == COLL_ALLGATHER)
			t->allgather++;
		else
			t->reducescatter++;
		break;
	case COLL_SENDRECV:
	case COLL_SEND:
	case COLL_RECV:
		t->p2p++;
		break;
	case COLL_ALLTOALL:
		t->alltoall++;
		break;
	default:
		break;
	}
	if ((where & LAUNCH_IN_FSDP) && !tensor)
		t->fsdp++;
}

static void tally_run(struct tally *t, const struct run_result *rr, const struct run *r)
{
	memset(t, 0, sizeof(*t));
	for (size_t g = 0; g < rr->ngpu && g < r->nranks; g++) {
		const struct rank *k = &r->ranks[g];
		struct steady_range steps = gpu_steady_range(&rr->gpu[g]);

		for (size_t i = 0; i < k->nev; i++)
			if (k->ev[i].cls == EVC_COMM && run_measures(rr, &steps, &k->ev[i]))
				tally_event(t, &k->ev[i]);
	}
}

/* The parts the tally shows: gathering and sharding together are FSDP (or ZeRO), not DDP. */
static void parts_of(const struct tally *t, bool part[P_COUNT])
{
	part[P_TENSOR] = t->tensor > 0;
	part[P_PIPELINE] = t->p2p > 0;
	part[P_FSDP] = (t->allgather > 0 && t->reducescatter > 0) || t->fsdp > 0;
	part[P_DDP] = t->allreduce > 0 && !part[P_FSDP];
	part[P_ALLTOALL] = t->alltoall > 0;
}

void strategy_infer(struct analysis *a, struct run_result *rr, const struct run *r)
{
	struct tally t;
	bool part[P_COUNT];
	struct buf b = BUF_INIT;

	rr->inferred_strategy = NULL;
	if (rr->gpus == 1) {
		rr->inferred_strategy = "single";
		return;
	}
	tally_run(&t, rr, r);
	parts_of(&t, part);
	for (int p = 0; p < P_COUNT; p++)
		if (part[p])
			buf_addf(&b, "%s%s", b.len ? "+" : "", part_names[p]);
	if (b.len)
		rr->inferred_strategy = analysis_printf(a, "%s", b.data);
	else if (rr->imbalance.flagged && rr->imbalance.memory_ratio > IMBALANCE_MEMORY_RATIO)
		rr->inferred_strategy = "device_map";	/* unequal memory, no collective that names one */
	buf_release(&b);
}

bool strategy_any(const char *strategy, bool (*fn)(const char *part, size_t len, const void *ctx),
		  const void *ctx)
{
	for (const char *p = strategy; p && *p;) {
		size_t len = strcspn(p, "+");

		if (fn(p, len, ctx))
			return true;
		p += len + (p[len] == '+');
	}
	return false;
}

/* ZeRO's collectives are FSDP's: the two names are one strategy here. */
static bool part_eq(const char *p, size_t len, const char *name)
{
	static const char *const alike[][2] = { { "zero", "fsdp" } };

	if (strlen(name) == len && !strncmp(p, name, len))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(alike); i++)
		for (int k = 0; k < 2; k++)
			if (!strcmp(name, alike[i][k]) && strlen(alike[i][!k]) == len &&
			    !strncmp(p, alike[i][!k], len))
				return true;
	return false;
}

static bool is_part(const char *p, size_t len, const void *part)
{
	return part_eq(p, len, part);
}

bool strategy_has(const char *strategy, const char *part)
{
	return strategy_any(strategy, is_part, part);
}

static bool not_in(const char *p, size_t len, const void *other)
{
	char part[32];

	if (len >= sizeof(part))
		return true;
	memcpy(part, p, len);
	part[len] = '\0';
	return !strategy_has(other, part);
}

bool strategy_same(const char *a, const char *b)
{
	return !strategy_any(a, not_in, b) && !strategy_any(b, not_in, a);
}

/* ---- stragglers --------------------------------------------------------- */

const struct step_parts *gpu_wait_basis(const struct gpu_result *g, double *len)
{
	const struct step_parts *p = !isnan(g->mean_step_s) ? &g->step_s : &g->span_s;

	*len = !isnan(g->mean_step_s) ? g->mean_step_s :
	       p->compute + p->exposed_comm + p->memory + p->idle;
	return p;
}

/*
 * Each GPU's waiting, idle and busy time and the length of its basis; false
 * when one is unknown, or the GPUs' bases differ.
 */
struct gpu_wait {
	double wait, idle, busy, len;
};

static bool gpu_waits(const struct run_result *rr, struct gpu_wait *w)
{
	for (size_t g = 0; g < rr->ngpu; g++) {
		double len;
		const struct step_parts *p = gpu_wait_basis(&rr->gpu[g], &len);

		if (isnan(rr->gpu[g].mean_step_s) != isnan(rr->gpu[0].mean_step_s))
			return false;	/* steps on some GPUs, spans on others: not comparable */
		w[g] = (struct gpu_wait){ p->exposed_comm_wait, p->idle, p->compute + p->memory, len };
		if (isnan(w[g].wait) || isnan(w[g].idle) || isnan(w[g].busy) || !(w[g].len > 0))
			return false;
	}
	return true;
}

/* The median over the GPUs but skip (SIZE_MAX: none) of one field, or of the GPUs in `only`. */
static double median_of(const struct gpu_wait *w, size_t n, size_t skip, const bool *only,
			double (*field)(const struct gpu_wait *))
{
	double *v = xmalloc((n ? n : 1) * sizeof(*v)), m;
	size_t k = 0;

	for (size_t g = 0; g < n; g++)
		if (g != skip && (!only || only[g]))
			v[k++] = field(&w[g]);
	m = stats_median(v, k);
	free(v);
	return m;
}

static double f_wait(const struct gpu_wait *w) { return w->wait; }
static double f_share(const struct gpu_wait *w) { return w->wait / w->len; }
static double f_idle(const struct gpu_wait *w) { return w->idle; }
static double f_busy(const struct gpu_wait *w) { return w->busy; }

/* "GPU 0", "GPUs 0 and 6", "GPUs 0, 3 and 6": the stragglers of one cause (NULL: all). */
static const char *gpu_list(struct analysis *a, const struct imbalance *im, const char *cause,
			    size_t *n)
{
	struct buf b = BUF_INIT;
	size_t k = 0, total = 0;
	const char *s;

	for (size_t i = 0; i < im->nstragglers; i++)
		total += !cause || !strcmp(im->stragglers[i].cause, cause);
	for (size_t i = 0; i < im->nstragglers; i++) {
		if (cause && strcmp(im->stragglers[i].cause, cause))
			continue;
		buf_addf(&b, "%s%d", !k ? "" : k + 1 == total ? " and " : ", ", im->stragglers[i].rank);
		k++;
	}
	s = total ? analysis_printf(a, "GPU%s %s", total > 1 ? "s" : "", b.data) : "";
	buf_release(&b);
	*n = total;
	return s;
}

/* "222.5 and 208.7 ms": the idle or busy time of the stragglers of one cause. */
static const char *times_of(struct analysis *a, const struct imbalance *im, const char *cause)
{
	struct buf b = BUF_INIT;
	size_t k = 0, total = 0;
	const char *s;
	char q[QTY_LEN];

	for (size_t i = 0; i < im->nstragglers; i++)
		total += !strcmp(im->stragglers[i].cause, cause);
	for (size_t i = 0; i < im->nstragglers; i++) {
		const struct straggler *x = &im->stragglers[i];

		if (strcmp(x->cause, cause))
			continue;
		buf_addf(&b, "%s%s", !k ? "" : k + 1 == total ? " and " : ", ",
			 qty_num(q, (!strcmp(cause, "host-bound") ? x->idle_s : x->busy_s) * 1e3));
		k++;
	}
	s = analysis_printf(a, "%s ms", b.data);
	buf_release(&b);
	return s;
}

/*
 * "GPUs 0 and 6 are host-bound (their GPUs idle 222.5 and 208.7 ms, the
 * others a median 9.5 ms)"; "" when no straggler has the cause.
 */
static const char *cause_clause(struct analysis *a, const struct imbalance *im, const char *cause,
				double others)
{
	size_t n;
	const char *who = gpu_list(a, im, cause, &n);
	bool host = !strcmp(cause, "host-bound");

	if (!n)
		return "";
	return analysis_printf(a, "; %s %s %s (%s %s %s, the others a median %s)", who,
			       n > 1 ? "are" : "is", cause, n > 1 ? "their GPUs" : "its GPU",
			       host ? (n > 1 ? "idle" : "idles") : (n > 1 ? "compute" : "computes"),
			       times_of(a, im, cause), analysis_qty(a, qty_duration, others));
}

static const char *straggler_reason(struct analysis *a, const struct imbalance *im,
				    const struct run_result *rr, const bool *waiter, double idle,
				    double busy)
{
	size_t n, others = rr->ngpu - im->nstragglers;
	const char *who = gpu_list(a, im, NULL, &n), *over, *waiting;
	bool span = !strcmp(im->per, "span");
	int32_t one = -1;

	for (size_t g = 0; g < rr->ngpu && one < 0; g++)
		if (waiter[g])
			one = rr->gpu[g].rank;
	over = span ? "over the profiled span" : "per step";
	if (others == 1)
		waiting = analysis_printf(a, "GPU %d waits %s %s (%.0f%% of its %s) in "
					  "collectives for %s", one, analysis_qty(a, qty_duration, im->straggler_cost_s), over,
					  100 * im->straggler_cost_share, span ? "span" : "step",
					  n > 1 ? "them" : "it");
	else
		waiting = analysis_printf(a, "the other %zu GPUs wait a median %s %s (%.0f%% of "
					  "their %s) in collectives for %s", others,
					  analysis_qty(a, qty_duration, im->straggler_cost_s), over, 100 * im->straggler_cost_share,
					  span ? "span" : "step", n > 1 ? "them" : "it");
	return analysis_printf(a, "%s %s: %s%s%s", who, n > 1 ? "are stragglers" : "is a straggler",
			       waiting, cause_clause(a, im, "host-bound", idle),
			       cause_clause(a, im, "computing", busy));
}

const char *stragglers_named(struct analysis *a, const struct imbalance *im, const char *cause)
{
	size_t n;

	return gpu_list(a, im, cause, &n);
}

const struct straggler *straggler_at(const struct imbalance *im, int32_t rank)
{
	for (size_t i = 0; i < im->nstragglers; i++)
		if (im->stragglers[i].rank == rank)
			return &im->stragglers[i];
	return NULL;
}

void stragglers_find(struct analysis *a, struct run_result *rr)
{
	struct imbalance *im = &rr->imbalance;
	struct gpu_wait *w;
	bool *waiter;
	double idle, busy;

	im->stragglers = NULL;
	im->nstragglers = 0;
	im->straggler_cost_s = im->straggler_cost_share = NAN;
	im->per = im->straggler_reason = NULL;
	if (rr->ngpu < 2)
		return;
	w = xcalloc(rr->ngpu, sizeof(*w));
	waiter = xcalloc(rr->ngpu, sizeof(*waiter));
	if (!gpu_waits(rr, w))
		goto out;
	im->per = isnan(rr->gpu[0].mean_step_s) ? "span" : "step";
	im->stragglers = arena_alloc(&a->arena, rr->ngpu * sizeof(*im->stragglers));
	for (size_t g = 0; g < rr->ngpu; g++) {
		double others = median_of(w, rr->ngpu, g, NULL, f_wait);

		waiter[g] = true;
		if (!(w[g].wait <= STRAGGLER_WAIT_RATIO * others) ||
		    !(median_of(w, rr->ngpu, g, NULL, f_share) >= ADVICE_PEER_WAIT_SHARE))
			continue;
		waiter[g] = false;
		im->stragglers[im->nstragglers++] = (struct straggler){
			.rank = rr->gpu[g].rank, .wait_s = w[g].wait, .idle_s = w[g].idle,
			.busy_s = w[g].busy,
		};
	}
	if (!im->nstragglers)
		goto out;
	idle = median_of(w, rr->ngpu, SIZE_MAX, waiter, f_idle);
	busy = median_of(w, rr->ngpu, SIZE_MAX, waiter, f_busy);
	for (size_t i = 0; i < im->nstragglers; i++) {
		struct straggler *s = &im->stragglers[i];

		s->cause = s->idle_s - idle >= s->busy_s - busy ? "host-bound" : "computing";
	}
	im->straggler_cost_s = median_of(w, rr->ngpu, SIZE_MAX, waiter, f_wait);
	im->straggler_cost_share = median_of(w, rr->ngpu, SIZE_MAX, waiter, f_share);
	im->reason = im->straggler_reason = straggler_reason(a, im, rr, waiter, idle, busy);
	im->saturated_rank = im->stragglers[0].rank;
	im->waiting_rank = -1;
	for (size_t g = 0; g < rr->ngpu && im->waiting_rank < 0; g++)
		if (waiter[g])
			im->waiting_rank = rr->gpu[g].rank;
	im->flagged = true;
out:
	free(waiter);
	free(w);
}
