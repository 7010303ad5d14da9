#include "analysis/stack.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/xalloc.h"

void stack_add_item(struct stack_result *r, const struct code_object *o)
{
	struct stack_item *it;
	enum code_verdict v[READINESS_MAX_TARGETS];
	struct buf fix = BUF_INIT;

	xgrow(&r->item, &r->cap, r->nitem + 1, sizeof(*r->item));
	it = &r->item[r->nitem++];
	*it = (struct stack_item){ .o = *o };
	for (size_t i = 0; i < r->tl.n; i++) {
		readiness_judge(&it->o, &r->tl.t[i], &it->j[i]);
		v[i] = it->j[i].verdict;
	}
	buf_init(&fix, 0);
	readiness_fix(&it->o, &r->tl, v, &fix);
	it->fix = fix.len ? buf_detach(&fix) : NULL;
	buf_release(&fix);
}

const char *stack_zstd_blocked(const struct stack_result *r, const struct stack_item *it, size_t *n)
{
	const char *need = readiness_zstd_driver(&it->o, n);

	return need && r->env.driver && version_cmp(r->env.driver, need) < 0 ? need : NULL;
}

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct stack_item *)a)->o.path, ((const struct stack_item *)b)->o.path);
}

static const char *const ready_names[] = {
	[STACK_YES] = "yes", [STACK_JIT] = "jit", [STACK_UNKNOWN] = "unknown", [STACK_NO] = "no",
};

const char *stack_ready_name(enum stack_ready v)
{
	return ready_names[v];
}

/* The reasons found for one target, by the verdict each leads to. */
struct reasons {
	struct buf b[STACK_NO + 1];	/* b[STACK_YES]: what the GPU code shows */
	struct buf versions;		/* the versions that meet their minimums */
};

static void reason(struct reasons *rs, enum stack_ready v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void reason(struct reasons *rs, enum stack_ready v, const char *fmt, ...)
{
	va_list ap;

	if (rs->b[v].len)
		buf_addstr(&rs->b[v], "; ");
	va_start(ap, fmt);
	buf_vaddf(&rs->b[v], fmt, ap);
	va_end(ap);
}

/*
 * Whether an item is judged on its own: not another variant of a package
 * the environment would not load, nor a variant of one whose loaded
 * variant is unknown (judged as a group, judge_groups()).
 */
static bool counted(const struct stack_item *it)
{
	return !it->alternative && !it->loaded_unknown;
}

/* Items named in one reason at most; the others are counted. */
#define STACK_NAMES 3

/* "multi.so, sm80.cubin and 2 more": the items of r judged v for target t. */
static size_t items_with(const struct stack_result *r, size_t t, enum code_verdict v, struct buf *out)
{
	size_t n = 0;

	for (size_t i = 0; i < r->nitem; i++) {
		if (!counted(&r->item[i]) || r->item[i].j[t].verdict != v)
			continue;
		if (n < STACK_NAMES)
			buf_addf(out, "%s%s", n ? ", " : "", r->item[i].o.path);
		n++;
	}
	if (n > STACK_NAMES)
		buf_addf(out, " and %zu more", n - STACK_NAMES);
	return n;
}

/*
 * What JIT from ptx costs on t: PTX of an older generation compiles without
 * t's own instructions, PTX of t's generation without its `a` (and, unless a
 * family PTX, `f`) features.
 */
static void jit_cost(const struct code_entry *ptx, const struct target *t, struct buf *out)
{
	buf_addf(out, "%s PTX only: JIT, without ", ptx->arch);
	if (ptx->sm / 10 != t->major)
		buf_addf(out, "%s's instructions", t->name);
	else if (ptx->suffix == 'f')
		buf_addf(out, "the %sa features", t->name);
	else
		buf_addf(out, "the %sa/%sf features", t->name, t->name);
}

/*
 * A jit item against the environment's driver: too old to compile its PTX
 * is no; newer than every known minimum but the PTX's own minimum unknown
 * is unknown. Without a driver the reason says it is not checked.
 */
static void jit_driver(const struct stack_result *r, const struct stack_item *it, size_t t,
		       struct reasons *rs)
{
	const struct judgement *j = &it->j[t];
	const char *drv = r->env.driver, *floor;
	int isa = j->by ? j->by->ptx_isa : -1;

	if (!drv || isa < 0)
		return;
	if (j->min_driver) {
		if (version_cmp(drv, j->min_driver) < 0)
			reason(rs, STACK_NO, "%s: its PTX (ISA %d.%d) needs driver %s or newer to compile, the "
			       "driver is %s", it->o.path, isa / 10, isa % 10, j->min_driver, drv);
		return;
	}
	floor = readiness_ptx_driver_floor(isa);
	if (floor && version_cmp(drv, floor) < 0)
		reason(rs, STACK_NO, "%s: its PTX (ISA %d.%d) needs a driver newer than %s, the driver is %s",
		       it->o.path, isa / 10, isa % 10, floor, drv);
	else
		reason(rs, STACK_UNKNOWN, "%s: whether driver %s compiles its PTX (ISA %d.%d%s%s) is unknown: "
		       "that release's minimum driver is not in the tool's table", it->o.path, drv, isa / 10,
		       isa % 10, j->min_cuda ? ", CUDA " : "", j->min_cuda ? j->min_cuda : "");
}

static void judge_items(const struct stack_result *r, size_t t, struct reasons *rs)
{
	const struct target *tg = &r->tl.t[t];
	struct buf names;
	size_t n, native = 0, jit = 0;

	buf_init(&names, 0);
	if (items_with(r, t, CODE_MISSING, &names))
		reason(rs, STACK_NO, "no code for %s in %s", tg->name, names.data);
	buf_release(&names);
	for (size_t i = 0; i < r->nitem; i++) {
		const struct stack_item *it = &r->item[i];
		const char *need = tg->vendor == TARGET_CUDA ? stack_zstd_blocked(r, it, &n) : NULL;

		if (!counted(it))
			continue;
		native += it->j[t].verdict == CODE_NATIVE;
		if (need)
			reason(rs, STACK_NO, "%s: its %zu ZSTD-compressed entr%s driver %s or newer, "
			       "the driver is %s", it->o.path, n, n == 1 ? "y needs" : "ies need", need,
			       r->env.driver);
		if (it->j[t].verdict == CODE_JIT)
			jit_driver(r, it, t, rs);
		if (it->j[t].verdict == CODE_JIT && jit++ < STACK_NAMES) {
			buf_init(&names, 0);
			jit_cost(it->j[t].by, tg, &names);
			reason(rs, STACK_JIT, "%s: %s", it->o.path, names.data);
			buf_release(&names);
		}
	}
	if (jit > STACK_NAMES)
		reason(rs, STACK_JIT, "and %zu more file%s only through PTX", jit - STACK_NAMES,
		       jit - STACK_NAMES == 1 ? "" : "s");
	if (native)
		reason(rs, STACK_YES, "native code in %zu file%s", native, native == 1 ? "" : "s");
}

/* Is group g's first item at index i (so that each group is judged and said once)? */
bool stack_group_first(const struct stack_result *r, size_t i)
{
	const char *g = r->item[i].group;

	for (size_t k = 0; g && k < i; k++)
		if (r->item[k].group && !strcmp(r->item[k].group, g))
			return false;
	return g != NULL;
}

/* The best verdict for target t among group g's variants, and the first variant that has it. */
static enum code_verdict group_best(const struct stack_result *r, const char *g, size_t t, size_t *which)
{
	static const int rank[] = { [CODE_NATIVE] = 3, [CODE_JIT] = 2, [CODE_MISSING] = 1 };
	enum code_verdict best = CODE_MISSING;

	*which = r->nitem;
	for (size_t i = 0; i < r->nitem; i++) {
		const struct stack_item *it = &r->item[i];

		if (!it->group || strcmp(it->group, g))
			continue;
		if (*which == r->nitem || rank[it->j[t].verdict] > rank[best]) {
			best = it->j[t].verdict;
			*which = i;
		}
	}
	return best;
}

/* Whether every variant of group g is one the environment would not load. */
static bool group_loads_none(const struct stack_result *r, const char *g)
{
	for (size_t i = 0; i < r->nitem; i++)
		if (r->item[i].group && !strcmp(r->item[i].group, g) && !r->item[i].alternative)
			return false;
	return true;
}

/*
 * Multi-backend packages: one whose loaded variant is unknown is as good as
 * its best variant (a native one exists: the right one may load); one
 * whose every variant is another than the environment loads has no GPU
 * library for it at all.
 */
static void judge_groups(const struct stack_result *r, size_t t, struct reasons *rs)
{
	const char *tn = r->tl.t[t].name;

	for (size_t i = 0; i < r->nitem; i++) {
		const char *g = r->item[i].group;
		size_t w;
		enum code_verdict v;

		if (!stack_group_first(r, i))
			continue;
		if (group_loads_none(r, g)) {
			reason(rs, STACK_NO, "%s: no variant matches the environment's PyTorch build, so none "
			       "loads", g);
			continue;
		}
		if (!r->item[i].loaded_unknown)
			continue;
		v = group_best(r, g, t, &w);
		if (v == CODE_NATIVE)
			reason(rs, STACK_YES, "%s: %s has native %s code (which variant loads is unknown: no "
			       "CUDA or ROCm version of PyTorch known)", g, code_object_file(&r->item[w].o), tn);
		else if (v == CODE_JIT)
			reason(rs, STACK_JIT, "%s: at best %s, through PTX only (which variant loads is "
			       "unknown)", g, code_object_file(&r->item[w].o));
		else
			reason(rs, STACK_NO, "%s: no variant has code for %s", g, tn);
	}
}

/* A check against the minimum-version table. */
static void judge_check(const struct readiness_check *c, struct reasons *rs)
{
	const struct min_version *m = c->row;
	const char *comp = stack_component_name(m->comp);

	if (!c->ok && m->version)
		reason(rs, STACK_NO, "%s %s is older than %s", comp, c->have, m->version);
	else if (!c->ok)
		reason(rs, STACK_NO, "PyTorch's arch list has no code for %s", c->target->name);
	else if (*c->via)
		reason(rs, STACK_JIT, "PyTorch's arch list has %s PTX only: JIT", c->via);
	else if (!m->version)
		reason(rs, STACK_YES, "PyTorch's arch list has native code");
	else
		buf_addf(&rs->versions, "%s%s %s", rs->versions.len ? ", " : "", comp, c->have);
}

static bool torch_build_known(const struct readiness_env *e)
{
	return e->torch_cuda || e->torch_rocm || e->torch_cpu;
}

static bool found_nothing(const struct stack_result *r)
{
	const struct readiness_env *e = &r->env;

	return !r->nitem && !r->packages && !r->env_report && !e->torch && !e->torch_cuda &&
	       !e->driver && !e->nccl && !e->cudnn && !e->rocm && !e->arch_list;
}

/*
 * Only versions (an NCCL log's, a training log's): nothing shows code that
 * runs on any GPU, so they cannot make a target yes.
 */
static bool versions_only(const struct stack_result *r)
{
	const struct readiness_env *e = &r->env;

	return !r->nitem && !r->packages && !r->env_report && !e->arch_list &&
	       !torch_build_known(e) && !found_nothing(r);
}

/*
 * PyTorch built for the other vendor, or the CPU, runs nothing on t; the
 * facts an input should give, when that input was given, and nothing at all.
 */
static void judge_env(const struct stack_result *r, const struct target *t, struct reasons *rs)
{
	const struct readiness_env *e = &r->env;
	bool cuda = t->vendor == TARGET_CUDA;

	if (e->torch_cpu)
		reason(rs, STACK_NO, "PyTorch is a CPU build: it runs nothing on a GPU");
	else if (cuda && e->torch_rocm)
		reason(rs, STACK_NO, "PyTorch is a ROCm build (ROCm %s): it has no code for NVIDIA GPUs",
		       e->torch_rocm);
	else if (!cuda && e->torch_cuda)
		reason(rs, STACK_NO, "PyTorch is a CUDA build (CUDA %s): it has no code for AMD GPUs",
		       e->torch_cuda);
	if ((r->env_report || r->packages) && !torch_build_known(e))
		reason(rs, STACK_UNKNOWN, "PyTorch's GPU build is not shown (no \"CUDA used to build "
		       "PyTorch\" line, no +cuXYZ or +rocmX.Y torch package)");
	if (cuda && r->env_report && !e->driver)
		reason(rs, STACK_UNKNOWN, "the driver is not shown (the environment report has no "
		       "\"Nvidia driver version\" line)");
	if (versions_only(r))
		reason(rs, STACK_UNKNOWN, "no GPU code, PyTorch build or arch list was found: versions "
		       "alone do not show code for %s", t->name);
}


static void decide_target(struct stack_result *r, size_t t)
{
	struct reasons rs;
	enum stack_ready v = STACK_YES;

	for (size_t k = 0; k <= STACK_NO; k++)
		buf_init(&rs.b[k], 0);
	buf_init(&rs.versions, 0);
	judge_items(r, t, &rs);
	judge_groups(r, t, &rs);
	judge_env(r, &r->tl.t[t], &rs);
	for (size_t c = 0; c < r->ncheck; c++)
		if (r->check[c].target == &r->tl.t[t])
			judge_check(&r->check[c], &rs);
	if (found_nothing(r))
		reason(&rs, STACK_UNKNOWN, "nothing found: no GPU code, environment report, package "
		       "list or arch list");
	for (size_t k = STACK_JIT; k <= STACK_NO; k++)
		if (rs.b[k].len)
			v = (enum stack_ready)k;
	if (v == STACK_YES && rs.versions.len)
		reason(&rs, STACK_YES, "%s: %s", rs.versions.data,
		       strchr(rs.versions.data, ',') ? "each meets its minimum" : "meets its minimum");
	if (v == STACK_YES && !rs.b[v].len)
		reason(&rs, STACK_YES, "nothing against it in what was given");
	if (v == STACK_YES && r->tl.t[t].vendor == TARGET_CUDA && !r->env.driver)
		reason(&rs, STACK_YES, "the driver is not checked: no input gives it");
	r->ready[t] = v;
	r->why[t] = buf_detach(&rs.b[v]);
	for (size_t k = 0; k <= STACK_NO; k++)
		buf_release(&rs.b[k]);
	buf_release(&rs.versions);
}

void stack_decide(struct stack_result *r)
{
	if (r->nitem > 1)
		qsort(r->item, r->nitem, sizeof(*r->item), by_path);	/* walks come in any order */
	for (size_t t = 0; t < r->tl.n; t++)
		decide_target(r, t);
}

enum stack_ready stack_worst(const struct stack_result *r)
{
	enum stack_ready w = STACK_YES;

	for (size_t t = 0; t < r->tl.n; t++) {
		enum stack_ready v = r->ready[t] == STACK_JIT && r->accept_jit ? STACK_YES : r->ready[t];

		w = v > w ? v : w;
	}
	return w;
}

void stack_result_release(struct stack_result *r)
{
	for (size_t i = 0; i < r->nitem; i++) {
		code_object_release(&r->item[i].o);
		free(r->item[i].fix);
	}
	free(r->item);
	for (size_t t = 0; t < READINESS_MAX_TARGETS; t++)
		free(r->why[t]);
	intern_release(&r->strings);
}
