#include "replay/plan.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kname.h"

static const char *const method_names[PM_COUNT] = {
	[PM_NONE] = "none", [PM_CUBLASLT] = "cublaslt", [PM_COPY] = "ptx-copy",
	[PM_FILL] = "ptx-fill", [PM_NCCL] = "nccl", [PM_HTOD] = "htod", [PM_DTOH] = "dtoh",
};

const char *plan_method_name(enum plan_method m)
{
	return m < PM_COUNT ? method_names[m] : "none";
}

size_t plan_pick_run(const struct analysis *a)
{
	if (a->cmp.valid && a->cmp.candidate < a->nruns && a->runs[a->cmp.candidate].ncritical)
		return a->cmp.candidate;
	for (size_t i = 0; i < a->nruns; i++)
		if (a->runs[i].ncritical)
			return i;
	return SIZE_MAX;
}

/* A printf into the plan's arena (at most 255 characters). */
static const char *plan_fmt(struct arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static const char *plan_fmt(struct arena *a, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return arena_strdup(a, buf);
}

/* --- Input Dims: "[[4096, 1024], [1024], []]" --- */

#define MAX_TENSORS 8
#define MAX_DIMS 8
#define MAX_DIM (1LL << 31)	/* a dimension beyond this is not a tensor's */
#define MAX_ELEMS (1LL << 46)	/* elements of one GEMM operand, batch included: far beyond any GPU */

struct dims {
	int64_t d[MAX_TENSORS][MAX_DIMS];
	int nd[MAX_TENSORS];	/* dimensions of each tensor; 0: a scalar or not a tensor */
	int n;			/* tensors */
};

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* One "[a, b, ...]" at p into t; returns the character after it, or NULL. */
static const char *parse_tensor(const char *p, int64_t *t, int *nd)
{
	*nd = 0;
	p = skip_blank(p);
	if (*p++ != '[')
		return NULL;
	for (p = skip_blank(p); *p != ']'; p = skip_blank(p)) {
		char *end;
		long long v = strtoll(p, &end, 10);

		if (end == p || v < 0 || v > MAX_DIM || *nd >= MAX_DIMS)
			return NULL;
		t[(*nd)++] = v;
		p = skip_blank(end);
		if (*p == ',')
			p++;
		else if (*p != ']')
			return NULL;
	}
	return p + 1;
}

static int parse_dims(const char *s, struct dims *d)
{
	const char *p = skip_blank(s);

	d->n = 0;
	if (*p++ != '[')
		return -1;
	for (p = skip_blank(p); *p != ']'; p = skip_blank(p)) {
		if (d->n >= MAX_TENSORS)
			return d->n >= 2 ? 0 : -1;	/* the operands come first */
		p = parse_tensor(p, d->d[d->n], &d->nd[d->n]);
		if (!p)
			return -1;
		d->n++;
		p = skip_blank(p);
		if (*p == ',')
			p++;
		else if (*p != ']')
			return -1;
	}
	return 0;
}

/* The i-th comma-separated dtype of an Input type list; DT_UNKNOWN. */
static enum dtype type_at(const char *types, int i)
{
	const char *p = types, *end;

	for (; p && i > 0; i--) {
		p = strchr(p, ',');
		if (p)
			p++;
	}
	if (!p)
		return DT_UNKNOWN;
	end = strchr(p, ',');
	return dtype_parse(p, end ? (size_t)(end - p) : strlen(p));
}

/* --- GEMM shapes by the launching op --- */

enum gemm_rule { GR_MM, GR_BMM, GR_LINEAR, GR_MATMUL };

struct gemm_op {
	const char *op;
	int a, b;		/* operand indexes in Input Dims */
	enum gemm_rule rule;
};

static const struct gemm_op gemm_ops[] = {
	{ "aten::mm", 0, 1, GR_MM },
	{ "aten::addmm", 1, 2, GR_MM },
	{ "aten::addmm_", 1, 2, GR_MM },
	{ "aten::_addmm_activation", 1, 2, GR_MM },
	{ "aten::_scaled_mm", 0, 1, GR_MM },
	{ "aten::_int_mm", 0, 1, GR_MM },
	{ "aten::bmm", 0, 1, GR_BMM },
	{ "aten::baddbmm", 1, 2, GR_BMM },
	{ "aten::baddbmm_", 1, 2, GR_BMM },
	{ "aten::matmul", 0, 1, GR_MATMUL },
	{ "aten::linear", 0, 1, GR_LINEAR },
};

/* The product of v[0..n), or MAX_ELEMS + 1 once it passes MAX_ELEMS (never overflows). */
static int64_t prod(const int64_t *v, int n)
{
	int64_t p = 1;

	for (int i = 0; i < n; i++) {
		if (v[i] && p > MAX_ELEMS / v[i])
			return MAX_ELEMS + 1;
		p *= v[i];
	}
	return p;
}

/* Each operand of g within MAX_ELEMS elements (so bytes cannot overflow). */
static bool gemm_fits(const struct plan_gemm *g)
{
	double b = (double)g->batch;

	return (double)g->m * (double)g->k * b <= (double)MAX_ELEMS &&
	       (double)g->k * (double)g->n * b <= (double)MAX_ELEMS &&
	       (double)g->m * (double)g->n * b <= (double)MAX_ELEMS;
}

/* m, n, k, batch of a rule from operands a (na dims) and b (nb dims); -1 when they do not fit. */
static int gemm_dims(enum gemm_rule rule, const int64_t *a, int na, const int64_t *b, int nb,
		     struct plan_gemm *g)
{
	switch (rule) {
	case GR_MM:
		if (na != 2 || nb != 2 || a[1] != b[0])
			return -1;
		g->m = a[0], g->k = a[1], g->n = b[1];
		return 0;
	case GR_BMM:
		if (na != 3 || nb != 3 || a[0] != b[0] || a[2] != b[1])
			return -1;
		g->batch = a[0], g->m = a[1], g->k = a[2], g->n = b[2];
		return 0;
	case GR_LINEAR:	/* x[..., K] . W[N, K]^T */
		if (na < 1 || nb != 2 || a[na - 1] != b[1])
			return -1;
		g->m = prod(a, na - 1), g->k = a[na - 1], g->n = b[0], g->transb = true;
		return 0;
	case GR_MATMUL:
		if (na < 2 || nb < 2 || a[na - 1] != b[nb - 2])
			return -1;
		if (nb == 2) {	/* batch folds into the rows */
			g->m = prod(a, na - 1), g->k = a[na - 1], g->n = b[1];
			return 0;
		}
		if (na != nb || memcmp(a, b, (size_t)(na - 2) * sizeof(*a)))
			return -1;	/* broadcasting batches: not one strided GEMM */
		g->batch = prod(a, na - 2), g->m = a[na - 2], g->k = a[na - 1], g->n = b[nb - 1];
		return 0;
	}
	return -1;
}

static const struct gemm_op *gemm_op_of(const char *op)
{
	for (size_t i = 0; op && i < sizeof(gemm_ops) / sizeof(gemm_ops[0]); i++)
		if (!strcmp(op, gemm_ops[i].op))
			return &gemm_ops[i];
	return NULL;
}

int plan_gemm_shape(const char *op, const char *dims, const char *types, struct plan_gemm *g,
		    char *why, size_t size)
{
	const struct gemm_op *r = gemm_op_of(op);
	struct dims d;

	*g = (struct plan_gemm){ -1, -1, -1, 1, false, false, DT_UNKNOWN, DT_UNKNOWN, DT_UNKNOWN };
	if (!r) {
		snprintf(why, size, "no GEMM shape rule for this op");
		return -1;
	}
	if (!dims || !strcmp(dims, "[]") || parse_dims(dims, &d) < 0 || d.n <= r->b ||
	    (d.nd[r->a] == 0 && d.nd[r->b] == 0)) {
		snprintf(why, size, dims && strcmp(dims, "[]") && parse_dims(dims, &d) < 0 ?
			 "dims not understood: %.60s" : "dims not recorded (record_shapes=False)",
			 dims ? dims : "");
		return -1;
	}
	if (gemm_dims(r->rule, d.d[r->a], d.nd[r->a], d.d[r->b], d.nd[r->b], g) < 0) {
		snprintf(why, size, "operand dims do not multiply: %.60s", dims);
		return -1;
	}
	if (!gemm_fits(g)) {
		snprintf(why, size, "dims too large for one GPU: %.60s", dims);
		return -1;
	}
	g->a_type = type_at(types, r->a);
	g->b_type = type_at(types, r->b);
	g->c_type = g->a_type;
	if (g->a_type == DT_FP8 || g->a_type == DT_FP8_E4M3 || g->a_type == DT_FP8_E5M2)
		g->c_type = DT_BF16;
	return 0;
}

/* --- the plan of one kernel --- */

/* Why a kernel of another kind is not replayed, by what its name says. */
static const char *const other_why[KNAME_CLASS_COUNT] = {
	[KNAME_OTHER] = "not a library call: the work its launch did is not recorded",
	[KNAME_GEMM] = "a GEMM kernel launched by an op with no shape rule",
	[KNAME_CONV] = "convolutions are not replayed (no cuDNN)",
	[KNAME_ATTENTION] = "attention kernels are not replayed (not a library call)",
};

/* Memory kernels by the start of their name. */
static const struct { const char *prefix; enum plan_method m; } memory_methods[] = {
	{ "Memset", PM_FILL }, { "Memcpy DtoD", PM_COPY }, { "Memcpy PtoP", PM_COPY },
	{ "Memcpy HtoD", PM_HTOD }, { "Memcpy DtoH", PM_DTOH },
};

static void not_replayed(struct plan *p, struct plan_kernel *k, const char *why)
{
	k->method = PM_NONE;
	k->why_not = arena_strdup(&p->arena, why);
}

static bool is_fp8(enum dtype t)
{
	return t == DT_FP8 || t == DT_FP8_E4M3 || t == DT_FP8_E5M2;
}

static void plan_gemm(struct plan *p, struct plan_kernel *k, const struct critical_kernel *c)
{
	struct plan_gemm *g = &k->gemm;
	char why[160];
	int size;

	if (plan_gemm_shape(c->op, c->input_dims, c->input_types, g, why, sizeof(why)) < 0) {
		k->why_not = plan_fmt(&p->arena, "not replayed: %s: %s",
				      c->op ? c->op : "no launching op", why);
		return;
	}
	if (g->a_type == DT_UNKNOWN) {	/* the kernel name's dtype, then */
		g->a_type = g->b_type = g->c_type = c->dtype;
		k->guessed = true;
	}
	k->guessed |= is_fp8(g->a_type);
	k->dtype = g->a_type;
	size = dtype_size(g->a_type);
	k->bytes = size ? g->batch * (g->m * g->k + g->k * g->n) * size +
			  g->batch * g->m * g->n * dtype_size(g->c_type) : -1;
	k->shape = plan_fmt(&p->arena, "m=%lld n=%lld k=%lld%s%s%s",
				(long long)g->m, (long long)g->n, (long long)g->k,
				g->batch > 1 ? plan_fmt(&p->arena, " batch=%lld", (long long)g->batch) : "",
				g->transa ? " transa" : "", g->transb ? " transb" : "");
	if (g->a_type == DT_UNKNOWN)
		not_replayed(p, k, "not replayed: dtype not recorded");
	else
		k->method = PM_CUBLASLT;
}

static void plan_memory(struct plan *p, struct plan_kernel *k, const struct critical_kernel *c)
{
	k->shape = c->bytes >= 0 ? plan_fmt(&p->arena, "%lld B", (long long)c->bytes) : NULL;
	for (size_t i = 0; i < sizeof(memory_methods) / sizeof(memory_methods[0]); i++)
		if (!strncmp(c->name, memory_methods[i].prefix, strlen(memory_methods[i].prefix)))
			k->method = memory_methods[i].m;
	if (c->bytes <= 0)
		not_replayed(p, k, "not replayed: bytes not recorded");
	else if (k->method == PM_NONE)
		not_replayed(p, k, "not replayed: a copy of a kind replay does not make");
}

/* NCCL's count from the trace's message bytes (the larger of input and output). */
static int64_t nccl_count(enum coll_op op, int64_t bytes, int size, int32_t nranks)
{
	int64_t elems = bytes / size;

	if (op == COLL_ALLGATHER || op == COLL_REDUCESCATTER || op == COLL_ALLTOALL)
		return nranks > 0 ? elems / nranks : -1;
	return elems;
}

static void plan_coll(struct plan *p, struct plan_kernel *k, const struct critical_kernel *c)
{
	int size = dtype_size(c->dtype);

	k->coll = (struct plan_coll){ c->coll, -1, c->dtype, p->nranks };
	if (c->bytes > 0 && size)
		k->coll.count = nccl_count(c->coll, c->bytes, size, p->nranks);
	k->shape = plan_fmt(&p->arena, "%s count=%lld ranks=%d", coll_name(c->coll),
				(long long)k->coll.count, p->nranks);
	if (c->coll == COLL_NONE || c->coll == COLL_BARRIER)
		not_replayed(p, k, "not replayed: the collective's kind is not recorded");
	else if (k->coll.count <= 0)
		not_replayed(p, k, size ? "not replayed: message size not recorded" :
				       "not replayed: dtype not recorded");
	else
		k->method = PM_NCCL;
}

static void plan_one(struct plan *p, struct plan_kernel *k, const struct critical_kernel *c)
{
	char buf[160];

	*k = (struct plan_kernel){
		.name = arena_strdup(&p->arena, c->name), .cls = c->cls,
		.op = c->op ? arena_strdup(&p->arena, c->op) : NULL,
		.shape = c->input_dims ? arena_strdup(&p->arena, c->input_dims) : NULL,
		.dtype = c->dtype, .bytes = c->bytes,
		.logged_median_s = c->median_s, .logged_p10_s = c->p10_s, .logged_p90_s = c->p90_s,
		.calls_per_step = c->calls_per_step, .share = c->share, .method = PM_NONE,
	};
	switch (c->cls) {
	case CRIT_GEMM:
		plan_gemm(p, k, c);
		break;
	case CRIT_MEMORY:
		plan_memory(p, k, c);
		break;
	case CRIT_COLLECTIVE:
		plan_coll(p, k, c);
		break;
	default:
		snprintf(buf, sizeof(buf), "not replayed: %s", other_why[kname_op_class(c->op) != KNAME_OTHER ?
			 kname_op_class(c->op) : kname_class_of(c->name)]);
		not_replayed(p, k, buf);
		break;
	}
}

int plan_build(struct plan *p, const struct analysis *a, size_t run)
{
	const struct run_result *rr;

	memset(p, 0, sizeof(*p));
	p->step_s = NAN;
	p->kernel_s = NAN;
	p->gpu_memory = -1;
	p->nranks = -1;
	if (run >= a->nruns || !a->runs[run].ncritical)
		return -1;
	rr = &a->runs[run];
	p->run = arena_strdup(&p->arena, rr->name ? rr->name : "?");
	if (rr->slowest < rr->ngpu) {
		const struct gpu_result *g = &rr->gpu[rr->slowest];

		p->gpu = g->name ? arena_strdup(&p->arena, g->name) : NULL;
		p->gpu_memory = g->memory_total;
	}
	p->nranks = rr->gpus;
	p->step_s = rr->step_median_s;
	p->kernel_s = 0;
	p->n = rr->ncritical;
	p->k = arena_alloc(&p->arena, p->n * sizeof(*p->k));
	for (size_t i = 0; i < p->n; i++) {
		plan_one(p, &p->k[i], &rr->critical[i]);
		p->kernel_s += p->k[i].calls_per_step * p->k[i].logged_median_s;
	}
	return 0;
}

void plan_release(struct plan *p)
{
	arena_release(&p->arena);
	memset(p, 0, sizeof(*p));
}
