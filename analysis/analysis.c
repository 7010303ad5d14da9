/*
 * analysis: runs every stage over a loaded trial and owns the result.
 */
#include "analysis/analysis.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/facts.h"
#include "analysis/plancheck.h"
#include "analysis/readiness.h"
#include "analysis/strategy.h"
#include "analysis/workload.h"
#include "core/buf.h"
#include "core/codes.h"
#include "core/qty.h"
#include "core/xalloc.h"

const char *mem_source_name(enum mem_source s)
{
	static const char *const names[] = {
		[MEM_NVSMI] = "nvidia-smi", [MEM_RESERVED] = "reserved",
		[MEM_ALLOCATED] = "allocated", [MEM_LOG] = "log",
	};

	return (unsigned)s < MEM_NSOURCES ? names[s] : NULL;
}

const char *confound_name(enum confound_what w)
{
	static const char *const names[] = {
		[CF_PRECISION] = "precision", [CF_GLOBAL_BATCH] = "global_batch",
		[CF_MICRO_BATCH] = "micro_batch", [CF_SEQ_LEN] = "seq_len",
		[CF_DATASET] = "dataset", [CF_MODEL] = "model", [CF_STEPS] = "steps",
		[CF_GPU_MODEL] = "gpu_model", [CF_GPU_ARCH] = "gpu_arch", [CF_WORKLOAD] = "workload",
		[CF_GPUS] = "gpus",
	};

	return names[w];
}

const char *confound_severity_name(enum confound_severity s)
{
	static const char *const names[] = {
		[CFS_BLOCKING] = "blocking", [CFS_WARNING] = "warning", [CFS_UNVERIFIED] = "unverified",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : NULL;
}

const char *verdict_name(enum verdict v)
{
	static const char *const names[] = {
		[VERDICT_NONE] = NULL, [VERDICT_CONFIRMED] = "confirmed",
		[VERDICT_REFUTED] = "refuted", [VERDICT_INCONCLUSIVE] = "inconclusive",
	};

	return names[v];
}

bool run_failed(const struct run_result *r)
{
	return r->status == RUN_FAILED_OOM || r->status == RUN_FAILED;
}

int64_t run_largest_peak(const struct run_result *r)
{
	int64_t best = -1;

	for (size_t g = 0; g < r->ngpu; g++)
		if (r->gpu[g].peak_memory > best)
			best = r->gpu[g].peak_memory;
	return best;
}

const char *analysis_printf(struct analysis *a, const char *fmt, ...)
{
	struct buf b = BUF_INIT;
	va_list ap;
	const char *s;

	buf_init(&b, 0);
	va_start(ap, fmt);
	buf_vaddf(&b, fmt, ap);
	va_end(ap);
	s = arena_strndup(&a->arena, b.data, b.len);
	buf_release(&b);
	return s;
}

static void add_finding(struct analysis *a, enum diag_severity sev, const char *code,
			const char *source, const char *message)
{
	xgrow(&a->findings, &a->cap_findings, a->nfindings + 1, sizeof(*a->findings));
	a->findings[a->nfindings++] = (struct finding){
		.severity = sev, .code = code, .message = arena_strdup(&a->arena, message),
		.source = source ? arena_strdup(&a->arena, source) : NULL,
	};
}

void analysis_finding(struct analysis *a, enum diag_severity sev, const char *code,
		      const struct srcpos *src, const char *fmt, ...)
{
	struct buf msg = BUF_INIT, pos = BUF_INIT;
	va_list ap;

	assert(codes_allow(code, sev));	/* every code is documented in core/codes.c */
	buf_init(&msg, 4096);
	buf_init(&pos, 0);
	va_start(ap, fmt);
	buf_vaddf(&msg, fmt, ap);
	va_end(ap);
	if (src && src->file) {
		srcpos_format(src, &pos);
		if (pos.len >= 2)
			pos.data[pos.len -= 2] = '\0';	/* drop the ": " */
	}
	add_finding(a, sev, code, pos.len ? pos.data : NULL, msg.data);
	buf_release(&msg);
	buf_release(&pos);
}

/* What the readers said about the files becomes findings too. */
static void findings_from_diags(struct analysis *a, const struct diags *d)
{
	struct buf pos = BUF_INIT;

	buf_init(&pos, 0);
	for (size_t i = 0; i < d->count; i++) {
		buf_reset(&pos);
		srcpos_format(&d->items[i].pos, &pos);
		if (pos.len >= 2)
			pos.data[pos.len -= 2] = '\0';
		add_finding(a, d->items[i].severity, d->items[i].code,
			    pos.len ? pos.data : NULL, d->items[i].message);
	}
	if (d->suppressed)
		analysis_finding(a, DIAG_INFO, "suppressed", NULL,
				 "%zu more messages about the inputs were not listed", d->suppressed);
	buf_release(&pos);
}

/* A declared precision's dtype; DT_UNKNOWN when unset or no dtype. */
static enum dtype declared_dtype(const struct fact_str *f)
{
	return f->v ? precision_parse(f->v, strlen(f->v)) : DT_UNKNOWN;
}

/*
 * The declared precision (run.ini's, but the log's where it names another
 * dtype or run.ini none: the log is what the job ran with) becomes the run's
 * precision_declared, normalised; a declaration that names no dtype is said
 * to be unknown, and one that disagrees with the observed precision is a
 * mismatch, each with its source.
 */
static void check_precision(struct analysis *a, const struct run *r, struct run_result *rr)
{
	enum dtype logged = declared_dtype(&r->logged.precision);
	const struct fact_str *decl = logged != DT_UNKNOWN &&
				      logged != declared_dtype(&r->declared.precision) ?
				      &r->logged.precision : &r->declared.precision;
	enum dtype want = declared_dtype(decl);

	if (r->declared.precision.v && declared_dtype(&r->declared.precision) == DT_UNKNOWN)
		analysis_finding(a, DIAG_WARNING, "precision-unchecked", &r->declared.precision.src,
				 "run '%s': the declared precision '%s' names no dtype, so it is unknown: "
				 "%s", rr->name, r->declared.precision.v,
				 rr->precision_observed == DT_UNKNOWN ? "no kernel shows the precision either" :
				 analysis_printf(a, "the observed %s is checked against no declaration",
						 dtype_name(rr->precision_observed)));
	rr->precision_declared = want != DT_UNKNOWN ? dtype_name(want) : NULL;
	if (want == DT_UNKNOWN || rr->precision_observed == DT_UNKNOWN ||
	    want == rr->precision_observed)
		return;
	analysis_finding(a, DIAG_WARNING, "precision-mismatch", &decl->src,
			 "run '%s' says %s, but %.0f%% of its matmul time ran in %s kernels",
			 rr->name, decl->v, 100 * rr->matmul_share[rr->precision_observed],
			 dtype_name(rr->precision_observed));
}

/* GPUs the monitor saw in a run, by distinct index. */
static size_t monitor_gpus(const struct run *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->ngpu; i++) {
		size_t j;

		for (j = 0; j < i && r->gpu[j].gpu != r->gpu[i].gpu; j++)
			;
		n += j == i;
	}
	return n;
}

/*
 * run.ini's gpus against the traces: against their world_size, or the ranks
 * traced when none gives one. Fewer ranks traced than declared is a partial
 * job (a warning); any other disagreement is an error, and the traces are
 * believed (docs/analysis.md, GPU count).
 */
static void check_gpu_count(struct analysis *a, const struct run *r, const struct run_result *rr)
{
	const struct fact_i64 *d = &r->declared.gpus;
	int32_t world = run_world_size(r);

	if (!d->set || !r->nranks)
		return;
	if (world > 0 && d->v != world)
		analysis_finding(a, DIAG_ERROR, "gpu-count-conflict", &d->src,
				 "run '%s': run.ini says gpus = %lld, but its traces say world_size = %d: "
				 "the run is counted as %d GPUs", rr->name, (long long)d->v, world, rr->gpus);
	else if (world <= 0 && d->v < (int64_t)r->nranks)
		analysis_finding(a, DIAG_ERROR, "gpu-count-conflict", &d->src,
				 "run '%s': run.ini says gpus = %lld, but there are traces of %zu ranks: "
				 "the run is counted as %d GPUs", rr->name, (long long)d->v, r->nranks, rr->gpus);
	else if (world <= 0 && d->v > (int64_t)r->nranks)
		analysis_finding(a, DIAG_WARNING, "gpu-count", &d->src,
				 "run '%s' declares %lld GPUs but has traces of %zu ranks",
				 rr->name, (long long)d->v, r->nranks);
}

/* A GPU as one source names it. */
struct named_gpu {
	const char *source;	/* "the trace", "collect_env", "nvidia-smi" */
	const char *name;
	int64_t memory;		/* bytes; -1 */
};

/* Device dev as each source names it, in the order they are believed; how many do. */
static size_t gpu_names(const struct run *r, int32_t dev, struct named_gpu out[3])
{
	size_t n = 0;

	for (size_t i = 0; i < r->nranks; i++)
		if (r->ranks[i].dev.index == dev && r->ranks[i].dev.name) {
			out[n++] = (struct named_gpu){ "the trace", r->ranks[i].dev.name,
						       r->ranks[i].dev.memory_total };
			break;
		}
	if (dev >= 0 && (size_t)dev < r->env.ngpus && r->env.gpus[dev])
		out[n++] = (struct named_gpu){ "collect_env", r->env.gpus[dev], -1 };
	for (size_t i = 0; i < r->ngpu; i++)
		if (r->gpu[i].gpu == dev && r->gpu[i].name) {
			out[n++] = (struct named_gpu){ "nvidia-smi", r->gpu[i].name, r->gpu[i].memory_total };
			break;
		}
	return n;
}

/*
 * The GPU model of each device in the trace (deviceProperties), collect_env
 * and nvidia-smi: where one names another model than the source believed
 * first (in that order), a finding names both.
 */
static void check_gpu_models(struct analysis *a, const struct run *r, const struct run_result *rr)
{
	int32_t last = (int32_t)r->env.ngpus - 1;

	for (size_t i = 0; i < r->nranks; i++)
		if (r->ranks[i].dev.index > last)
			last = r->ranks[i].dev.index;
	for (size_t i = 0; i < r->ngpu; i++)
		if (r->gpu[i].gpu > last)
			last = r->gpu[i].gpu;
	for (int32_t dev = 0; dev <= last && dev < 1024; dev++) {
		struct named_gpu g[3];
		size_t n = gpu_names(r, dev, g);

		for (size_t j = 1; j < n; j++)
			if (gpu_models_differ(g[0].name, g[0].memory, g[j].name, g[j].memory))
				analysis_finding(a, DIAG_WARNING, "gpu-model-conflict", NULL,
						 "run '%s', GPU %d: %s says %s, %s says %s: %s is believed",
						 rr->name, dev, g[0].source, g[0].name, g[j].source,
						 g[j].name, g[0].source);
	}
}

const char *analysis_qty(struct analysis *a, const char *(*fmt)(char *, double), double v)
{
	char b[QTY_LEN];

	return analysis_printf(a, "%s", fmt(b, v));
}

const char *analysis_rate(struct analysis *a, double per_s, const char *what)
{
	char b[QTY_LEN];

	return analysis_printf(a, "%s", qty_rate(b, per_s, what));
}

/* GPU work launched outside any profiled step, per rank, where the rank has steps at all. */
static void check_outside_steps(struct analysis *a, const struct run *r, const struct run_result *rr)
{
	char t[QTY_LEN];

	for (size_t g = 0; g < r->nranks; g++) {
		const struct rank *k = &r->ranks[g];
		size_t in = 0, out = 0;
		int64_t ns = 0;

		for (size_t i = 0; i < k->nev; i++) {
			if (k->ev[i].step >= 0) {
				in++;
				continue;
			}
			out++;
			ns += k->ev[i].end - k->ev[i].start;
		}
		if (in && out)
			analysis_finding(a, DIAG_INFO, "gpu-work-outside-steps", NULL,
					 "run '%s', GPU %d: %zu of its %zu GPU activities (%s of GPU "
					 "time) were launched outside any profiled step and enter no step's "
					 "numbers", rr->name, k->rank >= 0 ? k->rank : (int)g, out, in + out,
					 qty_duration(t, ns / 1e9));
	}
}

/* What a run declares against what its logs show, and the values left unknown. */
static void check_run(struct analysis *a, const struct run *r, const struct run_result *rr)
{
	const char *inferred;
	size_t smi = monitor_gpus(r);

	check_gpu_count(a, r, rr);
	check_gpu_models(a, r, rr);
	check_outside_steps(a, r, rr);
	if (rr->ngpu && r->nranks && smi && smi != r->nranks)
		analysis_finding(a, DIAG_INFO, "gpu-count", NULL,
				 "run '%s': the traces show %zu ranks, nvidia-smi watched %zu GPUs",
				 rr->name, r->nranks, smi);
	if (r->declared.strategy.v && (inferred = run_inferred_strategy(rr)) &&
	    !strategy_same(inferred, r->declared.strategy.v))
		analysis_finding(a, DIAG_WARNING, "strategy-mismatch", &r->declared.strategy.src,
				 "run '%s' says strategy %s, but its collectives look like %s",
				 rr->name, r->declared.strategy.v, inferred);
	if (r->oom.src.file) {
		char tried[QTY_LEN] = "an unknown amount", cap[2 * QTY_LEN] = "", q[QTY_LEN];

		if (r->oom.tried_bytes >= 0)
			qty_gib(tried, (double)r->oom.tried_bytes);
		if (r->oom.capacity_bytes >= 0)
			snprintf(cap, sizeof(cap), " of a %s GPU", qty_gib(q, (double)r->oom.capacity_bytes));
		analysis_finding(a, DIAG_INFO, "cuda-oom", &r->oom.src,
				 "run '%s' ran out of GPU memory: it tried to allocate %s%s%s", rr->name,
				 tried, cap, r->oom.reserved_bytes >= 0 ?
				 analysis_printf(a, " with %s already reserved by PyTorch",
						 qty_gib(q, (double)r->oom.reserved_bytes)) : "");
	}
	if (rr->global_batch < 0 && rr->steps_measured > 0)
		analysis_finding(a, DIAG_WARNING, "global-batch-unknown", NULL,
				 "run '%s': the global batch is in no log or manifest, so throughput "
				 "and examples processed are unknown: add global_batch to its run.ini",
				 rr->name);
	for (size_t g = 0; g < rr->ngpu; g++)
		if (rr->gpu[g].peak_memory < 0 && rr->steps_measured > 0)
			analysis_finding(a, DIAG_WARNING, "memory-unknown", NULL,
					 "run '%s', GPU %d: no source gives its peak memory (record "
					 "nvidia-smi, or profile with profile_memory=True)",
					 rr->name, rr->gpu[g].rank);
}

static const char *own(struct analysis *a, const char *s)
{
	return s ? arena_strdup(&a->arena, s) : NULL;
}

/* The NCCL_* settings the run's log echoes, copied: the advice names them (advice.c). */
static void take_nccl_env(struct analysis *a, const struct run *r, struct run_result *rr)
{
	rr->nnccl_env = r->nnccl_env;
	rr->nccl_env = arena_alloc(&a->arena, (r->nnccl_env ? r->nnccl_env : 1) * sizeof(*rr->nccl_env));
	for (size_t i = 0; i < r->nnccl_env; i++)
		rr->nccl_env[i] = (struct env_setting){ own(a, r->nccl_env[i].name),
							own(a, r->nccl_env[i].value) };
}

/* The readiness' strings that still point into the trial (readiness.c). */
static void detach_readiness(struct analysis *a, struct readiness *rd)
{
	rd->gpu = own(a, rd->gpu);
	rd->isa = own(a, rd->isa);
	rd->torch = own(a, rd->torch);
	rd->torch_cuda = own(a, rd->torch_cuda);
	rd->arch_list = own(a, rd->arch_list);
	rd->driver = own(a, rd->driver);
	rd->nccl_version = own(a, rd->nccl_version);
	rd->verdict = own(a, rd->verdict);
	for (size_t i = 0; i < rd->nforeign; i++)
		rd->foreign[i].name = own(a, rd->foreign[i].name);
	for (size_t i = 0; i < rd->nchecks; i++)
		rd->checks[i].have = own(a, rd->checks[i].have);
}

/* Copies what a run's result takes from the model: its files, the monitor's samples, names. */
static void detach_run(struct analysis *a, const struct run *r, struct run_result *rr)
{
	rr->status_from_log = r->status != RUN_UNKNOWN;
	rr->nsources = r->nsources;
	rr->sources = arena_alloc(&a->arena, (r->nsources ? r->nsources : 1) * sizeof(*rr->sources));
	for (size_t i = 0; i < r->nsources; i++) {
		rr->sources[i] = r->sources[i];
		rr->sources[i].path = own(a, r->sources[i].path);
		rr->sources[i].format = own(a, r->sources[i].format);
	}
	rr->nmonitor = r->ngpu;
	rr->monitor = arena_alloc(&a->arena, (r->ngpu ? r->ngpu : 1) * sizeof(*rr->monitor));
	for (size_t i = 0; i < r->ngpu; i++) {
		rr->monitor[i] = r->gpu[i];
		rr->monitor[i].name = NULL;	/* the GPU's name is per_gpu[].name */
	}
	rr->name = own(a, rr->name);
	rr->strategy = own(a, rr->strategy);
	rr->precision_declared = own(a, rr->precision_declared);
	rr->transport = own(a, rr->transport);
	rr->link = own(a, rr->link);
	rr->nccl_version = own(a, rr->nccl_version);
	rr->nsys_step_range = own(a, rr->nsys_step_range);
	detach_readiness(a, &rr->readiness);
	for (size_t g = 0; g < rr->ngpu; g++) {
		rr->gpu[g].name = own(a, rr->gpu[g].name);
		for (size_t k = 0; k < rr->gpu[g].ntop; k++) {
			struct kernel_time *t = &rr->gpu[g].top[k];

			t->name = own(a, t->name);
			for (size_t m = 0; m < t->nmembers; m++)
				t->members[m].name = own(a, t->members[m].name);
		}
	}
}

/*
 * The strings the stages took from the trial become the analysis' own, so
 * that the trial may be freed before the result is rendered.
 */
static void detach(struct analysis *a)
{
	a->title = own(a, a->title);
	a->currency = own(a, a->currency);
	a->cmp.decision.currency = a->currency;
	for (size_t i = 0; i < a->cmp.nconfounds; i++) {
		a->cmp.confounds[i].baseline = own(a, a->cmp.confounds[i].baseline);
		a->cmp.confounds[i].candidate = own(a, a->cmp.confounds[i].candidate);
	}
}

struct analysis *analysis_run(const struct trial *t)
{
	struct analysis *a = xcalloc(1, sizeof(*a));

	a->title = t->title.v;
	a->currency = t->currency.v;
	a->hypothesis = t->hypothesis;
	a->question = t->question;
	a->memory_reserve_bytes = t->memory_reserve_gb.set ? t->memory_reserve_gb.v * 1e9 : NAN;
	a->nruns = t->nruns;
	a->runs = arena_alloc(&a->arena, (t->nruns ? t->nruns : 1) * sizeof(*a->runs));
	findings_from_diags(a, &t->diags);
	for (size_t i = 0; i < t->nruns; i++) {
		analysis_run_one(a, t, &t->runs[i], &a->runs[i]);
		workload_run(a, &t->runs[i], &a->runs[i]);
		take_nccl_env(a, &t->runs[i], &a->runs[i]);
		check_precision(a, &t->runs[i], &a->runs[i]);
		analysis_declared(a, t, &t->runs[i], &a->runs[i]);
		check_run(a, &t->runs[i], &a->runs[i]);
		analysis_plan_check(a, &t->runs[i], &a->runs[i]);
		analysis_readiness(a, &t->runs[i], &a->runs[i]);
	}
	analysis_compare(a, t);
	analysis_diff(a, t);
	analysis_decide(a, t);
	analysis_advise(a, t);
	for (size_t i = 0; i < t->nruns; i++)
		detach_run(a, &t->runs[i], &a->runs[i]);
	detach(a);
	return a;
}

void analysis_free(struct analysis *a)
{
	if (!a)
		return;
	for (size_t i = 0; i < a->nruns; i++) {
		for (size_t g = 0; g < a->runs[i].ngpu; g++)
			free(a->runs[i].gpu[g].steps);
		free(a->runs[i].coll);
		free(a->runs[i].bw);
	}
	free(a->findings);
	free(a->recs);
	free(a->cmp.confounds);
	arena_release(&a->arena);
	free(a);
}
