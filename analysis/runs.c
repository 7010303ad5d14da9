/*
 * runs: one run's numbers: GPU step windows per rank, warm-up, the partition
 * of every window, step statistics of the slowest rank, throughput, memory,
 * communication, precision, imbalance, top kernels and one step's lanes.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/analysis.h"
#include "analysis/clock.h"
#include "analysis/critical.h"
#include "analysis/kstats.h"
#include "analysis/facts.h"
#include "analysis/flops.h"
#include "analysis/kernels.h"
#include "analysis/nsys_summary.h"
#include "analysis/partition.h"
#include "analysis/stats.h"
#include "analysis/strategy.h"
#include "analysis/thresholds.h"
#include "core/gpu.h"
#include "core/money.h"
#include "core/qty.h"
#include "core/xalloc.h"

/* A rank's GPU step windows: steps[i] spans bounds[i] .. bounds[i + 1]. */
struct windows {
	int64_t *number;
	int64_t *bounds;
	size_t n;
};

struct step_span {
	int64_t step;
	int64_t first;		/* start of its first GPU activity */
	int64_t last;		/* end of its last GPU activity */
};

static int by_step(const void *a, const void *b)
{
	const struct step_span *x = a, *y = b;

	return (x->step > y->step) - (x->step < y->step);
}

/* Steps from the kernels' own labels (ProfilerStep matched by correlation). */
static size_t spans_from_events(const struct rank *k, struct step_span **out)
{
	struct step_span *s = NULL;
	size_t n = 0, cap = 0, m = 0;

	for (size_t i = 0; i < k->nev; i++) {
		if (k->ev[i].step < 0)
			continue;
		xgrow(&s, &cap, n + 1, sizeof(*s));
		s[n++] = (struct step_span){ k->ev[i].step, k->ev[i].start, k->ev[i].end };
	}
	if (n > 1)
		qsort(s, n, sizeof(*s), by_step);
	for (size_t i = 0; i < n; i++) {	/* fold each step's events into one span */
		if (m && s[m - 1].step == s[i].step) {
			if (s[i].first < s[m - 1].first)
				s[m - 1].first = s[i].first;
			if (s[i].last > s[m - 1].last)
				s[m - 1].last = s[i].last;
		} else {
			s[m++] = s[i];
		}
	}
	*out = s;
	return m;
}

/* Steps from GPU-side annotations (gpu_user_annotation ProfilerStep#N). */
static size_t spans_from_marks(const struct rank *k, enum step_source src, struct step_span **out)
{
	struct step_span *s = NULL;
	size_t n = 0, cap = 0;

	for (size_t i = 0; i < k->nsteps; i++) {
		if (k->steps[i].source != src)
			continue;
		xgrow(&s, &cap, n + 1, sizeof(*s));
		s[n++] = (struct step_span){ k->steps[i].number, k->steps[i].start, k->steps[i].end };
	}
	if (n > 1)
		qsort(s, n, sizeof(*s), by_step);
	*out = s;
	return n;
}

static void windows_of(const struct rank *k, struct windows *w)
{
	struct step_span *s;
	size_t n = spans_from_events(k, &s);

	if (!n) {
		free(s);
		n = spans_from_marks(k, STEP_GPU_ANNOTATION, &s);
	}
	w->n = n;
	w->number = xmalloc((n ? n : 1) * sizeof(*w->number));
	w->bounds = xmalloc((n + 1) * sizeof(*w->bounds));
	for (size_t i = 0; i < n; i++) {
		w->number[i] = s[i].step;
		w->bounds[i] = s[i].first;
		if (i && w->bounds[i] < w->bounds[i - 1])
			w->bounds[i] = w->bounds[i - 1];	/* keep windows ordered */
	}
	if (n)
		w->bounds[n] = s[n - 1].last > w->bounds[n - 1] ? s[n - 1].last : w->bounds[n - 1];
	free(s);
}

/* The rank's intervals; a communication kernel that waits for a peer is two. */
static struct interval *intervals_of(const struct rank *k, const struct clock_rank *c,
				     size_t *n)
{
	struct interval *iv = xmalloc((2 * k->nev + 1) * sizeof(*iv));
	size_t m = 0;

	for (size_t i = 0; i < k->nev; i++) {
		const struct gpu_event *e = &k->ev[i];
		int64_t wend = c->wait_end && e->cls == EVC_COMM ? c->wait_end[i] : e->start;

		if (wend > e->start)
			iv[m++] = (struct interval){ e->start, wend, IV_COMM_WAIT, e->launched };
		iv[m++] = (struct interval){ wend, e->end, e->cls, e->launched };
	}
	*n = m;
	return iv;
}

static double ns_to_s(int64_t ns)
{
	return (double)ns / 1e9;
}

static struct step_parts parts_s(const struct parts_ns *p)
{
	return (struct step_parts){
		.compute = ns_to_s(p->compute), .exposed_comm = ns_to_s(p->exposed_comm),
		.memory = ns_to_s(p->memory), .idle = ns_to_s(p->idle),
		.comm_total = ns_to_s(p->comm_total),
		.overlapped_comm = ns_to_s(p->comm_total - p->exposed_comm),
		.exposed_comm_wait = ns_to_s(p->exposed_comm_wait),
		.exposed_comm_transfer = ns_to_s(p->exposed_comm - p->exposed_comm_wait),
		.memory_total = ns_to_s(p->memory_total), .kernel_busy = ns_to_s(p->kernel_busy),
		.idle_host = ns_to_s(p->idle_host), .idle_sync = ns_to_s(p->idle_sync),
		.idle_other = ns_to_s(p->idle - p->idle_host - p->idle_sync),
	};
}

/* Every part unknown. */
static struct step_parts parts_unknown(void)
{
	return (struct step_parts){ NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN };
}

/*
 * Fills gpu->steps (all steps, warm-up not yet marked) from the rank's
 * windows. The last one is trailing: no next step closes its window.
 */
static void gpu_steps(struct gpu_result *g, const struct rank *k, const struct windows *w,
		      const struct clock_rank *c)
{
	size_t niv;
	struct interval *iv = intervals_of(k, c, &niv);
	struct parts_ns *p = xmalloc((w->n ? w->n : 1) * sizeof(*p));

	partition_windows(iv, niv, w->bounds, w->n, p);
	g->nsteps = w->n;
	g->steps = xcalloc(w->n ? w->n : 1, sizeof(*g->steps));
	for (size_t i = 0; i < w->n; i++) {
		g->steps[i].number = w->number[i];
		g->steps[i].start_ns = w->bounds[i];
		g->steps[i].window_s = ns_to_s(w->bounds[i + 1] - w->bounds[i]);
		g->steps[i].trailing = i + 1 == w->n;
		g->steps[i].parts = parts_s(&p[i]);
	}
	free(p);
	free(iv);
}

/* A step that enters the statistics: neither warm-up nor trailing. */
static bool steady(const struct step_point *p)
{
	return !p->warmup && !p->trailing;
}

/* The step numbers whose kernels enter a GPU's statistics: after < number < before. */
struct steady_range gpu_steady_range(const struct gpu_result *g)
{
	struct steady_range r = { INT64_MIN, INT64_MAX };

	for (size_t i = 0; i < g->nsteps; i++) {
		if (g->steps[i].warmup)
			r.after = g->steps[i].number;
		if (g->steps[i].trailing)
			r.before = g->steps[i].number;
	}
	return r;
}

size_t gpu_steady_steps(const struct gpu_result *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nsteps; i++)
		n += steady(&g->steps[i]);
	return n;
}

double gpu_per_steps(const struct gpu_result *g, bool span)
{
	return span ? 1 : (double)gpu_steady_steps(g);
}

bool steady_range_has(const struct steady_range *r, int64_t step)
{
	return step > r->after && step < r->before;
}

bool run_measures_span(const struct run_result *rr)
{
	return rr->steps_measured <= 0;
}

bool run_measures(const struct run_result *rr, const struct steady_range *steps,
		  const struct gpu_event *e)
{
	return run_measures_span(rr) || (e->step >= 0 && steady_range_has(steps, e->step));
}

/* The run's time of step number n: the slowest GPU's closed window; NaN if no GPU closed it. */
static double run_step_time(const struct run_result *rr, int64_t n)
{
	double t = NAN;

	for (size_t g = 0; g < rr->ngpu; g++)
		for (size_t i = 0; i < rr->gpu[g].nsteps; i++)
			if (rr->gpu[g].steps[i].number == n && !rr->gpu[g].steps[i].trailing &&
			    (isnan(t) || rr->gpu[g].steps[i].window_s > t))
				t = rr->gpu[g].steps[i].window_s;
	return t;
}

/*
 * How many of n closed steps (in step order) are warm-up: step 0 always,
 * then leading steps while their time t is more than WARMUP_EXCESS above
 * the median of the second half of the n.
 */
size_t steps_warmup_count(const int64_t *number, const double *t, size_t n)
{
	size_t warm;
	double median;

	if (!n)
		return 0;
	warm = number[0] == 0;
	median = stats_median(t + n / 2, n - n / 2);
	while (warm < n && t[warm] > median * (1 + WARMUP_EXCESS))
		warm++;
	return warm;
}

/*
 * Warm-up (docs/analysis.md) over the run's per-step time (slowest GPU's
 * closed window per step number), on the GPU with the most steps; the
 * trailing step takes no part. The same step numbers are warm-up on every GPU.
 */
static void mark_warmup(struct run_result *rr)
{
	const struct gpu_result *ref = NULL;
	int64_t *num, last_warm;
	double *t;
	size_t n, closed, warm;

	for (size_t g = 0; g < rr->ngpu; g++)
		if (!ref || rr->gpu[g].nsteps > ref->nsteps)
			ref = &rr->gpu[g];
	if (!ref || !ref->nsteps)
		return;
	n = ref->nsteps;
	closed = n - ref->steps[n - 1].trailing;
	t = xmalloc(n * sizeof(*t));
	num = xmalloc(n * sizeof(*num));
	for (size_t i = 0; i < closed; i++) {
		num[i] = ref->steps[i].number;
		t[i] = run_step_time(rr, num[i]);
	}
	warm = steps_warmup_count(num, t, closed);
	last_warm = warm ? num[warm - 1] : INT64_MIN;
	for (size_t g = 0; g < rr->ngpu; g++)
		for (size_t i = 0; i < rr->gpu[g].nsteps; i++)
			rr->gpu[g].steps[i].warmup = !rr->gpu[g].steps[i].trailing &&
						     rr->gpu[g].steps[i].number <= last_warm;
	rr->steps_total = (int64_t)n;
	rr->steps_warmup = (int64_t)warm;
	rr->steps_trailing = (int64_t)(n - closed);
	rr->steps_measured = (int64_t)(closed - warm);
	free(num);
	free(t);
}

/*
 * A GPU with no closed step window (no steps, or one, which trails): the
 * whole profiled span, first to last GPU activity, partitioned as one window.
 */
static void gpu_span(struct gpu_result *g, const struct rank *k, const struct clock_rank *c)
{
	int64_t b[2] = { INT64_MAX, INT64_MIN };
	struct interval *iv;
	struct parts_ns p;
	size_t niv;

	if (g->nsteps > 1)
		return;
	for (size_t i = 0; i < k->nev; i++) {
		if (k->ev[i].end <= k->ev[i].start)
			continue;
		b[0] = k->ev[i].start < b[0] ? k->ev[i].start : b[0];
		b[1] = k->ev[i].end > b[1] ? k->ev[i].end : b[1];
	}
	if (b[1] <= b[0])
		return;
	iv = intervals_of(k, c, &niv);
	partition_windows(iv, niv, b, 1, &p);
	g->span_s = parts_s(&p);
	free(iv);
}

/* A run whose traces close no step window says so, and how to capture steps. */
static void check_step_windows(struct analysis *a, const struct run_result *rr, const struct run *r)
{
	size_t most = 0;

	for (size_t g = 0; g < rr->ngpu; g++)
		most = rr->gpu[g].nsteps > most ? rr->gpu[g].nsteps : most;
	if (!r->nranks || most > 1)
		return;
	analysis_finding(a, DIAG_WARNING, "no-step-windows", NULL,
			 "run '%s': %s, so the run has no step time; the whole profiled span is "
			 "partitioned instead. Profile with torch.profiler.schedule(wait=1, warmup=1, "
			 "active=7) and call prof.step() every iteration", r->name,
			 most ? "the trace has a single step, which no next step closes" :
				"the trace has no ProfilerStep#N");
}

/* Means over a GPU's steady steps. */
static void gpu_means(struct gpu_result *g)
{
	size_t m = 0;
	struct step_parts s = { 0 };
	double win = 0;

	for (size_t i = 0; i < g->nsteps; i++) {
		const struct step_parts *p = &g->steps[i].parts;

		if (!steady(&g->steps[i]))
			continue;
		s.compute += p->compute;
		s.exposed_comm += p->exposed_comm;
		s.memory += p->memory;
		s.idle += p->idle;
		s.comm_total += p->comm_total;
		s.overlapped_comm += p->overlapped_comm;
		s.exposed_comm_wait += p->exposed_comm_wait;
		s.exposed_comm_transfer += p->exposed_comm_transfer;
		s.memory_total += p->memory_total;
		s.kernel_busy += p->kernel_busy;
		s.idle_host += p->idle_host;
		s.idle_sync += p->idle_sync;
		s.idle_other += p->idle_other;
		win += g->steps[i].window_s;
		m++;
	}
	if (!m) {
		g->mean_step_s = NAN;
		g->step_s = parts_unknown();
		g->busy_s = NAN;
		return;
	}
	g->step_s = (struct step_parts){ s.compute / m, s.exposed_comm / m, s.memory / m,
					 s.idle / m, s.comm_total / m, s.overlapped_comm / m,
					 s.exposed_comm_wait / m, s.exposed_comm_transfer / m,
					 s.memory_total / m, s.kernel_busy / m, s.idle_host / m,
					 s.idle_sync / m, s.idle_other / m };
	g->mean_step_s = win / m;
	g->busy_s = g->step_s.compute + g->step_s.memory;
}

static void step_stats(struct run_result *rr)
{
	const struct gpu_result *g;
	double *v;
	size_t n = 0;

	rr->step_median_s = rr->step_p10_s = rr->step_p90_s = rr->step_cv = NAN;
	if (!rr->ngpu)
		return;
	g = &rr->gpu[rr->slowest];
	v = xmalloc((g->nsteps ? g->nsteps : 1) * sizeof(*v));
	for (size_t i = 0; i < g->nsteps; i++)
		if (steady(&g->steps[i]))
			v[n++] = g->steps[i].window_s;
	rr->step_median_s = stats_median(v, n);
	rr->step_p10_s = stats_percentile(v, n, 10);
	rr->step_p90_s = stats_percentile(v, n, 90);
	rr->step_cv = stats_cv(v, n);
	free(v);
}

/* The link's ceiling from the GPU table when nccl-tests did not measure it. */
static void nominal_link(struct run_result *rr)
{
	const struct gpu_model *m;

	if (!isnan(rr->link_busbw_gbps) || !rr->link || strcmp(rr->link, "nvlink") || !rr->ngpu)
		return;
	m = gpu_lookup(rr->gpu[0].name, rr->gpu[0].memory_total);
	if (!m || (m->link != GPU_LINK_NVLINK && m->link != GPU_LINK_NVLINK_BRIDGE))
		return;
	rr->link_busbw_gbps = m->link_gbps;
	rr->link_busbw_source = "nominal";
}

/*
 * A GPU's capacity from the GPU table when no log states it, by the one
 * rule: the row's reported figure, else its nominal one; -1.
 */
static int64_t capacity_by_name(const char *name)
{
	return gpu_capacity_bytes(gpu_lookup(name, -1), -1);
}

static void set_max(int64_t *m, int64_t v)
{
	if (v >= 0 && v > *m)
		*m = v;
}

bool gpu_models_differ(const char *a, int64_t amem, const char *b, int64_t bmem)
{
	const struct gpu_model *ma, *mb;

	if (!a || !b)
		return false;
	ma = gpu_lookup(a, amem);
	mb = gpu_lookup(b, bmem);
	if (ma && mb)
		return ma != mb;
	return !ma && !mb && strcasecmp(a, b);
}

/* What the monitor said of one GPU: its peak, capacity, name, and the span its samples cover. */
struct monitor_view {
	int64_t peak;		/* bytes; -1 */
	int64_t total;		/* bytes; -1 */
	const char *name;	/* NULL */
	size_t samples;
	int64_t first, last;	/* sample times, ns; -1 unknown */
	int64_t gap;		/* the smallest step between two timed samples; -1 */
};

static void monitor_view(struct monitor_view *v, const struct run *r, int32_t dev)
{
	*v = (struct monitor_view){ .peak = -1, .total = -1, .first = -1, .last = -1, .gap = -1 };
	for (size_t i = 0; i < r->ngpu; i++) {
		const struct gpu_sample *x = &r->gpu[i];

		if (x->gpu != dev)
			continue;
		v->samples++;
		set_max(&v->peak, x->memory_used);
		set_max(&v->total, x->memory_total);
		if (!v->name)
			v->name = x->name;
		if (x->ts < 0)
			continue;
		if (v->last >= 0 && x->ts > v->last && (v->gap < 0 || x->ts - v->last < v->gap))
			v->gap = x->ts - v->last;
		if (v->first < 0 || x->ts < v->first)
			v->first = x->ts;
		if (x->ts > v->last)
			v->last = x->ts;
	}
}

/* The profiled span of a rank: first GPU activity to last; 0 without events. */
static int64_t profiled_span(const struct rank *k)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;

	for (size_t i = 0; k && i < k->nev; i++) {
		if (k->ev[i].start < lo)
			lo = k->ev[i].start;
		if (k->ev[i].end > hi)
			hi = k->ev[i].end;
	}
	return hi > lo ? hi - lo : 0;
}

/*
 * Why the monitor may not give this GPU's peak (docs/analysis.md): it names
 * another GPU model than the trace, reads less than the profiler reserved,
 * or its samples cover less time than the trace profiled (one sample covers
 * none; nvidia-smi prints local time without a zone, so only durations are
 * compared). NULL when it may.
 */
static const char *monitor_unfit(struct analysis *a, const struct monitor_view *v,
				 const struct rank *k, int64_t reserved)
{
	int64_t span = profiled_span(k);
	int64_t covered;

	if (k && gpu_models_differ(k->dev.name, k->dev.memory_total, v->name, v->total))
		return analysis_printf(a, "it names another GPU (%s) than the trace (%s)", v->name,
				       k->dev.name);
	if (reserved >= 0 && v->peak < reserved)
		return analysis_printf(a, "it reads less than the %s the profiler reserved",
				       analysis_qty(a, qty_gb, (double)reserved));
	if (!span || (v->first < 0 && v->samples > 1))
		return NULL;
	covered = v->gap > 0 ? v->last - v->first + v->gap : 0;
	if (covered >= span)
		return NULL;
	return analysis_printf(a, "its %zu sample%s cover %.1f s of the %.1f s profiled", v->samples,
			       v->samples == 1 ? "" : "s", covered / 1e9, span / 1e9);
}

/*
 * The memory timeline of device dev (docs/analysis.md): of the run's
 * timelines of that device, the one with the largest peak. It heads
 * nothing: it counts only the tensors the profiler saw.
 */
static void gpu_timeline(struct gpu_result *g, const struct run *r, int32_t dev)
{
	const struct mem_timeline *best = NULL;

	for (size_t i = 0; i < r->nmemtl; i++)
		if (r->memtl[i].device == dev && (!best || r->memtl[i].peak > best->peak))
			best = &r->memtl[i];
	g->timeline_peak = best ? best->peak : -1;
	for (int c = 0; c < MEMCAT_COUNT; c++) {
		g->timeline_at_peak[c] = best ? best->at_peak[c] : -1;
		g->timeline_cat_peak[c] = best ? best->cat_peak[c] : -1;
	}
}

/*
 * Peak memory of one GPU from each source, the headline, its name and its
 * capacity. The monitor's reading is kept in peak_by_source but heads
 * nothing when monitor_unfit() says so (a finding says why); a monitor that
 * names another GPU gives neither name nor capacity.
 */
static void gpu_memory(struct analysis *a, struct gpu_result *g, const struct run *r,
		       const struct rank *k, bool first_gpu)
{
	int32_t dev = g->device >= 0 ? g->device : g->rank;
	struct monitor_view v;
	const char *unfit = NULL;

	for (int s = 0; s < MEM_NSOURCES; s++)
		g->peak_by_source[s] = -1;
	monitor_view(&v, r, dev);
	g->peak_by_source[MEM_NVSMI] = v.peak;
	gpu_timeline(g, r, dev);
	for (size_t i = 0; k && i < k->nmem; i++) {
		if (k->mem[i].device >= 0 && g->device >= 0 && k->mem[i].device != g->device)
			continue;
		set_max(&g->peak_by_source[MEM_RESERVED], k->mem[i].reserved);
		set_max(&g->peak_by_source[MEM_ALLOCATED], k->mem[i].allocated);
	}
	if (first_gpu)		/* the largest reserved figure the log printed, else allocated */
		g->peak_by_source[MEM_LOG] = r->log_reserved_peak ? r->log_reserved_peak :
					     r->log_allocated_peak ? r->log_allocated_peak : -1;
	for (size_t i = 0; first_gpu && g->peak_by_source[MEM_LOG] < 0 && i < r->nlog; i++)
		set_max(&g->peak_by_source[MEM_LOG], r->log[i].memory_bytes);
	if (v.peak >= 0 && (unfit = monitor_unfit(a, &v, k, g->peak_by_source[MEM_RESERVED])))
		analysis_finding(a, DIAG_WARNING, "monitor-not-used", NULL,
				 "run '%s', GPU %d: nvidia-smi's peak of %s is not the headline: %s",
				 r->name, g->rank, v.peak >= 100000000 ? analysis_qty(a, qty_gb, (double)v.peak) :
				 analysis_printf(a, "%.0f MB", v.peak / 1e6), unfit);	/* "4 MB", not "0.00400 GB" */
	if (!g->name && dev >= 0 && (size_t)dev < r->env.ngpus)
		g->name = r->env.gpus[dev];	/* collect_env before the monitor */
	if (!k || !gpu_models_differ(k->dev.name, k->dev.memory_total, v.name, v.total)) {
		if (!g->name)
			g->name = v.name;
		if (g->memory_total < 0)
			g->memory_total = v.total;
	}
	g->peak_memory = -1;
	g->peak_source = NULL;
	for (int s = unfit ? MEM_RESERVED : 0; s < MEM_NSOURCES && g->peak_memory < 0; s++) {
		g->peak_memory = g->peak_by_source[s];
		g->peak_source = g->peak_memory >= 0 ? mem_source_name((enum mem_source)s) : NULL;
	}
	if (g->memory_total < 0)
		g->memory_total = capacity_by_name(g->name);
}

/*
 * The ranks a collective ran among: its process group's size where the
 * trace gives it (pg_config), else the run's GPU count.
 */
static int32_t coll_nranks(const struct trial *t, const struct gpu_event *e, int32_t gpus)
{
	int32_t n = t ? trial_group_size(t, e->group) : -1;

	return n > 0 ? n : gpus;
}

/*
 * The bus bandwidth factor of a collective's calls: one group size's factor,
 * or over calls of several sizes the bytes-weighted mean of theirs.
 */
struct busbw_acc {
	int32_t nranks;		/* the calls' group size; 0 none yet, -2 several */
	double bus_bytes;	/* the calls' bytes times their factor */
};

static void busbw_add(struct busbw_acc *b, enum coll_op op, int32_t nranks, int64_t bytes)
{
	b->nranks = !b->nranks || b->nranks == nranks ? nranks : -2;
	b->bus_bytes += bytes > 0 ? (double)bytes * coll_busbw_factor(op, nranks) : 0;
}

static double busbw_factor(const struct busbw_acc *b, enum coll_op op, double bytes)
{
	return b->nranks != -2 ? coll_busbw_factor(op, b->nranks) : b->bus_bytes / bytes;
}

/*
 * Communication per collective and dtype, per steady step, averaged over
 * GPUs; bandwidths are total bytes over total time (and over total transfer
 * time), never a mean of per-call rates.
 */
static void run_comm(struct run_result *rr, const struct trial *t, const struct run *r,
		     const struct clock *clk)
{
	struct coll_result acc[COLL_COUNT][DT_COUNT];
	struct busbw_acc bus[COLL_COUNT][DT_COUNT];
	double steady = 0;

	memset(acc, 0, sizeof(acc));
	memset(bus, 0, sizeof(bus));
	rr->coll_per = run_measures_span(rr) ? "span" : "step";
	for (size_t g = 0; g < rr->ngpu && g < r->nranks; g++) {
		const struct rank *k = &r->ranks[g];
		struct steady_range steps = gpu_steady_range(&rr->gpu[g]);

		for (size_t i = 0; i < k->nev; i++) {
			const struct gpu_event *e = &k->ev[i];
			int op = e->coll < COLL_COUNT ? e->coll : 0, dt = e->dtype < DT_COUNT ? e->dtype : 0;
			struct coll_result *c = &acc[op][dt];

			if (e->cls != EVC_COMM || !run_measures(rr, &steps, e))
				continue;
			busbw_add(&bus[op][dt], (enum coll_op)op, coll_nranks(t, e, rr->gpus), e->bytes);
			c->calls_per_step += 1;
			c->time_per_step_s += ns_to_s(e->end - e->start);
			c->transfer_time_per_step_s += ns_to_s(e->end - e->start - clock_wait_ns(clk, g, k->ev, i));
			c->bytes_per_step += e->bytes > 0 ? (double)e->bytes : 0;
		}
	}
	steady = (run_measures_span(rr) ? 1.0 : (double)rr->steps_measured) *
		 (double)(rr->ngpu ? rr->ngpu : 1);
	rr->ncoll = 0;
	rr->coll = xcalloc(COLL_COUNT * DT_COUNT, sizeof(*rr->coll));
	for (int op = 0; op < COLL_COUNT; op++) {
		for (int dt = 0; dt < DT_COUNT; dt++) {
			struct coll_result c = acc[op][dt];
			double factor;

			if (!c.calls_per_step || steady <= 0)
				continue;
			factor = busbw_factor(&bus[op][dt], (enum coll_op)op, c.bytes_per_step);
			c.op = (enum coll_op)op;
			c.dtype = (enum dtype)dt;
			c.calls_per_step /= steady;
			c.time_per_step_s /= steady;
			c.transfer_time_per_step_s /= steady;
			c.wait_time_per_step_s = c.time_per_step_s - c.transfer_time_per_step_s;
			c.bytes_per_step /= steady;
			c.algbw_gbps = c.time_per_step_s > 0 && c.bytes_per_step > 0 ?
				       c.bytes_per_step / c.time_per_step_s / 1e9 : NAN;
			c.busbw_gbps = c.algbw_gbps * factor;
			c.transfer_busbw_gbps = c.transfer_time_per_step_s > 0 && c.bytes_per_step > 0 ?
						c.bytes_per_step / c.transfer_time_per_step_s / 1e9 *
						factor : NAN;
			c.link_fraction = rr->link_busbw_gbps > 0 ? c.busbw_gbps / rr->link_busbw_gbps : NAN;
			rr->coll[rr->ncoll++] = c;
		}
	}
}

/* Share of matmul-class kernel time by dtype, over steady steps of every GPU. */
static void run_precision(struct run_result *rr, const struct run *r, struct kernel_memo *memo)
{
	double by[DT_COUNT] = { 0 }, total = 0;

	for (int d = 0; d < DT_COUNT; d++)
		rr->matmul_share[d] = NAN;
	rr->precision_observed = DT_UNKNOWN;
	for (size_t g = 0; g < r->nranks; g++) {
		const struct rank *k = &r->ranks[g];

		for (size_t i = 0; i < k->nev; i++) {
			const struct gpu_event *e = &k->ev[i];
			const struct kernel_facts *f;
			double d = ns_to_s(e->end - e->start);

			if (e->cls != EVC_COMPUTE)
				continue;
			f = kernel_memo_get(memo, e);
			if (!f->matmul)
				continue;
			by[f->dtype] += d;
			total += d;
		}
	}
	if (total <= 0)
		return;
	for (int d = 0; d < DT_COUNT; d++) {
		if (by[d] <= 0)
			continue;
		rr->matmul_share[d] = by[d] / total;
		if (d != DT_UNKNOWN && by[d] / total > DOMINANT_DTYPE_SHARE)
			rr->precision_observed = (enum dtype)d;
	}
}

/* A GPU's exposed waiting for a peer over its mean step; NaN unknown. */
static double wait_share(const struct gpu_result *g)
{
	return g->mean_step_s > 0 ? g->step_s.exposed_comm_wait / g->mean_step_s : NAN;
}

/* Joins a reason to those found so far and names the GPUs of the first one. */
static void add_reason(struct analysis *a, struct imbalance *im, const char *why,
		       int32_t saturated, int32_t waiting)
{
	if (!im->reason) {
		im->saturated_rank = saturated;
		im->waiting_rank = waiting;
	}
	im->reason = im->reason ? analysis_printf(a, "%s; %s", im->reason, why) : why;
}

static void memory_saturation(struct analysis *a, struct run_result *rr)
{
	for (size_t h = 0; h < rr->ngpu; h++) {
		for (size_t l = 0; l < rr->ngpu; l++) {
			const struct gpu_result *x = &rr->gpu[h], *y = &rr->gpu[l];

			if (x->memory_total <= 0 || y->memory_total <= 0 ||
			    x->peak_memory <= IMBALANCE_MEMORY_HIGH * x->memory_total ||
			    y->peak_memory >= IMBALANCE_MEMORY_LOW * y->memory_total)
				continue;
			add_reason(a, &rr->imbalance,
				   analysis_printf(a, "GPU %d is at %.0f%% of its memory while GPU %d uses %.0f%%",
						   x->rank, 100.0 * x->peak_memory / x->memory_total,
						   y->rank, 100.0 * y->peak_memory / y->memory_total),
				   x->rank, y->rank);
			return;
		}
	}
}


/* Whether GPU rank is a straggler for its work: its sentence already says it computes more. */
static bool computing_straggler(const struct imbalance *im, int32_t rank)
{
	const struct straggler *s = straggler_at(im, rank);

	return s && !strcmp(s->cause, "computing");
}

/* "GPU 1 waits 179.2 ms per step (70% of its 255.1 ms step) for GPU 0" */
static void add_wait(struct analysis *a, struct run_result *rr, const struct clock *clk, size_t w)
{
	const struct gpu_result *g = &rr->gpu[w];
	int32_t peer = -1;
	const char *whom;

	if (w < clk->n && clk->rank[w].waited_for >= 0 && (size_t)clk->rank[w].waited_for < rr->ngpu)
		peer = rr->gpu[clk->rank[w].waited_for].rank;
	whom = peer >= 0 ? analysis_printf(a, "GPU %d", peer) : "a slower peer";
	add_reason(a, &rr->imbalance,
		   analysis_printf(a, "GPU %d waits %s per step (%s of its %s mean step) for %s",
				   g->rank, analysis_qty(a, qty_duration, g->step_s.exposed_comm_wait),
				   analysis_qty(a, qty_percent, wait_share(g)),
				   analysis_qty(a, qty_duration, g->mean_step_s), whom),
		   peer, g->rank);
}

/*
 * Waiting for a slower peer (a pipeline bubble, a straggler) above
 * ADVICE_PEER_WAIT_SHARE of a GPU's step: every GPU that does, the one that
 * waits most first, each with the peer it waited for longest in the
 * matched collectives. peer_wait_s/share are the largest, flagged or not.
 */
static void peer_wait(struct analysis *a, struct run_result *rr, const struct clock *clk)
{
	struct imbalance *im = &rr->imbalance;
	bool *done = xcalloc(rr->ngpu, sizeof(*done));

	for (;;) {
		size_t w = SIZE_MAX;

		for (size_t g = 0; g < rr->ngpu; g++)
			if (!done[g] && !isnan(wait_share(&rr->gpu[g])) &&
			    (w == SIZE_MAX || wait_share(&rr->gpu[g]) > wait_share(&rr->gpu[w])))
				w = g;
		if (w == SIZE_MAX)
			break;
		if (isnan(im->peer_wait_s)) {
			im->peer_wait_s = rr->gpu[w].step_s.exposed_comm_wait;
			im->peer_wait_share = wait_share(&rr->gpu[w]);
		}
		if (!(wait_share(&rr->gpu[w]) > ADVICE_PEER_WAIT_SHARE))
			break;
		if (!im->nstragglers || straggler_at(im, rr->gpu[w].rank))
			add_wait(a, rr, clk, w);	/* the stragglers' reason says the others wait */
		done[w] = true;
	}
	free(done);
}

/* Imbalance (docs/analysis.md): every reason that holds, memory, busy time and waiting. */
static void run_imbalance(struct analysis *a, struct run_result *rr, const struct clock *clk)
{
	char mr[MONEY_LEN];
	struct imbalance *im = &rr->imbalance;
	size_t hi_m = 0, lo_m = 0, hi_b = 0, lo_b = 0;
	bool mem = true, busy = true;

	*im = (struct imbalance){ .memory_ratio = NAN, .busy_ratio = NAN, .peer_wait_s = NAN,
				  .peer_wait_share = NAN, .saturated_rank = -1, .waiting_rank = -1 };
	if (rr->ngpu < 2)
		return;
	stragglers_find(a, rr);
	for (size_t g = 0; g < rr->ngpu; g++) {
		const struct gpu_result *x = &rr->gpu[g];

		mem = mem && x->peak_memory > 0;
		busy = busy && !isnan(x->busy_s) && x->busy_s > 0;
		if (x->peak_memory > rr->gpu[hi_m].peak_memory)
			hi_m = g;
		if (x->peak_memory < rr->gpu[lo_m].peak_memory)
			lo_m = g;
		if (x->busy_s > rr->gpu[hi_b].busy_s)
			hi_b = g;
		if (x->busy_s < rr->gpu[lo_b].busy_s)
			lo_b = g;
	}
	if (mem)
		im->memory_ratio = (double)rr->gpu[hi_m].peak_memory / (double)rr->gpu[lo_m].peak_memory;
	if (busy)
		im->busy_ratio = rr->gpu[hi_b].busy_s / rr->gpu[lo_b].busy_s;
	if (mem && im->memory_ratio > IMBALANCE_MEMORY_RATIO)
		add_reason(a, im, analysis_printf(a, "GPU %d holds %s at its peak, %s the %s of GPU %d",
						  rr->gpu[hi_m].rank, analysis_qty(a, qty_gb, (double)rr->gpu[hi_m].peak_memory),
						  ratio_text(mr, im->memory_ratio),
						  analysis_qty(a, qty_gb, (double)rr->gpu[lo_m].peak_memory),
						  rr->gpu[lo_m].rank),
			   rr->gpu[hi_m].rank, rr->gpu[lo_m].rank);
	else if (mem)
		memory_saturation(a, rr);
	if (busy && im->busy_ratio > IMBALANCE_BUSY_RATIO && !computing_straggler(im, rr->gpu[hi_b].rank))
		add_reason(a, im, analysis_printf(a, "GPU %d computes %s per step, %s the %s of GPU %d, which waits",
						  rr->gpu[hi_b].rank, analysis_qty(a, qty_duration, rr->gpu[hi_b].busy_s),
						  ratio_text(mr, im->busy_ratio),
						  analysis_qty(a, qty_duration, rr->gpu[lo_b].busy_s), rr->gpu[lo_b].rank),
			   rr->gpu[hi_b].rank, rr->gpu[lo_b].rank);
	peer_wait(a, rr, clk);
	im->flagged = im->reason != NULL;
}

static int by_time_desc(const void *a, const void *b)
{
	const struct kernel_time *x = a, *y = b;

	if (x->time_per_step_s != y->time_per_step_s)
		return x->time_per_step_s < y->time_per_step_s ? 1 : -1;
	return strcmp(x->label, y->label);
}

static int member_by_time_desc(const void *a, const void *b)
{
	const struct kernel_member *x = a, *y = b;

	if (x->time_per_step_s != y->time_per_step_s)
		return x->time_per_step_s < y->time_per_step_s ? 1 : -1;
	return strcmp(x->name, y->name);
}

#define TOP_KERNELS 12

/* Drops the slots of labels no steady kernel of this GPU had; returns how many are left. */
static size_t compact_labels(struct kernel_time *t, size_t n)
{
	size_t m = 0;

	for (size_t j = 0; j < n; j++)
		if (t[j].label)
			t[m++] = t[j];
	return m;
}

/*
 * Adds one kernel to its label group's member of the same full name (names
 * are interned: compared by pointer). A group has a few members; the last
 * one found is tried first, since a trace runs a kernel many times in a row.
 */
static void add_member(struct kernel_time *t, size_t *cap, const char *name, double time_s)
{
	size_t i = t->nmembers;

	if (i && t->members[i - 1].name == name)
		i--;
	else
		for (i = 0; i < t->nmembers && t->members[i].name != name; i++)
			;
	if (i == t->nmembers) {
		xgrow(&t->members, cap, i + 1, sizeof(*t->members));
		t->members[t->nmembers++] = (struct kernel_member){ .name = name };
	} else if (i + 1 < t->nmembers) {	/* the last one found goes last */
		struct kernel_member m = t->members[i];

		t->members[i] = t->members[t->nmembers - 1];
		t->members[t->nmembers - 1] = m;
		i = t->nmembers - 1;
	}
	t->members[i].time_per_step_s += time_s;
	t->members[i].calls_per_step++;
}

/* A group's totals and members per steady step, copied into the analysis' arena. */
static void keep_group(struct analysis *a, struct kernel_time *dst, const struct kernel_time *src, double nsteady)
{
	*dst = *src;
	dst->label = arena_strdup(&a->arena, src->label);
	dst->time_per_step_s /= nsteady;
	dst->calls_per_step = (int64_t)llround((double)src->calls_per_step / nsteady);
	dst->members = arena_alloc(&a->arena, src->nmembers * sizeof(*dst->members));
	for (size_t i = 0; i < src->nmembers; i++) {
		dst->members[i] = src->members[i];
		dst->members[i].time_per_step_s /= nsteady;
		dst->members[i].calls_per_step = (int64_t)llround((double)src->members[i].calls_per_step / nsteady);
	}
	if (dst->nmembers > 1)
		qsort(dst->members, dst->nmembers, sizeof(*dst->members), member_by_time_desc);
	/* the group's own name: one kernel's name would stand beside the time of all of them */
	dst->name = dst->nmembers == 1 ? dst->members[0].name : dst->label;
}

/* The kernel label groups that took the most time per steady step on one GPU, with their members. */
static void gpu_top(struct analysis *a, struct gpu_result *g, const struct rank *k,
		    struct kernel_memo *memo)
{
	struct kernel_time *t = NULL;
	size_t *caps = NULL;	/* each label's members' capacity, by label index */
	size_t n = 0, cap = 0, cap_caps = 0;
	struct steady_range steps = gpu_steady_range(g);
	double nsteady = (double)gpu_steady_steps(g);

	for (size_t i = 0; nsteady > 0 && i < k->nev; i++) {
		const struct gpu_event *e = &k->ev[i];
		const struct kernel_facts *f;
		size_t j;

		if (e->step < 0 || !steady_range_has(&steps, e->step))
			continue;
		f = kernel_memo_get(memo, e);
		if (f->label_index >= n) {	/* the memo's labels, zeroed up to this one */
			xgrow(&t, &cap, f->label_index + 1, sizeof(*t));
			xgrow(&caps, &cap_caps, f->label_index + 1, sizeof(*caps));
			memset(t + n, 0, (f->label_index + 1 - n) * sizeof(*t));
			memset(caps + n, 0, (f->label_index + 1 - n) * sizeof(*caps));
			n = f->label_index + 1;
		}
		j = f->label_index;
		if (!t[j].label)
			t[j] = (struct kernel_time){ .label = f->label, .cls = e->cls };
		t[j].time_per_step_s += ns_to_s(e->end - e->start);
		t[j].calls_per_step++;
		add_member(&t[j], &caps[j], e->name ? e->name : "?", ns_to_s(e->end - e->start));
	}
	free(caps);
	n = compact_labels(t, n);
	if (n > 1)
		qsort(t, n, sizeof(*t), by_time_desc);
	g->ntop = n < TOP_KERNELS ? n : TOP_KERNELS;
	g->top = arena_alloc(&a->arena, (g->ntop ? g->ntop : 1) * sizeof(*g->top));
	for (size_t i = 0; i < g->ntop; i++)
		keep_group(a, &g->top[i], &t[i], nsteady);
	for (size_t i = 0; i < n; i++)
		free(t[i].members);
	free(t);
}

/* The slowest GPU's critical kernels (analysis/critical.h), over its steady steps. */
static void run_critical(struct analysis *a, struct run_result *rr, const struct rank *k)
{
	const struct gpu_result *g = &rr->gpu[rr->slowest];
	struct steady_range steps = gpu_steady_range(g);
	double nsteady = (double)gpu_steady_steps(g);

	critical_kernels(a, rr, k, steps.after, steps.before, nsteady);
}

/*
 * The slowest GPU's per-kernel and launch statistics (analysis/kstats.h):
 * over its steady steps, or over its whole profiled span when the run has
 * no steady step, as the span's other numbers are.
 */
static void run_kstats(struct analysis *a, struct run_result *rr, const struct rank *k)
{
	const struct gpu_result *g = &rr->gpu[rr->slowest];
	struct steady_range steps = gpu_steady_range(g);
	bool span = run_measures_span(rr);
	int64_t nsteady = (int64_t)gpu_steady_steps(g);

	kernel_stats(a, &rr->kernel_stats, k, &steps, span, nsteady);
	launch_stats(&rr->launch, k, &steps, span, nsteady);
	rr->kernel_stats.rank = g->rank;	/* as per_gpu names it: a lone trace's rank is 0 */
	rr->launch.rank = g->rank;
}

#define MAX_LANES 4000

/* The index of GPU g's steady step numbered `number`; SIZE_MAX none. */
static size_t steady_index(const struct gpu_result *g, int64_t number)
{
	for (size_t i = 0; i < g->nsteps; i++)
		if (steady(&g->steps[i]) && g->steps[i].number == number)
			return i;
	return SIZE_MAX;
}

/*
 * The step number chart 7 draws on every GPU of the run, so that its lanes
 * show the same iteration on one clock: a number steady on every GPU with
 * steps, whose slowest GPU's window is nearest the median of those slowest
 * windows (first in step order on a tie); -1 where no number is steady on all.
 */
static int64_t common_lanes_step(const struct run_result *rr, size_t n)
{
	const struct gpu_result *first = NULL;
	double *slow, median;
	int64_t *num, pick = -1;
	size_t m = 0, best = SIZE_MAX;

	for (size_t g = 0; g < n && !first; g++)
		if (rr->gpu[g].nsteps)
			first = &rr->gpu[g];
	if (!first)
		return -1;
	slow = xmalloc(first->nsteps * sizeof(*slow));
	num = xmalloc(first->nsteps * sizeof(*num));
	for (size_t i = 0; i < first->nsteps; i++) {
		double worst = first->steps[i].window_s;
		bool everywhere = steady(&first->steps[i]);

		for (size_t g = 0; g < n && everywhere; g++) {
			size_t j;

			if (!rr->gpu[g].nsteps)
				continue;
			j = steady_index(&rr->gpu[g], first->steps[i].number);
			everywhere = j != SIZE_MAX;
			if (everywhere)
				worst = fmax(worst, rr->gpu[g].steps[j].window_s);
		}
		if (everywhere) {
			num[m] = first->steps[i].number;
			slow[m++] = worst;
		}
	}
	median = stats_median(slow, m);
	for (size_t i = 0; i < m; i++)
		if (best == SIZE_MAX || fabs(slow[i] - median) < fabs(slow[best] - median))
			best = i;
	if (best != SIZE_MAX)
		pick = num[best];
	free(slow);
	free(num);
	return pick;
}

/* The index of the steady step whose window is g's median one; SIZE_MAX none. */
static size_t median_index(const struct gpu_result *g)
{
	size_t pick = SIZE_MAX;
	double *v = xmalloc((g->nsteps ? g->nsteps : 1) * sizeof(*v));
	size_t n = 0;
	double median;

	for (size_t i = 0; i < g->nsteps; i++)
		if (steady(&g->steps[i]))
			v[n++] = g->steps[i].window_s;
	median = stats_median(v, n);
	free(v);
	for (size_t i = 0; i < g->nsteps; i++)
		if (steady(&g->steps[i]) && (pick == SIZE_MAX ||
		    fabs(g->steps[i].window_s - median) < fabs(g->steps[pick].window_s - median)))
			pick = i;
	return pick;
}

/*
 * The busy intervals of step `number` (common_lanes_step()), or where no
 * number is steady on every GPU, of the steady step whose window is the
 * median one.
 */
static void gpu_lanes(struct analysis *a, struct gpu_result *g, const struct rank *k,
		      const struct windows *w, int64_t number)
{
	size_t pick = number >= 0 ? steady_index(g, number) : SIZE_MAX;
	int64_t from, to;

	if (pick == SIZE_MAX)
		pick = median_index(g);
	if (pick == SIZE_MAX)
		return;
	g->lanes_step = g->steps[pick].number;
	from = w->bounds[pick];
	to = w->bounds[pick + 1];
	g->lanes_window_s = ns_to_s(to - from);
	g->lanes = arena_alloc(&a->arena, MAX_LANES * sizeof(*g->lanes));
	for (size_t i = 0; i < k->nev && g->nlanes < MAX_LANES; i++) {
		int64_t s = k->ev[i].start > from ? k->ev[i].start : from;
		int64_t e = k->ev[i].end < to ? k->ev[i].end : to;

		if (e > s)
			g->lanes[g->nlanes++] = (struct lane_span){ ns_to_s(s - from), ns_to_s(e - from),
								    k->ev[i].cls };
	}
}

static int by_op_bytes(const void *a, const void *b)
{
	const struct bw_point *x = a, *y = b;

	if (x->from_nccl_tests != y->from_nccl_tests)
		return (int)x->from_nccl_tests - (int)y->from_nccl_tests;
	if (x->op != y->op)
		return (int)x->op - (int)y->op;
	return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/*
 * The rank count whose nccl-tests tables speak for a run of `gpus` GPUs: that
 * count when a table has it, else the largest one printed; -1 when no table
 * said. Bus bandwidth depends on the count, so other tables are left out.
 */
static int32_t nccl_tests_ranks(const struct run *r, int64_t gpus)
{
	int32_t most = -1;

	for (size_t i = 0; i < r->nnccl_tests; i++) {
		if (r->nccl_tests[i].nranks == gpus)
			return (int32_t)gpus;
		if (r->nccl_tests[i].nranks > most)
			most = r->nccl_tests[i].nranks;
	}
	return most;
}

/*
 * Bus bandwidth by message size from the trace's steady collectives: one
 * point per (collective, size) over its calls on every GPU, total bytes
 * over total time; for the same size and factor that is the count over the
 * sum of 1 / rate, which serves nccl-tests rows (rates only) alike; only
 * the nccl-tests tables of one rank count (nccl_tests_ranks()) take part.
 */
static void run_bw(struct run_result *rr, const struct trial *trial, const struct run *r)
{
	struct bw_point *p = NULL;
	size_t n = 0, cap = 0, m = 0;
	int32_t ranks = nccl_tests_ranks(r, rr->gpus);

	rr->nccl_tests_gpus = ranks;
	for (size_t g = 0; g < rr->ngpu && g < r->nranks; g++) {
		struct steady_range steps = gpu_steady_range(&rr->gpu[g]);

		for (size_t i = 0; i < r->ranks[g].nev; i++) {
			const struct gpu_event *e = &r->ranks[g].ev[i];

			if (e->cls != EVC_COMM || e->bytes <= 0 || e->end <= e->start ||
			    e->step < 0 || !steady_range_has(&steps, e->step))
				continue;
			xgrow(&p, &cap, n + 1, sizeof(*p));
			p[n++] = (struct bw_point){ .op = (enum coll_op)e->coll, .bytes = e->bytes,
						    .busbw_gbps = (double)e->bytes / (double)(e->end - e->start) *
								  coll_busbw_factor((enum coll_op)e->coll,
										    coll_nranks(trial, e, rr->gpus)) };
		}
	}
	for (size_t i = 0; i < r->nnccl_tests; i++) {
		const struct nccl_test_row *t = &r->nccl_tests[i];
		enum coll_op op = t->op ? coll_from_name(t->op, strlen(t->op)) : COLL_NONE;
		double bw = t->busbw_oop >= 0 ? t->busbw_oop : t->busbw_ip;

		if (bw < 0 || t->bytes <= 0 || t->nranks != ranks)
			continue;
		xgrow(&p, &cap, n + 1, sizeof(*p));
		p[n++] = (struct bw_point){ .op = op, .bytes = t->bytes, .busbw_gbps = bw,
					    .from_nccl_tests = true };
		if (op == COLL_ALLREDUCE && bw > 0 &&	/* 0: one GPU, no link crossed */
		    (isnan(rr->link_busbw_gbps) || bw > rr->link_busbw_gbps)) {
			rr->link_busbw_gbps = bw;	/* the best the link showed */
			rr->link_busbw_source = "nccl-tests";
		}
	}
	if (n > 1)
		qsort(p, n, sizeof(*p), by_op_bytes);
	for (size_t i = 0; i < n;) {	/* the mean per (op, bytes), in place */
		size_t k = i;
		double total = 0;

		while (k < n && p[k].op == p[i].op && p[k].bytes == p[i].bytes &&
		       p[k].from_nccl_tests == p[i].from_nccl_tests)
			total += 1 / p[k++].busbw_gbps;	/* time per byte */
		p[m] = p[i];
		p[m++].busbw_gbps = (double)(k - i) / total;
		i = k;
	}
	rr->bw = p;
	rr->nbw = m;
}

static const char *fact_or(const struct fact_str *a, const struct fact_str *b)
{
	return a->v ? a->v : b->v;
}

const char *run_inferred_strategy(const struct run_result *rr)
{
	return rr->inferred_strategy;
}

/*
 * The values a run uses (docs/analysis.md "Declared against measured"): the
 * measured one, the logs' over run.ini's (analysis/facts.c says where each
 * came from and raises the disagreements).
 */
static void run_facts(struct run_result *rr, const struct run *r)
{
	const struct run_facts *d = &r->declared, *l = &r->logged;

	rr->global_batch = fact_used(&l->global_batch, &d->global_batch);
	rr->micro_batch = fact_used(&l->micro_batch, &d->micro_batch);
	rr->grad_accum = fact_used(&l->grad_accum, &d->grad_accum);
	rr->seq_len = fact_used(&l->seq_len, &d->seq_len);
	rr->precision_declared = fact_or(&d->precision, &l->precision);
	rr->transport = r->transport.v;
	rr->nccl_version = r->nccl_version.v;
}

/*
 * A global batch no log or manifest gives: micro batch x data-parallel GPUs
 * x gradient accumulation (1 when not given), once the strategy is known;
 * unknown while the data-parallel GPUs are (analysis/facts.h).
 */
static void derive_global_batch(struct run_result *rr, const struct run *r)
{
	int64_t dp = fact_dp_gpus(r, rr->gpus, rr->strategy);

	if (rr->global_batch < 0 && rr->micro_batch > 0 && dp > 0)
		rr->global_batch = rr->micro_batch * dp * (rr->grad_accum > 0 ? rr->grad_accum : 1);
}

/*
 * Which reader said what the link is: nvidia-smi topo -m, or NCCL's
 * topology lines (in their own log or inside the job's stdout).
 */
static const char *link_reader(const struct run *r, const char *path)
{
	for (size_t i = 0; path && i < r->nsources; i++)
		if (!strcmp(r->sources[i].path, path) && !strcmp(r->sources[i].format, "nvidia-smi-topo"))
			return "nvidia-smi-topo";
	return "nccl-log";
}

/*
 * The link between the run's GPUs: as nvidia-smi topo or NCCL's topology
 * lines say (the only two readers that set it), else inferred from the GPU model of a multi-GPU run: NVLink for
 * an SXM/NVSwitch board, PCIe for a PCIe-only card; an optional bridge or
 * Infinity Fabric is left unknown. link_gbps is the GPU table's nominal
 * bandwidth when the link is the one the model is built around.
 */
static void run_link(struct run_result *rr, const struct run *r)
{
	const struct gpu_model *m = rr->ngpu ? gpu_lookup(rr->gpu[0].name, rr->gpu[0].memory_total) : NULL;

	rr->link_gbps = NAN;
	if (r->link.v) {
		rr->link = r->link.v;
		rr->link_source = link_reader(r, r->link.src.file);
	} else if (m && rr->gpus > 1 && (m->link == GPU_LINK_NVLINK || m->link == GPU_LINK_PCIE)) {
		rr->link = m->link == GPU_LINK_NVLINK ? "nvlink" : "pcie";
		rr->link_source = "gpu-model";
	}
	if (!m || !rr->link)
		return;
	if ((!strcmp(rr->link, "nvlink") && (m->link == GPU_LINK_NVLINK || m->link == GPU_LINK_NVLINK_BRIDGE)) ||
	    (!strcmp(rr->link, "pcie") && m->link == GPU_LINK_PCIE))
		rr->link_gbps = gpu_link_gbps_for(m, rr->gpus);
}

/* A log line's step time: its own, else the global batch over its samples/s; -1. */
static double log_window(const struct log_step *l, int64_t batch)
{
	if (l->step_time_s > 0)
		return l->step_time_s;
	if (batch > 0 && l->samples_per_s > 0)
		return (double)batch / l->samples_per_s;
	return -1;
}

/*
 * Without a trace, the training log's per-iteration lines are the windows
 * (docs/analysis.md: step windows come from the training log when no trace
 * has them): the time each line printed, else the global batch over the
 * samples/s it printed; where the time went stays unknown.
 */
static void log_steps(struct gpu_result *g, const struct run *r)
{
	int64_t batch = fact_used(&r->logged.global_batch, &r->declared.global_batch);
	size_t n = 0;

	for (size_t i = 0; i < r->nlog; i++)
		n += log_window(&r->log[i], batch) > 0;
	if (!n)
		return;
	g->steps = xcalloc(n, sizeof(*g->steps));
	for (size_t i = 0; i < r->nlog; i++) {
		size_t k = g->nsteps;
		double t = log_window(&r->log[i], batch);

		if (t <= 0)
			continue;
		g->steps[k] = (struct step_point){
			.number = r->log[i].step >= 0 ? r->log[i].step : (int64_t)k,
			.window_s = t,
			.start_ns = -1,		/* a log's step time is whole: none trails */
			.parts = parts_unknown(),
		};
		g->nsteps = k + 1;
	}
}

/*
 * The steps a whole-job summary covers: those the log says ran, never a
 * planned count (`Total optimization steps`, `train_iters`, `max_steps`).
 * The Hugging Face Trainer prints train_steps_per_second as the steps it was
 * set to run over train_runtime, so their product is those steps (rounded:
 * the rate has three decimals), which ran unless the per-iteration lines
 * show fewer: then the job stopped early and the last step number they show
 * is the count; -1 when nothing says.
 */
static int64_t summary_steps_run(const struct run *r, bool *stopped_early)
{
	int64_t last = -1, rated = -1;

	for (size_t i = 0; i < r->nlog; i++)
		if (r->log[i].step > last)
			last = r->log[i].step;
	if (r->train_runtime_s.set && r->train_steps_per_s.set)
		rated = llround(r->train_runtime_s.v * r->train_steps_per_s.v);
	/* the trainer rates over the steps it was set to run: fewer shown means it stopped early */
	*stopped_early = rated > 0 && last > 0 && last < rated;
	return rated > 0 && !*stopped_early ? rated : last;
}

/* The trainer's own samples/s over the job; NaN when not printed, or over a plan it stopped short of. */
static double summary_rate(const struct run *r)
{
	bool stopped_early;

	summary_steps_run(r, &stopped_early);
	return r->train_samples_per_s.set && !stopped_early ? r->train_samples_per_s.v : NAN;
}

/*
 * A run without traces whose log lines give no step time: the trainer's
 * whole-job summary, train_runtime over the steps run, and its
 * train_samples_per_second (unless the job stopped early, when that rate is
 * over the steps it was set to run). It holds start-up, evaluation and
 * saving, so it is labelled "log-summary" (and enters a verdict only over
 * LOG_SUMMARY_MIN_STEPS steps, analysis/evidence.c). Every step run counts
 * as measured, since the summary covers them all; with no count of steps
 * run there is no step time.
 */
static void summary_steps(struct run_result *rr, const struct run *r)
{
	bool stopped_early;
	int64_t n = summary_steps_run(r, &stopped_early);

	if (!r->train_runtime_s.set || !(r->train_runtime_s.v > 0) || n <= 0)
		return;
	rr->steps_total = rr->steps_measured = n;
	rr->steps_warmup = rr->steps_trailing = 0;
	rr->step_median_s = r->train_runtime_s.v / (double)n;
	rr->time_source = "log-summary";
	rr->samples_per_s = summary_rate(r);
	if (isnan(rr->samples_per_s) && rr->global_batch > 0)
		rr->samples_per_s = (double)rr->global_batch / rr->step_median_s;
}

/* The samples/s the per-iteration lines print beside a step time of their own: median; NaN none. */
static double printed_line_rate(const struct run *r)
{
	double *v = xcalloc(r->nlog ? r->nlog : 1, sizeof(*v)), m;
	size_t n = 0;

	for (size_t i = 0; i < r->nlog; i++)
		if (r->log[i].step_time_s > 0 && r->log[i].samples_per_s > 0)
			v[n++] = r->log[i].samples_per_s;
	m = n ? stats_median(v, n) : NAN;
	free(v);
	return m;
}

/* Where the run's global batch comes from, for the log-inconsistent message. */
static const char *batch_source(const struct run_result *rr, const struct run *r)
{
	if (r->logged.global_batch.set && r->logged.global_batch.v == rr->global_batch)
		return "the training log";
	if (r->declared.global_batch.set && r->declared.global_batch.v == rr->global_batch)
		return "run.ini";
	return "micro batch x GPUs x gradient accumulation";
}

/*
 * log-inconsistent (docs/analysis.md): a step time and a samples/s that the
 * log gives each on its own (neither derived from the other through the
 * global batch) must multiply to the global batch within
 * LOG_CONSISTENCY_TOLERANCE. When they do not, the less direct of the two is
 * not used: a whole-job summary's step time gives way to the samples/s the
 * trainer printed (the step time becomes unknown), printed samples/s to a
 * step time printed per iteration (the throughput becomes unknown).
 */
static void log_consistency(struct analysis *a, struct run_result *rr, const struct run *r)
{
	bool summary = rr->time_source && !strcmp(rr->time_source, "log-summary");
	double rate = summary ? summary_rate(r) : printed_line_rate(r);
	double off = rr->step_median_s * rate / (double)rr->global_batch - 1;

	if (r->nranks || !rr->time_source || rr->global_batch <= 0 || !(rate > 0) ||
	    !(rr->step_median_s > 0) || !(fabs(off) > LOG_CONSISTENCY_TOLERANCE))
		return;
	/* four significant digits, as the trainer printed them, so that the product can be checked */
	analysis_finding(a, DIAG_WARNING, "log-inconsistent", NULL,
			 "run '%s': a step time of %.4g s (%s) x %.4g samples/s (%s) is %.4g samples, %+.0f%% "
			 "off the global batch of %lld (%s): %s", r->name, rr->step_median_s,
			 summary ? analysis_printf(a, "train_runtime %g s over %lld steps run",
						   r->train_runtime_s.v, (long long)rr->steps_measured) :
			 "median of the per-iteration lines", rate,
			 summary ? "train_samples_per_second" : "median the per-iteration lines print",
			 rr->step_median_s * rate, 100 * off, (long long)rr->global_batch, batch_source(rr, r),
			 summary ? "the step time is not used (the samples/s the trainer printed are more direct)" :
			 "the throughput is not used (the step time printed per iteration is more direct)");
	if (summary) {
		rr->step_median_s = NAN;
		rr->samples_per_s = rate;
	} else {
		rr->samples_per_s = NAN;
	}
}

/*
 * What Nsight Systems console tables say of a run (analysis/nsys_summary.c):
 * GPU time by class over the profile, always; and, for a run without traces
 * or a log step time, the step time as the median of the NVTX range that
 * marks the steps. Tables hold totals, not a timeline: warm-up cannot be told
 * apart (every instance counts) and where the time went stays unknown.
 */
static void nsys_tables(struct run_result *rr, const struct run *r)
{
	struct nsys_summary s;

	nsys_summary_of_run(r, &s);
	rr->nsys_compute_s = rr->nsys_comm_s = rr->nsys_memory_s = NAN;
	if (s.present) {
		rr->nsys_compute_s = s.gpu_ns[EVC_COMPUTE] / 1e9;
		rr->nsys_comm_s = s.gpu_ns[EVC_COMM] / 1e9;
		rr->nsys_memory_s = s.gpu_ns[EVC_MEMORY] / 1e9;
	}
	rr->nsys_step_range = s.step_range;
	if (r->nranks || !isnan(rr->step_median_s) || !s.step_range || !(s.step_ns > 0))
		return;
	rr->step_median_s = s.step_ns / 1e9;
	rr->steps_total = rr->steps_measured = s.steps;
	rr->steps_warmup = rr->steps_trailing = 0;
	rr->time_source = "nsys-nvtx";
	if (rr->global_batch > 0)
		rr->samples_per_s = (double)rr->global_batch / rr->step_median_s;
}

/* Where a run without traces takes its numbers from, said in a finding. */
static void log_timing_finding(struct analysis *a, const struct run_result *rr, const struct run *r)
{
	const struct gpu_result *g = rr->ngpu ? &rr->gpu[0] : NULL;
	const char *mem = g && g->peak_source && !strcmp(g->peak_source, "log") ?
			  analysis_printf(a, "; peak memory is the log's largest %s figure (%s)",
					  r->log_reserved_peak ? "reserved" : "allocated",
					  analysis_qty(a, qty_gb, (double)g->peak_memory)) : "";

	if (!rr->time_source || !strcmp(rr->time_source, "trace"))
		return;
	if (!strcmp(rr->time_source, "nsys-nvtx")) {
		analysis_finding(a, DIAG_INFO, "nsys-timing", NULL,
				 "run '%s': step time (%s) is the median of the NVTX range '%s' over "
				 "%lld instances in Nsight Systems summary tables, warm-up included (tables "
				 "hold totals, not a timeline); GPU time over the profile: compute %.3g s, "
				 "communication %.3g s, memory %.3g s (overlap counted twice); where the time "
				 "of a step went is unknown", r->name, analysis_qty(a, qty_duration, rr->step_median_s), rr->nsys_step_range,
				 (long long)rr->steps_measured, rr->nsys_compute_s, rr->nsys_comm_s,
				 rr->nsys_memory_s);
		return;
	}
	if (!strcmp(rr->time_source, "log-summary")) {
		analysis_finding(a, DIAG_WARNING, "log-summary-timing", NULL,
				 "run '%s': step time (%s) and throughput come from the trainer's "
				 "whole-job summary over %lld steps run, which includes start-up, evaluation "
				 "and saving: trust them less than per-iteration times (a speedup from them "
				 "leans toward 1x; a verdict uses them only over %d or more steps); no trace, "
				 "so where the time went is unknown%s", r->name,
				 rr->step_median_s > 0 ? analysis_qty(a, qty_duration, rr->step_median_s) :
				 "not used", (long long)rr->steps_measured, LOG_SUMMARY_MIN_STEPS, mem);
		return;
	}
	analysis_finding(a, DIAG_INFO, "log-timing", NULL,
			 "run '%s': step time (%s) and throughput come from the training log's "
			 "per-iteration lines (%lld steady of %lld, %lld warm-up), as good as the "
			 "job's own timer; no trace, so where the time went is unknown%s", r->name,
			 analysis_qty(a, qty_duration, rr->step_median_s), (long long)rr->steps_measured,
			 (long long)rr->steps_total, (long long)rr->steps_warmup, mem);
}

/*
 * A run made of PyTorch memory timelines alone: memory by category per GPU,
 * and no step number at all, said in a finding (a timeline holds no steps).
 */
static void timeline_only_finding(struct analysis *a, const struct run_result *rr,
				  const struct run *r)
{
	if (!r->nmemtl || rr->time_source || rr->steps_total > 0 || r->status != RUN_UNKNOWN)
		return;
	analysis_finding(a, DIAG_INFO, "timeline-only", NULL,
			 "run '%s' has PyTorch memory timelines but no steps: its memory by category "
			 "per GPU is shown; step time, throughput and speedup are n/a, since a memory "
			 "timeline holds no steps", r->name);
}

/*
 * The devices of a run's memory timelines, each once, in reading order: the
 * GPUs of a run that has memory timelines and nothing else that counts them.
 */
static size_t timeline_devices(const struct run *r, int32_t *idx, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nmemtl && n < max; i++) {
		size_t j;

		for (j = 0; j < n && idx[j] != r->memtl[i].device; j++)
			;
		if (j == n)
			idx[n++] = r->memtl[i].device;
	}
	return n;
}

/*
 * GPUs of a run without traces: from the monitor's GPU indexes, else from
 * the log's world size or the manifest, else from its memory timelines'
 * devices. A log of steps or of running out of memory that names none of
 * these gets one slot for its steps, with *counted false: a log is no
 * evidence of how many GPUs ran.
 */
static size_t gpus_without_traces(const struct run *r, int32_t *idx, size_t max, bool *counted)
{
	size_t n = 0;

	*counted = true;
	for (size_t i = 0; i < r->ngpu; i++) {
		size_t j;

		for (j = 0; j < n && idx[j] != r->gpu[i].gpu; j++)
			;
		if (j == n && n < max)
			idx[n++] = r->gpu[i].gpu;
	}
	if (n)
		return n;
	if (r->declared.gpus.set || r->logged.gpus.set) {
		int64_t want = fact_used(&r->logged.gpus, &r->declared.gpus);

		while (n < max && (int64_t)n < want) {
			idx[n] = (int32_t)n;
			n++;
		}
	} else if ((r->nlog || r->oom.src.file) && max) {
		idx[n++] = 0;	/* a slot for the log's steps; how many GPUs ran is unknown */
		*counted = false;
	}
	return n ? n : timeline_devices(r, idx, max);
}

static void init_gpu(struct gpu_result *g, const struct rank *k, int32_t index)
{
	memset(g, 0, sizeof(*g));
	g->rank = k && k->rank >= 0 ? k->rank : index;
	g->device = k ? k->dev.index : index;
	g->name = k ? k->dev.name : NULL;
	g->memory_total = k ? k->dev.memory_total : -1;
	g->mean_step_s = NAN;
	g->busy_s = NAN;
	g->step_s = parts_unknown();
	g->span_s = g->step_s;
	g->lanes_window_s = NAN;
	g->lanes_step = -1;
	g->clock_offset_s = NAN;
}

/*
 * The ranks of a run against its world size: a missing rank, or ranks that
 * disagree on the world size (traces of different jobs), are findings. The
 * run's GPU count is the world size when the traces say it.
 */
int32_t run_world_size(const struct run *r)
{
	int32_t world = -1;

	for (size_t i = 0; i < r->nranks; i++)
		if (r->ranks[i].world_size > world)
			world = r->ranks[i].world_size;
	return world;
}

static void check_ranks(struct analysis *a, const struct run *r)
{
	int32_t world = run_world_size(r);
	char missing[256] = "";
	size_t len = 0, nmissing = 0;

	for (size_t i = 0; i < r->nranks; i++) {
		int32_t w = r->ranks[i].world_size;

		if (w > 0 && w != world) {
			analysis_finding(a, DIAG_WARNING, "mixed-jobs", NULL,
					 "run '%s': rank traces disagree on the world size (%d and %d): "
					 "are they from the same job?", r->name, w, world);
			break;
		}
	}
	if (world <= (int32_t)r->nranks)
		return;
	for (int32_t k = 0; k < world; k++) {
		size_t i;

		for (i = 0; i < r->nranks && r->ranks[i].rank != k; i++)
			;
		if (i < r->nranks)
			continue;
		if (nmissing++ < 8 && len < sizeof(missing) - 16)
			len += (size_t)snprintf(missing + len, sizeof(missing) - len, "%s%d",
						len ? ", " : "", k);
	}
	analysis_finding(a, DIAG_WARNING, "missing-rank", NULL,
			 "run '%s' has traces of %zu of its %d ranks; missing: %s%s", r->name,
			 r->nranks, world, missing, nmissing > 8 ? ", ..." : "");
}

/*
 * A run's GPU count (docs/analysis.md): its ranks' world_size where the
 * traces give it, else the log's world size, else the manifest's gpus, else
 * the GPUs seen (ranks traced, GPUs monitored, memory timelines' devices);
 * never fewer than the ranks traced; -1 when nothing says (a log that names
 * no GPU count is not a count).
 */
static int32_t run_gpu_count(const struct run *r, size_t seen)
{
	int64_t n = run_world_size(r);

	if (n <= 0)
		n = fact_used(&r->logged.gpus, &r->declared.gpus);
	if (n <= 0)
		n = (int64_t)seen;
	if (n < (int64_t)r->nranks)
		n = (int64_t)r->nranks;
	return n > 0 && n < INT32_MAX ? (int32_t)n : -1;
}

/* What the phases of one run's analysis share (analysis_run_one()). */
struct run_work {
	struct analysis *a;
	const struct trial *t;
	const struct run *r;
	struct run_result *rr;
	size_t n;		/* the run's GPU slots: its ranks, else gpus_without_traces() */
	bool counted;		/* n is evidence of the GPU count, not a slot for a log's steps */
	int32_t idx[64];	/* without traces: each GPU's index */
	struct windows *w;	/* per GPU: the step windows of its rank */
	struct clock clk;	/* the ranks' clocks, aligned */
	struct kernel_memo *memo;	/* one classification per kind of kernel */
};

/* The run's GPUs and their result slots, its ranks checked, its clocks aligned. */
static void phase_setup(struct run_work *x)
{
	struct run_result *rr = x->rr;

	x->counted = true;
	x->n = x->r->nranks ? x->r->nranks : gpus_without_traces(x->r, x->idx, 64, &x->counted);
	memset(rr, 0, sizeof(*rr));
	rr->name = x->r->name;
	rr->steps_total = rr->steps_warmup = rr->steps_measured = rr->steps_trailing = -1;
	rr->ngpu = x->n;
	rr->gpu = arena_alloc(&x->a->arena, (x->n ? x->n : 1) * sizeof(*rr->gpu));
	rr->gpus = run_gpu_count(x->r, x->counted ? x->n : 0);
	check_ranks(x->a, x->r);
	x->w = xcalloc(x->n ? x->n : 1, sizeof(*x->w));
	clock_align(x->a, x->t, x->r, &x->clk);
}

/* Each GPU's steps, from its rank's trace or the run's log; then warm-up and the checks on them. */
static void phase_gpu_steps(struct run_work *x)
{
	const struct run *r = x->r;
	struct run_result *rr = x->rr;

	for (size_t g = 0; g < x->n; g++) {
		const struct rank *k = r->nranks ? &r->ranks[g] : NULL;

		init_gpu(&rr->gpu[g], k, k ? (int32_t)g : x->idx[g]);
		if (k) {
			windows_of(k, &x->w[g]);
			gpu_steps(&rr->gpu[g], k, &x->w[g], &x->clk.rank[g]);
			if (x->clk.rank[g].aligned)
				rr->gpu[g].clock_offset_s = ns_to_s(x->clk.rank[g].offset_ns);
		} else if (g == 0) {
			log_steps(&rr->gpu[g], r);
		}
	}
	mark_warmup(rr);
	check_step_windows(x->a, rr, r);
	for (size_t g = 0; g < x->n && r->nranks > 1; g++)
		if (!rr->gpu[g].nsteps && rr->steps_total > 0)
			analysis_finding(x->a, DIAG_WARNING, "rank-without-steps", NULL,
					 "run '%s', GPU %d: its trace gives no step of GPU work (damaged, or "
					 "from another part of the run): the run's numbers rest on the "
					 "other GPUs", r->name, rr->gpu[g].rank);
}

/* A GPU's mean step is known and above the other's, or the other's is not known. */
static bool slower(const struct gpu_result *g, const struct gpu_result *than)
{
	return !isnan(g->mean_step_s) && (isnan(than->mean_step_s) || g->mean_step_s > than->mean_step_s);
}

/* Each GPU's means, memory, span, top kernels and lanes; the slowest GPU. */
static void phase_gpu_figures(struct run_work *x)
{
	const struct run *r = x->r;
	struct run_result *rr = x->rr;
	int64_t step = common_lanes_step(rr, x->n);

	for (size_t g = 0; g < x->n; g++) {
		const struct rank *k = r->nranks ? &r->ranks[g] : NULL;

		gpu_means(&rr->gpu[g]);
		gpu_memory(x->a, &rr->gpu[g], r, k, g == 0);
		if (k) {
			gpu_span(&rr->gpu[g], k, &x->clk.rank[g]);
			gpu_top(x->a, &rr->gpu[g], k, x->memo);
			gpu_lanes(x->a, &rr->gpu[g], k, &x->w[g], step);
		}
		if (slower(&rr->gpu[g], &rr->gpu[rr->slowest]))
			rr->slowest = g;
	}
}

/*
 * The checkpoint saves of the run's logs: how many, and the median and
 * longest write time of those the logs time (never a guess from untimed
 * lines); the source is the first timed save, from the trial's directory.
 */
static void run_checkpoint(struct analysis *a, struct run_result *rr, const struct trial *t,
			   const struct run *r)
{
	double *v = xcalloc(r->nckpt ? r->nckpt : 1, sizeof(*v));
	const struct srcpos *first = NULL;
	size_t n = 0, dl = t->dir ? strlen(t->dir) : 0;

	for (size_t i = 0; i < r->nckpt; i++) {
		if (r->ckpt[i].write_s < 0)
			continue;
		if (!first)
			first = &r->ckpt[i].src;
		v[n++] = r->ckpt[i].write_s;
	}
	rr->checkpoint_saves = r->nckpt < INT32_MAX ? (int32_t)r->nckpt : INT32_MAX;
	rr->checkpoint_saves_measured = n < INT32_MAX ? (int32_t)n : INT32_MAX;
	rr->checkpoint_write_s = n ? stats_median(v, n) : NAN;
	rr->checkpoint_write_max_s = NAN;
	for (size_t i = 0; i < n; i++)
		rr->checkpoint_write_max_s = i ? fmax(rr->checkpoint_write_max_s, v[i]) : v[i];
	rr->checkpoint_write_source = NULL;
	if (first && first->file) {
		const char *f = first->file;

		if (dl && !strncmp(f, t->dir, dl) && f[dl] == '/')
			for (f += dl; *f == '/'; f++)
				;
		rr->checkpoint_write_source = analysis_printf(a, "%s:%lld", f, (long long)first->line);
	}
	free(v);
}

/* The run's step statistics, facts, link and communication, precision, imbalance and strategy. */
static void phase_run_facts(struct run_work *x)
{
	const struct run *r = x->r;
	struct run_result *rr = x->rr;

	step_stats(rr);
	if (r->nranks)
		run_critical(x->a, rr, &r->ranks[rr->slowest]);
	if (r->nranks)
		run_kstats(x->a, rr, &r->ranks[rr->slowest]);
	rr->time_source = !isnan(rr->step_median_s) ? (r->nranks ? "trace" : "log-iterations") : NULL;
	run_facts(rr, r);
	run_link(rr, r);
	rr->link_busbw_gbps = NAN;
	run_bw(rr, x->t, r);
	nominal_link(rr);
	run_comm(rr, x->t, r, &x->clk);
	run_precision(rr, r, x->memo);
	run_mfu(x->a, rr, r, x->memo);
	run_checkpoint(x->a, rr, x->t, r);
	run_imbalance(x->a, rr, &x->clk);
	strategy_infer(x->a, rr, r);
	rr->strategy = r->declared.strategy.v ? r->declared.strategy.v : rr->inferred_strategy;
}

/* The run's status, once every source of steps is known. */
static enum run_status run_status_of(const struct run_result *rr, const struct run *r)
{
	return r->status != RUN_UNKNOWN ? r->status :
	       rr->steps_measured > 0 ? RUN_COMPLETED :
	       rr->steps_total <= 0 && r->nmemtl && !r->nranks ? RUN_UNKNOWN :	/* memory only */
	       RUN_INCOMPLETE;
}

/*
 * Batch and throughput, the log's and nsys' steps where no trace gives them,
 * the run's status, and the findings of a run without traces.
 */
static void phase_throughput(struct run_work *x)
{
	const struct run *r = x->r;
	struct run_result *rr = x->rr;

	derive_global_batch(rr, r);
	rr->samples_per_s = rr->global_batch > 0 && rr->step_median_s > 0 ?
			    (double)rr->global_batch / rr->step_median_s : NAN;
	if (!r->nranks && isnan(rr->step_median_s))
		summary_steps(rr, r);
	log_consistency(x->a, rr, r);
	nsys_tables(rr, r);
	rr->status = run_status_of(rr, r);
	rr->tokens_per_s = rr->seq_len > 0 ? rr->samples_per_s * (double)rr->seq_len : NAN;
	rr->examples_processed = rr->global_batch > 0 && rr->steps_measured >= 0 ?
				 rr->global_batch * rr->steps_measured : -1;
	if (!r->nranks) {
		log_timing_finding(x->a, rr, r);
		timeline_only_finding(x->a, rr, r);
	}
}

static void run_work_release(struct run_work *x)
{
	for (size_t g = 0; g < x->n; g++) {
		free(x->w[g].number);
		free(x->w[g].bounds);
	}
	free(x->w);
	clock_release(&x->clk);
	kernel_memo_free(x->memo);
}

/*
 * The phases run in this order: each reads what the ones before filled, and
 * the findings come out in it.
 */
void analysis_run_one(struct analysis *a, const struct trial *t, const struct run *r,
		      struct run_result *rr)
{
	struct run_work x = { .a = a, .t = t, .r = r, .rr = rr, .memo = kernel_memo_new() };

	phase_setup(&x);
	phase_gpu_steps(&x);
	phase_gpu_figures(&x);
	phase_run_facts(&x);
	phase_throughput(&x);
	run_work_release(&x);
}
