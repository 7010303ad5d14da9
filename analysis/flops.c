#include "analysis/flops.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "analysis/thresholds.h"
#include "core/arena.h"
#include "core/gpu.h"
#include "core/kname.h"
#include "core/xalloc.h"

/* --- Input Dims: "[[4096, 1024], [1024], []]" --- */

#define MAX_TENSORS 12
#define MAX_DIMS 8
#define MAX_DIM (1LL << 40)	/* a dimension beyond this is no tensor's */

struct dims {
	int64_t d[MAX_TENSORS][MAX_DIMS];
	int nd[MAX_TENSORS];	/* dimensions of each tensor; 0: a scalar, a list or not a tensor */
	int n;			/* tensors read (the first MAX_TENSORS) */
};

static const char *blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/* One "[a, b, ...]" at p into t (kept only when keep); the character after it, or NULL. */
static const char *one_tensor(const char *p, int64_t *t, int *nd, bool keep)
{
	int n = 0;

	if (*(p = blank(p)) != '[')
		return NULL;
	for (p = blank(p + 1); *p != ']'; p = blank(p)) {
		char *end;
		long long v = strtoll(p, &end, 10);

		if (end == p || v < 0 || v > MAX_DIM || n >= MAX_DIMS)
			return NULL;
		if (keep)
			t[n] = v;
		n++;
		p = blank(end);
		if (*p == ',')
			p++;
		else if (*p != ']')
			return NULL;
	}
	*nd = keep ? n : 0;
	return p + 1;
}

static bool parse_dims(const char *s, struct dims *d)
{
	const char *p = blank(s);
	int64_t skip[MAX_DIMS];
	int nskip;

	d->n = 0;
	if (*p != '[')
		return false;
	for (p = blank(p + 1); *p != ']'; p = blank(p)) {
		bool keep = d->n < MAX_TENSORS;

		p = one_tensor(p, keep ? d->d[d->n] : skip, keep ? &d->nd[d->n] : &nskip, keep);
		if (!p)
			return false;
		if (keep)
			d->n++;
		p = blank(p);
		if (*p == ',')
			p++;
		else if (*p != ']')
			return false;
	}
	return true;
}

/* The i-th comma-separated dtype of an Input type list; DT_UNKNOWN. */
static enum dtype type_at(const char *types, int i)
{
	const char *p = types, *end;

	for (; p && i > 0; i--)
		if ((p = strchr(p, ',')))
			p++;
	if (!p)
		return DT_UNKNOWN;
	end = strchr(p, ',');
	return dtype_parse(p, end ? (size_t)(end - p) : strlen(p));
}

static double elems(const int64_t *v, int n)
{
	double e = 1;

	for (int i = 0; i < n; i++)
		e *= (double)v[i];
	return e;
}

/* Bytes of every tensor the op received, each in its recorded type (unknown sizes count 0). */
static double input_bytes(const struct dims *d, const char *types)
{
	double b = 0;

	for (int i = 0; i < d->n; i++)
		if (d->nd[i])
			b += elems(d->d[i], d->nd[i]) * dtype_size(type_at(types, i));
	return b;
}

/* --- the rules, by op --- */

enum flop_rule { FR_MM, FR_BMM, FR_LINEAR, FR_MATMUL, FR_CONV, FR_CONV_BWD, FR_ATTN, FR_ATTN_BWD };

/*
 * Where an op's arguments stand in its Concrete Inputs (the same index as
 * in Input Dims), from its ATen signature; -1: not an argument of the op.
 * A convolution: stride, padding, dilation, transposed, output_padding,
 * groups. Attention: is_causal (a bool), or custom_mask_type (an int,
 * causal unless 0) for the memory-efficient kernels.
 */
struct conv_args {
	int8_t stride, pad, dil, transposed, outpad, groups;
};

struct attn_args {
	int8_t causal, mask_type;
};

struct flop_op {
	const char *op;
	uint8_t rule;		/* enum flop_rule */
	int8_t a, b;		/* operand indexes in Input Dims: A and B; input and weight; q and k (v is b + 1) */
	bool bshd;		/* attention tensors laid out [batch, seq, heads, dim], not [batch, heads, seq, dim] */
	struct conv_args conv;
	struct attn_args attn;
};

#define CONV(s, p, d, t, o, g) .conv = { s, p, d, t, o, g }, .attn = { -1, -1 }
#define ATTN(c, m) .conv = { -1, -1, -1, -1, -1, -1 }, .attn = { c, m }
#define NONE .conv = { -1, -1, -1, -1, -1, -1 }, .attn = { -1, -1 }

static const struct flop_op flop_ops[] = {
	{ "aten::mm", FR_MM, 0, 1, false, NONE },
	{ "aten::addmm", FR_MM, 1, 2, false, NONE },
	{ "aten::addmm_", FR_MM, 1, 2, false, NONE },
	{ "aten::_addmm_activation", FR_MM, 1, 2, false, NONE },
	{ "aten::_scaled_mm", FR_MM, 0, 1, false, NONE },
	{ "aten::bmm", FR_BMM, 0, 1, false, NONE },
	{ "aten::baddbmm", FR_BMM, 1, 2, false, NONE },
	{ "aten::baddbmm_", FR_BMM, 1, 2, false, NONE },
	{ "aten::matmul", FR_MATMUL, 0, 1, false, NONE },
	{ "aten::linear", FR_LINEAR, 0, 1, false, NONE },
	{ "aten::convolution", FR_CONV, 0, 1, false, CONV(3, 4, 5, 6, 7, 8) },
	{ "aten::_convolution", FR_CONV, 0, 1, false, CONV(3, 4, 5, 6, 7, 8) },
	{ "aten::conv1d", FR_CONV, 0, 1, false, CONV(3, 4, 5, -1, -1, 6) },
	{ "aten::conv2d", FR_CONV, 0, 1, false, CONV(3, 4, 5, -1, -1, 6) },
	{ "aten::conv3d", FR_CONV, 0, 1, false, CONV(3, 4, 5, -1, -1, 6) },
	{ "aten::cudnn_convolution", FR_CONV, 0, 1, false, CONV(3, 2, 4, -1, -1, 5) },
	{ "aten::miopen_convolution", FR_CONV, 0, 1, false, CONV(4, 3, 5, -1, -1, 6) },
	{ "aten::convolution_backward", FR_CONV_BWD, 0, 2, false, CONV(4, 5, 6, 7, 8, 9) },
	{ "aten::scaled_dot_product_attention", FR_ATTN, 0, 1, false, ATTN(5, -1) },
	{ "aten::_scaled_dot_product_flash_attention", FR_ATTN, 0, 1, false, ATTN(4, -1) },
	{ "aten::_scaled_dot_product_efficient_attention", FR_ATTN, 0, 1, false, ATTN(6, -1) },
	{ "aten::_scaled_dot_product_cudnn_attention", FR_ATTN, 0, 1, false, ATTN(6, -1) },
	{ "aten::_flash_attention_forward", FR_ATTN, 0, 1, true, ATTN(8, -1) },
	{ "aten::_efficient_attention_forward", FR_ATTN, 0, 1, true, ATTN(-1, 9) },
	{ "aten::_scaled_dot_product_flash_attention_backward", FR_ATTN_BWD, 1, 2, false, ATTN(11, -1) },
	{ "aten::_scaled_dot_product_efficient_attention_backward", FR_ATTN_BWD, 1, 2, false, ATTN(11, -1) },
	{ "aten::_scaled_dot_product_cudnn_attention_backward", FR_ATTN_BWD, 1, 2, false, ATTN(14, -1) },
	{ "aten::_flash_attention_backward", FR_ATTN_BWD, 1, 2, true, ATTN(11, -1) },
	{ "aten::_efficient_attention_backward", FR_ATTN_BWD, 1, 2, true, ATTN(-1, 14) },
};

static const struct flop_op *rule_of(const char *op)
{
	for (size_t i = 0; op && i < sizeof(flop_ops) / sizeof(flop_ops[0]); i++)
		if (!strcmp(op, flop_ops[i].op))
			return &flop_ops[i];
	return NULL;
}

/* A GEMM's batch, m, n, k from operands a (na dims) and b (nb dims) by rule; false when they do not multiply. */
static bool gemm_mnk(enum flop_rule rule, const int64_t *a, int na, const int64_t *b, int nb, double g[4])
{
	g[0] = 1;
	switch (rule) {
	case FR_MM:
		if (na != 2 || nb != 2 || a[1] != b[0])
			return false;
		g[1] = (double)a[0], g[2] = (double)b[1], g[3] = (double)a[1];
		return true;
	case FR_BMM:
		if (na != 3 || nb != 3 || a[0] != b[0] || a[2] != b[1])
			return false;
		g[0] = (double)a[0], g[1] = (double)a[1], g[2] = (double)b[2], g[3] = (double)a[2];
		return true;
	case FR_LINEAR:	/* x[..., K] . W[N, K]^T */
		if (na < 1 || nb != 2 || a[na - 1] != b[1])
			return false;
		g[1] = elems(a, na - 1), g[2] = (double)b[0], g[3] = (double)a[na - 1];
		return true;
	default:	/* FR_MATMUL: batches broadcast, so the larger one counts */
		if (na < 2 || nb < 2 || a[na - 1] != b[nb - 2])
			return false;
		g[0] = fmax(elems(a, na - 2), elems(b, nb - 2));
		g[1] = (double)a[na - 2], g[2] = (double)b[nb - 1], g[3] = (double)a[na - 1];
		return true;
	}
}

static bool cost_gemm(const struct flop_op *r, const struct dims *d, int out_size, struct op_cost *c)
{
	double g[4];

	if (!gemm_mnk(r->rule, d->d[r->a], d->nd[r->a], d->d[r->b], d->nd[r->b], g))
		return false;
	c->flops = 2 * g[0] * g[1] * g[2] * g[3];
	c->bytes += g[0] * g[1] * g[2] * out_size;
	return true;
}

/* --- Concrete Inputs: ";;[2, 2];[1, 1];False;1", each value after a ';' --- */

/* The i-th value of concrete and its length; NULL when absent or empty (a tensor's). */
static const char *concrete_at(const char *concrete, int i, size_t *len)
{
	const char *p = concrete, *end;

	if (!p || i < 0)
		return NULL;
	for (int j = 0; j <= i; j++)
		if (!(p = strchr(p, ';')) || !*++p)
			return NULL;
	end = strchr(p, ';');
	*len = end ? (size_t)(end - p) : strlen(p);
	return *len ? p : NULL;
}

/* Value i as n integers: "[2, 2]", or one "[2]" or "2" for every one; false when it is not. */
static bool concrete_ints(const char *concrete, int i, int n, int64_t *v)
{
	size_t len;
	const char *p = concrete_at(concrete, i, &len), *end = p + len;
	int k = 0;

	if (!p)
		return false;
	p += *p == '[';
	while (p < end && *p != ']' && k < n) {
		char *e;
		long long x = strtoll(p, &e, 10);

		if (e == p || x < 0 || x > MAX_DIM)
			return false;
		v[k++] = x;
		for (p = e; p < end && (*p == ',' || *p == ' '); p++)
			;
	}
	if (p < end && *p != ']')
		return false;
	for (int j = k; k == 1 && j < n; j++)
		v[j] = v[0];
	return k == 1 || k == n;
}

/* Value i as a flag: "True", "False", or an integer (not 0: set); -1 when absent or neither. */
static int concrete_flag(const char *concrete, int i)
{
	size_t len;
	const char *p = concrete_at(concrete, i, &len);
	int64_t v;

	if (!p)
		return -1;
	if (len == 4 && !memcmp(p, "True", 4))
		return 1;
	if (len == 5 && !memcmp(p, "False", 5))
		return 0;
	return concrete_ints(concrete, i, 1, &v) ? v != 0 : -1;
}

/* A convolution's geometry from its Concrete Inputs; known false when they do not give it. */
struct conv_geom {
	int64_t stride[MAX_DIMS], pad[MAX_DIMS], dil[MAX_DIMS], outpad[MAX_DIMS], groups;
	bool known, transposed;
};

static void conv_geom(const struct conv_args *a, const char *concrete, int ns, struct conv_geom *g)
{
	int t = concrete_flag(concrete, a->transposed);

	*g = (struct conv_geom){ .groups = -1 };
	for (int i = 0; i < ns; i++)
		g->outpad[i] = 0;
	g->known = concrete_ints(concrete, a->stride, ns, g->stride) &&
		   concrete_ints(concrete, a->pad, ns, g->pad) &&
		   concrete_ints(concrete, a->dil, ns, g->dil) && (a->transposed < 0 || t >= 0) &&
		   (a->outpad < 0 || concrete_ints(concrete, a->outpad, ns, g->outpad)) &&
		   concrete_ints(concrete, a->groups, 1, &g->groups) && g->groups > 0;
	g->transposed = g->known && t == 1;
}

/* The output's spatial size in out[ns] from the input's in[ns] and the kernel's k[ns]; false when empty. */
static bool conv_out(const struct conv_geom *g, const int64_t *in, const int64_t *k, int ns, double *out)
{
	*out = 1;
	for (int i = 0; i < ns; i++) {
		double span = (double)g->dil[i] * (double)(k[i] - 1);
		double o = g->transposed ?
			(double)(in[i] - 1) * (double)g->stride[i] - 2.0 * (double)g->pad[i] + span +
				(double)g->outpad[i] + 1 :
			g->stride[i] ? floor(((double)in[i] + 2.0 * (double)g->pad[i] - span - 1) /
					     (double)g->stride[i]) + 1 : 0;

		if (o < 1)
			return false;
		*out *= o;
	}
	return true;
}

/*
 * A convolution: x [N, C, spatial...], w [Cout, C/groups, kernel...] (a
 * transposed one: w [C, Cout/groups, kernel...]). Each output element
 * costs one multiply-add per weight of its group, 2 C/groups prod(kernel)
 * FLOPs. With Concrete Inputs the output's size comes from stride,
 * padding and dilation, and groups must divide C as the weight says;
 * without them stride 1 and "same" padding are assumed (an upper bound
 * where a layer strides) and the groups are what the weight implies.
 */
static bool cost_conv(const struct flop_op *r, const struct dims *d, const char *concrete, int out_size,
		      struct op_cost *c)
{
	const int64_t *x = d->d[r->a], *w = d->d[r->b];
	int nx = d->nd[r->a], nw = d->nd[r->b], ns = nx - 2;
	struct conv_geom g;
	double out, cout;

	if (nx < 3 || nx != nw)
		return false;
	conv_geom(&r->conv, concrete, ns, &g);
	if (!g.known) {
		out = elems(x + 2, ns), cout = (double)w[0];
		c->flops = 2 * (double)x[0] * cout * out * (double)w[1] * elems(w + 2, ns);
	} else if (!g.transposed) {
		if (x[1] != w[1] * g.groups || !conv_out(&g, x + 2, w + 2, ns, &out))
			return false;
		cout = (double)w[0];
		c->flops = 2 * (double)x[0] * cout * out * (double)w[1] * elems(w + 2, ns);
	} else {	/* each input element spreads over Cout/groups prod(kernel) outputs */
		if (x[1] != w[0] || w[0] % g.groups || !conv_out(&g, x + 2, w + 2, ns, &out))
			return false;
		cout = (double)w[1] * (double)g.groups;
		c->flops = 2 * (double)x[0] * (double)x[1] * elems(x + 2, ns) * (double)w[1] * elems(w + 2, ns);
	}
	c->bytes += (double)x[0] * cout * out * out_size;
	return true;
}

/*
 * A convolution's backward: grad_output [N, Cout, out spatial...], input,
 * weight [Cout, C/groups, kernel...] (transposed: [C, Cout/groups, ...]);
 * the data and the weight gradient each cost the forward's FLOPs, and each
 * is its own kernel. The output's size is grad_output's: only whether it
 * is transposed is read from Concrete Inputs.
 */
static bool cost_conv_bwd(const struct flop_op *r, const struct dims *d, const char *concrete, int out_size,
			  struct op_cost *c)
{
	const int64_t *go = d->d[0], *in = d->d[1], *w = d->d[r->b];
	int ngo = d->nd[0], nw = d->nd[r->b];
	bool transposed = concrete_flag(concrete, r->conv.transposed) == 1;
	double fwd;

	if (ngo < 3 || ngo != nw || d->nd[1] != ngo)
		return false;
	if (!transposed && go[1] == w[0])
		fwd = 2 * (double)go[0] * (double)go[1] * elems(go + 2, ngo - 2) * (double)w[1] * elems(w + 2, nw - 2);
	else if (transposed && in[1] == w[0])
		fwd = 2 * (double)in[0] * (double)in[1] * elems(in + 2, ngo - 2) * (double)w[1] * elems(w + 2, nw - 2);
	else
		return false;
	c->flops = 2 * fwd;
	c->bytes += (elems(in, ngo) + elems(w, nw)) * out_size;
	c->carriers = 2;
	return true;
}

/*
 * Attention: q [b, h, s_q, d], k [b, h, s_k, d], v [b, h, s_k, d_v] (or
 * [b, s, h, d]). Forward: Q K^T and P V, 2 b h s_q s_k (d + d_v). Backward:
 * Q K^T again, dV, dP, dQ and dK, 2 b h s_q s_k (3 d + 2 d_v). A causal
 * mask (is_causal, or the memory-efficient kernels' custom_mask_type, in
 * Concrete Inputs) computes half the scores, so half the FLOPs count;
 * without Concrete Inputs every score is counted (an upper bound).
 */
static bool cost_attn(const struct flop_op *r, const struct dims *d, const char *concrete, int out_size,
		      struct op_cost *c)
{
	const int64_t *q = d->d[r->a], *k = d->d[r->b], *v = d->d[r->b + 1];
	int hi = r->bshd ? 2 : 1, si = r->bshd ? 1 : 2;
	double scores, dd, dv;

	if (r->b + 1 >= d->n || d->nd[r->a] != 4 || d->nd[r->b] != 4 || d->nd[r->b + 1] != 4 ||
	    q[0] != k[0] || q[3] != k[3])
		return false;
	scores = (double)q[0] * (double)q[hi] * (double)q[si] * (double)k[si];
	dd = (double)q[3], dv = (double)v[3];
	if (r->rule == FR_ATTN) {
		c->flops = 2 * scores * (dd + dv);
		c->bytes += (double)q[0] * (double)q[hi] * (double)q[si] * dv * out_size;
	} else {
		c->flops = 2 * scores * (3 * dd + 2 * dv);
		c->bytes += (elems(q, 4) + elems(k, 4) + elems(v, 4)) * out_size;
	}
	if (concrete_flag(concrete, r->attn.causal) == 1 || concrete_flag(concrete, r->attn.mask_type) == 1)
		c->flops /= 2;
	return true;
}

bool op_cost_of(const char *op, const char *dims, const char *types, struct op_cost *c)
{
	return op_cost_args(op, dims, types, NULL, c);
}

bool op_cost_args(const char *op, const char *dims, const char *types, const char *concrete,
		  struct op_cost *c)
{
	const struct flop_op *r = rule_of(op);
	struct dims *d;
	bool ok = false;
	int out_size;

	*c = (struct op_cost){ .carriers = 1, .dtype = DT_UNKNOWN };
	if (!r || !dims)
		return false;
	d = xcalloc(1, sizeof(*d));
	if (!parse_dims(dims, d) || d->n <= r->b)
		goto done;
	c->dtype = type_at(types, r->a);
	out_size = dtype_size(c->dtype);
	c->bytes = input_bytes(d, types);
	switch (r->rule) {
	case FR_CONV: ok = cost_conv(r, d, concrete, out_size, c); break;
	case FR_CONV_BWD: ok = cost_conv_bwd(r, d, concrete, out_size, c); break;
	case FR_ATTN: case FR_ATTN_BWD: ok = cost_attn(r, d, concrete, out_size, c); break;
	default: ok = cost_gemm(r, d, out_size, c);
	}
	ok = ok && c->flops > 0 && isfinite(c->flops);
done:
	free(d);
	return ok;
}

/* Kernels a library launches around a matmul that do none of its multiply-adds. */
static const char *const helper_tokens[] = {
	"splitKreduce", "splitK_reduce", "dot_do_o", "convert_dq", "ToNhwc", "ToNchw",
	"nchw2nhwc", "nhwc2nchw", "nchwToNhwc", "nhwcToNchw",
};

bool flops_carrier(const char *name)
{
	if (!name || kname_class_of(name) == KNAME_OTHER)
		return false;
	for (size_t i = 0; i < sizeof(helper_tokens) / sizeof(helper_tokens[0]); i++)
		if (strstr(name, helper_tokens[i]))
			return false;
	return true;
}

/* --- the run --- */

#define ROOFLINE_OPS 12	/* ops a roofline shows: more overlap unreadably */

/* One distinct launching op of the run (by its launch_op: name, types and dims). */
struct op_acc {
	const struct launch_op *op;	/* NULL: empty slot */
	bool known;		/* op_cost_of() gave a cost */
	struct op_cost cost;
	int64_t carriers;	/* carrier kernels seen */
	double time_s;		/* matmul-class kernel time */
};

struct op_table {
	struct op_acc *slot;
	size_t cap, n;		/* cap: a power of two */
};

static struct op_acc *op_find(struct op_table *t, const struct launch_op *op);

static void op_grow(struct op_table *t)
{
	struct op_table u = { xcalloc(t->cap * 2, sizeof(*u.slot)), t->cap * 2, 0 };

	for (size_t i = 0; i < t->cap; i++)
		if (t->slot[i].op)
			*op_find(&u, t->slot[i].op) = t->slot[i];
	u.n = t->n;
	free(t->slot);
	*t = u;
}

/* The slot of op: found, or a new one with its cost. */
static struct op_acc *op_find(struct op_table *t, const struct launch_op *op)
{
	size_t i = ((uintptr_t)op >> 4) * 0x9E3779B97F4A7C15ull & (t->cap - 1);

	while (t->slot[i].op && t->slot[i].op != op)
		i = (i + 1) & (t->cap - 1);
	if (t->slot[i].op)
		return &t->slot[i];
	if ((t->n + 1) * 2 > t->cap) {
		op_grow(t);
		return op_find(t, op);
	}
	t->slot[i].op = op;
	t->slot[i].known = op_cost_args(op->name, op->input_dims, op->input_types, op->concrete,
					&t->slot[i].cost);
	t->n++;
	return &t->slot[i];
}

/* A GPU's share of the FLOPs: what its measured kernels did. */
struct gpu_acc {
	double flops;
	double covered_s;	/* kernel time of ops with FLOPs */
	double matmul_s;	/* all matmul-class kernel time */
	double steps;		/* steady steps; 1 for the span */
};

static double ns_s(int64_t ns)
{
	return (double)ns / 1e9;
}

/* The op table of every GPU's measured matmul-class kernels; carriers and time per op. */
static void collect_ops(struct op_table *t, const struct run_result *rr, const struct run *r,
			struct kernel_memo *memo)
{
	for (size_t g = 0; g < r->nranks && g < rr->ngpu; g++) {
		struct steady_range st = gpu_steady_range(&rr->gpu[g]);
		const struct rank *k = &r->ranks[g];

		for (size_t i = 0; i < k->nev; i++) {
			const struct gpu_event *e = &k->ev[i];
			struct op_acc *o;

			if (e->cls != EVC_COMPUTE || !e->op || !run_measures(rr, &st, e) ||
			    !kernel_memo_get(memo, e)->matmul)
				continue;
			o = op_find(t, e->op);
			o->time_s += ns_s(e->end - e->start);
			o->carriers += flops_carrier(e->name);
		}
	}
}

/* An op counts when its shapes gave a cost and one of its kernels did the arithmetic. */
static const struct op_acc *counted(struct op_table *t, const struct gpu_event *e)
{
	const struct op_acc *o = e->op ? op_find(t, e->op) : NULL;

	return o && o->known && o->carriers > 0 ? o : NULL;
}

static void gpu_flops(struct gpu_acc *acc, struct op_table *t, const struct run_result *rr,
		      const struct rank *k, const struct gpu_result *g, struct kernel_memo *memo)
{
	struct steady_range st = gpu_steady_range(g);

	*acc = (struct gpu_acc){ .steps = gpu_per_steps(g, run_measures_span(rr)) };
	for (size_t i = 0; i < k->nev; i++) {
		const struct gpu_event *e = &k->ev[i];
		const struct op_acc *o;
		double d = ns_s(e->end - e->start);

		if (e->cls != EVC_COMPUTE || !run_measures(rr, &st, e) || !kernel_memo_get(memo, e)->matmul)
			continue;
		acc->matmul_s += d;
		if (!(o = counted(t, e)))
			continue;
		acc->covered_s += d;
		if (flops_carrier(e->name))
			acc->flops += o->cost.flops / o->cost.carriers;
	}
}

static int by_time_desc(const void *a, const void *b)
{
	const struct roof_op *x = a, *y = b;

	return (x->time_s < y->time_s) - (x->time_s > y->time_s);
}

/* The roofline's ops: every counted op, by kernel time, the first ROOFLINE_OPS kept. */
static void roof_ops(struct analysis *a, struct mfu *m, const struct op_table *t)
{
	struct roof_op *v = xcalloc(t->n ? t->n : 1, sizeof(*v));
	size_t n = 0;

	for (size_t i = 0; i < t->cap; i++) {
		const struct op_acc *o = &t->slot[i];
		double flops;

		if (!o->op || !o->known || !o->carriers || o->time_s <= 0)
			continue;
		flops = (double)o->carriers * o->cost.flops / o->cost.carriers;
		v[n++] = (struct roof_op){
			.op = o->op->name, .shape = o->op->input_dims, .dtype = o->cost.dtype,
			.time_s = o->time_s, .tflops = flops / o->time_s / 1e12,
			.flops_per_byte = o->cost.bytes > 0 ? o->cost.flops / o->cost.bytes : NAN,
		};
	}
	qsort(v, n, sizeof(*v), by_time_desc);
	m->nops = n < ROOFLINE_OPS ? n : ROOFLINE_OPS;
	m->ops = arena_alloc(&a->arena, (m->nops ? m->nops : 1) * sizeof(*m->ops));
	for (size_t i = 0; i < m->nops; i++) {
		m->ops[i] = v[i];
		m->ops[i].op = analysis_printf(a, "%s", v[i].op);
		m->ops[i].shape = v[i].shape ? analysis_printf(a, "%s", v[i].shape) : NULL;
	}
	free(v);
}

/* The GPU model of the run's slowest GPU; NULL when not in the GPU table. */
static const struct gpu_model *run_gpu(const struct run_result *rr)
{
	const struct gpu_result *g = rr->ngpu ? &rr->gpu[rr->slowest] : NULL;

	return g && g->name ? gpu_lookup(g->name, g->memory_total) : NULL;
}

/*
 * The fastest dense peak an op of input dtype t can run at: float inputs
 * may run as TF32 (allow_tf32), which the recorded type does not say.
 */
static double op_peak(const struct gpu_model *row, enum dtype t, enum dtype *as)
{
	double p = t != DT_UNKNOWN ? gpu_peak_tflops(row, t) : NAN, tf = NAN;

	*as = t;
	if (t == DT_FP32 && (tf = gpu_peak_tflops(row, DT_TF32)) > p)
		*as = DT_TF32, p = tf;
	return p;
}

/* An op's achieved TFLOP/s over its GPU's peak for its dtype (as: the peak's); NaN when either is unknown. */
static double peak_ratio(const struct op_acc *o, const struct gpu_model *row, double *tflops, double *peak,
			 enum dtype *as)
{
	*tflops = (double)o->carriers * o->cost.flops / o->cost.carriers / o->time_s / 1e12;
	*peak = op_peak(row, o->cost.dtype, as);
	return *peak > 0 ? *tflops / *peak : NAN;
}

/*
 * op-above-peak: the counted op whose shapes say it ran fastest against its
 * GPU's dense peak, when above it. No kernel computes faster than the
 * peak, so its kernel time or its recorded shapes are wrong, and an MFU
 * built on them is not evidence: the run's MFU is left unknown.
 */
static void check_peak(struct analysis *a, struct mfu *m, const struct run_result *rr, const struct op_table *t)
{
	const struct gpu_model *row = run_gpu(rr);
	const struct op_acc *worst = NULL;
	double best = OP_ABOVE_PEAK_FACTOR, tflops, peak;
	enum dtype as;
	size_t above = 0;

	for (size_t i = 0; row && i < t->cap; i++) {
		const struct op_acc *o = &t->slot[i];
		double r;

		if (!o->op || !o->known || !o->carriers || o->time_s <= 0)
			continue;
		r = peak_ratio(o, row, &tflops, &peak, &as);
		if (!(r > OP_ABOVE_PEAK_FACTOR))
			continue;
		above++;
		if (r > best)
			best = r, worst = o;
	}
	if (!worst)
		return;
	peak_ratio(worst, row, &tflops, &peak, &as);
	analysis_finding(a, DIAG_WARNING, "op-above-peak", NULL,
			 "run '%s': %s %s (%s) computed %.0f TFLOP/s by its recorded shapes over its kernel "
			 "time, above the %s's dense %s peak of %.0f TFLOP/s%s: its kernel time or its shapes "
			 "are wrong, so the run's MFU is not evidence and is left unknown", rr->name,
			 worst->op->name, worst->op->input_dims ? worst->op->input_dims : "(no shapes)",
			 dtype_name(worst->cost.dtype), tflops, row->name, dtype_name(as), peak,
			 above > 1 ? analysis_printf(a, " (%zu ops above their peak)", above) : "");
	m->value = NAN;
	m->why = "an op computed faster than the GPU's peak (op-above-peak): kernel times or shapes are wrong";
}

/* The peak and bandwidth of the run's GPU model for the dominant dtype. */
static void mfu_peak(struct mfu *m, const struct run_result *rr)
{
	const struct gpu_result *g = rr->ngpu ? &rr->gpu[rr->slowest] : NULL;
	const struct gpu_model *row = g && g->name ? gpu_lookup(g->name, g->memory_total) : NULL;

	m->dtype = rr->precision_observed;
	m->peak_tflops = row && m->dtype != DT_UNKNOWN ? gpu_peak_tflops(row, m->dtype) : NAN;
	m->memory_gbps = row && row->memory_gbps > 0 ? row->memory_gbps : NAN;
	if (!row)
		m->why = "GPU model not in the GPU table";
	else if (m->dtype == DT_UNKNOWN)
		m->why = "no dominant matmul dtype";
	else if (isnan(m->peak_tflops))
		m->why = "the GPU table has no peak for this dtype";
}

/* Run totals from the GPUs' sums: TFLOP/s over kernel time, FLOPs per step, MFU. */
static void mfu_totals(struct mfu *m, const struct run_result *rr, const struct gpu_acc *acc, size_t n)
{
	double flops = 0, covered = 0, matmul = 0, per_step = 0;

	for (size_t g = 0; g < n; g++) {
		flops += acc[g].flops, covered += acc[g].covered_s, matmul += acc[g].matmul_s;
		per_step += acc[g].steps > 0 ? acc[g].flops / acc[g].steps : NAN;
	}
	if (matmul <= 0) {
		m->why = "no matmul-class kernels";
		return;
	}
	m->covered_share = covered / matmul;
	if (covered <= 0 || flops <= 0) {
		m->why = "op shapes not recorded (profile with record_shapes=True)";
		return;
	}
	m->source = "trace-shapes";
	m->tflops = flops / covered / 1e12;
	m->flops_per_step = per_step;
	if (run_measures_span(rr) || isnan(rr->step_median_s) || rr->step_median_s <= 0) {
		m->why = "no steady step: FLOPs are over the profiled span, with no step time";
		m->flops_per_step = NAN;
		return;
	}
	m->step_tflops = per_step / (double)n / rr->step_median_s / 1e12;
	if (!m->why)
		m->value = m->step_tflops / m->peak_tflops;
}

void run_mfu(struct analysis *a, struct run_result *rr, const struct run *r, struct kernel_memo *memo)
{
	struct mfu *m = &rr->mfu;
	struct op_table t = { xcalloc(64, sizeof(*t.slot)), 64, 0 };
	size_t n = r->nranks < rr->ngpu ? r->nranks : rr->ngpu;
	struct gpu_acc *acc = xcalloc(n ? n : 1, sizeof(*acc));

	*m = (struct mfu){ NAN, NAN, NAN, NAN, DT_UNKNOWN, NAN, NAN, NAN, NULL, NULL, NULL, 0 };
	for (size_t g = 0; g < rr->ngpu; g++)
		rr->gpu[g].tflops = NAN;
	if (!n) {
		m->why = "no trace with GPU kernels";
		goto done;
	}
	collect_ops(&t, rr, r, memo);
	for (size_t g = 0; g < n; g++) {
		gpu_flops(&acc[g], &t, rr, &r->ranks[g], &rr->gpu[g], memo);
		if (acc[g].covered_s > 0 && acc[g].flops > 0)
			rr->gpu[g].tflops = acc[g].flops / acc[g].covered_s / 1e12;
	}
	mfu_peak(m, rr);
	mfu_totals(m, rr, acc, n);
	roof_ops(a, m, &t);
	check_peak(a, m, rr, &t);
done:
	free(acc);
	free(t.slot);
}
