#include "analysis/kstats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/kernels.h"
#include "analysis/stats.h"
#include "analysis/thresholds.h"
#include "core/imap.h"
#include "core/xalloc.h"

/* One kernel name: the key is its interned pointer. */
struct kname_acc {
	const struct gpu_event *first;
	int64_t ns;			/* summed duration */
	int64_t calls;
	int64_t min_ns, max_ns;
	double *dur;			/* seconds of each call: kept names only, second pass */
	size_t ndur;
};

/* The names seen: the interned pointer -> its index in acc. */
struct kname_map {
	struct imap index;
	struct kname_acc *acc;
	size_t n, cap;
};

static struct kname_acc *map_find(const struct kname_map *m, const char *name)
{
	uint32_t i;

	return imap_get(&m->index, (int64_t)(intptr_t)name, &i) ? &m->acc[i] : NULL;
}

static struct kname_acc *map_get(struct kname_map *m, const struct gpu_event *e)
{
	struct kname_acc *x = map_find(m, e->name);

	if (x)
		return x;
	xgrow(&m->acc, &m->cap, m->n + 1, sizeof(*m->acc));
	imap_put(&m->index, (int64_t)(intptr_t)e->name, (uint32_t)m->n);
	m->acc[m->n] = (struct kname_acc){ .first = e, .min_ns = INT64_MAX, .max_ns = INT64_MIN };
	return &m->acc[m->n++];
}

static bool in_window(int32_t step, const struct steady_range *steps, bool span)
{
	return span || (step >= 0 && steady_range_has(steps, step));
}

static bool counted(const struct gpu_event *e, const struct steady_range *steps, bool span)
{
	return e->name && e->end >= e->start && in_window(e->step, steps, span);
}

/* Largest total first; a tie by name, so that the order does not depend on the hash. */
static int by_total_desc(const void *a, const void *b)
{
	const struct kname_acc *x = *(const struct kname_acc *const *)a;
	const struct kname_acc *y = *(const struct kname_acc *const *)b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return strcmp(x->first->name, y->first->name);
}

/* Second pass: the durations of the kept names' calls (dur set for those only). */
static void collect(struct kname_map *m, const struct rank *k, const struct steady_range *steps,
		    bool span)
{
	for (size_t i = 0; i < k->nev; i++) {
		const struct gpu_event *e = &k->ev[i];
		struct kname_acc *x;

		if (!counted(e, steps, span))
			continue;
		x = map_find(m, e->name);
		if (x && x->dur)
			x->dur[x->ndur++] = (double)(e->end - e->start) / 1e9;
	}
}

static void fill(struct analysis *a, struct kernel_stat *s, const struct kname_acc *x)
{
	char label[160];

	kernel_label(x->first, label, sizeof(label));
	*s = (struct kernel_stat){
		.name = arena_strdup(&a->arena, x->first->name),
		.label = arena_strdup(&a->arena, label), .calls = x->calls,
		.total_s = (double)x->ns / 1e9, .mean_s = (double)x->ns / 1e9 / (double)x->calls,
		.min_s = (double)x->min_ns / 1e9, .max_s = (double)x->max_ns / 1e9,
		.p50_s = stats_percentile(x->dur, x->ndur, 50),
		.p90_s = stats_percentile(x->dur, x->ndur, 90),
	};
}

void kernel_stats(struct analysis *a, struct kernel_stats *out, const struct rank *k,
		  const struct steady_range *steps, bool span, int64_t nsteady)
{
	struct kname_map m = { .index = IMAP_INIT };
	struct kname_acc **by;
	size_t n = 0;

	*out = (struct kernel_stats){ .rank = k ? k->rank : -1, .steps = span ? -1 : nsteady };
	for (size_t i = 0; k && (span || nsteady > 0) && i < k->nev; i++) {
		const struct gpu_event *e = &k->ev[i];
		struct kname_acc *x;

		if (!counted(e, steps, span))
			continue;
		x = map_get(&m, e);
		x->ns += e->end - e->start;
		x->calls++;
		x->min_ns = e->end - e->start < x->min_ns ? e->end - e->start : x->min_ns;
		x->max_ns = e->end - e->start > x->max_ns ? e->end - e->start : x->max_ns;
	}
	if (!m.n)
		return;
	out->present = true;
	out->per = span ? "span" : "step";
	by = xmalloc(m.n * sizeof(*by));
	for (size_t i = 0; i < m.n; i++)
		by[n++] = &m.acc[i];
	qsort(by, n, sizeof(*by), by_total_desc);
	out->nkernels = n < KSTATS_TOP ? n : KSTATS_TOP;
	for (size_t i = 0; i < out->nkernels; i++)
		by[i]->dur = xmalloc((size_t)by[i]->calls * sizeof(double));
	collect(&m, k, steps, span);
	out->kernels = arena_alloc(&a->arena, out->nkernels * sizeof(*out->kernels));
	for (size_t i = 0; i < out->nkernels; i++)
		fill(a, &out->kernels[i], by[i]);
	for (size_t i = 0; i < out->nkernels; i++)
		free(by[i]->dur);
	free(by);
	xgrow_free(&m.acc, &m.cap, sizeof(*m.acc));
	imap_release(&m.index);
}

/* The delays of the window, in seconds; *n their count. */
static double *window_delays(const struct rank *k, const struct steady_range *steps, bool span,
			     size_t *n)
{
	double *v = xmalloc((k->ndelays ? k->ndelays : 1) * sizeof(*v));

	*n = 0;
	for (size_t i = 0; i < k->ndelays; i++)
		if (in_window(k->delays[i].step, steps, span))
			v[(*n)++] = (double)k->delays[i].ns / 1e9;
	return v;
}

static void launch_sums(struct launch_stats *out, const struct rank *k, const struct steady_range *steps,
			bool span, double per)
{
	int64_t launch = 0, cpu = 0, gpu = 0, kernels = 0, shorts = 0;

	for (size_t i = 0; i < k->nlsteps; i++) {
		const struct launch_step *s = &k->lsteps[i];

		if (!in_window(s->step, steps, span))
			continue;
		kernels += s->kernels;
		shorts += s->short_kernels;
		launch += s->launch_ns;
		cpu += s->op_cpu_ns;
		gpu += s->op_kernel_ns;
	}
	out->kernels = kernels;
	out->short_kernels = shorts;
	out->short_share = kernels ? (double)shorts / (double)kernels : NAN;
	out->launch_cpu_s = (double)launch / 1e9 / per;
	out->op_cpu_s = gpu ? (double)cpu / 1e9 / per : NAN;
	out->op_kernel_s = gpu ? (double)gpu / 1e9 / per : NAN;
	out->bound = !gpu ? NULL :
		     (double)cpu > LAUNCH_HOST_BOUND_RATIO * (double)gpu ? "host-bound" : "gpu-bound";
}

void launch_stats(struct launch_stats *out, const struct rank *k, const struct steady_range *steps,
		  bool span, int64_t nsteady)
{
	double *d;
	size_t n;

	*out = (struct launch_stats){
		.present = k && k->nev, .per = span ? "span" : "step", .rank = k ? k->rank : -1,
		.kernels = -1, .delay_p50_s = NAN, .delay_p90_s = NAN, .delay_max_s = NAN,
		.launch_cpu_s = NAN, .op_cpu_s = NAN, .op_kernel_s = NAN, .short_kernels = -1,
		.short_share = NAN,
	};
	if (!out->present)
		return;
	if (!k->ndelays) {
		out->why = "no kernel of the trace is linked to a runtime launch call "
			   "(no cuda_runtime records with correlation ids)";
		return;
	}
	if (!span && nsteady <= 0) {
		out->why = "the rank has no steady step";
		return;
	}
	d = window_delays(k, steps, span, &n);
	if (n) {
		out->delay_p50_s = stats_percentile(d, n, 50);
		out->delay_p90_s = stats_percentile(d, n, 90);
		out->delay_max_s = stats_percentile(d, n, 100);
		launch_sums(out, k, steps, span, span ? 1.0 : (double)nsteady);
	} else {
		out->why = "no kernel of the steady steps is linked to a runtime launch call";
	}
	free(d);
}
