#include "analysis/kernels.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/intern.h"
#include "core/kname.h"
#include "core/xalloc.h"

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

/*
 * The library a matmul label names: the one its name says, else the usual
 * one for its class (convolutions run in cuDNN, GEMMs in cuBLAS).
 */
static const char *label_library(const char *name, enum kname_class cls)
{
	enum kname_lib lib = kname_library(name);

	if (lib != LIB_UNKNOWN && lib != LIB_ATEN)
		return kname_lib_name(lib);
	return kname_lib_name(cls == KNAME_CONV ? LIB_CUDNN : LIB_CUBLAS);
}

void kernel_label(const struct gpu_event *e, char *buf, size_t size)
{
	const char *name = e->name ? e->name : "?";
	enum dtype dt = e->dtype != DT_UNKNOWN ? (enum dtype)e->dtype :
			kname_dtype(name, ev_input_types(e));
	const char *ty = dt != DT_UNKNOWN ? dtype_name(dt) : "";
	const char *sp = dt != DT_UNKNOWN ? " " : "";
	enum kname_class cls = e->cls == EVC_COMPUTE ? kname_class_of(name) : KNAME_OTHER;

	if (e->cls == EVC_COMM) {
		snprintf(buf, size, "%s%s%s (NCCL)", e->coll ? coll_name(e->coll) : "collective", sp, ty);
	} else if (e->cls == EVC_MEMORY) {
		snprintf(buf, size, "%s", name);
	} else if (cls == KNAME_ATTENTION) {
		bool bwd = strstr(name, "bwd") || strstr(name, "backward") || strstr(name, "Bwd") ||
			   strstr(name, "dq") || strstr(name, "dkv");
		snprintf(buf, size, "%s %s%s%s", strstr(name, "flash") ? "flash-attn" : "attention",
			 bwd ? "bwd" : "fwd", sp, ty);
	} else if (cls != KNAME_OTHER) {
		snprintf(buf, size, "%s%s%s (%s)", cls == KNAME_CONV ? "conv" : "GEMM", sp, ty,
			 label_library(name, cls));
	} else if (ev_op_name(e)) {	/* an op the trace left unnamed has a triple, no name */
		tidy_op(ev_op_name(e), buf, size);
	} else {
		short_name(name, buf, size);
	}
	for (char *c = buf; *c; c++)
		if (!isprint((unsigned char)*c))
			*c = '?';
}

/* One distinct kind of kernel and what was said of it. */
struct memo_entry {
	const char *name;	/* interned: compared by pointer */
	const struct launch_op *op;	/* the trial's: compared by pointer (its dims too) */
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

	h = h * 31 + ((uintptr_t)e->cls << 16 | (uintptr_t)e->coll << 8 | e->dtype);
	return (size_t)(h ^ (h >> 17) ^ (h >> 31));
}

static bool memo_same(const struct memo_entry *x, const struct gpu_event *e)
{
	return x->name == e->name && x->op == e->op && x->cls == e->cls && x->coll == e->coll && x->dtype == e->dtype;
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
		struct gpu_event key = { .name = x->name, .op = x->op, .cls = x->cls, .coll = x->coll, .dtype = x->dtype };

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
	*x = (struct memo_entry){ .name = key.name, .op = e->op, .cls = e->cls, .coll = e->coll, .dtype = e->dtype };
	x->facts.label = intern_str(&m->labels, buf);
	x->facts.label_index = label_index(m, x->facts.label);
	x->facts.matmul = e->cls == EVC_COMPUTE &&
			  (kname_class_of(e->name) != KNAME_OTHER || kname_op_class(ev_op_name(e)) != KNAME_OTHER);
	x->facts.dtype = e->name ? kname_dtype(e->name, ev_input_types(e)) : DT_UNKNOWN;
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
