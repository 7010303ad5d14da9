#include "tests/unit/fixture_analysis.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/analysis.h"
#include "core/buf.h"
#include "core/diag.h"
#include "ingest/trial.h"
#include "render/charts.h"

#define NSTEPS 12
#define NSAMPLES 20
#define T0_NS 1764000000000000000LL	/* 2025-11-24, the monitor's first sample */

static void *alloc(struct analysis *a, size_t n, size_t size)
{
	return arena_alloc(&a->arena, n * size);
}

static struct step_parts parts(double c, double e, double m, double i, double comm)
{
	return (struct step_parts){ .compute = c, .exposed_comm = e, .memory = m, .idle = i,
				    .comm_total = comm, .overlapped_comm = comm - e };
}

/* Steps 0 and 1 are warm-up; the steady windows are given. */
static void set_steps(struct analysis *a, struct gpu_result *g, const double *windows,
		      struct step_parts mean)
{
	size_t k;

	g->nsteps = NSTEPS;
	g->steps = alloc(a, NSTEPS, sizeof(*g->steps));
	for (k = 0; k < NSTEPS; k++) {
		g->steps[k].number = (int64_t)k;
		g->steps[k].window_s = windows[k];
		g->steps[k].warmup = k < 2;
		g->steps[k].parts = mean;
	}
	g->step_s = mean;
	g->mean_step_s = mean.compute + mean.exposed_comm + mean.memory + mean.idle;
	g->busy_s = mean.compute + mean.exposed_comm + mean.memory;
}

struct kt {
	const char *label;
	double s;
	int cls;
};

static void set_top(struct analysis *a, struct gpu_result *g, const struct kt *k, size_t n)
{
	size_t i;

	g->ntop = n;
	g->top = alloc(a, n, sizeof(*g->top));
	for (i = 0; i < n; i++) {
		g->top[i].label = k[i].label;
		g->top[i].name = k[i].label;
		g->top[i].time_per_step_s = k[i].s;
		g->top[i].calls_per_step = 10;
		g->top[i].cls = (uint8_t)k[i].cls;
	}
}

static void set_lanes(struct analysis *a, struct gpu_result *g, const struct lane_span *l, size_t n,
		      double window)
{
	g->nlanes = n;
	g->lanes = alloc(a, n, sizeof(*l));
	memcpy(g->lanes, l, n * sizeof(*l));
	g->lanes_window_s = window;
	g->lanes_step = -1;	/* the steady step whose window is nearest `window` */
	for (size_t k = 0; k < g->nsteps; k++)
		if (!g->steps[k].warmup && (g->lanes_step < 0 ||
		    fabs(g->steps[k].window_s - window) < fabs(g->steps[g->lanes_step].window_s - window)))
			g->lanes_step = g->steps[k].number;
}

static void gpu_common(struct gpu_result *g, int32_t rank, int64_t peak)
{
	int s;

	g->rank = rank;
	g->device = rank;
	g->name = "NVIDIA B200";
	g->memory_total = FX_B200_TOTAL;
	g->peak_memory = peak;
	g->peak_source = "nvidia-smi";
	for (s = 0; s < MEM_NSOURCES; s++)
		g->peak_by_source[s] = -1;
	g->peak_by_source[MEM_NVSMI] = peak;
	g->peak_by_source[MEM_RESERVED] = peak - 2000000000LL;
}

static void run_common(struct run_result *r, const char *name, int gpus, const char *strategy,
		       int64_t micro)
{
	int t;

	r->name = name;
	r->gpus = gpus;
	r->status = RUN_COMPLETED;
	r->strategy = strategy;
	r->global_batch = 64;
	r->micro_batch = micro;
	r->grad_accum = 1;
	r->seq_len = 2048;
	r->precision_declared = "bf16";
	r->precision_observed = DT_BF16;
	for (t = 0; t < DT_COUNT; t++)
		r->matmul_share[t] = NAN;
	r->matmul_share[DT_BF16] = 0.97;
	r->matmul_share[DT_FP32] = 0.03;
	r->steps_total = NSTEPS;
	r->steps_warmup = 2;
	r->steps_measured = NSTEPS - 2;
	r->link_busbw_gbps = NAN;
	r->link_gbps = NAN;
	r->imbalance = (struct imbalance){ .memory_ratio = NAN, .busy_ratio = NAN,
					   .saturated_rank = -1, .waiting_rank = -1,
					   .straggler_cost_s = NAN, .straggler_cost_share = NAN };
	r->transport = "unknown";
	r->link = "unknown";
	r->failed_allocation = -1;
}

/* nvidia-smi every second: memory climbs to the peak over 5 s, utilisation 97% once running. */
static void set_monitor(struct analysis *a, struct run_result *r)
{
	size_t n = (size_t)NSAMPLES * r->ngpu, k;

	r->nmonitor = n;
	r->monitor = alloc(a, n, sizeof(*r->monitor));
	for (k = 0; k < n; k++) {
		struct gpu_sample *s = &r->monitor[k];
		size_t gi = k % r->ngpu, t = k / r->ngpu;

		s->ts = T0_NS + (int64_t)t * 1000000000LL;
		s->gpu = (int32_t)gi;
		s->memory_used = r->gpu[gi].peak_memory / 5 * (int64_t)(t < 5 ? t : 5);
		s->memory_total = FX_B200_TOTAL;
		s->util_gpu = t < 2 ? 0 : 97 - (double)gi * 4;
		s->power_w = 800;
	}
}

static const double base_windows[NSTEPS] = {
	1.850, 0.560, 0.410, 0.412, 0.414, 0.411, 0.413, 0.412, 0.415, 0.409, 0.412, 0.412,
};
static const double cand0_windows[NSTEPS] = {
	2.400, 0.500, 0.230, 0.228, 0.231, 0.229, 0.227, 0.230, 0.228, 0.229, 0.230, 0.228,
};
static const double cand1_windows[NSTEPS] = {
	2.400, 0.500, 0.232, 0.230, 0.233, 0.231, 0.229, 0.232, 0.230, 0.231, 0.233, 0.229,
};

static const struct kt base_top[] = {
	{ "GEMM bf16 (cuBLAS)", 0.250, EVC_COMPUTE },
	{ "flash-attn fwd", 0.048, EVC_COMPUTE },
	{ "flash-attn bwd", 0.041, EVC_COMPUTE },
	{ "elementwise (PyTorch)", 0.022, EVC_COMPUTE },
	{ "LayerNorm", 0.012, EVC_COMPUTE },
	{ "Memcpy HtoD", 0.010, EVC_MEMORY },
	{ "Adam (multi-tensor)", 0.007, EVC_COMPUTE },
};
static const struct kt cand_top[2][8] = {
	{ { "GEMM bf16 (cuBLAS)", 0.127, EVC_COMPUTE }, { "AllReduce bf16 (NCCL)", 0.083, EVC_COMM },
	  { "flash-attn fwd", 0.024, EVC_COMPUTE }, { "flash-attn bwd", 0.021, EVC_COMPUTE },
	  { "elementwise (PyTorch)", 0.011, EVC_COMPUTE }, { "Adam (multi-tensor)", 0.007, EVC_COMPUTE },
	  { "LayerNorm", 0.006, EVC_COMPUTE }, { "Memcpy HtoD", 0.005, EVC_MEMORY } },
	{ { "GEMM bf16 (cuBLAS)", 0.128, EVC_COMPUTE }, { "AllReduce bf16 (NCCL)", 0.085, EVC_COMM },
	  { "flash-attn fwd", 0.024, EVC_COMPUTE }, { "flash-attn bwd", 0.021, EVC_COMPUTE },
	  { "elementwise (PyTorch)", 0.011, EVC_COMPUTE }, { "Adam (multi-tensor)", 0.007, EVC_COMPUTE },
	  { "LayerNorm", 0.006, EVC_COMPUTE }, { "Memcpy HtoD", 0.005, EVC_MEMORY } },
};

static const struct lane_span base_lanes[] = {
	{ 0.000, 0.006, EVC_MEMORY }, { 0.006, 0.120, EVC_COMPUTE }, { 0.125, 0.300, EVC_COMPUTE },
	{ 0.305, 0.392, EVC_COMPUTE }, { 0.392, 0.398, EVC_MEMORY },
};
static const struct lane_span cand_lanes[2][8] = {
	{ { 0.000, 0.003, EVC_MEMORY }, { 0.003, 0.060, EVC_COMPUTE }, { 0.062, 0.150, EVC_COMPUTE },
	  { 0.100, 0.150, EVC_COMM }, { 0.150, 0.183, EVC_COMM }, { 0.183, 0.200, EVC_COMPUTE },
	  { 0.200, 0.203, EVC_MEMORY }, { 0.205, 0.219, EVC_COMPUTE } },
	{ { 0.000, 0.003, EVC_MEMORY }, { 0.003, 0.061, EVC_COMPUTE }, { 0.063, 0.152, EVC_COMPUTE },
	  { 0.101, 0.152, EVC_COMM }, { 0.152, 0.186, EVC_COMM }, { 0.186, 0.203, EVC_COMPUTE },
	  { 0.203, 0.206, EVC_MEMORY }, { 0.208, 0.221, EVC_COMPUTE } },
};

/* nccl-tests all_reduce_perf on the two B200s: 1 KiB to 1 GiB, x4. */
static const double nccl_busbw[] = { 0.02, 0.09, 0.35, 1.3, 5.1, 18.5, 62, 190, 410, 560, 610 };

static void set_bw(struct analysis *a, struct run_result *r)
{
	size_t n = sizeof(nccl_busbw) / sizeof(nccl_busbw[0]), k;

	r->nbw = n + 3;
	r->bw = alloc(a, r->nbw, sizeof(*r->bw));
	for (k = 0; k < n; k++)
		r->bw[k] = (struct bw_point){ COLL_ALLREDUCE, 1024LL << (2 * k), nccl_busbw[k], true };
	r->bw[n] = (struct bw_point){ COLL_ALLREDUCE, 26214400, 380, false };
	r->bw[n + 1] = (struct bw_point){ COLL_ALLREDUCE, 26214400, 420, false };
	r->bw[n + 2] = (struct bw_point){ COLL_ALLREDUCE, 1048576, 15, false };
	r->link_busbw_gbps = 900;
	r->link_busbw_source = "nccl-tests";
	r->transport = "p2p";
	r->link = "nvlink";
	r->link_source = "nccl-log";
	r->link_gbps = 900;
	r->nccl_version = "2.26.2";
	r->ncoll = 1;
	r->coll = alloc(a, 1, sizeof(*r->coll));
	r->coll[0] = (struct coll_result){ COLL_ALLREDUCE, DT_BF16, 2.0 * 26214400 * 19, 0.085, 19,
					   2.0 * 26214400 * 19 / 0.085 / 1e9, 2.0 * 26214400 * 19 / 0.085 / 1e9,
					   2.0 * 26214400 * 19 / 0.085 / 1e9 / 900, 0.080,
					   2.0 * 26214400 * 19 / 0.080 / 1e9, 0.005 };
	r->coll_per = "step";
}

static void baseline(struct analysis *a, struct run_result *r)
{
	run_common(r, "b200-1gpu", 1, "single", 64);
	r->ngpu = 1;
	r->gpu = alloc(a, 1, sizeof(*r->gpu));
	gpu_common(&r->gpu[0], 0, FX_BASE_PEAK);
	set_steps(a, &r->gpu[0], base_windows, parts(0.380, 0, 0.012, 0.020, 0));
	set_top(a, &r->gpu[0], base_top, sizeof(base_top) / sizeof(base_top[0]));
	set_lanes(a, &r->gpu[0], base_lanes, sizeof(base_lanes) / sizeof(base_lanes[0]), 0.412);
	r->step_median_s = FX_BASE_MEDIAN_S;
	r->step_p10_s = 0.4100;
	r->step_p90_s = 0.4141;
	r->step_cv = 0.0036;
	r->samples_per_s = 64 / 0.412;
	r->tokens_per_s = 64 * 2048 / 0.412;
	r->examples_processed = 64 * 10;
	set_monitor(a, r);
}

static void candidate(struct analysis *a, struct run_result *r)
{
	run_common(r, "b200-2gpu-ddp", 2, "ddp", 32);
	r->ngpu = 2;
	r->gpu = alloc(a, 2, sizeof(*r->gpu));
	gpu_common(&r->gpu[0], 0, FX_CAND_PEAK0);
	gpu_common(&r->gpu[1], 1, FX_CAND_PEAK1);
	set_steps(a, &r->gpu[0], cand0_windows, parts(0.194, 0.019, 0.006, 0.010, 0.083));
	set_steps(a, &r->gpu[1], cand1_windows, parts(0.196, 0.021, 0.006, 0.008, 0.085));
	set_top(a, &r->gpu[0], cand_top[0], 8);
	set_top(a, &r->gpu[1], cand_top[1], 8);
	set_lanes(a, &r->gpu[0], cand_lanes[0], 8, 0.229);
	set_lanes(a, &r->gpu[1], cand_lanes[1], 8, 0.231);
	r->slowest = 1;
	r->step_median_s = FX_CAND_MEDIAN_S;
	r->step_p10_s = 0.2290;
	r->step_p90_s = 0.2330;
	r->step_cv = 0.0061;
	r->samples_per_s = 64 / 0.231;
	r->tokens_per_s = 64 * 2048 / 0.231;
	r->examples_processed = 64 * 10;
	r->imbalance = (struct imbalance){ .memory_ratio = 96.2 / 88.4, .busy_ratio = 0.221 / 0.223,
					   .flagged = false, .saturated_rank = -1, .waiting_rank = -1,
					   .straggler_cost_s = NAN, .straggler_cost_share = NAN };
	set_bw(a, r);
	set_monitor(a, r);
}

static void comparison(struct analysis *a)
{
	struct comparison *m = &a->cmp;

	m->valid = true;
	m->baseline = 0;
	m->candidate = 1;
	m->speedup = 0.412 / 0.231;
	m->throughput_ratio = 0.412 / 0.231;
	m->scaling_efficiency = 0.412 / (2 * 0.231);
	/* n Cn - C1 ... with the slowest rank's means: 2 x (0.196, 0.021, 0.006, 0.008) - (0.380, 0, 0.012, 0.020) */
	m->attribution_s = parts(2 * 0.196 - 0.380, 2 * 0.021, 2 * 0.006 - 0.012, 2 * 0.008 - 0.020, NAN);
	m->ideal_s = 0.412;
	m->actual_s = 2 * 0.231;
	m->nconfounds = 1;
	m->confounds = alloc(a, 1, sizeof(*m->confounds));
	m->confounds[0] = (struct confound){ CF_DATASET, "c4-en shards 0-7", "c4-en shards 0-15", CFS_WARNING,
					     "the dataset names differ; the tokens per step are the same",
					     "the runs differ in dataset (c4-en shards 0-7 against c4-en shards 0-15): "
					     "the dataset names differ; the tokens per step are the same" };
	m->verdict = VERDICT_CONFIRMED;
	m->reason = "speedup 1.78x (0.412 s -> 0.231 s per step) at the same global batch of 64, above 1.1, "
		    "with no blocking confound";
	m->criterion = "step-time: confirmed when the speedup is at least 1.1 (expected_speedup)";
	m->answer = ANSWER_NONE;
	/* 1e6 samples / (64 / 0.412 s) = 6437.5 s on 1 GPU; / (64 / 0.231 s) = 3609.4 s on 2 */
	m->noptions = 2;
	m->options = alloc(a, 2, sizeof(*m->options));
	m->options[0] = (struct rental_option){ .gpus = 1, .samples_per_s = 64 / 0.412,
		.gpu_hours_per_million_samples = 6437.5 / 3600, .days_to_target = NAN, .window_days = -1, .windows = -1,
		.lots = 1, .gpu_hours = NAN, .window_gpu_hours = NAN, .cost = NAN,
		.cost_per_million_samples = NAN };
	m->options[1] = (struct rental_option){ .gpus = 2, .samples_per_s = 64 / 0.231,
		.gpu_hours_per_million_samples = 2 * 3609.375 / 3600, .days_to_target = NAN, .window_days = -1, .windows = -1,
		.lots = 1, .gpu_hours = NAN, .window_gpu_hours = NAN, .cost = NAN,
		.cost_per_million_samples = NAN };
}

static void recommendations(struct analysis *a)
{
	a->nrecs = 2;
	a->recs = alloc(a, 2, sizeof(*a->recs));
	a->recs[0] = (struct recommendation){ "fits-mi300x", "the baseline's peak of 151.3 GB plus a 5 GB reserve "
					      "fits one MI300X (192 GB) but not one H200 (141 GB)" };
	a->recs[1] = (struct recommendation){ "rental-window", "at 277 samples/s, 10 million samples take 10.0 h: "
					      "a 3-day rental of the 2-GPU node covers it" };
	a->nfindings = 1;
	a->findings = alloc(a, 1, sizeof(*a->findings));
	a->findings[0] = (struct finding){ DIAG_WARNING, "trace-truncated", "trace ends inside step 12",
					   "b200-2gpu-ddp/rank1.json.gz: byte 81234" };
}

void fixture_analysis_ddp(struct analysis *a)
{
	memset(a, 0, sizeof(*a));
	a->title = "Does a second B200 halve the step time?";
	a->hypothesis = HYP_STEP_TIME;
	a->expected_speedup = 1.1;
	a->question = Q_SINGLE_CONFIG;
	a->nruns = 2;
	a->runs = alloc(a, 2, sizeof(*a->runs));
	baseline(a, &a->runs[0]);
	candidate(a, &a->runs[1]);
	comparison(a);
	recommendations(a);
}

void fixture_analysis_single(struct analysis *a)
{
	memset(a, 0, sizeof(*a));
	a->title = "One B200, no candidate yet";
	a->hypothesis = HYP_STEP_TIME;
	a->expected_speedup = 1.1;
	a->question = Q_SINGLE_CONFIG;
	a->nruns = 1;
	a->runs = alloc(a, 1, sizeof(*a->runs));
	baseline(a, &a->runs[0]);
	a->runs[0].nmonitor = 0;
	a->runs[0].monitor = NULL;
	a->cmp.valid = false;
	a->cmp.verdict = VERDICT_NONE;
	a->cmp.speedup = a->cmp.throughput_ratio = a->cmp.scaling_efficiency = NAN;
	a->cmp.ideal_s = a->cmp.actual_s = NAN;
}

void fixture_analysis_release(struct analysis *a)
{
	arena_release(&a->arena);
}

void close_to(double got, double want)
{
	if (!(fabs(got - want) <= 1e-9 * (fabs(want) > 1 ? fabs(want) : 1)))
		fail_msg("got %.12g, want %.12g", got, want);
}

size_t findings_with(const struct analysis *a, const char *code)
{
	size_t n = 0;

	for (size_t i = 0; i < a->nfindings; i++)
		n += !strcmp(a->findings[i].code, code);
	return n;
}

char *dump_chart(const struct analysis *a, const char *id, const char **why)
{
	struct chart_layout c;
	struct buf b;
	size_t i;

	for (i = 0; i < chart_ndefs && strcmp(chart_defs[i].id, id); i++)
		;
	assert_true(i < chart_ndefs);
	buf_init(&b, 0);
	if (chart_build(i, a, &c, why)) {
		static char kept[1024];	/* *why may live in c's arena: kept past its release */

		if (*why) {
			snprintf(kept, sizeof(kept), "%s", *why);
			*why = kept;
		}
		chart_layout_release(&c);
		buf_release(&b);
		return NULL;
	}
	assert_int_equal(chart_layout_dump(&c, &b), 0);
	chart_layout_release(&c);
	return buf_detach(&b);
}

void has_line(const char *dump, const char *line)
{
	size_t n = strlen(line);
	const char *p;

	for (p = dump; (p = strstr(p, line)); p++)
		if ((p == dump || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return;
	fail_msg("no line \"%s\" in:\n%s", line, dump);
}

struct analysis *analyse_dir(const char *dir)
{
	struct diags d = DIAGS_INIT;
	struct trial_stats st;
	struct trial *t = trial_load(dir, &d, &st);
	struct analysis *a;

	assert_non_null(t);
	diags_release(&d);
	trial_stats_release(&st);
	a = analysis_run(t);
	trial_free(t);		/* before anything is rendered: the result must not need it */
	return a;
}

const struct confound *find_confound(const struct analysis *a, enum confound_what w)
{
	for (size_t i = 0; i < a->cmp.nconfounds; i++)
		if (a->cmp.confounds[i].what == w)
			return &a->cmp.confounds[i];
	return NULL;
}

const struct confound *confound_of(const struct analysis *a, enum confound_what w)
{
	const struct confound *c = find_confound(a, w);

	if (!c)
		fail_msg("no %s confound", confound_name(w));
	return c;
}

void fixture_kernel(struct rank *k, int64_t step, int64_t start, int64_t end, uint8_t cls,
		    const char *name)
{
	struct gpu_event *e = rank_add_event(k);

	e->start = start;
	e->end = end;
	e->step = (int32_t)step;
	e->cls = cls;
	e->kind = cls == EVC_MEMORY ? EV_MEMCPY : EV_KERNEL;
	e->name = name;
	e->coll = cls == EVC_COMM ? COLL_ALLREDUCE : COLL_NONE;
	e->dtype = cls == EVC_COMM ? DT_BF16 : DT_UNKNOWN;
	e->bytes = cls == EVC_COMM ? 100000000 : -1;
}
