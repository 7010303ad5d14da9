#include "analysis/critical.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/stats.h"
#include "core/kname.h"
#include "core/xalloc.h"

static const char *const class_names[CRIT_COUNT] = {
	[CRIT_GEMM] = "gemm", [CRIT_MEMORY] = "memory", [CRIT_COLLECTIVE] = "collective",
	[CRIT_OTHER] = "other",
};

const char *crit_class_name(enum crit_class c)
{
	return c < CRIT_COUNT ? class_names[c] : "other";
}

enum crit_class crit_class_from_name(const char *s)
{
	for (int c = 0; s && c < CRIT_COUNT; c++)
		if (!strcmp(s, class_names[c]))
			return (enum crit_class)c;
	return CRIT_OTHER;
}

#define COMM_MAX 16	/* collective groups kept at most, by time */
#define MEMORY_MAX 8	/* memcpy/memset groups kept at most, by time */

/* One group of events: the key is the event's interned pointers and small fields. */
struct group {
	const struct gpu_event *first;	/* NULL: empty slot */
	int64_t ns;			/* summed duration */
	int64_t calls;
	double *dur;			/* seconds of each call (chosen groups, second pass) */
	size_t ndur;
	bool chosen;
};

struct groups {
	struct group *slot;
	size_t cap;			/* power of two */
	size_t n;
};

static bool same_group(const struct gpu_event *x, const struct gpu_event *e)
{
	return x->name == e->name && x->op == e->op && x->cls == e->cls && x->kind == e->kind &&
	       x->coll == e->coll && x->dtype == e->dtype &&
	       (e->cls == EVC_COMPUTE || x->bytes == e->bytes);
}

static size_t group_hash(const struct gpu_event *e)
{
	uintptr_t h = (uintptr_t)e->name * 31 + (uintptr_t)e->op;	/* one op per (name, types, dims) */

	h = h * 31 + (uintptr_t)(e->cls << 16 | e->coll << 8 | e->dtype);
	if (e->cls != EVC_COMPUTE)
		h = h * 31 + (uintptr_t)e->bytes;
	return (size_t)(h ^ (h >> 17) ^ (h >> 31));
}

static struct group *group_slot(struct group *slot, size_t cap, const struct gpu_event *e)
{
	size_t i = group_hash(e) & (cap - 1);

	while (slot[i].first && !same_group(slot[i].first, e))
		i = (i + 1) & (cap - 1);
	return &slot[i];
}

static void groups_grow(struct groups *gs)
{
	size_t cap = gs->cap ? gs->cap * 2 : 256;
	struct group *slot = xcalloc(cap, sizeof(*slot));

	for (size_t i = 0; i < gs->cap; i++)
		if (gs->slot[i].first)
			*group_slot(slot, cap, gs->slot[i].first) = gs->slot[i];
	free(gs->slot);
	gs->slot = slot;
	gs->cap = cap;
}

static struct group *groups_get(struct groups *gs, const struct gpu_event *e)
{
	struct group *g;

	if ((gs->n + 1) * 4 > gs->cap * 3)
		groups_grow(gs);
	g = group_slot(gs->slot, gs->cap, e);
	if (!g->first) {
		g->first = e;
		gs->n++;
	}
	return g;
}

static bool in_range(const struct gpu_event *e, int64_t after, int64_t before)
{
	return e->step >= 0 && e->step > after && e->step < before && e->end >= e->start && e->name;
}

static int by_ns_desc(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a, *y = *(const struct group *const *)b;
	const char *xo = ev_op_name(x->first), *yo = ev_op_name(y->first);
	const char *xd = ev_input_dims(x->first), *yd = ev_input_dims(y->first);
	int c;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	if ((c = strcmp(x->first->name, y->first->name)))
		return c;
	if ((c = strcmp(xo ? xo : "", yo ? yo : "")))
		return c;
	if ((c = strcmp(xd ? xd : "", yd ? yd : "")))
		return c;
	return (x->first->bytes > y->first->bytes) - (x->first->bytes < y->first->bytes);
}

/* Marks the largest groups of class cls: up to max, and (compute) until share of total. */
static void choose(struct group **by, size_t n, enum ev_class cls, size_t max, double until,
		   int64_t total)
{
	int64_t sum = 0;
	size_t kept = 0;

	for (size_t i = 0; i < n && kept < max; i++) {
		if (by[i]->first->cls != cls)
			continue;
		if (until > 0 && (double)sum >= until * (double)total)
			break;
		by[i]->chosen = true;
		sum += by[i]->ns;
		kept++;
	}
}

static enum crit_class class_of(const struct gpu_event *e)
{
	if (e->cls == EVC_COMM)
		return CRIT_COLLECTIVE;
	if (e->cls == EVC_MEMORY)
		return CRIT_MEMORY;
	/* the op says what the work was (a convolution's kernel may be an implicit "sgemm") */
	if (kname_op_class(ev_op_name(e)) != KNAME_OTHER)
		return kname_op_class(ev_op_name(e)) == KNAME_GEMM ? CRIT_GEMM : CRIT_OTHER;
	return kname_class_of(e->name) == KNAME_GEMM ? CRIT_GEMM : CRIT_OTHER;
}

static const char *dup_or_null(struct analysis *a, const char *s)
{
	return s ? arena_strdup(&a->arena, s) : NULL;
}

static void fill(struct analysis *a, struct critical_kernel *c, const struct group *g,
		 double nsteady, int64_t compute_ns)
{
	const struct gpu_event *e = g->first;
	enum dtype dt = e->dtype != DT_UNKNOWN ? (enum dtype)e->dtype :
			e->cls == EVC_COMPUTE ? kname_dtype(e->name, ev_input_types(e)) : DT_UNKNOWN;

	*c = (struct critical_kernel){
		.name = arena_strdup(&a->arena, e->name), .cls = class_of(e),
		.op = dup_or_null(a, ev_op_name(e)), .input_dims = dup_or_null(a, ev_input_dims(e)),
		.input_types = dup_or_null(a, ev_input_types(e)), .dtype = dt,
		.coll = e->cls == EVC_COMM ? (enum coll_op)e->coll : COLL_NONE,
		.bytes = e->cls != EVC_COMPUTE && e->bytes >= 0 ? e->bytes : -1,
		.calls_per_step = (double)g->calls / nsteady,
		.median_s = stats_median(g->dur, g->ndur),
		.p10_s = stats_percentile(g->dur, g->ndur, 10),
		.p90_s = stats_percentile(g->dur, g->ndur, 90),
		.share = compute_ns > 0 ? (double)g->ns / (double)compute_ns : NAN,
	};
}

/* Second pass: the durations of the chosen groups' calls. */
static void collect(struct groups *gs, const struct rank *k, int64_t after, int64_t before)
{
	for (size_t i = 0; i < gs->cap; i++)
		if (gs->slot[i].chosen)
			gs->slot[i].dur = xmalloc((size_t)gs->slot[i].calls * sizeof(double));
	for (size_t i = 0; i < k->nev; i++) {
		const struct gpu_event *e = &k->ev[i];
		struct group *g;

		if (!in_range(e, after, before))
			continue;
		g = group_slot(gs->slot, gs->cap, e);
		if (g->chosen)
			g->dur[g->ndur++] = (double)(e->end - e->start) / 1e9;
	}
}

/* Compute groups first (largest first), then collectives, then memory: the order of by. */
static int by_class_then_ns(const void *a, const void *b)
{
	const struct group *x = *(const struct group *const *)a, *y = *(const struct group *const *)b;
	static const int rank[] = { [EVC_COMPUTE] = 0, [EVC_COMM] = 1, [EVC_MEMORY] = 2 };

	if (x->first->cls != y->first->cls)
		return rank[x->first->cls] - rank[y->first->cls];
	return by_ns_desc(a, b);
}

void critical_kernels(struct analysis *a, struct run_result *rr, const struct rank *k,
		      int64_t after, int64_t before, double nsteady)
{
	struct groups gs = { 0 };
	struct group **by;
	int64_t compute_ns = 0;
	size_t n = 0;

	rr->critical = NULL;
	rr->ncritical = 0;
	for (size_t i = 0; nsteady > 0 && i < k->nev; i++) {
		const struct gpu_event *e = &k->ev[i];
		struct group *g;

		if (!in_range(e, after, before))
			continue;
		g = groups_get(&gs, e);
		g->ns += e->end - e->start;
		g->calls++;
		if (e->cls == EVC_COMPUTE)
			compute_ns += e->end - e->start;
	}
	if (!gs.n)
		goto out;
	by = xmalloc(gs.n * sizeof(*by));
	for (size_t i = 0; i < gs.cap; i++)
		if (gs.slot[i].first)
			by[n++] = &gs.slot[i];
	qsort(by, n, sizeof(*by), by_ns_desc);
	choose(by, n, EVC_COMPUTE, CRITICAL_MAX, CRITICAL_SHARE, compute_ns);
	choose(by, n, EVC_COMM, COMM_MAX, 0, 0);
	choose(by, n, EVC_MEMORY, MEMORY_MAX, 0, 0);
	collect(&gs, k, after, before);
	qsort(by, n, sizeof(*by), by_class_then_ns);
	rr->critical = arena_alloc(&a->arena, n * sizeof(*rr->critical));
	for (size_t i = 0; i < n; i++)
		if (by[i]->chosen)
			fill(a, &rr->critical[rr->ncritical++], by[i], nsteady, compute_ns);
	free(by);
out:
	for (size_t i = 0; i < gs.cap; i++)
		free(gs.slot[i].dur);
	free(gs.slot);
}
