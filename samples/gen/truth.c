#include "samples/gen/truth.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/xalloc.h"
#include "samples/gen/logs.h"
#include "samples/gen/compare.h"
#include "samples/gen/stats.h"

#define MIB (1024LL * 1024)
#define GB 1000000000LL
/* the fit targets' capacities as their drivers report them (nvidia-smi, rocm-smi), as analyze judges */
#define H200_BYTES (143771 * MIB)
#define MI300X_BYTES 205822885888LL

/* --- JSON --- */

struct json {
	struct buf *b;
	int depth;
	int first;
};

static void jkey(struct json *j, const char *key)
{
	buf_addf(j->b, "%s\n%*s", j->first ? "" : ",", 2 * j->depth, "");
	j->first = 0;
	if (key)
		buf_addf(j->b, "\"%s\": ", key);
}

static void jopen(struct json *j, const char *key, char c)
{
	jkey(j, key);
	buf_addch(j->b, c);
	j->depth++;
	j->first = 1;
}

static void jclose(struct json *j, char c)
{
	j->depth--;
	buf_addf(j->b, "\n%*s%c", 2 * j->depth, "", c);
	j->first = 0;
}

static void jstr(struct json *j, const char *key, const char *v)
{
	jkey(j, key);
	if (!v) {
		buf_addstr(j->b, "null");
		return;
	}
	buf_addch(j->b, '"');
	for (; *v; v++) {
		if (*v == '"' || *v == '\\')
			buf_addch(j->b, '\\');
		buf_addch(j->b, *v);
	}
	buf_addch(j->b, '"');
}

static void jint(struct json *j, const char *key, int64_t v)
{
	jkey(j, key);
	buf_addf(j->b, "%lld", (long long)v);
}

static void jnum(struct json *j, const char *key, double v)
{
	jkey(j, key);
	if (isnan(v))
		buf_addstr(j->b, "null");
	else
		buf_addf(j->b, "%.9g", v);
}

static void jnull(struct json *j, const char *key)
{
	jkey(j, key);
	buf_addstr(j->b, "null");
}

static void jbool(struct json *j, const char *key, int v)
{
	jkey(j, key);
	buf_addstr(j->b, v ? "true" : "false");
}


/* A sum of parts in seconds (ns in, s out). */
static void put_parts(struct json *j, const char *key, const int64_t part[NPART])
{
	jopen(j, key, '{');
	for (int p = 0; p < NPART; p++)
		jnum(j, part_keys[p], (double)part[p] / 1e9);
	jclose(j, '}');
}

static double busbw(const struct coll_stat *c, int64_t t, int gpus)
{
	return (double)c->bytes / ((double)t / 1e9) * coll_busbw_factor((enum coll_op)c->coll, gpus) / 1e9;
}

/* Collectives per steady step: rank r's own, or the run's mean over ranks (r = RUN_COLL). */
static void put_collectives(struct json *j, const struct run_stats *st, int r)
{
	int gpus = st->run->spec->gpus;
	double div = (double)st->measured * (r == RUN_COLL ? st->run->nranks : 1);

	jopen(j, "collectives", '[');
	for (int i = 0; i < st->ncoll[r] && !st->failed; i++) {
		const struct coll_stat *c = &st->coll[r][i];
		double bytes = (double)c->bytes / div, t = (double)c->time / 1e9 / div;

		jopen(j, NULL, '{');
		jstr(j, "op", coll_name((enum coll_op)c->coll));
		jstr(j, "dtype", dtype_name((enum dtype)c->dt));
		jnum(j, "bytes_per_step", bytes);
		jnum(j, "time_per_step_s", t);
		jnum(j, "transfer_time_per_step_s", (double)c->xfer / 1e9 / div);
		jnum(j, "calls_per_step", (double)c->calls / div);
		jnum(j, "algbw_gbps", bytes / t / 1e9);
		jnum(j, "busbw_gbps", busbw(c, c->time, gpus));
		jnum(j, "transfer_busbw_gbps", busbw(c, c->xfer, gpus));
		jclose(j, '}');
	}
	jclose(j, ']');
}

static void put_gpu(struct json *j, const struct run_stats *st, int r)
{
	const struct sim_run *run = st->run;
	const struct rank_stats *s = &st->rk[r];

	jopen(j, NULL, '{');
	jint(j, "rank", r);
	jint(j, "device", r);
	jstr(j, "name", run->gpu->name);
	/* without a trace, only nvidia-smi's whole MiB of memory.total is known */
	jint(j, "memory_total_bytes", st->failed || st->logs ? run->gpu->mem / MIB * MIB : run->gpu->mem);
	jint(j, "peak_memory_bytes", st->peak_smi[r]);
	jstr(j, "peak_memory_source", "nvidia-smi");
	if (st->failed || st->logs) {
		/* a log's iterations are the run's windows, reported on its first GPU */
		if (st->logs && r == 0)
			jnum(j, "mean_step_s", s->mean_step);
		else
			jnull(j, "mean_step_s");
		jnull(j, "clock_offset_s");
		jnull(j, "step_s");
		jnull(j, "span_s");
		jclose(j, '}');
		return;
	}
	jint(j, "peak_memory_reserved_bytes", run->rank[r].peak_reserved);
	jint(j, "peak_memory_allocated_bytes", run->rank[r].peak_alloc);
	jnum(j, "mean_step_s", s->mean_step);
	jnum(j, "clock_offset_s", stats_clock_offset_s(run, r));
	jopen(j, "step_s", '{');
	for (int p = 0; p < NPART; p++)
		jnum(j, part_keys[p], s->mean[p]);
	jclose(j, '}');
	put_parts(j, "span_s", s->span);
	jnum(j, "span_dur_s", (double)(s->span_end - s->span_start) / 1e9);
	if (run->nranks > 1)	/* each rank's own view; the run's is their mean */
		put_collectives(j, st, r);
	jclose(j, '}');
}

/* A run without traces: the log's iterations, on the first GPU, with no start and no parts. */
static void put_log_windows(struct json *j, const struct run_stats *st)
{
	for (int i = 0; i < st->n; i++) {
		jopen(j, NULL, '{');
		jint(j, "step", i + 1);	/* Megatron-LM counts iterations from 1 */
		jint(j, "rank", 0);
		jnull(j, "start_ns");
		jnum(j, "dur_s", st->log_s[i]);
		jbool(j, "warmup", i < st->warmup);
		jbool(j, "trailing", 0);
		for (int p = 0; p <= P_IDLE; p++)
			jnull(j, part_keys[p]);
		jclose(j, '}');
	}
}

/* Every window of every rank; start_ns on the rank's own trace clock (Unix ns). */
static void put_windows(struct json *j, const struct run_stats *st)
{
	const struct sim_run *run = st->run;

	jopen(j, "step_windows", '[');
	if (st->logs)
		put_log_windows(j, st);
	for (int r = 0; r < run->nranks && !st->failed && !st->logs; r++) {
		const struct rank_stats *s = &st->rk[r];

		for (int i = 0; i < st->n; i++) {
			jopen(j, NULL, '{');
			jint(j, "step", run->spec->first_step + i);
			jint(j, "rank", r);
			jint(j, "start_ns", run->epoch_ns + s->start[i] + run->spec->clock_offset_us[r] * 1000);
			jnum(j, "dur_s", (double)(s->end[i] - s->start[i]) / 1e9);
			jbool(j, "warmup", i < st->warmup);
			jbool(j, "trailing", st->trailing && i == st->n - 1);
			for (int p = 0; p <= P_IDLE; p++)
				jnum(j, part_keys[p], (double)s->part[i][p] / 1e9);
			jclose(j, '}');
		}
	}
	jclose(j, ']');
}

static void put_comm(struct json *j, const struct run_stats *st)
{
	const struct run_spec *s = st->run->spec;

	jopen(j, "comm", '{');
	jstr(j, "transport", s->comm == COMM_NONE ? NULL : s->tr == TR_SOCKET ? "net-socket" : "p2p");
	jstr(j, "nccl_version", s->comm == COMM_NONE ? NULL : "2.26.2");
	put_collectives(j, st, RUN_COLL);
	jclose(j, '}');
}

static void put_precision(struct json *j, const struct run_stats *st)
{
	const struct run_spec *s = st->run->spec;

	jopen(j, "precision", '{');
	jstr(j, "declared", s->undeclared ? NULL : s->declared ? s->declared : dtype_name(s->prec));
	if (st->failed || st->logs) {
		jnull(j, "observed");
		jnull(j, "matmul_share");
		jclose(j, '}');
		return;
	}
	jstr(j, "observed", st->observed == DT_UNKNOWN ? NULL : dtype_name((enum dtype)st->observed));
	jopen(j, "matmul_share", '{');
	for (int d = 1; d < DT_COUNT; d++)	/* time of an unknown dtype stays in the denominator */
		if (st->share[d] > 0)
			jnum(j, dtype_name((enum dtype)d), st->share[d]);
	jclose(j, '}');
	jnum(j, "unknown_share", st->share[DT_UNKNOWN]);
	jclose(j, '}');
}

static void put_steps(struct json *j, const struct run_stats *st)
{
	if (st->failed) {
		jnull(j, "steps");
		jnull(j, "step_time_s");
		jnull(j, "throughput");
		jnull(j, "examples_processed");
		return;
	}
	jopen(j, "steps", '{');
	jint(j, "total", st->n);
	jint(j, "warmup", st->warmup);
	jint(j, "measured", st->measured);
	jint(j, "trailing", st->trailing);
	jclose(j, '}');
	jopen(j, "step_time_s", '{');
	jnum(j, "median", st->med);
	jnum(j, "p10", st->p10);
	jnum(j, "p90", st->p90);
	jnum(j, "cv", st->cv);
	jstr(j, "source", st->logs ? "log-iterations" : "trace");
	jclose(j, '}');
	jopen(j, "throughput", '{');
	jnum(j, "samples_per_s", st->sps);
	jnum(j, "tokens_per_s", st->run->spec->seq_len ? st->tps : NAN);
	jclose(j, '}');
	jint(j, "examples_processed", (int64_t)st->run->spec->global_batch * st->measured);
}

static void put_imbalance(struct json *j, const struct run_stats *st)
{
	if (st->run->nranks < 2 || st->failed || st->logs) {
		jnull(j, "imbalance");
		return;
	}
	jopen(j, "imbalance", '{');
	jnum(j, "memory_ratio", st->mem_ratio);
	jnum(j, "busy_ratio", st->busy_ratio);
	jbool(j, "flagged", st->flagged);
	jstr(j, "reason", st->flagged ? st->reason : NULL);
	jopen(j, "waiting", '[');	/* the ranks whose exposed waiting is over 25% of their step */
	for (int r = 0; r < st->run->nranks; r++) {
		if (!st->waits[r])
			continue;
		jopen(j, NULL, '{');
		jint(j, "rank", r);
		jint(j, "waits_for", st->waits_for[r]);
		jnum(j, "wait_per_step_s", st->rk[r].mean[P_WAIT]);
		jclose(j, '}');
	}
	jclose(j, ']');
	jclose(j, '}');
}

/* FLOPs from the recorded shapes over the steady steps: per step (every GPU) and per matmul second. */
static void put_mfu(struct json *j, const struct run_stats *st)
{
	double flops = 0, ns = 0;

	jopen(j, "mfu", '{');
	for (int r = 0; r < st->run->nranks && !st->failed && !st->logs; r++)
		flops += st->flops[r], ns += (double)st->mm_ns[r];
	if (flops > 0 && ns > 0 && st->measured > 0) {
		jnum(j, "flops_per_step", flops / st->measured);
		jnum(j, "tflops", flops / (ns / 1e9) / 1e12);
	} else {
		jnull(j, "flops_per_step");
		jnull(j, "tflops");
	}
	jopen(j, "per_gpu_tflops", '[');
	for (int r = 0; r < st->run->nranks && !st->failed && !st->logs; r++)
		if (st->mm_ns[r] > 0)
			jnum(j, NULL, st->flops[r] / ((double)st->mm_ns[r] / 1e9) / 1e12);
	jclose(j, ']');
	jclose(j, '}');
}

static void put_run(struct json *j, const struct run_stats *st)
{
	const struct run_spec *s = st->run->spec;

	jopen(j, NULL, '{');
	jstr(j, "name", s->dir);
	jint(j, "gpus", s->gpus);
	jstr(j, "status", st->failed ? "failed-oom" : "completed");
	jstr(j, "strategy", s->strategy);
	jint(j, "global_batch", s->global_batch);
	jint(j, "micro_batch", s->micro_batch);
	jint(j, "grad_accum", s->grad_accum);
	if (s->seq_len)
		jint(j, "seq_len", s->seq_len);
	else
		jnull(j, "seq_len");
	put_precision(j, st);
	put_steps(j, st);
	put_mfu(j, st);
	jopen(j, "per_gpu", '[');
	for (int r = 0; r < st->run->nranks; r++)
		put_gpu(j, st, r);
	jclose(j, ']');
	put_windows(j, st);
	put_comm(j, st);
	put_imbalance(j, st);
	jint(j, "slowest_rank", st->slowest);
	jclose(j, '}');
}

static void put_confounds(struct json *j, const struct gen_comparison *c)
{
	jopen(j, "confounds", '[');
	for (int i = 0; i < c->ncf; i++) {
		const struct gen_confound *cf = &c->cf[i];

		jopen(j, NULL, '{');
		jstr(j, "what", cf->what);
		jstr(j, "baseline", cf->baseline[0] ? cf->baseline : NULL);
		jstr(j, "candidate", cf->candidate[0] ? cf->candidate : NULL);
		jstr(j, "severity", severity_names[cf->sev]);
		jclose(j, '}');
	}
	jclose(j, ']');
}

/* How the runs were found to be one job; overlaps only from kernel families. */
static void put_workload(struct json *j, const struct gen_comparison *c)
{
	jopen(j, "workload", '{');
	jstr(j, "basis", basis_names[c->basis]);
	jnum(j, "baseline_overlap", c->overlap[0]);
	jnum(j, "candidate_overlap", c->overlap[1]);
	jclose(j, '}');
}

static void put_superlinear(struct json *j, const struct gen_comparison *c)
{
	if (!c->superlinear) {
		jnull(j, "superlinear");
		return;
	}
	jopen(j, "superlinear", '{');
	jnum(j, "efficiency", c->eff);
	jopen(j, "causes", '[');
	for (int i = 0; i < NCAUSE; i++)
		if (c->cause[i])
			jstr(j, NULL, cause_ids[i]);
	jclose(j, ']');
	jclose(j, '}');
}

/* The sorted set of what weakens the verdict (comparison.weak_evidence[].what). */
static void put_weak(struct json *j, const struct gen_comparison *c)
{
	jopen(j, "weak_evidence_what", '[');
	for (int i = 0; i < NWEAK; i++)
		if (c->weak[i])
			jstr(j, NULL, weak_names[i]);
	jclose(j, ']');
}

static double expected_speedup(const struct scenario *sc)
{
	return sc->expected_centi ? sc->expected_centi / 100.0 : 1.1;
}

static void put_verdict(struct json *j, const struct gen_comparison *c)
{
	const struct scenario *sc = c->sc;
	const struct run_stats *st = c->st;
	double want = expected_speedup(sc);
	char why[512], crit[256];
	const char *v;

	if (!strcmp(sc->hypothesis, "feasibility")) {
		int fits = !st[1].failed;

		for (int r = 0; r < st[1].run->nranks; r++)
			fits = fits && st[1].peak_smi[r] < st[1].run->gpu->mem;
		v = c->blocking ? "inconclusive" : st[0].failed && fits ? "confirmed" : "refuted";
		snprintf(why, sizeof(why), "the 1-GPU run died of CUDA OOM; the %d-GPU run completed %d steps with every GPU under capacity",
			 st[1].run->nranks, st[1].n);
		snprintf(crit, sizeof(crit), "the baseline failed (OOM or absent) and the candidate completed its steps with every GPU under capacity");
	} else {
		/* a failed baseline answered whether the job runs at all, not how fast */
		v = c->blocking || st[0].failed ? "inconclusive" : c->speedup >= want ? "confirmed" : "refuted";
		snprintf(why, sizeof(why), "speedup %.2f %s %.2f%s%s", c->speedup, c->speedup >= want ? ">=" : "<", want,
			 c->note[0] ? "; " : "", c->note);
		snprintf(crit, sizeof(crit), "speedup >= %.2f (expected_speedup) with no blocking confound", want);
	}
	jstr(j, "verdict", v);
	jstr(j, "reason", why);
	jstr(j, "criterion", crit);
	jnum(j, "expected_speedup", want);
}

/* hparam-sweep: do n independent baseline runs beat one candidate run in samples/s? */
static const char *answer(const struct gen_comparison *c)
{
	const struct run_stats *st = c->st;

	if (strcmp(c->sc->question, "hparam-sweep"))
		return NULL;
	if (c->blocked || st[1].failed)
		return "unknown";
	if (st[0].failed)	/* the baseline cannot hold the job: only the distributed run trains it */
		return "distributed";
	return c->n * st[0].sps > st[1].sps ? "independent-runs" : "distributed";
}

/*
 * Each option's rental numbers: the baseline's GPUs and the candidate's, each
 * on the fewest lots of 2 GPUs that hold it, for the shortest of 3, 7 or 30
 * days that holds the days with a 15% margin (consecutive 30-day windows
 * beyond); the cost is what is rented.
 */
static void put_option(struct json *j, const struct scenario *sc, const struct run_stats *st)
{
	int g = st->run->nranks, lots = (g + 1) / 2;
	double sps = st->failed ? NAN : st->sps;
	double days = sc->target_samples && !st->failed ? (double)sc->target_samples / sps / 86400 : NAN;
	double need = days * 1.15, window = NAN, count = NAN;
	static const int windows[] = { 3, 7, 30 };

	for (int i = 2; i >= 0; i--)
		if (need <= windows[i])
			window = windows[i], count = 1;
	if (need > 30)
		window = 30, count = ceil(need / 30);
	jopen(j, NULL, '{');
	jint(j, "gpus", g);
	jnum(j, "samples_per_s", sps);
	jnum(j, "gpu_hours_per_million_samples", g * 1e6 / sps / 3600);
	jnum(j, "days_to_target", days);
	jnum(j, "window_days", window);
	jnum(j, "windows", count);
	jint(j, "lots", lots);
	jnum(j, "gpu_hours_to_target", g * days * 24);
	jnum(j, "window_gpu_hours", lots * 2 * window * count * 24);
	jnum(j, "cost", sc->price_centi ? lots * 2 * window * count * 24 * sc->price_centi / 100.0 : NAN);
	jclose(j, '}');
}

/* n Xc - Xb on each run's slowest rank; none without a partition on both sides. */
static void put_attribution(struct json *j, const struct gen_comparison *c)
{
	const struct run_stats *st = c->st;
	const struct rank_stats *s1 = &st[0].rk[st[0].slowest], *sn = &st[1].rk[st[1].slowest];
	static const int parts[] = { P_COMPUTE, P_EXPOSED, P_MEMORY, P_IDLE };
	double n = c->n;

	if (st[0].failed || st[0].logs || st[1].logs) {
		jnull(j, "attribution_s");
		return;
	}
	jopen(j, "attribution_s", '{');
	for (int p = 0; p < 4; p++)
		jnum(j, part_keys[parts[p]], n * sn->mean[parts[p]] - s1->mean[parts[p]]);
	jclose(j, '}');
	jnum(j, "attribution_total_s", n * sn->mean_step - s1->mean_step);
}

static void put_comparison(struct json *j, const struct gen_comparison *c)
{
	const struct scenario *sc = c->sc;

	jopen(j, "comparison", '{');
	jstr(j, "baseline", sc->runs[0].dir);
	jstr(j, "candidate", sc->runs[1].dir);
	jnum(j, "n", c->n);
	jnum(j, "speedup", c->speedup);
	jnum(j, "throughput_ratio", c->ratio);
	jnum(j, "scaling_efficiency", c->eff);
	put_confounds(j, c);
	put_workload(j, c);
	put_superlinear(j, c);
	put_weak(j, c);
	put_attribution(j, c);
	put_verdict(j, c);
	jstr(j, "answer", answer(c));
	/* one option per run with a throughput; none from a blocked comparison */
	jopen(j, "options", '[');
	for (int i = 0; i < 2 && !c->blocked; i++)
		if (!c->st[i].failed)
			put_option(j, sc, &c->st[i]);
	jclose(j, ']');
	jclose(j, '}');
}

static void put_ids(struct json *j, const char *key, const char *const ids[], const int on[], int n, int want)
{
	jopen(j, key, '[');
	for (int i = 0; i < n; i++) {
		if (on[i] != want)
			continue;
		jopen(j, NULL, '{');
		jstr(j, "id", ids[i]);
		jclose(j, '}');
	}
	jclose(j, ']');
}

/* What the job needs on one GPU: the larger of the baseline's memory model
 * (plus the allocation it failed on, when it died of OOM) and the
 * candidate's: the sum of its GPUs' peaks when the strategy splits the
 * model, the largest one when it replicates it (single, ddp). */
static int64_t one_gpu_need(const struct run_stats st[2])
{
	int64_t base = compare_memory_model(&st[0]) + (st[0].failed ? LOGS_OOM_ALLOC_MIB * MIB : 0);
	int64_t model = compare_memory_model(&st[1]);

	return base > model ? base : model;
}

/* A pipeline bubble: a pipeline run whose GPUs wait for a peer with their
 * compute balanced (busy ratio at most 1.25) and memory too (ratio at most 2):
 * the advice is more micro-batches, not moving work between the stages. */
static int bubble(const struct run_stats *st)
{
	int waits = 0;

	for (int r = 0; r < st->run->nranks; r++)
		waits |= st->waits[r];
	return !strcmp(st->run->spec->strategy, "pipeline") && waits && st->busy_ratio <= 1.25 &&
	       st->mem_ratio <= 2;
}

/* The recommendations the scenario warrants, and those it rules out (the test
 * checks both). Nothing is drawn from a comparison that a confound other than
 * global_batch blocks: the one piece of advice is then to repeat the trial.
 * Otherwise the rental options are always compared (without a target, by
 * GPU-hours per million samples). A baseline that failed under a speed
 * hypothesis answered feasibility instead. */
static void put_recommendations(struct json *j, const struct gen_comparison *c)
{
	static const char *const ids[] = { "two-independent-runs", "fix-nccl-transport", "rebalance",
					   "fits-h200", "fits-mi300x", "rental-window", "repeat-trial",
					   "use-feasibility", "fix-pipeline-bubble" };
	enum { NIDS = sizeof(ids) / sizeof(ids[0]) };
	const struct scenario *sc = c->sc;
	const struct run_stats *st = c->st;
	int64_t need = one_gpu_need(st) + (int64_t)sc->reserve_gb * GB;
	int ok = !c->blocked && !st[0].failed, free = !c->blocked;
	int on[NIDS];

	on[0] = ok && c->n * st[0].sps > st[1].sps &&
		(st[1].sps / st[0].sps / c->n < 0.8 || !strcmp(sc->question, "hparam-sweep"));
	on[1] = free && st[1].run->spec->tr == TR_SOCKET;
	on[8] = free && st[1].flagged && bubble(&st[1]);
	on[2] = free && st[1].flagged && !on[8];
	on[3] = free && need <= H200_BYTES;
	on[4] = free && !on[3] && need <= MI300X_BYTES;
	on[5] = free && !st[1].failed;
	on[6] = c->blocked;
	on[7] = st[0].failed && strcmp(sc->hypothesis, "feasibility");
	put_ids(j, "recommendations", ids, on, NIDS, 1);
	put_ids(j, "recommendations_absent", ids, on, NIDS, 0);
	jint(j, "one_gpu_need_bytes", need);
}

/* One finding analysis.json must hold: its code, severity and run (NULL: the comparison's). */
static void put_finding(struct json *j, const char *code, const char *sev, const char *run)
{
	jopen(j, NULL, '{');
	jstr(j, "code", code);
	jstr(j, "severity", sev);
	jstr(j, "run", run);
	jclose(j, '}');
}

/* Whether run.ini contradicts what the run's log shows. */
static int manifest_contradicted(const struct run_spec *s)
{
	return (s->ini_global_batch && s->ini_global_batch != s->global_batch) ||
	       (s->ini_micro_batch && s->ini_micro_batch != s->micro_batch);
}

/* Whether some GPU of the run did work the trace holds no launch for (so no step). */
static int has_unlinked(const struct sim_run *run)
{
	for (int r = 0; r < run->nranks; r++)
		for (size_t i = 0; i < run->rank[r].nev; i++)
			if (run->rank[r].ev[i].unlinked)
				return 1;
	return 0;
}

/* Findings that must be present, and codes that must not appear. */
static void put_findings(struct json *j, const struct gen_comparison *c)
{
	static const char *const checked[] = { "manifest-conflict", "superlinear", "log-inconsistent",
					       "log-summary-timing", "log-timing" };
	int want[5] = { 0 };

	jopen(j, "findings_expected", '[');
	for (int i = 0; i < 2; i++) {
		const struct run_spec *s = c->st[i].run->spec;

		if (manifest_contradicted(s)) {
			put_finding(j, "manifest-conflict", "error", s->dir);
			want[0] = 1;
		}
		if (c->st[i].logs) {	/* step times from the log's iterations, said in a note */
			put_finding(j, "log-timing", "info", s->dir);
			want[4] = 1;
		}
		if (has_unlinked(c->st[i].run))	/* launched outside any profiled step, by the trace */
			put_finding(j, "gpu-work-outside-steps", "info", s->dir);
	}
	if (c->superlinear) {
		put_finding(j, "superlinear", "warning", NULL);
		want[1] = 1;
	}
	jclose(j, ']');
	jopen(j, "findings_absent", '[');
	for (int i = 0; i < 5; i++)
		if (!want[i])
			jstr(j, NULL, checked[i]);
	jclose(j, ']');
}

void truth_json(struct buf *b, const struct scenario *sc, const struct sim_run runs[2])
{
	struct run_stats *st = xcalloc(2, sizeof(*st));
	struct gen_comparison *c = xcalloc(1, sizeof(*c));
	struct json j = { .b = b, .depth = 0, .first = 1 };

	run_stats(&st[0], &runs[0]);
	run_stats(&st[1], &runs[1]);
	compare_runs(c, sc, st);
	buf_addch(b, '{');
	j.depth = 1;
	jstr(&j, "scenario", sc->name);
	jstr(&j, "generator", "scaleaudit-gen " SCALEAUDIT_VERSION);
	jopen(&j, "trial", '{');
	jstr(&j, "title", sc->title);
	jstr(&j, "hypothesis", sc->hypothesis);
	jstr(&j, "baseline", sc->runs[0].dir);
	jstr(&j, "candidate", sc->runs[1].dir);
	jstr(&j, "question", sc->question);
	jclose(&j, '}');
	jopen(&j, "runs", '[');
	put_run(&j, &st[0]);
	put_run(&j, &st[1]);
	jclose(&j, ']');
	put_comparison(&j, c);
	put_recommendations(&j, c);
	put_findings(&j, c);
	buf_addstr(b, "\n}\n");
	free(c);
	free(st);
}
