#include "analysis/kernels.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/intern.h"
#include "core/pattern.h"
#include "core/xalloc.h"

/* Name tokens of matmul-class kernels; none of them appears in NCCL names. */
static const char *const matmul_tokens[] = {
	"gemm", "Gemm", "GEMM", "nvjet", "xmma", "cutlass", "cublas", "s16816", "h16816",
	"s1688", "h1688", "884", "flash", "fmha", "attention", "Attention", "sdpa",
	"fprop", "dgrad", "wgrad", "conv", "Conv", "cudnn", "bmm_", "matmul", "Matmul",
	"triton_tem_", "addmm", NULL
};

/* PyTorch ops whose kernels are matmul-class whatever their names. */
static const char *const matmul_ops[] = {
	"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm", "aten::matmul", "aten::linear",
	"aten::_scaled_mm", "aten::convolution", "aten::cudnn_convolution",
	"aten::_scaled_dot_product", "aten::scaled_dot_product", "aten::_flash_attention",
	"aten::_efficient_attention", NULL
};

bool op_is_matmul(const char *op)
{
	if (!op)
		return false;
	for (size_t i = 0; matmul_ops[i]; i++)
		if (!strncmp(op, matmul_ops[i], strlen(matmul_ops[i])))
			return true;
	return false;
}

static bool has_token(const char *name, const char *const *tokens)
{
	for (size_t i = 0; tokens[i]; i++)
		if (strstr(name, tokens[i]))
			return true;
	return false;
}

bool kernel_is_matmul(const char *name)
{
	if (!name || !strncmp(name, "nccl", 4) || strstr(name, "ncclKernel") ||
	    strstr(name, "ncclDevKernel"))
		return false;
	return has_token(name, matmul_tokens);
}

/*
 * Name rules, first match wins (blackwell.md §7.3): the most specific tokens
 * come first (fp8 before bf16 in "e4m3bf16"; bf16 before f16; tf32 before fp32).
 */
static const struct dtype_rule {
	const char *re;		/* first: the pattern table reads it */
	enum dtype dt;
} rules[] = {
	/* nvjet's letters first: the first is the A operand's type (nvjet_letter) */
	{ "nvjet_(?:sm\\d+_)?([a-z]{3,5})(_tf32)?_", DT_UNKNOWN },
	{ "e2m1|ue4m3xf4|ue8m0xf4|MxE2m1|nvfp4|Avec16UE4M3", DT_FP4 },
	{ "e4m3|E4m3|Float8_e4m3", DT_FP8_E4M3 },
	{ "e5m2|E5m2|Float8_e5m2", DT_FP8_E5M2 },
	{ "sss_tf32|_tf32|tf32f32|tf32_", DT_TF32 },
	{ "bf16|bfloat16|BFloat16|Bfloat16", DT_BF16 },
	{ "f16|fp16|half|Half|h16816|h1688|h884|hgemm|Fp16", DT_FP16 },
	{ "tensorop_s\\d+(?:gemm|fprop|dgrad|wgrad)|_s1688gemm|_s16816gemm", DT_TF32 },
	{ "sgemm|scudnn|f32f32_f32f32|gemm_f32|Fp32|\\bfloat\\b", DT_FP32 },
	{ "dgemm|d884|f64|\\bdouble\\b", DT_FP64 },
	{ "i8816|i16832|igemm|int8", DT_INT8 },
};

#define NRULES (sizeof(rules) / sizeof(rules[0]))

static pcre2_code *compiled[NRULES];
static struct pattern_table table = PATTERN_TABLE(rules, compiled, 0);

/* nvjet's type letters: the first is the A operand's storage type. */
static enum dtype nvjet_letter(char c, bool tf32)
{
	switch (c) {
	case 't': return DT_BF16;
	case 'h': return DT_FP16;
	case 's': return tf32 ? DT_TF32 : DT_FP32;
	case 'q': return DT_FP8_E4M3;
	case 'r': return DT_FP8_E5M2;
	case 'o': return DT_FP4;
	case 'b': return DT_INT8;
	case 'd': return DT_FP64;
	default: return DT_UNKNOWN;
	}
}

static enum dtype dtype_from_name_tokens(const char *name)
{
	size_t n = strlen(name);
	const char *g;
	size_t len;

	if (!pattern_compile(&table))
		return DT_UNKNOWN;
	if (pattern_find(&table, 0, name, n) && pattern_get(&table, 1, name, &g, &len)) {
		char a = *g;	/* the A operand's letter */
		bool tf32 = pattern_get(&table, 2, name, &g, &len) && len > 0;

		return nvjet_letter(a, tf32);
	}
	for (size_t i = 1; i < NRULES; i++)
		if (pattern_find(&table, i, name, n))
			return rules[i].dt;
	return DT_UNKNOWN;
}

static const struct {
	const char *token;
	enum dtype dt;
} torch_types[] = {
	{ "Float8_e4m3", DT_FP8_E4M3 }, { "Float8_e5m2", DT_FP8_E5M2 },
	{ "BFloat16", DT_BF16 }, { "bfloat16", DT_BF16 }, { "Half", DT_FP16 },
	{ "half", DT_FP16 }, { "float16", DT_FP16 }, { "Float", DT_FP32 }, { "float", DT_FP32 },
	{ "Double", DT_FP64 }, { "double", DT_FP64 },
};

enum dtype dtype_from_torch(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof(torch_types) / sizeof(torch_types[0]); i++) {
		size_t k = strlen(torch_types[i].token);

		for (size_t j = 0; j + k <= n; j++)
			if (!memcmp(s + j, torch_types[i].token, k))
				return torch_types[i].dt;
	}
	return DT_UNKNOWN;
}

enum dtype kernel_dtype(const char *name, const char *input_types)
{
	enum dtype dt = name ? dtype_from_name_tokens(name) : DT_UNKNOWN;

	if (dt != DT_UNKNOWN || !input_types)
		return dt;
	return dtype_from_torch(input_types, strlen(input_types));
}

#define LABEL_MAX 40	/* characters of a label, so that charts can show it whole */

/* The last identifier of a demangled name, without "void", templates or arguments. */
static void short_name(const char *name, char *buf, size_t size)
{
	const char *p = name, *start = name, *end;
	int depth = 0;

	if (!strncmp(p, "void ", 5))
		p = start = name + 5;
	for (end = p; *end; end++) {
		if (*end == '<' || *end == '(')
			depth++;
		else if ((*end == '>' || *end == ')') && depth > 0)
			depth--;
		else if (!depth && end[0] == ':' && end[1] == ':')
			start = end + 2;
		if (depth && (*end == '<' || *end == '('))
			break;
	}
	if (start > end)
		start = p;
	snprintf(buf, size, "%.*s", (int)(end - start) > LABEL_MAX ? LABEL_MAX : (int)(end - start), start);
}

/*
 * An op name as a person reads it: without the autograd engine's prefix and
 * the namespaces before its last component, cut to LABEL_MAX characters.
 */
static void tidy_op(const char *op, char *buf, size_t size)
{
	static const char prefix[] = "autograd::engine::evaluate_function: ";
	const char *start, *p;
	int depth = 0;
	size_t n;

	if (!strncmp(op, prefix, sizeof(prefix) - 1))
		op += sizeof(prefix) - 1;
	for (start = p = op; *p; p++) {
		if (*p == '<' || *p == '(')
			depth++;
		else if ((*p == '>' || *p == ')') && depth > 0)
			depth--;
		else if (!depth && p[0] == ':' && p[1] == ':' && p[2] && p[2] != ':')
			start = p + 2;
	}
	if (!strncmp(op, "aten::", 6) && start == op + 6)
		start = op;	/* aten::mm says more than mm */
	n = strlen(start);
	if (n > LABEL_MAX)
		snprintf(buf, size, "%.*s...", LABEL_MAX - 3, start);
	else
		snprintf(buf, size, "%s", start);
}

static const char *library_of(const char *name)
{
	if (strstr(name, "nvjet"))
		return "cuBLAS nvjet";
	if (strstr(name, "cutlass"))
		return "CUTLASS";
	if (strstr(name, "cudnn") || strstr(name, "fprop") || strstr(name, "dgrad") ||
	    strstr(name, "wgrad") || strstr(name, "conv") || strstr(name, "Conv"))
		return "cuDNN";
	return "cuBLAS";
}

void kernel_label(const struct gpu_event *e, char *buf, size_t size)
{
	const char *name = e->name ? e->name : "?";
	enum dtype dt = e->dtype != DT_UNKNOWN ? (enum dtype)e->dtype :
			kernel_dtype(name, e->input_types);
	const char *ty = dt != DT_UNKNOWN ? dtype_name(dt) : "";
	const char *sp = dt != DT_UNKNOWN ? " " : "";

	if (e->cls == EVC_COMM) {
		snprintf(buf, size, "%s%s%s (NCCL)", e->coll ? coll_name(e->coll) : "collective", sp, ty);
	} else if (e->cls == EVC_MEMORY) {
		snprintf(buf, size, "%s", name);
	} else if (strstr(name, "flash") || strstr(name, "fmha") || strstr(name, "ttention")) {
		bool bwd = strstr(name, "bwd") || strstr(name, "backward") || strstr(name, "Bwd") ||
			   strstr(name, "dq") || strstr(name, "dkv");
		snprintf(buf, size, "%s %s%s%s", strstr(name, "flash") ? "flash-attn" : "attention",
			 bwd ? "bwd" : "fwd", sp, ty);
	} else if (kernel_is_matmul(name)) {
		bool conv = strstr(name, "conv") || strstr(name, "fprop") || strstr(name, "grad");
		snprintf(buf, size, "%s%s%s (%s)", conv ? "conv" : "GEMM", sp, ty, library_of(name));
	} else if (e->op) {
		tidy_op(e->op, buf, size);
	} else {
		short_name(name, buf, size);
	}
	for (char *c = buf; *c; c++)
		if (!isprint((unsigned char)*c))
			*c = '?';
}

/* One distinct kind of kernel and what was said of it. */
struct memo_entry {
	const char *name, *op, *types;	/* interned: compared by pointer */
	uint8_t cls, coll, dtype;
	struct kernel_facts facts;
};

struct kernel_memo {
	struct memo_entry *slots;	/* open addressing; name NULL = empty */
	size_t cap;			/* power of two */
	size_t n;
	struct intern labels;
	const char **by_index;		/* distinct labels, by label_index */
	size_t nlabels, cap_labels;
};

struct kernel_memo *kernel_memo_new(void)
{
	struct kernel_memo *m = xcalloc(1, sizeof(*m));

	m->cap = 256;
	m->slots = xcalloc(m->cap, sizeof(*m->slots));
	return m;
}

static size_t memo_hash(const struct gpu_event *e)
{
	uintptr_t h = (uintptr_t)e->name * 31 + (uintptr_t)e->op;

	h = h * 31 + (uintptr_t)e->input_types;
	h = h * 31 + ((uintptr_t)e->cls << 16 | (uintptr_t)e->coll << 8 | e->dtype);
	return (size_t)(h ^ (h >> 17) ^ (h >> 31));
}

static bool memo_same(const struct memo_entry *x, const struct gpu_event *e)
{
	return x->name == e->name && x->op == e->op && x->types == e->input_types &&
	       x->cls == e->cls && x->coll == e->coll && x->dtype == e->dtype;
}

static struct memo_entry *memo_slot(struct memo_entry *slots, size_t cap, const struct gpu_event *e)
{
	size_t i = memo_hash(e) & (cap - 1);

	while (slots[i].name && !memo_same(&slots[i], e))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static void memo_grow(struct kernel_memo *m)
{
	size_t cap = m->cap * 2;
	struct memo_entry *slots = xcalloc(cap, sizeof(*slots));

	for (size_t i = 0; i < m->cap; i++) {
		const struct memo_entry *x = &m->slots[i];
		struct gpu_event key = { .name = x->name, .op = x->op, .input_types = x->types,
					 .cls = x->cls, .coll = x->coll, .dtype = x->dtype };

		if (x->name)
			*memo_slot(slots, cap, &key) = *x;
	}
	free(m->slots);
	m->slots = slots;
	m->cap = cap;
}

/* The index of a label, adding it to the list when it is new. */
static size_t label_index(struct kernel_memo *m, const char *label)
{
	for (size_t i = 0; i < m->nlabels; i++)	/* only when a new kind of kernel appears */
		if (m->by_index[i] == label)
			return i;
	xgrow(&m->by_index, &m->cap_labels, m->nlabels + 1, sizeof(*m->by_index));
	m->by_index[m->nlabels] = label;
	return m->nlabels++;
}

const struct kernel_facts *kernel_memo_get(struct kernel_memo *m, const struct gpu_event *e)
{
	static const char unnamed[] = "?";
	struct gpu_event key = *e;
	struct memo_entry *x;
	char buf[160];

	if (!key.name)
		key.name = unnamed;	/* an empty slot is a NULL name */
	x = memo_slot(m->slots, m->cap, &key);
	if (x->name)
		return &x->facts;
	if ((m->n + 1) * 4 > m->cap * 3) {
		memo_grow(m);
		x = memo_slot(m->slots, m->cap, &key);
	}
	kernel_label(e, buf, sizeof(buf));
	*x = (struct memo_entry){ .name = key.name, .op = e->op, .types = e->input_types,
				  .cls = e->cls, .coll = e->coll, .dtype = e->dtype };
	x->facts.label = intern_str(&m->labels, buf);
	x->facts.label_index = label_index(m, x->facts.label);
	x->facts.matmul = e->cls == EVC_COMPUTE && (kernel_is_matmul(e->name) || op_is_matmul(e->op));
	x->facts.dtype = e->name ? kernel_dtype(e->name, e->input_types) : DT_UNKNOWN;
	m->n++;
	return &x->facts;
}

size_t kernel_memo_labels(const struct kernel_memo *m)
{
	return m->nlabels;
}

void kernel_memo_free(struct kernel_memo *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m->by_index);
	intern_release(&m->labels);
	free(m);
}
